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

std::vector<Moment> moments_at(const Model& model, std::span<const std::size_t> snapshots) {
  std::vector<std::uint64_t> chain(model.sites.size(), 0), shown(model.sites.size(), 0);
  std::vector<std::uint64_t> now;
  std::vector<Moment> out;
  std::size_t next = 0;  // the chain is replayed up to here
  for (std::size_t at : snapshots) {
    for (; next <= at; ++next) {
      const Snapshot& s = model.snapshots[next];
      if (s.site_data != SiteData::changes) continue;
      for (const SiteSample& sample : s.sites) chain[index(sample.site)] = sample.bytes;
    }
    now = chain;
    const Snapshot& s = model.snapshots[at];
    if (s.site_data == SiteData::complete) {
      std::fill(now.begin(), now.end(), 0);
      for (const SiteSample& sample : s.sites) now[index(sample.site)] = sample.bytes;
    }
    Moment& moment = out.emplace_back();
    moment.snapshot = at;
    for (std::size_t site = 0; site < now.size(); ++site) {
      if (now[site] != shown[site])
        moment.changes.push_back({static_cast<SiteId>(site), now[site]});
    }
    shown.swap(now);
  }
  return out;
}

std::vector<std::uint64_t> site_bytes_at(const Model& model, std::size_t snapshot) {
  std::vector<std::uint64_t> bytes(model.sites.size(), 0);
  for (const SiteSample& sample : sites_at(model, snapshot))
    bytes[index(sample.site)] = sample.bytes;
  return bytes;
}

}  // namespace strata
