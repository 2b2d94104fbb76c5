// SPDX-License-Identifier: GPL-2.0-or-later
// A reference for the tests: one time series per site, replayed from the
// chain snapshots in the plainest way, to check the readers and the series
// engine (analyze/series.hpp) against.  Not used by strata itself.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "model/model.hpp"

namespace strata {

// A site at one chain snapshot (an index into Model::snapshots).
struct SitePoint {
  std::size_t snapshot = 0;
  std::uint64_t bytes = 0;
  std::uint64_t blocks = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

class SiteSeries {
 public:
  explicit SiteSeries(const Model& model) : points_(model.sites.size()) {
    for (std::size_t i = 0; i < model.snapshots.size(); ++i) {
      const Snapshot& snapshot = model.snapshots[i];
      if (snapshot.site_data != SiteData::changes) continue;
      for (const SiteSample& s : snapshot.sites) {
        points_[index(s.site)].push_back({i, s.bytes, s.blocks, s.min, s.max});
      }
    }
  }

  // The snapshots at which `site` changed, in time order.
  std::span<const SitePoint> points(SiteId site) const { return points_[index(site)]; }

  // The site at snapshot `snapshot`: its point there, or else what it held
  // since its last point (min = max = bytes); zeros before its first point.
  SitePoint at(SiteId site, std::size_t snapshot) const {
    std::span<const SitePoint> series = points(site);
    auto after = std::upper_bound(series.begin(), series.end(), snapshot,
                                  [](std::size_t s, const SitePoint& p) { return s < p.snapshot; });
    if (after == series.begin()) return {snapshot, 0, 0, 0, 0};
    SitePoint point = *(after - 1);
    if (point.snapshot == snapshot) return point;
    return {snapshot, point.bytes, point.blocks, point.bytes, point.bytes};
  }

 private:
  std::vector<std::vector<SitePoint>> points_;  // SiteId -> points
};

}  // namespace strata
