// SPDX-License-Identifier: GPL-2.0-or-later
// The heap analysis (heap_analysis.hpp).
#include "analyze/heap_analysis.hpp"

#include <algorithm>
#include <map>

#include "analyze/headlines.hpp"
#include "analyze/lifetime_leaks.hpp"
#include "analyze/own_code.hpp"
#include "util/units.hpp"

namespace strata {

// (heap_analysis.hpp)
std::vector<std::string> own_code_libraries(const ContextOptions& options) {
  std::vector<std::string> libraries = options.libraries;
  libraries.insert(libraries.end(), options.alloc_fns.begin(), options.alloc_fns.end());
  return libraries;
}

namespace {

using Verdicts = std::map<SiteId, Leak>;  // a suspect context's least site -> its verdict

// ---- findings ----------------------------------------------------------------------

// A finding's context: all its sites, named by its main part's main site.
Context finding_context(const Model& model, const Finding& f, const ContextOptions& options,
                        const SeriesBuilder& builder, const SeriesMeasure& measure) {
  Context context;
  context.frames = context_frames(model, model.site(f.parts.front().main_site), options);
  context.shape = ContextShape::finding;
  context.sites = f.sites;
  context.series = builder.of(context.sites);
  apply_measures(context, measure);
  return context;
}

// `contexts` without the sites of `findings`: a context that loses some is
// measured again and dropped when it loses all (`kept` follows).
void carve_sites(const Model& model, const std::vector<Finding>& findings,
                 std::vector<Context>& contexts, std::vector<bool>& kept,
                 const SeriesBuilder& builder, const SeriesMeasure& measure,
                 std::vector<bool>* carved = nullptr) {
  std::vector<bool> taken(model.sites.size(), false);
  for (const Finding& f : findings) {
    for (SiteId site : f.sites) taken[index(site)] = true;
  }
  std::vector<Context> out;
  std::vector<bool> out_kept;
  if (carved) carved->clear();
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    Context& c = contexts[i];
    std::size_t before = c.sites.size();
    std::erase_if(c.sites, [&](SiteId site) { return taken[index(site)]; });
    if (c.sites.empty()) continue;
    if (c.sites.size() != before) {
      c.series = builder.of(c.sites);
      apply_measures(c, measure);
      c.counts = {};
      for (SiteId site : c.sites) c.counts += model.site(site).counts;
    }
    if (carved) carved->push_back(c.sites.size() != before);
    out.push_back(std::move(c));
    out_kept.push_back(kept.empty() ? false : kept[i]);
  }
  contexts = std::move(out);
  kept = std::move(out_kept);
}

// The tree's contexts with the findings carved out (carve_sites) and added,
// each a context of its own; a context carved under the threshold (of the
// spacetime and of the useful heap at the peak, `peak_heap`) joins "N other
// places".
Contexts tree_with_findings(const Model& model, Contexts grouped,
                            const std::vector<Finding>& findings, const ContextOptions& options,
                            double peak_heap, const SeriesBuilder& builder,
                            const SeriesMeasure& measure) {
  std::vector<bool> kept, carved;
  carve_sites(model, findings, grouped.contexts, kept, builder, measure, &carved);
  Context other;
  std::vector<Context> listed;
  for (std::size_t i = 0; i < grouped.contexts.size(); ++i) {
    Context& c = grouped.contexts[i];
    double share = std::max(percent_of(c.spacetime, grouped.spacetime),
                            percent_of(static_cast<double>(c.peak_bytes), peak_heap));
    if (c.other() || (carved[i] && share < options.threshold)) {
      other.folded += c.other() ? c.folded : 1;
      other.sites.insert(other.sites.end(), c.sites.begin(), c.sites.end());
    } else {
      listed.push_back(std::move(c));
    }
  }
  std::vector<bool> listed_kept(listed.size(), false);
  for (const Finding& f : findings) {
    listed.push_back(finding_context(model, f, options, builder, measure));
    listed_kept.push_back(true);
  }
  for (Context& c : listed) {
    c.spacetime_pct = percent_of(c.spacetime, grouped.spacetime);
    c.share_pct = c.spacetime_pct;
  }
  rank(listed, listed_kept);
  if (other.folded > 0) {
    std::sort(other.sites.begin(), other.sites.end());
    other.series = builder.of(other.sites);
    apply_measures(other, measure);
    other.spacetime_pct = percent_of(other.spacetime, grouped.spacetime);
    other.share_pct = other.spacetime_pct;
    listed.push_back(std::move(other));
  }
  grouped.contexts = std::move(listed);
  return grouped;
}

// A finding judged from the curves: its floor (what it held from each
// boundary to the horizon at least) at the end of each epoch of its span in
// which it rose, and of its first and last, the last at the horizon; the
// end of epoch e is the snapshot points[e] (LifetimeLeaks::snapshots).  And
// what each of its sites holds at the horizon.
CurveEvidence curve_evidence(const Model& model, const SeriesBuilder& builder, const Finding& f,
                             std::span<const std::size_t> points) {
  CurveEvidence out;
  out.finding = f;
  std::uint64_t floor = 0;
  auto h = static_cast<std::uint32_t>(f.kept_by_epoch.size());
  for (std::uint32_t e = 0; e < h && e < points.size(); ++e) {
    floor += f.kept_by_epoch[e];
    if (e < f.first_epoch) continue;
    if (f.kept_by_epoch[e] > 0 || e == f.first_epoch || e + 1 == h) {
      out.troughs.push_back(
          {.snapshot = points[e], .time = model.snapshots[points[e]].time, .bytes = floor});
    }
  }
  for (SiteId site : f.sites) {
    out.site_kept.push_back(
        out.troughs.empty() ? 0 : builder.site_at(site, out.troughs.back().snapshot).bytes);
  }
  return out;
}

// The index in `frames` of the finding's owner (Finding::owner) at or
// beyond its headline `headline`, when the frames reach it; else `headline`.
std::size_t owner_or(const std::vector<FrameId>& frames, std::size_t headline, const Finding& f) {
  if (!f.owner || headline >= frames.size()) return headline;
  auto at = std::find(frames.begin() + static_cast<std::ptrdiff_t>(headline), frames.end(), *f.owner);
  return at == frames.end() ? headline : static_cast<std::size_t>(at - frames.begin());
}

// A finding as a suspect (its context and measures set later, in suspects()).
Leak finding_leak(const Model& model, const SeriesBuilder& builder, const LifetimeLeaks& found,
                  const Finding& f, const Cycles& cycles) {
  Leak leak;
  std::uint32_t horizon = found.horizon;
  // The lifetimes' findings place the markers among the epochs by their
  // ticks (Marker::tick), the curves' by their times.
  CyclesLeft left;
  if (!found.from_curves && !cycles.ticks.empty()) {
    std::vector<std::uint64_t> ticks;
    for (std::uint64_t k = 0; k < found.boundaries.size(); ++k) ticks.push_back(model.lifetimes.boundary_tick(k));
    left = cycles_left(ticks, cycles.ticks, f, horizon);
  } else {
    left = cycles_left(found.boundaries, cycles.starts, f, horizon);
  }
  leak.cycles = left.cycles;
  // The program's cycles, as its markers say, each leaving some behind make
  // it a leak; else it is a batch program's growth as much as a leak (a
  // compiler keeps its trees to the end as a server keeps a history nothing
  // trims), and so it is with the heap's rhythm alone: a batch program's
  // passes and collections have a rhythm too (cc1plus in ms, make -n).
  bool leak_by_cycles =
      cycles.source == CycleSource::markers && left.cycles >= 3 && 2 * left.left >= left.cycles;
  leak.kind = leak_by_cycles ? LeakKind::left_behind : LeakKind::steady_growth;
  double span = static_cast<double>(found.boundaries[f.span_end()] - found.boundaries[f.first_epoch]);
  // A leak's kept bytes per cycle that left some behind, as the words give
  // them; growth's per time unit of its span.
  if (leak_by_cycles) {
    leak.growth_bytes = static_cast<double>(f.kept_bytes) / static_cast<double>(left.left);
  } else {
    leak.growth_bytes = span > 0 ? static_cast<double>(f.kept_bytes) / span : 0;
  }
  auto [least, most] = std::minmax_element(f.retention.begin(), f.retention.end());
  leak.confidence = f.retention.empty() || *most <= 0 ? 0 : *least / *most;
  // (an index into the main site's frames, of which its main part's are the first)
  leak.headline = owner_or(model.site(f.parts.front().main_site).frames,
                           f.parts.front().frames.empty() ? 0 : f.parts.front().frames.size() - 1, f);
  leak.end_bytes = f.alive_bytes;
  leak.freed_before_exit = f.alive_bytes == 0;
  if (found.from_curves) {
    CurveEvidence curve = curve_evidence(model, builder, f, found.snapshots);
    curve.cycles_left = left.left;
    leak.evidence = std::move(curve);
  } else {
    leak.evidence = LifetimeEvidence{.finding = f, .cycles_left = left.left};
  }
  return leak;
}

// With --depth: every group judged, the suspects kept with their series.
Contexts depth_grouping(const Model& model, const ContextOptions& options,
                        const SeriesBuilder& builder, const SeriesMeasure& measure,
                        const std::vector<Finding>& findings) {
  std::vector<Context> groups = group_by_frames(model, options, builder, measure);
  std::vector<bool> kept(groups.size(), false);
  if (!findings.empty()) {
    carve_sites(model, findings, groups, kept, builder, measure);
    for (const Finding& f : findings) {
      groups.push_back(finding_context(model, f, options, builder, measure));
      for (SiteId site : f.sites) groups.back().counts += model.site(site).counts;
      kept.push_back(true);
    }
  }
  return rank_and_fold(std::move(groups), std::move(kept), options, builder, measure);
}

// Each suspect context's verdict, as a suspect, most suspicious first.
std::vector<Leak> suspects(const std::vector<Context>& contexts, Verdicts& verdicts) {
  std::vector<Leak> out;
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    if (contexts[i].other()) continue;
    auto verdict = verdicts.find(contexts[i].sites.front());
    if (verdict == verdicts.end()) continue;
    Leak leak = std::move(verdict->second);
    leak.context = i;
    leak.peak_bytes = contexts[i].peak_bytes;
    leak.end_bytes = contexts[i].end_bytes;
    // The finding's headline frame, where it is in its context's frames (cut by
    // --alloc-fn and --depth), else the first.
    const std::vector<FrameId>& frames = contexts[i].frames;
    const std::vector<FrameId>& part = leak.finding().parts.front().frames;
    auto at = part.empty() ? frames.end() : std::find(frames.begin(), frames.end(), part.back());
    leak.headline = at == frames.end()
                        ? 0
                        : owner_or(frames, static_cast<std::size_t>(at - frames.begin()), leak.finding());
    out.push_back(std::move(leak));
  }
  std::sort(out.begin(), out.end(), [](const Leak& a, const Leak& b) {
    if (a.finding().kept_bytes != b.finding().kept_bytes) {
      return a.finding().kept_bytes > b.finding().kept_bytes;
    }
    return a.context < b.context;
  });
  return out;
}

// Every context's counts: its sites' together (the tree's contexts; the
// groups of --depth count theirs as they are made, to be ranked by them).
void count(const Model& model, std::vector<Context>& contexts) {
  for (Context& context : contexts) {
    context.counts = {};
    for (SiteId site : context.sites) context.counts += model.site(site).counts;
  }
}

}  // namespace

HeapAnalysis analyze_heap(const Model& model, const ContextOptions& given, AnalysisParts parts) {
  // Ranked by something else than spacetime, the contexts are whole stacks
  // (or --depth): the tree's are chosen by spacetime and the peak.
  ContextOptions options = given;
  if (options.sort != ContextSort::spacetime && !options.depth) options.depth = 0;
  HeapAnalysis analysis;
  analysis.options = options;
  SeriesBuilder builder(model);
  SeriesMeasure measure(model, builder);
  if (parts.leaks) analysis.leaks.cycles = find_cycles(model);
  std::shared_ptr<ContextTree> tree;
  if (!options.depth || parts.tree) {
    tree = std::make_shared<ContextTree>(model, options.alloc_fns);
    tree->measure(builder, measure);
  }
  Verdicts verdicts;
  // One headline policy for every finding and suspect (headlines.hpp);
  // --alloc-fn's functions are allocators to it too.
  auto policy = std::make_shared<const FindingHeadlines>(
      model, OwnCode(model, own_code_libraries(options)));
  const FindingHeadlines& headlines = *policy;
  // With lifetimes, the findings are judged from them, each a context of its own.
  std::vector<Finding> findings;
  std::optional<std::size_t> peak = peak_snapshot(model);
  double peak_heap = peak ? static_cast<double>(model.snapshots[*peak].heap) : 0;
  if (parts.leaks) {
    const Cycles* cycles = &analysis.leaks.cycles;
    // The parts test hears the program's markers, else its bursts of work
    // (lifetime_leaks.hpp): the heap's rhythm is read off the snapshots, in
    // the time unit, and a recording in ms would not be judged as one in i.
    // The lifetimes take the markers' ticks (Marker::tick), the curves their times.
    std::span<const std::uint64_t> marked_ticks, marked_times;
    if (cycles->source == CycleSource::markers) {
      marked_ticks = cycles->ticks;
      marked_times = cycles->starts;
    }
    // (A forked child whose own run the lifetimes cut into too few epochs
    // is judged on its curves: lifetimes_judge_own_run.)
    bool lifetimes = lifetimes_judge_own_run(model) && !options.leaks_from_curves;
    analysis.leaks.short_child = !lifetimes && !options.leaks_from_curves && model.has_lifetimes &&
                                 model.lifetimes.epochs > 0;
    LifetimeLeaks found = lifetimes ? find_lifetime_leaks(model, headlines, marked_ticks)
                                    : find_curve_leaks(model, headlines, builder, marked_times);
    analysis.leaks.from_lifetimes = lifetimes;
    analysis.leaks.horizon = found.horizon;
    analysis.leaks.boundaries = found.boundaries;
    // Small: under the threshold's share of the peak, and never over kSmallShare.
    double small = std::min(options.threshold, kSmallShare) / 100 * peak_heap;
    analysis.leaks.passed_over = std::move(found.passed_over);
    std::erase_if(analysis.leaks.passed_over, [&](const PassedOverStructure& p) {
      return static_cast<double>(p.kept_bytes) < small;
    });
    for (Finding& f : found.findings) {
      Leak leak = finding_leak(model, builder, found, f, analysis.leaks.cycles);
      if (static_cast<double>(f.kept_bytes) >= small) {
        verdicts[f.sites.front()] = std::move(leak);
        findings.push_back(std::move(f));
      } else {
        analysis.leaks.small.push_back(std::move(leak));
      }
    }
  }
  if (!options.depth) {
    analysis.contexts = tree_grouping(model, *tree, options, builder, measure, {});
    count(model, analysis.contexts.contexts);
    if (!findings.empty()) {
      analysis.contexts = tree_with_findings(model, std::move(analysis.contexts), findings, options,
                                             peak_heap, builder, measure);
      count(model, analysis.contexts.contexts);
    }
  } else {
    analysis.contexts = depth_grouping(model, options, builder, measure, findings);
  }
  analysis.leaks.suspects = suspects(analysis.contexts.contexts, verdicts);
  if (parts.tree) analysis.tree = std::move(tree);
  analysis.headlines = std::move(policy);
  return analysis;
}

std::uint64_t site_kept(const Model& model, const Leaks& leaks, const Leak& leak, SiteId site) {
  if (const CurveEvidence* curve = leak.curves()) {
    const std::vector<SiteId>& sites = curve->finding.sites;
    auto at = std::lower_bound(sites.begin(), sites.end(), site);
    return at == sites.end() || *at != site ? 0 : curve->site_kept[at - sites.begin()];
  }
  return kept_bytes(model.site(site), leaks.horizon);
}

Contexts group_contexts(const Model& model, const ContextOptions& options) {
  return analyze_heap(model, options, {.leaks = false}).contexts;
}

}  // namespace strata
