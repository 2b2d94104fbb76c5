// SPDX-License-Identifier: GPL-2.0-or-later
// The heap at chosen moments, for the trees of the page of `strata plot`:
// the bytes of every site at some snapshots, as sites_at() gives them (a
// complete snapshot, a peak, gives its own; another, the chain's state
// there), found in one replay of the chain and kept as the changes from one
// moment to the next, so that a page holds few numbers for many moments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "model/model.hpp"

namespace strata {

struct Moment {
  std::size_t snapshot = 0;  // index into Model::snapshots
  // The sites whose bytes differ from the moment before's (from 0 for the
  // first), with their bytes now; by SiteId.
  std::vector<std::pair<SiteId, std::uint64_t>> changes;
};

// The snapshots of a page's moments: at most about `count` (the first
// snapshot of each of `count` equal slices of the run's time), with the
// peak and the last snapshot; in order, each once.
std::vector<std::size_t> moment_snapshots(const Model& model, std::size_t count);

// The moments at `snapshots` (ascending indices into Model::snapshots).
std::vector<Moment> moments_at(const Model& model, std::span<const std::size_t> snapshots);

// The bytes of every site at snapshot `snapshot`, by SiteId (sites_at).
std::vector<std::uint64_t> site_bytes_at(const Model& model, std::size_t snapshot);

}  // namespace strata
