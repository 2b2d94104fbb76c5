// SPDX-License-Identifier: GPL-2.0-or-later
// The reader of strata profiles, on small hand-written profiles.
#include <array>

#include "site_series.hpp"
#include "strata_profile.hpp"
#include "util/text.hpp"

namespace strata::test {
namespace {

// Two sites under main, five snapshots: regular, regular, peak, user, final.
std::string two_sites(const std::string& end = "X|450") {
  return profile(records({
      "F|1|0x10|0|f|a.c|1|/bin/prog",
      "F|2|0x20|0|g|a.c|2|/bin/prog",
      "F|3|0x30|0|main|a.c|3|/bin/prog",
      "S|1|1|3",
      "S|2|2|3",
      "T|regular|100|300|24|0",
      "s|1|100|1|0|100",
      "s|2|200|2|0|250",
      "E",
      "T|regular|200|350|32|0",  // site 2 unchanged
      "s|1|150|2|50|180",
      "E",
      "T|peak|250|500|40|0",  // complete: every site holding bytes
      "s|2|200|2|200|200",
      "s|1|300|3|300|300",
      "E",
      "T|user|300|200|16|0",  // relative to the regular snapshot at 200, not the peak
      "s|1|0|0|0|300",
      "E",
      "T|final|400|200|16|0",
      "E",
      end,
  }));
}

TEST(ReadStrata, FormatExample) {
  Model model = read_text(format_example());
  EXPECT_EQ(model.format, Format::strata);
  EXPECT_EQ(model.header.cmd, "./leaky-player --cycles 3");
  EXPECT_EQ(model.header.pid, 4242u);
  EXPECT_EQ(model.header.ppid, 4241u);
  EXPECT_EQ(model.header.time_unit, "i");
  ASSERT_EQ(model.header.options.size(), 5u);
  EXPECT_EQ(model.header.options[2].name, "peak_inaccuracy");
  EXPECT_EQ(model.header.options[2].value, "1.0");
  ASSERT_EQ(model.frames.size(), 4u);
  EXPECT_EQ(model.frames[1].function, "decode_frame");
  EXPECT_TRUE(model.frames[1].inlined);
  EXPECT_FALSE(model.frames[2].inlined);
  EXPECT_EQ(model.frames[1].address, model.frames[2].address);
  EXPECT_EQ(model.frames[3].line, 201u);
  EXPECT_EQ(model.frames[3].object, "/tmp/leaky-player");
  ASSERT_EQ(model.sites.size(), 1u);
  EXPECT_EQ(model.sites[0].frames,
            (std::vector<FrameId>{FrameId{0}, FrameId{1}, FrameId{2}, FrameId{3}}));
  ASSERT_EQ(model.markers.size(), 1u);
  EXPECT_EQ(model.markers[0].time, 120433u);
  EXPECT_EQ(model.markers[0].label, "video opened");
  ASSERT_EQ(model.snapshots.size(), 3u);
  EXPECT_EQ(model.snapshots[1].kind, SnapshotKind::peak);
  EXPECT_EQ(model.snapshots[1].total(), 49152u + 1584u);
  EXPECT_FALSE(model.cut_short);
  EXPECT_EQ(model.end_time, 152000u);
  EXPECT_EQ(peak_snapshot(model), 1u);
}

TEST(ReadStrata, ChangesBecomePerSiteSeries) {
  Model model = read_text(two_sites());
  ASSERT_EQ(model.snapshots.size(), 5u);
  EXPECT_EQ(model.snapshots[0].site_data, SiteData::changes);
  EXPECT_EQ(model.snapshots[2].site_data, SiteData::complete);
  EXPECT_EQ(model.snapshots[4].kind, SnapshotKind::final);
  SiteSeries series(model);
  auto f = series.points(SiteId{0});
  ASSERT_EQ(f.size(), 3u);  // the peak is not part of the series
  EXPECT_EQ(f[1].snapshot, 1u);
  EXPECT_EQ(f[1].bytes, 150u);
  EXPECT_EQ(f[1].min, 50u);
  EXPECT_EQ(f[1].max, 180u);
  EXPECT_EQ(f[2].snapshot, 3u);
  EXPECT_EQ(f[2].max, 300u);  // the crest between two snapshots
  auto g = series.points(SiteId{1});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].max, 250u);
}

TEST(ReadStrata, UnlistedSitesHoldTheirBytes) {
  Model model = read_text(two_sites());
  SiteSeries series(model);
  SitePoint g = series.at(SiteId{1}, 4);
  EXPECT_EQ(g.snapshot, 4u);
  EXPECT_EQ(g.bytes, 200u);
  EXPECT_EQ(g.blocks, 2u);
  EXPECT_EQ(g.min, 200u);  // held steady: min = max = bytes
  EXPECT_EQ(g.max, 200u);
  EXPECT_EQ(series.at(SiteId{0}, 1).min, 50u);
}

TEST(ReadStrata, PeakIsCompleteAndOutsideTheChain) {
  Model model = read_text(two_sites());
  EXPECT_EQ(peak_snapshot(model), 2u);
  std::vector<SiteSample> at_peak = sites_at(model, 2);
  ASSERT_EQ(at_peak.size(), 2u);
  EXPECT_EQ(at_peak[0].site, SiteId{0});  // sorted by site
  EXPECT_EQ(at_peak[0].bytes, 300u);
  EXPECT_EQ(at_peak[1].bytes, 200u);
  std::vector<SiteSample> after = sites_at(model, 3);
  ASSERT_EQ(after.size(), 1u);  // f fell to 0, g still holds 200
  EXPECT_EQ(after[0].site, SiteId{1});
  EXPECT_EQ(after[0].bytes, 200u);
}

TEST(ReadStrata, PeakWrittenLateGoesToItsPlaceInTime) {
  Model model = read_text(profile(records({
      "S|1",
      "T|regular|100|10|0|0",
      "s|1|10|1|0|10",
      "E",
      "T|regular|200|10|0|0",
      "E",
      "T|peak|150|20|0|0",
      "s|1|20|2|20|20",
      "E",
      "T|regular|300|5|0|0",
      "s|1|5|1|5|20",
      "E",
      "X|300",
  })));
  ASSERT_EQ(model.snapshots.size(), 4u);
  EXPECT_EQ(model.snapshots[1].kind, SnapshotKind::peak);
  EXPECT_EQ(model.snapshots[1].time, 150u);
  EXPECT_EQ(peak_snapshot(model), 1u);
  EXPECT_EQ(sites_at(model, 2)[0].bytes, 10u);
  EXPECT_TRUE(model.sites[0].frames.empty());  // a site with no frame
}

TEST(ReadStrata, PeakOlderThanThePeakBeforeIsAnError) {
  expect_strata_error(profile(records({
                          "T|peak|150|20|0|0",
                          "E",
                          "T|regular|200|10|0|0",
                          "E",
                          "T|peak|120|20|0|0",
                      })),
                      10, "older than the peak before it (150)");
}

TEST(ReadStrata, Unescapes) {
  Model model = read_text(records({
      "strata-profile|1",
      R"(cmd|a\tb\nc\\d\re)",
      "pid|1",
      "ppid|0",
      "time_unit|ms",
      R"(opt|alloc_fn|my\\alloc)",
      R"(F|1|0x1|0|operator new\t(x)||0|)",
      R"(M|5|tab\there)",
  }));
  EXPECT_EQ(model.header.cmd, "a\tb\nc\\d\re");
  EXPECT_EQ(model.header.options[0].value, "my\\alloc");
  EXPECT_EQ(model.frames[0].function, "operator new\t(x)");
  EXPECT_EQ(model.frames[0].file, "");
  EXPECT_EQ(model.frames[0].object, "");
  EXPECT_EQ(model.markers[0].label, "tab\there");
}

TEST(ReadStrata, BadEscapes) {
  expect_strata_error(profile(records({R"(M|5|a\xb)"})), 6, "bad escape");
  expect_strata_error(profile(records({R"(M|5|a\)"})), 6, "bad escape");
  expect_strata_error(records({"strata-profile|1", R"(cmd|\q)"}), 2, "bad escape");
}

// ---- profiles cut short ------------------------------------------------------

TEST(ReadStrata, NoEndRecordMeansCutShort) {
  std::string text = two_sites("M|420|after the last snapshot");
  Model model = read_text(text);
  EXPECT_TRUE(model.cut_short);
  EXPECT_EQ(model.snapshots.size(), 5u);
  EXPECT_EQ(model.end_time, 400u);
  EXPECT_EQ(model.markers.size(), 1u);  // complete records after the last E are kept
}

// The outline `strata record` reads for its notes: all but the samples,
// counts and lifetime events, with the same totals, frames and sites.
TEST(ReadStrata, OutlineLeavesOutTheDetail) {
  std::istringstream in(two_sites());
  Model outline = read_strata(in, kName, Detail::outline);
  Model model = read_text(two_sites());
  EXPECT_EQ(outline.frames.size(), model.frames.size());
  EXPECT_EQ(outline.sites.size(), model.sites.size());
  ASSERT_EQ(outline.snapshots.size(), model.snapshots.size());
  for (std::size_t i = 0; i < model.snapshots.size(); ++i) {
    EXPECT_EQ(outline.snapshots[i].total(), model.snapshots[i].total());
    EXPECT_TRUE(outline.snapshots[i].sites.empty());
  }
  EXPECT_FALSE(model.snapshots[0].sites.empty());
  EXPECT_EQ(outline.end_time, 450u);
  EXPECT_FALSE(outline.cut_short);

  std::istringstream cut(two_sites("M|420|after the last snapshot"));
  EXPECT_TRUE(read_strata(cut, kName, Detail::outline).cut_short);
}

TEST(ReadStrata, OutlineKeepsEpochsAndFreeStacks) {
  std::string text =
      records({"strata-profile|3", "cmd|./prog", "pid|42", "ppid|41", "time_unit|B",
               "opt|lifetimes|yes", "opt|free_stacks|yes", "F|1|0x1000|0|make|p.c|10|/tmp/p|0x1000",
               "F|2|0x2000|0|main|p.c|20|/tmp/p|0x2000", "F|3|0x3000|0|drop|p.c|30|/tmp/p|0x3000",
               "S|1|1|2", "P|1|3|2", "L|0|100|1", "b|1|0|64|1", "E", "T|regular|100|64|0|0",
               "s|1|64|1|0|64", "c|1|1|64|0", "E", "L|1|101|1", "d|1|0|1|64|1", "E", "X|103"});
  std::istringstream in(text);
  Model outline = read_strata(in, kName, Detail::outline);
  EXPECT_TRUE(outline.has_lifetimes);
  EXPECT_EQ(outline.lifetimes.free_stacks_frames.size(), 1u);
  EXPECT_EQ(outline.sites[0].counts.calls, 0u);  // c records are detail
  EXPECT_EQ(read_text(text).sites[0].counts.calls, 1u);
  EXPECT_EQ(outline.end_time, 103u);
}

// Under Valgrind a short program's epochs, counted in instructions, can
// share one millisecond; the order of the file says which epochs a marker
// came after, where its time cannot.
TEST(ReadStrata, MarkersArePlacedAmongTheEpochsByTheFile) {
  std::string text = records(
      {"strata-profile|3", "cmd|./prog", "pid|42", "ppid|41", "time_unit|ms", "opt|lifetimes|yes",
       "opt|epoch_unit|i", "F|1|0x1000|0|make|p.c|10|/tmp/p|0x1000", "S|1|1", "M|5|before",
       "L|0|1000|16|5", "b|1|0|64|1", "E", "M|5|cycle", "L|1|1016|16|5", "b|1|1|64|1", "E",
       "M|5|cycle", "L|2|1032|16|5", "b|1|2|64|1", "E", "T|regular|5|192|0|0", "s|1|192|3|0|192",
       "E", "M|7|cycle", "L|3|1048|16|8", "a|1|0|64|1", "a|1|1|64|1", "a|1|2|64|1", "E", "X|8"});
  Model model = read_text(text);
  ASSERT_EQ(model.markers.size(), 4u);
  // Every epoch began at 5 ms: the first tick at 5 ms is the first epoch's,
  // and each marker is at the end of the epochs whose records came before it.
  EXPECT_EQ(model.markers[0].tick, 1000u);
  EXPECT_EQ(model.markers[1].tick, 1016u);
  EXPECT_EQ(model.markers[2].tick, 1032u);
  EXPECT_EQ(model.markers[3].tick, 1048u);
  EXPECT_EQ(model.lifetimes.nearest_to_tick(model.markers[2].tick), 2u);
  // Without epoch_unit the tick is the time.
  std::istringstream plain(two_sites("M|420|after the last snapshot"));
  Model untimed = read_strata(plain, kName, Detail::outline);
  ASSERT_EQ(untimed.markers.size(), 1u);
  EXPECT_EQ(untimed.markers[0].tick, 420u);
}

TEST(ReadStrata, UnfinishedSnapshotIsDropped) {
  Model model = read_text(two_sites("T|regular|999|1|0|0") + records({"s|1|1|1|0|1"}));
  EXPECT_TRUE(model.cut_short);
  EXPECT_EQ(model.snapshots.size(), 5u);
  EXPECT_EQ(model.snapshots.back().time, 400u);
}

TEST(ReadStrata, LastLineWithoutNewlineIsDropped) {
  std::string text = two_sites("T|regular|999|1|0|0") + "s\t1\t1\t1\t0";
  Model model = read_text(text);
  EXPECT_TRUE(model.cut_short);
  EXPECT_EQ(model.snapshots.size(), 5u);
  // Even a well-formed E or X is not trusted without its newline.
  text = two_sites("T|regular|999|1|0|0") + "E";
  EXPECT_EQ(read_text(text).snapshots.size(), 5u);
  text = two_sites("E");
  text.pop_back();
  text += "X\t450";
  EXPECT_TRUE(read_text(text).cut_short);
  text = two_sites("T|regular|999|1|0|0") + "s\t1\tgarb";
  EXPECT_EQ(read_text(text).snapshots.size(), 5u);
}

// Q: strata stopped writing and says why; a snapshot it left open is dropped.
TEST(ReadStrata, StopRecordSaysWhy) {
  Model model = read_text(two_sites("T|regular|999|1|0|0") +
                          records({"s|1|1|1|0|1", "Q|1000|the disk is full (ENOSPC)"}));
  EXPECT_TRUE(model.cut_short);
  EXPECT_EQ(model.stop_reason, "the disk is full (ENOSPC)");
  EXPECT_EQ(model.snapshots.size(), 5u);
  EXPECT_EQ(model.end_time, 400u);
  model = read_text(two_sites("Q|420|the file-size limit"));
  EXPECT_EQ(model.stop_reason, "the file-size limit");
  EXPECT_EQ(model.snapshots.size(), 5u);
  EXPECT_TRUE(read_text(two_sites()).stop_reason.empty());
}

TEST(ReadStrata, BadStopRecords) {
  expect_strata_error(two_sites("Q|420|full") + "X\t450\n", 28, "after the end record Q");
  expect_strata_error(two_sites("Q|420|full") + "Q\t450\tfull\n", 28, "after the end record Q");
  expect_strata_error(two_sites("Q|420"), 27, "Q record with 2 fields");
  expect_strata_error(two_sites("Q|x|full"), 27, "bad time");
  expect_strata_error(two_sites("Q|420|"), 27, "printable ASCII");
  expect_strata_error(two_sites("Q|420|\x1b]0;owned\x07"), 27, "printable ASCII");
  expect_strata_error(two_sites("X|450") + "Q\t460\tfull\n", 28, "after the end record X");
}

TEST(ReadStrata, CutShortWithoutSnapshot) {
  Model model = read_text(profile(records({"F|1|0x1|0|f|a.c|1|p", "T|regular|5|0|0|0"})));
  EXPECT_TRUE(model.cut_short);
  EXPECT_TRUE(model.snapshots.empty());
  EXPECT_EQ(peak_snapshot(model), std::nullopt);
}

TEST(ReadStrata, CutInsideTheHeaderIsAnError) {
  expect_strata_error("strata-profile\t1\ncmd\t./prog\npid\t4", 3, "ends inside its header");
  expect_strata_error("strata-profile\t1\n", 1, "ends inside its header");
}

TEST(ReadStrata, TextAfterTheEndIsAnError) {
  expect_strata_error(two_sites() + "T\tregular", 28, "after the end record X");
  expect_strata_error(two_sites() + "X\t500\n", 28, "after the end record X");
}

// A profile larger than the reader's blocks (1 MiB): a line longer than a
// block, and samples on both sides of every block boundary.
TEST(ReadStrata, LinesAcrossBlocks) {
  const std::string cmd(3'000'000, 'x');
  std::string body = "F\t1\t0x10\t0\tf\ta.c\t1\tp\nS\t1\t1\nS\t2\t1\n";
  constexpr std::uint64_t kSnapshots = 60'000;
  for (std::uint64_t t = 1; t <= kSnapshots; ++t) {
    body += "T\tregular\t" + std::to_string(t) + "\t0\t0\t0\n";
    body += "s\t2\t" + std::to_string(t) + "\t1\t0\t" + std::to_string(t) + "\n";
    body += "s\t1\t" + std::to_string(3 * t) + "\t2\t" + std::to_string(2 * t) + "\t" +
            std::to_string(3 * t) + "\nE\n";
  }
  std::string text = "strata-profile\t1\ncmd\t" + cmd + "\npid\t7\nppid\t1\ntime_unit\ti\n" + body +
                     "X\t" + std::to_string(kSnapshots);
  ASSERT_GT(text.size(), 3u << 20);
  Model model = read_text(text);
  EXPECT_EQ(model.header.cmd, cmd);
  EXPECT_EQ(model.header.pid, 7u);
  EXPECT_TRUE(model.cut_short);  // the X has no newline
  ASSERT_EQ(model.snapshots.size(), kSnapshots);
  std::uint64_t sum = 0;
  for (std::uint64_t t = 1; t <= kSnapshots; ++t) {
    const Snapshot& snapshot = model.snapshots[t - 1];
    ASSERT_EQ(snapshot.time, t);
    ASSERT_EQ(snapshot.sites.size(), 2u);
    ASSERT_EQ(snapshot.sites[0].site, SiteId{0});  // sorted by site
    ASSERT_EQ(snapshot.sites[0].bytes, 3 * t);
    ASSERT_EQ(snapshot.sites[0].min, 2 * t);
    ASSERT_EQ(snapshot.sites[1].max, t);
    sum += snapshot.sites[0].blocks + snapshot.sites[1].blocks;
  }
  EXPECT_EQ(sum, 3 * kSnapshots);
}

// Numbers the quick path of s records leaves to the general one.
TEST(ReadStrata, LongNumbersAndLeadingZeros) {
  Model model = read_text(profile(records({
      "S|1",
      "S|2",
      "T|regular|1|0|0|0",
      "s|002|18446744073709551610|1|0|18446744073709551610",
      "s|1|0000000000000000000000005|1|5|5",
      "E",
      "X|1",
  })));
  ASSERT_EQ(model.snapshots[0].sites.size(), 2u);
  EXPECT_EQ(model.snapshots[0].sites[0].bytes, 5u);
  EXPECT_EQ(model.snapshots[0].sites[1].site, SiteId{1});
  EXPECT_EQ(model.snapshots[0].sites[1].bytes, UINT64_MAX - 5);
}

// Sums of a snapshot's bytes never wrap around 2^64: totals, and the
// sites' highs with the extra heap and the stacks (the graph stacks them),
// that do not fit are errors on their line.  A sum of exactly 2^64-1 fits.
TEST(ReadStrata, SumsBeyond64BitsAreErrors) {
  const std::string kMax = "18446744073709551615";
  const std::string kTooMany = "add up to more than 2^64-1 bytes";
  expect_strata_error(profile(records({"T|regular|1|" + kMax + "|1|0"})), 6, kTooMany);
  expect_strata_error(profile(records({"T|peak|1|1|0|" + kMax})), 6, kTooMany);
  // The chain: site 1 keeps 2^64-2 from the first snapshot, site 2 adds 2.
  expect_strata_error(profile(records({"S|1", "S|2", "T|regular|1|0|0|0",
                                       "s|1|18446744073709551614|1|0|18446744073709551614", "E",
                                       "T|regular|2|0|0|0", "s|2|2|1|0|2"})),
                      12, "site 2: the sites, the extra heap and the stacks " + kTooMany);
  // A high counts, and so does the extra heap.
  expect_strata_error(profile(records({"S|1", "T|regular|1|0|1|0", "s|1|0|1|0|" + kMax})), 8,
                      kTooMany);
  // A peak is complete: the chain's sites do not count in it.
  Model model = read_text(profile(records(
      {"S|1", "S|2", "T|regular|1|0|0|0", "s|1|18446744073709551614|1|0|18446744073709551614", "E",
       "T|peak|2|0|0|0", "s|2|" + kMax + "|1|" + kMax + "|" + kMax, "E", "X|3"})));
  EXPECT_EQ(model.snapshots.size(), 2u);
  // A site that falls makes room.
  model = read_text(profile(
      records({"S|1", "S|2", "T|regular|1|0|0|0", "s|1|" + kMax + "|1|0|" + kMax, "E",
               "T|regular|2|0|0|0", "s|1|0|1|0|0", "s|2|" + kMax + "|1|0|" + kMax, "E", "X|3"})));
  EXPECT_EQ(model.snapshots[1].sites.size(), 2u);
}

TEST(LineReader, Lines) {
  std::istringstream in("a\tb\n\nlast");
  LineReader lines(in, kName);
  ASSERT_TRUE(lines.next());
  EXPECT_EQ(lines.line(), "a\tb");
  EXPECT_TRUE(lines.complete());
  ASSERT_TRUE(lines.next());
  EXPECT_EQ(lines.line(), "");
  ASSERT_TRUE(lines.next());
  EXPECT_EQ(lines.line(), "last");
  EXPECT_FALSE(lines.complete());
  EXPECT_EQ(lines.number(), 3u);
  EXPECT_FALSE(lines.next());
  std::istringstream empty("");
  EXPECT_FALSE(LineReader(empty, kName).next());
  std::istringstream one("x\n");
  LineReader reader(one, kName);
  ASSERT_TRUE(reader.next());
  EXPECT_TRUE(reader.complete());
  EXPECT_FALSE(reader.next());
}

TEST(ParseNumbers, AllOfTheFieldsAfterTheFirst) {
  std::array<std::uint64_t, 5> n{};
  EXPECT_EQ(parse_numbers("s\t1\t22\t0333", '\t', n), 3u);
  EXPECT_EQ(n[0], 1u);
  EXPECT_EQ(n[1], 22u);
  EXPECT_EQ(parse_numbers("s\t9999999999999999999\t0", '\t', n), 2u);
  EXPECT_EQ(n[0], 9999999999999999999u);
  EXPECT_EQ(parse_numbers("s\t1\t2\t3\t4\t5", '\t', n), 5u);
  EXPECT_EQ(n[4], 5u);
  EXPECT_EQ(parse_numbers("s\t1\t2\t3\t4\t5\t6", '\t', n), 0u);  // too many
  EXPECT_EQ(parse_numbers("s", '\t', n), 0u);
  EXPECT_EQ(parse_numbers("s\t", '\t', n), 0u);
  EXPECT_EQ(parse_numbers("s\t1\t", '\t', n), 0u);
  EXPECT_EQ(parse_numbers("s\t\t1", '\t', n), 0u);
  EXPECT_EQ(parse_numbers("s\t1x", '\t', n), 0u);
  EXPECT_EQ(parse_numbers("s\t+1", '\t', n), 0u);
  EXPECT_EQ(parse_numbers("s\t1 2", '\t', n), 0u);
  EXPECT_EQ(parse_numbers("s\t18446744073709551615", '\t', n), 0u);  // 20 digits
}

TEST(ParseNumber, DecimalDigitsOnly) {
  EXPECT_EQ(parse_number("0"), 0u);
  EXPECT_EQ(parse_number("0042"), 42u);
  EXPECT_EQ(parse_number("9999999999999999999"), 9999999999999999999u);
  EXPECT_EQ(parse_number("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_number("000000000000000000000018"), 18u);
  EXPECT_EQ(parse_number("18446744073709551616"), std::nullopt);
  EXPECT_EQ(parse_number("99999999999999999999"), std::nullopt);
  EXPECT_EQ(parse_number(""), std::nullopt);
  EXPECT_EQ(parse_number("+1"), std::nullopt);
  EXPECT_EQ(parse_number("-1"), std::nullopt);
  EXPECT_EQ(parse_number(" 1"), std::nullopt);
  EXPECT_EQ(parse_number("12a"), std::nullopt);
  EXPECT_EQ(parse_number("1/"), std::nullopt);
  EXPECT_EQ(parse_number(":"), std::nullopt);
}

// ---- malformed input ---------------------------------------------------------------

TEST(ReadStrata, WrongVersion) {
  expect_strata_error("strata-profile\t4\ncmd\tx\n", 1, "version 4 is not supported");
  expect_strata_error("strata-profile\t0\ncmd\tx\n", 1, "version 0 is not supported");
}

// Version 2 frames end with the offset in the object (empty when unknown);
// version 1 frames have no such field.
TEST(ReadStrata, FrameOffsetsByVersion) {
  const std::string header = "cmd|x\npid|1\nppid|0\ntime_unit|i\n";
  auto text = [&](const std::string& version, const std::string& frames) {
    return records({"strata-profile|" + version + "\n" + header + frames});
  };
  Model v2 = read_text(text("2", "F|1|0x401000|0|f|f.c|3|/bin/p|0x1000\nF|2|0x7|0|g||0||"));
  ASSERT_EQ(v2.frames.size(), 2u);
  EXPECT_EQ(v2.frames[0].offset, std::optional<std::uint64_t>(0x1000));
  EXPECT_FALSE(v2.frames[1].offset);
  Model v1 = read_text(text("1", "F|1|0x401000|0|f|f.c|3|/bin/p"));
  EXPECT_FALSE(v1.frames[0].offset);
  expect_strata_error(text("2", "F|1|0x401000|0|f|f.c|3|/bin/p"), 6, "8 fields, expected 9");
  expect_strata_error(text("1", "F|1|0x401000|0|f|f.c|3|/bin/p|0x1000"), 6, "9 fields, expected 8");
  expect_strata_error(text("2", "F|1|0x401000|0|f|f.c|3|/bin/p|4096"), 6, "bad address '4096'");
  expect_strata_error("strata-profile\n", 1, "not a strata profile");
}

TEST(ReadStrata, BadHeader) {
  expect_strata_error(records({"strata-profile|1", "pid|1"}), 2, "expected the header record cmd");
  expect_strata_error(records({"strata-profile|1", "cmd|x", "pid|-1"}), 3, "bad pid '-1'");
  expect_strata_error(records({"strata-profile|1", "cmd|x", "pid|1", "ppid|1", "time_unit|s"}), 5,
                      "bad time unit 's'");
  expect_strata_error(records({"strata-profile|1", "cmd|x|y"}), 2, "3 fields, expected 2");
}

TEST(ReadStrata, MalformedRecords) {
  struct Case {
    std::vector<std::string> lines;
    std::string error;  // on the last line
  } cases[] = {
      {{"W|1"}, "unknown record type 'W'"},
      {{"F|1|0x10|0|f|a.c|1"}, "F record with 7 fields, expected 8"},
      {{"F|2|0x10|0|f|a.c|1|p"}, "frame id 2 out of order (expected 1)"},
      {{"F|1|0x1A|0|f|a.c|1|p"}, "bad address '0x1A'"},
      {{"F|1|10|0|f|a.c|1|p"}, "bad address '10'"},
      {{"F|1|0x10|2|f|a.c|1|p"}, "bad inlined flag '2'"},
      {{"F|1|0x10|0|f|a.c|x|p"}, "bad line number 'x'"},
      {{"S|1|1"}, "frame '1' is not defined"},
      {{"S|2"}, "site id 2 out of order"},
      {{"S"}, "S record with 1 fields, expected 2"},
      {{"M|x|label"}, "bad time 'x'"},
      {{"T|sometimes|1|0|0|0"}, "bad snapshot kind 'sometimes'"},
      {{"T|regular|1|0|0"}, "T record with 5 fields, expected 6"},
      {{"T|regular|1|+5|0|0"}, "bad heap bytes '+5'"},
      {{"T|regular|1|0|0|0", "s|1|1|1|0|1"}, "site '1' is not defined"},
      {{"S|1", "T|regular|1|5|0|0", "s|1|5|1|6|9"}, "min <= bytes <= max does not hold"},
      {{"S|1", "T|regular|1|5|0|0", "s|1|5|1|0|4"}, "min <= bytes <= max does not hold"},
      {{"S|1", "T|regular|1|5|0|0", "s|1|5|1|0|5", "s|1|5|1|0|5"}, "listed twice"},
      {{"S|1", "T|regular|1|5|0|0", "s|1|x|1|0|5"}, "bad bytes 'x'"},
      {{"S|1", "T|regular|1|5|0|0", "s|1|5|1|0|5x"}, "bad max bytes '5x'"},
      {{"S|1", "T|regular|1|5|0|0", "s|1|5|1|0|18446744073709551616"}, "bad max bytes"},
      {{"S|1", "T|regular|1|5|0|0", "s||5|1|0|5"}, "bad site id ''"},
      {{"S|1", "T|regular|1|5|0|0", "s|0|5|1|0|5"}, "site '0' is not defined"},
      {{"S|1", "T|regular|1|5|0|0", "s|2|5|1|0|5"}, "site '2' is not defined"},
      {{"S|1", "T|regular|1|5|0|0", "s|1|5|1|0"}, "s record with 5 fields, expected 6"},
      {{"S|1", "T|regular|1|5|0|0", "s|1|5|1|0|5|"}, "s record with 7 fields, expected 6"},
      {{"S|1", "T|regular|1|5|0|0", "E", "X|1", "s|1|5|1|0|5"}, "after the end record X"},
      {{"S|1", "s|1|5|1|0|5"}, "s record outside a snapshot"},
      {{"E"}, "E record outside a snapshot"},
      {{"T|regular|1|0|0|0", "F|1|0x1|0|f|a|1|p"}, "F record inside a snapshot"},
      {{"T|regular|1|0|0|0", "E|x"}, "E record with 2 fields, expected 1"},
      {{"T|regular|5|0|0|0", "E", "T|regular|4|0|0|0"}, "older than the snapshot before it (5)"},
      {{"T|regular|5|0|0|0", "E", "X|4"}, "end time 4 is before the last snapshot"},
      {{"M|1|a", "opt|depth|3"}, "opt record after the header"},
      {{"X|1", "M|2|late"}, "record after the end record X"},
      {{""}, "unknown record type ''"},
  };
  for (const Case& c : cases) {
    std::string body;
    for (const std::string& line : c.lines) body += records({line});
    SCOPED_TRACE(body);
    expect_strata_error(profile(body), 5 + c.lines.size(), c.error);
  }
}

// ---- version 3: allocation counts ------------------------------------------------

// A version 3 profile: one site, counts in two snapshots, then `tail`.
std::string counted(const std::string& tail) {
  return records({"strata-profile|3", "cmd|./p", "pid|1", "ppid|0", "time_unit|B",
                  "F|1|0x10|0|f|p.c|1||", "S|1|1", "T|regular|10|64|8|0", "s|1|64|1|0|64",
                  "c|1|3|192|2", "E"}) +
         tail;
}

TEST(ReadStrata, CountsTakeEffectWithTheirSnapshot) {
  Model model = read_text(
      counted(records({"T|regular|20|0|0|0", "s|1|0|0|0|64", "c|1|4|256|3", "E", "X|30"})));
  EXPECT_TRUE(model.has_counts);
  EXPECT_EQ(model.sites[0].counts.calls, 4u);
  EXPECT_EQ(model.sites[0].counts.allocated, 256u);
  EXPECT_EQ(model.sites[0].counts.temporary, 3u);
  // Cut short inside a snapshot: its counts are not taken.
  model = read_text(counted(records({"T|regular|20|0|0|0", "c|1|9|999|9"})));
  EXPECT_TRUE(model.cut_short);
  EXPECT_EQ(model.sites[0].counts.calls, 3u);
  EXPECT_EQ(model.sites[0].counts.allocated, 192u);
  // Versions 1 and 2 have none.
  EXPECT_FALSE(read_text(format_example()).has_counts);
}

TEST(ReadStrata, BadCounts) {
  expect_strata_error(counted(records({"T|regular|20|0|0|0", "c|1|2|256|2", "E"})), 13,
                      "site 1: its counts went down");
  expect_strata_error(counted(records({"T|regular|20|0|0|0", "c|1|5|256|6", "E"})), 13,
                      "more temporary allocations than allocation calls");
  expect_strata_error(counted(records({"T|regular|20|0|0|0", "c|1|5|256|2", "c|1|5|256|2"})), 14,
                      "counted twice in one snapshot");
  expect_strata_error(counted(records({"T|peak|10|64|8|0", "c|1|5|256|1", "E"})), 13,
                      "c record in a peak snapshot");
  expect_strata_error(counted(records({"c|1|5|256|1"})), 12, "c record outside a snapshot");
  expect_strata_error(counted(records({"T|regular|20|0|0|0", "c|2|5|256|1"})), 13, "site");
  expect_strata_error(counted(records({"T|regular|20|0|0|0", "c|1|5|256"})), 13,
                      "c record with 4 fields, expected 5");
  std::string v2 = format_example();
  v2.insert(v2.find("E\n"), "c\t1\t1\t1\t0\n");
  expect_strata_error(v2, 19, "c record in a profile of version 2");
}

}  // namespace
}  // namespace strata::test
