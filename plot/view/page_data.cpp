// SPDX-License-Identifier: GPL-2.0-or-later
#include "view/page_data.hpp"

#include <algorithm>

namespace strata {

namespace {

double axis_time(std::uint64_t time, std::uint64_t origin) {
  return time >= origin ? static_cast<double>(time - origin) : -static_cast<double>(origin - time);
}

void add_tree(const Model& model, const ContextTree& tree, PageData& page) {
  page.site_node.assign(model.sites.size(), 0);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    NodeId id{static_cast<std::uint32_t>(i)};
    page.parent.push_back(static_cast<std::uint32_t>(index(tree.node(id).parent)));
    std::span<const FrameId> own = tree.own_frames(id);
    page.node_frames.emplace_back(own.begin(), own.end());
    for (SiteId site : tree.own_sites(id))
      page.site_node[index(site)] = static_cast<std::uint32_t>(i);
  }
}

void add_moments(const Model& model, PageData& page) {
  std::size_t count = std::clamp(kPageMomentCells / std::max<std::size_t>(model.sites.size(), 1),
                                 kPageMinMoments, kPageMaxMoments);
  std::vector<std::size_t> snapshots = moment_snapshots(model, count);
  for (Moment& moment : moments_at(model, snapshots)) {
    std::uint64_t time = model.snapshots[moment.snapshot].time;
    page.moments.push_back({.time = axis_time(time, page.graph.time_origin),
                            .at = time,
                            .changes = std::move(moment.changes)});
  }
}

}  // namespace

PageData make_page_data(const Model& model, const ContextOptions& options, const PlotOptions& plot,
                        const std::optional<Selection>& selection) {
  HeapAnalysis analysis = analyze_heap(model, options, {.leaks = !selection, .tree = true});
  PageData page{.graph = make_plot_data(model, analysis, plot),
                .by_age = std::nullopt,
                .by_age_first = false,
                .report = make_report(model, analysis, options, false, selection),
                .threshold = analysis.options.threshold,
                .frames = model.frames,
                .parent = {},
                .node_frames = {},
                .site_node = {},
                .moments = {}};
  add_tree(model, *analysis.tree, page);
  add_moments(model, page);
  return page;
}

}  // namespace strata
