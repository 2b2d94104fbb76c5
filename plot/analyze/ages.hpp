// SPDX-License-Identifier: GPL-2.0-or-later
// The heap by age (`strata plot --by=age`): the bytes of some sites alive at
// each epoch boundary, by the part of the run they were born in.  Each part
// is a layer; stacked from the oldest, they show the heap as strata: a leak
// is old layers that never thin out, a cache layers that are worn away.
//
// The parts are the program's cycles when it has them (cycles.hpp: each
// cycle the epochs that start in it, with a layer for the epochs before the
// first), else tenths of the run.  The cells have epoch resolution, so a
// part is a run of whole epochs, and the layers are known exactly at the
// epoch boundaries (lifetimes.hpp), the last one, at the end of the run,
// holding what was never freed (as the graph by site ends with the final
// snapshot, after a release at exit).  A layer is named by the cycles from
// the one under way at its first epoch's start to the one before the next
// layer's: every cycle is named once, and a cycle shorter than an epoch
// with the epoch it was born in.  At most kMaxAgeLayers layers are drawn,
// consecutive cycles taken together.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analyze/cycles.hpp"
#include "model/model.hpp"

namespace strata {

// The most layers: ten, as the tenths of a run without cycles; more would
// be bands too thin to tell apart (a run has 33 to 64 epochs).
constexpr std::size_t kMaxAgeLayers = 10;

struct AgeLayer {
  std::uint32_t from = 0;  // the epochs [from, to) its bytes were born in
  std::uint32_t to = 0;
  // By cycles: the cycles it is named by, from 1 (0: before the first): from
  // the one under way at its start to the one before the next layer's.
  std::size_t first_cycle = 0;
  std::size_t last_cycle = 0;
  std::uint64_t born = 0;            // bytes born in it (in the sites)
  std::vector<std::uint64_t> bytes;  // alive at each boundary 0..epochs
};

struct AgeLayers {
  bool by_cycles = false;            // else by tenths of the run
  std::vector<std::uint64_t> times;  // each boundary's time, 0..epochs (boundary_time)
  std::vector<AgeLayer> layers;      // oldest first
};

// The layers of `sites` (all of them when `sites` is empty is not assumed:
// pass every site to get the whole heap).  Empty (no layer) without lifetimes.
AgeLayers age_layers(const Model& model, std::span<const SiteId> sites, const Cycles& cycles);

// The sites with a frame of function `function` (its name as the profile
// gives it, e.g. `gst_buffer_new_allocate` or `Cache::put(int)`).
std::vector<SiteId> sites_of_function(const Model& model, const std::string& function);

}  // namespace strata
