// SPDX-License-Identifier: GPL-2.0-or-later
// Grouping sites into contexts, measuring and ranking them.
//
// Memory stays proportional to the profile, not to contexts x snapshots: a
// context's series is built from its sites' steps (SeriesBuilder) when it is
// measured, and kept only for the contexts listed in the result.  So the
// sites are walked twice: once to measure and rank every context, once to
// build the series of those listed and of the "other places" (from the sites
// of the contexts folded into it, at once).  A kept context's series comes
// with it (heap_analysis.cpp builds it to judge it).
#include "analyze/contexts.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "util/units.hpp"

namespace strata {

bool wildcard_match(std::string_view pattern, std::string_view name) {
  std::size_t p = 0, n = 0;
  std::size_t star = std::string_view::npos, resume = 0;  // the last * and where it resumes
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p, ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

bool is_alloc_fn(const Frame& frame, const std::vector<std::string>& patterns) {
  if (frame.function.empty()) return false;
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return wildcard_match(p, frame.function); });
}

}  // namespace

std::vector<FrameId> context_frames(const Model& model, const Site& site,
                                    const ContextOptions& options) {
  auto first = site.frames.begin();
  while (first != site.frames.end() && is_alloc_fn(model.frame(*first), options.alloc_fns)) {
    ++first;
  }
  std::vector<FrameId> frames;
  std::size_t addresses = 0;  // code addresses taken: inlined frames come with theirs
  for (auto it = first; it != site.frames.end(); ++it) {
    if (options.depth != 0 && addresses == options.depth) break;
    frames.push_back(*it);
    if (!model.frame(*it).inlined) ++addresses;
  }
  return frames;
}

void apply_measures(Context& context, const SeriesMeasure& measure) {
  SeriesMeasures m = measure.of(context.series);
  context.spacetime = m.spacetime;
  context.peak_bytes = m.peak_bytes;
  context.end_bytes = m.end_bytes;
  context.max_bytes = m.max_bytes;
}

// ---- grouping, ranking, folding ----------------------------------------------

std::vector<Context> group_by_frames(const Model& model, const ContextOptions& options,
                                     const SeriesBuilder& builder, const SeriesMeasure& measure) {
  std::vector<Context> contexts;
  std::map<std::vector<FrameId>, std::size_t> by_frames;  // frames -> index into contexts
  for (std::size_t i = 0; i < model.sites.size(); ++i) {
    std::vector<FrameId> frames = context_frames(model, model.sites[i], options);
    auto [it, added] = by_frames.try_emplace(frames, contexts.size());
    if (added) {
      contexts.emplace_back();
      contexts.back().frames = std::move(frames);
    }
    contexts[it->second].sites.push_back(static_cast<SiteId>(i));
    contexts[it->second].counts += model.sites[i].counts;
  }
  std::vector<ContextPoint> series;  // one context's at a time, in the same storage
  for (Context& context : contexts) {
    builder.build(context.sites, series);
    context.series.swap(series);
    apply_measures(context, measure);
    context.series.swap(series);
  }
  return contexts;
}

namespace {}  // namespace

double sort_measure(const Context& context, ContextSort sort) {
  switch (sort) {
    case ContextSort::peak:
      return static_cast<double>(context.peak_bytes);
    case ContextSort::allocations:
      return static_cast<double>(context.counts.calls);
    case ContextSort::temporary:
      return static_cast<double>(context.counts.temporary);
    case ContextSort::allocated:
      return static_cast<double>(context.counts.allocated);
    case ContextSort::spacetime:
      break;
  }
  return context.spacetime;
}

namespace {

bool ranks_before(const Context& a, const Context& b, ContextSort sort) {
  if (sort != ContextSort::spacetime && sort_measure(a, sort) != sort_measure(b, sort)) {
    return sort_measure(a, sort) > sort_measure(b, sort);
  }
  if (a.spacetime != b.spacetime) return a.spacetime > b.spacetime;
  if (a.peak_bytes != b.peak_bytes) return a.peak_bytes > b.peak_bytes;
  if (a.max_bytes != b.max_bytes) return a.max_bytes > b.max_bytes;
  return a.sites.front() < b.sites.front();
}

// The contexts listed, in rank order, then the "N other places" if any,
// whose series is built from the sites of the contexts folded into it.
std::vector<Context> fold(std::vector<Context> ranked, const std::vector<bool>& kept,
                          const ContextOptions& options, const SeriesBuilder& builder,
                          const SeriesMeasure& measure) {
  std::vector<Context> listed;
  Context other;
  std::size_t top = options.top == 0 ? ranked.size() : options.top;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    Context& context = ranked[i];
    if (kept[i] || (context.share_pct >= options.threshold && listed.size() < top)) {
      if (!kept[i]) context.series = builder.of(context.sites);
      listed.push_back(std::move(context));
      continue;
    }
    ++other.folded;
    other.sites.insert(other.sites.end(), context.sites.begin(), context.sites.end());
    other.spacetime_pct += context.spacetime_pct;
    other.share_pct += context.share_pct;
    other.counts += context.counts;
  }
  if (other.folded > 0) {
    std::sort(other.sites.begin(), other.sites.end());
    other.series = builder.of(other.sites);
    apply_measures(other, measure);
    listed.push_back(std::move(other));
  }
  return listed;
}

}  // namespace

void rank(std::vector<Context>& contexts, std::vector<bool>& kept, ContextSort sort) {
  std::vector<std::size_t> order(contexts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return ranks_before(contexts[a], contexts[b], sort);
  });
  std::vector<Context> ranked;
  std::vector<bool> ranked_kept;
  for (std::size_t i : order) {
    ranked.push_back(std::move(contexts[i]));
    ranked_kept.push_back(kept[i]);
  }
  contexts = std::move(ranked);
  kept = std::move(ranked_kept);
}

Contexts rank_and_fold(std::vector<Context> contexts, std::vector<bool> kept,
                       const ContextOptions& options, const SeriesBuilder& builder,
                       const SeriesMeasure& measure) {
  double total = 0, sorted_total = 0;
  for (const Context& context : contexts) {
    total += context.spacetime;
    sorted_total += sort_measure(context, options.sort);
  }
  for (Context& context : contexts) {
    context.spacetime_pct = percent_of(context.spacetime, total);
    double measure = sort_measure(context, options.sort);
    context.share_pct = percent_of(measure, sorted_total);
  }
  rank(contexts, kept, options.sort);
  Contexts result;
  result.snapshots = builder.snapshots();
  for (const Context& context : contexts) result.spacetime += context.spacetime;
  result.contexts = fold(std::move(contexts), kept, options, builder, measure);
  return result;
}

}  // namespace strata
