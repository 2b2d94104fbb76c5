// SPDX-License-Identifier: GPL-2.0-or-later
// The program's cycles (analyze/cycles.hpp).
#include "analyze/cycles.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "strata_profile.hpp"

namespace strata::test {
namespace {

Model with_markers(std::initializer_list<std::string> labels) {
  std::vector<std::string> lines{"F|1|0x10|0|f|a.c|1|", "S|1|1"};
  std::uint64_t time = 0;
  for (const std::string& label : labels)
    lines.push_back("M|" + std::to_string(time += 10) + "|" + label);
  std::string text;
  for (std::string line : lines) {
    for (char& c : line) c = c == '|' ? '\t' : c;
    text += line + "\n";
  }
  return read_text(profile(text + "X\t1000\n"));
}

TEST(Cycles, FromMarkers) {
  Cycles cycles = cycles_from_markers(with_markers({"go", "stop", "go", "stop", "go", "x"}));
  EXPECT_EQ(cycles.source, CycleSource::markers);
  EXPECT_EQ(cycles.label, "go");  // 3 times; "stop" only twice
  EXPECT_EQ(cycles.starts, (std::vector<std::uint64_t>{10, 30, 50}));
  EXPECT_EQ(cycles.ticks, cycles.starts);  // the markers' ticks: their times without epoch_unit
  EXPECT_DOUBLE_EQ(cycles.period, 20.0);
  // A tie goes to the first label in the file; fewer than 3 is no cycle.
  EXPECT_EQ(cycles_from_markers(with_markers({"b", "a", "a", "b", "a", "b"})).label, "b");
  EXPECT_EQ(cycles_from_markers(with_markers({"a", "a", "b"})).source, CycleSource::none);
}

TEST(Cycles, FromRhythmOfASquareWaveWithATrend) {
  std::vector<std::uint64_t> times, bytes;
  for (std::uint64_t t = 0; t < 1000; t += 5) {
    times.push_back(t);
    bytes.push_back(1000 + 3 * t + ((t % 125) < 60 ? 5000 : 0));
  }
  Cycles cycles = cycles_from_rhythm(times, bytes);
  ASSERT_EQ(cycles.source, CycleSource::rhythm);
  EXPECT_NEAR(cycles.period, 125.0, 6.0);
  EXPECT_GE(cycles.count(), 7u);
  // A cycle starts on a crest (the first 60 units of each period), so that
  // no trough is cut in two.
  EXPECT_LT(cycles.starts[1] % 125, 60u);
}

TEST(Cycles, NoRhythmInNoiseOrInTooFewCycles) {
  Noise noise;
  std::vector<std::uint64_t> times, random, two;
  for (std::uint64_t t = 0; t < 400; ++t) {
    times.push_back(t);
    random.push_back(noise(10000));
    two.push_back((t % 200) < 100 ? 5000 : 0);  // 2 cycles only
  }
  EXPECT_EQ(cycles_from_rhythm(times, random).source, CycleSource::none);
  EXPECT_EQ(cycles_from_rhythm(times, two).source, CycleSource::none);
  EXPECT_EQ(cycles_from_rhythm({}, {}).source, CycleSource::none);
}

// A release at exit is not a cycle: the rhythm is that of the run before it.
TEST(Cycles, RhythmBeforeARelease) {
  std::vector<std::uint64_t> times, bytes;
  for (std::uint64_t t = 0; t < 600; t += 5) {
    times.push_back(t);
    bytes.push_back(20 * t + ((t % 100) < 50 ? 3000 : 0));
  }
  for (std::uint64_t b = bytes.back(); b > 0; b = b > 4000 ? b - 4000 : 0) {
    times.push_back(times.back() + 5);
    bytes.push_back(b);
  }
  bytes.back() = 0;
  Cycles cycles = cycles_from_rhythm(times, bytes);
  ASSERT_EQ(cycles.source, CycleSource::rhythm);
  EXPECT_NEAR(cycles.period, 100.0, 5.0);
}

}  // namespace
}  // namespace strata::test
