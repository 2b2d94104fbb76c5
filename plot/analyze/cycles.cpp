// SPDX-License-Identifier: GPL-2.0-or-later
// The program's cycles (cycles.hpp).  docs/design.md, "Leak detection",
// explains the method; the thresholds are the constants below, named as there.
#include "analyze/cycles.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "analyze/stats.hpp"

namespace strata {

namespace {

constexpr std::size_t kMinMarkerRepeats = 3;  // a marker label that starts cycles
constexpr std::size_t kMinRhythmSnapshots = 12;
constexpr std::size_t kMinLag = 4;           // a period spans at least this many grid steps
constexpr std::size_t kResample = 2048;      // points of the regular grid
constexpr double kMinAutocorrelation = 0.4;  // a period's autocorrelation
constexpr double kNearBestPeak = 0.8;        // the first peak this close to the best wins
constexpr double kHarmonicSlack = 0.05;      // ... or one whose multiple is this close to it
constexpr std::size_t kPhases = 32;          // phases tried to put cycle starts on crests
constexpr double kCrossingBand = 0.25;       // cycles from crossings: the median -+ this
                                             // share of the interquartile range
constexpr std::size_t kMinCrossings = 4;     // ... so many rises at least
constexpr double kMaxCycleJitter = 0.3;      // ... their lengths' coefficient of variation

}  // namespace

Cycles cycles_from_markers(const Model& model) {
  std::map<std::string, std::size_t> repeats;  // label -> markers with it
  for (const Marker& marker : model.markers) ++repeats[marker.label];
  Cycles cycles;
  std::size_t most = 0;
  for (const Marker& marker : model.markers) {  // the first label in the file wins a tie
    if (repeats[marker.label] > most) most = repeats[marker.label], cycles.label = marker.label;
  }
  if (most < kMinMarkerRepeats) return {};
  cycles.source = CycleSource::markers;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> marked;  // (time, tick)
  for (const Marker& marker : model.markers) {
    if (marker.label == cycles.label) marked.emplace_back(marker.time, marker.tick);
  }
  std::sort(marked.begin(), marked.end());
  for (const auto& [time, tick] : marked) {
    cycles.starts.push_back(time);
    cycles.ticks.push_back(tick);
  }
  std::vector<double> lengths;
  for (std::size_t k = 1; k < cycles.starts.size(); ++k) {
    lengths.push_back(static_cast<double>(cycles.starts[k] - cycles.starts[k - 1]));
  }
  cycles.period = median(std::move(lengths));
  return cycles;
}

namespace {

// The series on `n` regularly spaced times from its first to its last,
// each the value of the last point at or before it, less the least-squares line.
std::vector<double> regular_detrended(std::span<const std::uint64_t> times,
                                      std::span<const std::uint64_t> bytes, std::size_t n) {
  double first = static_cast<double>(times.front()),
         span = static_cast<double>(times.back()) - first;
  std::vector<double> x(n);
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double t = first + span * static_cast<double>(i) / static_cast<double>(n - 1);
    while (at + 1 < times.size() && static_cast<double>(times[at + 1]) <= t) ++at;
    x[i] = static_cast<double>(bytes[at]);
  }
  double mean_i = static_cast<double>(n - 1) / 2;
  double mean_x = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (static_cast<double>(i) - mean_i) * (x[i] - mean_x);
    sxx += (static_cast<double>(i) - mean_i) * (static_cast<double>(i) - mean_i);
  }
  double slope = sxy / sxx;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] -= mean_x + slope * (static_cast<double>(i) - mean_i);
  }
  return x;
}

// The autocorrelation of `x` at `lag`, each sum divided by its number of terms.
double autocorrelation(const std::vector<double>& x, std::size_t lag, double variance) {
  double sum = 0;
  for (std::size_t i = 0; i + lag < x.size(); ++i) sum += x[i] * x[i + lag];
  return sum / static_cast<double>(x.size() - lag) / variance;
}

// Whether `lag` is a period of which `best` is a multiple, within kHarmonicSlack.
bool divides(std::size_t lag, std::size_t best) {
  double times = std::round(static_cast<double>(best) / static_cast<double>(lag));
  return times >= 1 && std::abs(times * static_cast<double>(lag) - static_cast<double>(best)) <=
                           kHarmonicSlack * static_cast<double>(best);
}

// The lag of the period, in grid steps, or 0: the first autocorrelation peak,
// after the first zero crossing, nearly as high as the best one or clearly
// there and a whole fraction of it (when cycles vary in length, the best peak
// can be at two cycles: each pair of cycles is nearer alike than each cycle),
// within a third of the grid (so that at least 3 cycles fit).
std::size_t period_lag(const std::vector<double>& x) {
  double variance = 0;
  for (double v : x) variance += v * v;
  variance /= static_cast<double>(x.size());
  if (variance <= 0) return 0;
  std::size_t last = x.size() / 3;
  std::vector<double> r(last + 2, 0.0);
  for (std::size_t lag = 1; lag <= last + 1; ++lag) r[lag] = autocorrelation(x, lag, variance);
  std::size_t crossing = 1;
  while (crossing <= last && (r[crossing] > 0 || crossing < kMinLag)) ++crossing;
  std::size_t best = crossing;
  for (std::size_t lag = crossing; lag <= last; ++lag) best = r[lag] > r[best] ? lag : best;
  if (best > last || r[best] < kMinAutocorrelation) return 0;
  for (std::size_t lag = crossing; lag <= last; ++lag) {
    bool peak = r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1];
    if (peak && (r[lag] >= kNearBestPeak * r[best] ||
                 (r[lag] >= kMinAutocorrelation && divides(lag, best)))) {
      return lag;
    }
  }
  return 0;
}

// The offset, in grid steps within one period, of the crests: cycles start there,
// so that a trough is not cut in two.
double crest_phase(const std::vector<double>& x, double lag) {
  double best_phase = 0, best_score = -INFINITY;
  for (std::size_t j = 0; j < kPhases; ++j) {
    double phase = lag * static_cast<double>(j) / kPhases, score = 0;
    std::size_t count = 0;
    for (double at = phase; at < static_cast<double>(x.size()); at += lag, ++count) {
      score += x[static_cast<std::size_t>(at)];
    }
    score /= static_cast<double>(count);
    if (score > best_score) best_score = score, best_phase = phase;
  }
  return best_phase;
}

// How many points to keep so as to leave out a final descent that starts
// within kReleaseTail of the run from its end (a release at exit, not a cycle).
std::size_t before_release(std::span<const std::uint64_t> times,
                           std::span<const std::uint64_t> bytes) {
  std::size_t k = bytes.size() - 1;
  while (k > 0 && bytes[k - 1] == bytes.back()) --k;
  std::size_t reached = k;
  while (k > 0 && bytes[k] < bytes[k - 1]) --k;
  double run = static_cast<double>(times.back() - times.front());
  bool release = k < reached && static_cast<double>(times.back() - times[k]) <= kReleaseTail * run;
  return release ? k + 1 : bytes.size();
}

// Cycles whose lengths vary too much for the autocorrelation (times in
// milliseconds on a busy machine, requests of different sizes): each starts
// where the detrended series `x` (on a grid from `first`, `step` apart)
// rises above its median by kCrossingBand of its interquartile range after
// having been as far below it (a drift that the line did not take out
// leaves these bands crossed).  Found when there are at least kMinCrossings
// such rises, evenly enough spaced (the coefficient of variation of the cycle
// lengths at most kMaxCycleJitter): a random walk's rises are not.
Cycles cycles_from_crossings(const std::vector<double>& x, double first, double step) {
  double middle = quantile(x, 0.5), spread = quantile(x, 0.75) - quantile(x, 0.25);
  double low = middle - kCrossingBand * spread, high = middle + kCrossingBand * spread;
  if (spread <= 0) return {};
  std::vector<std::uint64_t> starts;
  bool below = true;  // a series that starts high starts a cycle
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] <= low) below = true;
    if (x[i] > high && below) {
      starts.push_back(
          static_cast<std::uint64_t>(std::llround(first + step * static_cast<double>(i))));
      below = false;
    }
  }
  if (starts.size() < kMinCrossings) return {};
  std::vector<double> lengths;
  for (std::size_t k = 1; k < starts.size(); ++k) {
    lengths.push_back(static_cast<double>(starts[k] - starts[k - 1]));
  }
  if (coefficient_of_variation(lengths) > kMaxCycleJitter) return {};
  Cycles cycles;
  cycles.source = CycleSource::rhythm;
  cycles.period = median(std::move(lengths));
  cycles.starts = std::move(starts);
  return cycles;
}

}  // namespace

Cycles cycles_from_rhythm(std::span<const std::uint64_t> times,
                          std::span<const std::uint64_t> bytes) {
  if (times.empty()) return {};
  std::size_t kept = before_release(times, bytes);
  times = times.first(kept);
  bytes = bytes.first(kept);
  // Nor is a quiet start (Valgrind's or the C library's start-up, before the
  // program's heap changes): the rhythm is looked for from the last point
  // before the first change.
  std::size_t quiet = 0;
  while (quiet + 1 < bytes.size() && bytes[quiet + 1] == bytes.front()) ++quiet;
  times = times.subspan(quiet);
  bytes = bytes.subspan(quiet);
  if (times.size() < kMinRhythmSnapshots || times.back() <= times.front()) return {};
  // The series is a step function (a snapshot holds until the next), so a
  // grid finer than its points adds no artefact, and it resolves short
  // cycles between snapshots that are far apart (idle stretches).
  std::size_t n = kResample;
  std::vector<double> x = regular_detrended(times, bytes, n);
  std::size_t lag = period_lag(x);
  double step = static_cast<double>(times.back() - times.front()) / static_cast<double>(n - 1);
  if (lag == 0) return cycles_from_crossings(x, static_cast<double>(times.front()), step);
  Cycles cycles;
  cycles.source = CycleSource::rhythm;
  cycles.period = static_cast<double>(lag) * step;
  double start =
      static_cast<double>(times.front()) + crest_phase(x, static_cast<double>(lag)) * step;
  // A last cycle counts only if it lasted kMinLastCycle of a period.
  double end = static_cast<double>(times.back()) - kMinLastCycle * cycles.period;
  for (; start <= end; start += cycles.period) {
    cycles.starts.push_back(static_cast<std::uint64_t>(std::llround(start)));
  }
  return cycles;
}

Cycles find_cycles(const Model& model) {
  Cycles cycles = cycles_from_markers(model);
  if (cycles.source != CycleSource::none) return cycles;
  std::vector<std::uint64_t> times, bytes;
  for (const Snapshot& snapshot : model.snapshots) {
    times.push_back(snapshot.time);
    bytes.push_back(snapshot.heap);
  }
  return cycles_from_rhythm(times, bytes);
}
}  // namespace strata
