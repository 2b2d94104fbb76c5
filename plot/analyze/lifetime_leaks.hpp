// SPDX-License-Identifier: GPL-2.0-or-later
// Leak findings from the lifetime table (model.hpp, Lifetimes): a leak is
// memory that the program keeps leaving behind, all through the run.
// docs/design.md, "Leak detection from lifetimes", gives the method, each
// parameter and why it separates a leak from a decoy.
//
// In short:
//   1. The horizon.  The run's work ends with the last epoch in which the
//      program makes at least kActiveShare of a mean epoch's births; the
//      horizon H is kExitEpochs before that end.  A byte is *kept* when it
//      was born before H and is still alive at H: never freed, or freed in
//      the release at exit.
//   2. Nodes.  The sites are cut at their headline (the frame where the code
//      can be fixed, FindingHeadlines): the sites with the same frames from
//      the allocation out to the headline are one node.
//   3. Steady retention.  A node's span, from its first birth to H (at
//      least kMinSpan epochs in which the program works), is cut
//      into kParts parts of equal work (the program's births), and of whole
//      cycles when the cycles are known; r_q is the share of the bytes born
//      in part q that are kept.  A node leaks when every part keeps some
//      (r_q > 0) and the least-keeping part keeps at least kSteady of the
//      most-keeping one's share, in either cut.  A part in a pause of the
//      node's cadence is left out: a container grown by a factor (kGrowth
//      at most) when full makes its steps at gaps that grow by that factor,
//      and a stretch without births that the gaps before it predict (the
//      kCadence-th stretch in a row to keep the cadence) is no evidence that
//      it stopped.  A container that grows by copying itself (one block
//      replaced by a larger one) carries its old bytes' births on.  A
//      start-up table keeps only its first part, a cache and a random walk
//      keep mostly the newest, temporaries, batches and a working set keep
//      nothing.  A node that churned before it started to keep is judged
//      from its first kept birth (a late start, kKeptSpan of its span at
//      least, new blocks).
//   4. Turnover.  A steady node is no leak when a node's older bytes (its
//      own too) die, from the first of those deaths on, as its kept bytes
//      are born (at least kReplaced of them, part by part): the entries of a
//      bounded structure replaced, in one line or moving from the line that
//      filled it to the line that replaces them.
//   5. One leak, one finding.  Leaking nodes are joined when they have the
//      same headline function, when the same code frees them in the release
//      at exit (one freer, or one's freer on the other's free stack), or when
//      their kept blocks come from the same epochs in the same proportions
//      (total variation at most kSame) and the code that frees them at exit
//      does not say they are two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analyze/own_code.hpp"
#include "model/model.hpp"

namespace strata {

// The parameters (docs/design.md says why each is what it is).
inline constexpr std::uint32_t kExitEpochs = 2;  // the release at exit: the work's last 2 epochs
inline constexpr double kActiveShare = 0.01;     // the work ends with 1% of a mean epoch's births
inline constexpr std::size_t kParts = 4;         // the span cut in 4 parts
inline constexpr std::uint32_t kMinSpan = 2 * kParts;  // 2 epochs a part: an empty part shows
inline constexpr double kSteady = 0.6;                 // least-keeping part / most-keeping part
inline constexpr double kGrowth = 2.0;      // a container grows by 2 at most: so do its gaps
inline constexpr std::size_t kCadence = 4;  // a pause: the 4th stretch in a row that keeps it
inline constexpr double kCopyGrowth = 1.5;  // a container that copies itself grows by 1.5 at least
inline constexpr double kKeptSpan = 0.5;    // a late start keeps from half its span at least
inline constexpr double kReplaced = 0.75;   // a turnover replaces 3/4 of the kept bytes
inline constexpr double kSame = 0.35;       // total variation of one structure's births
inline constexpr double kSmallShare = 1.0;  // percent of the peak: smaller findings listed apart
inline constexpr std::size_t kWrapperFanIn = 3;  // a function allocating for 3 callers: a wrapper

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

// One node of a finding: sites with the same frames out to the headline.
struct FindingPart {
  std::vector<FrameId> frames;  // from the allocation out to the headline frame
  std::vector<SiteId> sites;
  SiteId main_site{};  // the site that keeps the most
  std::uint64_t kept_bytes = 0;
  std::uint64_t alive_bytes = 0;  // of all its sites, alive at the end (never freed)
};

struct Finding {
  std::vector<FindingPart> parts;  // the most kept first
  std::vector<SiteId> sites;       // of all parts, sorted
  std::uint64_t kept_bytes = 0;
  std::uint64_t kept_blocks = 0;
  std::uint64_t alive_bytes = 0;             // alive at the end of the run, never freed
  std::uint64_t exit_freed_bytes = 0;        // kept bytes freed at or after the horizon
  std::vector<double> retention;             // r_q of its main part, one per part of its span
  std::uint32_t first_epoch = 0;             // of its main part's span
  std::vector<std::uint64_t> kept_by_epoch;  // kept bytes by birth epoch, [0, horizon)
  // The free stack (id, from 1) that frees most of the kept bytes in the
  // release at exit, when it frees at least what is still alive at the end; else 0.
  std::uint32_t holder = 0;
  // The frame of that stack that holds the memory (FindingHeadlines::holder); none without one.
  std::optional<FrameId> holder_frame;
  bool freed_at_exit() const { return 2 * exit_freed_bytes >= kept_bytes && kept_bytes > 0; }
};

struct LifetimeLeaks {
  std::uint32_t epochs = 0;
  std::uint32_t work_end = 0;  // the last epoch of the work (see above)
  std::uint32_t horizon = 0;
  std::vector<Finding> findings;  // the most kept first
};

// The headline of an allocation stack, for findings: the frame where the code
// can be fixed.
//   - The first frame in the program's own code (OwnCode), but a wrapper of
//     the program's own (a function called from kWrapperFanIn or more
//     functions over all the profile's stacks, such as xalloc(size, tag))
//     hands the headline to its caller, unless that is main.
//   - With no own frame (a library's thread allocates): the first named
//     frame that is neither an allocator or a known wrapper nor called from
//     kWrapperFanIn places (gst_buffer_new_allocate, not g_malloc).
//   - Else the first named frame, else 0.
class FindingHeadlines {
 public:
  FindingHeadlines(const Model& model, const OwnCode& own);
  // The index of the headline in `frames` (a stack of the model's, innermost first).
  std::size_t headline(std::span<const FrameId> frames) const;
  // The frame of a free stack that holds the memory it frees: its outermost
  // own frame below main (the code that holds it, not its helper), else its
  // first own frame, else its headline as an allocation stack's.
  std::size_t holder(std::span<const FrameId> frames) const;
  // The frame of a free stack that does the freeing: its innermost own
  // frame that is not a wrapper of the program's frees (a function through
  // which kWrapperFanIn or more functions free, over all the free stacks,
  // such as xfree), else its first own frame; none without an own frame.
  std::optional<std::size_t> freer(std::span<const FrameId> frames) const;
  // The code that builds what an allocation stack allocates: the first
  // named frame beyond its headline (`head`), when it is the program's own
  // and not main; none otherwise.
  std::optional<std::size_t> builder(std::span<const FrameId> frames, std::size_t head) const;

 private:
  // Whether frames[i] is in a library (OwnCode::library, with each frame's own verdict cached).
  bool library(std::span<const FrameId> frames, std::size_t i) const;
  bool generic(FrameId frame) const;

  const Model& model_;
  std::vector<bool> library_;             // FrameId -> in a library by itself
  std::vector<std::size_t> fan_in_;       // FrameId -> the distinct callers of its function
  std::vector<std::size_t> free_fan_in_;  // FrameId -> the same over the free stacks
};

// The cycles (of `starts`, times increasing, the last running to the end)
// that begin before the horizon, and of those the ones that overlap an
// epoch in which some of `finding`'s kept bytes were born (as far as the
// epochs tell: a cycle shorter than an epoch shares its epoch's verdict).
struct CyclesLeft {
  std::size_t cycles = 0;
  std::size_t left = 0;
};
CyclesLeft cycles_left(const Model& model, std::span<const std::uint64_t> starts,
                       const Finding& finding, std::uint32_t horizon);

// The findings of a profile with lifetimes (Model::has_lifetimes); none when
// its epochs are too few to judge.
// `cycle_starts`: the program's cycles as its markers give them (cycles.hpp),
// times increasing; a node may then also be judged in parts of whole cycles.
// None: the program's bursts of work are its cycles (work_bursts).
LifetimeLeaks find_lifetime_leaks(const Model& model, const OwnCode& own,
                                  std::span<const std::uint64_t> cycle_starts = {});

}  // namespace strata
