// SPDX-License-Identifier: GPL-2.0-or-later
// The heap at chosen moments, for the trees of the page of `strata plot`:
// the bytes of every site at some snapshots, as sites_at() gives them (a
// complete snapshot, a peak, gives its own; another, the chain's state
// there), found in one replay of the chain; and the calling-context tree
// at each of them, as `strata report --tree --at=T` shows it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "analyze/context_tree.hpp"
#include "model/model.hpp"

namespace strata {

// The snapshots of a page's moments: at most about `count` (the first
// snapshot of each of `count` equal slices of the run's time), with the
// peak and the last snapshot; in order, each once.
std::vector<std::size_t> moment_snapshots(const Model& model, std::size_t count);

// Calls `visit` with each of `snapshots` (ascending indices into
// Model::snapshots) and every site's bytes and blocks there, by SiteId (as
// sites_at() gives them; min and max are not kept), in one replay of the
// chain, until it returns false.
void replay_states(
    const Model& model, std::span<const std::size_t> snapshots,
    const std::function<bool(std::size_t snapshot, std::span<const SiteSample> state)>& visit);

// The same with the bytes alone.
void replay_moments(
    const Model& model, std::span<const std::size_t> snapshots,
    const std::function<bool(std::size_t snapshot, std::span<const std::uint64_t> bytes)>& visit);

// Calls `visit` with each of `snapshots` and the tree there, as
// tree_lines_at gives it with `threshold`, until it returns false.
void replay_trees(
    const Model& model, const ContextTree& tree, std::span<const std::size_t> snapshots,
    double threshold,
    const std::function<bool(std::size_t snapshot, std::span<const MomentLine> lines)>& visit);

// The bytes of every site at snapshot `snapshot`, by SiteId (sites_at).
std::vector<std::uint64_t> site_bytes_at(const Model& model, std::size_t snapshot);

}  // namespace strata
