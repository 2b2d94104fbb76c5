// SPDX-License-Identifier: GPL-2.0-or-later
// Exports of a profile for other tools (`strata convert`): a massif.out file
// for ms_print and massif-visualizer, and collapsed stacks for flame-graph
// tools (flamegraph.pl, inferno, speedscope).
//
// The analyses (massif_snapshots, collapsed_at, collapsed_growth) turn the
// model into plain structs; the writers only print them.  Names are data:
// each writer escapes what would break its format's lines (export_name).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/heap_analysis.hpp"
#include "analyze/leaks.hpp"
#include "model/model.hpp"

namespace strata {

// `text` with the characters that would break a line of an export escaped:
// TAB, newline and carriage return as \t, \n, \r, other control characters
// and every character of `also` as \xNN, but a backslash, when `also` has
// one, as \\.
std::string export_name(std::string_view text, std::string_view also = "");

// ---- massif.out ------------------------------------------------------------------

// A node of a massif heap tree: a frame and the bytes under it, or the
// entries under massif's threshold put together (`below` of them).
struct MassifNode {
  FrameId frame{};
  std::uint64_t bytes = 0;
  std::size_t below = 0;             // > 0: "in N places, all below massif's threshold"
  std::vector<MassifNode> children;  // the most bytes first
};

struct MassifSnapshot {
  std::uint64_t time = 0;
  std::uint64_t heap = 0;
  std::uint64_t extra = 0;
  std::uint64_t stacks = 0;
  enum class Tree : std::uint8_t { empty, detailed, peak } tree = Tree::empty;
  std::uint64_t tree_bytes = 0;   // the root's bytes: the sites' sum
  std::vector<MassifNode> roots;  // the allocating frames, the most bytes first
};

// Every snapshot of `model`; those with site data carry the tree of their
// sites (entries under `threshold` percent of the snapshot's heap put
// together, as massif does), the peak (peak_snapshot) marked.
std::vector<MassifSnapshot> massif_snapshots(const Model& model, double threshold);

// The massif.out file: "desc:" gives the recording options and says what the
// format cannot hold (each interval's lows and highs, the markers) with
// --strata-convert-dropped=interval-lows,markers.
void write_massif(const Model& model, const std::vector<MassifSnapshot>& snapshots,
                  double threshold, std::ostream& out);

// ---- collapsed stacks ------------------------------------------------------------

// A stack, outermost frame first, and its bytes.
struct CollapsedStack {
  std::vector<FrameId> frames;
  std::uint64_t bytes = 0;
};

// The heap at snapshot `snapshot`: one stack per site holding bytes.
std::vector<CollapsedStack> collapsed_at(const Model& model, std::size_t snapshot);

// What the leak suspects gained: for each site of a suspect's context, what
// it held at the suspect's last trough less what it held at its first (the
// least it held in those intervals), when that is more than nothing.
std::vector<CollapsedStack> collapsed_growth(const Model& model, const HeapAnalysis& analysis);

// The snapshot that shows the heap as it was at `time`: the last one at or
// before it; an Error when the profile starts after it.
std::size_t snapshot_at(const Model& model, std::uint64_t time);

// "main;player_play;frame_alloc 3226272", a line a stack (stacks with the
// same names added up), each frame's name escaped (export_name) so that
// `;` and line breaks cannot split it.
void write_collapsed(const Model& model, const std::vector<CollapsedStack>& stacks,
                     std::ostream& out);

}  // namespace strata
