// SPDX-License-Identifier: GPL-2.0-or-later
// The lifetime table by node, read off the curves (lifetime_nodes.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "analyze/lifetime_nodes.hpp"
#include "analyze/series.hpp"

namespace strata::detail {

CurveClock curve_clock(const Model& model, const SeriesBuilder& builder) {
  CurveClock clock;
  const std::vector<std::size_t>& points = builder.snapshots();
  if (points.empty()) return clock;
  std::size_t step = (points.size() + kCurveEpochs - 1) / kCurveEpochs;
  for (std::size_t p = step - 1; p < points.size(); p += step) clock.points.push_back(p);
  if (clock.points.back() != points.size() - 1) clock.points.push_back(points.size() - 1);
  clock.times.push_back(0);  // before the first point, nothing was held
  for (std::size_t p : clock.points) {
    clock.snapshots.push_back(points[p]);
    clock.times.push_back(model.snapshots[points[p]].time);
  }
  return clock;
}

namespace {

// Its survivors: each epoch's rise in units of its median rise, one at least.
void count_rises(Node& n, std::uint32_t h) {
  std::vector<std::uint64_t> rises;
  for (std::uint32_t e = 0; e < h; ++e) {
    if (n.kept[e] > 0) rises.push_back(n.kept[e]);
  }
  if (rises.empty()) return;
  std::nth_element(rises.begin(), rises.begin() + rises.size() / 2, rises.end());
  double unit = static_cast<double>(rises[rises.size() / 2]);
  for (std::uint32_t e = 0; e < h; ++e) {
    if (n.kept[e] == 0) continue;
    n.kept_blocks[e] = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::llround(static_cast<double>(n.kept[e]) / unit)));
    n.born_blocks[e] += n.kept_blocks[e];
  }
}

// The curve's cells of one structure: its series' floor (at each boundary
// b, the least it held from b to h, counting each interval's low) rises
// by kept[e] over epoch e, what it holds above its floor at b is born in
// b - 1 and dies in b, and what it held before the first point is none.
void fill_from_series(Node& n, const std::vector<ContextPoint>& series,
                      const std::vector<std::size_t>& points, std::uint32_t h) {
  auto epochs = static_cast<std::uint32_t>(points.size());
  // held[b]: at boundary b (b = 0 before the first point); low[b]: the least
  // since boundary b - 1, over the points between.
  std::vector<std::uint64_t> held(epochs + 1, 0), low(epochs + 1, 0);
  std::size_t p = 0;
  for (std::uint32_t k = 0; k < epochs; ++k) {
    std::uint64_t least = series[points[k]].bytes;
    for (; p <= points[k]; ++p) least = std::min({least, series[p].min, series[p].bytes});
    held[k + 1] = series[points[k]].bytes;
    low[k + 1] = least;
  }
  std::vector<std::uint64_t> floor(h + 1, 0);
  std::uint64_t least = held[h];
  floor[h] = least;
  for (std::uint32_t b = h; b-- > 0;) {
    least = std::min({least, low[b + 1], held[b]});
    floor[b] = least;
  }
  for (std::uint32_t e = 0; e < h; ++e) {
    std::uint64_t rise = floor[e + 1] - floor[e];
    n.kept[e] = rise;
    n.born[e] += rise;
    std::uint64_t above = held[e + 1] - floor[e + 1];  // none at h, where the floor is held
    if (above > 0) {
      n.deaths[{e, e + 1}] = Amount{above, 1};
      n.born[e] += above;
      n.born_blocks[e] += 1;
    }
  }
  count_rises(n, h);
  n.kept_total = floor[h];
  n.alive_end = held[epochs];
  n.exit_freed = n.kept_total > n.alive_end ? n.kept_total - n.alive_end : 0;
}

}  // namespace

std::vector<Node> nodes_of_curves(const Model& model, const FindingHeadlines& headlines,
                                  const SeriesBuilder& builder, const CurveClock& clock,
                                  std::uint32_t h) {
  // The sites of one headline function called from one function, its
  // structure (headline_caller; without lifetimes a structure's lines
  // cannot be told apart in time: its floor is theirs).
  std::map<std::pair<std::string_view, std::string_view>, std::vector<SiteId>> by_structure;
  for (std::size_t s = 0; s < model.sites.size(); ++s) {
    const std::vector<FrameId>& frames = model.sites[s].frames;
    std::vector<FrameId> key = headline_path(headlines, frames);
    std::string_view function = key.empty() ? std::string_view() : model.frame(key.back()).function;
    by_structure[{function, headline_caller(model, frames, key.size())}].push_back(
        SiteId{static_cast<std::uint32_t>(s)});
  }
  std::vector<Node> nodes;
  std::vector<ContextPoint> series;
  for (auto& [structure, sites] : by_structure) {
    Node n = empty_node(h);
    n.from_curves = true;
    builder.build(sites, series);
    fill_from_series(n, series, clock.points, h);
    if (n.kept_total == 0 && n.deaths.empty()) continue;
    // Its main site: the one that holds the most at h.
    std::uint64_t most = 0;
    for (SiteId site : sites) {
      std::uint64_t held = h > 0 ? builder.site_at(site, clock.snapshots[h - 1]).bytes : 0;
      if (n.sites.empty() || held > most) {
        most = held;
        n.main_site = site;
      }
      n.sites.push_back(site);
    }
    n.main_kept = most;
    n.key = headline_path(headlines, model.site(n.main_site).frames);
    n.caller = structure.second;
    nodes.push_back(std::move(n));
  }
  return nodes;
}

}  // namespace strata::detail
