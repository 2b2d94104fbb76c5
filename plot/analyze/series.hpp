// SPDX-License-Identifier: GPL-2.0-or-later
// The series engine: the bytes of a group of sites over time, and what they
// weigh.  One engine for every user (the grouping, the calling-context tree,
// leak detection, the report, the graph and the exports).
//
// A site's series is a step function: it changes only where the site is
// listed.  So SeriesBuilder keeps, for each site, its steps: where it was
// listed, what it gained there since its step before, and how far below and
// above its bytes it went in the interval.  A group's series is then its
// sites' steps added up at their points and summed along time: its cost is
// the length of the series plus the steps of its sites, not the length times
// the sites.  SeriesMeasure then gives a series' spacetime (trapezoids), its
// bytes at the peak and at the end, and the most it held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "model/model.hpp"

namespace strata {

// A group of sites at one snapshot: its bytes then, and the lowest and
// highest bytes since the snapshot before it in the series (both include
// `bytes`).  When a group has several sites, `min` and `max` are the sums of
// its sites' lows and highs: bounds of the group's own, which may be tighter.
struct ContextPoint {
  std::size_t snapshot = 0;  // index into Model::snapshots
  std::uint64_t time = 0;
  std::uint64_t bytes = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

// Builds the series of groups of sites over the snapshots with site data.
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

  // One site as the chain of changes has it at model snapshot `snapshot`:
  // its point there when it is listed there, else what it held since its
  // last chain point (min = max = bytes); zeros before its first.  Complete
  // snapshots (a peak, outside the chain) are not its points.  Costs the
  // site's steps.
  ContextPoint site_at(SiteId site, std::size_t snapshot) const;

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

  friend class SeriesMeasure;  // of_sites() reads the steps

  std::vector<std::size_t> snapshots_;  // series point -> index into Model::snapshots
  std::vector<std::uint64_t> times_;    // series point -> its time
  std::vector<std::uint8_t> complete_;  // series point -> 1 for a complete snapshot
  std::vector<std::size_t> first_;      // SiteId -> its first step in steps_; then the end
  std::unique_ptr<Step[]> steps_;       // site by site, each in time order
};

// What a series weighs.
struct SeriesMeasures {
  double spacetime = 0;          // byte x time-unit, trapezoids over the series
  std::uint64_t peak_bytes = 0;  // at peak_snapshot(model)
  std::uint64_t end_bytes = 0;   // at the last snapshot
  std::uint64_t max_bytes = 0;   // the most it held at any time (the largest `max`)
};

// Measures series over the points of a SeriesBuilder: what each point weighs
// in the spacetime (half the time to each neighbour: trapezoids; 1 each when
// the series spans no time), and where the peak and the end are.
class SeriesMeasure {
 public:
  SeriesMeasure(const Model& model, const SeriesBuilder& builder);

  SeriesMeasures of(std::span<const ContextPoint> series) const;

  // The spacetime and the bytes at the peak and at the end of `sites`
  // together, as of() gives them for their series (max_bytes is left 0),
  // without building it: the three are sums over the sites, and each site
  // costs its steps, not the length of the series (the calling-context
  // tree measures each of its nodes so).  The spacetime is summed in
  // another order than of()'s, so it may differ in its last bits.
  SeriesMeasures of_sites(const SeriesBuilder& builder, std::span<const SiteId> sites) const;

 private:
  std::vector<double> weights_;
  std::vector<double> chain_weights_;  // point k -> the weights of the chain points before k
  std::optional<std::size_t> peak_;    // series index of the peak
  std::optional<std::size_t> end_;     // series index of the end
};

}  // namespace strata
