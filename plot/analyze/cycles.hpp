// SPDX-License-Identifier: GPL-2.0-or-later
// The program's cycles, which leak detection judges a context across: from
// STRATA_MARK markers when a label recurs, else from the rhythm of the total
// heap (its autocorrelation, or its crossings of its median band when cycle
// lengths vary), else none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace strata {

// Where the cycles come from.
enum class CycleSource : std::uint8_t {
  none,     // no cycles found: only steady growth is looked for
  markers,  // a STRATA_MARK label that recurs
  rhythm,   // the period of the total heap's oscillation
};

struct Cycles {
  CycleSource source = CycleSource::none;
  std::string label;                       // the marker label that starts each cycle (markers)
  std::vector<std::uint64_t> starts = {};  // the time each cycle starts, increasing; the last
                                           // cycle runs to the end of the profile
  std::vector<std::uint64_t> ticks = {};   // markers: each start's tick (Marker::tick), for
                                           // placing it among the epochs; else empty
  double period = 0;                       // the median cycle length, in the time unit

  std::size_t count() const { return starts.size(); }
};

// Shared with the rules (leak_rules.cpp): a release at exit starts within
// this share of the run from its end (it is not a cycle), and a last cycle
// cut short by the end counts from this share of a period.
constexpr double kReleaseTail = 0.3;
constexpr double kMinLastCycle = 0.75;

// The cycles of a profile: markers(), else rhythm() of the total heap at the
// snapshots, else none.
Cycles find_cycles(const Model& model);

// The cycles from markers: the label put most often, if at least 3 times.
Cycles cycles_from_markers(const Model& model);

// The cycles of a series from its own rhythm (the autocorrelation of the
// detrended series, at regular times); none when it has no clear period or
// fewer than 3 cycles.
Cycles cycles_from_rhythm(std::span<const std::uint64_t> times,
                          std::span<const std::uint64_t> bytes);

}  // namespace strata
