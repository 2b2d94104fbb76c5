// SPDX-License-Identifier: GPL-2.0-or-later
// Leak findings from the lifetime table (lifetime_leaks.hpp).
#include "analyze/lifetime_leaks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace strata {

namespace {

// ---- the lifetime table, by node -----------------------------------------------------

// Bytes and blocks of some cells.
struct Amount {
  std::uint64_t bytes = 0;
  std::uint64_t blocks = 0;
};

// A node: the sites of one headline path, their cells summed over [0, H).
struct Node {
  std::vector<FrameId> key;  // the frames out to the headline
  std::vector<SiteId> sites;
  SiteId main_site{};
  std::uint64_t main_kept = 0;
  std::vector<std::uint64_t> born, kept, born_blocks, kept_blocks;   // by birth epoch, [0, H)
  std::map<std::pair<std::uint32_t, std::uint32_t>, Amount> deaths;  // (birth, death) < H
  std::map<std::uint32_t, std::uint64_t> exit_free;  // free stack -> kept bytes it frees
  std::uint64_t exit_freed = 0;  // kept bytes freed at or after H, by any stack or none known
  std::uint64_t alive_end = 0;
  std::uint64_t kept_total = 0;
  // Judged:
  std::uint32_t first = 0;
  std::vector<std::uint32_t> bounds;  // kParts + 1 epoch boundaries of its span
  std::vector<double> ratios;
  std::string_view function;  // of its headline: its structure
  bool copies = false;  // follow_copies found a container that copies itself
  PassedOver why;       // when it is no finding
};

// An epoch in which the program works: it makes some, and at least
// kActiveShare of a mean epoch's births (`least`, of working_least()).
double working_least(const std::vector<double>& births) {
  double mean = births.empty() ? 0
                               : std::accumulate(births.begin(), births.end(), 0.0) /
                                     static_cast<double>(births.size());
  return kActiveShare * mean;
}

bool working(double births, double least) { return births > 0 && births >= least; }

std::uint32_t horizon_of(const Model& model, std::uint32_t& work_end, std::vector<double>& births) {
  std::uint32_t epochs = model.lifetimes.epochs;
  births.assign(epochs, 0);
  for (const Site& site : model.sites) {
    for (const LifetimeCell& cell : site.cells) {
      if (cell.birth < epochs) births[cell.birth] += static_cast<double>(cell.bytes);
    }
  }
  double least = working_least(births);
  work_end = 0;
  for (std::uint32_t e = 0; e < epochs; ++e) {
    if (working(births[e], least)) work_end = e;
  }
  return work_end + 1 > kExitEpochs ? work_end + 1 - kExitEpochs : 1;
}

// A container that grows by copying itself (a std::vector that doubles:
// a new, larger buffer, the old one's contents copied, the old one freed)
// makes its bytes again at each copy, and only the last copy is kept.  A
// *copy* in epoch e: of the node's bytes born in e and alive after it, one
// block; of its bytes born before e, one block dies in e; and the new block
// is at least kCopyGrowth times the old one.  The new block then carries on the old one's bytes: as
// many of its bytes as the old block held take the birth epochs the old
// block's bytes had (recursively, in proportion), only the rest is born in
// e; the old block's death is no death (turnover), and its bytes are not
// born again (born[e] less them).  So a vector never cleared keeps bytes
// from every doubling, as a buffer grown by realloc does.  One block for
// one block, so that a cache's entries replaced in the same epoch (many
// blocks, as many bytes) are never a copy; by a factor, so that temporaries
// one at a time, a little larger each (an epoch's last one alive across its
// end, freed in the next), are not either.
void follow_copies(Node& n, std::uint32_t h) {
  // Of the bytes born in each epoch, those alive after it (kept, or dying later).
  std::vector<Amount> lasting(h), dying(h);  // dying: born before e, dying in e
  std::vector<std::uint32_t> dying_birth(h, 0);
  for (std::uint32_t e = 0; e < h; ++e) lasting[e] = {n.kept[e], n.kept_blocks[e]};
  for (const auto& [cell, a] : n.deaths) {
    auto [birth, death] = cell;
    lasting[birth].bytes += a.bytes;
    lasting[birth].blocks += a.blocks;
    dying[death].bytes += a.bytes;
    dying[death].blocks += a.blocks;
    dying_birth[death] = birth;
  }
  // The old block dies in e, or in e + 1 when an epoch ends between the new
  // block's birth and the old one's free (a large copy), and no block born
  // in e + 1 claims it.
  auto old_block = [&](std::uint32_t e) -> std::optional<std::uint32_t> {
    if (dying[e].blocks == 1) return e;
    if (dying[e].blocks == 0 && e + 1 < h && dying[e + 1].blocks == 1 &&
        lasting[e + 1].blocks == 0 && dying_birth[e + 1] < e) {
      return e + 1;
    }
    return std::nullopt;
  };
  auto copy = [&](std::uint32_t e) -> std::optional<std::uint32_t> {
    std::optional<std::uint32_t> d = old_block(e);
    if (lasting[e].blocks == 1 && d &&
        static_cast<double>(lasting[e].bytes) >=
            kCopyGrowth * static_cast<double>(dying[*d].bytes)) {
      return d;
    }
    return std::nullopt;
  };
  bool any = false;
  for (std::uint32_t e = 0; e < h && !any; ++e) any = copy(e).has_value();
  if (!any) return;
  n.copies = true;
  // origin[e][o]: of the bytes born in e alive after it, those first born in o.
  std::vector<std::vector<double>> origin(h, std::vector<double>(h, 0.0));
  std::vector<double> kept(h, 0.0);
  for (std::uint32_t e = 0; e < h; ++e) {
    double own = static_cast<double>(lasting[e].bytes);
    if (std::optional<std::uint32_t> d = copy(e)) {
      std::uint32_t b = dying_birth[*d];
      std::uint64_t moved = dying[*d].bytes;
      double share = static_cast<double>(moved) / static_cast<double>(lasting[b].bytes);
      for (std::uint32_t o = 0; o <= b; ++o) origin[e][o] = share * origin[b][o];
      own -= static_cast<double>(moved);
      n.born[e] -= moved;
      n.deaths.erase({b, *d});
    }
    origin[e][e] = own;
    if (n.kept[e] == 0) continue;
    double share = static_cast<double>(n.kept[e]) / static_cast<double>(lasting[e].bytes);
    for (std::uint32_t o = 0; o <= e; ++o) kept[o] += share * origin[e][o];
  }
  std::uint64_t total = 0;
  for (std::uint32_t e = 0; e < h; ++e) total += n.kept[e];
  for (std::uint32_t e = 0; e < h; ++e) {
    n.kept[e] = static_cast<std::uint64_t>(std::llround(kept[e]));
  }
  // (rounding: the kept bytes add up as before)
  std::uint64_t now = std::accumulate(n.kept.begin(), n.kept.end(), std::uint64_t{0});
  auto most = std::max_element(n.kept.begin(), n.kept.end());
  *most = *most + total - now;
}

std::vector<Node> nodes_of(const Model& model, const FindingHeadlines& headlines, std::uint32_t h) {
  std::map<std::vector<FrameId>, std::size_t> index_of;
  std::vector<Node> nodes;
  for (std::size_t s = 0; s < model.sites.size(); ++s) {
    const Site& site = model.sites[s];
    bool born = std::any_of(site.cells.begin(), site.cells.end(),
                            [&](const LifetimeCell& c) { return c.birth < h; });
    if (!born) continue;
    std::size_t head = headlines.headline(site.frames);
    std::vector<FrameId> key(site.frames.begin(),
                             site.frames.begin() + std::min(head + 1, site.frames.size()));
    auto [at, added] = index_of.try_emplace(key, nodes.size());
    if (added) {
      Node n;
      n.key = std::move(key);
      n.born.assign(h, 0);
      n.kept.assign(h, 0);
      n.born_blocks.assign(h, 0);
      n.kept_blocks.assign(h, 0);
      nodes.push_back(std::move(n));
    }
    Node& n = nodes[at->second];
    SiteId id{static_cast<std::uint32_t>(s)};
    n.sites.push_back(id);
    std::uint64_t kept = 0;
    for (const LifetimeCell& c : site.cells) {
      if (c.alive()) n.alive_end += c.bytes;
      if (c.birth >= h) continue;
      n.born[c.birth] += c.bytes;
      n.born_blocks[c.birth] += c.blocks;
      if (kept_at(c, h)) {
        n.kept[c.birth] += c.bytes;
        n.kept_blocks[c.birth] += c.blocks;
        kept += c.bytes;
        if (!c.alive()) n.exit_freed += c.bytes;
        if (!c.alive() && c.freed_by != 0) n.exit_free[c.freed_by] += c.bytes;
      } else if (c.death > c.birth) {
        Amount& a = n.deaths[{c.birth, c.death}];
        a.bytes += c.bytes;
        a.blocks += c.blocks;
      }
    }
    n.kept_total += kept;
    if (n.sites.size() == 1 || kept > n.main_kept) {
      n.main_kept = kept;
      n.main_site = id;
    }
  }
  for (Node& n : nodes) follow_copies(n, h);
  return nodes;
}

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
// the heap's rhythm, read off the snapshots, is not.
std::vector<std::uint32_t> work_bursts(const std::vector<double>& work, std::uint32_t h) {
  double least = working_least(work);
  std::vector<std::uint32_t> starts;
  for (std::uint32_t e = 1; e < h && e < work.size(); ++e) {
    if (working(work[e], least) && !working(work[e - 1], least)) starts.push_back(e);
  }
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

// The node's bytes alive across each epoch boundary e of [0, h] (the start
// of epoch e): a cell born in b and dying in d (kept: alive at h) is alive
// across b + 1 .. d.
std::vector<double> alive_across(const Node& n, std::uint32_t h) {
  std::vector<double> delta(h + 2, 0.0);
  for (std::uint32_t b = 0; b < h; ++b) {
    delta[b + 1] += static_cast<double>(n.kept[b]);
    delta[h + 1] -= static_cast<double>(n.kept[b]);
  }
  for (const auto& [cell, amount] : n.deaths) {
    auto [b, d] = cell;
    if (d <= b || b >= h) continue;
    delta[b + 1] += static_cast<double>(amount.bytes);
    delta[std::min(d, h) + 1] -= static_cast<double>(amount.bytes);
  }
  std::vector<double> alive(h + 1, 0.0);
  double now = 0;
  for (std::uint32_t e = 0; e <= h; ++e) alive[e] = now += delta[e];
  return alive;
}

// The first line of evidence, the graph's: the floor of the node's band
// (at each boundary, the least it holds from there to h) rises with its
// survivors, above the most it held before them.  Over the span, the
// floor's rise matches kRise of the bytes kept of those born in it; and so
// it does in each part (of `bounds`) after the first that keeps some, but
// for the last when the program has cycles (`cycling`).  A structure whose
// entries are replaced (a cache, a table over a fixed key space, a random
// walk, a pool, sessions that come and go) keeps its newest entries while
// its floor stays level, or at the level it held before.  The first part is
// judged with the span only: the floor at the span's start holds the bytes
// the structure has in flight (a player's queue of frames), which what the
// first part keeps raises it past only once it is exceeded.  So is the last
// part of a program with cycles: the bytes in flight in the cycle under way
// at the horizon count as kept though no floor has risen with them yet (the
// last video's frames).  Without cycles the last part is judged on its own:
// a cache that fills for most of the run and then only replaces its
// entries levels off there.  The least share matched, at most 1.
double floor_matched(const std::vector<double>& alive, const std::vector<std::uint64_t>& kept,
                     std::uint32_t h, const std::vector<std::uint32_t>& bounds, bool cycling) {
  std::vector<double> floor(h + 1, 0.0);
  double least = alive[h];
  for (std::uint32_t e = h + 1; e-- > 0;) floor[e] = least = std::min(least, alive[e]);
  double before = *std::max_element(alive.begin(), alive.begin() + bounds.front() + 1);
  for (double& f : floor) f = std::max(f, before);
  auto matched = [&](std::uint32_t from, std::uint32_t to) {
    double part = 0;
    for (std::uint32_t e = from; e < to; ++e) part += static_cast<double>(kept[e]);
    if (part <= 0) return 1.0;
    return std::clamp(floor[to] - floor[from], 0.0, part) / part;
  };
  double worst = matched(bounds.front(), h);

  for (std::size_t q = 1; q + (cycling ? 2 : 1) < bounds.size(); ++q) {
    worst = std::min(worst, matched(bounds[q], bounds[q + 1]));
  }
  return worst;
}

// The survivors of epoch e: its kept blocks, one at least if it kept bytes.
std::uint64_t survivors(const Node& n, std::uint32_t e) {
  return std::max<std::uint64_t>(n.kept_blocks[e], n.kept[e] > 0 ? 1 : 0);
}

// The events of epoch e for the judgement of chance: its survivors, at most
// kBurst times the median of the span's epochs that keep some.  Blocks born
// together (a burst of records in one cycle, a batch kept at once) are not
// independent draws; as many draws as that would make a burst look like a
// trend.
std::uint64_t events(const Node& n, std::uint32_t e, std::uint64_t cap) {
  return std::min(survivors(n, e), cap);
}

std::uint64_t burst_cap(const Node& n, std::uint32_t s, std::uint32_t h) {
  std::vector<std::uint64_t> counts;
  for (std::uint32_t e = s; e < h; ++e) {
    if (std::uint64_t k = survivors(n, e)) counts.push_back(k);
  }
  if (counts.empty()) return 1;
  std::nth_element(counts.begin(), counts.begin() + counts.size() / 2, counts.end());
  return kBurst * counts[counts.size() / 2];
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

Half half_of(const Node& n, std::uint32_t from, std::uint32_t to, const std::vector<double>& work,
             std::uint64_t cap) {
  Half half;
  for (std::uint32_t e = from; e < to; ++e) {
    half.survivors += events(n, e, cap);
    half.work += work[e];
  }
  return half;
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
  std::uint64_t cap = burst_cap(n, s, h);
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
  return Short::neither;
}

// Whether the node keeps enough blocks over [s, h), a span of enough work,
// to be judged (kMinBlocks, kMinSpan); else `why` says which.
bool judgeable(const Node& n, std::uint32_t s, std::uint32_t h, const std::vector<double>& work,
               PassedOver& why) {
  std::uint64_t units = 0;
  for (std::uint32_t e = s; e < h; ++e) units += survivors(n, e);
  if (units < kMinBlocks) {
    why.reason = PassedOver::Reason::few_blocks;
    return false;
  }
  if (working_epochs(s, h, work) < kMinSpan) {
    why.reason = PassedOver::Reason::short_span;
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
// what it is.
bool judge(Node& n, std::uint32_t h, const std::vector<double>& work,
           std::span<const std::uint32_t> cycles) {
  auto kept = std::find_if(n.kept.begin(), n.kept.begin() + h, [](std::uint64_t k) { return k > 0; });
  if (kept == n.kept.begin() + h) return false;
  std::uint32_t s = static_cast<std::uint32_t>(kept - n.kept.begin());
  std::vector<double> alive = alive_across(n, h);
  auto set_span = [&](std::uint32_t from) {
    n.first = from;
    n.bounds = work_bounds(from, h, work);
    n.ratios = retention(n.born, n.kept, n.bounds);  // for the words
    n.why.first_kept = from;
  };
  set_span(s);
  if (!judgeable(n, s, h, work, n.why)) return false;
  n.why.matched = floor_matched(alive, n.kept, h, n.bounds, !cycles.empty());
  std::uint32_t mid = 0;
  Short verdict = short_half(n, s, h, work, cycles, mid);
  if (verdict == Short::later) {
    n.why.reason = PassedOver::Reason::levels_off;
    n.why.level_epoch = mid;
    return false;
  }
  bool rises = n.why.matched >= kRise;
  if (rises && verdict == Short::neither) return true;
  for (std::uint32_t from = s + 1; from < h; ++from) {
    PassedOver why;
    if (n.kept[from] == 0 || !judgeable(n, from, h, work, why)) continue;
    std::uint32_t at = 0;
    if (floor_matched(alive, n.kept, h, work_bounds(from, h, work), !cycles.empty()) < kRise ||
        short_half(n, from, h, work, cycles, at) != Short::neither) {
      continue;
    }
    set_span(from);
    return true;
  }
  n.why.reason = rises ? PassedOver::Reason::newest_only : PassedOver::Reason::replaced;
  n.why.level_epoch = mid;
  return false;
}

// The nodes of one headline function are one structure (a cache's two
// lines, the one that fills it and the one that replaces its entries), and
// judged as one: their cells added up.  The leaking nodes, in order.
std::vector<std::size_t> judge_structures(const Model& model, std::vector<Node>& nodes,
                                          std::uint32_t h, const std::vector<double>& work,
                                          std::span<const std::uint32_t> cycles) {
  std::map<std::string_view, std::vector<std::size_t>> structures;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    std::string_view function = nodes[i].key.empty() ? std::string_view()
                                                     : model.frame(nodes[i].key.back()).function;
    nodes[i].function = function;
    structures[function].push_back(i);
  }
  std::vector<bool> leaks(nodes.size(), false);
  for (auto& [function, members] : structures) {
    if (function.empty() || members.size() == 1) {
      for (std::size_t i : members) leaks[i] = judge(nodes[i], h, work, cycles);
      continue;
    }
    Node all;
    all.born.assign(h, 0);
    all.kept.assign(h, 0);
    all.born_blocks.assign(h, 0);
    all.kept_blocks.assign(h, 0);
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
    }
    bool leak = judge(all, h, work, cycles);
    for (std::size_t i : members) {
      leaks[i] = leak && nodes[i].kept_total > 0;
      nodes[i].first = all.first;
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

// Whether n's kept bytes replace another structure's, as one band falls as
// the other rises: a bounded structure whose entries move from the line
// that filled it to another function that replaces them.  So when some other
// structure m falls for good (the most it holds from then on) part by part
// of n's span as n keeps bytes: the smaller of the two adds up to kReplaced
// of n's kept bytes at least.  A structure that replaces its own entries (a
// busy cache) or a working set that comes and goes does not fall for good;
// their deaths are no evidence.  (n's own deaths are the floor's
// evidence already.)  `alive`: each dying node's bytes alive across each
// epoch boundary (alive_across).
bool turnover(const Node& n, const std::vector<const Node*>& dying,
              const std::vector<std::vector<double>>& alive, std::uint32_t h) {
  const std::vector<std::uint32_t>& bounds = n.bounds;
  std::vector<double> kept(bounds.size() - 1, 0.0);
  double want = 0;
  for (std::size_t q = 0; q + 1 < bounds.size(); ++q) {
    for (std::uint32_t e = bounds[q]; e < bounds[q + 1]; ++e) kept[q] += static_cast<double>(n.kept[e]);
    want += kept[q];
  }
  if (want <= 0) return false;
  for (std::size_t i = 0; i < dying.size(); ++i) {
    if (dying[i]->function == n.function) continue;
    // Its ceiling (the most it holds from each boundary to h): a fall of
    // its ceiling is for good, a working set that comes and goes does not fall.
    std::vector<double> ceiling(alive[i]);
    for (std::uint32_t e = h; e-- > 0;) ceiling[e] = std::max(ceiling[e], ceiling[e + 1]);
    double matched = 0;
    for (std::size_t q = 0; q + 1 < bounds.size(); ++q) {
      double fall = ceiling[std::min(bounds[q], h)] - ceiling[std::min(bounds[q + 1], h)];
      matched += std::clamp(fall, 0.0, kept[q]);
    }
    if (matched >= kReplaced * want) return true;
  }
  return false;
}

// ---- one leak, one finding -----------------------------------------------------------

class Joins {
 public:
  explicit Joins(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  std::size_t find(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> parent_;
};

double total_variation(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  double ta = static_cast<double>(std::accumulate(a.begin(), a.end(), std::uint64_t{0}));
  double tb = static_cast<double>(std::accumulate(b.begin(), b.end(), std::uint64_t{0}));
  if (ta == 0 || tb == 0) return 1;
  double tv = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    tv += std::abs(static_cast<double>(a[i]) / ta - static_cast<double>(b[i]) / tb);
  }
  return tv / 2;
}

// Of kept bytes freed at exit by free stack (`exit_free`), the stack that
// frees the most, when it frees at least what is still alive at the end
// (`alive`); else 0.
std::uint32_t holder_stack(const std::map<std::uint32_t, std::uint64_t>& exit_free,
                           std::uint64_t alive) {
  std::uint32_t best = 0;
  std::uint64_t bytes = 0;
  for (const auto& [stack, b] : exit_free) {
    if (b > bytes) best = stack, bytes = b;
  }
  return bytes > 0 && bytes >= alive ? best : 0;
}

// The frames of free stack `stack` (from 1); empty for 0 or an unknown id.
std::span<const FrameId> free_stack(const Model& model, std::uint32_t stack) {
  if (stack == 0 || stack > model.lifetimes.free_stacks_frames.size()) return {};
  return model.lifetimes.free_stacks_frames[stack - 1];
}

// The frame of free stack `stack` that holds what it frees; none for 0, an
// unknown id or an empty stack.
std::optional<FrameId> holder_frame(const Model& model, const FindingHeadlines& headlines,
                                    std::uint32_t stack) {
  std::span<const FrameId> frames = free_stack(model, stack);
  if (frames.empty()) return std::nullopt;
  return frames[headlines.holder(frames)];
}

// What frees a node's kept bytes at exit: its holder stack's frames and the
// function of their freer (FindingHeadlines::freer); none when the node has
// no holder stack or the stack no own frame.
struct ExitFreer {
  std::span<const FrameId> frames;
  std::string_view function;
};

std::optional<ExitFreer> exit_freer(const Model& model, const FindingHeadlines& headlines,
                                    const Node& n) {
  std::span<const FrameId> frames = free_stack(model, holder_stack(n.exit_free, n.alive_end));
  std::optional<std::size_t> at = headlines.freer(frames);
  if (!at) return std::nullopt;
  return ExitFreer{frames, model.frame(frames[*at]).function};
}

Finding finding_of(const Model& model, const FindingHeadlines& headlines,
                   std::vector<const Node*> members, std::uint32_t h) {
  std::sort(members.begin(), members.end(), [](const Node* a, const Node* b) {
    if (a->kept_total != b->kept_total) return a->kept_total > b->kept_total;
    return a->key < b->key;
  });
  Finding f;
  f.kept_by_epoch.assign(h, 0);
  std::map<std::uint32_t, std::uint64_t> exit_free;
  for (const Node* n : members) {
    f.parts.push_back({.frames = n->key,
                       .sites = n->sites,
                       .main_site = n->main_site,
                       .kept_bytes = n->kept_total,
                       .alive_bytes = n->alive_end});
    f.sites.insert(f.sites.end(), n->sites.begin(), n->sites.end());
    f.kept_bytes += n->kept_total;
    f.alive_bytes += n->alive_end;
    for (std::uint32_t e = 0; e < h; ++e) {
      f.kept_by_epoch[e] += n->kept[e];
      f.kept_blocks += n->kept_blocks[e];
    }
    for (const auto& [stack, bytes] : n->exit_free) exit_free[stack] += bytes;
    f.exit_freed_bytes += n->exit_freed;
  }
  std::sort(f.sites.begin(), f.sites.end());
  f.retention = members.front()->ratios;
  f.first_epoch = members.front()->first;
  f.holder = holder_stack(exit_free, f.alive_bytes);
  f.holder_frame = holder_frame(model, headlines, f.holder);
  return f;
}


// The joins of step 5, indexed by what they compare so that they cost about
// the leaking nodes, not their pairs; the same joins as comparing every
// pair (a,b), whose rule is: the same headline function; or both freed at
// exit and freed together; or, unless both are freed at exit, the same
// builder or the same births (total variation at most kSame).  A join with
// one node of a class that every member would join is a join with them all
// (union-find), which is what lets a class stand for its members.
void join_leaking(const Model& model, const std::vector<Node>& nodes,
                  const std::vector<std::size_t>& leaking,
                  const std::vector<std::string>& functions,
                  const std::vector<std::optional<ExitFreer>>& freers,
                  const std::vector<std::string_view>& builders, Joins& joins) {
  std::size_t n = leaking.size();
  // The same headline function.
  std::unordered_map<std::string_view, std::size_t> by_function;
  for (std::size_t a = 0; a < n; ++a) {
    if (functions[a].empty()) continue;
    auto [at, fresh] = by_function.emplace(functions[a], a);
    if (!fresh) joins.join(a, at->second);
  }
  // Freed together: one freer, or one's freer called on the other's stack.
  std::unordered_map<std::string_view, std::size_t> by_freer;
  for (std::size_t a = 0; a < n; ++a) {
    if (!freers[a] || freers[a]->function.empty()) continue;
    auto [at, fresh] = by_freer.emplace(freers[a]->function, a);
    if (!fresh) joins.join(a, at->second);
  }
  for (std::size_t a = 0; a < n; ++a) {
    if (!freers[a] || freers[a]->function.empty()) continue;
    for (FrameId f : freers[a]->frames) {
      auto at = by_freer.find(model.frame(f).function);
      if (at != by_freer.end()) joins.join(a, at->second);
    }
  }
  // The same builder, unless both are freed at exit: every node without a
  // freer joins every other of its builder.
  std::unordered_map<std::string_view, std::size_t> unfreed_by_builder;
  for (std::size_t a = 0; a < n; ++a) {
    if (!builders[a].empty() && !freers[a]) unfreed_by_builder.emplace(builders[a], a);
  }
  for (std::size_t a = 0; a < n; ++a) {
    if (builders[a].empty()) continue;
    auto at = unfreed_by_builder.find(builders[a]);
    if (at != unfreed_by_builder.end() && at->second != a) joins.join(a, at->second);
  }
  // The same births, unless both are freed at exit.  Nodes whose kept
  // blocks come from the epochs in exactly the same proportions are one
  // class (each is as far from any other node as the next); classes are
  // compared in the order of their mean birth epoch, which differs by at
  // most (H - 1) x kSame between two within kSame.
  struct Births {
    std::vector<std::uint64_t> blocks;
    double mean = 0;
    std::size_t unfreed = SIZE_MAX;   // a member without a freer (all of them are joined)
    std::vector<std::size_t> freed;   // the members with one
  };
  auto proportional = [](const std::vector<std::uint64_t>& x, const std::vector<std::uint64_t>& y) {
    using Wide = unsigned __int128;
    Wide tx = std::accumulate(x.begin(), x.end(), Wide{0});
    Wide ty = std::accumulate(y.begin(), y.end(), Wide{0});
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (Wide{x[i]} * ty != Wide{y[i]} * tx) return false;
    }
    return true;
  };
  std::vector<Births> classes;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> by_shape;  // shape -> classes
  for (std::size_t a = 0; a < n; ++a) {
    const std::vector<std::uint64_t>& blocks = nodes[leaking[a]].kept_blocks;
    std::uint64_t total = std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0});
    if (total == 0) continue;  // no births to compare (total_variation says 1)
    std::uint64_t shape = 0;   // which epochs have blocks, and their shares to 1/1024
    double mean = 0;
    for (std::size_t e = 0; e < blocks.size(); ++e) {
      if (blocks[e] == 0) continue;
      auto share = static_cast<std::uint64_t>((unsigned __int128){blocks[e]} * 1024 / total);
      shape = (shape ^ (e + 1) ^ (share << 8)) * 0x9E3779B97F4A7C15ULL;
      mean += static_cast<double>(e) * static_cast<double>(blocks[e]) / static_cast<double>(total);
    }
    std::vector<std::size_t>& same = by_shape[shape];
    auto it = std::find_if(same.begin(), same.end(),
                           [&](std::size_t c) { return proportional(classes[c].blocks, blocks); });
    std::size_t c = it != same.end() ? *it : classes.size();
    if (c == classes.size()) {
      classes.push_back({blocks, mean, SIZE_MAX, {}});
      same.push_back(c);
    }
    Births& k = classes[c];
    if (freers[a]) {
      k.freed.push_back(a);
    } else if (k.unfreed == SIZE_MAX) {
      k.unfreed = a;
    } else {
      joins.join(a, k.unfreed);
    }
  }
  // Within a class (the same births) and between two classes within kSame:
  // every pair but those of two freed members.
  auto join_classes = [&](const Births& x, const Births& y) {
    if (x.unfreed != SIZE_MAX && y.unfreed != SIZE_MAX) joins.join(x.unfreed, y.unfreed);
    if (y.unfreed != SIZE_MAX) {
      for (std::size_t a : x.freed) joins.join(a, y.unfreed);
    }
    if (x.unfreed != SIZE_MAX) {
      for (std::size_t b : y.freed) joins.join(b, x.unfreed);
    }
  };
  for (const Births& k : classes) join_classes(k, k);
  std::vector<std::size_t> order(classes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return classes[x].mean < classes[y].mean; });
  double window = kSame * static_cast<double>(nodes.empty() ? 0 : nodes.front().kept_blocks.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Births& x = classes[order[i]];
    for (std::size_t j = i + 1; j < order.size() && classes[order[j]].mean - x.mean <= window;
         ++j) {
      const Births& y = classes[order[j]];
      if (total_variation(x.blocks, y.blocks) <= kSame) join_classes(x, y);
    }
  }
}

// The structures (the nodes of one headline function) that keep bytes and
// are no finding, with why, the most kept first.
std::vector<PassedOverStructure> passed_over(const std::vector<Node>& nodes,
                                             const std::vector<std::size_t>& leaking) {
  std::vector<bool> leaks(nodes.size(), false);
  for (std::size_t i : leaking) leaks[i] = true;
  std::map<std::string_view, PassedOverStructure> by_function;
  std::vector<PassedOverStructure> out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    if (leaks[i] || n.kept_total == 0 || n.why.reason == PassedOver::Reason::none) continue;
    PassedOverStructure& p = n.function.empty() ? out.emplace_back() : by_function[n.function];
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

}  // namespace

CyclesLeft cycles_left(const Model& model, std::span<const std::uint64_t> starts,
                       const Finding& finding, std::uint32_t horizon) {
  const Lifetimes& l = model.lifetimes;
  CyclesLeft out;
  std::uint64_t end = l.boundary(horizon);
  for (std::size_t i = 0; i < starts.size() && starts[i] < end; ++i) {
    ++out.cycles;
    std::uint64_t from = starts[i];
    std::uint64_t to = i + 1 < starts.size() ? std::min(starts[i + 1], end) : end;
    bool left = false;
    for (std::uint32_t e = 0; e < horizon && e < finding.kept_by_epoch.size() && !left; ++e) {
      std::uint64_t a = l.boundary(e), b = l.boundary(e + 1);
      left = finding.kept_by_epoch[e] > 0 && a < to && from < b;
    }
    out.left += left;
  }
  return out;
}

LifetimeLeaks find_lifetime_leaks(const Model& model, const OwnCode& own,
                                  std::span<const std::uint64_t> cycle_starts) {
  LifetimeLeaks out;
  out.epochs = model.lifetimes.epochs;
  if (!model.has_lifetimes || out.epochs == 0) return out;
  std::vector<double> work;  // the program's births by epoch: the clock of the parts
  out.horizon = horizon_of(model, out.work_end, work);
  std::uint32_t h = out.horizon;
  FindingHeadlines headlines(model, own);
  std::vector<Node> nodes = nodes_of(model, headlines, h);
  // The cycles' starts as epoch boundaries (the nearest).
  const Lifetimes& l = model.lifetimes;
  std::vector<std::uint32_t> cycles;
  for (std::uint64_t t : cycle_starts) {
    if (l.tick_at(t) <= l.t0) continue;
    auto k = static_cast<std::uint32_t>(l.nearest(t));
    if (cycles.empty() || k > cycles.back()) cycles.push_back(k);
  }
  if (cycles.empty()) cycles = work_bursts(work, h);
  std::vector<std::size_t> leaking = judge_structures(model, nodes, h, work, cycles);
  std::vector<const Node*> dying;  // the nodes whose bytes die: those turnover looks at
  std::vector<std::vector<double>> dying_alive;
  if (!leaking.empty()) {
    for (const Node& m : nodes) {
      if (m.deaths.empty()) continue;
      dying.push_back(&m);
      dying_alive.push_back(alive_across(m, h));
    }
  }
  std::erase_if(leaking, [&](std::size_t i) {
    if (!turnover(nodes[i], dying, dying_alive, h)) return false;
    nodes[i].why.reason = PassedOver::Reason::turnover;
    return true;
  });
  out.passed_over = passed_over(nodes, leaking);
  // One structure: the same headline function, freed together at exit, or
  // the same distribution of kept blocks over the epochs, unless the code
  // that frees them at exit says they are two (two leaks of one request,
  // freed by two release functions).
  std::vector<std::string> functions;
  std::vector<std::optional<ExitFreer>> freers;
  std::vector<std::string_view> builders;  // FindingHeadlines::builder
  for (std::size_t i : leaking) {
    // (a site without a stack has no headline function)
    functions.push_back(nodes[i].key.empty() ? "" : model.frame(nodes[i].key.back()).function);
    freers.push_back(exit_freer(model, headlines, nodes[i]));
    const Node& n = nodes[i];
    std::span<const FrameId> frames = model.sites[index(n.main_site)].frames;
    std::optional<std::size_t> at =
        n.key.empty() ? std::nullopt : headlines.builder(frames, n.key.size() - 1);
    builders.push_back(at ? model.frame(frames[*at]).function : std::string_view());
  }
  Joins joins(leaking.size());
  join_leaking(model, nodes, leaking, functions, freers, builders, joins);
  std::map<std::size_t, std::vector<const Node*>> groups;
  for (std::size_t a = 0; a < leaking.size(); ++a) {
    groups[joins.find(a)].push_back(&nodes[leaking[a]]);
  }
  for (auto& [root, members] : groups) {
    out.findings.push_back(finding_of(model, headlines, members, h));
  }
  std::sort(out.findings.begin(), out.findings.end(), [](const Finding& a, const Finding& b) {
    if (a.kept_bytes != b.kept_bytes) return a.kept_bytes > b.kept_bytes;
    return a.sites < b.sites;
  });
  return out;
}

}  // namespace strata
