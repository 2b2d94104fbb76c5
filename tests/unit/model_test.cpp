// SPDX-License-Identifier: GPL-2.0-or-later
// The model's queries: the peak, the state at a snapshot, the series, a
// stack cut at the recorded depth.
#include "site_series.hpp"
#include "strata_profile.hpp"

namespace strata::test {
namespace {

Snapshot totals(std::uint64_t time, std::uint64_t heap, std::uint64_t extra,
                SnapshotKind kind = SnapshotKind::regular) {
  Snapshot snapshot;
  snapshot.kind = kind;
  snapshot.time = time;
  snapshot.heap = heap;
  snapshot.extra = extra;
  return snapshot;
}

TEST(Model, PeakWithoutPeakSnapshotIsTheLargestTotal) {
  Model model;
  EXPECT_EQ(peak_snapshot(model), std::nullopt);
  model.snapshots = {totals(1, 10, 0), totals(2, 30, 5), totals(3, 35, 0), totals(4, 36, 0),
                     totals(5, 30, 6)};
  EXPECT_EQ(peak_snapshot(model), 3u);
  model.snapshots[4].extra = 6;  // 36 too: the first of the largest totals counts
  EXPECT_EQ(peak_snapshot(model), 3u);
}

TEST(Model, LastPeakSnapshotWins) {
  Model model;
  model.snapshots = {totals(1, 50, 0, SnapshotKind::peak), totals(2, 60, 0),
                     totals(3, 55, 0, SnapshotKind::peak), totals(4, 10, 0)};
  EXPECT_EQ(peak_snapshot(model), 2u);  // as the file says, even if a total is larger
}

TEST(Model, InAProfileCutShortAHigherHeapOvertakesThePeak) {
  Model model;
  model.cut_short = true;
  model.snapshots = {totals(1, 50, 0, SnapshotKind::peak), totals(2, 40, 0), totals(3, 45, 0)};
  EXPECT_EQ(peak_snapshot(model), 0u);
  model.snapshots.push_back(totals(4, 60, 0));  // the heap still rising when killed
  EXPECT_EQ(peak_snapshot(model), 3u);
}

// A stack of as many frames as --depth, inlined ones not counted, whose
// outermost is no start of the process or of a thread, was cut there.
TEST(Model, AStackCutAtTheRecordedDepth) {
  Model model;
  auto frame = [&](const char* function, bool inlined = false) {
    model.frames.push_back({.address = 0x1000 + model.frames.size(), .inlined = inlined,
                            .function = function, .file = "", .line = 0, .object = "/tmp/p",
                            .offset = std::nullopt});
    return FrameId{static_cast<std::uint32_t>(model.frames.size() - 1)};
  };
  FrameId load = frame("load"), parse = frame("parse", true), read = frame("read"),
          restore = frame("restore"), main = frame("main");
  std::vector<FrameId> cut = {load, parse, read, restore}, whole = {load, parse, read, main};
  EXPECT_EQ(cut_at_depth(model, cut), std::nullopt);  // no --depth recorded
  model.header.options = {{"depth", "3"}};
  EXPECT_EQ(recorded_depth(model), 3u);
  EXPECT_EQ(cut_at_depth(model, cut), 3u);              // 3 calls, parse inlined into load
  EXPECT_EQ(cut_at_depth(model, whole), std::nullopt);  // it ends at main
  EXPECT_EQ(cut_at_depth(model, {load, parse, read}), std::nullopt);  // 2 calls
  model.header.options = {{"depth", "x"}};
  EXPECT_EQ(recorded_depth(model), std::nullopt);
}

TEST(Model, SeriesBeforeTheFirstPoint) {
  Model model = read_text(profile(records({
      "S|1",
      "S|2",
      "T|regular|1|5|0|0",
      "s|1|5|1|0|5",
      "E",
      "T|regular|2|12|0|0",
      "s|2|7|1|0|9",
      "E",
  })));
  SiteSeries series(model);
  SitePoint before = series.at(SiteId{1}, 0);
  EXPECT_EQ(before.bytes, 0u);
  EXPECT_EQ(before.max, 0u);
  EXPECT_EQ(series.at(SiteId{1}, 1).max, 9u);
  std::vector<SiteSample> second = sites_at(model, 1);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].max, 5u);  // steady since the snapshot before
  EXPECT_EQ(second[1].max, 9u);
}

// `count` samples of distinct sites from `first` on, in a scrambled order;
// each holds 3 times its site id in bytes.
std::vector<SiteSample> scrambled(std::size_t count, std::size_t first) {
  std::vector<SiteSample> samples;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t id = first + (i * 7919) % count;  // 7919 is prime: a permutation
    samples.push_back({static_cast<SiteId>(id), 3 * id, i, 0, 3 * id});
  }
  return samples;
}

void expect_sorted_by_site(std::vector<SiteSample> samples) {
  std::vector<SiteSample> scratch;
  std::size_t count = samples.size();
  sort_by_site(samples, scratch);
  ASSERT_EQ(samples.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_EQ(index(samples[i].site), index(samples[0].site) + i);
    EXPECT_EQ(samples[i].bytes, 3 * index(samples[i].site));  // the sample moved whole
    EXPECT_EQ(samples[i].max, samples[i].bytes);
  }
}

TEST(Model, SortBySite) {
  expect_sorted_by_site({});
  expect_sorted_by_site(scrambled(5, 0));
  expect_sorted_by_site(scrambled(63, 1000));
  expect_sorted_by_site(scrambled(300, 0));       // one byte of site ids, then two
  expect_sorted_by_site(scrambled(1000, 70000));  // three bytes
  std::vector<SiteSample> samples = scrambled(2000, 1u << 24), scratch;  // four bytes
  sort_by_site(samples, scratch);
  EXPECT_EQ(index(samples.front().site), 1u << 24);
  EXPECT_EQ(samples.back().bytes, 3 * ((1u << 24) + 1999));
  EXPECT_EQ(samples[1].blocks, 1679u);  // the second site came at 1679: 1679 * 7919 % 2000 == 1
}

}  // namespace
}  // namespace strata::test
