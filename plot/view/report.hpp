// SPDX-License-Identifier: GPL-2.0-or-later
// The report of `strata report`: the summary, the contexts and the leak
// suspects, resolved into plain values (frames spelled out, ranks counted
// from 1) for the renderers, which see nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "analyze/context_tree.hpp"
#include "analyze/contexts.hpp"
#include "analyze/heap_analysis.hpp"
#include "analyze/leaks.hpp"
#include "analyze/lifetimes.hpp"
#include "analyze/summary.hpp"
#include "model/model.hpp"

namespace strata {

// Bytes born from time `from` to time `to` (epoch boundaries).
struct ReportBorn {
  std::uint64_t from = 0;
  std::uint64_t to = 0;
  std::uint64_t bytes = 0;
};

struct ReportContext {
  std::size_t rank = 0;       // from 1
  std::vector<Frame> frames;  // innermost first
  ContextShape shape = ContextShape::stacks;
  std::size_t sites = 0;
  std::size_t folded = 0;  // 0, or N for "N other places"
  double spacetime_pct = 0;
  std::uint64_t peak_bytes = 0;
  std::uint64_t end_bytes = 0;
  std::uint64_t max_bytes = 0;
  AllocationCounts counts;  // when the profile has them (Report::has_counts)
  // When its bytes next to the peak were born (born_across: next to the peak, or of a selection);
  // null without lifetimes.
  std::optional<std::vector<ReportBorn>> born;
  std::string born_words;  // "71% in 0-10% of the run, ..."; empty: none
  // With a question of time: its selected bytes; else null.
  std::optional<std::uint64_t> selected_bytes;
};

// A free stack that freed some of a suspect's bytes (lifetimes.hpp, FreedBy).
struct ReportFreedBy {
  std::vector<Frame> frames;  // innermost first
  std::size_t headline = 0;   // index into frames: its first in the program's own code
  std::uint64_t bytes = 0;
  double share_pct = 0;
  bool at_exit = false;
  std::uint64_t from = 0;  // the epochs of its deaths, from boundary to boundary
  std::uint64_t to = 0;
};

// A part of a suspect's growth: a caller of its node (leaks.hpp, LeakPart);
// or a part of a finding (lifetime_leaks.hpp, FindingPart).
struct ReportLeakPart {
  std::vector<Frame> frames;  // the caller's code address; empty: the node's own sites; a
                              // finding's: from the allocation out to its headline
  double growth_bytes = 0;    // a finding's: its kept bytes
  double share_pct = 0;       // of the parts' growth (kept bytes) together
  std::size_t sites = 0;      // a finding's part: its sites; else 0
};

struct ReportLeak {
  std::size_t context_rank = 0;  // the ReportContext::rank of its context
  std::vector<Frame> frames;
  std::size_t headline = 0;  // index into frames: its first in the program's own code
  std::string why;           // what was seen, in words (leak_words.hpp)
  std::string words;         // for steady growth, what it may be; else empty
  std::vector<ReportLeakPart> parts;
  LeakKind kind = LeakKind::steady_growth;
  double growth_bytes = 0;  // per cycle, or per time unit (steady growth)
  std::size_t cycles = 0;
  std::uint64_t peak_bytes = 0;
  std::uint64_t end_bytes = 0;
  bool freed_before_exit = false;
  // A finding's: the recorded --depth when its main part's stack was cut
  // there (cut_at_depth: its callers beyond not recorded); else 0.
  std::size_t cut_at_depth = 0;
  double confidence = 0;
  std::vector<Trough> troughs;
  // Who freed it, most bytes first; null without lifetimes or free stacks.
  std::optional<std::vector<ReportFreedBy>> freed_by;
  std::string freed_words;  // "freed at exit by player_free (player.c:141) (...)"; or empty
  // What the finding keeps (leaks.hpp); set for every finding.
  struct FindingFacts {
    std::uint64_t kept_bytes = 0;  // born before the horizon and alive at it
    std::uint64_t kept_blocks = 0;
    bool freed_at_exit = false;     // at least half of them freed at or after the horizon
    std::optional<Frame> holder;    // the frame that frees them at exit, when known
    std::vector<double> retention;  // the share kept, by part of its span
    std::size_t cycles_left = 0;    // of `cycles`, those that left some behind
    std::size_t sites = 0;
  };
  std::optional<FindingFacts> finding;
};

// The report lists at most this many places passed over, the largest.
inline constexpr std::size_t kPassedOverListed = 5;

// A place that kept memory and is no finding, with why (leaks.hpp,
// Leaks::passed_over): what the report accounts for without flagging it.
struct ReportPassedOver {
  std::vector<Frame> frames;  // its main site's
  std::size_t headline = 0;   // index into frames: where its structure is named
  std::uint64_t kept_bytes = 0;
  std::uint64_t kept_blocks = 0;
  std::string reason;  // few_blocks, short_span, replaced, levels_off, high_water, newest_only, turnover, gap
  std::string words;   // passed_over_words
};

// A profile's lifetimes (model.hpp, Lifetimes).
struct ReportLifetimes {
  std::uint64_t t0 = 0;
  std::uint64_t epoch_length = 0;  // in epoch_unit
  std::string epoch_unit;          // the time unit, or "us" in a profile in ms
  std::uint32_t epochs = 0;
  bool free_stacks = false;
  std::uint64_t born_at = 0;  // the boundary the contexts' births are of (born_boundary)
};

// What a question of time selected (--born, --alive-at): boundaries in time.
struct ReportSelection {
  std::string words;  // selection_words
  std::uint64_t born_from = 0;
  std::uint64_t born_to = 0;
  std::uint64_t alive_at = 0;
  bool at_end = false;  // alive at the end: never freed
  std::uint64_t bytes = 0;
};

// A node of the calling-context tree as `strata report --tree` shows it
// (context_tree.hpp, tree_lines), in preorder.
struct ReportTreeNode {
  std::size_t depth = 0;      // 0: the root (all the heap); 1: an allocating call site
  std::vector<Frame> frames;  // its code address: its frame and those inlined into it
  double spacetime_pct = 0;
  double peak_pct = 0;
  std::uint64_t peak_bytes = 0;
  std::size_t folded = 0;  // its callers under the threshold, and their shares
  double folded_spacetime_pct = 0;
  double folded_peak_pct = 0;
};

// The calling-context tree at one moment, as `strata report --tree --at=T`
// shows it (context_tree.hpp, tree_lines_at): the nodes in preorder.
struct ReportMomentNode {
  std::size_t depth = 0;      // 0: the root (all the heap then)
  std::vector<Frame> frames;  // its code address: its frame and those inlined into it
  std::uint64_t bytes = 0;
  double pct = 0;          // of all the sites' bytes then
  std::size_t folded = 0;  // its callers under the threshold, their bytes and share
  std::uint64_t folded_bytes = 0;
  double folded_pct = 0;
};

struct ReportTreeAt {
  std::uint64_t asked = 0;   // the time asked for
  std::size_t snapshot = 0;  // the last snapshot at or before it (index into Model::snapshots)
  std::uint64_t time = 0;    // its time
  std::vector<ReportMomentNode> nodes;
};

// The tree at snapshot `snapshot` (asked for at time `asked`): `tree` is
// built from the sites' stacks once the --alloc-fn frames are off.
ReportTreeAt report_tree_at(const Model& model, const ContextTree& tree, std::uint64_t asked,
                            std::size_t snapshot, double threshold);

struct Report {
  Summary summary;
  std::vector<Option> recording;  // the recording options of the profile
  std::uint64_t first_snapshot_time = 0;
  std::size_t site_snapshots = 0;  // snapshots with site data
  ContextOptions grouping;         // as the contexts were grouped (--sort implies --depth)
  bool has_counts = false;         // the profile gives allocation counts (version 3)
  double spacetime = 0;            // bytes x time units, all contexts
  Cycles cycles;
  std::vector<ReportContext> contexts;       // ranked; "N other places" last
  std::vector<ReportLeak> leaks;             // most suspicious first
  std::vector<ReportLeak> small_leaks;       // findings under the threshold (context_rank 0)
  // The largest places that kept memory and are not findings (at most
  // kPassedOverListed, each over the small findings' share of the peak).
  std::vector<ReportPassedOver> passed_over;
  bool leaks_from_lifetimes = false;         // findings judged from the lifetimes
  bool leaks_short_child = false;            // from the curves: a short forked child (Leaks::short_child)
  std::vector<ReportTreeNode> tree;          // with --tree only; else empty
  std::optional<ReportTreeAt> tree_at;       // with --tree --at only
  std::optional<ReportLifetimes> lifetimes;  // null without
  std::string lifetimes_words;               // lifetimes_words(): what they are, or are not
  std::optional<ReportSelection> selection;  // with a question of time
};

// The report; with `tree`, the calling-context tree too.  With a
// `selection`, `model` is its selected_model(): the contexts are of the
// selected bytes, and no leak suspect is judged.
Report make_report(const Model& model, const ContextOptions& options, bool tree = false,
                   const std::optional<Selection>& selection = std::nullopt);

// The same from an analysis already made with `options` (the page of
// `strata plot`, which draws the same analysis).
Report make_report(const Model& model, const HeapAnalysis& analysis, const ContextOptions& options,
                   bool tree, const std::optional<Selection>& selection);

}  // namespace strata
