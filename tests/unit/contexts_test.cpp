// SPDX-License-Identifier: GPL-2.0-or-later
// Contexts: wildcards, the post-hoc options, grouping, spacetime, ranking and
// folding, on hand-written profiles.
#include "contexts.hpp"

#include "strata_profile.hpp"

namespace strata::test {
namespace {

TEST(Wildcard, Matches) {
  EXPECT_TRUE(wildcard_match("xmalloc", "xmalloc"));
  EXPECT_FALSE(wildcard_match("xmalloc", "xmalloc2"));
  EXPECT_TRUE(wildcard_match("x*", "xmalloc"));
  EXPECT_TRUE(wildcard_match("*alloc", "xmalloc"));
  EXPECT_TRUE(wildcard_match("*", ""));
  EXPECT_TRUE(wildcard_match("Pool::alloc(*", "Pool::alloc(unsigned long)"));
  EXPECT_TRUE(wildcard_match("?malloc", "xmalloc"));
  EXPECT_FALSE(wildcard_match("?malloc", "malloc"));
  EXPECT_TRUE(wildcard_match("a*b*c", "a__b__b__c"));
  EXPECT_FALSE(wildcard_match("a*b*c", "a__b__b__"));
}

// Three frames: wrap (the wrapper, called by) caller (inlined into) outer.
std::string wrapped_profile() {
  return profile(records({"F|1|0x10|0|xwrap|w.c|3|/bin/p", "F|2|0x20|1|caller|c.c|7|/bin/p",
                          "F|3|0x20|0|outer|c.c|9|/bin/p", "F|4|0x30|0|main|m.c|1|/bin/p",
                          "F|5|0x40|0|other|c.c|20|/bin/p", "S|1|1|2|3|4", "S|2|1|5|4", "S|3|2|3|4",
                          "T|regular|0|0|0|0", "s|1|100|1|0|100", "s|2|50|1|0|50", "s|3|10|1|0|10",
                          "E", "T|regular|10|0|0|0", "E", "X|10"}));
}

std::vector<std::string> names(const Model& model, const std::vector<FrameId>& frames) {
  std::vector<std::string> out;
  for (FrameId id : frames) out.push_back(model.frame(id).function);
  return out;
}

TEST(ContextFrames, AllocFnAndDepth) {
  Model model = read_text(wrapped_profile());
  const Site& site = model.sites[0];
  using V = std::vector<std::string>;
  EXPECT_EQ(names(model, context_frames(model, site, {})), (V{"xwrap", "caller", "outer", "main"}));
  ContextOptions alloc{.alloc_fns = {"x*"}};
  EXPECT_EQ(names(model, context_frames(model, site, alloc)), (V{"caller", "outer", "main"}));
  // --depth counts code addresses: caller is inlined into outer, one address.
  ContextOptions depth{.depth = 2};
  EXPECT_EQ(names(model, context_frames(model, site, depth)), (V{"xwrap", "caller", "outer"}));
  ContextOptions both{.depth = 1, .alloc_fns = {"nothing", "xwrap"}};
  EXPECT_EQ(names(model, context_frames(model, site, both)), (V{"caller", "outer"}));
}

TEST(GroupContexts, AllocFnRegroups) {
  Model model = read_text(wrapped_profile());
  ContextOptions options{.depth = 1, .threshold = 0, .alloc_fns = {"xwrap"}};
  Contexts contexts = group_contexts(model, options);
  // Sites 1 and 3 are both caller/outer once xwrap is gone; site 2 is other.
  ASSERT_EQ(contexts.contexts.size(), 2u);
  EXPECT_EQ(contexts.contexts[0].sites.size(), 2u);
  EXPECT_EQ(contexts.contexts[0].end_bytes, 110u);
  EXPECT_EQ(names(model, contexts.contexts[1].frames), std::vector<std::string>{"other"});
}

// Site 1 holds 100 bytes throughout; site 2 rises 0, 100, 200; site 3 holds 2
// bytes briefly.  Times 0, 10, 30: trapezoid weights 5, 15, 10.
std::string ranked_profile() {
  return profile(records({
      "F|1|0x10|0|one|a.c|1|",
      "F|2|0x20|0|two|a.c|2|",
      "F|3|0x30|0|three|a.c|3|",
      "S|1|1",
      "S|2|2",
      "S|3|3",
      "T|regular|0|100|0|0",
      "s|1|100|1|0|100",
      "E",
      "T|regular|10|202|0|0",
      "s|2|100|1|0|100",
      "s|3|2|1|0|2",
      "E",
      "T|peak|20|250|0|0",
      "s|1|100|1|100|100",
      "s|2|150|1|150|150",
      "E",
      "T|regular|30|300|0|0",
      "s|2|200|2|100|200",
      "s|3|0|0|0|2",
      "E",
      "X|30",
  }));
}

TEST(GroupContexts, SpacetimeRankAndSeries) {
  Model model = read_text(ranked_profile());
  Contexts contexts = group_contexts(model, {.threshold = 0});
  ASSERT_EQ(contexts.snapshots.size(), 4u);  // the peak too: it has site data
  ASSERT_EQ(contexts.contexts.size(), 3u);
  const Context& two = contexts.contexts[0];
  const Context& one = contexts.contexts[1];
  // Times 0, 10, 20, 30: weights 5, 10, 10, 5.
  EXPECT_DOUBLE_EQ(one.spacetime, 100.0 * 30);
  EXPECT_DOUBLE_EQ(two.spacetime, 100.0 * 10 + 150.0 * 10 + 200.0 * 5);
  EXPECT_DOUBLE_EQ(contexts.spacetime, one.spacetime + two.spacetime + 2.0 * 10);
  EXPECT_NEAR(one.spacetime_pct + two.spacetime_pct + contexts.contexts[2].spacetime_pct, 100.0,
              1e-9);
  EXPECT_EQ(two.peak_bytes, 150u);
  EXPECT_EQ(two.end_bytes, 200u);
  EXPECT_EQ(two.max_bytes, 200u);
  ASSERT_EQ(two.series.size(), 4u);
  EXPECT_EQ(two.series[2].snapshot, 2u);
  EXPECT_EQ(two.series[2].time, 20u);
  EXPECT_EQ(two.series[3].bytes, 200u);
  EXPECT_EQ(two.series[3].min, 100u);  // the low since the chain snapshot before
  EXPECT_EQ(one.series[3].min, 100u);  // unchanged: min = max = bytes
}

TEST(GroupContexts, ThresholdFoldsIntoOtherPlaces) {
  Model model = read_text(ranked_profile());
  Contexts contexts = group_contexts(model, {});  // threshold 1%: site 3 is 0.3%
  ASSERT_EQ(contexts.contexts.size(), 3u);
  const Context& other = contexts.contexts[2];
  EXPECT_TRUE(other.other());
  EXPECT_EQ(other.folded, 1u);
  EXPECT_TRUE(other.frames.empty());
  EXPECT_EQ(other.series[1].bytes, 2u);
  EXPECT_GT(other.spacetime_pct, 0.0);
}

TEST(GroupContexts, TopAndKeep) {
  Model model = read_text(ranked_profile());
  Contexts top = group_contexts(model, {.threshold = 0, .top = 1});
  ASSERT_EQ(top.contexts.size(), 2u);
  EXPECT_EQ(top.contexts[1].folded, 2u);
  // A context kept is listed whatever its rank.
  auto keep = [&](const Context& c) { return model.frame(c.frames[0]).function == "three"; };
  Contexts kept = group_contexts(model, {.threshold = 50, .top = 1}, keep);
  ASSERT_EQ(kept.contexts.size(), 3u);
  EXPECT_EQ(model.frame(kept.contexts[1].frames[0]).function, "three");
  EXPECT_EQ(kept.contexts[2].folded, 1u);
}

TEST(GroupContexts, NoSnapshots) {
  Model model = read_text(profile(records({"F|1|0x10|0|one|a.c|1|", "S|1|1", "X|5"})));
  Contexts contexts = group_contexts(model, {});
  EXPECT_TRUE(contexts.snapshots.empty());
  ASSERT_EQ(contexts.contexts.size(), 1u);  // a site without data is 0%, folded
  EXPECT_EQ(contexts.contexts[0].folded, 1u);
}

// A massif.out file: only its detailed snapshots have site data.
TEST(GroupContexts, MassifDetailedOnly) {
  Model model = read_massif_text(
      "desc: (none)\ncmd: ./p\ntime_unit: B\n"
      "#-----------\nsnapshot=0\n#-----------\ntime=0\nmem_heap_B=0\nmem_heap_extra_B=0\n"
      "mem_stacks_B=0\nheap_tree=empty\n"
      "#-----------\nsnapshot=1\n#-----------\ntime=100\nmem_heap_B=64\nmem_heap_extra_B=0\n"
      "mem_stacks_B=0\nheap_tree=detailed\n"
      "n1: 64 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
      " n0: 64 0x4005D2: f (p.c:3)\n"
      "#-----------\nsnapshot=2\n#-----------\ntime=200\nmem_heap_B=64\nmem_heap_extra_B=0\n"
      "mem_stacks_B=0\nheap_tree=empty\n");
  Contexts contexts = group_contexts(model, {});
  EXPECT_EQ(contexts.snapshots, std::vector<std::size_t>{1});
  ASSERT_EQ(contexts.contexts.size(), 1u);
  EXPECT_EQ(contexts.contexts[0].end_bytes, 64u);  // as at the last detailed snapshot
}

}  // namespace
}  // namespace strata::test
