// SPDX-License-Identifier: GPL-2.0-or-later
// The calling-context tree of a profile's sites, and the contexts chosen from
// it (the default grouping of `strata report` and `strata plot`).
//
// The root's children are the allocating call sites: the code address that
// called the allocator (a site's innermost frame, once `--alloc-fn` frames are
// taken off; frames inlined there come with it).  Each node's children are its
// callers, one code address further, down to the whole stacks.  A node holds
// the sites whose stacks start with its frames: its children's, and those
// whose stack ends at it (its own).  Its series is the sum of its sites'
// (SeriesBuilder), so children add up to their parent, less its own sites.
//
//   root (all the heap)
//   ├─ xmalloc:12                      the code address that called malloc
//   │  ├─ parse_decl:88 ← xmalloc:12   a caller of it
//   │  │  └─ ...                       down to whole stacks
//   │  └─ read_file:40 ← xmalloc:12
//   └─ std::vector<int>::_M_realloc_insert:...
//
// Choosing the contexts (massif's rule, as a budget): the allocating call
// sites that hold at least the threshold are contexts, the others go to the
// global "N other places".  Then, the most spacetime first, a context is
// split into its callers: each caller that holds at least the threshold becomes a context of
// its own, and the rest stays in it as "other callers of X" (in the global
// "other places" if that rest is under the threshold).  A node with a single
// caller is split at no cost, so a context stops where its stacks part.  A
// split is not made when it would list more contexts than the budget (`--top`);
// then as many of its callers as fit are split off.  A node's share is the
// larger of its share of the heap's spacetime and of the useful heap at the
// peak.  So the contexts are disjoint and add up to the heap by construction.
//
// The nodes a Keep keeps (the leak suspects) are contexts of their own, each
// with all the sites under it, taken out of the budget first (at least one
// other context is chosen); their bytes are left out of their ancestors'
// when choosing, and their descendants are not chosen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analyze/contexts.hpp"
#include "analyze/series.hpp"
#include "model/model.hpp"

namespace strata {

enum class NodeId : std::uint32_t {};  // index into the tree's nodes; the root is 0

constexpr std::size_t index(NodeId id) { return static_cast<std::size_t>(id); }

struct ContextNode {
  NodeId parent{};               // the root is its own parent
  std::uint32_t depth = 0;       // code addresses from the innermost: 0 for the root
  SiteId example{};              // a site of it: its stack holds the node's frames
  std::uint32_t frames_end = 0;  // the node's frames end at this index in that stack
  std::uint32_t frames_begin = 0;
  std::uint32_t sites_begin = 0;  // its sites: ContextTree::sites() [sites_begin, sites_end),
  std::uint32_t own_end = 0;      // of which [sites_begin, own_end) end here
  std::uint32_t sites_end = 0;
  std::uint32_t children_begin = 0;  // its children: ContextTree::children_ [begin, end)
  std::uint32_t children_end = 0;
  // Set by ContextTree::measure: of all its sites, and of its own.
  double spacetime = 0;
  std::uint64_t peak_bytes = 0;
  double own_spacetime = 0;
  std::uint64_t own_peak_bytes = 0;
};

class ContextTree {
 public:
  // The tree of the sites of `model`, `alloc_fns` (patterns of --alloc-fn)
  // taken off the top of their stacks.  Not measured yet.
  ContextTree(const Model& model, const std::vector<std::string>& alloc_fns);

  NodeId root() const { return NodeId{0}; }
  std::size_t size() const { return nodes_.size(); }
  const ContextNode& node(NodeId id) const { return nodes_[index(id)]; }

  // Its callers, the largest first once measured (by spacetime, then by peak).
  std::span<const NodeId> children(NodeId id) const;
  // Every site under it (children's and its own), and its own: those whose
  // stack ends at it (the same stack, once --alloc-fn frames are taken off).
  std::span<const SiteId> sites(NodeId id) const;
  std::span<const SiteId> own_sites(NodeId id) const;
  // Its code address: its frame and the frames inlined into it.
  std::span<const FrameId> own_frames(NodeId id) const;
  // Its frames from the innermost, down to its own: the context it stands for.
  std::vector<FrameId> frames(NodeId id) const;
  // The end of its subtree: the nodes under it are those after it, before this.
  NodeId subtree_end(NodeId id) const;
  // A site's stack once the --alloc-fn frames are taken off.
  const std::vector<FrameId>& stack(SiteId site) const { return stacks_[index(site)]; }

  // The node as a context: its frames, sites, series and measures (spacetime_pct
  // not set).  Its series can go to judge_series (leaks.hpp).
  Context context(NodeId id, const SeriesBuilder& builder, const SeriesMeasure& measure) const;

  // Measures every node: builds the series of the own sites of each node
  // (each whole stack), one at a time, and adds the measures up the tree.
  // Then ranks the children.
  void measure(const SeriesBuilder& builder, const SeriesMeasure& measure);

 private:
  void sort_sites();
  NodeId add_node(NodeId parent, std::uint32_t depth, std::size_t begin, std::size_t end,
                  std::size_t frame);
  std::size_t group_end(SiteId site, std::size_t frame) const;

  std::vector<bool> inlined_;                 // FrameId -> inlined into the frame after it
  std::vector<std::vector<FrameId>> stacks_;  // SiteId -> its stack
  std::vector<SiteId> sites_;                 // in tree order: a node's sites are a range
  std::vector<ContextNode> nodes_;            // NodeId -> node, parents before children
  std::vector<NodeId> children_;              // the nodes' lists of children
};

// The contexts chosen from a measured tree (see above): the threshold and the
// budget (`top`, 0 for none) of `options`; `kept` the nodes kept whole
// (disjoint: none under another).  Returns the contexts with their series and measures, the kept
// ones flagged in `kept_out` (same order); the sites under no context are not
// in any (the caller folds them into "N other places").
std::vector<Context> tree_contexts(const ContextTree& tree, const ContextOptions& options,
                                   const SeriesBuilder& builder, const SeriesMeasure& measure,
                                   const std::vector<NodeId>& kept, std::vector<bool>& kept_out);

// The nodes of the tree shown in `strata report --tree`: those that hold at
// least `threshold` percent of the spacetime or of the peak, each with its
// share.  Preorder, children largest first.
struct TreeLine {
  NodeId node{};
  std::size_t depth = 0;  // 1 for the allocating call sites
  double spacetime_pct = 0;
  double peak_pct = 0;
  // The callers under the threshold, folded: their count and shares.
  std::size_t folded = 0;
  double folded_spacetime_pct = 0;
  double folded_peak_pct = 0;
};

std::vector<TreeLine> tree_lines(const ContextTree& tree, double threshold);

// The tree at one moment (`strata report --tree --at`, the page of `strata
// plot`): each node's bytes then (the sum of its sites', `site_bytes` by
// SiteId) and its share of all the sites' bytes then.  A node shown holds
// at least `threshold` percent (any bytes when it is 0); a node without
// bytes is not in the heap then, and is neither shown nor folded.
// Preorder, children by bytes, then in the tree's order (by NodeId).
struct MomentLine {
  NodeId node{};
  std::size_t depth = 0;
  std::uint64_t bytes = 0;
  double pct = 0;
  std::size_t folded = 0;  // the callers under the threshold, and their bytes and share
  std::uint64_t folded_bytes = 0;
  double folded_pct = 0;
};

std::vector<MomentLine> tree_lines_at(const ContextTree& tree,
                                      std::span<const std::uint64_t> site_bytes, double threshold);

// Each node's bytes at one moment: the sum of its sites' (`site_bytes` by
// SiteId), by NodeId.
std::vector<std::uint64_t> node_bytes(const ContextTree& tree,
                                      std::span<const std::uint64_t> site_bytes);

// tree_lines_at from each node's bytes (node_bytes).
std::vector<MomentLine> tree_lines_of(const ContextTree& tree, std::span<const std::uint64_t> bytes,
                                      double threshold);

// The default grouping: the contexts chosen from a measured tree
// (tree_contexts), ranked, then the "N other places" of the sites under none
// of them (N their different stacks); the spacetime is the heap's.
Contexts tree_grouping(const Model& model, const ContextTree& tree, const ContextOptions& options,
                       const SeriesBuilder& builder, const SeriesMeasure& measure,
                       const std::vector<NodeId>& kept);

}  // namespace strata
