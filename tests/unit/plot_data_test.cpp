// SPDX-License-Identifier: GPL-2.0-or-later
// The graph's data: the bands and their order, the points between snapshots
// that show troughs, the troughs of a leak, the peak, and the invariant that
// the bands add up to each snapshot's total.
#include "view/plot_data.hpp"

#include <algorithm>

#include "analyze/heap_analysis.hpp"
#include "strata_profile.hpp"
#include "util/error.hpp"

namespace strata::test {
namespace {

// Site 1 (big, in f) and site 2 (leak, in g).  Between 200 and 300 site 2
// dipped to 10 and came back: a trough that no snapshot fell on.
std::string dipping() {
  return profile(records({
      "F|1|0x10|0|f|a.c|1|/bin/prog",
      "F|2|0x20|0|g|a.c|2|/bin/prog",
      "F|3|0x30|0|main|a.c|3|/bin/prog",
      "S|1|1|3",
      "S|2|2|3",
      "M|50|start \"here\"",
      "T|regular|100|1100|16|0",
      "s|1|1000|1|0|1000",
      "s|2|100|1|0|100",
      "E",
      "T|regular|200|1150|16|0",
      "s|2|150|1|100|150",
      "E",
      "T|peak|250|1200|16|0",
      "s|1|1000|1|1000|1000",
      "s|2|200|1|200|200",
      "E",
      "T|regular|300|1160|16|0",
      "s|2|160|1|10|200",
      "E",
      "X|300",
  }));
}

// A finding judged from the curves, of `site` alone, its floor `troughs`
// (the boundaries of its two epochs at times 0, 100 and 300).
Leak curve_finding(std::size_t context, SiteId site, std::vector<Trough> troughs) {
  Finding f;
  f.parts = {{.frames = {}, .sites = {site}, .main_site = site, .kept_bytes = 100}};
  f.sites = {site};
  f.kept_bytes = 100;
  f.kept_blocks = 2;
  f.kept_by_epoch = {50, 50};
  Leak leak;
  leak.context = context;
  leak.kind = LeakKind::left_behind;
  leak.growth_bytes = 1024;
  leak.cycles = 2;
  leak.confidence = 0.9;
  leak.evidence = CurveEvidence{.finding = f, .cycles_left = 2, .troughs = std::move(troughs), .site_kept = {100}};
  return leak;
}

// The analysis with site 2's context (ranked second) as a leak finding.
HeapAnalysis with_leak(const Model& model) {
  HeapAnalysis analysis;
  ContextOptions options;
  options.threshold = 0;
  analysis.contexts = group_contexts(model, options);
  analysis.leaks.boundaries = {0, 100, 300};
  analysis.leaks.horizon = 2;
  analysis.leaks.suspects = {curve_finding(1, SiteId{1}, {{0, 100, 100}, {3, 300, 10}})};
  return analysis;
}

TEST(PlotData, TheLeakIsTheBottomBand) {
  Model model = read_text(dipping());
  HeapAnalysis analysis = with_leak(model);
  ASSERT_EQ(analysis.contexts.contexts.size(), 2u);
  ASSERT_EQ(analysis.contexts.contexts[1].sites, std::vector<SiteId>{SiteId{1}});
  PlotData data = make_plot_data(model, analysis, {});
  ASSERT_EQ(data.bands.size(), 3u);
  EXPECT_EQ(data.bands[0].kind, BandKind::leak);
  EXPECT_EQ(data.bands[0].legend, "LEAK: g (a.c:2) \xE2\x86\x90 main");
  EXPECT_EQ(data.bands[0].frames, (std::vector<std::string>{"g (a.c:2)", "main (a.c:3)"}));
  EXPECT_TRUE(data.bands[0].detail.find("left about 50 B behind, 2 of 2 cycles") !=
              std::string::npos)
      << data.bands[0].detail;
  EXPECT_EQ(data.bands[1].kind, BandKind::context);
  EXPECT_EQ(data.bands[1].legend, "f (a.c:1) \xE2\x86\x90 main");
  EXPECT_EQ(data.bands[2].kind, BandKind::extra);  // no stacks band: none recorded
  EXPECT_EQ(data.title, "./prog a b (test.prof)");
  EXPECT_EQ(data.time_unit, "i");
  EXPECT_EQ(data.end_time, 300);
}

TEST(PlotData, PointsBetweenSnapshotsShowTheTrough) {
  Model model = read_text(dipping());
  PlotData data = make_plot_data(model, with_leak(model), {});
  // 100, 200, 250 (peak), then two points before 300 for the dip to 10.
  ASSERT_EQ(data.times.size(), 6u);
  EXPECT_EQ(data.times[0], 100);
  EXPECT_EQ(data.times[2], 250);
  EXPECT_NEAR(data.times[3], 250 + 50.0 / 3, 1e-9);
  EXPECT_NEAR(data.times[4], 250 + 100.0 / 3, 1e-9);
  EXPECT_EQ(data.times[5], 300);
  EXPECT_EQ(data.between, (std::vector<bool>{false, false, false, true, true, false}));
  // From 200 at the peak: staying at its high of 200, down to its low of 10,
  // then up to 160 moves less than going down to 10 first.
  EXPECT_EQ(data.bands[0].bytes, (std::vector<std::uint64_t>{100, 150, 200, 200, 10, 160}));
  // Site 1 did not move: it stays at 1000 in between.
  EXPECT_EQ(data.bands[1].bytes, (std::vector<std::uint64_t>{1000, 1000, 1000, 1000, 1000, 1000}));
  EXPECT_EQ(data.bands[2].bytes, (std::vector<std::uint64_t>{16, 16, 16, 16, 16, 16}));
}

TEST(PlotData, TheLowFirstWhenThatMovesLeast) {
  Model model = read_text(profile(records({
      "F|1|0x10|0|f|a.c|1|/bin/prog",
      "S|1|1",
      "T|regular|100|150|0|0",
      "s|1|150|1|0|150",
      "E",
      "T|regular|400|160|0|0",
      "s|1|160|1|10|200",
      "E",
      "X|400",
  })));
  PlotData data = make_plot_data(model, analyze_heap(model, {}), {});
  EXPECT_EQ(data.times, (std::vector<double>{100, 200, 300, 400}));
  ASSERT_EQ(data.bands.size(), 1u);
  EXPECT_EQ(data.bands[0].bytes, (std::vector<std::uint64_t>{150, 10, 200, 160}));
}

TEST(PlotData, BandsAddUpToEachSnapshotsTotal) {
  Model model = read_text(dipping());
  PlotData data = make_plot_data(model, with_leak(model), {});
  for (std::size_t s = 0; s < data.times.size(); ++s) {
    if (data.between[s]) continue;
    auto snapshot = std::find_if(model.snapshots.begin(), model.snapshots.end(),
                                 [&](const Snapshot& t) { return t.time == data.times[s]; });
    ASSERT_NE(snapshot, model.snapshots.end());
    EXPECT_EQ(data.below(data.bands.size(), s), snapshot->total()) << "at " << data.times[s];
  }
  EXPECT_EQ(data.max_total(), 1216);
}

TEST(PlotData, TroughsSitOnTheLeaksBand) {
  Model model = read_text(dipping());
  PlotData data = make_plot_data(model, with_leak(model), {});
  ASSERT_EQ(data.troughs.size(), 1u);
  const PlotTroughs& troughs = data.troughs[0];
  EXPECT_EQ(troughs.band, 0u);
  EXPECT_EQ(troughs.legend, "LEAK: its floor, +1 KiB per cycle");
  ASSERT_EQ(troughs.points.size(), 2u);
  EXPECT_EQ(troughs.points[0].time, 100);
  EXPECT_EQ(troughs.points[0].bytes, 100);
  EXPECT_EQ(troughs.points[1].time, data.times[4]);  // the point of the dip, between snapshots
  EXPECT_EQ(troughs.points[1].bytes, 10);
}

TEST(PlotData, PeakMarkersAndTitle) {
  Model model = read_text(dipping());
  PlotOptions options;
  options.title = "my\ttitle \"x\"";
  PlotData data = make_plot_data(model, with_leak(model), options);
  ASSERT_TRUE(data.peak);
  EXPECT_EQ(data.peak->time, 250);
  EXPECT_EQ(data.peak->bytes, 1216);
  ASSERT_EQ(data.markers.size(), 1u);
  EXPECT_EQ(data.markers[0].time, 50);
  EXPECT_EQ(data.markers[0].label, "start \"here\"");
  EXPECT_EQ(data.title, "my\\ttitle \"x\"");  // shown(): escaped
  EXPECT_TRUE(data.totals.empty());
}

TEST(PlotData, WithoutLeaksTheRankOrderFromTheBottom) {
  Model model = read_text(dipping());
  HeapAnalysis analysis;
  ContextOptions options;
  options.threshold = 0;
  options.top = 1;
  analysis.contexts = group_contexts(model, options);
  PlotData data = make_plot_data(model, analysis, {});
  ASSERT_EQ(data.bands.size(), 3u);
  EXPECT_EQ(data.bands[0].legend, "f (a.c:1) \xE2\x86\x90 main");
  EXPECT_EQ(data.bands[1].kind, BandKind::other);
  EXPECT_EQ(data.bands[1].legend, "1 other place");  // singular
  EXPECT_TRUE(data.troughs.empty());
}

TEST(PlotData, StacksBandWhenRecorded) {
  Model model = read_text(profile(records({
      "F|1|0x10|0|f|a.c|1|/bin/prog",
      "S|1|1",
      "T|regular|100|10|0|4096",
      "s|1|10|1|0|10",
      "E",
      "X|100",
  })));
  PlotData data = make_plot_data(model, analyze_heap(model, {}), {});
  ASSERT_EQ(data.bands.size(), 2u);
  EXPECT_EQ(data.bands[1].kind, BandKind::stacks);
  EXPECT_EQ(data.bands[1].legend, "stacks");
  EXPECT_EQ(data.bands[1].bytes, std::vector<std::uint64_t>{4096});
}

TEST(PlotData, MassifTotalsWhenSomeSnapshotsHaveNoSites) {
  Model model;
  model.file = "massif.out.1";
  model.format = Format::massif;
  model.header.time_unit = "i";
  Snapshot empty;
  empty.time = 10;
  empty.heap = 100;
  model.snapshots = {empty, empty};
  model.snapshots[1].time = 20;
  model.end_time = 20;
  PlotData data = make_plot_data(model, analyze_heap(model, {}), {});
  EXPECT_TRUE(data.bands.empty());
  ASSERT_EQ(data.totals.size(), 2u);
  EXPECT_EQ(data.totals[1].time, 20);
  EXPECT_EQ(data.totals[1].bytes, 100);
}

TEST(PlotData, NoSnapshotIsAnError) {
  Model model = read_text(profile(records({"X|0"})));
  try {
    make_plot_data(model, analyze_heap(model, {}), {});
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.file(), kName);
    EXPECT_TRUE(contains(error.what(), "no complete snapshot")) << error.what();
  }
}

// thin_samples keeps the first and last samples, every slice's lowest and
// highest total and the bottom band's lowest: a one-sample dip survives.
// Bands beyond the legend's room (max_bands) go to the other places: the
// leak suspects first, a leak with its troughs taking two lines.
TEST(PlotData, BandsBeyondTheBudgetAreOtherPlaces) {
  std::string body = records({"F|1|0x10|0|main|a.c|1|/bin/prog"});
  for (int i = 2; i <= 21; ++i) {
    body += records({"F|" + std::to_string(i) + "|0x" + std::to_string(i * 100) + "|0|f" +
                         std::to_string(i) + "|a.c|" + std::to_string(i) + "|/bin/prog",
                     "S|" + std::to_string(i - 1) + "|" + std::to_string(i) + "|1"});
  }
  body += records({"T|regular|100|2210|0|0"});
  for (int i = 1; i <= 20; ++i) {
    body += records({"s|" + std::to_string(i) + "|" + std::to_string(100 + i) + "|1|0|" +
                     std::to_string(100 + i)});
  }
  body += records({"E", "X|200"});
  Model model = read_text(profile(body));
  ContextOptions options;
  options.threshold = 0;
  options.top = 20;
  HeapAnalysis analysis;
  analysis.contexts = group_contexts(model, options);
  ASSERT_EQ(analysis.contexts.contexts.size(), 20u);
  analysis.leaks.boundaries = {0, 100, 200};
  analysis.leaks.horizon = 2;
  for (std::size_t c : {3u, 7u}) {
    SiteId site = analysis.contexts.contexts[c].sites.front();
    analysis.leaks.suspects.push_back(curve_finding(c, site, {{0, 100, 100}}));
  }
  PlotOptions plot;
  plot.max_bands = 6;
  PlotData data = make_plot_data(model, analysis, plot);
  // Two leaks (4 lines), one context, the other places: 6 lines (no extra heap).
  ASSERT_EQ(data.bands.size(), 4u);
  EXPECT_EQ(data.bands[0].kind, BandKind::leak);
  EXPECT_EQ(data.bands[1].kind, BandKind::leak);
  EXPECT_EQ(data.bands[2].kind, BandKind::context);
  EXPECT_EQ(data.bands[3].kind, BandKind::other);
  EXPECT_EQ(data.bands[3].legend, "17 other places");
  EXPECT_EQ(data.troughs.size(), 2u);
  std::uint64_t total = 0;
  for (const PlotBand& band : data.bands) total += band.bytes[0];
  EXPECT_EQ(total, 2210u);  // every site still drawn: 101 + ... + 120
  plot.max_bands = 2;       // room for one leak's line: the other is folded
  data = make_plot_data(model, analysis, plot);
  ASSERT_EQ(data.bands.size(), 2u);
  EXPECT_EQ(data.bands[1].legend,
            "19 other places (1 leak suspect among them: strata report lists them)");
  EXPECT_EQ(data.troughs.size(), 1u);
}

// A trough line has no more points than the graph has samples.
TEST(ThinSamples, TroughLinesToo) {
  PlotData data;
  data.times = {0, 1};
  data.between = {false, false};
  PlotTroughs troughs;
  for (int i = 0; i < 10000; ++i) troughs.points.push_back({double(i), double(i % 7)});
  data.troughs = {troughs};
  thin_samples(data, 300);
  EXPECT_LE(data.troughs[0].points.size(), 202u);
  EXPECT_EQ(data.troughs[0].points.front().time, 0);
  EXPECT_EQ(data.troughs[0].points.back().time, 9999);
}

TEST(ThinSamples, KeepsCrestsAndTroughs) {
  PlotData data;
  PlotBand bottom, top;
  for (std::size_t k = 0; k < 10000; ++k) {
    data.times.push_back(static_cast<double>(k));
    data.between.push_back(false);
    bottom.bytes.push_back(k == 4321 ? 5 : 1000 + k % 7);
    top.bytes.push_back(k == 7777 ? 90000 : 2000 + (k * 37) % 101);
  }
  data.bands = {bottom, top};
  thin_samples(data, 300);
  EXPECT_LE(data.times.size(), 302u);
  EXPECT_GE(data.times.size(), 100u);
  EXPECT_EQ(data.times.front(), 0.0);
  EXPECT_EQ(data.times.back(), 9999.0);
  ASSERT_EQ(data.bands[0].bytes.size(), data.times.size());
  ASSERT_EQ(data.between.size(), data.times.size());
  auto at = [&](double time) {
    auto it = std::find(data.times.begin(), data.times.end(), time);
    return it == data.times.end() ? data.times.size() : std::size_t(it - data.times.begin());
  };
  ASSERT_LT(at(4321.0), data.times.size());
  EXPECT_EQ(data.bands[0].bytes[at(4321.0)], 5u);
  ASSERT_LT(at(7777.0), data.times.size());
  EXPECT_EQ(data.bands[1].bytes[at(7777.0)], 90000u);
  EXPECT_TRUE(std::is_sorted(data.times.begin(), data.times.end()));
}

TEST(ThinSamples, LeavesFewSamplesAlone) {
  PlotData data;
  data.times = {0, 1, 2};
  data.between = {false, false, false};
  data.bands.resize(1);
  data.bands[0].bytes = {1, 2, 3};
  thin_samples(data, 300);
  EXPECT_EQ(data.times.size(), 3u);
  thin_samples(data, 0);
  EXPECT_EQ(data.times.size(), 3u);
}

// thin_markers keeps the first marker of each slice of the time axis, in
// order, and leaves the count of all.
TEST(ThinMarkers, TheFirstOfEachSlice) {
  PlotData data;
  data.start_time = 0;
  data.end_time = 1000;
  for (int k = 0; k < 100000; ++k) data.markers.push_back({k / 100.0, std::to_string(k)});
  data.marker_count = data.markers.size();
  thin_markers(data, 200);
  ASSERT_EQ(data.markers.size(), 200u);
  EXPECT_EQ(data.markers.front().label, "0");
  EXPECT_EQ(data.markers[1].label, "500");  // 5 time units a slice
  EXPECT_EQ(data.marker_count, 100000u);
  PlotData few;
  few.markers = {{1, "a"}, {1, "b"}};
  thin_markers(few, 200);
  EXPECT_EQ(few.markers.size(), 2u);
}

}  // namespace
}  // namespace strata::test
