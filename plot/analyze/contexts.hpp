// SPDX-License-Identifier: GPL-2.0-or-later
// Contexts: the API that `strata report` and `strata plot` share for the
// allocation sites, grouped, measured and ranked.
//
// A context is a group of sites.  `--alloc-fn` first removes matching frames
// from the top of every stack (re-grouping sites, without recording again).
// Then, by default, the contexts are chosen from the calling-context tree
// (context_tree.hpp): from the allocating call sites, a node is split into its
// callers while that explains the heap better, the callers under the
// threshold staying in it as "other callers of X".  With `--depth=N` they are
// the sites with the same first N code addresses (inlined frames come with
// their address, as in `strata record --depth`), with `--depth=all` the same
// whole stacks.  Each context gets its series over the snapshots that have
// site data (Contexts::snapshots), its spacetime (bytes held, integrated over
// time) and its share of the total, its bytes at the peak and at the end.
// Contexts are ranked by spacetime; those under `--threshold` percent of it,
// and those beyond `--top`, are folded into one "N other places" context,
// last.  A context kept (strata keeps the leak suspects: heap_analysis.hpp)
// is never folded.  With the tree, the grouping is tree_grouping
// (context_tree.hpp); heap_analysis.hpp joins the two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/series.hpp"
#include "model/model.hpp"

namespace strata {

// The post-hoc options of `strata report` and `strata plot` (report_options.hpp
// reads them from a command line).
// What the contexts are ranked by, and folded by the share of (--sort).
enum class ContextSort : std::uint8_t { spacetime, peak, allocations, temporary, allocated };

struct ContextOptions {
  // Group by the first N code addresses; 0: whole stacks; none: the tree.
  std::optional<std::size_t> depth = std::nullopt;
  double threshold = 1.0;                   // fold contexts under this percent of spacetime
  std::vector<std::string> alloc_fns = {};  // patterns (* and ?) of frames to remove from the top
  std::size_t top = 0;                      // list at most N contexts, fold the rest; 0: no limit
  std::vector<std::string> libraries = {};  // patterns of code not the program's (own_code.hpp)
  // Other than spacetime: the contexts are whole stacks (or --depth), ranked
  // by it, and --threshold and --top fold by its share.
  ContextSort sort = ContextSort::spacetime;
  // Judge the leaks from the curves even when the profile has lifetimes (--leaks-from=curves).
  bool leaks_from_curves = false;
};

// What a context's frames are to its sites.
enum class ContextShape : std::uint8_t {
  stacks,         // their stacks (cut to --depth): every site of it has these frames
  callers,        // the frames they start with, called from several places (a tree node)
  other_callers,  // the same, less the callers that have contexts of their own
  finding,        // the sites of a leak finding (lifetime_leaks.hpp): its main part's stack
};

// A group of sites with the same frames.  The context of "N other places"
// has no frames; neither has a site recorded without a stack.
struct Context {
  std::vector<FrameId> frames;  // innermost first
  ContextShape shape = ContextShape::stacks;
  std::vector<SiteId> sites;         // the sites grouped in it
  std::size_t folded = 0;            // 0 for a context; N for the context of "N other places"
  double spacetime = 0;              // byte x time-unit, trapezoids over the series
  double spacetime_pct = 0;          // its share of Contexts::spacetime, in percent
  std::uint64_t peak_bytes = 0;      // at peak_snapshot(model)
  std::uint64_t end_bytes = 0;       // at the last snapshot
  std::uint64_t max_bytes = 0;       // the most it held at any time (the largest `max`)
  AllocationCounts counts;           // its sites' together
  double share_pct = 0;              // its share of what it is ranked by (ContextOptions::sort)
  std::vector<ContextPoint> series;  // one per Contexts::snapshots, in time order

  bool other() const { return folded > 0; }
};

struct Contexts {
  std::vector<std::size_t> snapshots;  // the snapshots with site data, in time order
  double spacetime = 0;                // of all contexts together (the useful heap's)
  std::vector<Context> contexts;       // ranked by spacetime; "N other places" last, if any
};

// Sets the spacetime, peak_bytes, end_bytes and max_bytes of `context` from
// its series.
void apply_measures(Context& context, const SeriesMeasure& measure);

// With --depth: the sites grouped by their context_frames(), each group
// measured (its series built, measured, then dropped), unranked.
std::vector<Context> group_by_frames(const Model& model, const ContextOptions& options,
                                     const SeriesBuilder& builder, const SeriesMeasure& measure);

// Ranks measured `contexts` by spacetime, sets their shares of it, and folds
// those under the threshold or beyond --top into "N other places", but for
// those `kept` flags (same order as `contexts`; a kept context comes with
// its series).  The series of the others listed are built here.
Contexts rank_and_fold(std::vector<Context> contexts, std::vector<bool> kept,
                       const ContextOptions& options, const SeriesBuilder& builder,
                       const SeriesMeasure& measure);

// Sorts `contexts` by rank (by `sort`, then spacetime, then peak, then most
// held, then least site), and `kept` along.
void rank(std::vector<Context>& contexts, std::vector<bool>& kept,
          ContextSort sort = ContextSort::spacetime);

// What `context` is ranked by, as a number (ContextOptions::sort).
double sort_measure(const Context& context, ContextSort sort);

// True when `name` matches `pattern`, in which * stands for any characters
// and ? for one character (the patterns of --alloc-fn).
bool wildcard_match(std::string_view pattern, std::string_view name);

// A site's frames once --alloc-fn and --depth are applied: its context's key.
std::vector<FrameId> context_frames(const Model& model, const Site& site,
                                    const ContextOptions& options);

}  // namespace strata
