// SPDX-License-Identifier: GPL-2.0-or-later
// Leak detection: rising troughs across the program's cycles, and steady
// growth of a context's floor.  docs/design.md, "Leak detection", explains the
// method; the thresholds are the constants below, named as there.
#include "analyze/leaks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>

#include "analyze/context_tree.hpp"
#include "analyze/own_code.hpp"

namespace strata {

namespace {

// ---- thresholds (docs/design.md, "Leak detection") -----------------------------

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
constexpr double kMinLastCycle = 0.75;       // a last cycle cut short counts from this length
constexpr std::size_t kMinTroughs = 3;
constexpr double kTie = 0.005;   // differences under this share of the context's max are ties
constexpr double kMinTau = 0.5;  // Kendall's tau of the troughs
constexpr double kMinTroughRise = 0.02;  // the troughs' rise, as a share of the context's max
constexpr double kMinLateSlope = 0.25;   // the last half's slope, as a share of the whole's
constexpr double kTransferShare = 0.5;   // siblings losing this share of a gain: a transfer
constexpr double kNearlyAll = 0.8;       // a caller with this share of a node's growth names it
constexpr double kMinNodeShare =
    0.001;                              // a node with callers is judged from this share of the heap
constexpr double kMaxStepSpread = 1.0;  // the troughs' steps' coefficient of variation
constexpr double kMaxGiveBack = 0.25;   // the most the troughs fall back, as a share of their rise
constexpr double kReleaseLevel = 0.1;   // "freed": at most this share of the last trough left
constexpr double kReleaseTail = 0.3;    // a release at exit starts within this share of the run
constexpr double kReleaseWindow = 0.25;  // ... below the least held in this share before it
constexpr double kReleaseHigh = 0.9;     // ... from the last point this near the tail's most
constexpr std::size_t kBins = 10;        // steady growth: the run in equal bins of time
constexpr double kMinGrowthSpan = 0.3;   // ... or from a late start, so long at least
constexpr double kMaxBeforeOnset = 0.5;  // ... to heights not held before: this share at most
constexpr std::size_t kMinBinsWithData = 5;
constexpr double kMinRisingBins = 0.6;     // share of the bins in which the floor rises
constexpr double kLateShare = 0.75;        // the floor still rises after this share of the run
constexpr double kMinLateRise = 0.1;       // ... by this share of its whole rise
constexpr double kMinFloorRise = 0.05;     // the floor's rise, as a share of the context's max
constexpr double kMaxUnevenness = 0.5;     // the coefficient of variation of its rises by bin
constexpr double kSteadyConfidence = 0.8;  // steady growth is weaker evidence than cycles
constexpr std::size_t kMinStairs = 3;      // a staircase: the floor rises in this many steps
constexpr double kStairStep = 0.1;         // ... each by this share of its rise before it
constexpr double kStairShare = 0.8;        // ... which make this share of its rise at least
constexpr double kStairSlack = 1.25;       // ... and its next step is not this overdue
constexpr double kStairGiveBack = 0.1;     // ... and its lows give back at most this share
constexpr double kMinStairPower = 0.5;     // ... and its level grows as a power of time, from
constexpr double kMaxStairPower = 2.0;     // ... this to this (1: a steady rate)
constexpr double kManyCycles = 5;          // confidence: full from this many cycles (plus one)
constexpr double kLargeRise = 0.25;        // ... and from a rise of this share of the most held

// ---- statistics --------------------------------------------------------------

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  return (upper + *std::max_element(values.begin(), values.begin() + middle)) / 2;
}

// -1, 0 or 1, differences within `tie` being 0.
int sign(double difference, double tie) {
  if (difference > tie) return 1;
  if (difference < -tie) return -1;
  return 0;
}

// At most kMaxPairwise of `values`, evenly spaced, the first and the last
// among them: the statistics over all pairs take these, so that their cost
// stays bounded however many cycles a run has.
constexpr std::size_t kMaxPairwise = 256;

std::vector<double> evenly_spaced(std::span<const double> values) {
  std::size_t n = std::min(values.size(), kMaxPairwise);
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(n == values.size() ? values[i] : values[i * (values.size() - 1) / (n - 1)]);
  }
  return out;
}

// Kendall's tau of `y` against its order: the Mann-Kendall S over the pairs
// (of at most kMaxPairwise of them).
double kendall_tau(std::span<const double> all_y, double tie) {
  std::vector<double> y = evenly_spaced(all_y);
  if (y.size() < 2) return 0;
  long s = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    for (std::size_t j = i + 1; j < y.size(); ++j) s += sign(y[j] - y[i], tie);
  }
  return static_cast<double>(s) / static_cast<double>(y.size() * (y.size() - 1) / 2);
}

// The standard deviation of `values` over their mean; infinite when the mean
// is not above 0.
double coefficient_of_variation(std::span<const double> values) {
  double mean =
      std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  double variance = 0;
  for (double v : values) variance += (v - mean) * (v - mean);
  variance /= static_cast<double>(values.size());
  return mean > 0 ? std::sqrt(variance) / mean : INFINITY;
}

}  // namespace

double theil_sen_slope(std::span<const double> all_x, std::span<const double> all_y) {
  std::vector<double> x = evenly_spaced(all_x), y = evenly_spaced(all_y);
  std::vector<double> slopes;
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t j = i + 1; j < x.size(); ++j) {
      if (x[j] != x[i]) slopes.push_back((y[j] - y[i]) / (x[j] - x[i]));
    }
  }
  return median(std::move(slopes));
}

// ---- cycles ----------------------------------------------------------------------

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
  for (const Marker& marker : model.markers) {
    if (marker.label == cycles.label) cycles.starts.push_back(marker.time);
  }
  std::sort(cycles.starts.begin(), cycles.starts.end());
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

// The value at share `q` of the sorted values of `x`.
double quantile(std::vector<double> x, double q) {
  std::size_t at = static_cast<std::size_t>(q * static_cast<double>(x.size() - 1));
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(at), x.end());
  return x[at];
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

namespace {

// ---- the run judged ------------------------------------------------------------

// The part of a series judged: all of it, or, when the context was released at
// exit, the part before that release.
struct Run {
  std::span<const ContextPoint> points;
  bool released = false;
  std::uint64_t max = 0;  // the most the context held in the run
};

// When the context first held bytes: its run starts there (not at the start
// of the program, which may have idled long before, as Valgrind's start-up in
// milliseconds does).
std::uint64_t first_held(std::span<const ContextPoint> s) {
  for (const ContextPoint& p : s) {
    if (p.max > 0) return p.time;
  }
  return s.front().time;
}

// The lowest the series held over the `window` of time up to point `r`.
std::uint64_t recent_low(std::span<const ContextPoint> s, std::size_t r, double window) {
  std::uint64_t low = s[r].min;
  for (std::size_t k = r; k-- > 0 && static_cast<double>(s[r].time - s[k].time) <= window;) {
    low = std::min(low, s[k].min);
  }
  return low;
}

// The index where the series' final descent starts: the last point, before
// the points that end at its last value, that held kReleaseHigh of the most
// it held in the last kReleaseTail of the run (a teardown may be slow, and
// hold still between its frees), or, in a cyclic program (`period` above 0),
// after it for one period at most, as long as the series stays within what
// it held in the period before: the last cycle's way down, no lower than the
// cycle before went (a context that only grew has no way down to take, and
// a descent that goes on longer is a slow release).
std::size_t descent_start(std::span<const ContextPoint> s, std::uint64_t end_time, double run,
                          double period) {
  std::size_t k = s.size() - 1;
  while (k > 0 && s[k - 1].bytes == s.back().bytes) --k;
  double tail = static_cast<double>(end_time) - kReleaseTail * run;
  std::uint64_t high = 0;
  for (const ContextPoint& p : s) {
    if (static_cast<double>(p.time) >= tail) high = std::max(high, p.bytes);
  }
  double level = static_cast<double>(s.back().bytes) +
                 kReleaseHigh * (static_cast<double>(high) - static_cast<double>(s.back().bytes));
  std::size_t end = k;
  while (k > 0 && static_cast<double>(s[k].bytes) < level) --k;
  // In a cyclic program, then down as far as it stays within what it held
  // before (the last cycle's way down, not yet the release).
  std::uint64_t top = s[k].time;
  while (period > 0 && k + 1 < end && s[k + 1].bytes >= recent_low(s, k, period) &&
         static_cast<double>(s[k + 1].time - top) <= period) {
    ++k;
  }
  return k;
}

// Whether the descent from `r` is a release at exit: it starts within
// kReleaseTail of the run from its end, and ends below anything held in the
// kReleaseWindow of the run before it (so not a cycle's usual way down).
bool released_at_exit(std::span<const ContextPoint> s, std::size_t r, std::uint64_t end_time,
                      double run) {
  if (r + 1 == s.size()) return false;
  if (s.back().bytes >= recent_low(s, r, kReleaseWindow * run)) return false;
  return static_cast<double>(end_time - s[r].time) <= kReleaseTail * run;
}

Run judged_run(std::span<const ContextPoint> series, std::uint64_t end_time, double period) {
  Run run{series};
  if (series.size() >= 2) {
    double length = static_cast<double>(end_time - first_held(series));
    std::size_t r = descent_start(series, end_time, length, period);
    // The run ends before the release, and before point r if it fell already.
    std::size_t kept = r > 0 && series[r].bytes < series[r - 1].bytes ? r : r + 1;
    if (released_at_exit(series, r, end_time, length)) run = {series.first(kept), true};
  }
  for (const ContextPoint& p : run.points) run.max = std::max(run.max, p.max);
  return run;
}

// ---- rising troughs ------------------------------------------------------------

// Where cycle k ends within the run: the next cycle's start, or the end of
// the run for a last cycle cut short by it, which counts only when it lasted
// kMinLastCycle of a period; nullopt when it does not count.
std::optional<std::uint64_t> cycle_end(const Cycles& cycles, std::size_t k, std::uint64_t run_end) {
  std::uint64_t end = k + 1 < cycles.count() ? cycles.starts[k + 1] : UINT64_MAX;
  if (end <= run_end) return end;
  double length = static_cast<double>(run_end) - static_cast<double>(cycles.starts[k]);
  if (length < kMinLastCycle * cycles.period) return std::nullopt;
  return run_end;
}

// One trough per cycle in the run: the least `min` among the points whose
// interval ends in the cycle, (begin, end].  A cycle without a point has none.
std::vector<Trough> cycle_troughs(const Run& run, const Cycles& cycles) {
  std::vector<Trough> troughs;
  std::span<const ContextPoint> points = run.points;
  std::size_t p = 0;
  for (std::size_t k = 0; k < cycles.count(); ++k) {
    std::optional<std::uint64_t> end = cycle_end(cycles, k, points.back().time);
    if (!end) break;
    while (p < points.size() && points[p].time <= cycles.starts[k]) ++p;
    std::optional<Trough> low;
    for (; p < points.size() && points[p].time <= *end; ++p) {
      if (!low || points[p].min < low->bytes) {
        low = Trough{k, points[p].snapshot, points[p].time, points[p].min};
      }
    }
    if (low) troughs.push_back(*low);
  }
  return troughs;
}

double slope_of(std::span<const Trough> troughs, bool by_cycle) {
  std::vector<double> x, y;
  for (const Trough& t : troughs) {
    x.push_back(static_cast<double>(by_cycle ? t.cycle : t.time));
    y.push_back(static_cast<double>(t.bytes));
  }
  return theil_sen_slope(x, y);
}

double clamp01(double v) { return std::clamp(v, 0.0, 1.0); }

// The part of the confidence that grows with the rise, as a share of the most held.
double size_weight(double rise, double max) { return 0.5 + 0.5 * clamp01(rise / max / kLargeRise); }

// What a context's troughs say.
struct TroughTrend {
  double tau = 0;         // Kendall's tau against their order
  double slope = 0;       // Theil-Sen, bytes per cycle
  double rise = 0;        // the slope over the cycles judged
  double late_slope = 0;  // Theil-Sen of the last half
  double give_back = 0;   // the most a trough fell below an earlier one
  double spread = 0;      // the coefficient of variation of the rises from cycle to cycle
};

// The coefficient of variation of the changes from each trough to the next:
// a leak keeps about as much each cycle (or a growing share, as a buffer
// grown by a factor does), a random walk's troughs move up and down by
// steps larger than their mean.
double step_spread(std::span<const double> y) {
  if (y.size() < 3) return 0;
  std::vector<double> steps;
  for (std::size_t k = 1; k < y.size(); ++k) steps.push_back(y[k] - y[k - 1]);
  return coefficient_of_variation(steps);
}

// The most that a trough fell below the highest trough before it: leaked
// memory is not given back, while a random walk's troughs fall as often as
// they rise.
double give_back(std::span<const double> y) {
  double highest = y.empty() ? 0 : y.front(), most = 0;
  for (double v : y) {
    highest = std::max(highest, v);
    most = std::max(most, highest - v);
  }
  return most;
}

TroughTrend trough_trend(std::span<const Trough> troughs, double max) {
  std::vector<double> y;
  for (const Trough& t : troughs) y.push_back(static_cast<double>(t.bytes));
  TroughTrend trend;
  trend.tau = kendall_tau(y, kTie * max);
  trend.give_back = give_back(y);
  trend.spread = step_spread(y);
  trend.slope = slope_of(troughs, true);
  trend.rise = trend.slope * static_cast<double>(troughs.back().cycle - troughs.front().cycle);
  std::span<const Trough> late = troughs.subspan(troughs.size() / 2);
  trend.late_slope = slope_of(late.size() < 2 ? troughs.last(2) : late, true);
  return trend;
}

bool rises(const TroughTrend& t, double max) {
  return t.tau >= kMinTau && t.slope > 0 && t.rise >= kMinTroughRise * max && t.rise > kTie * max &&
         t.late_slope >= kMinLateSlope * t.slope && t.give_back <= kMaxGiveBack * t.rise &&
         t.spread <= kMaxStepSpread;
}

std::optional<Leak> rising_trough(const Run& run, std::vector<Trough> troughs) {
  double max = static_cast<double>(run.max);
  if (max == 0) return std::nullopt;
  TroughTrend trend = trough_trend(troughs, max);
  if (!rises(trend, max)) return std::nullopt;
  double many = clamp01(static_cast<double>(troughs.size() - 1) / kManyCycles);
  Leak leak;
  leak.kind = LeakKind::rising_trough;
  for (std::size_t k = 1; k < troughs.size(); ++k) {
    leak.rises += troughs[k].bytes > troughs[k - 1].bytes;
  }
  // Leaked memory is kept in most cycles: the troughs rise from more than
  // half of the cycles to the next (with three troughs, 0, 0 and then a
  // rise is one jump of a random walk, not a leak).
  if (2 * leak.rises <= troughs.size() - 1) return std::nullopt;
  leak.growth_bytes = trend.slope;
  leak.cycles = troughs.size();
  leak.confidence = trend.tau * (0.5 + 0.5 * many) * size_weight(trend.rise, max);
  leak.troughs = std::move(troughs);
  return leak;
}

// ---- steady growth -------------------------------------------------------------

// The floor of the run at each point: the least it holds from then to the end.
// The floor of a run from point k on is this one's from k on.
using Floor = std::span<const std::uint64_t>;
std::vector<std::uint64_t> floor_of(const Run& run) {
  std::vector<std::uint64_t> floor(run.points.size());
  std::uint64_t low = UINT64_MAX;
  for (std::size_t k = run.points.size(); k-- > 0;) {
    low = std::min(low, run.points[k].min);
    floor[k] = low;
  }
  return floor;
}

// How many points of the run are at or before `time` (a binary search: the
// points are in time order).
std::size_t points_until(const Run& run, double time) {
  auto after = std::partition_point(
      run.points.begin(), run.points.end(),
      [&](const ContextPoint& p) { return static_cast<double>(p.time) <= time; });
  return static_cast<std::size_t>(after - run.points.begin());
}

// The run cut into kBins equal bins of its time: for each bin, how many
// points of the run are in it and the bins before (the last bin ends with the
// last point; a bin without a point ends where the one before does).
std::array<std::size_t, kBins> bin_ends(const Run& run) {
  double first = static_cast<double>(run.points.front().time);
  double span = static_cast<double>(run.points.back().time) - first;
  std::array<std::size_t, kBins> ends{};
  std::size_t k = 0;
  for (std::size_t b = 0; b + 1 < kBins; ++b) {
    k = std::max(k, points_until(run, first + span * static_cast<double>(b + 1) / kBins));
    ends[b] = k;
  }
  ends[kBins - 1] = run.points.size();
  return ends;
}

// The floor at the end of each of kBins equal bins of the run's time, as
// troughs; a bin without a point is left out.
std::vector<Trough> floor_by_bin(const Run& run, Floor floor) {
  std::vector<Trough> bins;
  std::size_t k = 0;  // the points before k are in the bins before
  for (std::size_t next : bin_ends(run)) {
    if (next == k) continue;
    k = next;
    bins.push_back({0, run.points[k - 1].snapshot, run.points[k - 1].time, floor[k - 1]});
  }
  return bins;
}

// The floor's value at the last point at or before `time`.
std::uint64_t floor_at(const Run& run, Floor floor, double time) {
  std::size_t until = points_until(run, time);
  return until == 0 ? floor.front() : floor[until - 1];
}

// What a context's floor says.
struct FloorTrend {
  double rise = 0;        // from the start of the run to its end
  double late_rise = 0;   // after kLateShare of the run
  double rising = 0;      // the share of the bins in which it rises
  double unevenness = 0;  // the coefficient of variation of its rises from bin to bin
};

// The coefficient of variation of the rises from each bin to the next (from
// the start of the run to the first).
double unevenness(std::span<const Trough> bins, std::uint64_t start) {
  std::vector<double> rises;
  for (const Trough& bin : bins) {
    rises.push_back(static_cast<double>(bin.bytes) - static_cast<double>(start));
    start = bin.bytes;
  }
  return coefficient_of_variation(rises);
}

FloorTrend floor_trend(const Run& run, Floor floor, std::span<const Trough> bins, double tie) {
  FloorTrend trend;
  trend.rise = static_cast<double>(floor.back() - floor.front());
  double first = static_cast<double>(run.points.front().time);
  double late = first + kLateShare * (static_cast<double>(run.points.back().time) - first);
  trend.late_rise = static_cast<double>(floor.back() - floor_at(run, floor, late));
  std::size_t rising = 0;
  std::uint64_t before = floor.front();
  for (const Trough& bin : bins) {
    if (static_cast<double>(bin.bytes) - static_cast<double>(before) > tie) ++rising;
    before = bin.bytes;
  }
  trend.rising = static_cast<double>(rising) / static_cast<double>(bins.size());
  trend.unevenness = unevenness(bins, floor.front());
  return trend;
}

bool climbs(const FloorTrend& t, double max) {
  return t.rising >= kMinRisingBins && t.rise >= kMinFloorRise * max && t.rise > kTie * max &&
         t.late_rise >= kMinLateRise * t.rise && t.unevenness <= kMaxUnevenness;
}

// The run from point `onset` on, if it lasts kMinGrowthSpan of the run at
// least and the floor goes on from there to new heights: the most held up to
// `onset` is at most kMaxBeforeOnset of the floor at the end.
std::optional<Run> run_from(const Run& run, Floor floor, std::size_t onset) {
  if (onset == 0 || onset + 1 >= floor.size()) return std::nullopt;
  std::uint64_t before = 0;
  for (std::size_t k = 0; k <= onset; ++k) before = std::max(before, run.points[k].max);
  if (static_cast<double>(before) > kMaxBeforeOnset * static_cast<double>(floor.back())) {
    return std::nullopt;
  }
  double span = static_cast<double>(run.points.back().time - run.points.front().time);
  double rest = static_cast<double>(run.points.back().time - run.points[onset].time);
  if (rest < kMinGrowthSpan * span) return std::nullopt;
  Run late = run;
  late.points = run.points.subspan(onset);
  return late;
}

// Where a growth that started late may start: where the floor leaves its
// first value (it was flat before), then the start of each of kBins equal
// bins of the run's time (before it, the context may have wandered within
// what it held at the start, as a working set does).
std::vector<std::size_t> onsets(const Run& run, Floor floor) {
  std::vector<std::size_t> found;
  std::size_t flat = 0;
  while (flat + 1 < floor.size() && floor[flat + 1] == floor.front()) ++flat;
  found.push_back(flat);
  std::array<std::size_t, kBins> ends = bin_ends(run);
  for (std::size_t b = 0; b + 1 < kBins; ++b) {
    if (ends[b] > found.back()) found.push_back(ends[b]);
  }
  return found;
}

// ---- a staircase ---------------------------------------------------------------

// The lowest the run held in each of kBins equal bins of its time (the least
// `min` of the points whose interval ends in it); a bin without a point is
// left out.
std::vector<double> bin_lows(const Run& run) {
  std::vector<double> lows;
  std::size_t k = 0;
  for (std::size_t next : bin_ends(run)) {
    if (next == k) continue;
    std::uint64_t low = UINT64_MAX;
    for (; k < next; ++k) low = std::min(low, run.points[k].min);
    lows.push_back(static_cast<double>(low));
  }
  return lows;
}

struct Stairs {
  std::size_t steps = 0;
  double factor = 0;  // the median factor of the rise at a step
};

// One step of a staircase: at point `at` of the run, the rise from the start
// went from `before` to `before + step`.
struct Stair {
  std::size_t at = 0;
  double before = 0;
  double step = 0;
};

// The steps of a floor: rises by more than the tie and by kStairStep of the
// rise before them.
std::vector<Stair> stairs_of(Floor floor, double tie) {
  std::vector<Stair> stairs;
  for (std::size_t k = 1; k < floor.size(); ++k) {
    double step = static_cast<double>(floor[k] - floor[k - 1]);
    double before = static_cast<double>(floor[k - 1] - floor.front());
    if (step > tie && step >= kStairStep * before) stairs.push_back({k, before, step});
  }
  return stairs;
}

// Whether the steps keep to a line: from the middle step to the last, the
// level before them grew as a power of the time since `start` (the time of
// each step) between kMinStairPower and kMaxStairPower: 1 for contents that
// grow at a steady rate.  The floor of a random walk that catches up with
// the walk at the end of the run rises far faster than its time.
bool keeps_to_a_line(const Run& run, std::span<const Stair> stairs, std::uint64_t start) {
  auto fits = [&](const Stair& a, const Stair& b) {
    double from = static_cast<double>(run.points[a.at].time - start);
    double to = static_cast<double>(run.points[b.at].time - start);
    if (a.before <= 0 || from <= 0 || to <= from) return false;
    double power = std::log(b.before / a.before) / std::log(to / from);
    return power >= kMinStairPower && power <= kMaxStairPower;
  };
  return fits(stairs[stairs.size() / 2], stairs.back()) &&
         fits(stairs[stairs.size() - 2], stairs.back());
}

// Whether the floor climbs as a staircase whose steps get longer as they get
// higher (a buffer grown by a factor: realloc by a quarter, a vector that
// doubles).  The floor is taken no higher than the lowest the run held in its
// last bin (what a run holds at its last point is not yet a level it kept).
// It must rise in kMinStairs steps at least, which make kStairShare of its
// rise and keep to a line (keeps_to_a_line); its next step must not be
// overdue: a buffer grown by a factor r at time t (from when the context
// first held bytes) is full again, at the rate its contents grew so far, at
// about r t, so the run may stay flat after the last step for kStairSlack
// (r - 1) t at most.  And the run must hold its steps: the lowest point of
// each bin goes up (Kendall's tau at least kMinTau) and never falls back by
// more than kStairGiveBack of the rise.  A cache that fills and then
// plateaus is overdue (its last step is one entry: r is about 1), and so is a
// pool that keeps its high-water mark (records get rarer and smaller); a
// random walk does not hold its steps, and most of its rise is in small ones.
std::optional<Stairs> climbs_in_stairs(const Run& run, Floor run_floor, double tie) {
  std::vector<double> lows = bin_lows(run);
  if (lows.size() < kMinBinsWithData) return std::nullopt;
  std::vector<std::uint64_t> floor;
  for (std::uint64_t level : run_floor) {
    floor.push_back(std::min(level, static_cast<std::uint64_t>(lows.back())));
  }
  std::vector<Stair> stairs = stairs_of(floor, tie);
  if (stairs.size() < kMinStairs) return std::nullopt;
  const Stair& last = stairs.back();
  double rise = last.before + last.step, in_stairs = 0;
  std::vector<double> factors;
  for (const Stair& stair : stairs) {
    in_stairs += stair.step;
    if (stair.before > 0) factors.push_back((stair.before + stair.step) / stair.before);
  }
  std::uint64_t start = first_held(run.points);
  double climb = static_cast<double>(run.points[last.at].time - start);
  double flat = static_cast<double>(run.points.back().time - run.points[last.at].time);
  if (in_stairs < kStairShare * rise || last.before <= 0 || climb <= 0) return std::nullopt;
  if (flat > kStairSlack * (rise / last.before - 1) * climb) return std::nullopt;
  if (!keeps_to_a_line(run, stairs, start) || kendall_tau(lows, tie) < kMinTau ||
      give_back(lows) > kStairGiveBack * rise) {
    return std::nullopt;
  }
  return Stairs{stairs.size(), median(std::move(factors))};
}

// `floor`: the run's (floor_of); `stairs_too`: whether a staircase counts
// too (not from an onset within the run: a staircase's times count from when
// the context first held bytes).
std::optional<Leak> steady_growth_of(const Run& run, Floor floor, bool stairs_too) {
  double max = static_cast<double>(run.max);
  if (run.points.size() < kMinBinsWithData || max == 0) return std::nullopt;
  std::vector<Trough> bins = floor_by_bin(run, floor);
  if (bins.size() < kMinBinsWithData) return std::nullopt;
  FloorTrend trend = floor_trend(run, floor, bins, kTie * max);
  bool enough = trend.rise >= kMinFloorRise * max && trend.rise > kTie * max;
  if (!enough) return std::nullopt;
  std::optional<Stairs> stairs;
  if (!climbs(trend, max) &&
      !(stairs_too && (stairs = climbs_in_stairs(run, floor, kTie * max)))) {
    return std::nullopt;
  }
  const ContextPoint& first = run.points.front();
  bins.insert(bins.begin(), Trough{0, first.snapshot, first.time, floor.front()});
  Leak leak;
  leak.kind = LeakKind::steady_growth;
  leak.rises =
      static_cast<std::size_t>(std::lround(trend.rising * static_cast<double>(bins.size() - 1)));
  if (stairs) leak.steps = stairs->steps, leak.step_factor = stairs->factor;
  leak.growth_bytes = slope_of(bins, false);
  leak.confidence = kSteadyConfidence * std::max(trend.rising, 0.5) * size_weight(trend.rise, max);
  leak.troughs = std::move(bins);
  return leak;
}

// Steady growth over the whole run, or from a late start: the earliest
// onset from which the run grows steadily to new heights (in a staircase
// only from where the floor leaves a flat start).
std::optional<Leak> steady_growth(const Run& run) {
  if (run.points.size() < kMinBinsWithData) return std::nullopt;
  std::vector<std::uint64_t> floor = floor_of(run);
  if (std::optional<Leak> leak = steady_growth_of(run, floor, true)) return leak;
  std::vector<std::size_t> found = onsets(run, floor);
  for (std::size_t k = 0; k < found.size(); ++k) {
    std::optional<Run> late = run_from(run, floor, found[k]);
    if (!late) continue;
    Floor late_floor = Floor(floor).subspan(found[k]);
    if (std::optional<Leak> leak = steady_growth_of(*late, late_floor, k == 0)) return leak;
  }
  return std::nullopt;
}

}  // namespace

// ---- the verdict -----------------------------------------------------------------

std::optional<Leak> judge_series(std::span<const ContextPoint> series, const Cycles& cycles,
                                 std::uint64_t end_time) {
  if (series.empty()) return std::nullopt;
  Run run = judged_run(series, end_time, cycles.source != CycleSource::none ? cycles.period : 0);
  std::vector<Trough> troughs;
  if (cycles.source != CycleSource::none) troughs = cycle_troughs(run, cycles);
  std::optional<Leak> leak =
      troughs.size() >= kMinTroughs ? rising_trough(run, std::move(troughs)) : steady_growth(run);
  if (!leak) return std::nullopt;
  double level = static_cast<double>(leak->troughs.back().bytes);
  leak->freed_before_exit =
      run.released && static_cast<double>(series.back().bytes) <= kReleaseLevel * level;
  leak->end_bytes = series.back().bytes;
  return leak;
}

// ---- the whole analysis ------------------------------------------------------------

namespace {

// The growth over the whole run, to rank suspects of equal confidence.
double total_growth(const Leak& leak) {
  return static_cast<double>(leak.troughs.back().bytes) -
         static_cast<double>(leak.troughs.front().bytes);
}

bool more_suspicious(const Leak& a, const Leak& b) {
  if (a.confidence != b.confidence) return a.confidence > b.confidence;
  if (total_growth(a) != total_growth(b)) return total_growth(a) > total_growth(b);
  return a.context < b.context;
}

// The sites allocated by the same function as `context` (its innermost
// frame's), other than its own.
std::vector<SiteId> sibling_sites(const Model& model, const Context& context) {
  std::vector<SiteId> siblings;
  if (context.frames.empty()) return siblings;
  const Frame& allocator = model.frame(context.frames.front());
  if (allocator.function.empty()) return siblings;
  for (std::size_t i = 0; i < model.sites.size(); ++i) {
    SiteId id = static_cast<SiteId>(i);
    const Site& site = model.site(id);
    if (site.frames.empty() || std::binary_search(context.sites.begin(), context.sites.end(), id)) {
      continue;
    }
    const Frame& frame = model.frame(site.frames.front());
    if (frame.function == allocator.function && frame.object == allocator.object) {
      siblings.push_back(id);
    }
  }
  return siblings;
}

// The point of `series` at model snapshot `snapshot`, or the last before it.
const ContextPoint* point_at(std::span<const ContextPoint> series, std::size_t snapshot) {
  auto after = std::partition_point(series.begin(), series.end(),
                                    [&](const ContextPoint& p) { return p.snapshot <= snapshot; });
  return after == series.begin() ? nullptr : &*(after - 1);
}

// The bytes of `series` at `time`: its last point at or before it.
std::uint64_t bytes_at(std::span<const ContextPoint> series, std::uint64_t time) {
  auto after = std::partition_point(series.begin(), series.end(),
                                    [&](const ContextPoint& p) { return p.time <= time; });
  return after == series.begin() ? 0 : (after - 1)->bytes;
}

// Whether the growth of a suspect is memory moving between the callers of
// one function: the other callers' sites lose, over the growth, at least
// kTransferShare of what it gains (a cache that evicts entries allocated on
// one path and allocates new ones on another), so their function's node in
// the call tree does not grow.
bool is_transfer(const Model& model, const SeriesBuilder& builder, const Context& context,
                 const Leak& leak) {
  std::vector<SiteId> siblings = sibling_sites(model, context);
  if (siblings.empty() || leak.troughs.size() < 2) return false;
  std::vector<ContextPoint> series = builder.of(siblings);
  const Trough &first = leak.troughs.front(), &last = leak.troughs.back();
  double gain = static_cast<double>(last.bytes) - static_cast<double>(first.bytes);
  double loss = static_cast<double>(bytes_at(series, first.time)) -
                static_cast<double>(bytes_at(series, last.time));
  return gain > 0 && loss >= kTransferShare * gain;
}

// The verdict on a context: a suspect, unless its growth is a transfer.
std::optional<Leak> judge_context(const Model& model, const Cycles& cycles,
                                  const SeriesBuilder& builder, const Context& context) {
  std::optional<Leak> leak = judge_series(context.series, cycles, model.end_time);
  if (leak && is_transfer(model, builder, context, *leak)) leak.reset();
  return leak;
}

// ---- suspects on the calling-context tree ---------------------------------------

// Judges the nodes of a measured tree, and picks the node that names each
// leak best.  A node with a single caller and no sites of its own has its
// caller's series: it is not judged apart (verdict() follows the chain).  A
// node with several callers is judged when it holds at least kMinNodeShare of
// the heap's spacetime or of its peak (a leak too small for that is still
// judged in its whole stacks, which always are).
class TreeSuspects {
 public:
  TreeSuspects(const Model& model, const Cycles& cycles, const ContextTree& tree,
               const SeriesBuilder& builder)
      : tree_(tree), builder_(builder), verdicts_(tree.size()) {
    const ContextNode& root = tree.node(tree.root());
    Context context;
    for (std::size_t i = 1; i < tree.size(); ++i) {
      NodeId id{static_cast<std::uint32_t>(i)};
      const ContextNode& n = tree.node(id);
      bool large =
          n.spacetime >= kMinNodeShare * root.spacetime ||
          static_cast<double>(n.peak_bytes) >= kMinNodeShare * static_cast<double>(root.peak_bytes);
      if (chained(id) || (!tree.children(id).empty() && !large)) continue;
      context.frames = tree.frames(id);
      context.sites.assign(tree.sites(id).begin(), tree.sites(id).end());
      std::sort(context.sites.begin(), context.sites.end());
      builder.build(context.sites, context.series);
      verdicts_[i] = judge_context(model, cycles, builder, context);
    }
  }

  // The nodes that name the leaks, disjoint; each one's verdict in `out`,
  // keyed by its least site.
  std::vector<NodeId> pick(std::map<SiteId, Leak>& out) const;

 private:
  bool chained(NodeId id) const {
    return tree_.own_sites(id).empty() && tree_.children(id).size() == 1;
  }
  const std::optional<Leak>& verdict(NodeId id) const {
    while (chained(id)) id = tree_.children(id).front();
    return verdicts_[index(id)];
  }
  NodeId best_under(NodeId id) const;
  std::vector<LeakPart> parts(NodeId id, const Leak& leak) const;

  const ContextTree& tree_;
  const SeriesBuilder& builder_;
  std::vector<std::optional<Leak>> verdicts_;  // NodeId -> its verdict (unset when not judged)
};

// The deepest node under a suspect `id` that carries nearly all of its
// growth: from it, down to the caller whose own verdict is a suspect that
// gained at least kNearlyAll of what its parent gained, while there is one.
NodeId TreeSuspects::best_under(NodeId id) const {
  for (;;) {
    double growth = total_growth(*verdict(id));
    std::optional<NodeId> next;
    for (NodeId child : tree_.children(id)) {
      const std::optional<Leak>& leak = verdict(child);
      if (leak && total_growth(*leak) >= kNearlyAll * growth) next = child;
    }
    if (!next) return id;
    id = *next;
  }
}

// How a suspect node's growth splits among its callers and its own sites:
// each one's `min` at the suspect's last trough less at its first (the
// troughs are at the same snapshots for all, so the parts add up).
std::vector<LeakPart> TreeSuspects::parts(NodeId id, const Leak& leak) const {
  std::vector<LeakPart> out;
  if (tree_.children(id).empty()) return out;
  auto gained = [&](std::span<const SiteId> sites) {
    std::vector<SiteId> sorted(sites.begin(), sites.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<ContextPoint> series = builder_.of(sorted);
    const ContextPoint* first = point_at(series, leak.troughs.front().snapshot);
    const ContextPoint* last = point_at(series, leak.troughs.back().snapshot);
    return static_cast<double>(last ? last->min : 0) - static_cast<double>(first ? first->min : 0);
  };
  for (NodeId child : tree_.children(id)) {
    std::span<const FrameId> frames = tree_.own_frames(child);
    out.push_back({{frames.begin(), frames.end()}, gained(tree_.sites(child))});
  }
  if (!tree_.own_sites(id).empty()) out.push_back({{}, gained(tree_.own_sites(id))});
  std::erase_if(out, [](const LeakPart& part) { return part.growth_bytes <= 0; });
  std::stable_sort(out.begin(), out.end(), [](const LeakPart& a, const LeakPart& b) {
    return a.growth_bytes > b.growth_bytes;
  });
  return out;
}

// In preorder (callers after the node they call), each suspect not yet
// accounted for names its leak at best_under(); the nodes from it down to
// that one, and all under that one, are then accounted for.
std::vector<NodeId> TreeSuspects::pick(std::map<SiteId, Leak>& out) const {
  std::vector<NodeId> picked;
  std::vector<bool> done(tree_.size(), false);
  for (std::size_t i = 1; i < tree_.size(); ++i) {
    NodeId id{static_cast<std::uint32_t>(i)};
    if (done[i] || chained(id) || !verdicts_[i]) continue;
    NodeId best = best_under(id);
    if (done[index(best)]) continue;
    for (NodeId at = best; at != id; at = tree_.node(at).parent) done[index(at)] = true;
    std::fill(done.begin() + static_cast<std::ptrdiff_t>(index(best)),
              done.begin() + static_cast<std::ptrdiff_t>(index(tree_.subtree_end(best))), true);
    done[i] = true;
    Leak leak = *verdict(best);
    leak.parts = parts(best, leak);
    std::span<const SiteId> sites = tree_.sites(best);
    out[*std::min_element(sites.begin(), sites.end())] = std::move(leak);
    picked.push_back(best);
  }
  return picked;
}

}  // namespace

HeapAnalysis analyze_heap(const Model& model, const ContextOptions& options) {
  HeapAnalysis analysis;
  const Cycles& cycles = analysis.leaks.cycles = find_cycles(model);
  std::map<SiteId, Leak> verdicts;  // a suspect context's least site -> its verdict
  Keep keep;
  keep.context = [&](const Context& context, const SeriesBuilder& builder) {
    std::optional<Leak> leak = judge_context(model, cycles, builder, context);
    if (leak) verdicts[context.sites.front()] = std::move(*leak);
    return leak.has_value();
  };
  keep.nodes = [&](const ContextTree& tree, const SeriesBuilder& builder, const SeriesMeasure&) {
    return TreeSuspects(model, cycles, tree, builder).pick(verdicts);
  };
  analysis.contexts = group_contexts(model, options, keep);
  const std::vector<Context>& contexts = analysis.contexts.contexts;
  OwnCode own(model, options.libraries);
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    if (contexts[i].other()) continue;
    auto verdict = verdicts.find(contexts[i].sites.front());
    if (verdict == verdicts.end()) continue;
    Leak leak = std::move(verdict->second);
    leak.context = i;
    leak.peak_bytes = contexts[i].peak_bytes;
    leak.end_bytes = contexts[i].end_bytes;
    std::vector<Frame> frames;
    for (FrameId id : contexts[i].frames) frames.push_back(model.frame(id));
    leak.headline = own.headline(frames);
    analysis.leaks.suspects.push_back(std::move(leak));
  }
  std::sort(analysis.leaks.suspects.begin(), analysis.leaks.suspects.end(), more_suspicious);
  return analysis;
}

}  // namespace strata
