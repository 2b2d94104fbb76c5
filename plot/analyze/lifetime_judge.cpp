// SPDX-License-Identifier: GPL-2.0-or-later
// The judgement of a structure: the floor and the survivors (lifetime_judge.hpp).
#include "analyze/lifetime_judge.hpp"

#include "analyze/lifetime_nodes.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

namespace strata::detail {

// ---- the judgement -------------------------------------------------------------------

// The bounds of kParts parts of [s, h) of equal work (the program's births,
// `work` by epoch, so that a stretch in which the program makes nothing is no
// evidence); a part that one epoch's work overflows holds no epoch.
std::vector<std::uint32_t> work_bounds(std::uint32_t s, std::uint32_t h,
                                       const std::vector<double>& work) {
  double total = 0;
  for (std::uint32_t e = s; e < h; ++e) total += work[e];
  std::vector<std::uint32_t> bounds(1, s);
  double done = 0;
  for (std::uint32_t e = s; e < h; ++e) {
    while (bounds.size() < kParts && done >= total * static_cast<double>(bounds.size()) / kParts &&
           e > bounds.back()) {
      bounds.push_back(e);
    }
    done += work[e];
  }
  while (bounds.size() <= kParts) bounds.push_back(h);
  return bounds;
}

// The share kept of what each part (of `bounds`) made (`born`, `kept`:
// bytes by birth epoch), for the words ("kept 100%, 80%, ... of what it
// made in each quarter"); a part that made nothing is left out.
std::vector<double> retention(const std::vector<std::uint64_t>& born,
                              const std::vector<std::uint64_t>& kept,
                              const std::vector<std::uint32_t>& bounds) {
  std::vector<double> ratios;
  for (std::size_t q = 0; q + 1 < bounds.size(); ++q) {
    if (bounds[q] == bounds[q + 1]) continue;
    std::uint64_t b = 0, k = 0;
    for (std::uint32_t e = bounds[q]; e < bounds[q + 1]; ++e) {
      b += born[e];
      k += kept[e];
    }
    if (b > 0) ratios.push_back(static_cast<double>(k) / static_cast<double>(b));
  }
  return ratios;
}

// The epochs of [s, h) in which the program works (as for the horizon).  An
// epoch in which it makes nothing is no evidence, in a span as in a part.
std::uint32_t working_epochs(std::uint32_t s, std::uint32_t h, const std::vector<double>& work) {
  double least = working_least(work);
  std::uint32_t n = 0;
  for (std::uint32_t e = s; e < h && e < work.size(); ++e) n += working(work[e], least);
  return n;
}

// Without markers: the program's bursts of work as its cycles, the starts of
// the runs of epochs in which it works (as for the horizon) after an epoch
// in which it does not, before h.  A program that plays a video, pauses,
// plays the next makes a burst of each.  Read off the table, they are the
// same in every time unit (the epochs of a profile in ms are instructions);
// the heap's rhythm, read off the snapshots, is not.  Fewer than kParts
// cycles (the run's first and the bursts after a pause) are no rhythm: a
// pause before a final pass would make halves of one cycle each, the run's
// requests against its last pass.  None then.
std::vector<std::uint32_t> work_bursts(const std::vector<double>& work, std::uint32_t h) {
  double least = working_least(work);
  std::vector<std::uint32_t> starts;
  for (std::uint32_t e = 1; e < h && e < work.size(); ++e) {
    if (working(work[e], least) && !working(work[e - 1], least)) starts.push_back(e);
  }
  if (starts.size() + 1 < kParts) starts.clear();
  return starts;
}

// ---- the judgement: the floor and the survivors ----------------------------------------

// P(X <= k) for X of Binomial(n, p): how likely a steady rate leaves as few
// as k of n survivors in a stretch that holds a share p of the work.
double binomial_at_most(std::uint64_t k, std::uint64_t n, double p) {
  if (k >= n || p >= 1) return 1;
  if (p <= 0) return 1;
  double lp = std::log(p), lq = std::log1p(-p), sum = 0;
  double ln = std::lgamma(static_cast<double>(n) + 1);
  for (std::uint64_t i = 0; i <= k; ++i) {
    double di = static_cast<double>(i);
    sum += std::exp(ln - std::lgamma(di + 1) - std::lgamma(static_cast<double>(n) - di + 1) +
                    di * lp + (static_cast<double>(n) - di) * lq);
  }
  return std::min(sum, 1.0);
}

// The survivors of a span [s, h) and its work, as the halves count them
// (below): each epoch's at most `cap` (burst_cap).  Counted once for every
// part of the span that chance_of_none is asked about.
// The events' measure of a span: each epoch's survivors at most `cap`
// (burst_cap), in units of `unit` (the blocks born together, dispersion).
struct Draws {
  std::uint64_t cap = 1;
  double unit = 1;
};
struct SpanCount {
  Draws cap;
  std::uint64_t survivors = 0;
  double work = 0;
};
SpanCount span_count(const Node& n, const std::vector<std::uint32_t>& bounds,
                     const std::vector<double>& work);

// When the part [from, to) of the span (`span`, of span_count) holds no
// survivor, the chance that a steady rate of the span's survivors leaves it
// none: (1 - f)^K, f its share of the span's work and K the span's
// survivors.
std::optional<double> chance_of_none(const Node& n, std::uint32_t from, std::uint32_t to,
                                     const SpanCount& span, const std::vector<double>& work);

// The floor of `alive` over [0, h]: at each boundary, the least held from
// there to h.
std::vector<double> floor_of(const std::vector<double>& alive, std::uint32_t h) {
  std::vector<double> floor(h + 1, 0.0);
  double least = alive[h];
  for (std::uint32_t e = h + 1; e-- > 0;) floor[e] = least = std::min(least, alive[e]);
  return floor;
}

// The first line of evidence, the graph's: the floor of the node's band
// (at each boundary, the least it holds from there to h) rises with its
// survivors, above the most it held before them.  Over the span, the
// floor's rise matches kRise of the bytes it leaves behind (`left`, of
// left_behind: its kept bytes less its working set at h) of those born in
// it; and so it does in each part (of `bounds`) after the first that keeps
// some (`kept`), but for the last when the program has `cycles`.
// A part whose kept bytes are all its working set leaves nothing behind
// and matches none.  A structure whose
// entries are replaced (a cache, a table over a fixed key space, a random
// walk, a pool, sessions that come and go) keeps its newest entries while
// its floor stays level, or at the level it held before.  The first part is
// judged with the span only: the floor at the span's start holds the bytes
// the structure has in flight (a player's queue of frames), which what the
// first part keeps raises it past only once it is exceeded.  The last part
// of a program with cycles is judged up to the cycle under way at the
// horizon: the bytes in flight in that cycle count as kept though no floor
// has risen with them yet (the last video's frames), while what the cycles
// before it keep must have raised the floor as they ended (a cache at its
// capacity whose newest entries were made there did not: its band is
// level).  Without cycles the last part is judged on its own: a cache that
// fills for most of the run and then only replaces its entries levels off
// there.  A part after the first that leaves nothing behind where a steady
// rate of the node's survivors would leave none kChance of the time or more
// (9 rare errors in a run leave a quarter none 1 time in 10) is no evidence
// either way: the floor is judged on the others.  With `before_last`, it is
// judged up to the start of the last part, its floor to there: for what a
// structure never frees, whose blocks raise the floor by themselves, the
// floor asks only that the rest of the band not fall as they are kept, and
// a thread that ends before the others releases its part of the band
// before h (the least held up to h is then that release's, from every
// boundary before it).  The most it held before them is read off `held`:
// for the span from its first survivor, from the lifetimes, what lasts across each boundary
// (lasting_across: a library's work in flight at one boundary, a compile's
// temporaries, is no level the band held, and a maximum, unlike the floor,
// takes every such spike); for a later start that the search picks among
// many, all it held (`alive`): each start is one more chance for a random
// walk's excursion to pass, and its excursions before that start count.
// The least share matched, at most 1.
double floor_matched(const Node& n, const std::vector<double>& work,
                     const std::vector<double>& alive, const std::vector<double>& held,
                     const std::vector<std::uint64_t>& kept,
                     const std::vector<std::uint64_t>& left,
                     std::uint32_t h, const std::vector<std::uint32_t>& bounds,
                     std::span<const std::uint32_t> cycles, bool before_last) {
  bool cycling = !cycles.empty();
  if (before_last && !cycling && bounds.size() > 2) {
    std::uint32_t last = bounds[bounds.size() - 2];
    std::vector<double> up_to(alive.begin(), alive.begin() + last + 1);
    return floor_matched(n, work, up_to, held, kept, left, last, {bounds.begin(), bounds.end() - 1},
                         cycles, false);
  }
  std::vector<double> floor = floor_of(alive, h);
  double before = *std::max_element(held.begin(), held.begin() + bounds.front() + 1);
  for (double& f : floor) f = std::max(f, before);
  SpanCount span = span_count(n, bounds, work);
  auto matched = [&](std::uint32_t from, std::uint32_t to) {
    double part = 0, all = 0;
    for (std::uint32_t e = from; e < to; ++e) {
      part += static_cast<double>(left[e]);
      all += static_cast<double>(kept[e]);
    }
    if (all <= 0) return 1.0;
    if (part <= 0) {
      bool whole = from == bounds.front() && to == h;
      std::optional<double> none = chance_of_none(n, from, to, span, work);
      return !whole && none && *none >= kChance ? 1.0 : 0.0;
    }
    return std::clamp(floor[to] - floor[from], 0.0, part) / part;
  };
  double worst = matched(bounds.front(), h);
  for (std::size_t q = 1; q + (cycling ? 2 : 1) < bounds.size(); ++q) {
    worst = std::min(worst, matched(bounds[q], bounds[q + 1]));
  }
  // A program with cycles: its last part up to the cycle in flight at h,
  // when it leaves something behind there (else all it keeps there is the
  // working set at h, in flight too).
  if (cycling && bounds.size() > 2) {
    auto in_flight = std::lower_bound(cycles.begin(), cycles.end(), h);
    std::uint32_t from = bounds[bounds.size() - 2];
    std::uint32_t to = in_flight == cycles.begin() ? from : *std::prev(in_flight);
    std::uint64_t left_there = 0;
    for (std::uint32_t e = from; e < to; ++e) left_there += left[e];
    if (left_there > 0) worst = std::min(worst, matched(from, to));
  }
  return worst;
}

// What the structure leaves behind of its kept bytes, by birth epoch: its
// kept bytes less its working set at h.  A structure whose entries die
// (sessions that close, flows, a cache's evicted entries, requests) holds at
// any moment entries that will die as the others did; at h they are kept
// bytes that no floor rises with, and that no birth all through the span
// explains.  Its working set is what it held, across an epoch boundary, of
// entries that died before h (`alive`, of alive_across, less its kept bytes
// born before the boundary): the median over the epochs of `last` (the
// span's last part) to h, less biased by one large entry than the most, and
// by the entries of h's working set that die after h (which the table
// cannot show) than a moment nearer h.  The working set at h is its newest
// kept bytes, so it is set aside from them, newest first: first from those
// the release at exit frees, since the code that frees its entries at exit
// frees those in flight, and an entry it never frees is left behind however
// new (1 session in 50 orphaned beside a table whose sessions are closed at
// exit); then, when they are fewer, from the others (a program that exits
// without closing its sessions).  A structure
// that frees nothing (a leak alone), or only what it made in the same
// epoch (temporaries), has no working set: it leaves behind all it keeps.
std::vector<std::uint64_t> left_behind(const Node& n, const std::vector<double>& alive,
                                       std::uint32_t last, std::uint32_t h) {
  double kept_before = 0;
  std::vector<double> held;
  for (std::uint32_t e = 0; e < h; ++e) {
    if (e >= last) held.push_back(alive[e] - kept_before);
    kept_before += static_cast<double>(n.kept[e]);
  }
  std::vector<std::uint64_t> left(n.kept.begin(), n.kept.begin() + h);
  if (held.empty()) return left;
  std::nth_element(held.begin(), held.begin() + held.size() / 2, held.end());
  auto set_aside = static_cast<std::uint64_t>(held[held.size() / 2]);
  // A structure that frees none of what it keeps at exit: at most what its
  // newest epochs keep beyond its steady rate (the median epoch's kept
  // bytes over its span).  Its working set at h, never freed, was born in
  // them, on top of what it leaves behind; entries in flight in the last
  // part that died before h are no working set at h.
  auto first =
      std::find_if(n.kept.begin(), n.kept.begin() + h, [](std::uint64_t k) { return k > 0; });
  if (n.exit_freed == 0 && first != n.kept.begin() + h) {
    // its kept bytes by epoch, from its first survivor
    std::vector<std::uint64_t> rates(first, n.kept.begin() + h);
    std::nth_element(rates.begin(), rates.begin() + rates.size() / 2, rates.end());
    std::uint64_t rate = rates[rates.size() / 2], beyond = 0;
    for (std::uint32_t e = last; e < h; ++e) beyond += n.kept[e] > rate ? n.kept[e] - rate : 0;
    set_aside = std::min(set_aside, beyond);
  }
  // First from what the release at exit frees, which holds the working
  // set at h, then from the rest (a copy moves kept bytes between epochs,
  // and a curve knows no frees: all at once).
  auto take_newest = [&](const std::vector<std::uint64_t>& from) {
    for (std::uint32_t e = h; e-- > 0 && set_aside > 0;) {
      std::uint64_t take = std::min({left[e], from[e], set_aside});
      left[e] -= take;
      set_aside -= take;
    }
  };
  if (!n.from_curves && !n.copies) take_newest(n.exit_kept);
  take_newest(left);
  return left;
}

// The events of epoch e for the judgement of chance: its survivors, at most
// kBurst times the median of the span's epochs that keep some.  Blocks born
// together (a burst of records in one cycle, a batch kept at once) are not
// independent draws; as many draws as that would make a burst look like a
// trend.  And the halves' test (short_half) counts them in units of their
// dispersion (dispersed): a leak whose every event keeps several blocks (a
// decoder's state and its frames, a parsed tree of 1 to 30 nodes) keeps
// them in groups, whose counts vary from epoch to epoch by as many times
// more than single blocks' would; counted in blocks, chance alone would
// read a leak of 14 events, 4 of them in the later half, as levelling off.
// (Not the least number of survivors, kMinBlocks, nor the empty parts: a
// player's frames, left in a burst by each of its 4 cycles, are 4 events
// so counted, too few to judge, where the cycles are the evidence.)
std::uint64_t events(const Node& n, std::uint32_t e, const Draws& d) {
  return std::min(survivors(n, e), d.cap);
}

Draws burst_cap(const Node& n, std::uint32_t s, std::uint32_t h) {
  std::vector<std::uint64_t> counts;
  for (std::uint32_t e = s; e < h; ++e) {
    if (std::uint64_t k = survivors(n, e)) counts.push_back(k);
  }
  if (counts.empty()) return {};
  std::nth_element(counts.begin(), counts.begin() + counts.size() / 2, counts.end());
  return {.cap = kBurst * counts[counts.size() / 2]};
}

// `d` with its unit, the dispersion of the capped counts of [s, h), epoch
// by epoch: half the mean square of the differences of neighbouring epochs
// (twice the variance, and a trend adds little to it) over the mean count;
// and no less than the fewest survivors an epoch that keeps some keeps,
// since it keeps one event at least (the cap, twice the median epoch's,
// clips a steady rate's own spread when that median is one event).
Draws dispersed(const Node& n, std::uint32_t s, std::uint32_t h, Draws d) {
  double diff = 0, sum = 0;
  std::uint64_t least = 0;  // the fewest survivors an epoch that keeps some keeps
  for (std::uint32_t e = s; e < h; ++e) {
    std::uint64_t k = events(n, e, d);
    if (k > 0 && (least == 0 || k < least)) least = k;
    if (e + 1 == h) break;
    auto a = static_cast<double>(k), b = static_cast<double>(events(n, e + 1, d));
    diff += (b - a) * (b - a);
    sum += a + b;
  }
  if (sum > 0) d.unit = std::max({1.0, diff / sum, static_cast<double>(least)});
  return d;
}

// The second line of evidence, the lifetimes': the survivors (blocks kept)
// were born all through the span, not only at its start (it levels off: a
// table filled, a pool at its high-water mark) nor only at its end (a
// cache's or a random walk's newest entries).  Each half of the span (of
// its work, or of its cycles) holds a share f of the work; a steady rate
// would leave it about f of the K survivors, and chance as few as
// Binomial(K, f) allows: a half short of its share by more than kLevel,
// and less likely than kChance by chance, or with none, says it.  Survivors are counted in blocks, so that a leak of random
// sizes weighs by its events, and an epoch with kept bytes counts one at
// least: a buffer grown by realloc, or a container that copies itself,
// keeps one block whose bytes carry their births on (its layers).
// The survivors of [from, to) and their share of the work of [s, h).
struct Half {
  std::uint64_t survivors = 0;
  double work = 0;
};

// (In units of cap.unit, the dispersion, one at least when it keeps some.)
Half half_of(const Node& n, std::uint32_t from, std::uint32_t to, const std::vector<double>& work,
             const Draws& cap) {
  Half half;
  for (std::uint32_t e = from; e < to; ++e) {
    half.survivors += events(n, e, cap);
    half.work += work[e];
  }
  if (half.survivors > 0 && cap.unit > 1) {
    half.survivors = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::llround(static_cast<double>(half.survivors) / cap.unit)));
  }
  return half;
}

SpanCount span_count(const Node& n, const std::vector<std::uint32_t>& bounds,
                     const std::vector<double>& work) {
  std::uint32_t s = bounds.front(), h = bounds.back();
  Draws cap = burst_cap(n, s, h);
  Half all = half_of(n, s, h, work, cap);
  return {.cap = cap, .survivors = all.survivors, .work = all.work};
}

std::optional<double> chance_of_none(const Node& n, std::uint32_t from, std::uint32_t to,
                                     const SpanCount& span, const std::vector<double>& work) {
  Half part = half_of(n, from, to, work, span.cap);
  if (span.work <= 0 || part.survivors > 0) return std::nullopt;
  return std::pow(1 - part.work / span.work, static_cast<double>(span.survivors));
}

// Whether `half` holds fewer survivors than a steady rate would leave it
// (kLevel of its share of `all`), so few that chance would leave them less
// than kChance of the time; or none.
bool short_of_share(const Half& half, const Half& all) {
  if (all.work <= 0 || all.survivors == 0) return false;
  double f = half.work / all.work;
  if (half.survivors == 0) return f > 0;
  return static_cast<double>(half.survivors) < kLevel * f * static_cast<double>(all.survivors) &&
         binomial_at_most(half.survivors, all.survivors, f) < kChance;
}

// The middle of [s, h): the start of the cycle nearest the middle of its
// work when the cycles are known and one starts inside, else the epoch that
// ends the first half of the work.
std::uint32_t middle(std::uint32_t s, std::uint32_t h, const std::vector<double>& work,
                     std::span<const std::uint32_t> cycles) {
  double total = 0;
  for (std::uint32_t e = s; e < h; ++e) total += work[e];
  std::uint32_t mid = s + 1;
  double done = 0;
  for (std::uint32_t e = s; e < h; ++e) {
    done += work[e];
    if (done >= total / 2) {
      mid = e + 1;
      break;
    }
  }
  std::optional<std::uint32_t> best;
  for (std::uint32_t c : cycles) {
    if (c <= s || c >= h) continue;
    auto far = [&](std::uint32_t x) { return x > mid ? x - mid : mid - x; };
    if (!best || far(c) < far(*best)) best = c;
  }
  return std::clamp<std::uint32_t>(best.value_or(mid), s + 1, h - 1);
}

// The survivors of [s, h) in halves (of its work, or of its cycles): which
// half, if either, is short of its share (short_of_share); `mid` is set to
// where the later half starts.
enum class Short : std::uint8_t { neither, later, earlier };

Short short_half(const Node& n, std::uint32_t s, std::uint32_t h, const std::vector<double>& work,
                 std::span<const std::uint32_t> cycles, std::uint32_t& mid) {
  mid = middle(s, h, work, cycles);
  Draws cap = dispersed(n, s, h, burst_cap(n, s, h));
  Half early = half_of(n, s, mid, work, cap), late = half_of(n, mid, h, work, cap);
  // With the cycles known, a half's share is its cycles': a leak left at
  // each cycle's end leaves as much after a short cycle as after a long one.
  std::uint32_t before = 1, after = 0;  // the span's start begins a cycle
  for (std::uint32_t c : cycles) {
    if (c > s && c < h) ++(c < mid ? before : after);
  }
  if (after > 0) {
    early.work = before;
    late.work = after;
  }
  Half all{early.survivors + late.survivors, early.work + late.work};
  if (short_of_share(late, all)) return Short::later;
  if (short_of_share(early, all)) return Short::earlier;
  // Without cycles, the span less its last part too: a working set at h
  // that the median left over, or a random walk's high at the end, crowds
  // the last part while each half keeps enough to pass.
  if (after == 0) {
    std::vector<std::uint32_t> bounds = work_bounds(s, h, work);
    // (`all` is [s, h) by its work: no cycle starts inside)
    if (short_of_share(half_of(n, s, bounds[kParts - 1], work, cap), all)) return Short::earlier;
  }
  return Short::neither;
}

// (lifetime_judge.hpp)
bool empty_part(const Node& n, const std::vector<std::uint32_t>& bounds,
                const std::vector<double>& work, std::uint32_t& at, std::uint32_t& to) {
  SpanCount span = span_count(n, bounds, work);
  for (std::size_t q = 0; q + 1 < bounds.size(); ++q) {
    // the parts from q on that hold none, one more each time
    for (std::size_t r = q + 1; r < bounds.size(); ++r) {
      std::optional<double> none = chance_of_none(n, bounds[q], bounds[r], span, work);
      if (!none) break;
      if (*none < kChance) {
        at = bounds[q];
        to = bounds[r];
        return true;
      }
    }
  }
  return false;
}

// How likely a band that only comes and goes leaves at least `rises` of
// `n` stretches with a rise of its floor.  Its floor rises at its records
// from the end: the stretch j before h holds one 1 time in j by chance, so
// their number is the sum of n draws of Bernoulli(1/j), exactly (n up to 64)
// or as Poisson(1 + 1/2 + ... + 1/n) (6 in 200 stretches).  A band of
// `maxima` blocks each grown to its own largest use (grown_maxima) rises at
// the records of any: the stretch j holds one 1 - (1 - 1/j)^maxima of the
// time.
double records_at_least(std::uint64_t rises, std::uint64_t n, std::uint64_t maxima) {
  if (rises == 0) return 1;
  // The stretch j holds a record of one of `maxima` 1 - (1 - 1/j)^maxima of the time.
  auto chance = [&](std::uint64_t j) {
    return 1 - std::pow(1 - 1.0 / static_cast<double>(j), static_cast<double>(maxima));
  };
  if (n <= 64) {
    std::vector<double> p(n + 1, 0.0);  // p[k]: k records among the stretches so far
    p[0] = 1;
    for (std::uint64_t j = 1; j <= n; ++j) {
      double q = chance(j);
      for (std::uint64_t k = j; k > 0; --k) p[k] = p[k] * (1 - q) + p[k - 1] * q;
      p[0] *= 1 - q;
    }
    double tail = 0;
    for (std::uint64_t k = rises; k <= n; ++k) tail += p[k];
    return tail;
  }
  double mean = 0;
  for (std::uint64_t j = 1; j <= n; ++j) mean += chance(j);
  double term = std::exp(-mean), below = 0;  // P(X < rises) for X of Poisson(mean)
  for (std::uint64_t i = 0; i < rises; ++i) {
    below += term;
    term *= mean / static_cast<double>(i + 1);
  }
  return std::max(0.0, 1 - below);
}

// Read off its curve, whether the node's floor rose in more stretches of
// [s, h) than that of a band that only comes and goes would, but kChance of
// the time (records_at_least): in its epochs, or in its cycles when they are
// known (a floor that rises once a cycle, 5 cycles of 5), of `maxima`
// running maxima (records_at_least).  The chance tests
// cannot veto a structure of few survivors, and the floor of noise gives
// every one of them a few near its end.
bool beyond_records(const std::vector<std::uint64_t>& kept, std::uint32_t s, std::uint32_t h,
                    std::span<const std::uint32_t> cycles, std::uint64_t maxima) {
  std::uint64_t rises = 0, stretches = 0, epochs = 0;  // epochs: those that rose
  bool rose = false;
  for (std::uint32_t e = s; e < h; ++e) {
    bool starts = e == s || cycles.empty() || std::binary_search(cycles.begin(), cycles.end(), e);
    if (starts) {
      rises += rose;
      rose = false;
      ++stretches;
    }
    rose = rose || kept[e] > 0;
    epochs += kept[e] > 0 ? 1 : 0;
  }
  rises += rose;
  return std::min(records_at_least(rises, stretches, maxima),
                  records_at_least(epochs, h - s, maxima)) < kChance;
}

// What node n holds across each boundary of [0, h] that lasts: `alive` (of
// alive_across) less its cells alive across one boundary only (born in the
// epoch before it and dying in the one after): what is in flight at a
// boundary (a request's temporaries, a compile's context), whose amount
// swings from boundary to boundary and sets the floor at its lowest by
// chance.  A pool's or a buffer's bytes last.
std::vector<double> lasting_across(const Node& n, std::vector<double> alive, std::uint32_t h) {
  for (const auto& [cell, amount] : n.deaths) {
    if (cell.second == cell.first + 1 && cell.second <= h) {
      alive[cell.second] -= static_cast<double>(amount.bytes);
    }
  }
  return alive;
}

// A node of the lifetimes: whether its floor (of `lasting`, what it holds
// across each boundary that lasts, of lasting_across) rose over [s, h) in
// no more stretches than a band that only comes and goes would, but
// kChance of the time, and rose in the
// later half of the work (from `mid`) by less than kHighWater of that
// half's share of its rise: a buffer grown to the largest input so far, a
// pool at its high-water mark (the running maximum of 30 to 1,000 random
// requests rises in their later half by 0.45 to 0.21 of its share,
// docs/design.md).  A container that doubles rises as seldom, by more
// each time: it is judged.  The floor is read a boundary before h, since
// the floor at h holds the entries in flight at h (no floor rises with them
// yet).  `why.level_epoch` is set to mid.
bool high_water(const std::vector<double>& lasting, std::uint32_t s, std::uint32_t h,
                const std::vector<double>& work, std::span<const std::uint32_t> cycles,
                std::uint64_t maxima, PassedOver& why) {
  std::vector<double> floor = floor_of(lasting, h);
  std::vector<std::uint64_t> rose(h, 0);
  for (std::uint32_t e = 0; e < h; ++e) rose[e] = floor[e + 1] > floor[e] ? 1 : 0;
  if (beyond_records(rose, s, h, cycles, maxima)) return false;
  std::uint32_t mid = middle(s, h, work, cycles);
  double all = 0, late = 0;
  for (std::uint32_t e = s; e < h; ++e) {
    all += work[e];
    if (e >= mid) late += work[e];
  }
  std::uint32_t top = h - 1 > mid ? h - 1 : h;
  double rise = floor[top] - floor[s], later = floor[top] - floor[mid];
  why.level_epoch = mid;
  return all > 0 && later < kHighWater * (late / all) * rise;
}

// The running maxima a node's floor rises with when it keeps a few blocks
// born together at the start of [s, h) and then only grows them (its later
// kept bytes have no block of their own: realloc): one a block, as each
// thread's input buffer grown to the largest input it read; else one.
// Epoch s keeps some (judgeable's spans start at an epoch that does).
std::uint64_t grown_maxima(const Node& n, std::uint32_t s, std::uint32_t h) {
  assert(s < h && n.kept[s] > 0);
  for (std::uint32_t e = s + 1; e < h; ++e) {
    if (n.kept_blocks[e] > 0) return 1;
  }
  return std::max<std::uint64_t>(1, n.kept_blocks[s]);
}

// The least span judged, in epochs of work: kMinSpan of kToolEpochs, an
// eighth of the run, whatever number of epochs the table holds (the tool
// holds 33 to 64: it halves them when they reach 64 as the run grows), and
// kParts at least (an epoch a part); a curve's, of its own finer clock,
// kMinSpan.
std::uint32_t least_span(const Node& n, std::size_t epochs) {
  return n.from_curves ? kMinSpan : least_table_span(epochs);
}

std::uint32_t least_table_span(std::size_t epochs) {
  if (epochs >= kToolEpochs) return kMinSpan;
  auto scaled = static_cast<std::uint32_t>((kMinSpan * epochs + kToolEpochs - 1) / kToolEpochs);
  return std::max<std::uint32_t>(static_cast<std::uint32_t>(kParts), scaled);
}

// Whether the node keeps enough blocks over [s, h), a span of enough work,
// to be judged (kMinBlocks, kMinSpan), and its floor (read off a curve, or
// of `lasting`, its bytes across each boundary that last, lasting_across,
// from the lifetimes) rises more often than noise's or a high-water mark's
// (beyond_records, high_water); else `why` says which.
bool judgeable(const Node& n, std::uint32_t s, std::uint32_t h, const std::vector<double>& work,
               std::span<const std::uint32_t> cycles, const std::vector<double>& lasting,
               PassedOver& why) {
  // Counted as the chance tests count them (events: an epoch's at most
  // kBurst times the median epoch's), since kMinBlocks is the least number
  // with which those tests can veto at all: 9 blocks of which 7 were born
  // together are 4 draws, as likely by chance in any pattern.
  std::uint64_t units = 0;
  for (std::uint32_t e = s; e < h; ++e) units += survivors(n, e);
  std::uint64_t draws = half_of(n, s, h, work, burst_cap(n, s, h)).survivors;
  if (draws < kMinBlocks) {
    why.reason = PassedOver::Reason::few_blocks;
    why.left_blocks = units;
    why.draws = draws;
    return false;
  }
  if (n.from_curves && !beyond_records(n.kept, s, h, cycles, 1)) {
    why.reason = PassedOver::Reason::few_blocks;
    return false;
  }
  if (!n.from_curves && high_water(lasting, s, h, work, cycles, grown_maxima(n, s, h), why)) {
    why.reason = PassedOver::Reason::high_water;
    return false;
  }
  if (std::uint32_t least = least_span(n, work.size()); working_epochs(s, h, work) < least) {
    why.reason = PassedOver::Reason::short_span;
    why.least_span = least;
    return false;
  }
  return true;
}

// A node is a leak when it keeps blocks (kMinBlocks at least) born over a
// span of kMinSpan epochs of work at least, its floor rises with what it
// keeps (kRise of the kept bytes at least), and its survivors do not level
// off.  A span whose survivors are all in its later half starts late: the
// leak is judged from the first start s' at which the later span passes
// every test (a table filled at start-up that begins to leak at a reload);
// when none does, what it keeps is its newest entries.  Else `n.why` says
// what it is.  Here n's kept bytes and blocks are what it leaves behind
// (judge sets them, left_behind), or with `never_freed` what it never frees
// (its floor then judged up to its last part, floor_matched's before_last);
// `all` is all it keeps, by birth epoch.
bool judge_left(Node& n, const std::vector<double>& alive, const std::vector<std::uint64_t>& all,
                std::uint32_t h, const std::vector<double>& work,
                std::span<const std::uint32_t> cycles, bool never_freed, bool later_starts) {
  auto kept = std::find_if(n.kept.begin(), n.kept.begin() + h, [](std::uint64_t k) { return k > 0; });
  if (kept == n.kept.begin() + h) {
    // All it keeps is its working set: born from its first kept byte on.
    auto first = std::find_if(all.begin(), all.begin() + h, [](std::uint64_t k) { return k > 0; });
    n.why.first_kept = static_cast<std::uint32_t>(first - all.begin());
    n.why.reason = PassedOver::Reason::replaced;
    return false;
  }
  std::uint32_t s = static_cast<std::uint32_t>(kept - n.kept.begin());
  auto set_span = [&](std::uint32_t from) {
    n.first = from;
    n.bounds = work_bounds(from, h, work);
    n.why.first_kept = from;
  };
  set_span(s);
  std::vector<double> lasting = lasting_across(n, alive, h);
  if (!judgeable(n, s, h, work, cycles, lasting, n.why)) return false;
  // The floor read two ways: of all it holds at each boundary, and of what
  // lasts across them (lasting_across: a large temporary in flight at one
  // boundary sets the floor at its lowest by chance, and hides a rise).
  auto rise = [&](const std::vector<std::uint32_t>& bounds, const std::vector<double>& held) {
    double all_held =
        floor_matched(n, work, alive, held, all, n.kept, h, bounds, cycles, never_freed);
    if (n.from_curves) return all_held;
    return std::max(all_held, floor_matched(n, work, lasting, held, all, n.kept, h, bounds, cycles,
                                            never_freed));
  };
  n.why.matched = rise(n.bounds, n.from_curves ? alive : lasting);
  std::uint32_t mid = 0;
  Short verdict = short_half(n, s, h, work, cycles, mid);
  if (verdict == Short::later) {
    n.why.reason = PassedOver::Reason::levels_off;
    n.why.level_epoch = mid;
    return false;
  }
  bool rises = n.why.matched >= kRise;
  std::uint32_t gap_from = 0, gap_to = 0;
  bool gap = verdict == Short::neither && empty_part(n, n.bounds, work, gap_from, gap_to);
  if (rises && verdict == Short::neither && !gap) return true;
  for (std::uint32_t from = s + 1; later_starts && from < h; ++from) {
    PassedOver why;
    if (n.kept[from] == 0 || !judgeable(n, from, h, work, cycles, lasting, why)) continue;
    std::uint32_t at = 0, to = 0;
    std::vector<std::uint32_t> bounds = work_bounds(from, h, work);
    if (rise(bounds, alive) < kRise || short_half(n, from, h, work, cycles, at) != Short::neither ||
        empty_part(n, bounds, work, at, to)) {
      continue;
    }
    set_span(from);
    return true;
  }
  if (rises && gap) {
    n.why.reason = PassedOver::Reason::gap;
    n.why.level_epoch = gap_from;
    n.why.gap_end = gap_to;
    return false;
  }
  n.why.reason = rises ? PassedOver::Reason::newest_only : PassedOver::Reason::replaced;
  n.why.level_epoch = mid;
  return false;
}

// A node read off its curve: the work of each epoch (an interval between
// snapshots, `length` its length in time) is the chance that a steady rate
// raises its floor in it, 1 - exp(-r x length), the rate r such that these
// chances over [s, h) add up to the epochs in which it rose.  An interval
// rises once however much it keeps, so that a frequent leak rises in every
// interval, short or long, and a rare one more often in the long ones.
std::vector<double> rise_chances(const Node& n, std::uint32_t s, std::uint32_t h,
                                 const std::vector<double>& length) {
  double rises = 0, intervals = 0;
  for (std::uint32_t e = s; e < h; ++e) {
    rises += n.kept[e] > 0 ? 1 : 0;
    intervals += length[e] > 0 ? 1 : 0;
  }
  auto chance = [](double rate, double length) {
    return length <= 0 ? 0 : std::isinf(rate) ? 1 : 1 - std::exp(-rate * length);
  };
  double rate = std::numeric_limits<double>::infinity();  // every interval rose
  if (rises < intervals) {
    auto total = [&](double r) {
      double sum = 0;
      for (std::uint32_t e = s; e < h; ++e) sum += chance(r, length[e]);
      return sum;
    };
    double low = 0, high = 1;
    while (total(high) < rises) high *= 2;
    for (int i = 0; i < 100; ++i) {
      double mid = (low + high) / 2;
      (total(mid) < rises ? low : high) = mid;
    }
    rate = (low + high) / 2;
  }
  std::vector<double> out(length.size(), 0.0);
  for (std::size_t e = 0; e < length.size(); ++e) out[e] = chance(rate, length[e]);
  return out;
}

// A node read off its curve: its floor's rise per unit of work in each part
// (of `bounds`), as a share of the part's that rose most; what it made is
// not known.
std::vector<double> rise_rates(const std::vector<std::uint64_t>& kept, const std::vector<double>& work,
                               const std::vector<std::uint32_t>& bounds) {
  std::vector<double> rates;
  for (std::size_t q = 0; q + 1 < bounds.size(); ++q) {
    double rise = 0, w = 0;
    for (std::uint32_t e = bounds[q]; e < bounds[q + 1]; ++e) {
      rise += static_cast<double>(kept[e]);
      w += work[e];
    }
    if (w > 0) rates.push_back(rise / w);
  }
  double most = rates.empty() ? 0 : *std::max_element(rates.begin(), rates.end());
  for (double& r : rates) r = most > 0 ? r / most : 0;
  return rates;
}

// What a judgement sets on a node (its span and why it is no finding), kept
// across a second judgement that may not hold: put back when it does not.
struct Judged {
  PassedOver why;
  std::uint32_t first = 0, end = 0;
  std::vector<std::uint32_t> bounds;
  std::vector<double> ratios;
};

Judged judged(const Node& n) { return {n.why, n.first, n.end, n.bounds, n.ratios}; }

void put_back(Node& n, Judged j) {
  n.why = j.why;
  n.first = j.first;
  n.end = j.end;
  n.bounds = std::move(j.bounds);
  n.ratios = std::move(j.ratios);
}

// The epoch after n's last birth before h (0 with none): where its code
// stopped making anything.
std::uint32_t births_end(const Node& n, std::uint32_t h) {
  std::uint32_t end = h;
  while (end > 0 && n.born[end - 1] == 0) --end;
  return end;
}

// The end of the structure's own run: where its code stops making anything
// (the epoch after its last birth), when that is past kOwnRun of the run's
// time to h (`times`: each boundary's time from time zero, the graph's
// axis) and in each part of its run (kParts of its work from its first
// birth) it made twice the blocks it keeps, else h.  A worker
// thread that finishes while the others go on stops making its structures;
// what it kept, it kept all through its part of the run, and its band,
// rising until then, is level after only because its code no longer runs.
// *Why the time:* a start-up phase, however much it makes, ends early in the
// graph; a table it fills is level for the rest of the run.  *Why twice, in
// each part:* a structure that made and freed as much as it kept shows that
// its code ran all through its part of the run, as a phase's structure that
// keeps all it makes in some part does not (a compiler's declarations, kept
// while it parses, and its temporaries after); a table over a fixed key space, or a
// pool, keeps all it makes, and stops making when it is full: its last
// birth is where it levels off, and judged up to there, no test would see
// it level.  So does a container that copies itself, whose frees are its
// copies.
std::uint32_t own_end(const Node& n, std::uint32_t h, const std::vector<double>& times,
                      const std::vector<double>& work) {
  if (n.from_curves || n.copies || times.size() <= h) return h;
  std::uint32_t own = births_end(n, h);
  if (own == h || own == 0 || (!n.thread_ended && times[own] < kOwnRun * times[h])) return h;
  std::uint32_t first = 0;
  while (first < own && n.born[first] == 0) ++first;
  std::vector<std::uint32_t> bounds = work_bounds(first, own, work);
  for (std::size_t q = 0; q + 1 < bounds.size(); ++q) {
    std::uint64_t born = 0, kept = 0;
    for (std::uint32_t e = bounds[q]; e < bounds[q + 1]; ++e) {
      born += n.born_blocks[e];
      kept += n.kept_blocks[e];
    }
    if (born < 2 * kept) return h;
  }
  return own;
}

// The judgement of n on what it leaves behind: its kept bytes less its
// working set at h (left_behind, from the working set at the span's last
// part), and its kept blocks in proportion; or, when that is no leak and it
// frees some of them in the release at exit, on those it never frees.  n
// keeps its kept bytes and blocks after, and the words their shares (the
// ratios, set here).
bool judge_to(Node& n, std::uint32_t h, const std::vector<double>& given,
              std::span<const std::uint32_t> cycles, bool later_starts) {
  n.end = h;
  auto kept = std::find_if(n.kept.begin(), n.kept.begin() + h, [](std::uint64_t k) { return k > 0; });
  if (kept == n.kept.begin() + h) return false;
  auto s = static_cast<std::uint32_t>(kept - n.kept.begin());
  std::vector<double> chances;
  const std::vector<double>& work = n.from_curves ? chances = rise_chances(n, s, h, given) : given;
  std::vector<double> alive = alive_across(n, h);
  // Judged on `left` and `left_blocks` (bytes and blocks by birth epoch, of
  // its kept ones).
  auto judge_on = [&](std::vector<std::uint64_t> left, std::vector<std::uint64_t> left_blocks,
                      bool never_freed) {
    left.resize(n.kept.size(), 0);
    left_blocks.resize(n.kept_blocks.size(), 0);
    std::swap(n.kept, left);
    std::swap(n.kept_blocks, left_blocks);
    bool leak = judge_left(n, alive, left, h, work, cycles, never_freed, later_starts);
    std::swap(n.kept, left);
    std::swap(n.kept_blocks, left_blocks);
    return leak;
  };
  // What it leaves behind, its kept blocks in proportion.
  std::vector<std::uint64_t> left = left_behind(n, alive, work_bounds(s, h, work)[kParts - 1], h);
  std::vector<std::uint64_t> left_blocks(n.kept_blocks.begin(), n.kept_blocks.begin() + h);
  for (std::uint32_t e = 0; e < h; ++e) {
    if (left[e] < n.kept[e]) {
      left_blocks[e] = static_cast<std::uint64_t>(
          std::ceil(static_cast<double>(n.kept_blocks[e]) * static_cast<double>(left[e]) /
                    static_cast<double>(n.kept[e])));
    }
  }
  bool leak = judge_on(std::move(left), std::move(left_blocks), false);
  // A structure that frees some of what it keeps in the release at exit,
  // and never frees the rest, is judged again on what it never frees: the
  // entries of a cache freed at exit stay in it however old (an LRU's hot
  // entries, born all through the run), so its floor, level, rises with
  // none of them, and with the orphans it never frees, beside them, all
  // through the run (1 session in 50 orphaned by a re-key), up to the part
  // in which the threads end one by one.  Its cells say what it never
  // frees, and when: a copy moves its kept bytes, not theirs.  When that is
  // no leak either, the first judgement says why.
  bool never = std::any_of(n.never_kept.begin(), n.never_kept.begin() + h,
                           [](std::uint64_t k) { return k > 0; });
  if (!leak && !n.from_curves && n.exit_freed > 0 && never) {
    Judged before = judged(n);
    leak = judge_on({n.never_kept.begin(), n.never_kept.begin() + h},
                    {n.never_blocks.begin(), n.never_blocks.begin() + h}, true);
    if (!leak) put_back(n, std::move(before));
  }
  if (!n.bounds.empty()) {  // for the words
    n.ratios = n.from_curves ? rise_rates(n.kept, work, n.bounds) : retention(n.born, n.kept, n.bounds);
  }
  return leak;
}

// The judgement of n (judge_to) up to the horizon h, and when that is no
// leak, again up to the end of its own run (own_end), when its code stopped
// before h: a worker thread that finished while the others went on.  When
// that is no leak either, the first judgement says why.
bool judge(Node& n, std::uint32_t h, const std::vector<double>& given,
           std::span<const std::uint32_t> cycles, const std::vector<double>& times) {
  if (judge_to(n, h, given, cycles, true)) return true;
  std::uint32_t own = own_end(n, h, times, given);
  if (own == h) return false;
  Judged before = judged(n);
  if (judge_to(n, own, given, cycles, false)) return true;
  put_back(n, std::move(before));
  return false;
}

// The nodes of one headline function called from one function
// (headline_caller) are one structure (a cache's two lines, the one that
// fills it and the one that replaces its entries), and judged as one: their
// cells added up.  The leaking nodes, in order.
std::vector<std::size_t> judge_structures(const Model& model, std::vector<Node>& nodes,
                                          std::uint32_t h, const std::vector<double>& work,
                                          std::span<const std::uint32_t> cycles) {
  std::map<std::pair<std::string_view, std::string_view>, std::vector<std::size_t>> structures;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    std::string_view function = nodes[i].key.empty() ? std::string_view()
                                                     : model.frame(nodes[i].key.back()).function;
    nodes[i].function = function;
    structures[{function, nodes[i].caller}].push_back(i);
  }
  // The threads' code: the function a thread starts in (called by
  // start_thread) on each node's main stack, and the epoch after the last
  // in which any node of it made something.
  std::vector<std::string_view> entries(nodes.size());
  std::map<std::string_view, std::uint32_t> thread_end;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::vector<FrameId>& frames = model.site(nodes[i].main_site).frames;
    for (std::size_t j = 1; j < frames.size(); ++j) {
      if (model.frame(frames[j]).function == "start_thread") {
        entries[i] = model.frame(frames[j - 1]).function;
        break;
      }
    }
    if (entries[i].empty()) continue;
    std::uint32_t& end = thread_end[entries[i]];
    end = std::max(end, births_end(nodes[i], h));
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    nodes[i].thread_ended = !entries[i].empty() && thread_end[entries[i]] == births_end(nodes[i], h) &&
                            thread_end[entries[i]] < h;
  }
  std::vector<bool> leaks(nodes.size(), false);
  std::vector<double> times;  // each boundary's time from time zero, the graph's axis (own_end)
  if (model.has_lifetimes && model.lifetimes.epochs >= h) {
    for (std::uint32_t k = 0; k <= h; ++k) {
      times.push_back(static_cast<double>(model.lifetimes.boundary(k) - model.lifetimes.start()));
    }
  }
  for (auto& [structure, members] : structures) {
    std::string_view function = structure.first;
    if (function.empty() || members.size() == 1) {
      for (std::size_t i : members) leaks[i] = judge(nodes[i], h, work, cycles, times);
      continue;
    }
    Node all = empty_node(h);
    all.function = function;
    all.thread_ended = std::all_of(members.begin(), members.end(),
                                   [&](std::size_t i) { return nodes[i].thread_ended; });
    for (std::size_t i : members) {
      const Node& n = nodes[i];
      for (std::uint32_t e = 0; e < h; ++e) {
        all.born[e] += n.born[e];
        all.kept[e] += n.kept[e];
        all.born_blocks[e] += n.born_blocks[e];
        all.kept_blocks[e] += n.kept_blocks[e];
      }
      for (const auto& [cell, a] : n.deaths) {
        all.deaths[cell].bytes += a.bytes;
        all.deaths[cell].blocks += a.blocks;
      }
      all.copies |= n.copies;
      all.exit_freed += n.exit_freed;
      for (std::uint32_t e = 0; e < h; ++e) {
        all.exit_kept[e] += n.exit_kept[e];
        all.never_kept[e] += n.never_kept[e];
        all.never_blocks[e] += n.never_blocks[e];
      }
    }
    bool leak = judge(all, h, work, cycles, times);
    for (std::size_t i : members) {
      leaks[i] = leak && nodes[i].kept_total > 0;
      nodes[i].first = all.first;
      nodes[i].end = all.end;
      nodes[i].bounds = all.bounds;
      nodes[i].ratios = all.ratios;
      nodes[i].why = all.why;
    }
  }
  std::vector<std::size_t> leaking;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (leaks[i]) leaking.push_back(i);
  }
  return leaking;
}

// Whether a ceiling (of ceiling_of) falls over [s, h) in more stretches
// than that of a band that only comes and goes would, but kChance of the
// time: such a band's ceiling falls at its records counted from h, as its
// floor rises at them (beyond_records), ever more seldom the further from
// h.  A band that gives its bytes back for good falls all through.
bool falls_beyond_records(const std::vector<double>& ceiling, std::uint32_t s, std::uint32_t h,
                          std::span<const std::uint32_t> cycles) {
  std::vector<std::uint64_t> fell(h, 0);
  for (std::uint32_t e = s; e < h; ++e) fell[e] = ceiling[e + 1] < ceiling[e] ? 1 : 0;
  return beyond_records(fell, s, h, cycles, 1);
}

std::vector<double> ceiling_of(const Node& n, std::uint32_t h) {
  std::vector<double> ceiling = alive_across(n, h);
  for (std::uint32_t e = h; e-- > 0;) ceiling[e] = std::max(ceiling[e], ceiling[e + 1]);
  return ceiling;
}

// Whether n's kept bytes replace another structure's, as one band falls as
// the other rises: a bounded structure whose entries move from the line
// that filled it to another function that replaces them.  So when some other
// structure m (another headline function, or the same called from another
// function) falls for good (the most it holds from then on) part by part
// of n's span as n's floor rises (a table whose moved entries are renewed
// keeps few of what it made early, but its band rose with them): the
// smaller of the two, part by part, adds
// up to kReplaced of the larger at least, of n's kept bytes and of m's fall
// over the span (a large band that falls by far more than n keeps, as a
// cache's high recedes, is no turnover of n's bytes).  A structure that
// replaces its own entries (a busy cache) or a working set that comes and
// goes does not fall for good;
// their deaths are no evidence.  (n's own deaths are the floor's
// evidence already.)  `ceilings`: each dying node's ceiling (ceiling_of).
bool turnover(const Node& n, const std::vector<const Node*>& dying,
              const std::vector<std::vector<double>>& ceilings, std::uint32_t h,
              std::span<const std::uint32_t> cycles) {
  const std::vector<std::uint32_t>& bounds = n.bounds;
  std::vector<double> floor = floor_of(alive_across(n, h), h);
  std::vector<double> rose(bounds.size() - 1, 0.0);  // n's floor, part by part
  double want = 0;
  for (std::size_t q = 0; q + 1 < bounds.size(); ++q) {
    for (std::uint32_t e = bounds[q]; e < bounds[q + 1]; ++e) want += static_cast<double>(n.kept[e]);
    rose[q] = std::max(0.0, floor[std::min(bounds[q + 1], h)] - floor[std::min(bounds[q], h)]);
  }
  if (want <= 0) return false;
  for (std::size_t i = 0; i < dying.size(); ++i) {
    if (dying[i]->function == n.function && dying[i]->caller == n.caller) continue;
    const std::vector<double>& ceiling = ceilings[i];
    double matched = 0, fell = 0;
    for (std::size_t q = 0; q + 1 < bounds.size(); ++q) {
      double fall = ceiling[std::min(bounds[q], h)] - ceiling[std::min(bounds[q + 1], h)];
      matched += std::clamp(fall, 0.0, rose[q]);
      fell += std::max(fall, 0.0);
    }
    // The records test (epochs x epochs) only for a ceiling that falls by
    // enough: most fall by too little.
    if (matched >= kReplaced * std::max(want, fell) &&
        falls_beyond_records(ceiling, bounds.front(), h, cycles)) {
      return true;
    }
  }
  return false;
}

bool born_before_fork(const Node& n, std::uint32_t fork, std::uint32_t h) {
  std::uint32_t after = std::min(fork + 1, h);
  return std::all_of(n.kept.begin() + after, n.kept.begin() + h,
                     [](std::uint64_t k) { return k == 0; });
}

// The structures (the nodes of one headline function called from one
// function) that keep bytes and are no finding, with why, the most kept
// first.
std::vector<PassedOverStructure> passed_over(const std::vector<Node>& nodes,
                                             const std::vector<std::size_t>& leaking) {
  std::vector<bool> leaks(nodes.size(), false);
  for (std::size_t i : leaking) leaks[i] = true;
  std::map<std::pair<std::string_view, std::string_view>, PassedOverStructure> by_function;
  std::vector<PassedOverStructure> out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    if (leaks[i] || n.kept_total == 0 || n.why.reason == PassedOver::Reason::none) continue;
    PassedOverStructure& p =
        n.function.empty() ? out.emplace_back() : by_function[{n.function, n.caller}];
    if (p.kept_bytes < n.kept_total) {
      p.frames = n.key;
      p.main_site = n.main_site;
    }
    p.sites.insert(p.sites.end(), n.sites.begin(), n.sites.end());
    p.kept_bytes += n.kept_total;
    p.kept_blocks += std::accumulate(n.kept_blocks.begin(), n.kept_blocks.end(), std::uint64_t{0});
    p.why = n.why;
  }
  for (auto& [function, p] : by_function) out.push_back(std::move(p));
  for (PassedOverStructure& p : out) std::sort(p.sites.begin(), p.sites.end());
  std::sort(out.begin(), out.end(), [](const PassedOverStructure& a, const PassedOverStructure& b) {
    if (a.kept_bytes != b.kept_bytes) return a.kept_bytes > b.kept_bytes;
    return a.sites < b.sites;
  });
  return out;
}

}  // namespace strata::detail
