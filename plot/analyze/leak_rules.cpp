// SPDX-License-Identifier: GPL-2.0-or-later
// The rules that judge one context's series (judge_series, leaks.hpp): the
// run judged (less a release at exit), a rising trough across the cycles,
// steady growth of the floor, and a staircase.  docs/design.md, "Leak
// detection", explains the method; the thresholds are the constants below,
// named as there.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "analyze/leaks.hpp"
#include "analyze/stats.hpp"

namespace strata {

namespace {

constexpr std::size_t kMinTroughs = 3;
constexpr double kTie = 0.005;   // differences under this share of the context's max are ties
constexpr double kMinTau = 0.5;  // Kendall's tau of the troughs
constexpr double kMinTroughRise = 0.02;  // the troughs' rise, as a share of the context's max
constexpr double kMinLateSlope = 0.25;   // the last half's slope, as a share of the whole's
constexpr double kMaxStepSpread = 1.0;   // the troughs' steps' coefficient of variation
constexpr double kMaxGiveBack = 0.25;    // the most the troughs fall back, as a share of their rise
constexpr double kReleaseLevel = 0.1;    // "freed": at most this share of the last trough left
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
  CurveEvidence curve;
  for (std::size_t k = 1; k < troughs.size(); ++k) {
    curve.rises += troughs[k].bytes > troughs[k - 1].bytes;
  }
  // Leaked memory is kept in most cycles: the troughs rise from more than
  // half of the cycles to the next (with three troughs, 0, 0 and then a
  // rise is one jump of a random walk, not a leak).
  if (2 * curve.rises <= troughs.size() - 1) return std::nullopt;
  Leak leak;
  leak.kind = LeakKind::rising_trough;
  leak.growth_bytes = trend.slope;
  leak.cycles = troughs.size();
  leak.confidence = trend.tau * (0.5 + 0.5 * many) * size_weight(trend.rise, max);
  curve.troughs = std::move(troughs);
  leak.evidence = std::move(curve);
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
  if (!climbs(trend, max) && !(stairs_too && (stairs = climbs_in_stairs(run, floor, kTie * max)))) {
    return std::nullopt;
  }
  const ContextPoint& first = run.points.front();
  bins.insert(bins.begin(), Trough{0, first.snapshot, first.time, floor.front()});
  CurveEvidence curve;
  curve.rises =
      static_cast<std::size_t>(std::lround(trend.rising * static_cast<double>(bins.size() - 1)));
  if (stairs) curve.steps = stairs->steps, curve.step_factor = stairs->factor;
  Leak leak;
  leak.kind = LeakKind::steady_growth;
  leak.growth_bytes = slope_of(bins, false);
  leak.confidence = kSteadyConfidence * std::max(trend.rising, 0.5) * size_weight(trend.rise, max);
  curve.troughs = std::move(bins);
  leak.evidence = std::move(curve);
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
  double level = static_cast<double>(leak->curves()->troughs.back().bytes);
  leak->freed_before_exit =
      run.released && static_cast<double>(series.back().bytes) <= kReleaseLevel * level;
  leak->end_bytes = series.back().bytes;
  return leak;
}

double total_growth(const Leak& leak) {
  const CurveEvidence* curve = leak.curves();
  if (!curve) return 0;
  return static_cast<double>(curve->troughs.back().bytes) -
         static_cast<double>(curve->troughs.front().bytes);
}

}  // namespace strata
