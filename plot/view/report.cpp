// SPDX-License-Identifier: GPL-2.0-or-later
// make_report: the summary and analyze_heap() put into plain values.
#include "view/report.hpp"

#include "analyze/heap_analysis.hpp"
#include "analyze/moments.hpp"
#include "analyze/headlines.hpp"
#include "analyze/own_code.hpp"
#include "model/frame_names.hpp"
#include "util/units.hpp"
#include "view/leak_words.hpp"
#include "view/lifetime_words.hpp"

namespace strata {

namespace {

// Which boundary of the peak's epoch born_boundary() is, in words.
std::string born_boundary_words(const Model& model, std::uint32_t k) {
  std::optional<std::size_t> peak = peak_snapshot(model);
  bool end = peak && boundary_time(model, k) > model.snapshots[*peak].time;
  return std::string(end ? "the end" : "the start") + " of the peak's epoch";
}

// When a context's bytes next to the peak were born, at epoch boundaries
// (boundary `k`, which `alive_at` names; empty for a selection's).
void add_born(const Model& model, const Context& context, std::uint32_t k,
              const std::string& alive_at, ReportContext& out) {
  if (!model.has_lifetimes) return;
  std::vector<BornPart> parts = born_across(model, context.sites, k);
  out.born.emplace();
  for (const BornPart& part : parts) {
    out.born->push_back(
        {boundary_time(model, part.from), boundary_time(model, part.to), part.bytes});
  }
  out.born_words = born_words(model, parts);
  std::uint64_t bytes = 0;
  for (const BornPart& part : parts) bytes += part.bytes;
  if (!alive_at.empty() && bytes > 0) {
    out.born_words += " (of the " + grouped(bytes) + " bytes alive at " + alive_at + ")";
  }
}

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
          .counts = context.counts,
          .born = std::nullopt,
          .born_words = {},
          .selected_bytes = std::nullopt};
}

// Who freed a suspect's bytes, each free stack headed at the code that frees
// (headlines.hpp, FindingHeadlines::freer).
void add_freed_by(const Model& model, std::span<const SiteId> sites,
                  const FindingHeadlines& headlines, ReportLeak& out) {
  if (!model.has_lifetimes || !model.lifetimes.free_stacks) return;
  std::vector<FreedBy> freed = freed_by(model, sites);
  out.freed_by.emplace();
  for (const FreedBy& f : freed) {
    const std::vector<FrameId>& ids = model.lifetimes.free_stacks_frames[f.stack - 1];
    std::vector<Frame> frames = frames_of(model, ids);
    // The code that frees (not a wrapper of the frees), else as an allocation stack is headed.
    std::size_t headline = headlines.freer(ids).value_or(headlines.headline(ids));
    out.freed_by->push_back({.frames = std::move(frames),
                             .headline = headline,
                             .bytes = f.bytes,
                             .share_pct = f.share_pct,
                             .at_exit = f.at_exit,
                             .from = boundary_time(model, f.first_epoch),
                             .to = boundary_time(model, f.last_epoch + 1)});
  }
  std::vector<FreeStackName> names;
  for (const ReportFreedBy& f : *out.freed_by) names.push_back({f.frames, f.headline});
  out.freed_words = freed_words(model, freed, names);
}

// What a suspect and a finding say alike: its frames, kind, measures; its
// words, parts and evidence are the caller's.
ReportLeak common_leak(std::vector<Frame> frames, const Leak& leak) {
  return {.context_rank = leak.context + 1,
          .frames = std::move(frames),
          .headline = leak.headline,
          .why = {},
          .words = {},
          .parts = {},
          .kind = leak.kind,
          .growth_bytes = leak.growth_bytes,
          .cycles = leak.cycles,
          .peak_bytes = leak.peak_bytes,
          .end_bytes = leak.end_bytes,
          .freed_before_exit = leak.freed_before_exit,
          .cut_at_depth = 0,
          .confidence = leak.confidence,
          .troughs = {},
          .freed_by = std::nullopt,
          .freed_words = {},
          .finding = std::nullopt};
}

// A finding as the report says it: its main part's stack, its parts, its evidence.
ReportLeak report_finding(const Model& model, const Contexts* contexts, const Leak& leak,
                          const Leaks& leaks) {
  const Finding& f = leak.finding();
  // Its context's frames; a small finding (no context) its main part's main site's.
  ReportLeak out =
      common_leak(frames_of(model, contexts ? contexts->contexts[leak.context].frames
                                            : model.site(f.parts.front().main_site).frames),
                  leak);
  out.cut_at_depth = cut_at_depth(model, model.site(f.parts.front().main_site).frames).value_or(0);
  std::optional<Frame> holder;
  if (f.holder_frame) holder = model.frame(*f.holder_frame);
  out.why = finding_why(model, leak, leaks);
  out.words = finding_words(model, leak, holder ? frame_text(*holder) : "");
  out.finding = ReportLeak::FindingFacts{.kept_bytes = f.kept_bytes,
                                         .kept_blocks = f.kept_blocks,
                                         .freed_at_exit = f.freed_at_exit(),
                                         .holder = holder,
                                         .retention = f.retention,
                                         .cycles_left = leak.cycles_left(),
                                         .sites = f.sites.size()};
  if (const CurveEvidence* curve = leak.curves()) out.troughs = curve->troughs;
  for (const FindingPart& part : f.parts) {
    double share = f.kept_bytes > 0 ? 100.0 * static_cast<double>(part.kept_bytes) /
                                          static_cast<double>(f.kept_bytes)
                                    : 0;
    out.parts.push_back({.frames = frames_of(model, part.frames),
                         .growth_bytes = static_cast<double>(part.kept_bytes),
                         .share_pct = share,
                         .sites = part.sites.size()});
  }
  return out;
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

ReportTreeAt report_tree_at(const Model& model, const ContextTree& tree, std::uint64_t asked,
                            std::size_t snapshot, double threshold) {
  ReportTreeAt out{
      .asked = asked, .snapshot = snapshot, .time = model.snapshots.at(snapshot).time, .nodes = {}};
  std::vector<std::uint64_t> bytes = site_bytes_at(model, snapshot);
  for (const MomentLine& line : tree_lines_at(tree, bytes, threshold)) {
    std::span<const FrameId> frames = tree.own_frames(line.node);
    out.nodes.push_back({.depth = line.depth,
                         .frames = frames_of(model, {frames.begin(), frames.end()}),
                         .bytes = line.bytes,
                         .pct = line.pct,
                         .folded = line.folded,
                         .folded_bytes = line.folded_bytes,
                         .folded_pct = line.folded_pct});
  }
  return out;
}

namespace {

std::optional<ReportLifetimes> report_lifetimes(const Model& model, std::uint32_t born_at) {
  if (!model.has_lifetimes) return std::nullopt;
  const Lifetimes& l = model.lifetimes;
  return ReportLifetimes{.t0 = l.start(),
                         .epoch_length = l.epoch_length,
                         .epoch_unit = l.tick_unit.empty() ? model.header.time_unit : l.tick_unit,
                         .epochs = l.epochs,
                         .free_stacks = l.free_stacks,
                         .born_at = boundary_time(model, born_at)};
}

ReportSelection report_selection(const Model& model, const Selection& s) {
  ReportSelection out{.words = selection_words(model, s),
                      .born_from = boundary_time(model, s.from),
                      .born_to = boundary_time(model, s.to),
                      .alive_at = boundary_time(model, s.at),
                      .at_end = s.at >= model.lifetimes.epochs};
  for (const Site& site : model.sites) {
    for (const LifetimeCell& cell : site.cells) out.bytes += cell.bytes;
  }
  return out;
}

// A context's selected bytes: the cells of its sites (the model's are the selected).
std::uint64_t cells_bytes(const Model& model, const Context& context) {
  std::uint64_t bytes = 0;
  for (SiteId site : context.sites) {
    for (const LifetimeCell& cell : model.site(site).cells) bytes += cell.bytes;
  }
  return bytes;
}

const char* reason_id(PassedOver::Reason reason) {
  switch (reason) {
    case PassedOver::Reason::few_blocks: return "few_blocks";
    case PassedOver::Reason::short_span: return "short_span";
    case PassedOver::Reason::replaced: return "replaced";
    case PassedOver::Reason::levels_off: return "levels_off";
    case PassedOver::Reason::high_water: return "high_water";
    case PassedOver::Reason::newest_only: return "newest_only";
    case PassedOver::Reason::turnover: return "turnover";
    case PassedOver::Reason::gap: return "gap";
    case PassedOver::Reason::forked:
      return "forked";
    case PassedOver::Reason::none: break;
  }
  return "";
}

// The largest places passed over (Leaks::passed_over, none of them small),
// at most kPassedOverListed.
std::vector<ReportPassedOver> report_passed_over(const Model& model, const HeapAnalysis& analysis) {
  std::vector<ReportPassedOver> out;
  for (const PassedOverStructure& p : analysis.leaks.passed_over) {
    if (out.size() == kPassedOverListed) break;
    std::vector<Frame> frames = frames_of(model, model.site(p.main_site).frames);
    out.push_back({.frames = std::move(frames),
                   .headline = p.frames.empty() ? 0 : p.frames.size() - 1,
                   .kept_bytes = p.kept_bytes,
                   .kept_blocks = p.kept_blocks,
                   .reason = reason_id(p.why.reason),
                   .words = passed_over_words(model, p, analysis.leaks)});
  }
  return out;
}

}  // namespace

Report make_report(const Model& model, const ContextOptions& options, bool tree,
                   const std::optional<Selection>& selection) {
  AnalysisParts parts{.leaks = !selection, .tree = tree};
  return make_report(model, analyze_heap(model, options, parts), options, tree, selection);
}

Report make_report(const Model& model, const HeapAnalysis& analysis, const ContextOptions& options,
                   bool tree, const std::optional<Selection>& selection) {
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
  // The contexts' births are of the bytes the selection keeps, else of those next to the peak.
  std::uint32_t born_at = selection ? selection->at : born_boundary(model);
  std::string alive_at =
      selection || !model.has_lifetimes ? "" : born_boundary_words(model, born_at);
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    report.contexts.push_back(report_context(model, contexts[i], i + 1));
    add_born(model, contexts[i], born_at, alive_at, report.contexts.back());
    if (selection) report.contexts.back().selected_bytes = cells_bytes(model, contexts[i]);
  }
  // The analysis's policy; one of the same options for an analysis made without it.
  std::optional<FindingHeadlines> policy;
  if (!analysis.headlines) policy.emplace(model, OwnCode(model, own_code_libraries(options)));
  const FindingHeadlines& headlines = analysis.headlines ? *analysis.headlines : *policy;
  report.leaks_from_lifetimes = analysis.leaks.from_lifetimes;
  report.leaks_short_child = analysis.leaks.short_child;
  for (const Leak& leak : analysis.leaks.suspects) {
    report.leaks.push_back(report_finding(model, &analysis.contexts, leak, analysis.leaks));
    add_freed_by(model, leak.finding().sites, headlines, report.leaks.back());
  }
  for (const Leak& leak : analysis.leaks.small) {
    report.small_leaks.push_back(report_finding(model, nullptr, leak, analysis.leaks));
    report.small_leaks.back().context_rank = 0;
    add_freed_by(model, leak.finding().sites, headlines, report.small_leaks.back());
  }
  report.passed_over = report_passed_over(model, analysis);
  report.lifetimes = report_lifetimes(model, born_at);
  report.lifetimes_words = lifetimes_words(model);
  if (selection) report.selection = report_selection(model, *selection);
  if (tree) report.tree = report_tree(model, *analysis.tree, options);
  return report;
}

}  // namespace strata
