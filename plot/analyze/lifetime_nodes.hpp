// SPDX-License-Identifier: GPL-2.0-or-later
// Leak detection from lifetimes (lifetime_leaks.hpp): its parameters, its
// verdict on a structure it does not flag, and the lifetime table by node:
// the sites cut at their headline (headlines.hpp), their cells summed over
// the epochs before the horizon, a container that copies itself followed.
// Internal to plot/analyze: lifetime_judge.cpp judges the nodes,
// lifetime_leaks.cpp makes them findings.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "analyze/headlines.hpp"
#include "model/model.hpp"

namespace strata {
class SeriesBuilder;
}

namespace strata {

// The parameters (docs/design.md says why each is what it is).
inline constexpr std::uint32_t kExitEpochs = 2;  // the release at exit: the work's last 2 epochs
inline constexpr double kActiveShare = 0.01;     // the work ends with 1% of a mean epoch's births
inline constexpr std::size_t kParts = 4;         // the span cut in 4 parts
inline constexpr std::uint32_t kMinSpan = 2 * kParts;  // 2 epochs a part: an empty part shows
inline constexpr std::size_t kToolEpochs = 64;  // the epochs the tool holds at most: kMinSpan of them
inline constexpr double kCopyGrowth = 1.5;  // a container that copies itself grows by 1.5 at least
inline constexpr double kReplaced = 0.75;   // a turnover replaces 3/4 of the kept bytes
inline constexpr double kSame = 0.35;       // total variation of one structure's births
inline constexpr double kTogether = 0.5;    // correlation of one structure's births, epoch by epoch
inline constexpr double kSmallShare = 1.0;  // percent of the peak: smaller findings listed apart
inline constexpr std::uint64_t kMinBlocks = 7;  // survivors: (1/2)^7 < kChance, see the design
inline constexpr double kRise = 0.5;     // the floor rises with half the kept bytes at least
inline constexpr double kLevel = 0.7;    // levels off: the later half keeps under 0.7 of its share
inline constexpr double kHighWater = 0.5;  // a high-water mark: its floor rose in the later half by under half its share
inline constexpr double kChance = 0.01;  // ... and a steady rate would keep so few 1 time in 100
inline constexpr double kOwnRun = 0.5;  // a structure's code that stops past half the run's time ends its run
inline constexpr std::uint64_t kBurst = 2;  // an epoch counts at most twice the median epoch's survivors

// Why a node that keeps bytes is no finding (the report lists the largest).
struct PassedOver {
  enum class Reason : std::uint8_t {
    none,
    few_blocks,   // fewer than kMinBlocks survivors
    short_span,   // kept over fewer than kMinSpan epochs of work
    replaced,     // its floor does not rise with what it keeps: entries replaced
    levels_off,   // its survivors stop: born at its start, not all through
    newest_only,  // its survivors are its newest: born at its end, not all through
    turnover,     // what it keeps replaces what another structure gives back
    gap,          // it leaves nothing born in a part of its span: not all through
    high_water,   // its floor rises as seldom as a band's that comes and goes, little later
    forked,       // what it keeps was born before the process first forked: its children's start-up
  };
  Reason reason = Reason::none;
  std::uint32_t first_kept = 0;   // the epoch of its first survivor
  std::uint32_t level_epoch = 0;  // levels_off, high_water: the later half starts here; gap: the
                                  // part's start; forked: the epoch of the first fork
  std::uint32_t gap_end = 0;      // gap: the end of the part it leaves nothing born in
  double matched = 0;             // the share of its kept bytes its floor's rise matches
  std::uint64_t left_blocks = 0;  // few_blocks: the blocks it leaves behind its working set
  std::uint64_t draws = 0;        // few_blocks: those blocks as the chance tests count them (events)
  std::uint32_t least_span = 0;   // short_span: the epochs of work it needed at least
};

// Whether `cell`'s bytes are kept at horizon `h`: born before it and alive
// across it (never freed, or freed at or after it, in the release at exit).
inline bool kept_at(const LifetimeCell& cell, std::uint32_t h) {
  return cell.birth < h && (cell.alive() || cell.death >= h);
}

// What `site` keeps at horizon `h`: the bytes of its cells kept_at() it.
inline std::uint64_t kept_bytes(const Site& site, std::uint32_t h) {
  std::uint64_t kept = 0;
  for (const LifetimeCell& c : site.cells) {
    if (kept_at(c, h)) kept += c.bytes;
  }
  return kept;
}

// A structure that keeps bytes and is no finding, and why: what the report
// accounts for without flagging it.
struct PassedOverStructure {
  std::vector<FrameId> frames;  // its main node's, from the allocation out to its headline
  std::vector<SiteId> sites;    // of all its nodes, sorted
  SiteId main_site{};
  std::uint64_t kept_bytes = 0;
  std::uint64_t kept_blocks = 0;
  PassedOver why;
};

}  // namespace strata

namespace strata::detail {

// Bytes and blocks of some cells.
struct Amount {
  std::uint64_t bytes = 0;
  std::uint64_t blocks = 0;
};

// Blocks freed during the run and the epochs they lived, summed over them
// (a block born in epoch b and freed in d lived d - b).
struct Lived {
  std::uint64_t blocks = 0;
  std::uint64_t epochs = 0;
};

// A node: the sites of one headline path called from one function, their
// cells summed over [0, H).
struct Node {
  std::vector<FrameId> key;  // the frames out to the headline
  std::string_view caller;   // the function that calls the headline (headline_caller)
  std::vector<SiteId> sites;
  SiteId main_site{};
  std::uint64_t main_kept = 0;
  std::vector<std::uint64_t> born, kept, born_blocks, kept_blocks;   // by birth epoch, [0, H)
  std::map<std::pair<std::uint32_t, std::uint32_t>, Amount> deaths;  // (birth, death) < H
  std::map<std::uint32_t, std::uint64_t> exit_free;  // free stack -> kept bytes it frees
  std::map<std::uint32_t, std::uint64_t> run_free;   // free stack -> bytes it frees before H
  std::map<std::uint32_t, Lived> run_lived;          // free stack -> how long those blocks lived
  std::uint64_t exit_freed = 0;  // kept bytes freed at or after H, by any stack or none known
  std::vector<std::uint64_t> exit_kept;  // those bytes by birth epoch, [0, H)
  std::vector<std::uint64_t> never_kept, never_blocks;  // kept and never freed, by birth epoch [0, H)
  std::uint64_t alive_end = 0;
  std::uint64_t kept_total = 0;
  // Judged:
  std::uint32_t first = 0;
  std::uint32_t end = 0;  // of its span: the horizon, or where its code stopped (own_end)
  std::vector<std::uint32_t> bounds;  // kParts + 1 epoch boundaries of its span
  std::vector<double> ratios;
  std::string_view function;  // of its headline: its structure
  bool copies = false;  // follow_copies found a container that copies itself
  bool from_curves = false;  // read off its curve (nodes_of_curves): a survivor is a rise
  bool thread_ended = false;  // its code runs in threads that made nothing after its last birth
  PassedOver why;       // when it is no finding
};

// The least births of an epoch in which the program works: kActiveShare of
// a mean epoch's (`births` by epoch).
double working_least(const std::vector<double>& births);

// Whether an epoch of `births` is one in which the program works (it makes
// some, and at least `least`, of working_least()).
bool working(double births, double least);

// Whether the work (the program's births by epoch, the clock of the parts)
// is counted in blocks, not bytes: where the epochs themselves count bytes
// allocated and freed (`opt epoch_unit B`, the native recorder; or the
// time unit B), whose every epoch holds about as many bytes born as the
// next, so that bytes would measure the work in the epochs' own unit and a
// start-up of a few large blocks would be as much work as the loop after
// it.  Where the epochs count instructions the work is in bytes.
bool work_in_blocks(const Model& model);

// The horizon H (lifetime_leaks.hpp, step 1); `work_end` is set to the last
// epoch of the work and `births` to the program's births by epoch (bytes,
// or blocks: work_in_blocks).
std::uint32_t horizon_of(const Model& model, std::uint32_t& work_end, std::vector<double>& births);

// The horizon kExitEpochs before the end of the work (its last epoch
// `work_end`), 1 at least.
std::uint32_t horizon_after(std::uint32_t work_end);

// A node with nothing born or kept in any of the epochs [0, h).
Node empty_node(std::uint32_t h);

// A stack's frames from the allocation out to its headline frame (all of
// them when it has none): the key of its node.
std::vector<FrameId> headline_path(const FindingHeadlines& headlines,
                                   std::span<const FrameId> frames);

// The function that calls a stack's headline: the frame beyond its
// headline path of `key_size` frames; empty when there is none.  With the
// headline's function, the structure its memory belongs to: a helper of
// the program's own that allocates for two callers (its own strdup, for a
// ring of lines and for a query's pattern) builds two structures, one for
// each, which a person sees as two bands.
std::string_view headline_caller(const Model& model, std::span<const FrameId> frames,
                                 std::size_t key_size);

// The nodes of the profile's sites born before `h`, their copies followed;
// each node's kept bytes by epoch add up to its kept_total.
std::vector<Node> nodes_of(const Model& model, const FindingHeadlines& headlines, std::uint32_t h);

// Without lifetimes (a massif.out file, or --leaks-from=curves), the table
// read off the curves (curve_nodes.cpp): the epochs are the intervals
// between snapshots with site data (of SeriesBuilder::snapshots, its
// points), at most kCurveEpochs of them (every n-th point a boundary, the
// last one too), boundary 0 at time 0 (nothing held before the first point).
inline constexpr std::size_t kCurveEpochs = 1024;
struct CurveClock {
  std::vector<std::size_t> points;      // the point of boundary k >= 1 at [k - 1]
  std::vector<std::uint64_t> times;     // boundary k's time, k in [0, epochs]
  std::vector<std::size_t> snapshots;   // the snapshot of boundary k >= 1 at [k - 1]
};
CurveClock curve_clock(const Model& model, const SeriesBuilder& builder);

// The structures (the sites of one headline function) as nodes read off
// their curves, before horizon `h`: the floor of the structure's series
// (the least it holds from each boundary to h) rises by its kept bytes,
// which an epoch in which it rises keeps as one survivor; what it holds
// above its floor at a boundary is born in the epoch before it and dies
// in the one after (its working set); no free stacks.
std::vector<Node> nodes_of_curves(const Model& model, const FindingHeadlines& headlines,
                                  const SeriesBuilder& builder, const CurveClock& clock,
                                  std::uint32_t h);

// The node's bytes alive across each epoch boundary of [0, h].
std::vector<double> alive_across(const Node& n, std::uint32_t h);

// The survivors of epoch e: its kept blocks, one at least if it kept bytes.
std::uint64_t survivors(const Node& n, std::uint32_t e);


}  // namespace strata::detail
