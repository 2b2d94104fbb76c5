// SPDX-License-Identifier: GPL-2.0-or-later
// The lifetime records of version 3 (read/lifetime_records.hpp) and the
// questions of time asked of them (analyze/lifetimes.hpp), on hand-written
// profiles with known answers.
#include "analyze/lifetimes.hpp"

#include <gtest/gtest.h>

#include "strata_profile.hpp"
#include "view/lifetime_words.hpp"

namespace strata::test {
namespace {

// A version 3 header with lifetimes and free stacks, two sites and a free
// stack (lines 1 to 13), then `body`.  With other `options`, no free stack.
std::string lived(const std::string& body, const std::string& options = "opt|lifetimes|yes") {
  bool stacks = options == "opt|lifetimes|yes";
  return records({"strata-profile|3", "cmd|./prog", "pid|42", "ppid|41", "time_unit|B", options,
                  "opt|free_stacks|yes", "F|1|0x1000|0|make_frame|player.c|10|/tmp/prog|0x1000",
                  "F|2|0x2000|0|main|player.c|20|/tmp/prog|0x2000",
                  "F|3|0x3000|0|player_free|player.c|141|/tmp/prog|0x3000", "S|1|1|2", "S|2|2",
                  stacks ? "P|1|3|2" : "M|1|start"}) +
         body;
}

constexpr std::uint64_t kBody = 14;  // the first line of the body

// Three epochs of length 1 from t0 = 100: site 1 gets 64 bytes in epoch 0,
// freed in epoch 1 by free stack 1, and 32 bytes in epoch 1, alive at the
// end; site 2 gets 16 bytes in epoch 2, alive at the end.
std::string three_epochs() {
  return lived(records({"L|0|100|1", "b|1|0|64|1", "E", "L|1|101|1", "b|1|1|32|1", "d|1|0|1|64|1",
                        "E", "L|2|102|1", "b|2|2|16|1", "a|1|1|32|1", "a|2|2|16|1", "E", "X|103"}));
}

bool same(const LifetimeCell& a, const LifetimeCell& b) {
  return a.birth == b.birth && a.death == b.death && a.freed_by == b.freed_by &&
         a.bytes == b.bytes && a.blocks == b.blocks;
}

void expect_cells(const std::vector<LifetimeCell>& cells, std::vector<LifetimeCell> expected) {
  ASSERT_EQ(cells.size(), expected.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    EXPECT_TRUE(same(cells[i], expected[i]))
        << "cell " << i << ": birth " << int(cells[i].birth) << " death " << int(cells[i].death)
        << " stack " << cells[i].freed_by << " bytes " << cells[i].bytes;
  }
}

TEST(ReadLifetimes, Cells) {
  Model model = read_text(three_epochs());
  EXPECT_TRUE(model.has_lifetimes);
  EXPECT_TRUE(model.lifetimes.free_stacks);
  EXPECT_EQ(model.lifetimes.t0, 100u);
  EXPECT_EQ(model.lifetimes.epoch_length, 1u);
  EXPECT_EQ(model.lifetimes.epochs, 3u);
  ASSERT_EQ(model.lifetimes.free_stacks_frames.size(), 1u);
  EXPECT_EQ(model.lifetimes.free_stacks_frames[0].size(), 2u);
  expect_cells(model.sites[0].cells, {{0, 1, 1, 64, 1}, {1, kAlive, 0, 32, 1}});
  expect_cells(model.sites[1].cells, {{2, kAlive, 0, 16, 1}});
}

TEST(ReadLifetimes, DoublingMergesEpochsPairwise) {
  // Epochs 0 and 1 of length 1 become epoch 0 of length 2: its deaths may
  // take the births of both.
  Model model = read_text(
      lived(records({"L|0|100|1", "b|1|0|64|1", "E", "L|1|101|1", "b|1|1|8|1", "E", "L|1|102|2",
                     "d|1|0|1|72|2", "E", "L|2|104|2", "b|2|2|4|1", "a|2|2|4|1", "E", "X|106"})));
  EXPECT_EQ(model.lifetimes.epoch_length, 2u);
  EXPECT_EQ(model.lifetimes.epochs, 3u);
  expect_cells(model.sites[0].cells, {{0, 1, 1, 72, 2}});
  expect_cells(model.sites[1].cells, {{2, kAlive, 0, 4, 1}});
  // Births of length 1 merged after a doubling: deaths after it count at
  // the new length, cells before it too.
  model = read_text(lived(records({"L|0|100|1", "b|1|0|64|1", "E", "L|1|101|1", "d|1|0|1|32|0", "E",
                                   "L|2|104|2", "d|1|0|1|32|1", "E", "Q|105|killed"})));
  EXPECT_EQ(model.lifetimes.epochs, 3u);
  expect_cells(model.sites[0].cells, {{0, 0, 1, 32, 0}, {0, 2, 1, 32, 1}});
}

// A forked child's first record gives the blocks it inherited as births
// before its own epoch: its own run starts at that record's start.  A
// process that made its heap itself has none, whatever its first record's
// epoch, and a first record that later records' births precede is no child.
TEST(ReadLifetimes, AForkedChildsFirstRecordSaysWhereItsRunBegins) {
  Model child = read_text(
      lived(records({"T|regular|103|80|0|0", "s|1|64|1|0|64", "s|2|16|1|0|16", "E", "L|3|103|1",
                     "b|1|0|64|1", "b|2|2|16|1", "E", "L|4|104|1", "b|1|4|8|1", "a|1|0|64|1",
                     "a|1|4|8|1", "a|2|2|16|1", "E", "X|105"})));
  ASSERT_TRUE(child.lifetimes.inherited_at);
  EXPECT_EQ(*child.lifetimes.inherited_at, 103u);
  EXPECT_EQ(child.lifetimes.epoch_of_tick(*child.lifetimes.inherited_at), 3u);
  EXPECT_FALSE(read_text(three_epochs()).lifetimes.inherited_at);
  Model late = read_text(lived(records({"L|3|103|1", "b|1|3|64|1", "E", "L|4|104|1", "b|1|4|8|1",
                                        "a|1|3|64|1", "a|1|4|8|1", "E", "X|105"})));
  EXPECT_FALSE(late.lifetimes.inherited_at);
}

TEST(ReadLifetimes, CutShortKeepsEveryCompleteRecord) {
  // No a lines: what is alive is births less deaths of the closed epochs.
  Model model = read_text(lived(records({"L|0|100|1", "b|1|0|64|2", "E", "L|1|101|1",
                                         "d|1|0|1|16|1", "E", "L|2|102|1", "b|2|2|16|1"})));
  EXPECT_TRUE(model.cut_short);
  EXPECT_EQ(model.lifetimes.epochs, 2u);
  expect_cells(model.sites[0].cells, {{0, 1, 1, 16, 1}, {0, kAlive, 0, 48, 1}});
  EXPECT_TRUE(model.sites[1].cells.empty());
}

TEST(ReadLifetimes, NoLifetimesWithoutTheOption) {
  Model model = read_text(lived("X\t10\n", "opt|lifetimes|no"));
  EXPECT_FALSE(model.has_lifetimes);
  EXPECT_FALSE(read_text(format_example()).has_lifetimes);
  // With the option but no record (no heap operation): no epoch.
  model = read_text(lived("X\t10\n"));
  EXPECT_TRUE(model.has_lifetimes);
  EXPECT_EQ(model.lifetimes.epochs, 0u);
}

void expect_body_error(std::initializer_list<std::string> body, std::uint64_t line,
                       const std::string& part) {
  expect_strata_error(lived(records(body)), kBody + line, part);
}

TEST(ReadLifetimes, BadEpochs) {
  expect_body_error({"L|0|100|3"}, 0, "epoch length 3 is not a power of two");
  expect_body_error({"L|0|100|0"}, 0, "not a power of two");
  expect_body_error({"L|0|100|2", "E", "L|1|102|1"}, 2, "smaller than before (2)");
  expect_body_error({"L|0|100|1", "E", "L|3|104|1"}, 2, "not at t0 + index * length = 103");
  expect_body_error({"L|2|100|1", "E", "L|1|99|1"}, 2, "before the end of the previous one (101)");
  expect_body_error({"L|64|100|1"}, 0, "epoch index 64 beyond 63");
  expect_body_error({"L|5|4|1"}, 0, "before time 0");
  expect_body_error({"L|0|100"}, 0, "L record with 3 fields, expected 4");
  expect_body_error({"L|0|100|1", "L|1|101|1"}, 1, "L record inside an epoch record");
  expect_body_error({"L|0|100|1", "T|regular|5|0|0|0"}, 1, "T record inside an epoch record");
  expect_body_error({"T|regular|5|0|0|0", "L|0|100|1"}, 1, "L record inside a snapshot");
  expect_body_error({"b|1|0|64|1"}, 0, "b record outside an epoch record");
}

TEST(ReadLifetimes, BadLines) {
  expect_body_error({"L|1|101|1", "b|1|2|64|1"}, 1, "birth epoch 2 after the record's epoch 1");
  expect_body_error({"L|1|101|1", "d|1|2|0|64|1"}, 1, "birth epoch 2 after");
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "b|1|0|64|1"}, 2, "given twice in one record");
  // Deaths are checked at their record's E, which names the line.
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "d|1|0|0|8|0", "d|1|0|0|8|0", "E"}, 4,
                    "free stack 0 given twice");
  expect_body_error({"L|0|100|1", "b|3|0|64|1"}, 1, "site '3' is not defined");
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "d|1|0|2|8|0"}, 2, "free stack 2 is not defined");
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "E", "L|1|101|1", "d|1|0|1|65|1", "E"}, 5,
                    "epoch 1: site 1, birth epoch 0: more died (65 bytes, 1 blocks)");
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "d|1|0|0|64|2", "E"}, 3, "more died");
  expect_body_error({"L|0|100|1", "d|1|0|0|1|0", "E"}, 2, "more died");
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "a|1|0|60|1", "E"}, 3,
                    "a line of 60 bytes, 1 blocks, but births less deaths are 64 bytes");
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "b|2|0|8|1", "a|1|0|64|1", "E"}, 4,
                    "site 2, birth epoch 0: 8 bytes, 1 blocks born and not died, but no a line");
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "a|1|0|64|1", "E", "L|1|101|1"}, 4,
                    "L record after the record with a lines");
  expect_body_error({"L|0|100|1", "b|1|0|64|1", "E", "X|101"}, 3,
                    "the last epoch record has no a lines, but site 1, birth epoch 0 has 64");
  expect_body_error({"L|0|100|1", "b|1|0|9223372036854775808|1", "E", "L|1|101|1",
                     "b|2|1|9223372036854775808|1", "E"},
                    5, "the births of the file add up to more than 2^64-1");
  expect_body_error({"P|3|1"}, 0, "free stack id 3 out of order (expected 2)");
  expect_body_error({"P|2|9"}, 0, "frame '9' is not defined");
}

TEST(ReadLifetimes, RecordsNeedTheOptionAndVersion3) {
  expect_strata_error(lived(records({"L|0|100|1", "E"}), "opt|lifetimes|no"), kBody,
                      "L record in a profile without the option lifetimes yes");
  std::string v2 = format_example();
  v2.insert(v2.find("X\t"), "L\t0\t100\t1\nE\n");
  expect_strata_error(v2, 26, "L record in a profile of version 2");
}

// ---- questions of time ---------------------------------------------------

// Runs `run`, which must throw an Error (of the command line: no file) whose message holds `part`.
template <typename Run>
void expect_message(Run run, const std::string& part) {
  try {
    run();
    ADD_FAILURE() << "no error; expected: " << part;
  } catch (const Error& error) {
    EXPECT_TRUE(contains(error.what(), part)) << error.what() << "\n  does not hold: " << part;
  }
}

TEST(Lifetimes, TimesAndSelections) {
  Model model = read_text(three_epochs());
  // From the lifetimes' time zero, 100, to the end, 103: 101.5, rounded.
  EXPECT_EQ(resolve_time(model, "50%", "--x"), 102u);
  EXPECT_EQ(resolve_time(model, "101", "--x"), 101u);
  expect_message([&] { resolve_time(model, "x", "--born=..x"); }, "--born=..x: 'x' is not a time");
  expect_message([&] { resolve_time(model, "marker:go", "--at"); },
                 "--at: no marker 'go' (the profile has no marker)");
  model.markers = {{101, "go"}, {102, "go"}};
  EXPECT_EQ(resolve_time(model, "marker:go#2", "--x"), 102u);
  expect_message([&] { resolve_time(model, "marker:go#3", "--at"); }, "occurs 2 times, not 3");
  expect_message([&] { resolve_time(model, "marker:stop", "--at"); }, "the markers are 'go'");

  // By default: every birth, alive at the end (never freed).
  Selection all = select_lifetimes(model, std::nullopt, std::nullopt);
  EXPECT_EQ(all.from, 0u);
  EXPECT_EQ(all.to, 3u);
  EXPECT_EQ(all.at, 3u);
  EXPECT_FALSE(selected(all, model.sites[0].cells[0], 3));
  EXPECT_TRUE(selected(all, model.sites[0].cells[1], 3));
  // Alive at boundary 1 (time 101): the 64 bytes of epoch 0, freed in epoch 1.
  Selection at1 = select_lifetimes(model, std::nullopt, "101");
  EXPECT_EQ(at1.at, 1u);
  EXPECT_TRUE(selected(at1, model.sites[0].cells[0], 3));
  EXPECT_FALSE(selected(at1, model.sites[0].cells[1], 3));
  // Born from boundary 2 on, alive at the end: site 2's 16 bytes.
  Selection late = select_lifetimes(model, "marker:go#2..", std::nullopt);
  EXPECT_EQ(late.from, 2u);
  EXPECT_FALSE(selected(late, model.sites[0].cells[1], 3));
  EXPECT_TRUE(selected(late, model.sites[1].cells[0], 3));
  expect_message([&] { select_lifetimes(model, "102..101", std::nullopt); },
                 "--born=102..101: FROM is after TO");
  expect_message([&] { select_lifetimes(model, "101", std::nullopt); }, "expected FROM..TO");
  Model none = read_text(format_example());
  expect_error([&] { select_lifetimes(none, "..", std::nullopt); }, 0,
               "--born needs lifetimes, which this file has not");
}

TEST(Lifetimes, SelectedModelHoldsTheSelectedBytesFromBirthToDeath) {
  Model model = read_text(three_epochs());
  Model at1 = selected_model(model, select_lifetimes(model, std::nullopt, "101"));
  ASSERT_EQ(at1.snapshots.size(), 4u);  // boundaries 0, 1, 2 and the end
  std::vector<std::uint64_t> heap, times;
  for (const Snapshot& s : at1.snapshots) {
    heap.push_back(s.heap);
    times.push_back(s.time);
  }
  EXPECT_EQ(heap, (std::vector<std::uint64_t>{0, 64, 0, 0}));
  EXPECT_EQ(times, (std::vector<std::uint64_t>{100, 101, 102, 103}));
  Model end = selected_model(model, select_lifetimes(model, std::nullopt, std::nullopt));
  heap.clear();
  for (const Snapshot& s : end.snapshots) heap.push_back(s.heap);
  EXPECT_EQ(heap, (std::vector<std::uint64_t>{0, 0, 32, 48}));
  EXPECT_EQ(sites_at(end, 3).size(), 2u);
}

// At the end, alive is what the last record's a lines give: not the bytes
// freed at exit (born before the last epoch, died in it), nor those born
// and freed in the last epoch (once both were, and "alive at the end" could
// pass the peak).
TEST(Lifetimes, AliveAtTheEndIsWhatTheLastRecordHolds) {
  Model model = read_text(
      lived(records({"L|0|100|1", "b|1|0|64|1", "E", "L|1|101|1", "b|1|1|8|1", "d|1|1|0|8|1",
                     "d|1|0|1|64|1", "b|2|1|16|1", "a|2|1|16|1", "E", "X|102"})));
  Selection end = select_lifetimes(model, "..", std::nullopt);
  EXPECT_EQ(end.at, 2u);
  EXPECT_FALSE(selected(end, model.sites[0].cells[0], 2));  // freed at exit
  EXPECT_FALSE(selected(end, model.sites[0].cells[1], 2));  // born and freed in the last
  EXPECT_TRUE(selected(end, model.sites[1].cells[0], 2));
  Model at_end = selected_model(model, end);
  std::vector<std::uint64_t> heap;
  for (const Snapshot& s : at_end.snapshots) heap.push_back(s.heap);
  EXPECT_EQ(heap, (std::vector<std::uint64_t>{0, 0, 16}));
  // Alive at boundary 1: the 64 bytes freed at exit.
  Selection at1 = select_lifetimes(model, std::nullopt, "101");
  EXPECT_TRUE(selected(at1, model.sites[0].cells[0], 2));
  // The peak in the last epoch: the report's births are of the bytes alive
  // at its start (its end is the end of the run, after the release at exit).
  model.snapshots.push_back({SnapshotKind::peak, 101, 88, 0, 0, SiteData::complete, {}});
  EXPECT_EQ(born_boundary(model), 1u);
  std::vector<SiteId> both = {SiteId{0}, SiteId{1}};
  std::vector<BornPart> born = born_across(model, both, 1);
  ASSERT_EQ(born.size(), 1u);
  EXPECT_EQ(born[0].bytes, 64u);
}

TEST(Lifetimes, BornAndFreedBy) {
  Model model = read_text(three_epochs());
  // No snapshot, no peak: no boundary.
  std::vector<SiteId> both = {SiteId{0}, SiteId{1}};
  EXPECT_EQ(born_boundary(model), 0u);
  EXPECT_TRUE(born_across(model, both, 0).empty());
  model.snapshots.push_back({SnapshotKind::peak, 101, 96, 0, 0, SiteData::complete, {}});
  // The peak in epoch 1: the bytes alive across boundary 2, born in epoch 1.
  EXPECT_EQ(born_boundary(model), 2u);
  std::vector<BornPart> born = born_across(model, both, 2);
  ASSERT_EQ(born.size(), 1u);
  EXPECT_EQ(born[0].from, 1u);
  EXPECT_EQ(born[0].to, 2u);
  EXPECT_EQ(born[0].bytes, 32u);
  std::vector<FreedBy> freed = freed_by(model, both);
  ASSERT_EQ(freed.size(), 1u);
  EXPECT_EQ(freed[0].stack, 1u);
  EXPECT_EQ(freed[0].bytes, 64u);
  EXPECT_DOUBLE_EQ(freed[0].share_pct, 100);
  EXPECT_FALSE(freed[0].at_exit);
  EXPECT_TRUE(freed_by(model, std::vector<SiteId>{SiteId{1}}).empty());
}

TEST(LifetimeWords, SaidExactly) {
  Model model = read_text(three_epochs());
  EXPECT_EQ(lifetimes_words(model), "3 epochs of 1 B from time 100, free stacks known");
  Model massif;
  massif.format = Format::massif;
  EXPECT_EQ(lifetimes_words(massif),
            "no lifetimes in this file (a massif.out file): when bytes were born and who freed "
            "them is not known");
  EXPECT_EQ(selection_words(model, select_lifetimes(model, "101..", "102")),
            "bytes born in [101, the end) and alive at 102, to the lifetimes' epochs of 1 B");
  EXPECT_EQ(selection_words(model, select_lifetimes(model, std::nullopt, std::nullopt)),
            "bytes born in [100, the end) and alive at the end of the run (never freed), to the "
            "lifetimes' epochs of 1 B");
  // Boundaries 1 and 2 are at 101 and 102 of a run from 100 (the first heap
  // operation) to 103: 33.3% and 66.7%, outwards.
  EXPECT_EQ(run_range(model, 1, 2), "33-67%");
  EXPECT_EQ(born_words(model, {{0, 1, 25}, {1, 2, 75}}), "25% in 0-34% of the run, 75% in 33-67%");
  std::vector<Frame> frames = frames_of(model, model.lifetimes.free_stacks_frames[0]);
  std::vector<FreedBy> freed = {{1, 64, 100, 1, 1, false}};
  EXPECT_EQ(freed_words(model, freed, {{frames, 0}}),
            "freed by player_free (player.c:141) in 33-67% of the run (100% of its bytes freed "
            "after living across an epoch's end)");
  freed[0].at_exit = true;
  EXPECT_EQ(freed_words(model, freed, {{frames, 1}}),
            "freed at exit by main (player.c:20) (100% of its bytes freed after living across an "
            "epoch's end)");
  // Most freed during the run, some at exit by another stack of the same
  // headline: each named with its caller.
  std::vector<Frame> at_exit = {frames[0], model.frames[0]};
  freed = {{1, 75, 75, 0, 1, false}, {2, 25, 25, 2, 2, true}};
  EXPECT_EQ(freed_words(model, freed, {{frames, 0}, {at_exit, 0}}),
            "freed by player_free (player.c:141) <- main (player.c:20) in 0-67% of the run (75% "
            "of its bytes freed after living across an epoch's end); at exit by player_free "
            "(player.c:141) <- make_frame (player.c:10) (25%)");
  EXPECT_EQ(freed_words(model, {}, {}), "");
}

}  // namespace
}  // namespace strata::test
