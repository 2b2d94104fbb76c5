// SPDX-License-Identifier: GPL-2.0-or-later
// The graph of `strata plot`, ready to draw: a stacked-area graph of the heap
// by call site, built from the contexts and leak suspects (leaks.hpp) of a
// profile.  The renderer (render_gnuplot.hpp) sees only this struct.
//
// Bands are stacked from the bottom up: the leak suspects first (so that
// their rising troughs stand on the time axis, not on the other bands), then
// the other contexts in rank order, the "other places", the extra heap and
// the stacks.  Each band has one value per sample.  The samples are the
// snapshots with site data and, in an interval where some band went lower or
// higher than at both of its ends, two more points in between that show each
// band's lowest and highest (in the order that moves least): so a trough
// that fell between two snapshots is drawn.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyze/ages.hpp"
#include "analyze/heap_analysis.hpp"
#include "analyze/leaks.hpp"
#include "model/model.hpp"

namespace strata {

// age: a layer of the heap by age (make_age_plot_data), the bytes born in
// one part of the run.
enum class BandKind : std::uint8_t { leak, context, other, extra, stacks, age };

struct PlotBand {
  BandKind kind = BandKind::context;
  std::string legend;                // the legend text, "LEAK ...: " first for a leak
  std::vector<std::string> frames;   // every frame, "function (file:line)", innermost first
  std::string detail;                // a line on the band: "12.3% of the spacetime; ..."
  std::vector<std::uint64_t> bytes;  // one per PlotData::times
};

struct PlotPoint {
  double time = 0;
  double bytes = 0;
};

// The troughs of a leak suspect, at the top of its band (stacked).
struct PlotTroughs {
  std::size_t band = 0;  // index into PlotData::bands
  std::string legend;
  std::vector<PlotPoint> points;
};

struct PlotMarker {
  double time = 0;
  std::string label;
};

struct PlotData {
  std::string title;
  std::string time_unit;             // "i", "ms" or "B"
  std::uint64_t time_origin = 0;     // every time below is counted from here (make_plot_data)
  double start_time = 0;             // where the time axis starts
  double end_time = 0;               // where the time axis ends
  std::vector<double> times;         // the samples, in time order
  std::vector<bool> between;         // per sample: a point between two snapshots
  std::vector<PlotBand> bands;       // bottom to top
  std::vector<PlotTroughs> troughs;  // one per leak suspect with troughs
  std::vector<PlotMarker> markers;   // the STRATA_MARK markers drawn (thin_markers)
  std::size_t marker_count = 0;      // the markers in the profile, drawn or not
  std::optional<PlotPoint> peak;     // the total (heap, extra, stacks) at the peak
  std::vector<PlotPoint> totals;     // the total at every snapshot, when some snapshots
                                     // have no site data (massif.out); else empty

  // The largest stacked total at any sample (or in `totals`).
  double max_total() const;
  // What follows a time to say where it is counted from: "" from 0, else
  // " after 18446744073709551000".
  std::string origin_text() const;
  // The bytes of the bands under band `band` at sample `sample`.
  std::uint64_t below(std::size_t band, std::size_t sample) const;
};

struct PlotOptions {
  std::string title;              // empty: the command and the file
  std::string note;               // after the title: what a question of time selected
  std::size_t legend_width = 90;  // columns of a legend line (text_width)
  std::size_t max_samples = 0;    // thin the samples to about this many (0: keep all)
  // The most bands of contexts drawn, the "other places" among them (0: no
  // limit): those after the first max_bands - 1 (the leak suspects first,
  // then by rank) are folded into the other places, whose legend says how
  // many leak suspects went there.  gnuplot reads the data once per band,
  // each line holding every band, so a graph costs the square of its bands.
  std::size_t max_bands = 0;
  // The most bands of call sites before the other places (0: no limit):
  // --top.  The analysis gives each leak finding a context of its own
  // beyond --top; the graph folds those after the first `top` too.
  std::size_t top = 0;
};

// Keeps at most about `max_samples` samples (and always the first and the
// last): the time axis is cut into max_samples / 3 equal slices, and in each
// the samples where the stacked total is lowest and highest, and where the
// bottom band (the first leak suspect, when there is one) is lowest, stay.
// So with the points of each trough line: the first, the last, and in each
// slice of its time the lowest and the highest.
// A graph is no more than a few thousand pixels wide: more samples only
// make gnuplot slower, and these keep every crest and trough that shows.
void thin_samples(PlotData& data, std::size_t max_samples);

// The most markers a graph draws: more are a grey wall, and each is a label
// gnuplot places (a million take it minutes).
constexpr std::size_t kMaxMarkersDrawn = 200;

// Keeps at most `max_markers` of the markers: the first of each of
// max_markers equal slices of the time axis, in their order.  marker_count
// stays the count of all.
void thin_markers(PlotData& data, std::size_t max_markers);

// A time of the profile on a graph's axis, counted from `origin`
// (PlotData::time_origin).
double axis_time(std::uint64_t time, std::uint64_t origin);

// The graph of a profile.  Its times are counted from 0, unless the run is
// so short for the times it has (less than a millionth of its end time, as
// near 2^64) that doubles, and gnuplot, would not tell them apart: then from
// its first record (time_origin).
PlotData make_plot_data(const Model& model, const HeapAnalysis& analysis,
                        const PlotOptions& options);

// The heap by age: one band per layer of `ages`, the oldest at the bottom,
// sampled at the epoch boundaries, with the markers of `model`.
PlotData make_age_plot_data(const Model& model, const AgeLayers& ages, const PlotOptions& options);

}  // namespace strata
