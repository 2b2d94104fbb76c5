// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/moments.hpp"

#include <algorithm>

namespace strata {

std::vector<std::size_t> moment_snapshots(const Model& model, std::size_t count) {
  std::vector<std::size_t> out;
  const std::vector<Snapshot>& snapshots = model.snapshots;
  if (snapshots.empty() || count == 0) return out;
  double first = static_cast<double>(snapshots.front().time);
  double span = std::max(static_cast<double>(snapshots.back().time) - first, 1.0);
  std::size_t slice = SIZE_MAX;
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    double share = (static_cast<double>(snapshots[i].time) - first) / span;
    std::size_t in =
        std::min(static_cast<std::size_t>(share * static_cast<double>(count)), count - 1);
    if (in != slice) out.push_back(i);
    slice = in;
  }
  if (std::optional<std::size_t> peak = peak_snapshot(model)) out.push_back(*peak);
  out.push_back(snapshots.size() - 1);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void replay_states(
    const Model& model, std::span<const std::size_t> snapshots,
    const std::function<bool(std::size_t snapshot, std::span<const SiteSample> state)>& visit) {
  std::vector<SiteSample> chain(model.sites.size()), now;
  for (std::size_t i = 0; i < chain.size(); ++i) chain[i].site = SiteId{static_cast<std::uint32_t>(i)};
  std::size_t next = 0;  // the chain is replayed up to here
  for (std::size_t at : snapshots) {
    for (; next <= at; ++next) {
      const Snapshot& s = model.snapshots[next];
      if (s.site_data != SiteData::changes) continue;
      for (const SiteSample& sample : s.sites) chain[index(sample.site)] = sample;
    }
    const Snapshot& s = model.snapshots[at];
    if (s.site_data != SiteData::complete) {
      if (!visit(at, chain)) return;
      continue;
    }
    now = chain;
    for (SiteSample& sample : now) sample.bytes = sample.blocks = 0;
    for (const SiteSample& sample : s.sites) now[index(sample.site)] = sample;
    if (!visit(at, now)) return;
  }
}

void replay_moments(
    const Model& model, std::span<const std::size_t> snapshots,
    const std::function<bool(std::size_t snapshot, std::span<const std::uint64_t> bytes)>& visit) {
  std::vector<std::uint64_t> bytes(model.sites.size(), 0);
  replay_states(model, snapshots, [&](std::size_t at, std::span<const SiteSample> state) {
    for (std::size_t i = 0; i < state.size(); ++i) bytes[i] = state[i].bytes;
    return visit(at, bytes);
  });
}

// Each node's bytes kept from one moment to the next: a site that changes
// changes its node and the node's ancestors by as much (modulo 2^64, so a
// fall is a wrapped rise and the sums come out right).
void replay_trees(
    const Model& model, const ContextTree& tree, std::span<const std::size_t> snapshots,
    double threshold,
    const std::function<bool(std::size_t snapshot, std::span<const MomentLine> lines)>& visit) {
  std::vector<NodeId> site_node(model.sites.size(), tree.root());
  for (std::size_t i = 0; i < tree.size(); ++i) {
    for (SiteId site : tree.own_sites(NodeId{static_cast<std::uint32_t>(i)}))
      site_node[index(site)] = NodeId{static_cast<std::uint32_t>(i)};
  }
  std::vector<std::uint64_t> before(model.sites.size(), 0), nodes(tree.size(), 0);
  replay_moments(model, snapshots, [&](std::size_t at, std::span<const std::uint64_t> bytes) {
    for (std::size_t site = 0; site < bytes.size(); ++site) {
      if (bytes[site] == before[site]) continue;
      std::uint64_t change = bytes[site] - before[site];
      before[site] = bytes[site];
      for (NodeId id = site_node[site];; id = tree.node(id).parent) {
        nodes[index(id)] += change;
        if (id == tree.root()) break;
      }
    }
    return visit(at, tree_lines_of(tree, nodes, threshold));
  });
}

std::vector<std::uint64_t> site_bytes_at(const Model& model, std::size_t snapshot) {
  std::vector<std::uint64_t> bytes(model.sites.size(), 0);
  for (const SiteSample& sample : sites_at(model, snapshot))
    bytes[index(sample.site)] = sample.bytes;
  return bytes;
}

}  // namespace strata
