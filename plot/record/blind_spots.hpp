// SPDX-License-Identifier: GPL-2.0-or-later
// What a profile cannot see, told to a new user in one line each: strata
// record says it on stderr after the run, strata report at the end of its
// text.  Each comes from facts of the profile (strata record adds those
// only it knows: the environment, the execs its ledger noted).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace strata {

struct BlindSpots {
  bool no_heap = false;                   // a complete heap profile without a single block
  std::string python;                     // a Python interpreter's object in the stacks, else empty
  std::vector<std::string> unsymbolised;  // objects most of whose frames have no symbol
};

// The blind spots of one profile.
BlindSpots blind_spots(const Model& model);

// Those of several profiles of one run: no heap when none has any.
void merge(BlindSpots& into, const BlindSpots& more);

// One line each.  `pymalloc`: whether Python's allocator was on (strata
// record knows it from PYTHONMALLOC), nullopt when unknown (a report).
std::vector<std::string> blind_spot_lines(const BlindSpots& spots, std::optional<bool> pymalloc);

}  // namespace strata
