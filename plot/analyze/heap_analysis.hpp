// SPDX-License-Identifier: GPL-2.0-or-later
// The heap analysis: the one entry point of `strata report`, `strata plot`,
// `strata diff` and `strata convert --leaks`.
//
// It builds the series engine (series.hpp) once; by default it builds the
// calling-context tree once (context_tree.hpp) and measures it, finds the
// program's cycles (cycles.hpp), judges the tree's nodes (leak_tree.hpp),
// and hands the nodes of the suspects to the grouping as data, to be kept
// whole as contexts of their own (tree_grouping).  With --depth, it groups
// the sites by their frames (contexts.hpp), judges each group, and ranks and
// folds them, the suspects kept.  Each suspect then gets its context's index,
// its bytes at the peak and at the end, and its headline (own_code.hpp).
#pragma once

#include <memory>

#include "analyze/context_tree.hpp"
#include "analyze/contexts.hpp"
#include "analyze/headlines.hpp"
#include "analyze/leaks.hpp"
#include "model/model.hpp"

namespace strata {

struct HeapAnalysis {
  ContextOptions options;  // those the contexts were grouped with (--sort implies --depth)
  Contexts contexts;       // ranked and folded; no leak suspect is folded away
  Leaks leaks;
  // The measured calling-context tree (for `strata report --tree`): built by
  // default, and with --depth when asked for; else null.
  std::shared_ptr<const ContextTree> tree;
  // The one headline policy the findings were named with (--alloc-fn's
  // functions allocators to it too), for the report's words (who frees).
  std::shared_ptr<const FindingHeadlines> headlines;
};

// The patterns of OwnCode's libraries: --library's, and --alloc-fn's
// functions, which are allocators to the headlines too.
std::vector<std::string> own_code_libraries(const ContextOptions& options);

// What the analysis does beyond the contexts.
struct AnalysisParts {
  bool leaks = true;  // judge the contexts; else no suspect and no cycles
  bool tree = false;  // keep the measured tree, built even with --depth
};

HeapAnalysis analyze_heap(const Model& model, const ContextOptions& options,
                          AnalysisParts parts = {});

// The contexts alone: analyze_heap without leak detection.
Contexts group_contexts(const Model& model, const ContextOptions& options);

}  // namespace strata
