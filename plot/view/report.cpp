// SPDX-License-Identifier: GPL-2.0-or-later
// make_report: the summary and analyze_heap() put into plain values.
#include "view/report.hpp"

#include "analyze/heap_analysis.hpp"
#include "view/leak_words.hpp"

namespace strata {

namespace {

ReportContext report_context(const Model& model, const Context& context, std::size_t rank) {
  return {.rank = rank,
          .frames = frames_of(model, context.frames),
          .shape = context.shape,
          .sites = context.sites.size(),
          .folded = context.folded,
          .spacetime_pct = context.spacetime_pct,
          .peak_bytes = context.peak_bytes,
          .end_bytes = context.end_bytes,
          .max_bytes = context.max_bytes,
          .counts = context.counts};
}

std::vector<ReportLeakPart> report_parts(const Model& model, const Leak& leak) {
  double total = 0;
  for (const LeakPart& part : leak.parts) total += part.growth_bytes;
  std::vector<ReportLeakPart> parts;
  for (const LeakPart& part : leak.parts) {
    parts.push_back({.frames = frames_of(model, part.frames),
                     .growth_bytes = part.growth_bytes,
                     .share_pct = total > 0 ? 100 * part.growth_bytes / total : 0});
  }
  return parts;
}

ReportLeak report_leak(const Model& model, const Contexts& contexts, const Leak& leak) {
  std::vector<Frame> frames = frames_of(model, contexts.contexts[leak.context].frames);
  double end = static_cast<double>(model.end_time);
  return {.context_rank = leak.context + 1,
          .frames = frames,
          .headline = leak.headline,
          .why = leak_why(leak, model.header.time_unit, end),
          .words = leak.kind == LeakKind::steady_growth ? growth_words(leak) : "",
          .parts = report_parts(model, leak),
          .kind = leak.kind,
          .growth_bytes = leak.growth_bytes,
          .cycles = leak.cycles,
          .peak_bytes = leak.peak_bytes,
          .end_bytes = leak.end_bytes,
          .freed_before_exit = leak.freed_before_exit,
          .confidence = leak.confidence,
          .troughs = leak.troughs};
}

std::vector<ReportTreeNode> report_tree(const Model& model, const ContextTree& tree,
                                        const ContextOptions& options) {
  std::vector<ReportTreeNode> nodes;
  for (const TreeLine& line : tree_lines(tree, options.threshold)) {
    std::span<const FrameId> frames = tree.own_frames(line.node);
    nodes.push_back({.depth = line.depth,
                     .frames = frames_of(model, {frames.begin(), frames.end()}),
                     .spacetime_pct = line.spacetime_pct,
                     .peak_pct = line.peak_pct,
                     .peak_bytes = tree.node(line.node).peak_bytes,
                     .folded = line.folded,
                     .folded_spacetime_pct = line.folded_spacetime_pct,
                     .folded_peak_pct = line.folded_peak_pct});
  }
  return nodes;
}

}  // namespace

Report make_report(const Model& model, const ContextOptions& options, bool tree) {
  HeapAnalysis analysis = analyze_heap(model, options, {.tree = tree});
  Report report;
  report.summary = summarize(model);
  report.recording = model.header.options;
  if (!model.snapshots.empty()) report.first_snapshot_time = model.snapshots.front().time;
  report.site_snapshots = analysis.contexts.snapshots.size();
  report.grouping = analysis.options;
  report.has_counts = model.has_counts;
  report.spacetime = analysis.contexts.spacetime;
  report.cycles = analysis.leaks.cycles;
  const std::vector<Context>& contexts = analysis.contexts.contexts;
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    report.contexts.push_back(report_context(model, contexts[i], i + 1));
  }
  for (const Leak& leak : analysis.leaks.suspects) {
    report.leaks.push_back(report_leak(model, analysis.contexts, leak));
  }
  if (tree) report.tree = report_tree(model, *analysis.tree, options);
  return report;
}

}  // namespace strata
