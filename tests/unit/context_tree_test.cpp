// SPDX-License-Identifier: GPL-2.0-or-later
// The calling-context tree: its shape, its sums, and the contexts chosen
// from it (the folding rule, the budget, kept stacks), against --depth.
#include "analyze/context_tree.hpp"

#include <map>

#include "analyze/heap_analysis.hpp"
#include "analyze/moments.hpp"
#include "strata_profile.hpp"

namespace strata::test {
namespace {

// alloc is called by a (from two lines of main), b, c and d; lone by main.
// Bytes held all the time: a 400 + 100, b 300, c 5, d 5, lone 190 (of 1000).
std::string tree_profile() {
  return profile(records({
      "F|1|0x10|0|alloc|m.c|1|/bin/p",
      "F|2|0x20|0|a|m.c|2|/bin/p",
      "F|3|0x30|0|b|m.c|3|/bin/p",
      "F|4|0x40|0|c|m.c|4|/bin/p",
      "F|5|0x50|0|main|m.c|5|/bin/p",
      "F|6|0x51|0|main|m.c|6|/bin/p",
      "F|7|0x70|0|lone|m.c|7|/bin/p",
      "F|8|0x80|0|d|m.c|8|/bin/p",
      "S|1|1|2|5",
      "S|2|1|3|5",
      "S|3|1|4|5",
      "S|4|1|2|6",
      "S|5|7|5",
      "S|6|1|8|5",
      "T|regular|0|1000|0|0",
      "s|1|400|1|0|400",
      "s|2|300|1|0|300",
      "s|3|5|1|0|5",
      "s|4|100|1|0|100",
      "s|5|190|1|0|190",
      "s|6|5|1|0|5",
      "E",
      "T|regular|10|1000|0|0",
      "E",
      "X|10",
  }));
}

std::string names(const Model& model, const std::vector<FrameId>& frames) {
  std::string out;
  for (FrameId id : frames) out += (out.empty() ? "" : " ") + model.frame(id).function;
  return out;
}

struct Measured {
  Model model;
  SeriesBuilder builder;
  SeriesMeasure measure;
  ContextTree tree;

  explicit Measured(std::string text)
      : model(read_text(text)), builder(model), measure(model, builder), tree(model, {}) {
    tree.measure(builder, measure);
  }
};

TEST(ContextTree, AllocatingCallSitesThenTheirCallers) {
  Measured m(tree_profile());
  const ContextTree& tree = m.tree;
  std::span<const NodeId> sites = tree.children(tree.root());
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(names(m.model, tree.frames(sites[0])), "alloc");  // the largest first
  EXPECT_EQ(names(m.model, tree.frames(sites[1])), "lone");
  std::span<const NodeId> callers = tree.children(sites[0]);
  ASSERT_EQ(callers.size(), 4u);
  EXPECT_EQ(names(m.model, tree.frames(callers[0])), "alloc a");
  EXPECT_EQ(names(m.model, tree.frames(callers[1])), "alloc b");
  EXPECT_EQ(tree.sites(sites[0]).size(), 5u);
  EXPECT_EQ(tree.own_sites(sites[0]).size(), 0u);
  // a is called from two lines of main: two children, each a whole stack.
  std::span<const NodeId> mains = tree.children(callers[0]);
  ASSERT_EQ(mains.size(), 2u);
  EXPECT_EQ(tree.own_sites(mains[0]).size(), 1u);
  EXPECT_EQ(tree.node(mains[0]).depth, 3u);
  EXPECT_EQ(m.model.frame(tree.own_frames(mains[0])[0]).line, 5u);
}

// Each node holds its own stacks' bytes plus its children's.
TEST(ContextTree, ChildrenSumToTheirParent) {
  Measured m(tree_profile());
  const ContextTree& tree = m.tree;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    NodeId id{static_cast<std::uint32_t>(i)};
    const ContextNode& node = tree.node(id);
    double spacetime = node.own_spacetime;
    std::uint64_t peak = node.own_peak_bytes;
    std::size_t sites = tree.own_sites(id).size();
    for (NodeId child : tree.children(id)) {
      spacetime += tree.node(child).spacetime;
      peak += tree.node(child).peak_bytes;
      sites += tree.sites(child).size();
    }
    EXPECT_DOUBLE_EQ(node.spacetime, spacetime) << "node " << i;
    EXPECT_EQ(node.peak_bytes, peak) << "node " << i;
    EXPECT_EQ(tree.sites(id).size(), sites) << "node " << i;
    // A node's series is its sites' (as judge_series would see it).
    Context context = tree.context(id, m.builder, m.measure);
    EXPECT_EQ(context.peak_bytes, node.peak_bytes);
  }
  EXPECT_EQ(tree.node(tree.root()).peak_bytes, 1000u);
}

// Every snapshot's bytes, summed over the contexts (the "other places" too),
// are the heap's; and no site is in two contexts.
void expect_adds_up(const Model& model, const Contexts& contexts) {
  SeriesBuilder builder(model);
  std::vector<SiteId> all;
  for (std::size_t i = 0; i < model.sites.size(); ++i) all.push_back(static_cast<SiteId>(i));
  std::vector<ContextPoint> heap = builder.of(all);
  std::map<SiteId, int> seen;
  for (const Context& context : contexts.contexts) {
    for (SiteId site : context.sites) ++seen[site];
  }
  EXPECT_EQ(seen.size(), model.sites.size());
  for (const auto& [site, times] : seen) EXPECT_EQ(times, 1);
  for (std::size_t k = 0; k < heap.size(); ++k) {
    std::uint64_t sum = 0;
    for (const Context& context : contexts.contexts) sum += context.series[k].bytes;
    EXPECT_EQ(sum, heap[k].bytes);
  }
}

std::vector<std::string> context_names(const Model& model, const Contexts& contexts) {
  std::vector<std::string> out;
  for (const Context& c : contexts.contexts) {
    std::string prefix = c.other()                                ? "other places"
                         : c.shape == ContextShape::other_callers ? "other callers of "
                         : c.shape == ContextShape::callers       ? "callers of "
                                                                  : "";
    out.push_back(prefix + names(model, c.frames));
  }
  return out;
}

using Names = std::vector<std::string>;

TEST(TreeContexts, CallersOverTheThresholdSplitOff) {
  Model model = read_text(tree_profile());
  Contexts contexts = group_contexts(model, {});  // the tree, 1%
  // c and d (0.5% each) stay in alloc, as "other callers of alloc" (1%).
  EXPECT_EQ(context_names(model, contexts), (Names{"alloc a main", "alloc b main", "lone main",
                                                   "alloc a main", "other callers of alloc"}));
  expect_adds_up(model, contexts);
  // Over 2%, that rest is folded into the other places.
  contexts = group_contexts(model, {.threshold = 2});
  EXPECT_EQ(context_names(model, contexts),
            (Names{"alloc a main", "alloc b main", "lone main", "alloc a main", "other places"}));
  EXPECT_EQ(contexts.contexts.back().folded, 2u);  // two stacks
  expect_adds_up(model, contexts);
  // Over 45%, only a (50%): alloc's other callers (31%) and lone (19%) are
  // under it, so in the other places.
  contexts = group_contexts(model, {.threshold = 45});
  EXPECT_EQ(context_names(model, contexts), (Names{"callers of alloc a", "other places"}));
  expect_adds_up(model, contexts);
}

TEST(TreeContexts, TheBudgetStopsTheSplits) {
  Model model = read_text(tree_profile());
  // Two contexts: alloc cannot be split within 2; lone's single caller is free.
  Contexts contexts = group_contexts(model, {.top = 2});
  EXPECT_EQ(context_names(model, contexts), (Names{"callers of alloc", "lone main"}));
  expect_adds_up(model, contexts);
  // Three: alloc's largest caller split off, the rest stays in alloc.
  contexts = group_contexts(model, {.top = 3});
  EXPECT_EQ(context_names(model, contexts),
            (Names{"callers of alloc a", "other callers of alloc", "lone main"}));
  expect_adds_up(model, contexts);
}

TEST(TreeContexts, AKeptStackIsAContextOfItsOwn) {
  Model model = read_text(tree_profile());
  // Keep c's stack (5 bytes): it is listed on its own, whatever the threshold.
  SeriesBuilder builder(model);
  SeriesMeasure measure(model, builder);
  ContextTree tree(model, {});
  tree.measure(builder, measure);
  std::vector<NodeId> kept;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    NodeId id{static_cast<std::uint32_t>(i)};
    if (names(model, tree.frames(id)) == "alloc c main") kept.push_back(id);
  }
  Contexts contexts = tree_grouping(model, tree, {.threshold = 2}, builder, measure, kept);
  Names got = context_names(model, contexts);
  EXPECT_EQ(std::count(got.begin(), got.end(), "alloc c main"), 1);
  EXPECT_EQ(contexts.contexts.back().folded, 1u);  // d only
  expect_adds_up(model, contexts);
}

TEST(TreeContexts, DepthGivesTheFixedGrouping) {
  Model model = read_text(tree_profile());
  Contexts all = group_contexts(model, {.depth = 0, .threshold = 0});
  EXPECT_EQ(all.contexts.size(), 6u);  // one per whole stack
  for (const Context& c : all.contexts) EXPECT_EQ(c.shape, ContextShape::stacks);
  expect_adds_up(model, all);
  Contexts one = group_contexts(model, {.depth = 1, .threshold = 0});
  EXPECT_EQ(context_names(model, one), (Names{"alloc", "lone"}));
  Contexts two = group_contexts(model, {.depth = 2, .threshold = 0});
  EXPECT_EQ(two.contexts.size(), 5u);
  // The tree at threshold 0 goes down to whole stacks too.
  Contexts tree = group_contexts(model, {.threshold = 0});
  EXPECT_EQ(tree.contexts.size(), 6u);
  expect_adds_up(model, tree);
}

TEST(TreeLines, FoldedByTheThreshold) {
  Measured m(tree_profile());
  std::vector<TreeLine> lines = tree_lines(m.tree, 1.0);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].depth, 0u);
  EXPECT_DOUBLE_EQ(lines[0].spacetime_pct, 100);
  // alloc's line folds c and d (0.5% each).
  EXPECT_EQ(lines[1].depth, 1u);
  EXPECT_EQ(lines[1].folded, 2u);
  EXPECT_NEAR(lines[1].folded_peak_pct, 1.0, 1e-9);
  EXPECT_NEAR(lines[1].peak_pct, 81.0, 1e-9);
}

// The tree at a moment: bytes then, by bytes, the threshold folding, and a
// node without bytes left out; the moments replay to the same bytes.
TEST(TreeLinesAt, TheHeapThen) {
  Model model = read_text(profile(records({"F|1|0x10|0|alloc|m.c|1|/bin/p",
                                           "F|2|0x20|0|a|m.c|2|/bin/p",
                                           "F|3|0x30|0|b|m.c|3|/bin/p",
                                           "F|4|0x40|0|c|m.c|4|/bin/p",
                                           "F|5|0x50|0|main|m.c|5|/bin/p",
                                           "S|1|1|2|5",
                                           "S|2|1|3|5",
                                           "S|3|1|4|5",
                                           "T|regular|0|100|0|0",
                                           "s|1|100|1|0|100",
                                           "E",
                                           "T|regular|10|1000|0|0",
                                           "s|1|300|1|100|300",
                                           "s|2|695|1|0|695",
                                           "s|3|5|1|0|5",
                                           "E",
                                           "T|regular|20|300|0|0",
                                           "s|2|0|0|0|695",
                                           "s|3|0|0|0|5",
                                           "E",
                                           "X|20"})));
  ContextTree tree(model, {});
  std::vector<MomentLine> lines = tree_lines_at(tree, site_bytes_at(model, 1), 1.0);
  ASSERT_EQ(lines.size(), 6u);  // the root, alloc, b <- main, a <- main
  EXPECT_EQ(lines[0].bytes, 1000u);
  EXPECT_EQ(lines[1].depth, 1u);
  EXPECT_EQ(lines[1].bytes, 1000u);
  EXPECT_EQ(lines[1].folded, 1u);  // c: 0.5%
  EXPECT_EQ(lines[1].folded_bytes, 5u);
  EXPECT_DOUBLE_EQ(lines[1].folded_pct, 0.5);
  EXPECT_EQ(names(model, tree.frames(lines[2].node)), "alloc b");
  EXPECT_EQ(lines[2].bytes, 695u);
  EXPECT_DOUBLE_EQ(lines[2].pct, 69.5);
  EXPECT_EQ(names(model, tree.frames(lines[4].node)), "alloc a");
  // At the end, b and c hold nothing: neither shown nor folded.
  lines = tree_lines_at(tree, site_bytes_at(model, 2), 0);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1].folded, 0u);
  EXPECT_EQ(names(model, tree.frames(lines[2].node)), "alloc a");
  std::vector<std::size_t> all = {0, 1, 2};
  std::vector<std::size_t> visited;
  replay_moments(model, all, [&](std::size_t snapshot, std::span<const std::uint64_t> bytes) {
    visited.push_back(snapshot);
    EXPECT_EQ(std::vector<std::uint64_t>(bytes.begin(), bytes.end()),
              site_bytes_at(model, snapshot));
    return true;
  });
  EXPECT_EQ(visited, all);
  visited.clear();  // until the visitor says stop
  replay_moments(model, all, [&](std::size_t snapshot, std::span<const std::uint64_t>) {
    visited.push_back(snapshot);
    return snapshot < 1;
  });
  EXPECT_EQ(visited, (std::vector<std::size_t>{0, 1}));
  // replay_trees: the tree at each moment, as tree_lines_at gives it.
  std::vector<std::vector<MomentLine>> trees;
  replay_trees(model, tree, all, 1.0, [&](std::size_t, std::span<const MomentLine> lines) {
    trees.emplace_back(lines.begin(), lines.end());
    return true;
  });
  ASSERT_EQ(trees.size(), 3u);
  EXPECT_EQ(trees[1].size(), 6u);
  EXPECT_EQ(trees[1][1].folded_bytes, 5u);
  for (std::size_t m = 0; m < all.size(); ++m) {
    std::vector<MomentLine> at = tree_lines_at(tree, site_bytes_at(model, all[m]), 1.0);
    ASSERT_EQ(trees[m].size(), at.size());
    for (std::size_t i = 0; i < at.size(); ++i) {
      EXPECT_EQ(trees[m][i].node, at[i].node);
      EXPECT_EQ(trees[m][i].bytes, at[i].bytes);
      EXPECT_EQ(trees[m][i].folded, at[i].folded);
      EXPECT_EQ(trees[m][i].folded_bytes, at[i].folded_bytes);
    }
  }
}

}  // namespace
}  // namespace strata::test
