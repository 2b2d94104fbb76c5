// SPDX-License-Identifier: GPL-2.0-or-later
// The calling-context tree and the contexts chosen from it.
//
// The sites are sorted by their stacks (innermost first), so that the sites
// under any node are one range of that order: a node is a range and the
// frames its sites share.  Measures are built per whole stack (the own sites
// of a node) and added up the tree, so measuring costs what grouping by whole
// stacks costs.
#include "analyze/context_tree.hpp"

#include <algorithm>
#include <queue>
#include <tuple>

#include "util/units.hpp"

namespace strata {

// ---- building --------------------------------------------------------------------

ContextTree::ContextTree(const Model& model, const std::vector<std::string>& alloc_fns) {
  for (const Frame& frame : model.frames) inlined_.push_back(frame.inlined);
  ContextOptions whole{.depth = 0, .alloc_fns = alloc_fns};
  for (const Site& site : model.sites) stacks_.push_back(context_frames(model, site, whole));
  sort_sites();
  add_node(NodeId{0}, 0, 0, sites_.size(), 0);
}

void ContextTree::sort_sites() {
  sites_.resize(stacks_.size());
  for (std::size_t i = 0; i < sites_.size(); ++i) sites_[i] = static_cast<SiteId>(i);
  std::sort(sites_.begin(), sites_.end(), [&](SiteId a, SiteId b) {
    const std::vector<FrameId>& x = stacks_[index(a)];
    const std::vector<FrameId>& y = stacks_[index(b)];
    if (x != y) return x < y;
    return a < b;
  });
}

// Where the code address that starts at `frame` of the site's stack ends:
// after its first frame that is not inlined (or at the end of the stack).
std::size_t ContextTree::group_end(SiteId site, std::size_t frame) const {
  const std::vector<FrameId>& stack = stacks_[index(site)];
  while (frame < stack.size() && inlined_[index(stack[frame])]) ++frame;
  return std::min(frame + 1, stack.size());
}

// Adds the node of the sites_ [begin, end), whose stacks share their frames
// before `frame`, and its subtree, in preorder.  The nodes still to add wait
// on a stack (no recursion: a stack can be deeper than the call stack); each
// is given a slot in its parent's list of children, filled when it is added.
// Returns the id of the node.
NodeId ContextTree::add_node(NodeId parent, std::uint32_t depth, std::size_t begin, std::size_t end,
                             std::size_t frame) {
  struct Pending {
    NodeId parent;
    std::uint32_t depth;
    std::size_t begin, end, frames_begin, frame;
    std::size_t slot;  // in children_, or SIZE_MAX for the root
  };
  std::vector<Pending> pending = {{parent, depth, begin, end, frame, frame, SIZE_MAX}};
  std::vector<Pending> children;
  std::size_t first_id = nodes_.size();
  while (!pending.empty()) {
    Pending at = pending.back();
    pending.pop_back();
    NodeId id{static_cast<std::uint32_t>(nodes_.size())};
    if (at.slot != SIZE_MAX) children_[at.slot] = id;
    ContextNode& node = nodes_.emplace_back();
    node.parent = index(id) == 0 ? id : at.parent;
    node.depth = at.depth;
    node.example = sites_.empty() ? SiteId{0} : sites_[at.begin];
    node.frames_begin = static_cast<std::uint32_t>(at.frames_begin);
    node.frames_end = static_cast<std::uint32_t>(at.frame);
    node.sites_begin = static_cast<std::uint32_t>(at.begin);
    node.sites_end = static_cast<std::uint32_t>(at.end);
    std::size_t own_end = at.begin;
    while (own_end < at.end && stacks_[index(sites_[own_end])].size() == at.frame) ++own_end;
    node.own_end = static_cast<std::uint32_t>(own_end);
    children.clear();
    for (std::size_t first = own_end; first < at.end;) {
      const std::vector<FrameId>& stack = stacks_[index(sites_[first])];
      std::size_t stop = group_end(sites_[first], at.frame);
      std::size_t last = first + 1;
      while (last < at.end && group_end(sites_[last], at.frame) == stop &&
             std::equal(stack.begin() + at.frame, stack.begin() + stop,
                        stacks_[index(sites_[last])].begin() + at.frame)) {
        ++last;
      }
      children.push_back({id, at.depth + 1, first, last, at.frame, stop, children_.size()});
      children_.emplace_back();
      first = last;
    }
    node.children_begin = static_cast<std::uint32_t>(children_.size() - children.size());
    node.children_end = static_cast<std::uint32_t>(children_.size());
    pending.insert(pending.end(), children.rbegin(), children.rend());
  }
  return NodeId{static_cast<std::uint32_t>(first_id)};
}

// ---- queries -------------------------------------------------------------------

std::span<const NodeId> ContextTree::children(NodeId id) const {
  const ContextNode& n = node(id);
  return std::span<const NodeId>(children_).subspan(n.children_begin,
                                                    n.children_end - n.children_begin);
}

std::span<const SiteId> ContextTree::sites(NodeId id) const {
  const ContextNode& n = node(id);
  return std::span<const SiteId>(sites_).subspan(n.sites_begin, n.sites_end - n.sites_begin);
}

std::span<const SiteId> ContextTree::own_sites(NodeId id) const {
  const ContextNode& n = node(id);
  return std::span<const SiteId>(sites_).subspan(n.sites_begin, n.own_end - n.sites_begin);
}

std::span<const FrameId> ContextTree::own_frames(NodeId id) const {
  const ContextNode& n = node(id);
  if (n.depth == 0) return {};
  return std::span<const FrameId>(stacks_[index(n.example)])
      .subspan(n.frames_begin, n.frames_end - n.frames_begin);
}

std::vector<FrameId> ContextTree::frames(NodeId id) const {
  const ContextNode& n = node(id);
  if (n.depth == 0) return {};
  const std::vector<FrameId>& stack = stacks_[index(n.example)];
  return {stack.begin(), stack.begin() + n.frames_end};
}

NodeId ContextTree::subtree_end(NodeId id) const {
  std::size_t end = index(id) + 1;
  while (end < nodes_.size() && nodes_[end].depth > node(id).depth) ++end;
  return NodeId{static_cast<std::uint32_t>(end)};
}

namespace {

std::vector<SiteId> sorted(std::span<const SiteId> sites) {
  std::vector<SiteId> out(sites.begin(), sites.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Context ContextTree::context(NodeId id, const SeriesBuilder& builder,
                             const SeriesMeasure& measure) const {
  Context context;
  context.frames = frames(id);
  context.shape = children(id).empty() ? ContextShape::stacks : ContextShape::callers;
  context.sites = sorted(sites(id));
  context.series = builder.of(context.sites);
  apply_measures(context, measure);
  return context;
}

// ---- measuring -------------------------------------------------------------------

void ContextTree::measure(const SeriesBuilder& builder, const SeriesMeasure& measure) {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    ContextNode& n = nodes_[i];
    n.spacetime = n.own_spacetime = 0;
    n.peak_bytes = n.own_peak_bytes = 0;
    if (n.own_end == n.sites_begin) continue;
    // Sums over the node's own sites: no series of its own is built.
    SeriesMeasures m = measure.of_sites(builder, own_sites(NodeId{static_cast<std::uint32_t>(i)}));
    n.own_spacetime = m.spacetime;
    n.own_peak_bytes = m.peak_bytes;
  }
  for (std::size_t i = nodes_.size(); i-- > 0;) {  // children after their parents
    ContextNode& n = nodes_[i];
    n.spacetime += n.own_spacetime;
    n.peak_bytes += n.own_peak_bytes;
    if (i > 0) {
      nodes_[index(n.parent)].spacetime += n.spacetime;
      nodes_[index(n.parent)].peak_bytes += n.peak_bytes;
    }
  }
  for (ContextNode& n : nodes_) {
    std::sort(children_.begin() + n.children_begin, children_.begin() + n.children_end,
              [&](NodeId a, NodeId b) {
                const ContextNode& x = node(a);
                const ContextNode& y = node(b);
                if (x.spacetime != y.spacetime) return x.spacetime > y.spacetime;
                if (x.peak_bytes != y.peak_bytes) return x.peak_bytes > y.peak_bytes;
                return a < b;
              });
  }
}

// ---- choosing the contexts ----------------------------------------------------------

namespace {

// A part of the heap: spacetime, bytes at the peak, sites.
struct Amount {
  double spacetime = 0;
  double peak = 0;
  std::size_t sites = 0;

  Amount& operator-=(const Amount& other) {
    spacetime -= other.spacetime;
    peak -= other.peak;
    sites -= other.sites;
    return *this;
  }
};

// What a node of the tree is in the choice.
enum class State : std::uint8_t { hidden, shown, split };

class Chooser {
 public:
  Chooser(const ContextTree& tree, const ContextOptions& options, const std::vector<NodeId>& kept)
      : tree_(tree),
        threshold_(options.threshold),
        budget_(options.top == 0
                    ? 0
                    : std::max<std::size_t>(options.top, kept.size() + 1) - kept.size()),
        amounts_(tree.size()),
        state_(tree.size(), State::hidden),
        split_(tree.size(), 0) {
    const ContextNode& root = tree.node(tree.root());
    total_ = {root.spacetime, static_cast<double>(root.peak_bytes), tree.sites(root_id()).size()};
    for (std::size_t i = 0; i < tree.size(); ++i) {
      const ContextNode& n = tree.node(NodeId{static_cast<std::uint32_t>(i)});
      amounts_[i] = {n.spacetime, static_cast<double>(n.peak_bytes), n.sites_end - n.sites_begin};
    }
    for (NodeId id : kept) leave_out(id);
  }

  void choose();
  State state(NodeId id) const { return state_[index(id)]; }
  // The children of a split node that are contexts of their own.
  std::vector<NodeId> split_children(NodeId id) const {
    std::vector<NodeId> ranked = significant_children(id);
    ranked.resize(split_[index(id)]);
    return ranked;
  }
  const Amount& amount(NodeId id) const { return amounts_[index(id)]; }
  Amount remainder(NodeId id) const;
  bool significant(const Amount& a) const;

 private:
  NodeId root_id() const { return tree_.root(); }
  double share(const Amount& a) const;
  // Ranks as contexts do: by spacetime, then by bytes at the peak.
  bool larger(NodeId a, NodeId b) const {
    const Amount& x = amount(a);
    const Amount& y = amount(b);
    if (x.spacetime != y.spacetime) return x.spacetime > y.spacetime;
    return x.peak > y.peak;
  }
  void leave_out(NodeId id);
  std::vector<NodeId> significant_children(NodeId id) const;
  void show(NodeId id);
  void try_split(NodeId id);

  const ContextTree& tree_;
  double threshold_;
  std::size_t budget_;  // 0: none
  Amount total_;
  std::vector<Amount> amounts_;     // NodeId -> its sites' amount, less the kept nodes'
  std::vector<State> state_;        // NodeId -> state
  std::vector<std::size_t> split_;  // NodeId -> children split off (the first of the ranked)
  std::size_t count_ = 0;           // contexts chosen so far
  // The shown nodes, the largest first: spacetime, peak, ~NodeId.
  std::priority_queue<std::tuple<double, double, std::uint32_t>> queue_;
};

double Chooser::share(const Amount& a) const {
  double spacetime = total_.spacetime > 0 ? a.spacetime / total_.spacetime : 0;
  double peak = total_.peak > 0 ? a.peak / total_.peak : 0;
  return 100 * std::max(spacetime, peak);
}

bool Chooser::significant(const Amount& a) const {
  return a.sites > 0 && (threshold_ == 0 || share(a) >= threshold_);
}

// Takes a kept node's amount out of every node above it, and its own and its
// descendants' to nothing.
void Chooser::leave_out(NodeId id) {
  Amount whole = amounts_[index(id)];
  for (NodeId at = id; at != tree_.root();) {
    at = tree_.node(at).parent;
    amounts_[index(at)] -= whole;
  }
  std::fill(amounts_.begin() + static_cast<std::ptrdiff_t>(index(id)),
            amounts_.begin() + static_cast<std::ptrdiff_t>(index(tree_.subtree_end(id))), Amount{});
}

// The children that hold at least the threshold, the largest first.
std::vector<NodeId> Chooser::significant_children(NodeId id) const {
  std::vector<NodeId> out;
  for (NodeId child : tree_.children(id)) {
    if (significant(amount(child))) out.push_back(child);
  }
  std::stable_sort(out.begin(), out.end(), [&](NodeId a, NodeId b) { return larger(a, b); });
  return out;
}

Amount Chooser::remainder(NodeId id) const {
  Amount rest = amount(id);
  for (NodeId child : split_children(id)) rest -= amount(child);
  return rest;
}

void Chooser::show(NodeId id) {
  state_[index(id)] = State::shown;
  ++count_;
  queue_.push({amount(id).spacetime, amount(id).peak, ~static_cast<std::uint32_t>(index(id))});
}

// Splits a shown node into its callers that hold the threshold, as many as
// the budget allows.
void Chooser::try_split(NodeId id) {
  std::vector<NodeId> callers = significant_children(id);
  Amount rest = amount(id);
  std::vector<Amount> rests;  // rests[k]: what stays after the first k
  for (NodeId caller : callers) {
    rests.push_back(rest);
    rest -= amount(caller);
  }
  rests.push_back(rest);
  for (std::size_t k = callers.size(); k > 0; --k) {
    std::size_t count = count_ - 1 + k + (significant(rests[k]) ? 1 : 0);
    if (budget_ != 0 && count > budget_) continue;
    state_[index(id)] = State::split;
    split_[index(id)] = k;
    count_ -= 1;
    if (significant(rests[k])) ++count_;
    for (std::size_t i = 0; i < k; ++i) show(callers[i]);
    return;
  }
}

void Chooser::choose() {
  std::vector<NodeId> sites = significant_children(root_id());
  if (budget_ != 0 && sites.size() > budget_) sites.resize(budget_);
  for (NodeId id : sites) show(id);
  while (!queue_.empty()) {
    NodeId id{~std::get<2>(queue_.top())};
    queue_.pop();
    try_split(id);
  }
}

// The contexts of a choice, as ranges of the tree's order of sites.
struct Assignment {
  std::vector<Context> contexts;
  std::vector<int> owner;  // tree order of sites -> index into contexts, -1 for none
};

void assign(const ContextTree& tree, Assignment& out, NodeId id, ContextShape shape,
            std::span<const SiteId> sites) {
  Context context;
  context.frames = tree.frames(id);
  context.shape = shape;
  out.contexts.push_back(std::move(context));
  std::size_t begin = static_cast<std::size_t>(sites.data() - tree.sites(tree.root()).data());
  std::fill(out.owner.begin() + begin, out.owner.begin() + begin + sites.size(),
            static_cast<int>(out.contexts.size() - 1));
}

Assignment assign_all(const ContextTree& tree, const Chooser& chooser,
                      const std::vector<NodeId>& kept) {
  Assignment out;
  out.owner.assign(tree.sites(tree.root()).size(), -1);
  for (std::size_t i = 1; i < tree.size(); ++i) {  // parents before their children
    NodeId id{static_cast<std::uint32_t>(i)};
    if (chooser.state(id) == State::shown) {
      bool callers = !tree.children(id).empty();
      assign(tree, out, id, callers ? ContextShape::callers : ContextShape::stacks, tree.sites(id));
    } else if (chooser.state(id) == State::split) {
      if (chooser.significant(chooser.remainder(id))) {
        assign(tree, out, id, ContextShape::other_callers, tree.sites(id));
      } else {
        std::span<const SiteId> sites = tree.sites(id);
        std::size_t begin = static_cast<std::size_t>(sites.data() - tree.sites(tree.root()).data());
        std::fill(out.owner.begin() + begin, out.owner.begin() + begin + sites.size(), -1);
      }
    }
  }
  NodeId root = tree.root();
  const ContextNode& n = tree.node(root);
  Amount unstacked{n.own_spacetime, static_cast<double>(n.own_peak_bytes),
                   n.own_end - n.sites_begin};
  if (chooser.significant(unstacked) && std::find(kept.begin(), kept.end(), root) == kept.end()) {
    assign(tree, out, root, ContextShape::stacks, tree.own_sites(root));
  }
  for (NodeId id : kept) {
    bool callers = !tree.children(id).empty();
    assign(tree, out, id, callers ? ContextShape::callers : ContextShape::stacks, tree.sites(id));
  }
  return out;
}

}  // namespace

std::vector<Context> tree_contexts(const ContextTree& tree, const ContextOptions& options,
                                   const SeriesBuilder& builder, const SeriesMeasure& measure,
                                   const std::vector<NodeId>& kept, std::vector<bool>& kept_out) {
  Chooser chooser(tree, options, kept);
  chooser.choose();
  Assignment chosen = assign_all(tree, chooser, kept);
  std::span<const SiteId> order = tree.sites(tree.root());
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (chosen.owner[i] >= 0) chosen.contexts[chosen.owner[i]].sites.push_back(order[i]);
  }
  std::size_t first_kept = chosen.contexts.size() - kept.size();
  std::vector<Context> contexts;
  kept_out.clear();
  for (std::size_t i = 0; i < chosen.contexts.size(); ++i) {
    Context& context = chosen.contexts[i];
    if (context.sites.empty()) continue;
    std::sort(context.sites.begin(), context.sites.end());
    context.series = builder.of(context.sites);
    apply_measures(context, measure);
    contexts.push_back(std::move(context));
    kept_out.push_back(i >= first_kept);
  }
  return contexts;
}

// ---- the tree as shown ----------------------------------------------------------------

namespace {

TreeLine line_of(const ContextTree& tree, NodeId node) {
  const ContextNode& root = tree.node(tree.root());
  const ContextNode& n = tree.node(node);
  return TreeLine{.node = node,
                  .depth = n.depth,
                  .spacetime_pct = percent_of(n.spacetime, root.spacetime),
                  .peak_pct = percent_of(static_cast<double>(n.peak_bytes),
                                         static_cast<double>(root.peak_bytes))};
}

}  // namespace

// In preorder, from a stack of the nodes still to list (no recursion: a tree
// can be deeper than the call stack).
std::vector<TreeLine> tree_lines(const ContextTree& tree, double threshold) {
  std::vector<TreeLine> out;
  std::vector<NodeId> pending = {tree.root()};
  std::vector<NodeId> shown;
  while (!pending.empty()) {
    NodeId id = pending.back();
    pending.pop_back();
    std::size_t at = out.size();
    out.push_back(line_of(tree, id));
    shown.clear();
    for (NodeId child : tree.children(id)) {
      TreeLine line = line_of(tree, child);
      if (threshold == 0 || std::max(line.spacetime_pct, line.peak_pct) >= threshold) {
        shown.push_back(child);
      } else {
        ++out[at].folded;
        out[at].folded_spacetime_pct += line.spacetime_pct;
        out[at].folded_peak_pct += line.peak_pct;
      }
    }
    pending.insert(pending.end(), shown.rbegin(), shown.rend());
  }
  return out;
}

// Each node's bytes: its own sites', then added up the tree (parents come
// before their children in NodeId order).
std::vector<std::uint64_t> node_bytes(const ContextTree& tree,
                                      std::span<const std::uint64_t> site_bytes) {
  std::vector<std::uint64_t> bytes(tree.size(), 0);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    for (SiteId site : tree.own_sites(NodeId{static_cast<std::uint32_t>(i)})) {
      if (index(site) < site_bytes.size()) bytes[i] += site_bytes[index(site)];
    }
  }
  for (std::size_t i = tree.size(); i-- > 1;)
    bytes[index(tree.node(NodeId{static_cast<std::uint32_t>(i)}).parent)] += bytes[i];
  return bytes;
}

std::vector<MomentLine> tree_lines_at(const ContextTree& tree,
                                      std::span<const std::uint64_t> site_bytes, double threshold) {
  return tree_lines_of(tree, node_bytes(tree, site_bytes), threshold);
}

std::vector<MomentLine> tree_lines_of(const ContextTree& tree, std::span<const std::uint64_t> bytes,
                                      double threshold) {
  const double total = static_cast<double>(bytes[0]);
  auto line_at = [&](NodeId id) {
    return MomentLine{.node = id,
                      .depth = tree.node(id).depth,
                      .bytes = bytes[index(id)],
                      .pct = percent_of(static_cast<double>(bytes[index(id)]), total)};
  };
  std::vector<MomentLine> out;
  std::vector<NodeId> pending = {tree.root()}, children;
  while (!pending.empty()) {
    NodeId id = pending.back();
    pending.pop_back();
    std::size_t at = out.size();
    out.push_back(line_at(id));
    children.assign(tree.children(id).begin(), tree.children(id).end());
    std::sort(children.begin(), children.end(), [&](NodeId a, NodeId b) {
      return std::tie(bytes[index(b)], a) < std::tie(bytes[index(a)], b);
    });
    std::size_t shown = 0;
    for (NodeId child : children) {
      if (bytes[index(child)] == 0) break;
      if (threshold == 0 || line_at(child).pct >= threshold) {
        children[shown++] = child;
      } else {
        ++out[at].folded;
        out[at].folded_bytes += bytes[index(child)];
      }
    }
    out[at].folded_pct = percent_of(static_cast<double>(out[at].folded_bytes), total);
    pending.insert(pending.end(), std::make_reverse_iterator(children.begin() + shown),
                   children.rend());
  }
  return out;
}

// ---- the default grouping ------------------------------------------------------

Contexts tree_grouping(const Model& model, const ContextTree& tree, const ContextOptions& options,
                       const SeriesBuilder& builder, const SeriesMeasure& measure,
                       const std::vector<NodeId>& kept) {
  Contexts result;
  result.snapshots = builder.snapshots();
  double& spacetime = result.spacetime;
  std::vector<bool> ranked_kept;
  std::vector<Context> ranked = tree_contexts(tree, options, builder, measure, kept, ranked_kept);
  spacetime = tree.node(tree.root()).spacetime;
  for (Context& context : ranked) {
    context.spacetime_pct = percent_of(context.spacetime, spacetime);
    context.share_pct = context.spacetime_pct;
  }
  rank(ranked, ranked_kept);
  std::vector<bool> listed(model.sites.size(), false);
  for (const Context& context : ranked) {
    for (SiteId site : context.sites) listed[index(site)] = true;
  }
  Context other;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    std::span<const SiteId> own = tree.own_sites(NodeId{static_cast<std::uint32_t>(i)});
    std::size_t before = other.sites.size();
    for (SiteId site : own) {
      if (!listed[index(site)]) other.sites.push_back(site);
    }
    other.folded += other.sites.size() > before;
  }
  if (other.folded > 0) {
    std::sort(other.sites.begin(), other.sites.end());
    other.series = builder.of(other.sites);
    apply_measures(other, measure);
    other.spacetime_pct = percent_of(other.spacetime, spacetime);
    other.share_pct = other.spacetime_pct;
    ranked.push_back(std::move(other));
  }
  result.contexts = std::move(ranked);
  return result;
}

}  // namespace strata
