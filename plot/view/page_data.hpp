// SPDX-License-Identifier: GPL-2.0-or-later
// What the page of `strata plot -o FILE.html` holds, as data: the graph's
// bands (plot_data.hpp), the report of the same analysis (report.hpp: the
// contexts with their counts, the findings with their evidence), and what
// the page needs to make the calling-context tree at any of its moments the
// way `strata report --tree --at=T` does (context_tree.hpp, tree_lines_at):
// the tree's nodes (each its parent and its own frames), each site's node,
// and the sites' bytes at the moments, as changes from one to the next
// (moments.hpp).  The page's script adds the sites' bytes up its tree, so
// the tree's grouping and numbers are the analysis', not the script's own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyze/context_tree.hpp"
#include "analyze/heap_analysis.hpp"
#include "analyze/moments.hpp"
#include "model/model.hpp"
#include "view/plot_data.hpp"
#include "view/report.hpp"

namespace strata {

struct PageMoment {
  double time = 0;       // on the graph's time axis (PlotData::time_origin)
  std::uint64_t at = 0;  // the snapshot's time, as `--at` takes it
  std::vector<std::pair<SiteId, std::uint64_t>> changes;  // Moment::changes
};

struct PageData {
  PlotData graph;
  // The heap by age (make_age_plot_data): a second graph (its own samples
  // and bands), which the page offers as a toggle; shown first when
  // `by_age_first` (--by=age).
  std::optional<PlotData> by_age;
  bool by_age_first = false;
  Report report;
  double threshold = 1.0;                         // the tree's, as --threshold
  std::vector<Frame> frames;                      // FrameId -> frame
  std::vector<std::uint32_t> parent;              // NodeId -> its parent (the root its own)
  std::vector<std::vector<FrameId>> node_frames;  // NodeId -> its own frames
  std::vector<std::uint32_t> site_node;           // SiteId -> the node its stack ends at
  std::vector<PageMoment> moments;
};

// The most numbers a page's moments hold, about: with many sites, fewer
// moments (a 100 MB profile makes a page of less than 10 MB).
constexpr std::size_t kPageMomentCells = 200000;
constexpr std::size_t kPageMaxMoments = 600, kPageMinMoments = 32;

// The page of `model` (with a question of time, the selection's model): one
// analysis with its tree, drawn as the graph (make_plot_data) and reported
// (make_report) with `options`.
PageData make_page_data(const Model& model, const ContextOptions& options, const PlotOptions& plot,
                        const std::optional<Selection>& selection);

}  // namespace strata
