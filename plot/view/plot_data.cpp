// SPDX-License-Identifier: GPL-2.0-or-later
#include "view/plot_data.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "analyze/heap_analysis.hpp"
#include "model/frame_names.hpp"
#include "util/error.hpp"
#include "util/shown.hpp"
#include "util/units.hpp"
#include "view/kinds.hpp"
#include "view/leak_words.hpp"
#include "view/plot_legend.hpp"

namespace strata {

double PlotData::max_total() const {
  double most = 0;
  for (std::size_t s = 0; s < times.size(); ++s) {
    most = std::max(most, static_cast<double>(below(bands.size(), s)));
  }
  for (const PlotPoint& total : totals) most = std::max(most, total.bytes);
  if (peak) most = std::max(most, peak->bytes);
  return most;
}

std::string PlotData::origin_text() const {
  return time_origin == 0 ? "" : " after " + std::to_string(time_origin);
}

std::uint64_t PlotData::below(std::size_t band, std::size_t sample) const {
  std::uint64_t sum = 0;
  for (std::size_t b = 0; b < band && b < bands.size(); ++b) sum += bands[b].bytes[sample];
  return sum;
}

double axis_time(std::uint64_t time, std::uint64_t origin) {
  return time >= origin ? static_cast<double>(time - origin) : -static_cast<double>(origin - time);
}

namespace {

// ---- the bands ----------------------------------------------------------------

// One band before sampling: its values at each point of Contexts::snapshots.
struct Source {
  PlotBand band;
  std::vector<ContextPoint> series;  // bytes, min and max per series point
  const Context* context = nullptr;  // for leak, context and other bands
  const Leak* leak = nullptr;        // for leak bands
  std::size_t folded_leaks = 0;      // the other band: leak suspects folded into it
};

Source band_source(BandKind kind, const Context& context, const Leak* leak) {
  Source source;
  source.band.kind = kind;
  source.series = context.series;
  source.context = &context;
  source.leak = leak;
  return source;
}

// The context bands: leak suspects first, then the others in rank order
// (the "other places" last, as ranked).
std::vector<Source> context_sources(const HeapAnalysis& analysis) {
  const std::vector<Context>& contexts = analysis.contexts.contexts;
  std::vector<bool> leaking(contexts.size());
  std::vector<Source> sources;
  for (const Leak& leak : analysis.leaks.suspects) {
    const Context& context = contexts.at(leak.context);
    leaking[leak.context] = true;
    sources.push_back(band_source(BandKind::leak, context, &leak));
  }
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    if (leaking[i]) continue;
    BandKind kind = contexts[i].other() ? BandKind::other : BandKind::context;
    sources.push_back(band_source(kind, contexts[i], nullptr));
  }
  return sources;
}

// ---- the budget of bands -----------------------------------------------------------

// Adds `from`'s series and measures to `into`, as one context of other places.
void fold_into(Context& into, const Context& from) {
  if (into.series.empty())
    into.series = from.series;
  else {
    for (std::size_t k = 0; k < into.series.size(); ++k) {
      into.series[k].bytes += from.series[k].bytes;
      into.series[k].min += from.series[k].min;
      into.series[k].max += from.series[k].max;
    }
  }
  into.folded += from.other() ? from.folded : from.sites.size();
  into.sites.insert(into.sites.end(), from.sites.begin(), from.sites.end());
  into.spacetime += from.spacetime;
  into.spacetime_pct += from.spacetime_pct;
  into.peak_bytes += from.peak_bytes;
  into.end_bytes += from.end_bytes;
}

// A band's leak's troughs: a suspect's from its curve; none for a finding or another band.
std::span<const Trough> troughs_of(const Source& source) {
  const CurveEvidence* curve = source.leak ? source.leak->curves() : nullptr;
  if (!curve) return {};
  return curve->troughs;
}

// The lines of the legend a band takes: a leak's troughs have one too.
std::size_t legend_lines(const Source& source) { return troughs_of(source).empty() ? 1 : 2; }

// Keeps the first bands of contexts (the leak suspects first, then by rank),
// at most `top` of them (0: any), while their legends take at most
// `max_bands` - 1 lines, and folds the
// others, with the "other places", into one band of other places, held by
// `folded`.  gnuplot reads the data once per band, each line holding every
// band: the cost of a graph grows with the square of its bands, and a
// legend has room for a few dozen.
void fold_bands(std::vector<Source>& sources, std::size_t max_bands, std::size_t top,
                Context& folded) {
  std::size_t lines = 0, named = 0;
  for (const Source& source : sources) {
    lines += legend_lines(source);
    named += source.band.kind != BandKind::other;
  }
  bool over_top = top > 0 && named > top;
  if ((max_bands == 0 || lines <= max_bands) && !over_top) return;
  std::size_t kept = 0, used = 0;  // room for the other places' line
  while (kept < sources.size() && (top == 0 || kept < top) &&
         (max_bands == 0 || used + legend_lines(sources[kept]) < max_bands)) {
    used += legend_lines(sources[kept++]);
  }
  kept = std::max<std::size_t>(kept, 1);
  Source other;
  other.band.kind = BandKind::other;
  for (std::size_t i = kept; i < sources.size(); ++i) {
    fold_into(folded, *sources[i].context);
    other.folded_leaks += sources[i].leak != nullptr;
    other.folded_leaks += sources[i].folded_leaks;
  }
  for (const ContextPoint& point : folded.series) {
    folded.max_bytes = std::max(folded.max_bytes, point.max);
  }
  other.context = &folded;
  other.series = folded.series;
  sources.resize(kept);
  sources.push_back(std::move(other));
}

// The extra heap or the stacks at each series point; nullopt when always 0.
std::optional<Source> totals_source(const Model& model, const Contexts& contexts, BandKind kind) {
  Source source;
  source.band.kind = kind;
  bool any = false;
  for (std::size_t snapshot : contexts.snapshots) {
    const Snapshot& s = model.snapshots[snapshot];
    std::uint64_t bytes = kind == BandKind::extra ? s.extra : s.stacks;
    any = any || bytes > 0;
    source.series.push_back({snapshot, s.time, bytes, bytes, bytes});
  }
  if (!any) return std::nullopt;
  return source;
}

// ---- texts ----------------------------------------------------------------------

std::string percent(double value) { return short_number(value) + "%"; }

std::string context_detail(const Context& context) {
  return percent(context.spacetime_pct) + " of the heap's spacetime; " +
         format_bytes(static_cast<double>(context.peak_bytes)) + " at the peak, " +
         format_bytes(static_cast<double>(context.end_bytes)) + " at the end";
}

// "LEAK" for a finding left behind by the cycles, "GROWTH" for steady growth (a leak only if the
// program should reach a steady state); numbered when there are several
// suspects: "LEAK 1", "GROWTH 2", ...
std::string leak_name(const Leak& leak, std::size_t rank, std::size_t count) {
  std::string word(kind_names(leak.kind).band);
  return count == 1 ? word : word + " " + std::to_string(rank + 1);
}

// The longest leak name of `count` suspects, and "other callers of ".
constexpr std::string_view kOtherCallers = "other callers of ";

std::size_t longest_prefix(std::size_t count) {
  std::string leak = std::string(kind_names(LeakKind::steady_growth).band) +
                     (count == 1 ? std::string() : " " + std::to_string(count));
  return std::max(text_width(leak + ": "), text_width(kOtherCallers));
}

std::string frame_line(const LegendFrame& frame) {
  return frame.location.empty() ? frame.function : frame.function + " (" + frame.location + ")";
}

// Legends, frames and details of the bands of contexts.  A leak's legend
// starts at its headline, its first frame in the program's own code.
void name_context_bands(const Model& model, std::vector<Source>& sources, std::size_t width) {
  std::vector<std::vector<LegendFrame>> stacks;
  for (const Source& source : sources) {
    bool named = source.band.kind != BandKind::other;
    std::span<const FrameId> frames = source.context->frames;
    if (source.leak) frames = frames.subspan(std::min(source.leak->headline, frames.size()));
    stacks.push_back(named ? legend_frames(model, frames) : std::vector<LegendFrame>{});
  }
  std::size_t leaks = 0;
  for (const Source& source : sources) leaks += source.leak != nullptr;
  const std::size_t prefix = longest_prefix(leaks);
  std::vector<std::string> narrow = choose_legends(stacks, std::max(width, prefix + 10) - prefix);
  std::vector<std::string> plain = choose_legends(stacks, width);
  std::vector<std::string> legends;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    PlotBand& band = sources[i].band;
    const Context& context = *sources[i].context;
    for (const LegendFrame& frame : legend_frames(model, context.frames)) {
      band.frames.push_back(frame_line(frame));
    }
    band.detail = context_detail(context);
    bool other_callers = context.shape == ContextShape::other_callers;
    if (band.kind == BandKind::other) {
      band.legend = counted(context.folded, "other place");
      std::size_t leaks_in = sources[i].folded_leaks;
      if (leaks_in > 0) {
        band.legend +=
            " (" + counted(leaks_in, "leak suspect") + " among them: strata report lists them)";
      }
    } else if (stacks[i].empty()) {
      band.legend = "(an allocation without a stack)";
    } else {
      band.legend = sources[i].leak || other_callers ? narrow[i] : plain[i];
    }
    if (other_callers) band.legend = std::string(kOtherCallers) + band.legend;
    if (sources[i].leak) band.legend = leak_name(*sources[i].leak, i, leaks) + ": " + band.legend;
    legends.push_back(band.legend);
  }
  tell_apart(stacks, legends, width);
  for (std::size_t i = 0; i < sources.size(); ++i) sources[i].band.legend = legends[i];
}

void name_totals_band(PlotBand& band) {
  if (band.kind == BandKind::extra) {
    band.legend = "extra heap (allocator overhead)";
    band.detail = "the allocator's bookkeeping and the slop of its blocks";
  } else {
    band.legend = "stacks";
    band.detail = "the stacks of the threads";
  }
}

// ---- sampling ---------------------------------------------------------------------

// Where a value goes between two snapshots: the lowest and the highest of
// the interval, in the order that moves least from `from` to `to`; or, when
// neither goes beyond the ends, the straight line between them.
std::pair<std::uint64_t, std::uint64_t> between_values(std::uint64_t from, const ContextPoint& to) {
  auto distance = [](std::uint64_t a, std::uint64_t b) {
    return static_cast<double>(a > b ? a - b : b - a);
  };
  bool excursion = to.min < std::min(from, to.bytes) || to.max > std::max(from, to.bytes);
  if (!excursion) {
    double step = (static_cast<double>(to.bytes) - static_cast<double>(from)) / 3;
    return {static_cast<std::uint64_t>(std::llround(static_cast<double>(from) + step)),
            static_cast<std::uint64_t>(std::llround(static_cast<double>(from) + 2 * step))};
  }
  double low_first = distance(from, to.min) + distance(to.max, to.bytes);
  double high_first = distance(from, to.max) + distance(to.min, to.bytes);
  if (low_first <= high_first) return {to.min, to.max};
  return {to.max, to.min};
}

bool has_excursion(const std::vector<Source>& sources, std::size_t k) {
  for (const Source& source : sources) {
    const ContextPoint& now = source.series[k];
    std::uint64_t before = source.series[k - 1].bytes;
    if (now.min < std::min(before, now.bytes) || now.max > std::max(before, now.bytes)) return true;
  }
  return false;
}

// Fills the samples of `data` and the values of its bands; `sample_of` gets
// the sample of each series point.
void sample(const std::vector<Source>& sources, PlotData& data,
            std::vector<std::size_t>& sample_of) {
  std::size_t points = sources.empty() ? 0 : sources.front().series.size();
  for (std::size_t k = 0; k < points; ++k) {
    double time = axis_time(sources.front().series[k].time, data.time_origin);
    if (k > 0 && has_excursion(sources, k)) {
      double before = data.times.back();
      for (std::size_t b = 0; b < sources.size(); ++b) {
        auto [first, second] = between_values(sources[b].series[k - 1].bytes, sources[b].series[k]);
        data.bands[b].bytes.push_back(first);
        data.bands[b].bytes.push_back(second);
      }
      data.times.push_back(before + (time - before) / 3);
      data.times.push_back(before + 2 * (time - before) / 3);
      data.between.insert(data.between.end(), {true, true});
    }
    for (std::size_t b = 0; b < sources.size(); ++b) {
      data.bands[b].bytes.push_back(sources[b].series[k].bytes);
    }
    sample_of.push_back(data.times.size());
    data.times.push_back(time);
    data.between.push_back(false);
  }
}

// ---- troughs, markers, the peak -----------------------------------------------------

// Where the trough `bytes` of band `band`, seen at the snapshot of sample
// `at`, is drawn: at the last sample of its interval (the snapshot before,
// the points between, the snapshot itself) where the band held that, else
// at the snapshot, inside the band.
PlotPoint trough_point(const PlotData& data, std::size_t band, std::size_t at,
                       std::uint64_t bytes) {
  std::size_t first = at;
  while (first > 0 && data.between[first - 1]) --first;
  if (first > 0) --first;
  for (std::size_t s = at + 1; s-- > first;) {
    if (data.bands[band].bytes[s] == bytes) {
      return {data.times[s], static_cast<double>(data.below(band, s) + bytes)};
    }
  }
  return {data.times[at], static_cast<double>(data.below(band, at) + bytes)};
}

void add_troughs(const std::vector<Source>& sources, const Contexts& contexts,
                 const std::vector<std::size_t>& sample_of, PlotData& data) {
  std::size_t leaks = 0;
  for (const Source& source : sources) leaks += source.leak != nullptr;
  for (std::size_t b = 0; b < sources.size(); ++b) {
    const Leak* leak = sources[b].leak;
    std::span<const Trough> troughs = troughs_of(sources[b]);
    if (troughs.empty()) continue;
    PlotTroughs line;
    line.band = b;
    std::string growth = growth_rate(*leak, data.time_unit, data.end_time);
    line.legend = leak_name(*leak, b, leaks) + ": its floor, " + growth;
    for (const Trough& trough : troughs) {
      auto it =
          std::lower_bound(contexts.snapshots.begin(), contexts.snapshots.end(), trough.snapshot);
      if (it == contexts.snapshots.end() || *it != trough.snapshot) continue;
      std::size_t at = sample_of[it - contexts.snapshots.begin()];
      line.points.push_back(trough_point(data, b, at, trough.bytes));
    }
    data.troughs.push_back(std::move(line));
  }
}

// A finding's band says what the report says of it: its sentence and its evidence.
void add_finding_details(const Model& model, const HeapAnalysis& analysis,
                         const std::vector<Source>& sources, PlotData& data) {
  for (std::size_t b = 0; b < sources.size(); ++b) {
    const Leak* leak = sources[b].leak;
    if (!leak) continue;
    std::optional<FrameId> frame = leak->finding().holder_frame;
    std::string holder = frame ? frame_text(model.frame(*frame)) : "";
    std::string word = leak->kind == LeakKind::left_behind ? "leak" : "growth";
    data.bands[b].detail += "; " + word + ": " + finding_words(model, *leak, holder) + "; " +
                            finding_why(model, *leak, analysis.leaks);
  }
}

void add_totals(const Model& model, const Contexts& contexts, PlotData& data) {
  if (model.snapshots.size() == contexts.snapshots.size() && !data.bands.empty()) return;
  for (const Snapshot& snapshot : model.snapshots) {
    data.totals.push_back(
        {axis_time(snapshot.time, data.time_origin), static_cast<double>(snapshot.total())});
  }
}

// The time of the first record, and of the end.
std::uint64_t first_time(const Model& model) {
  std::uint64_t first = model.snapshots.front().time;
  if (!model.markers.empty()) first = std::min(first, model.markers.front().time);
  return first;
}

std::uint64_t end_time(const Model& model) {
  return std::max(model.end_time, model.snapshots.back().time);
}

// Where times are counted from (make_plot_data).
std::uint64_t time_origin(const Model& model) {
  std::uint64_t first = first_time(model), end = std::max(end_time(model), first);
  return end - first < end / 1000000 ? first : 0;
}

// The time axis starts at 0, unless the profile starts late in the run (in
// ms, Valgrind's start-up comes first): then at its first record.
double start_time(const Model& model, std::uint64_t origin) {
  std::uint64_t first = first_time(model);
  return first > end_time(model) / 20 ? axis_time(first, origin) : 0.0;
}

std::string default_title(const Model& model) {
  std::string file = model.file;
  std::size_t slash = file.rfind('/');
  if (slash != std::string::npos) file.erase(0, slash + 1);
  std::string command = cut_text(shown(model.header.cmd), 100);
  if (command.empty()) return shown(file);
  return command + " (" + shown(file) + ")";
}

}  // namespace

namespace {

std::vector<std::uint64_t> stacked_totals(const PlotData& data) {
  std::vector<std::uint64_t> totals(data.times.size(), 0);
  for (const PlotBand& band : data.bands) {
    for (std::size_t k = 0; k < totals.size(); ++k) totals[k] += band.bytes[k];
  }
  return totals;
}

// Which samples thin_samples keeps.
std::vector<bool> samples_to_keep(const PlotData& data, std::size_t slices) {
  std::size_t n = data.times.size();
  std::vector<std::uint64_t> totals = stacked_totals(data);
  std::vector<bool> keep(n, false);
  keep.front() = keep.back() = true;
  double span = std::max(data.times.back() - data.times.front(), 1e-9);
  std::size_t k = 0;
  for (std::size_t slice = 0; slice < slices && k < n; ++slice) {
    double limit = data.times.front() + span * static_cast<double>(slice + 1) / slices;
    std::size_t low = k, high = k, bottom = k;
    for (; k < n && (data.times[k] <= limit || slice + 1 == slices); ++k) {
      if (totals[k] < totals[low]) low = k;
      if (totals[k] > totals[high]) high = k;
      if (!data.bands.empty() && data.bands[0].bytes[k] < data.bands[0].bytes[bottom]) bottom = k;
    }
    keep[low] = keep[high] = keep[bottom] = true;
  }
  return keep;
}

template <typename T>
void keep_only(std::vector<T>& values, const std::vector<bool>& keep) {
  std::size_t out = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (keep[k]) values[out++] = values[k];
  }
  values.resize(out);
}

// A trough line's points to keep: the first and the last, and in each of
// `slices` equal slices of its time, the lowest and the highest.
std::vector<bool> points_to_keep(const std::vector<PlotPoint>& points, std::size_t slices) {
  std::size_t n = points.size();
  std::vector<bool> keep(n, false);
  keep.front() = keep.back() = true;
  double span = std::max(points.back().time - points.front().time, 1e-9);
  std::size_t k = 0;
  for (std::size_t slice = 0; slice < slices && k < n; ++slice) {
    double limit = points.front().time + span * static_cast<double>(slice + 1) / slices;
    std::size_t low = k, high = k;
    for (; k < n && (points[k].time <= limit || slice + 1 == slices); ++k) {
      if (points[k].bytes < points[low].bytes) low = k;
      if (points[k].bytes > points[high].bytes) high = k;
    }
    keep[low] = keep[high] = true;
  }
  return keep;
}

}  // namespace

void thin_samples(PlotData& data, std::size_t max_samples) {
  if (max_samples < 3) return;
  for (PlotTroughs& troughs : data.troughs) {
    if (troughs.points.size() <= max_samples) continue;
    keep_only(troughs.points, points_to_keep(troughs.points, max_samples / 3));
  }
  if (data.times.size() <= max_samples) return;
  std::vector<bool> keep = samples_to_keep(data, max_samples / 3);
  keep_only(data.times, keep);
  keep_only(data.between, keep);
  for (PlotBand& band : data.bands) keep_only(band.bytes, keep);
}

void thin_markers(PlotData& data, std::size_t max_markers) {
  if (data.markers.size() <= max_markers || max_markers == 0) return;
  double span = std::max(data.end_time - data.start_time, 1.0);
  std::vector<bool> taken(max_markers, false);
  std::vector<PlotMarker> kept;
  for (PlotMarker& marker : data.markers) {
    double share = std::clamp((marker.time - data.start_time) / span, 0.0, 1.0);
    std::size_t slice = std::min(static_cast<std::size_t>(share * static_cast<double>(max_markers)),
                                 max_markers - 1);
    if (taken[slice]) continue;
    taken[slice] = true;
    kept.push_back(std::move(marker));
  }
  data.markers = std::move(kept);
}

namespace {

// A graph of `model` without its bands: its title, time axis and markers.
PlotData graph_frame(const Model& model, const PlotOptions& options) {
  if (model.snapshots.empty()) throw Error(model.file, 0, "holds no complete snapshot to plot");
  PlotData data;
  data.title = options.title.empty() ? default_title(model) : cut_text(shown(options.title), 200);
  if (!options.note.empty()) data.title += ": " + shown(options.note);
  data.time_unit = model.header.time_unit;
  data.time_origin = time_origin(model);
  data.end_time = axis_time(end_time(model), data.time_origin);
  data.start_time = start_time(model, data.time_origin);
  for (const Marker& marker : model.markers) {
    data.markers.push_back({axis_time(marker.time, data.time_origin), shown(marker.label)});
  }
  // The process's forks (K records) are markers labelled "fork", in time
  // order among the others: the leak report's "born before the process first
  // forked, at 94% of the run" is checked there.
  for (const Marker& fork : model.forks) {
    data.markers.push_back({axis_time(fork.time, data.time_origin), "fork"});
  }
  if (!model.forks.empty()) {
    std::stable_sort(data.markers.begin(), data.markers.end(),
                     [](const PlotMarker& a, const PlotMarker& b) { return a.time < b.time; });
  }
  data.marker_count = data.markers.size();
  thin_markers(data, kMaxMarkersDrawn);
  return data;
}

// "born in 20-30% of the run", "born in cycle 3", "born in cycles 3-4",
// "born before the first cycle", "born before cycle 3" (before the first
// and in cycles 1-2).
std::string layer_legend(const AgeLayers& ages, const AgeLayer& layer, std::uint32_t epochs) {
  if (!ages.by_cycles) {
    auto pct = [&](std::uint32_t k) {
      return std::to_string((100 * std::size_t{k} + epochs / 2) / epochs);
    };
    return "born in " + pct(layer.from) + "-" + pct(layer.to) + "% of the run";
  }
  if (layer.last_cycle == 0) return "born before the first cycle";
  if (layer.first_cycle == 0) return "born before cycle " + std::to_string(layer.last_cycle + 1);
  std::string first = std::to_string(layer.first_cycle);
  if (layer.first_cycle == layer.last_cycle) return "born in cycle " + first;
  return "born in cycles " + first + "-" + std::to_string(layer.last_cycle);
}

}  // namespace

PlotData make_age_plot_data(const Model& model, const AgeLayers& ages, const PlotOptions& options) {
  PlotData data = graph_frame(model, options);
  std::uint32_t epochs = model.lifetimes.epochs;
  for (std::uint64_t time : ages.times) {
    data.times.push_back(axis_time(time, data.time_origin));
    data.between.push_back(false);
  }
  for (const AgeLayer& layer : ages.layers) {
    PlotBand band;
    band.kind = BandKind::age;
    band.legend = layer_legend(ages, layer, epochs);
    std::uint64_t left = layer.bytes.empty() ? 0 : layer.bytes.back();
    band.detail =
        grouped(layer.born) + " bytes born, " + grouped(left) + " of them alive at the end (" +
        percent(layer.born ? 100.0 * static_cast<double>(left) / static_cast<double>(layer.born)
                           : 0.0) +
        ")";
    band.bytes = layer.bytes;
    data.bands.push_back(std::move(band));
  }
  return data;
}

PlotData make_plot_data(const Model& model, const HeapAnalysis& analysis,
                        const PlotOptions& options) {
  PlotData data = graph_frame(model, options);

  std::vector<Source> sources = context_sources(analysis);
  Context folded;  // the other places, when bands beyond the budget join them
  fold_bands(sources, options.max_bands, options.top, folded);
  name_context_bands(model, sources, options.legend_width);
  for (BandKind kind : {BandKind::extra, BandKind::stacks}) {
    if (std::optional<Source> source = totals_source(model, analysis.contexts, kind)) {
      name_totals_band(source->band);
      sources.push_back(std::move(*source));
    }
  }
  for (Source& source : sources) data.bands.push_back(std::move(source.band));
  std::vector<std::size_t> sample_of;
  sample(sources, data, sample_of);
  add_troughs(sources, analysis.contexts, sample_of, data);
  add_finding_details(model, analysis, sources, data);
  thin_samples(data, options.max_samples);

  if (std::optional<std::size_t> peak = peak_snapshot(model)) {
    const Snapshot& snapshot = model.snapshots[*peak];
    data.peak = PlotPoint{axis_time(snapshot.time, data.time_origin),
                          static_cast<double>(snapshot.total())};
  }
  add_totals(model, analysis.contexts, data);
  return data;
}

}  // namespace strata
