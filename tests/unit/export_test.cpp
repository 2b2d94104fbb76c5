// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=massif (export.hpp): the massif.out file of small
// hand-written profiles, read back; and the size estimated before writing.
#include "render/export.hpp"

#include <sstream>

#include "strata_profile.hpp"

namespace strata::test {
namespace {

// Three sites under main, `snapshots` regular snapshots, site 1 growing.
std::string growing(std::size_t snapshots) {
  std::string body = records({
      "F|1|0x10|0|f|a.c|1|/bin/prog|0x10",
      "F|2|0x20|0|g|a.c|2|/bin/prog|0x20",
      "F|3|0x400030|0|||0|/bin/prog|0x30",
      "F|4|0x40|0|main|a.c|9|/bin/prog|0x40",
      "S|1|1|4",
      "S|2|2|4",
      "S|3|3|2|4",
  });
  for (std::size_t k = 0; k < snapshots; ++k) {
    std::string bytes = std::to_string(1000 + 10 * k);
    body += records({"T|regular|" + std::to_string(10 * (k + 1)) + "|" +
                         std::to_string(1000 + 10 * k + 600) + "|0|0",
                     "s|1|" + bytes + "|1|0|" + bytes, "s|2|500|1|0|500", "s|3|100|1|0|100", "E"});
  }
  return "strata-profile\t2\ncmd\t./prog\npid\t42\nppid\t41\ntime_unit\ti\n" + body +
         records({"X|" + std::to_string(10 * snapshots + 5)});
}

std::string massif_text(const Model& model, const MassifOptions& options) {
  std::ostringstream out;
  write_massif(model, options, out);
  return out.str();
}

TEST(ExportMassif, DetailedAtEveryNthThePeakAndTheLast) {
  Model model = read_text(growing(25));
  std::string text = massif_text(model, MassifOptions{});
  std::istringstream in(text);
  Model back = read_massif(in, "back");
  ASSERT_EQ(back.snapshots.size(), 25u);
  std::vector<std::size_t> detailed;
  for (std::size_t i = 0; i < back.snapshots.size(); ++i) {
    if (back.snapshots[i].site_data != SiteData::none) detailed.push_back(i);
  }
  // Every 10th (9, 19), and the last, which is the peak.
  EXPECT_EQ(detailed, (std::vector<std::size_t>{9, 19, 24}));
  EXPECT_EQ(back.snapshots[24].kind, SnapshotKind::peak);
  EXPECT_TRUE(contains(text,
                       " --strata-convert-threshold=1.0 --strata-convert-detailed-freq=10 "
                       "--strata-convert-dropped=interval-lows,markers\n"));
}

TEST(ExportMassif, TreeInMassifsOrderWithOffsets) {
  Model model = read_text(growing(1));
  std::string text = massif_text(model, MassifOptions{.threshold = 10, .detailed_freq = 1});
  // The most bytes first; the 100 bytes of the frame without a symbol are
  // under 10% of 1,600: in the threshold's entry, last.
  EXPECT_TRUE(contains(text,
                       "heap_tree=peak\n"
                       "n3: 1600 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
                       " n1: 1000 0x10: f (a.c:1)\n"
                       "  n0: 1000 0x40: main (a.c:9)\n"
                       " n1: 500 0x20: g (a.c:2)\n"
                       "  n0: 500 0x40: main (a.c:9)\n"
                       " n0: 100 in 1 place, below massif's threshold (10.00%)\n"))
      << text;
  text = massif_text(model, MassifOptions{.threshold = 0, .detailed_freq = 1});
  EXPECT_TRUE(contains(text, " n1: 100 0x400030: ??? (in /bin/prog+0x30)\n")) << text;
}

TEST(ExportMassif, SizeEstimated) {
  for (std::size_t snapshots : {5u, 64u, 1000u}) {
    Model model = read_text(growing(snapshots));
    for (MassifOptions options :
         {MassifOptions{}, MassifOptions{.threshold = 0, .detailed_freq = 1}}) {
      double size = static_cast<double>(massif_text(model, options).size());
      double estimate = static_cast<double>(massif_size(model, options));
      SCOPED_TRACE(std::to_string(snapshots) + " snapshots");
      // Exact with at most kSizeSampleTrees trees, else near.
      if (snapshots <= kSizeSampleTrees) {
        EXPECT_EQ(estimate, size);
      } else {
        EXPECT_NEAR(estimate, size, size * 0.02);
      }
    }
  }
}

}  // namespace
}  // namespace strata::test
