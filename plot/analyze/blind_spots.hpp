// SPDX-License-Identifier: GPL-2.0-or-later
// What a profile cannot see, from its facts: no heap allocation at all, a
// Python interpreter (whose own allocator strata does not see), objects
// without symbols.  strata record and strata report say it in words
// (view/blind_spot_words.hpp); strata record adds what only it knows (the
// environment, the execs its ledger noted).
#pragma once

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

}  // namespace strata
