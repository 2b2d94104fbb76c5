// SPDX-License-Identifier: GPL-2.0-or-later
// Leak suspects: the verdict on a context whose memory keeps growing.
// docs/design.md, "Leak detection", gives the method and its thresholds.
//
// First the program's cycles (cycles.hpp).  Then each context's series
// (series.hpp) is judged on its own (judge_series, leak_rules.cpp):
//   - a rising trough: the lowest level the context falls to in each cycle
//     (using the per-interval minimum, so a trough between two snapshots
//     counts) goes up across the cycles, steadily and by a clear margin;
//   - steady growth: without cycles, the context's floor (the least it holds
//     from any moment to the end) climbs over most of the run.
// A cache that plateaus, a temporary buffer, a working set built up and
// released, waves of different heights and a start-up allocation are not
// suspects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "analyze/cycles.hpp"
#include "analyze/lifetime_leaks.hpp"
#include "analyze/series.hpp"
#include "model/model.hpp"

namespace strata {

// rising_trough and steady_growth are judged from the curves (files without
// lifetimes); a finding from the lifetimes (lifetime_leaks.hpp) is
// left_behind when the program's cycles each left some of it behind, else
// steady_growth (a batch program's growth and a leak look alike there).
enum class LeakKind : std::uint8_t { rising_trough, steady_growth, left_behind };

// The lowest a context fell to in one cycle (rising trough), or one point of
// its floor (steady growth).
struct Trough {
  std::size_t cycle = 0;     // index into Cycles::starts (0 for steady growth)
  std::size_t snapshot = 0;  // index into Model::snapshots: where the low was seen
  std::uint64_t time = 0;
  std::uint64_t bytes = 0;
};

// A part of a suspect's growth: what one caller of its node in the call tree
// (one code address further) gained, or the node's own sites (the stacks that
// end at it).
struct LeakPart {
  std::vector<FrameId> frames;  // the caller's code address; empty for the node's own sites
  double growth_bytes = 0;      // from the suspect's first trough to its last
};

// The evidence of a suspect judged from its curve (judge_series, leak_rules.cpp).
struct CurveEvidence {
  std::size_t rises = 0;        // troughs higher than the one before (rising trough), or
                                // bins in which the floor rose (steady growth)
  std::size_t steps = 0;        // steady growth in a staircase: its steps; else 0
  double step_factor = 0;       // ... and the median factor of the rise at a step
  std::vector<Trough> troughs;  // one per cycle, or the floor at the start of the run and
                                // at the end of each tenth of it; in time order
  std::vector<LeakPart> parts;  // with the tree, how the growth splits among the node's
                                // callers (those that gained), the most first; else empty
};

// The evidence of a finding from the lifetimes (finding_leak, heap_analysis.cpp).
struct LifetimeEvidence {
  Finding finding;              // its parts, sites and what they kept (lifetime_leaks.hpp)
  std::size_t cycles_left = 0;  // the cycles (of Leak::cycles) that left some behind
};

// A suspect from the curves or a finding from the lifetimes: what both say,
// and the evidence of the one that judged it, chosen once where it is made.
// A finding's context holds all its sites; its `headline` indexes the frames
// of its main part's main site, its context's frames.
struct Leak {
  std::size_t context = 0;  // index into Contexts::contexts (contexts.hpp)
  LeakKind kind = LeakKind::rising_trough;
  double growth_bytes = 0;  // per cycle (rising trough, left behind), per time unit (steady growth)
  std::size_t cycles = 0;   // cycles judged (0 for steady growth from the curves)
  std::uint64_t peak_bytes = 0;
  std::uint64_t end_bytes = 0;
  bool freed_before_exit = false;  // near zero at the end, after rising during the run
  double confidence = 0;           // in [0, 1]
  std::size_t headline = 0;        // index into its context's frames: the first in the
                                   // program's own code (own_code.hpp)
  std::variant<CurveEvidence, LifetimeEvidence> evidence;

  // The evidence when it is of that line; else null.
  const CurveEvidence* curves() const { return std::get_if<CurveEvidence>(&evidence); }
  CurveEvidence* curves() { return std::get_if<CurveEvidence>(&evidence); }
  const LifetimeEvidence* lifetimes() const { return std::get_if<LifetimeEvidence>(&evidence); }
};

struct Leaks {
  Cycles cycles;
  std::vector<Leak> suspects;   // most suspicious first (confidence, then growth over the run);
                                // findings from the lifetimes: the most kept first
  bool from_lifetimes = false;  // judged from the lifetime table (lifetime_leaks.hpp)
  std::uint32_t horizon = 0;    // then: the horizon's epoch boundary
  // Findings under the threshold's share of the peak, listed apart: no
  // context of their own (Leak::context is 0), the most kept first.
  std::vector<Leak> small;
  // The structures that keep bytes and are no finding, with why
  // (lifetime_leaks.hpp), the most kept first, but the small ones (as the
  // small findings are): what the report accounts for.
  std::vector<PassedOverStructure> passed_over;
};

// A suspect's growth over the whole run: its last trough less its first
// (0 for a finding, which has no troughs).
double total_growth(const Leak& leak);

// The verdict on one context's series (points in time order) given the cycles
// and the end of the profile; Leak::context is left 0.
std::optional<Leak> judge_series(std::span<const ContextPoint> series, const Cycles& cycles,
                                 std::uint64_t end_time);

}  // namespace strata
