// SPDX-License-Identifier: GPL-2.0-or-later
#include "view/page_data.hpp"

#include <algorithm>

namespace strata {

namespace {

constexpr std::size_t kLineNumbers = 4;  // a PageLine in the page: node, bytes, folded, their bytes

bool same_line(const PageLine& a, const PageLine& b) {
  return a.bytes == b.bytes && a.folded == b.folded && a.folded_bytes == b.folded_bytes;
}

// The lines of the trees, one moment after another, as changes from one
// to the next (PageMoment), by NodeId: a node shown before and not now goes
// back to all 0.
class LineChanges {
 public:
  explicit LineChanges(std::size_t nodes) : shown_(nodes) {}

  std::vector<PageLine> next(std::span<const MomentLine> lines) {
    std::vector<PageLine> changes;
    now_.clear();
    for (const MomentLine& l : lines) {
      PageLine line{.node = static_cast<std::uint32_t>(index(l.node)),
                    .bytes = l.bytes,
                    .folded = l.folded,
                    .folded_bytes = l.folded_bytes};
      if (!same_line(line, shown_[line.node])) changes.push_back(line);
      shown_[line.node] = line;
      now_.push_back(line.node);
    }
    std::sort(now_.begin(), now_.end());
    for (std::uint32_t node : before_) {
      if (std::binary_search(now_.begin(), now_.end(), node)) continue;
      if (!same_line(shown_[node], PageLine{})) changes.push_back({.node = node});
      shown_[node] = PageLine{.node = node};
    }
    std::sort(changes.begin(), changes.end(),
              [](const PageLine& a, const PageLine& b) { return a.node < b.node; });
    before_.swap(now_);
    return changes;
  }

 private:
  std::vector<PageLine> shown_;              // NodeId -> its line at the moment before
  std::vector<std::uint32_t> before_, now_;  // the nodes shown at the moment before, and now
};

struct TreeMoments {
  std::vector<std::size_t> snapshots;
  std::vector<std::vector<PageLine>> changes;  // by NodeId, then by the page's node (add_nodes)
};

// As many moments as fit in kPageMomentCells (within kPageMinMoments and
// kPageMaxMoments): the lines that change are counted at the most moments
// until they are too many, then at fewer, as many as the moments counted
// said would fit.
TreeMoments tree_moments(const Model& model, const ContextTree& tree, double threshold) {
  std::size_t count = kPageMaxMoments;
  for (;;) {
    TreeMoments out;
    out.snapshots = moment_snapshots(model, count);
    LineChanges changes(tree.size());
    std::size_t cells = 0;
    replay_trees(model, tree, out.snapshots, threshold,
                 [&](std::size_t, std::span<const MomentLine> lines) {
                   out.changes.push_back(changes.next(lines));
                   cells += kLineNumbers * out.changes.back().size();
                   return cells <= kPageMomentCells || count <= kPageMinMoments;
                 });
    if (out.changes.size() == out.snapshots.size()) return out;
    std::size_t fits = out.changes.size() * kPageMomentCells / cells * 9 / 10;
    count = std::clamp(fits, kPageMinMoments, count - 1);
  }
}

// The nodes the page holds: the root and every node shown at a moment, in
// the tree's order; a node's parent is shown when it is, so held too.
void add_nodes(const Model& model, const ContextTree& tree, TreeMoments& moments, PageData& page) {
  std::vector<bool> held(tree.size(), false);
  held[0] = true;
  for (const std::vector<PageLine>& changes : moments.changes) {
    for (const PageLine& line : changes) held[line.node] = true;
  }
  std::vector<std::uint32_t> page_node(tree.size(), 0), page_frame(model.frames.size(), 0);
  std::vector<bool> named(model.frames.size(), false);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    if (!held[i]) continue;
    NodeId id{static_cast<std::uint32_t>(i)};
    page_node[i] = static_cast<std::uint32_t>(page.parent.size());
    page.parent.push_back(page_node[index(tree.node(id).parent)]);
    std::vector<std::uint32_t>& own = page.node_frames.emplace_back();
    for (FrameId frame : tree.own_frames(id)) {
      if (!named[index(frame)]) {
        named[index(frame)] = true;
        page_frame[index(frame)] = static_cast<std::uint32_t>(page.frames.size());
        page.frames.push_back(model.frames[index(frame)]);
      }
      own.push_back(page_frame[index(frame)]);
    }
  }
  for (std::vector<PageLine>& changes : moments.changes) {
    for (PageLine& line : changes) line.node = page_node[line.node];
  }
}

void add_moments(const Model& model, TreeMoments& moments, PageData& page) {
  for (std::size_t m = 0; m < moments.snapshots.size(); ++m) {
    std::uint64_t time = model.snapshots[moments.snapshots[m]].time;
    page.moments.push_back({.time = axis_time(time, page.graph.time_origin),
                            .at = time,
                            .changes = std::move(moments.changes[m])});
  }
}

}  // namespace

PageData make_page_data(const Model& model, const ContextOptions& options,
                        const HeapAnalysis& analysis, const PlotOptions& plot,
                        const std::optional<Selection>& selection) {
  PageData page{.graph = make_plot_data(model, analysis, plot),
                .by_age = std::nullopt,
                .by_age_first = false,
                .report = make_report(model, analysis, options, false, selection),
                .threshold = analysis.options.threshold,
                .frames = {},
                .parent = {},
                .node_frames = {},
                .moments = {}};
  TreeMoments moments = tree_moments(model, *analysis.tree, page.threshold);
  add_nodes(model, *analysis.tree, moments, page);
  add_moments(model, moments, page);
  return page;
}

}  // namespace strata
