// SPDX-License-Identifier: GPL-2.0-or-later
// The series engine (series.hpp).
#include "analyze/series.hpp"

#include <algorithm>
#include <numeric>

namespace strata {

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

ContextPoint SeriesBuilder::site_at(SiteId site, std::size_t snapshot) const {
  ContextPoint at{snapshot, 0, 0, 0, 0};
  std::uint64_t level = 0;  // the site's bytes in the chain
  for (std::size_t j = first_[index(site)]; j < first_[index(site) + 1]; ++j) {
    const Step& step = steps_[j];
    if (complete_[step.point]) continue;
    if (snapshots_[step.point] > snapshot) break;
    level += step.gain;
    at.time = times_[step.point];
    if (snapshots_[step.point] == snapshot) {
      return {snapshot, at.time, level, level - step.below, level + step.above};
    }
    at.bytes = at.min = at.max = level;
  }
  return at;
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
  chain_weights_.assign(weights_.size() + 1, 0.0);
  for (std::size_t k = 0; k < weights_.size(); ++k) {
    chain_weights_[k + 1] = chain_weights_[k] + (builder.complete_[k] ? 0.0 : weights_[k]);
  }
}

SeriesMeasures SeriesMeasure::of_sites(const SeriesBuilder& builder,
                                       std::span<const SiteId> sites) const {
  SeriesMeasures m;
  std::size_t n = weights_.size();
  for (SiteId site : sites) {
    // The site's bytes in the chain hold from one of its chain steps to the
    // next; at a complete point it holds what that point lists of it, or 0.
    std::uint64_t level = 0;
    std::size_t from = 0;  // the point where `level` starts to hold
    auto hold = [&](std::size_t to) {
      m.spacetime += static_cast<double>(level) * (chain_weights_[to] - chain_weights_[from]);
      if (peak_ && *peak_ >= from && *peak_ < to && !builder.complete_[*peak_]) {
        m.peak_bytes += level;
      }
      if (end_ && *end_ >= from && *end_ < to && !builder.complete_[*end_]) m.end_bytes += level;
    };
    for (std::size_t j = builder.first_[index(site)]; j < builder.first_[index(site) + 1]; ++j) {
      const SeriesBuilder::Step& step = builder.steps_[j];
      if (builder.complete_[step.point]) {
        m.spacetime += weights_[step.point] * static_cast<double>(step.gain);
        if (peak_ == step.point) m.peak_bytes += step.gain;
        if (end_ == step.point) m.end_bytes += step.gain;
        continue;
      }
      hold(step.point);
      level += step.gain;
      from = step.point;
    }
    hold(n);
  }
  return m;
}

SeriesMeasures SeriesMeasure::of(std::span<const ContextPoint> series) const {
  SeriesMeasures m;
  for (std::size_t k = 0; k < series.size(); ++k) {
    m.spacetime += weights_[k] * static_cast<double>(series[k].bytes);
    m.max_bytes = std::max(m.max_bytes, series[k].max);
  }
  m.peak_bytes = peak_ ? series[*peak_].bytes : 0;
  m.end_bytes = end_ ? series[*end_].bytes : 0;
  return m;
}

}  // namespace strata
