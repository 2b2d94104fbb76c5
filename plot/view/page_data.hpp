// SPDX-License-Identifier: GPL-2.0-or-later
// What the page of `strata plot -o FILE.html` holds, as data: the graph's
// bands (plot_data.hpp), the report of the same analysis (report.hpp: the
// contexts with their counts, the findings with their evidence), and the
// calling-context tree at each of its moments as `strata report --tree
// --at=T` shows it (context_tree.hpp, tree_lines_at), bounded: only the
// nodes that reach the threshold at one of the moments at least (so their
// ancestors too), each with its own frames; and at each moment, each such
// node's line (its bytes, and the count and bytes of its callers folded
// then), as changes from one moment to the next.  A node under the
// threshold at every moment is never drawn by itself: it is in the page
// only as part of its parent's folded line.  The page's script lays out
// the lines it is given, so the tree's grouping and numbers are the
// analysis', not the script's own.
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

// A node's line at a moment (MomentLine), all 0 when it is not shown then.
struct PageLine {
  std::uint32_t node = 0;  // index into PageData::parent
  std::uint64_t bytes = 0;
  std::uint64_t folded = 0;  // its callers under the threshold then: how many, their bytes
  std::uint64_t folded_bytes = 0;
};

struct PageMoment {
  double time = 0;       // on the graph's time axis (PlotData::time_origin)
  std::uint64_t at = 0;  // the snapshot's time, as `--at` takes it
  // The lines that differ from the moment before's (from all 0 for the
  // first), by node.
  std::vector<PageLine> changes;
};

struct PageData {
  PlotData graph;
  // The heap by age (make_age_plot_data): a second graph (its own samples
  // and bands), which the page offers as a toggle; shown first when
  // `by_age_first` (--by=age).
  std::optional<PlotData> by_age;
  bool by_age_first = false;
  Report report;
  double threshold = 1.0;  // the tree's, as --threshold
  // The nodes the page holds, in the tree's order (by NodeId), the root
  // first, and the frames they name.
  std::vector<Frame> frames;                            // the frames the nodes name
  std::vector<std::uint32_t> parent;                    // node -> its parent (the root its own)
  std::vector<std::vector<std::uint32_t>> node_frames;  // node -> its own frames, in `frames`
  std::vector<PageMoment> moments;
};

// The most numbers a page's moments hold (4 a line that changes), about:
// with many lines that change, fewer moments (a 100 MB profile makes a page
// of less than 10 MB).
constexpr std::size_t kPageMomentCells = 200000;
constexpr std::size_t kPageMaxMoments = 600, kPageMinMoments = 32;

// The page of `model` (with a question of time, the selection's model):
// `analysis`, made of it with `options` and its tree (AnalysisParts::tree),
// drawn as the graph (make_plot_data) and reported (make_report).
PageData make_page_data(const Model& model, const ContextOptions& options,
                        const HeapAnalysis& analysis, const PlotOptions& plot,
                        const std::optional<Selection>& selection);

}  // namespace strata
