// SPDX-License-Identifier: GPL-2.0-or-later
// The reader of massif.out files, on real files of Valgrind 3.19's massif
// (tests/data):
//   prog.massif           valgrind --tool=massif --depth=30 ./prog
//   prog-detailed.massif  ... --depth=12 --detailed-freq=1 --threshold=0
//                         --max-snapshots=12 --time-unit=B ./prog
//   ls.massif             valgrind --tool=massif --depth=30 ls /
// where prog is a small C++ program (g++ -O1 -g) that fills vectors, keeps
// one frame per cycle (a leak) and builds a std::map of strings in a loop.
#include <numeric>

#include "site_series.hpp"
#include "strata_profile.hpp"

namespace strata::test {
namespace {

Model read_sample(const std::string& name) {
  return read_profile(std::string(STRATA_UNIT_DATA) + "/" + name);
}

std::uint64_t sum_bytes(const std::vector<SiteSample>& samples) {
  return std::accumulate(samples.begin(), samples.end(), std::uint64_t{0},
                         [](std::uint64_t sum, const SiteSample& s) { return sum + s.bytes; });
}

std::vector<std::string> functions(const Model& model, SiteId site) {
  std::vector<std::string> names;
  for (FrameId id : model.site(site).frames) names.push_back(model.frame(id).function);
  return names;
}

const SiteSample& holding(const std::vector<SiteSample>& samples, std::uint64_t bytes) {
  for (const SiteSample& sample : samples) {
    if (sample.bytes == bytes) return sample;
  }
  throw std::runtime_error("no site holds " + std::to_string(bytes) + " bytes");
}

TEST(ReadMassif, HeaderAndTotals) {
  Model model = read_sample("prog.massif");
  EXPECT_EQ(model.format, Format::massif);
  EXPECT_EQ(model.header.cmd, "./prog");
  EXPECT_EQ(model.header.time_unit, "i");
  EXPECT_EQ(model.header.pid, 0u);
  ASSERT_EQ(model.header.options.size(), 2u);
  EXPECT_EQ(model.header.options[0].name, "depth");
  EXPECT_EQ(model.header.options[0].value, "30");
  EXPECT_EQ(model.header.options[1].name, "massif-out-file");
  ASSERT_EQ(model.snapshots.size(), 50u);
  EXPECT_FALSE(model.cut_short);
  EXPECT_EQ(model.end_time, 2030468u);
  EXPECT_EQ(model.snapshots[0].site_data, SiteData::none);
  EXPECT_TRUE(model.snapshots[0].sites.empty());
}

TEST(ReadMassif, PeakIsTheHeapTreePeakSnapshot) {
  Model model = read_sample("prog.massif");
  ASSERT_EQ(peak_snapshot(model), 45u);
  const Snapshot& peak = model.snapshots[45];
  EXPECT_EQ(peak.kind, SnapshotKind::peak);
  EXPECT_EQ(peak.time, 2012158u);
  EXPECT_EQ(peak.heap, 116632u);
  EXPECT_EQ(peak.extra, 760u);
  std::vector<SiteSample> sites = sites_at(model, 45);
  EXPECT_EQ(sites.size(), 4u);
  EXPECT_EQ(sum_bytes(sites), 116632u);
}

TEST(ReadMassif, SitesArePathsToLeavesInnermostFirst) {
  Model model = read_sample("prog.massif");
  std::vector<SiteSample> sites = sites_at(model, 45);
  SiteId decode = holding(sites, 39000).site;
  EXPECT_EQ(functions(model, decode),
            (std::vector<std::string>{"allocate", "allocate", "_M_allocate",
                                      "std::vector<char, std::allocator<char> "
                                      ">::_M_default_append(unsigned long)",
                                      "resize", "decode(unsigned long)", "play(int)", "main"}));
  const Site& site = model.site(decode);
  const Frame& frame = model.frame(site.frames[5]);
  EXPECT_EQ(frame.file, "prog.cpp");
  EXPECT_EQ(frame.line, 7u);
  EXPECT_EQ(frame.address, 0x10923Fu);
  std::vector<bool> inlined;
  for (FrameId id : site.frames) inlined.push_back(model.frame(id).inlined);
  EXPECT_EQ(inlined, (std::vector<bool>{true, true, true, false, true, false, false, false}));
}

TEST(ReadMassif, UnknownFunctionsAndObjects) {
  Model model = read_sample("prog.massif");
  SiteId startup = holding(sites_at(model, 45), 72704).site;
  const Frame& first = model.frame(model.site(startup).frames.front());
  EXPECT_EQ(first.function, "");
  EXPECT_EQ(first.object, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30");
  EXPECT_EQ(first.file, "");
  const Frame& call_init = model.frame(model.site(startup).frames[1]);
  EXPECT_EQ(call_init.function, "call_init");
  EXPECT_TRUE(call_init.inlined);  // dl-init.c:74 inlined into call_init at dl-init.c:26
}

TEST(ReadMassif, BelowThresholdEntriesAreSites) {
  Model model = read_sample("prog.massif");
  std::vector<SiteSample> sites = sites_at(model, 45);
  std::vector<std::string> all_below = functions(model, holding(sites, 928).site);
  EXPECT_EQ(all_below.size(), 1u);
  EXPECT_TRUE(contains(all_below[0], "below massif's threshold"));
  std::vector<std::string> under_play = functions(model, holding(sites, 4000).site);
  EXPECT_EQ(under_play[6], "play(int)");
  EXPECT_TRUE(contains(under_play.back(), "below massif's threshold"));
}

TEST(ReadMassif, BelowMainAndBareAddresses) {
  Model model = read_sample("ls.massif");
  bool below_main = false, bare = false;
  for (const Frame& frame : model.frames) {
    if (frame.function == "(below main)") {
      below_main = true;
      EXPECT_EQ(frame.file, "libc_start_call_main.h");
      EXPECT_EQ(frame.line, 58u);
    }
    if (frame.address == 0x1) {
      bare = true;
      EXPECT_EQ(frame.function, "");
      EXPECT_EQ(frame.object, "");
    }
  }
  EXPECT_TRUE(below_main);
  EXPECT_TRUE(bare);
  EXPECT_EQ(peak_snapshot(model), 48u);
  EXPECT_EQ(model.snapshots.size(), 91u);
}

// The sites of every detailed snapshot add up to its heap.
TEST(ReadMassif, SitesSumToTheHeap) {
  for (const char* name : {"prog.massif", "prog-detailed.massif", "ls.massif"}) {
    SCOPED_TRACE(name);
    Model model = read_sample(name);
    for (std::size_t i = 0; i < model.snapshots.size(); ++i) {
      if (model.snapshots[i].site_data == SiteData::none) continue;
      EXPECT_EQ(sum_bytes(sites_at(model, i)), model.snapshots[i].heap) << "snapshot " << i;
    }
  }
}

// SiteSeries and sites_at() agree at every detailed snapshot.
TEST(ReadMassif, EveryDetailedSnapshotIsInTheSeries) {
  Model model = read_sample("prog-detailed.massif");
  EXPECT_EQ(model.header.time_unit, "B");
  ASSERT_EQ(model.snapshots.size(), 7u);
  EXPECT_EQ(peak_snapshot(model), 5u);
  SiteSeries series(model);
  for (std::size_t i = 0; i < model.snapshots.size(); ++i) {
    std::vector<std::uint64_t> bytes(model.sites.size());
    for (const SiteSample& sample : sites_at(model, i)) bytes[index(sample.site)] = sample.bytes;
    for (std::size_t site = 0; site < bytes.size(); ++site) {
      EXPECT_EQ(series.at(static_cast<SiteId>(site), i).bytes, bytes[site]) << i << " " << site;
    }
  }
}

// ---- malformed files -----------------------------------------------------------

const std::string kHeader = "desc: (none)\ncmd: ./a\ntime_unit: ms\n";

std::string snapshot(const std::string& tree_kind, const std::string& tree) {
  return "#-----------\nsnapshot=0\n#-----------\ntime=5\nmem_heap_B=10\nmem_heap_extra_B=0\n"
         "mem_stacks_B=0\nheap_tree=" +
         tree_kind + "\n" + tree;
}

TEST(ReadMassif, SmallTreeByHand) {
  Model model = read_massif_text(
      kHeader + snapshot("detailed",
                         "n2: 10 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
                         " n0: 6 0x1: f (a.c:1)\n"
                         " n1: 4 0x2: g (in /lib/x.so)\n"
                         "  n0: 4 0x3: main (a.c:9)\n"));
  EXPECT_TRUE(model.header.options.empty());
  EXPECT_EQ(model.header.time_unit, "ms");
  ASSERT_EQ(model.sites.size(), 2u);
  EXPECT_EQ(functions(model, SiteId{1}), (std::vector<std::string>{"g", "main"}));
  EXPECT_EQ(model.frame(model.site(SiteId{1}).frames[0]).object, "/lib/x.so");
  EXPECT_EQ(sum_bytes(sites_at(model, 0)), 10u);
}

// strata convert writes a frame's offset after its object, and a profile
// cut short in the desc line; the reader takes both back.
TEST(ReadMassif, OffsetsAndCutShortFromStrataConvert) {
  Model model = read_massif_text(
      "desc: --depth=3 --strata-cut-short=yes --strata-stopped=the\\x20disk\\x20is\\x20full\\\\\n"
      "cmd: ./a\ntime_unit: i\n" +
      snapshot("detailed",
               "n2: 10 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
               " n0: 6 0x10EE8C: ??? (in /usr/bin/sort+0x6e8c)\n"
               " n0: 4 0x2: g (in /lib/x+0x.so)\n"));
  EXPECT_TRUE(model.cut_short);
  EXPECT_EQ(model.stop_reason, "the disk is full\\");
  ASSERT_EQ(model.header.options.size(), 1u);
  EXPECT_EQ(model.header.options[0].name, "depth");
  ASSERT_EQ(model.frames.size(), 2u);
  EXPECT_EQ(model.frames[0].object, "/usr/bin/sort");
  EXPECT_EQ(model.frames[0].offset, std::optional<std::uint64_t>{0x6e8c});
  EXPECT_EQ(model.frames[0].function, "");
  EXPECT_EQ(model.frames[1].object, "/lib/x+0x.so");
  EXPECT_EQ(model.frames[1].offset, std::nullopt);
  expect_error([] { read_massif_text("desc: --strata-cut-short=no\ncmd: a\ntime_unit: i\n"); }, 1,
               "bad --strata-cut-short='no'");
  expect_error([] { read_massif_text("desc: --strata-stopped=a\\q\ncmd: a\ntime_unit: i\n"); }, 1,
               "bad escape");
}

TEST(ReadMassif, SumsBeyond64BitsAreErrors) {
  auto read = [](const std::string& text) { return [text] { read_massif_text(text); }; };
  std::string totals =
      "#-----------\nsnapshot=0\n#-----------\ntime=5\n"
      "mem_heap_B=18446744073709551615\nmem_heap_extra_B=1\nmem_stacks_B=0\n"
      "heap_tree=empty\n";
  expect_error(read(kHeader + totals), 10, "add up to more than 2^64-1 bytes");
  std::string tree =
      "#-----------\nsnapshot=0\n#-----------\ntime=5\nmem_heap_B=1\n"
      "mem_heap_extra_B=1\nmem_stacks_B=0\nheap_tree=detailed\n"
      "n0: 18446744073709551615 root\n";
  expect_error(read(kHeader + tree), 12, "the tree's bytes, the extra heap and the stacks add up");
}

TEST(ReadMassif, Malformed) {
  auto read = [](const std::string& text) { return [text] { read_massif_text(text); }; };
  expect_error(read("desc: x\ntime_unit: i\n"), 2, "expected \"cmd: ...\"");
  expect_error(read("desc: x\ncmd: a\ntime_unit: s\n"), 3, "bad time unit 's'");
  expect_error(read(kHeader + "snapshot=0\n"), 4, "expected #-----------");
  expect_error(read(kHeader + snapshot("sideways", "")), 11, "bad heap_tree 'sideways'");
  expect_error(read(kHeader + snapshot("detailed", "n1: 10 root\nn0: 10 0x1: f (a.c:1)\n")), 13,
               "expected a heap tree entry at depth 1");
  expect_error(read(kHeader + snapshot("detailed", "n2: 10 root\n n0: 10 0x1: f (a.c:1)\n")), 13,
               "the file ends early");
  expect_error(read(kHeader + snapshot("detailed", "n1: 10 root\n n0: x 0x1: f\n")), 13,
               "bad heap tree entry");
  expect_error(read(kHeader + snapshot("detailed", "n1: 10 root\n n0: 10 f (a.c:1)\n")), 13,
               "expected 0xADDRESS");
  expect_error(read(kHeader + snapshot("detailed", "n1: 10 root\n n0: 11 0x1: f\n")), 12,
               "the entries below this one hold more bytes than it");
  expect_error(read(kHeader + snapshot("empty", "") + snapshot("empty", "")), 13,
               "snapshot number out of order");
}

}  // namespace
}  // namespace strata::test
