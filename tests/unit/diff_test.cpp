// SPDX-License-Identifier: GPL-2.0-or-later
// strata diff's comparison (analyze/diff.hpp) on hand-written profiles: the
// contexts' bytes, a massif.out file against a strata profile of the same
// stacks, the measures of its header.
#include "analyze/diff.hpp"

#include <string>
#include <vector>

#include "strata_profile.hpp"

namespace strata::test {
namespace {

// Two sites under main: alloc <- a <- main (40 bytes) and alloc <- b <- main
// (24 bytes), then both gone, and a peak with 8 bytes of extra heap.
std::string two_callers(std::uint64_t a_bytes) {
  std::string a = std::to_string(a_bytes), total = std::to_string(a_bytes + 24);
  return profile(records({
      "F|1|0x10|0|alloc|p.c|1|",
      "F|2|0x20|0|a|p.c|2|",
      "F|3|0x30|0|b|p.c|3|",
      "F|4|0x40|0|main|p.c|4|",
      "S|1|1|2|4",
      "S|2|1|3|4",
      "T|regular|10|" + total + "|8|0",
      "s|1|" + a + "|1|0|" + a,
      "s|2|24|1|0|24",
      "E",
      "T|peak|10|" + total + "|8|0",
      "s|1|" + a + "|1|" + a + "|" + a,
      "s|2|24|1|24|24",
      "E",
      "X|20",
  }));
}

std::string names(const std::vector<Frame>& frames) {
  std::string text;
  for (const Frame& frame : frames) text += (text.empty() ? "" : " ") + frame.function;
  return text;
}

TEST(Diff, ContextsGetTheBytesOfTheSitesUnderThem) {
  Model old_model = read_text(two_callers(40)), new_model = read_text(two_callers(100));
  Diff diff = diff_profiles(old_model, new_model, {.threshold = 0});
  std::vector<std::string> got;
  for (const DiffContext& c : diff.contexts) {
    got.push_back(names(c.frames) + " " + std::to_string(c.peak.old_bytes) + " " +
                  std::to_string(c.peak.new_bytes));
  }
  // The callers of alloc are contexts of their own, the largest change first.
  EXPECT_EQ(got, (std::vector<std::string>{"alloc a main 40 100", "alloc b main 24 24"}));
  // With --depth=1, one context: the stacks that start with its names.
  diff = diff_profiles(old_model, new_model, {.depth = 1, .threshold = 0});
  ASSERT_EQ(diff.contexts.size(), 1u);
  EXPECT_EQ(names(diff.contexts[0].frames), "alloc");
  EXPECT_EQ(diff.contexts[0].peak.old_bytes, 64u);
  EXPECT_EQ(diff.contexts[0].peak.new_bytes, 124u);
}

TEST(Diff, ThePeakIsTheUsefulHeapAsTheContextsAre) {
  Model old_model = read_text(two_callers(40)), new_model = read_text(two_callers(100));
  Diff diff = diff_profiles(old_model, new_model, {});
  EXPECT_EQ(diff.peak.old_bytes, 64u);  // not 72, with the extra heap
  EXPECT_EQ(diff.peak.new_bytes, 124u);
}

// massif ends a stack that goes below main with "(below main)"; strata cuts it.
TEST(Diff, BelowMainIsNoChange) {
  Model massif = read_massif_text(
      "desc: (none)\ncmd: ./p\ntime_unit: i\n"
      "#-----------\nsnapshot=0\n#-----------\ntime=10\nmem_heap_B=64\nmem_heap_extra_B=0\n"
      "mem_stacks_B=0\nheap_tree=peak\n"
      "n1: 64 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
      " n2: 64 0x10: alloc (p.c:1)\n"
      "  n1: 40 0x20: a (p.c:2)\n"
      "   n1: 40 0x40: main (p.c:4)\n"
      "    n0: 40 0x50: (below main) (libc-start.c:308)\n"
      "  n1: 24 0x30: b (p.c:3)\n"
      "   n1: 24 0x40: main (p.c:4)\n"
      "    n0: 24 0x50: (below main) (libc-start.c:308)\n");
  Model strata = read_text(two_callers(40));
  Diff diff = diff_profiles(massif, strata, {.threshold = 0});
  ASSERT_FALSE(diff.contexts.empty());
  for (const DiffContext& c : diff.contexts) {
    EXPECT_EQ(c.peak.change(), 0) << names(c.frames);
    EXPECT_GT(c.peak.old_bytes, 0u) << names(c.frames);
  }
}

}  // namespace
}  // namespace strata::test
