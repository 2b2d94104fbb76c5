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
#include "util/object_tally.hpp"

namespace strata {

struct BlindSpots {
  bool no_heap = false;                   // a complete heap profile without a single block
  std::string python;                     // a Python interpreter's object in the stacks, else empty
  std::vector<std::string> unsymbolised;  // objects most of whose frames have no symbol
};

// The facts the blind spots are judged on, one profile's: from its Model,
// or gathered by strata record from a native profile's lines as it names
// them (record.hpp, NativeNaming), so that it need not read it again.
struct BlindSpotFacts {
  bool complete = false;        // it ends with X: not cut short, not stopped (Q)
  bool sites = false;           // it has a site
  bool heap = false;            // a snapshot holds heap
  std::string heap_option;      // its opt heap, empty without one
  std::string pages_as_heap;    // its opt pages_as_heap
  ObjectTally objects;          // its frames, by object
};

BlindSpotFacts blind_spot_facts(const Model& model);

// The blind spots of one profile.
BlindSpots blind_spots(const BlindSpotFacts& facts);
BlindSpots blind_spots(const Model& model);

// Those of several profiles of one run: no heap when none has any.
void merge(BlindSpots& into, const BlindSpots& more);

}  // namespace strata
