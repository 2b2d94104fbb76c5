// SPDX-License-Identifier: GPL-2.0-or-later
// The data model shared by every reader and every analysis.
//
// A profile is a time series of snapshots of one process.  Each snapshot has
// the totals (useful heap, extra heap, stacks) and, for the allocation sites,
// what each held.  Sites are stacks of interned frames.  Per-site data is kept
// as the file gives it, as changes: a snapshot of the "chain" lists only the
// sites that changed since the chain snapshot before it, so memory grows with
// the changes, not with sites x snapshots.  The series engine
// (analyze/series.hpp) turns the chain into series of sites and groups of
// sites; sites_at() gives the full state at one snapshot.
//
// The core invariant: at a chain snapshot, replaying the chain from the start
// gives each site's bytes, and a site not listed held the same bytes all the
// time since the previous chain snapshot.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

enum class FrameId : std::uint32_t {};  // index into Model::frames
enum class SiteId : std::uint32_t {};   // index into Model::sites

constexpr std::size_t index(FrameId id) { return static_cast<std::size_t>(id); }
constexpr std::size_t index(SiteId id) { return static_cast<std::size_t>(id); }

// One frame of a call stack.  Several frames share an address when code was
// inlined: `inlined` is true for each frame inlined into the frame after it.
struct Frame {
  std::uint64_t address = 0;
  bool inlined = false;
  std::string function;  // empty: unknown symbol (print the address)
  std::string file;      // empty: no line information
  std::uint32_t line = 0;
  std::string object;  // the executable or shared library, may be empty
  // Where `address` is in `object`, as `addr2line -e OBJECT` takes it (the
  // address less the object's load bias); unknown in version 1 profiles and
  // massif.out files, and when the tool could not tell.
  std::optional<std::uint64_t> offset;
  // Its source, as its object's DWARF gives it with its directory, is under
  // a system include directory (a header-only library's code compiled into
  // the program: read/name_frames.hpp, mark_system_sources).
  bool system_source = false;

  auto operator<=>(const Frame&) const = default;
};

// An allocation site: its stack, innermost frame first, allocator frames removed.
// What a site's allocation calls did over the whole run (profiles of
// version 3): the calls that made one of its blocks, the bytes they asked
// for, and how many of those blocks were temporary, freed by the next heap
// operation: no allocation and no other free in between (heaptrack's rule).
// A site's counts are exact; a sum of several sites' (a context's, a
// collapsed stack's) saturates at kCountsMax: 2^64-1 there means that many
// or more, and says so where shown ("or more"), never a sum wrapped around.
constexpr std::uint64_t kCountsMax = UINT64_MAX;

// a + b, or kCountsMax when that would pass it.
constexpr std::uint64_t saturated_sum(std::uint64_t a, std::uint64_t b) {
  return a > kCountsMax - b ? kCountsMax : a + b;
}

struct AllocationCounts {
  std::uint64_t calls = 0;
  std::uint64_t allocated = 0;
  std::uint64_t temporary = 0;

  AllocationCounts& operator+=(const AllocationCounts& other) {
    calls = saturated_sum(calls, other.calls);
    allocated = saturated_sum(allocated, other.allocated);
    temporary = saturated_sum(temporary, other.temporary);
    return *this;
  }
};

// One cell of a site's lifetime table (profiles of version 3 with `opt
// lifetimes yes`): the bytes and blocks born in epoch `birth` that died in
// epoch `death` (kAlive: still alive at the end of the file), freed by the
// free stack `freed_by` (0: not known, or born and freed in one epoch).
// Epochs are counted in Lifetimes::epoch_length, the file's last.
constexpr std::uint8_t kAlive = 0xff;

struct LifetimeCell {
  std::uint8_t birth = 0;
  std::uint8_t death = kAlive;
  std::uint32_t freed_by = 0;  // a free stack: index into Lifetimes::free_stacks + 1
  std::uint64_t bytes = 0;
  std::uint64_t blocks = 0;

  bool alive() const { return death == kAlive; }
};

struct Site {
  std::vector<FrameId> frames;
  AllocationCounts counts;  // up to the last complete snapshot; zeros without counts
  // Sorted by (birth, death, freed_by), each once; empty without lifetimes.
  std::vector<LifetimeCell> cells;
};

// When the bytes of the heap were born and died (docs/format.md,
// "Lifetimes"): the run cut into `epochs` epochs of `epoch_length` ticks
// from `t0`, epoch i being [t0 + i * epoch_length, t0 + (i + 1) *
// epoch_length); the last holds the end of the file.  A tick is the time
// unit, or in a profile in milliseconds with `opt epoch_unit` an
// instruction (`i`, under Valgrind) or a byte allocated or freed (`B`,
// natively), whose L records pair ticks with times (`clock`).  The cells are in the
// sites (Site::cells), the records of a shorter length merged pairwise into
// this one.
struct Lifetimes {
  std::uint64_t t0 = 0;            // in ticks
  std::uint64_t epoch_length = 1;  // in ticks
  std::uint32_t epochs = 0;        // 0: no epoch record was read
  bool free_stacks = false;  // `opt free_stacks yes`: deaths across an epoch's end have a stack
  std::vector<std::vector<FrameId>> free_stacks_frames;  // free stack id - 1 -> its frames
  std::string tick_unit;  // "i" or "B" with `opt epoch_unit`; empty: the time unit
  // With a tick_unit: (an epoch's start in ticks, the time of its first
  // event), one an L record, in the order of the file.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> clock;
  // A forked child's (its first record gives births before its own epoch,
  // the blocks it inherited): that record's start, in ticks, where the
  // process's own run begins.  None for a process that made its whole heap.
  std::optional<std::uint64_t> inherited_at;

  // The time of tick `tick` (time units), read off `clock` between its
  // records; the tick itself without a tick unit.
  std::uint64_t time_at(std::uint64_t tick) const;
  // The tick of `time`, the inverse of time_at (time units are coarser:
  // the first tick at that time).
  std::uint64_t tick_at(std::uint64_t time) const;
  // Where epoch boundary `k` is in ticks, and in time units (k = epochs:
  // the end of the last epoch).
  std::uint64_t boundary_tick(std::uint64_t k) const { return t0 + k * epoch_length; }
  std::uint64_t boundary(std::uint64_t k) const { return time_at(boundary_tick(k)); }
  // Time zero in time units.
  std::uint64_t start() const { return time_at(t0); }
  // The epoch that holds `time` (time units; before t0: 0), not bounded by `epochs`.
  std::uint64_t epoch_of(std::uint64_t time) const { return epoch_of_tick(tick_at(time)); }
  // The epoch that holds tick `tick` (before t0: 0), not bounded by `epochs`.
  std::uint64_t epoch_of_tick(std::uint64_t tick) const {
    return tick <= t0 ? 0 : (tick - t0) / epoch_length;
  }
  // The epoch boundary nearest `time`, not bounded by `epochs`.
  std::uint64_t nearest(std::uint64_t time) const { return nearest_to_tick(tick_at(time)); }
  // The epoch boundary nearest tick `tick`, not bounded by `epochs`.
  std::uint64_t nearest_to_tick(std::uint64_t tick) const {
    return tick <= t0 ? 0 : (tick - t0 + epoch_length / 2) / epoch_length;
  }
};

enum class SnapshotKind : std::uint8_t { regular, user, peak, final };

// What a snapshot says about the sites.
enum class SiteData : std::uint8_t {
  none,      // nothing (massif.out snapshots with heap_tree=empty)
  changes,   // a chain snapshot: the sites that changed since the previous one
  complete,  // every site holding bytes, others held 0; outside the chain (peaks)
};

// One site at one snapshot: bytes and live blocks now, and the lowest and
// highest bytes since the previous chain snapshot (both include `bytes`).
struct SiteSample {
  SiteId site{};
  std::uint64_t bytes = 0;
  std::uint64_t blocks = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

struct Snapshot {
  SnapshotKind kind = SnapshotKind::regular;
  std::uint64_t time = 0;    // in Header::time_unit
  std::uint64_t heap = 0;    // useful heap bytes
  std::uint64_t extra = 0;   // allocator overhead bytes
  std::uint64_t stacks = 0;  // stack bytes
  SiteData site_data = SiteData::none;
  std::vector<SiteSample> sites;  // sorted by site; see site_data

  std::uint64_t total() const { return heap + extra + stacks; }
};

struct Marker {
  std::uint64_t time = 0;
  std::string label;
  // Its tick (Lifetimes): its time, or in a profile whose epochs count
  // ticks (opt epoch_unit) the first tick at its time, but not before the
  // end of the last epoch whose L record came before it in the file.  A
  // millisecond may hold many epochs (under Valgrind a short program's
  // whole run fits in a few), and the order of the file places the marker
  // among them where its time cannot.
  std::uint64_t tick = 0;
};

struct Option {
  std::string name;
  std::string value;
};

struct Header {
  std::string cmd;
  std::uint64_t pid = 0;  // 0 when unknown (massif.out)
  std::uint64_t ppid = 0;
  std::string time_unit;  // "i", "ms" or "B"
  std::vector<Option> options;
};

enum class Format : std::uint8_t { strata, massif };

struct Model {
  std::string file;
  Format format = Format::strata;
  Header header;
  std::vector<Frame> frames;        // FrameId -> Frame
  std::vector<Site> sites;          // SiteId -> Site
  std::vector<Snapshot> snapshots;  // in time order (a peak written late is put in its place)
  std::vector<Marker> markers;      // in file order
  std::vector<Marker> forks;        // K records, without labels: when the process forked
  bool cut_short = false;           // ended without `X`: read up to the last complete snapshot
  std::string stop_reason;          // why the tool stopped writing (a `Q` record), else empty
  std::uint64_t end_time = 0;       // time of `X` (or `Q`), else of the last snapshot
  bool has_counts = false;          // the sites' AllocationCounts are known (version 3)
  bool has_lifetimes = false;       // `opt lifetimes yes` (version 3): Site::cells, lifetimes
  Lifetimes lifetimes;

  const Frame& frame(FrameId id) const { return frames[index(id)]; }
  const Site& site(SiteId id) const { return sites[index(id)]; }
};

// The frames of `ids`, spelled out.
std::vector<Frame> frames_of(const Model& model, const std::vector<FrameId>& ids);

// The last option of the profile's header named `name` (an option given
// twice counts as it was last given); null when it has none.
const Option* recorded_option(const Model& model, std::string_view name);

// The stack depth the profile was recorded with (its last "depth" option,
// --depth), if it says.
std::optional<std::size_t> recorded_depth(const Model& model);

// The recorded depth when a stack (`frames`, from the allocation out) was
// cut there: as many frames as it, inlined ones not counted, and the
// outermost no start of the process or of a thread (main, start_thread,
// clone, _start...), so the callers beyond were not recorded; else nullopt.
std::optional<std::size_t> cut_at_depth(const Model& model, const std::vector<FrameId>& frames);

// The peak: the last snapshot of kind peak, else the first with the largest
// total; nullopt when there is no snapshot.  In a profile cut short, a peak
// still rising was never written: there the largest total wins if larger.
std::optional<std::size_t> peak_snapshot(const Model& model);

// Every site holding bytes or blocks at snapshot `snapshot`, sorted by site.
// Sites that did not change there have min = max = bytes.  For a snapshot
// without site data, the state at the last chain snapshot before it.
std::vector<SiteSample> sites_at(const Model& model, std::size_t snapshot);

// The snapshot whose site data sites_at() gives for `snapshot`: itself when
// it has site data, else the last chain snapshot before it (a massif.out
// file gives sites only at its detailed snapshots); nullopt when there is none.
std::optional<std::size_t> site_data_source(const Model& model, std::size_t snapshot);

// Sorts `samples` by site, as Snapshot::sites are, in time linear in their
// number (a radix sort on the site ids once there are more than a few);
// `scratch` is storage to reuse.  A site is listed at most once in a snapshot.
void sort_by_site(std::vector<SiteSample>& samples, std::vector<SiteSample>& scratch);

}  // namespace strata
