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
//      the release at exit.  Its blocks are the node's *survivors*.
//   2. Nodes and structures.  The sites are cut at their headline (the
//      frame where the code can be fixed, FindingHeadlines): the sites with
//      the same frames out to the headline, called from the same function,
//      are one node, and the nodes of one headline function called from one
//      function one structure, judged as one.  A container
//      that grows by copying itself carries its old bytes' births on.
//   3. One judgement, two lines of evidence, over the span from the first
//      survivor to H (kMinSpan epochs of work at least, kMinBlocks
//      survivors at least, an epoch with kept bytes counting one at least):
//      the graph's, the floor of the structure's band (the least it holds
//      from each moment to H, above the most it held before the span) rises
//      in every part of the span with the bytes kept of those born in it
//      (kRise at least): a cache, a table over a fixed key space, a random
//      walk or a pool keeps its newest entries while its floor stays level;
//      and the lifetimes', the survivors were born all through the span:
//      neither half of it (of its work, or of its cycles) holds fewer than
//      kLevel of its share of them when chance would leave so few less than
//      kChance of the time, or none (it levels off: a start-up table, a
//      table filled; or only the newest survive).  One that is no leak up
//      to H, whose code stopped past kOwnRun of the run's time, or in a
//      thread that made nothing after it (the thread ended), is judged
//      again up to there (own_end).
//   4. One leak, one finding.  Leaking nodes are joined when they are one
//      structure, or structures of one helper whose code that frees the
//      most of each during the run is the same, or when their kept blocks come from the same
//      epochs in the same proportions (total variation at most kSame; not
//      exactly the same, some code of the program's own on both stacks
//      from their headlines out, not main, or one owning the other (the
//      code that frees most of it during the run frees some of the other),
//      and born together: a
//      correlation of kTogether at least of their kept blocks, epoch by
//      epoch, or freed by the same code at exit) and
//      the code that frees them at exit does not say they are two: the same
//      code frees them in the release at exit (one freer, or one's freer on
//      the other's free stack), or not both are freed there.  After the
//      first, the joins compare structures (a structure's parts never freed
//      at exit, or freed at exit by one freer, added up), not their places;
//      the structure that owns every other one is the finding's main part
//      (of several, the one whose blocks that code freed oldest).
//   A forked child whose own run holds fewer epochs than the least span is
//   judged on its curves (lifetimes_judge_own_run).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analyze/headlines.hpp"
#include "analyze/lifetime_nodes.hpp"
#include "analyze/own_code.hpp"
#include "model/model.hpp"

namespace strata {

// One node of a finding: sites with the same frames out to the headline.
struct FindingPart {
  std::vector<FrameId> frames;  // from the allocation out to the headline frame
  std::vector<SiteId> sites;
  SiteId main_site{};  // the site that keeps the most
  std::uint64_t kept_bytes = 0;
  std::uint64_t alive_bytes = 0;  // of all its sites, alive at the end (never freed)
};

struct Finding {
  std::vector<FindingPart> parts;  // its main structure's first (main_first), then the most kept
  std::vector<SiteId> sites;       // of all parts, sorted
  std::uint64_t kept_bytes = 0;
  std::uint64_t kept_blocks = 0;
  std::uint64_t alive_bytes = 0;             // alive at the end of the run, never freed
  std::uint64_t exit_freed_bytes = 0;        // kept bytes freed at or after the horizon
  std::vector<double> retention;             // r_q of its main part, one per part of its span
  std::uint32_t first_epoch = 0;             // of its main part's span
  std::uint32_t end_epoch = 0;  // the end of that span: the horizon, or where its code stopped
  std::vector<std::uint64_t> kept_by_epoch;  // kept bytes by birth epoch, [0, horizon)
  // The free stack (id, from 1) that frees most of the kept bytes in the
  // release at exit, when it frees at least what is still alive at the end; else 0.
  std::uint32_t holder = 0;
  // The frame of that stack that holds the memory (FindingHeadlines::holder); none without one.
  std::optional<FrameId> holder_frame;
  // Its headline as the report names it: the frame of its main site's stack
  // that calls its main part's headline, when that code frees the most of
  // its bytes that die during the run (owner_frame in lifetime_leaks.cpp):
  // where the path that leaks one is; none otherwise.
  std::optional<FrameId> owner;
  bool freed_at_exit() const { return 2 * exit_freed_bytes >= kept_bytes && kept_bytes > 0; }
  // The end of its main part's span: end_epoch, within (first_epoch, horizon], else the horizon.
  std::uint32_t span_end() const {
    auto horizon = static_cast<std::uint32_t>(kept_by_epoch.size());
    return end_epoch > first_epoch && end_epoch < horizon ? end_epoch : horizon;
  }
};

struct LifetimeLeaks {
  bool from_curves = false;  // judged from the curves (find_curve_leaks)
  std::uint32_t epochs = 0;
  std::vector<std::uint64_t> boundaries;  // epoch boundary k's time, k in [0, epochs]
  std::vector<std::size_t> snapshots;     // from the curves: boundary k's snapshot at [k - 1]
  std::uint32_t work_end = 0;  // the last epoch of the work (see above)
  std::uint32_t horizon = 0;
  std::vector<Finding> findings;  // the most kept first
  std::vector<PassedOverStructure> passed_over;  // the most kept first
};

// The cycles (of `starts`, increasing, the last running to the end) that
// begin before the horizon, and of those the ones that overlap an epoch in
// which some of `finding`'s kept bytes were born (as far as the epochs
// tell: a cycle shorter than an epoch shares its epoch's verdict).
// `boundaries` and `starts` are in one unit: times, or ticks (the
// lifetimes' epochs, Marker::tick).
struct CyclesLeft {
  std::size_t cycles = 0;
  std::size_t left = 0;
};
CyclesLeft cycles_left(std::span<const std::uint64_t> boundaries,
                       std::span<const std::uint64_t> starts, const Finding& finding,
                       std::uint32_t horizon);

// The findings of a profile with lifetimes (Model::has_lifetimes); none when
// its epochs are too few to judge.
// `cycle_ticks`: the program's cycles as its markers give them (cycles.hpp),
// the ticks of their starts, increasing (Marker::tick: in the file's order
// among the epochs); a node may then also be judged in parts of whole
// cycles.  None: the program's bursts of work are its cycles (work_bursts).
LifetimeLeaks find_lifetime_leaks(const Model& model, const OwnCode& own,
                                  std::span<const std::uint64_t> cycle_ticks = {});
// The same, with the headlines of the analysis that judges them (heap_analysis.cpp).
LifetimeLeaks find_lifetime_leaks(const Model& model, const FindingHeadlines& headlines,
                                  std::span<const std::uint64_t> cycle_ticks = {});

// Whether the lifetimes cut this process's own run, from its start to the
// horizon, into epochs enough to judge a span of it (the least span,
// kMinSpan of kToolEpochs): a forked
// child's run begins at the fork, in its parent's clock, whose epochs have
// grown with the parent's run; a child that runs briefly after it holds a
// few of them, and is judged on its curves (its snapshots, its own).
bool lifetimes_judge_own_run(const Model& model);

// The findings of a profile judged from its curves alone (a massif.out file,
// or --leaks-from=curves): the same judgement of the same structures, on
// the table nodes_of_curves reads off their series (lifetime_nodes.hpp):
// the floor's rises are the kept bytes, an epoch (the interval between two
// snapshots with site data, its length in time its work) in which the
// floor rises one survivor; no free stacks.
LifetimeLeaks find_curve_leaks(const Model& model, const FindingHeadlines& headlines,
                               const SeriesBuilder& builder,
                               std::span<const std::uint64_t> cycle_starts = {});

}  // namespace strata
