// SPDX-License-Identifier: GPL-2.0-or-later
// The model's queries: the peak, the state at a snapshot, the series.
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

}  // namespace
}  // namespace strata::test
