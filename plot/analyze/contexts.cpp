// SPDX-License-Identifier: GPL-2.0-or-later
// Grouping sites into contexts, measuring and ranking them.
//
// Memory stays proportional to the profile, not to contexts x snapshots: a
// context's series is built from its sites' steps (SeriesBuilder) when it is
// measured, and kept only for the contexts listed in the result.  So the
// sites are walked twice: once to measure and rank every context, once to
// build the series of those listed and of the "other places" (from the sites
// of the contexts folded into it, at once).
#include "analyze/contexts.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "analyze/context_tree.hpp"

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

// ---- series ------------------------------------------------------------------

SeriesBuilder::SeriesBuilder(const Model& model) {
  for (std::size_t i = 0; i < model.snapshots.size(); ++i) {
    const Snapshot& snapshot = model.snapshots[i];
    if (snapshot.site_data == SiteData::none) continue;
    snapshots_.push_back(i);
    times_.push_back(snapshot.time);
    complete_.push_back(snapshot.site_data == SiteData::complete);
  }
  count_steps(model);
  fill_steps(model);
}

// Sets first_: where each site's steps start, one site after the other.
void SeriesBuilder::count_steps(const Model& model) {
  first_.assign(model.sites.size() + 1, 0);
  for (std::size_t i : snapshots_) {
    for (const SiteSample& sample : model.snapshots[i].sites) ++first_[index(sample.site) + 1];
  }
  std::partial_sum(first_.begin(), first_.end(), first_.begin());
}

void SeriesBuilder::fill_steps(const Model& model) {
  steps_ = std::make_unique_for_overwrite<Step[]>(first_.back());
  std::vector<std::size_t> next(first_.begin(), first_.end() - 1);  // SiteId -> its next step
  std::vector<std::uint64_t> held(model.sites.size(), 0);  // SiteId -> bytes at its last step
  for (std::size_t k = 0; k < snapshots_.size(); ++k) {
    for (const SiteSample& sample : model.snapshots[snapshots_[k]].sites) {
      Step& step = steps_[next[index(sample.site)]++];
      if (complete_[k]) {
        step = {k, sample.bytes, 0, 0};
        continue;
      }
      std::uint64_t& bytes = held[index(sample.site)];
      step = {k, sample.bytes - bytes, sample.bytes - sample.min, sample.max - sample.bytes};
      bytes = sample.bytes;
    }
  }
}

std::vector<ContextPoint> SeriesBuilder::empty() const { return of({}); }

std::vector<ContextPoint> SeriesBuilder::of(std::span<const SiteId> sites) const {
  std::vector<ContextPoint> series;
  build(sites, series);
  return series;
}

void SeriesBuilder::build(std::span<const SiteId> sites, std::vector<ContextPoint>& series) const {
  series.resize(snapshots_.size());
  for (std::size_t k = 0; k < series.size(); ++k) series[k] = {snapshots_[k], times_[k], 0, 0, 0};
  for (SiteId site : sites) {
    for (std::size_t j = first_[index(site)]; j < first_[index(site) + 1]; ++j) {
      const Step& step = steps_[j];
      ContextPoint& point = series[step.point];
      point.bytes += step.gain;
      point.min += step.below;
      point.max += step.above;
    }
  }
  std::uint64_t level = 0;  // the sites' bytes in the chain
  for (std::size_t k = 0; k < series.size(); ++k) {
    ContextPoint& point = series[k];
    if (complete_[k]) {
      point.min = point.max = point.bytes;
      continue;
    }
    level += point.bytes;
    point.bytes = level;
    point.min = level - point.min;
    point.max = level + point.max;
  }
}

namespace {

// ---- measures ----------------------------------------------------------------

// What each series point weighs in the spacetime: half the time to each
// neighbour (trapezoids); 1 each when the series spans no time.
std::vector<double> time_weights(const std::vector<ContextPoint>& series) {
  std::vector<double> weights(series.size(), 0.0);
  for (std::size_t k = 0; k + 1 < series.size(); ++k) {
    double half = static_cast<double>(series[k + 1].time - series[k].time) / 2;
    weights[k] += half;
    weights[k + 1] += half;
  }
  if (std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0; })) {
    std::fill(weights.begin(), weights.end(), 1.0);
  }
  return weights;
}

// Where the series stands at model snapshot `snapshot`: the last series
// point at or before it, or nullopt.
std::optional<std::size_t> series_index(const std::vector<std::size_t>& snapshots,
                                        std::size_t snapshot) {
  auto after = std::upper_bound(snapshots.begin(), snapshots.end(), snapshot);
  if (after == snapshots.begin()) return std::nullopt;
  return static_cast<std::size_t>(after - snapshots.begin() - 1);
}

}  // namespace

SeriesMeasure::SeriesMeasure(const Model& model, const SeriesBuilder& builder)
    : weights_(time_weights(builder.empty())) {
  if (auto peak = peak_snapshot(model)) peak_ = series_index(builder.snapshots(), *peak);
  if (!model.snapshots.empty()) {
    end_ = series_index(builder.snapshots(), model.snapshots.size() - 1);
  }
}

void SeriesMeasure::apply(Context& context) const {
  const std::vector<ContextPoint>& series = context.series;
  context.spacetime = 0;
  context.max_bytes = 0;
  for (std::size_t k = 0; k < series.size(); ++k) {
    context.spacetime += weights_[k] * static_cast<double>(series[k].bytes);
    context.max_bytes = std::max(context.max_bytes, series[k].max);
  }
  context.peak_bytes = peak_ ? series[*peak_].bytes : 0;
  context.end_bytes = end_ ? series[*end_].bytes : 0;
}

namespace {

// ---- grouping, ranking, folding ----------------------------------------------

std::vector<Context> group_sites(const Model& model, const ContextOptions& options) {
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
  }
  return contexts;
}

bool ranks_before(const Context& a, const Context& b) {
  if (a.spacetime != b.spacetime) return a.spacetime > b.spacetime;
  if (a.peak_bytes != b.peak_bytes) return a.peak_bytes > b.peak_bytes;
  if (a.max_bytes != b.max_bytes) return a.max_bytes > b.max_bytes;
  return a.sites.front() < b.sites.front();
}

// Measures every context, and asks `keep` about each; keeps the series of
// those it keeps only, so that one context's series is built at a time (in
// the same storage).
void measure_all(std::vector<Context>& contexts, const SeriesBuilder& builder,
                 const SeriesMeasure& measure, const Keep& keep, std::vector<bool>& kept) {
  double total = 0;
  std::vector<ContextPoint> series;
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    Context& context = contexts[i];
    builder.build(context.sites, series);
    context.series.swap(series);
    measure.apply(context);
    total += context.spacetime;
    kept[i] = keep.context && keep.context(context, builder);
    if (!kept[i]) context.series.swap(series);  // takes the storage back
  }
  for (Context& context : contexts) {
    context.spacetime_pct = total > 0 ? 100.0 * context.spacetime / total : 0.0;
  }
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
    if (kept[i] || (context.spacetime_pct >= options.threshold && listed.size() < top)) {
      if (!kept[i]) context.series = builder.of(context.sites);
      listed.push_back(std::move(context));
      continue;
    }
    ++other.folded;
    other.sites.insert(other.sites.end(), context.sites.begin(), context.sites.end());
    other.spacetime_pct += context.spacetime_pct;
  }
  if (other.folded > 0) {
    std::sort(other.sites.begin(), other.sites.end());
    other.series = builder.of(other.sites);
    measure.apply(other);
    listed.push_back(std::move(other));
  }
  return listed;
}

// Sorts `contexts` by rank, and `kept` along.
void rank(std::vector<Context>& contexts, std::vector<bool>& kept) {
  std::vector<std::size_t> order(contexts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return ranks_before(contexts[a], contexts[b]); });
  std::vector<Context> ranked;
  std::vector<bool> ranked_kept;
  for (std::size_t i : order) {
    ranked.push_back(std::move(contexts[i]));
    ranked_kept.push_back(kept[i]);
  }
  contexts = std::move(ranked);
  kept = std::move(ranked_kept);
}

// The default grouping: the contexts chosen from the calling-context tree,
// ranked, then the "N other places" of the sites under none of them (N their
// different stacks).  Sets `spacetime` to the heap's.
std::vector<Context> choose_from_tree(const Model& model, const ContextOptions& options,
                                      const SeriesBuilder& builder, const SeriesMeasure& measure,
                                      const Keep& keep, double& spacetime) {
  ContextTree tree(model, options.alloc_fns);
  tree.measure(builder, measure);
  std::vector<NodeId> kept;
  if (keep.nodes) kept = keep.nodes(tree, builder, measure);
  std::vector<bool> ranked_kept;
  std::vector<Context> ranked = tree_contexts(tree, options, builder, measure, kept, ranked_kept);
  spacetime = tree.node(tree.root()).spacetime;
  for (Context& context : ranked) {
    context.spacetime_pct = spacetime > 0 ? 100.0 * context.spacetime / spacetime : 0.0;
  }
  rank(ranked, ranked_kept);
  std::vector<bool> listed(model.sites.size(), false);
  for (const Context& context : ranked) {
    for (SiteId site : context.sites) listed[index(site)] = true;
  }
  Context other;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    std::span<const SiteId> own = tree.own_sites(NodeId{static_cast<std::uint32_t>(i)});
    std::size_t before = other.sites.size();
    for (SiteId site : own) {
      if (!listed[index(site)]) other.sites.push_back(site);
    }
    other.folded += other.sites.size() > before;
  }
  if (other.folded > 0) {
    std::sort(other.sites.begin(), other.sites.end());
    other.series = builder.of(other.sites);
    measure.apply(other);
    other.spacetime_pct = spacetime > 0 ? 100.0 * other.spacetime / spacetime : 0.0;
    ranked.push_back(std::move(other));
  }
  return ranked;
}

}  // namespace

Contexts group_contexts(const Model& model, const ContextOptions& options, const Keep& keep) {
  SeriesBuilder builder(model);
  SeriesMeasure measure(model, builder);
  Contexts result;
  result.snapshots = builder.snapshots();
  if (!options.depth) {
    result.contexts = choose_from_tree(model, options, builder, measure, keep, result.spacetime);
    return result;
  }
  std::vector<Context> ranked = group_sites(model, options);
  std::vector<bool> ranked_kept(ranked.size());
  measure_all(ranked, builder, measure, keep, ranked_kept);
  rank(ranked, ranked_kept);
  for (const Context& context : ranked) result.spacetime += context.spacetime;
  result.contexts = fold(std::move(ranked), ranked_kept, options, builder, measure);
  return result;
}

}  // namespace strata
