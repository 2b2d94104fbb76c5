// SPDX-License-Identifier: GPL-2.0-or-later
// Leak suspects on the calling-context tree (leak_tree.hpp).
#include "analyze/leak_tree.hpp"

#include <algorithm>

namespace strata {

namespace {

constexpr double kTransferShare = 0.5;  // siblings losing this share of a gain: a transfer
constexpr double kNearlyAll = 0.8;      // a caller with this share of a node's growth names it
constexpr double kMinNodeShare =
    0.001;  // a node with callers is judged from this share of the heap

// The sites allocated by the same function as `context` (its innermost
// frame's), other than its own.
std::vector<SiteId> sibling_sites(const Model& model, const Context& context) {
  std::vector<SiteId> siblings;
  if (context.frames.empty()) return siblings;
  const Frame& allocator = model.frame(context.frames.front());
  if (allocator.function.empty()) return siblings;
  for (std::size_t i = 0; i < model.sites.size(); ++i) {
    SiteId id = static_cast<SiteId>(i);
    const Site& site = model.site(id);
    if (site.frames.empty() || std::binary_search(context.sites.begin(), context.sites.end(), id)) {
      continue;
    }
    const Frame& frame = model.frame(site.frames.front());
    if (frame.function == allocator.function && frame.object == allocator.object) {
      siblings.push_back(id);
    }
  }
  return siblings;
}

// The point of `series` at model snapshot `snapshot`, or the last before it.
const ContextPoint* point_at(std::span<const ContextPoint> series, std::size_t snapshot) {
  auto after = std::partition_point(series.begin(), series.end(),
                                    [&](const ContextPoint& p) { return p.snapshot <= snapshot; });
  return after == series.begin() ? nullptr : &*(after - 1);
}

// The bytes of `series` at `time`: its last point at or before it.
std::uint64_t bytes_at(std::span<const ContextPoint> series, std::uint64_t time) {
  auto after = std::partition_point(series.begin(), series.end(),
                                    [&](const ContextPoint& p) { return p.time <= time; });
  return after == series.begin() ? 0 : (after - 1)->bytes;
}

// Whether the growth of a suspect is memory moving between the callers of
// one function: the other callers' sites lose, over the growth, at least
// kTransferShare of what it gains (a cache that evicts entries allocated on
// one path and allocates new ones on another), so their function's node in
// the call tree does not grow.
bool is_transfer(const Model& model, const SeriesBuilder& builder, const Context& context,
                 const Leak& leak) {
  std::vector<SiteId> siblings = sibling_sites(model, context);
  const std::vector<Trough>& troughs = leak.curves()->troughs;
  if (siblings.empty() || troughs.size() < 2) return false;
  std::vector<ContextPoint> series = builder.of(siblings);
  const Trough &first = troughs.front(), &last = troughs.back();
  double gain = static_cast<double>(last.bytes) - static_cast<double>(first.bytes);
  double loss = static_cast<double>(bytes_at(series, first.time)) -
                static_cast<double>(bytes_at(series, last.time));
  return gain > 0 && loss >= kTransferShare * gain;
}

}  // namespace

std::optional<Leak> judge_context(const Model& model, const Cycles& cycles,
                                  const SeriesBuilder& builder, const Context& context) {
  std::optional<Leak> leak = judge_series(context.series, cycles, model.end_time);
  if (leak && is_transfer(model, builder, context, *leak)) leak.reset();
  return leak;
}

namespace {

// ---- suspects on the calling-context tree ---------------------------------------

// Judges the nodes of a measured tree, and picks the node that names each
// leak best.  A node with a single caller and no sites of its own has its
// caller's series: it is not judged apart (verdict() follows the chain).  A
// node with several callers is judged when it holds at least kMinNodeShare of
// the heap's spacetime or of its peak (a leak too small for that is still
// judged in its whole stacks, which always are).
class TreeSuspects {
 public:
  TreeSuspects(const Model& model, const Cycles& cycles, const ContextTree& tree,
               const SeriesBuilder& builder)
      : tree_(tree), builder_(builder), verdicts_(tree.size()) {
    const ContextNode& root = tree.node(tree.root());
    Context context;
    for (std::size_t i = 1; i < tree.size(); ++i) {
      NodeId id{static_cast<std::uint32_t>(i)};
      const ContextNode& n = tree.node(id);
      bool large =
          n.spacetime >= kMinNodeShare * root.spacetime ||
          static_cast<double>(n.peak_bytes) >= kMinNodeShare * static_cast<double>(root.peak_bytes);
      if (chained(id) || (!tree.children(id).empty() && !large)) continue;
      context.frames = tree.frames(id);
      context.sites.assign(tree.sites(id).begin(), tree.sites(id).end());
      std::sort(context.sites.begin(), context.sites.end());
      builder.build(context.sites, context.series);
      verdicts_[i] = judge_context(model, cycles, builder, context);
    }
  }

  // The nodes that name the leaks, disjoint; each one's verdict in `out`,
  // keyed by its least site.
  std::vector<NodeId> pick(std::map<SiteId, Leak>& out) const;

 private:
  bool chained(NodeId id) const {
    return tree_.own_sites(id).empty() && tree_.children(id).size() == 1;
  }
  const std::optional<Leak>& verdict(NodeId id) const {
    while (chained(id)) id = tree_.children(id).front();
    return verdicts_[index(id)];
  }
  NodeId best_under(NodeId id) const;
  std::vector<LeakPart> parts(NodeId id, const CurveEvidence& curve) const;

  const ContextTree& tree_;
  const SeriesBuilder& builder_;
  std::vector<std::optional<Leak>> verdicts_;  // NodeId -> its verdict (unset when not judged)
};

// The deepest node under a suspect `id` that carries nearly all of its
// growth: from it, down to the caller whose own verdict is a suspect that
// gained at least kNearlyAll of what its parent gained, while there is one.
NodeId TreeSuspects::best_under(NodeId id) const {
  for (;;) {
    double growth = total_growth(*verdict(id));
    std::optional<NodeId> next;
    for (NodeId child : tree_.children(id)) {
      const std::optional<Leak>& leak = verdict(child);
      if (leak && total_growth(*leak) >= kNearlyAll * growth) next = child;
    }
    if (!next) return id;
    id = *next;
  }
}

// How a suspect node's growth splits among its callers and its own sites:
// each one's `min` at the suspect's last trough less at its first (the
// troughs are at the same snapshots for all, so the parts add up).
std::vector<LeakPart> TreeSuspects::parts(NodeId id, const CurveEvidence& curve) const {
  std::vector<LeakPart> out;
  if (tree_.children(id).empty()) return out;
  auto gained = [&](std::span<const SiteId> sites) {
    std::vector<SiteId> sorted(sites.begin(), sites.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<ContextPoint> series = builder_.of(sorted);
    const ContextPoint* first = point_at(series, curve.troughs.front().snapshot);
    const ContextPoint* last = point_at(series, curve.troughs.back().snapshot);
    return static_cast<double>(last ? last->min : 0) - static_cast<double>(first ? first->min : 0);
  };
  for (NodeId child : tree_.children(id)) {
    std::span<const FrameId> frames = tree_.own_frames(child);
    out.push_back({{frames.begin(), frames.end()}, gained(tree_.sites(child))});
  }
  if (!tree_.own_sites(id).empty()) out.push_back({{}, gained(tree_.own_sites(id))});
  std::erase_if(out, [](const LeakPart& part) { return part.growth_bytes <= 0; });
  std::stable_sort(out.begin(), out.end(), [](const LeakPart& a, const LeakPart& b) {
    return a.growth_bytes > b.growth_bytes;
  });
  return out;
}

// In preorder (callers after the node they call), each suspect not yet
// accounted for names its leak at best_under(); the nodes from it down to
// that one, and all under that one, are then accounted for.
std::vector<NodeId> TreeSuspects::pick(std::map<SiteId, Leak>& out) const {
  std::vector<NodeId> picked;
  std::vector<bool> done(tree_.size(), false);
  for (std::size_t i = 1; i < tree_.size(); ++i) {
    NodeId id{static_cast<std::uint32_t>(i)};
    if (done[i] || chained(id) || !verdicts_[i]) continue;
    NodeId best = best_under(id);
    if (done[index(best)]) continue;
    for (NodeId at = best; at != id; at = tree_.node(at).parent) done[index(at)] = true;
    std::fill(done.begin() + static_cast<std::ptrdiff_t>(index(best)),
              done.begin() + static_cast<std::ptrdiff_t>(index(tree_.subtree_end(best))), true);
    done[i] = true;
    Leak leak = *verdict(best);
    CurveEvidence& curve = *leak.curves();
    curve.parts = parts(best, curve);
    std::span<const SiteId> sites = tree_.sites(best);
    out[*std::min_element(sites.begin(), sites.end())] = std::move(leak);
    picked.push_back(best);
  }
  return picked;
}

}  // namespace

std::vector<NodeId> tree_suspects(const Model& model, const Cycles& cycles, const ContextTree& tree,
                                  const SeriesBuilder& builder, std::map<SiteId, Leak>& verdicts) {
  return TreeSuspects(model, cycles, tree, builder).pick(verdicts);
}

}  // namespace strata
