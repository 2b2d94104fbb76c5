// SPDX-License-Identifier: GPL-2.0-or-later
// Exports of a profile for other tools (`strata convert`): a massif.out file
// for ms_print and massif-visualizer, collapsed stacks for flame-graph
// tools (flamegraph.pl, inferno, speedscope), and pprof profiles for go tool
// pprof and continuous profiling (Pyroscope, Parca).
//
// The analyses (massif_snapshots, collapsed_at, collapsed_growth) turn the
// model into plain structs; the writers only print them.  Names are data:
// each writer escapes what would break its format's lines (export_name).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
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

// What --to=massif writes, with massif's own defaults: a snapshot with site
// data is detailed (carries the tree of its sites) when it is every
// detailed_freq-th, the peak or the last; in a tree, the entries under
// threshold percent of the snapshot's heap are put together.
struct MassifOptions {
  double threshold = 1.0;
  std::uint64_t detailed_freq = 10;
};

// The massif.out file, written a snapshot at a time: what it holds in memory
// is one snapshot's sites, never the file.  "desc:" gives the recording
// options, the options of the export, what the format cannot hold (each
// interval's lows and highs, the markers) with
// --strata-convert-dropped=interval-lows,markers, and, for a profile cut
// short, --strata-cut-short=yes (and --strata-stopped=REASON, the reason
// strata gave), which read_massif takes back.
void write_massif(const Model& model, const MassifOptions& options, std::ostream& out);

// About how many bytes write_massif() writes: the lines outside the trees
// exactly, the trees from at most kSizeSampleTrees of them, evenly spaced.
std::uint64_t massif_size(const Model& model, const MassifOptions& options);

constexpr std::size_t kSizeSampleTrees = 64;

// ---- collapsed stacks ------------------------------------------------------------

// A stack, outermost frame first, and its bytes.
struct CollapsedStack {
  std::vector<FrameId> frames;
  std::uint64_t bytes = 0;
};

// The heap at snapshot `snapshot`: one stack per site holding bytes.
std::vector<CollapsedStack> collapsed_at(const Model& model, std::size_t snapshot);

// What the sites' allocation calls did over the run (a profile with counts,
// Model::has_counts): one stack per site with its calls, the bytes they
// asked for, or its temporary allocations, when that is more than nothing.
enum class CountCost : std::uint8_t { allocations, allocated, temporary };
std::vector<CollapsedStack> collapsed_counts(const Model& model, CountCost cost);

// What the leak suspects gained: for each site of a suspect's context, what
// it held at the suspect's last trough less what it held at its first (the
// least it held in those intervals), when that is more than nothing.
std::vector<CollapsedStack> collapsed_growth(const Model& model, const HeapAnalysis& analysis);

// The snapshot that shows the heap as it was at `time`: the last one at or
// before it; an Error when the profile starts after it.
std::size_t snapshot_at(const Model& model, std::uint64_t time);

// What to say when the stacks at snapshot `snapshot` are not its own sites,
// or do not add up to its useful heap (sites_from, summary.hpp): a
// massif.out file gives sites only at its detailed snapshots ("snapshot 12
// at time 5000 (the peak) gives no sites: the stacks are those of snapshot 9
// at time 3000, 2000 earlier, whose sites hold 4096 bytes (its useful heap:
// 4096; at snapshot 12: 8192)"); empty when they are its own and add up.
// `asked` says what was asked for ("the peak", "--at=5500").
std::string sites_note(const Model& model, std::size_t snapshot, const std::string& asked);

// `name` as a frame of collapsed stacks: a backslash as \\, `;` as \x3b,
// and what a terminal or an XML parser would not show as text escaped as
// the report does (shown.hpp): control characters as \t, \n, \r or \xNN,
// bytes that are not UTF-8 as \xNN, C1 controls, bidirectional controls,
// U+FFFE and U+FFFF as \uNNNN.  So flamegraph.pl writes valid XML.
std::string collapsed_name(std::string_view name);

// "main;player_play;frame_alloc 3226272", a line a stack (stacks with the
// same names added up, the sum saturating at 2^64-1 as the counts' do:
// model.hpp, kCountsMax), each frame's name escaped (collapsed_name) so
// that `;` and line breaks cannot split it.  Returns how many lines weigh
// 2^64-1: that much or more.
std::size_t write_collapsed(const Model& model, const std::vector<CollapsedStack>& stacks,
                            std::ostream& out);

// ---- pprof -----------------------------------------------------------------------

// The leak findings as a pprof profile holds them (a profile with
// lifetimes): what each site keeps of a finding (collapsed_growth's
// bytes), and which finding it belongs to.
struct PprofLeaks {
  std::vector<std::uint64_t> kept;       // SiteId -> bytes kept
  std::vector<std::uint32_t> finding;    // SiteId -> 1 + index into names; 0: none
  std::vector<std::string> names;        // "#1 frame_alloc": the report's number and headline
};

PprofLeaks pprof_leaks(const Model& model, const HeapAnalysis& analysis);

// One profile of --to=pprof: the heap at a moment, and over a window of the
// run (the whole run for one file; a file of a series, from its moment to
// the next).
struct PprofMoment {
  std::size_t snapshot = 0;  // the heap (inuse_space, inuse_objects) is this snapshot's
  std::uint64_t time = 0;    // the moment, in the profile's time unit (the phase is the
                             // last marker at or before it)
  std::string asked;         // how it was chosen, for the comments: "the peak", "--at=5000"
  std::uint64_t from = 0;    // the window, in the profile's time unit
  std::uint64_t to = 0;
};

// What goes in besides the heap.
struct PprofContent {
  bool counts = false;               // alloc_space, alloc_objects (Model::has_counts)
  const PprofLeaks* leaks = nullptr;  // leaked_space and the finding labels, when given
  // The wall-clock time of the run's end, in ns since 1970 (a profile in
  // ms only): time_nanos and duration_nanos are written with it.
  std::optional<std::int64_t> end_nanos;
  std::string note;  // a comment more ("--born=..: the selected bytes"), when not empty
};

// Writes the gzip-compressed profile.proto message: a sample per site with
// a value (its whole stack, innermost location first), `state` every
// site's bytes and blocks at the moment, by SiteId (replay_states).  Names
// are written as shown() makes them, so every string is valid UTF-8.
void write_pprof(const Model& model, const PprofMoment& moment, std::span<const SiteSample> state,
                 const PprofContent& content, std::ostream& out);

}  // namespace strata
