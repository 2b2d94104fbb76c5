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
// last.  A context that `keep` asks for (strata keeps the leak suspects,
// leaks.hpp) is never folded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.hpp"

namespace strata {

// The post-hoc options of `strata report` and `strata plot` (report_options.hpp
// reads them from a command line).
struct ContextOptions {
  // Group by the first N code addresses; 0: whole stacks; none: the tree.
  std::optional<std::size_t> depth = std::nullopt;
  double threshold = 1.0;                   // fold contexts under this percent of spacetime
  std::vector<std::string> alloc_fns = {};  // patterns (* and ?) of frames to remove from the top
  std::size_t top = 0;                      // list at most N contexts, fold the rest; 0: no limit
  std::vector<std::string> libraries = {};  // patterns of code not the program's (own_code.hpp)
};

// A context at one snapshot: its bytes then, and the lowest and highest bytes
// since the snapshot before it in the series (both include `bytes`).  When a
// context has several sites, `min` and `max` are the sums of its sites' lows
// and highs: bounds of the context's own, which may be tighter.
struct ContextPoint {
  std::size_t snapshot = 0;  // index into Model::snapshots
  std::uint64_t time = 0;
  std::uint64_t bytes = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

// What a context's frames are to its sites.
enum class ContextShape : std::uint8_t {
  stacks,         // their stacks (cut to --depth): every site of it has these frames
  callers,        // the frames they start with, called from several places (a tree node)
  other_callers,  // the same, less the callers that have contexts of their own
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
  std::vector<ContextPoint> series;  // one per Contexts::snapshots, in time order

  bool other() const { return folded > 0; }
};

struct Contexts {
  std::vector<std::size_t> snapshots;  // the snapshots with site data, in time order
  double spacetime = 0;                // of all contexts together (the useful heap's)
  std::vector<Context> contexts;       // ranked by spacetime; "N other places" last, if any
};

class SeriesBuilder;
class SeriesMeasure;
class ContextTree;
enum class NodeId : std::uint32_t;

// What must stay listed whatever its rank (strata keeps the leak suspects,
// leaks.hpp).
struct Keep {
  // With --depth: asked about each context once its series and measures are
  // known, but not yet its share (with the builder of the series, for others).
  std::function<bool(const Context&, const SeriesBuilder&)> context;
  // With the tree: asked once the tree is measured; returns disjoint nodes,
  // each kept whole (all the sites under it) as a context of its own.
  std::function<std::vector<NodeId>(const ContextTree&, const SeriesBuilder&, const SeriesMeasure&)>
      nodes;
};

// Groups the sites of `model` into contexts, measures, ranks and folds them.
Contexts group_contexts(const Model& model, const ContextOptions& options, const Keep& keep = {});

// True when `name` matches `pattern`, in which * stands for any characters
// and ? for one character (the patterns of --alloc-fn).
bool wildcard_match(std::string_view pattern, std::string_view name);

// A site's frames once --alloc-fn and --depth are applied: its context's key.
std::vector<FrameId> context_frames(const Model& model, const Site& site,
                                    const ContextOptions& options);

// ---- its parts, exposed for the tests and the tree -----------------------------

// Builds the series of groups of sites over the snapshots with site data.
// A site's series is a step function: it changes only where the site is
// listed.  So the builder keeps, for each site, its steps: where it was
// listed, what it gained there since its step before, and how far below and
// above its bytes it went in the interval.  A group's series is then its
// sites' steps added up at their points and summed along time: its cost is
// the length of the series plus the steps of its sites, not the length times
// the sites.
class SeriesBuilder {
 public:
  explicit SeriesBuilder(const Model& model);

  // The snapshots with site data, in time order: the points of every series.
  const std::vector<std::size_t>& snapshots() const { return snapshots_; }

  // Zeros at every point of the series.
  std::vector<ContextPoint> empty() const;

  // The series of `sites` together: at each point, the sum of their bytes,
  // of their lows and of their highs.
  std::vector<ContextPoint> of(std::span<const SiteId> sites) const;

  // The same into `series`, whose storage is reused.
  void build(std::span<const SiteId> sites, std::vector<ContextPoint>& series) const;

 private:
  // A site where it is listed.  In a chain snapshot: the bytes it gained
  // since its step before (modulo 2^64: it may have lost some), and its
  // bytes less its low and its high less its bytes.  In a complete snapshot
  // (a peak, outside the chain): its bytes there in `gain`, and 0, 0.  No
  // initializers: steps_ is allocated without filling it in.
  struct Step {
    std::size_t point;  // index into snapshots_
    std::uint64_t gain;
    std::uint64_t below;
    std::uint64_t above;
  };

  void count_steps(const Model& model);
  void fill_steps(const Model& model);

  std::vector<std::size_t> snapshots_;  // series point -> index into Model::snapshots
  std::vector<std::uint64_t> times_;    // series point -> its time
  std::vector<std::uint8_t> complete_;  // series point -> 1 for a complete snapshot
  std::vector<std::size_t> first_;      // SiteId -> its first step in steps_; then the end
  std::unique_ptr<Step[]> steps_;       // site by site, each in time order
};

// Measures series over the points of a SeriesBuilder: what each point weighs
// in the spacetime (half the time to each neighbour: trapezoids; 1 each when
// the series spans no time), and where the peak and the end are.
class SeriesMeasure {
 public:
  SeriesMeasure(const Model& model, const SeriesBuilder& builder);

  // Sets the spacetime, peak_bytes, end_bytes and max_bytes of `context`
  // from its series.
  void apply(Context& context) const;

 private:
  std::vector<double> weights_;
  std::optional<std::size_t> peak_;  // series index of the peak
  std::optional<std::size_t> end_;   // series index of the end
};

}  // namespace strata
