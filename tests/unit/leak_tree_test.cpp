// SPDX-License-Identifier: GPL-2.0-or-later
// Suspects among contexts and on the calling-context tree, and the whole
// analysis (analyze/leak_tree.hpp, analyze/heap_analysis.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analyze/heap_analysis.hpp"
#include "strata_profile.hpp"

namespace strata::test {
namespace {

// Site 1 is big and steady; site 2 leaks 8 bytes a cycle of 100 (marker
// "c"), far under the 1% threshold: it is still listed, as a suspect.
TEST(AnalyzeHeap, ASmallLeakIsNotFoldedAway) {
  std::vector<std::string> lines{"F|1|0x10|0|big|a.c|1|", "F|2|0x20|0|small|a.c|2|", "S|1|1",
                                 "S|2|2"};
  for (int k = 0; k < 6; ++k) {
    std::string t = std::to_string(k * 100);
    lines.push_back("M|" + t + "|c");
    std::string held = std::to_string(8 * k), peak = std::to_string(8 * k + 64);
    lines.push_back("T|regular|" + std::to_string(k * 100 + 50) + "|0|0|0");
    if (k == 0) lines.push_back("s|1|1000000|1|0|1000000");
    lines.push_back("s|2|" + peak + "|1|" + held + "|" + peak);
    lines.push_back("E");
    lines.push_back("T|regular|" + std::to_string(k * 100 + 99) + "|0|0|0");
    lines.push_back("s|2|" + std::to_string(8 * k + 8) + "|1|" + std::to_string(8 * k + 8) + "|" +
                    peak);
    lines.push_back("E");
  }
  lines.push_back("X|600");
  std::string text;
  for (std::string line : lines) {
    for (char& c : line) c = c == '|' ? '\t' : c;
    text += line + "\n";
  }
  HeapAnalysis analysis = analyze_heap(read_text(profile(text)), {});
  EXPECT_EQ(analysis.leaks.cycles.source, CycleSource::markers);
  ASSERT_EQ(analysis.leaks.suspects.size(), 1u);
  const Leak& leak = analysis.leaks.suspects[0];
  const Context& context = analysis.contexts.contexts[leak.context];
  EXPECT_FALSE(context.other());
  EXPECT_LT(context.spacetime_pct, 1.0);
  EXPECT_EQ(leak.kind, LeakKind::rising_trough);
  EXPECT_NEAR(leak.growth_bytes, 8.0, 0.01);
  EXPECT_EQ(leak.end_bytes, 48u);
}

// ---- leaks on the calling-context tree ------------------------------------------------

namespace tree {

// A profile of `frames` ("F|..." bodies without the F and id), `stacks`
// (frame ids, innermost first) and each site's bytes at times 0 to n - 1,
// one snapshot a time unit.
std::string profile_of(const std::vector<std::string>& frames,
                       const std::vector<std::string>& stacks, std::size_t n,
                       const std::function<std::uint64_t(std::size_t, std::size_t)>& bytes) {
  std::string text;
  auto line = [&](std::string l) {
    for (char& c : l) c = c == '|' ? '\t' : c;
    text += l + "\n";
  };
  for (std::size_t f = 0; f < frames.size(); ++f)
    line("F|" + std::to_string(f + 1) + "|" + frames[f]);
  for (std::size_t s = 0; s < stacks.size(); ++s)
    line("S|" + std::to_string(s + 1) + "|" + stacks[s]);
  for (std::size_t t = 0; t < n; ++t) {
    line("T|regular|" + std::to_string(t) + "|0|0|0");
    for (std::size_t s = 0; s < stacks.size(); ++s) {
      std::string b = std::to_string(bytes(s, t));
      line("s|" + std::to_string(s + 1) + "|" + b + "|1|" + b + "|" + b);
    }
    line("E");
  }
  line("X|" + std::to_string(n - 1));
  return profile(text);
}

std::string frame_names(const Model& model, const std::vector<FrameId>& frames) {
  std::string out;
  for (FrameId id : frames) out += (out.empty() ? "" : " ") + model.frame(id).function;
  return out;
}

}  // namespace tree

// session_create is called by warmup (which grows it over the first half of
// the run, then stops) and by serve (which grows it over the second half):
// one leak, named at session_create, its growth split between the callers.
TEST(TreeLeaks, ALeakSplitAcrossCallersIsNamedOnce) {
  std::string text = tree::profile_of(
      {"0x10|0|alloc|a.c|1|/bin/p", "0x20|0|session_create|a.c|2|/bin/p",
       "0x30|0|warmup|a.c|3|/bin/p", "0x40|0|serve|a.c|4|/bin/p", "0x50|0|main|a.c|5|/bin/p",
       "0x60|0|table|a.c|6|/bin/p"},
      {"1|2|3|5", "1|2|4|5", "6|5"}, 400, [](std::size_t site, std::size_t t) -> std::uint64_t {
        if (site == 0) return 64 * std::min<std::size_t>(t, 200);
        if (site == 1) return 64 * (t > 200 ? t - 200 : 0);
        return 100000;
      });
  Model model = read_text(text);
  HeapAnalysis analysis = analyze_heap(model, {});
  ASSERT_EQ(analysis.leaks.suspects.size(), 1u);
  const Leak& leak = analysis.leaks.suspects[0];
  const Context& context = analysis.contexts.contexts[leak.context];
  EXPECT_EQ(tree::frame_names(model, context.frames), "alloc session_create");
  EXPECT_EQ(context.sites.size(), 2u);
  ASSERT_EQ(leak.curves()->parts.size(), 2u);
  EXPECT_NEAR(leak.curves()->parts[0].growth_bytes, leak.curves()->parts[1].growth_bytes, 64 * 10);
  std::set<std::string> callers{tree::frame_names(model, leak.curves()->parts[0].frames),
                                tree::frame_names(model, leak.curves()->parts[1].frames)};
  EXPECT_EQ(callers, (std::set<std::string>{"warmup", "serve"}));
}

// alloc is called by a steady cache (flat) and by a leaking logger: the
// logger carries all of alloc's growth, so the leak is named at the logger's
// stack, not at alloc.
TEST(TreeLeaks, ALeakIsNamedAtTheDeepestNodeThatCarriesIt) {
  std::string text = tree::profile_of({"0x10|0|alloc|a.c|1|/bin/p", "0x20|0|cache|a.c|2|/bin/p",
                                       "0x30|0|logger|a.c|3|/bin/p", "0x50|0|main|a.c|5|/bin/p"},
                                      {"1|2|4", "1|3|4"}, 400,
                                      [](std::size_t site, std::size_t t) -> std::uint64_t {
                                        return site == 0 ? 50000 + 1000 * (t % 3) : 32 * t;
                                      });
  Model model = read_text(text);
  HeapAnalysis analysis = analyze_heap(model, {});
  ASSERT_EQ(analysis.leaks.suspects.size(), 1u);
  const Leak& leak = analysis.leaks.suspects[0];
  EXPECT_EQ(tree::frame_names(model, analysis.contexts.contexts[leak.context].frames),
            "alloc logger main");
  EXPECT_TRUE(leak.curves()->parts.empty());
}

}  // namespace
}  // namespace strata::test
