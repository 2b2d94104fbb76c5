// SPDX-License-Identifier: GPL-2.0-or-later
// The heap analysis (heap_analysis.hpp).
#include "analyze/heap_analysis.hpp"

#include <algorithm>
#include <map>

#include "analyze/leak_tree.hpp"
#include "analyze/own_code.hpp"

namespace strata {

namespace {

bool more_suspicious(const Leak& a, const Leak& b) {
  if (a.confidence != b.confidence) return a.confidence > b.confidence;
  if (total_growth(a) != total_growth(b)) return total_growth(a) > total_growth(b);
  return a.context < b.context;
}

using Verdicts = std::map<SiteId, Leak>;  // a suspect context's least site -> its verdict

// With --depth: every group judged, the suspects kept with their series.
Contexts depth_grouping(const Model& model, const ContextOptions& options, const Cycles* cycles,
                        const SeriesBuilder& builder, const SeriesMeasure& measure,
                        Verdicts& verdicts) {
  std::vector<Context> groups = group_by_frames(model, options, builder, measure);
  std::vector<bool> kept(groups.size(), false);
  for (std::size_t i = 0; cycles && i < groups.size(); ++i) {
    builder.build(groups[i].sites, groups[i].series);
    std::optional<Leak> leak = judge_context(model, *cycles, builder, groups[i]);
    if (leak) verdicts[groups[i].sites.front()] = std::move(*leak);
    kept[i] = leak.has_value();
    if (!kept[i]) std::vector<ContextPoint>().swap(groups[i].series);
  }
  return rank_and_fold(std::move(groups), std::move(kept), options, builder, measure);
}

// Each suspect context's verdict, as a suspect, most suspicious first.
std::vector<Leak> suspects(const Model& model, const ContextOptions& options,
                           const std::vector<Context>& contexts, Verdicts& verdicts) {
  std::vector<Leak> out;
  OwnCode own(model, options.libraries);
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    if (contexts[i].other()) continue;
    auto verdict = verdicts.find(contexts[i].sites.front());
    if (verdict == verdicts.end()) continue;
    Leak leak = std::move(verdict->second);
    leak.context = i;
    leak.peak_bytes = contexts[i].peak_bytes;
    leak.end_bytes = contexts[i].end_bytes;
    leak.headline = own.headline(frames_of(model, contexts[i].frames));
    out.push_back(std::move(leak));
  }
  std::sort(out.begin(), out.end(), more_suspicious);
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
  const Cycles* cycles = parts.leaks ? &analysis.leaks.cycles : nullptr;
  std::shared_ptr<ContextTree> tree;
  if (!options.depth || parts.tree) {
    tree = std::make_shared<ContextTree>(model, options.alloc_fns);
    tree->measure(builder, measure);
  }
  Verdicts verdicts;
  if (!options.depth) {
    std::vector<NodeId> kept;
    if (cycles) kept = tree_suspects(model, *cycles, *tree, builder, verdicts);
    analysis.contexts = tree_grouping(model, *tree, options, builder, measure, kept);
    count(model, analysis.contexts.contexts);
  } else {
    analysis.contexts = depth_grouping(model, options, cycles, builder, measure, verdicts);
  }
  analysis.leaks.suspects = suspects(model, options, analysis.contexts.contexts, verdicts);
  if (parts.tree) analysis.tree = std::move(tree);
  return analysis;
}

Contexts group_contexts(const Model& model, const ContextOptions& options) {
  return analyze_heap(model, options, {.leaks = false}).contexts;
}

}  // namespace strata
