// SPDX-License-Identifier: GPL-2.0-or-later
// Readable units of the graph's axes and labels.
#include <gtest/gtest.h>

#include "util/units.hpp"

namespace strata::test {
namespace {

constexpr double kKi = 1024.0, kMi = kKi * kKi, kGi = kMi * kKi;

TEST(Units, InstructionsInBinaryMultiples) {
  EXPECT_EQ(time_scale("i", 0).unit, "instructions");
  EXPECT_EQ(time_scale("i", 1023).unit, "instructions");
  EXPECT_EQ(time_scale("i", 1023).divisor, 1);
  EXPECT_EQ(time_scale("i", 5000).unit, "Ki instructions");
  Scale mi = time_scale("i", 136287141);
  EXPECT_EQ(mi.unit, "Mi instructions");
  EXPECT_EQ(mi.divisor, kMi);
  EXPECT_EQ(time_scale("i", 5e9).unit, "Gi instructions");
  EXPECT_EQ(time_scale("i", 5e15).unit, "Ti instructions");  // no larger prefix
}

TEST(Units, MillisecondsSecondsMinutesHours) {
  EXPECT_EQ(time_scale("ms", 999).unit, "ms");
  Scale s = time_scale("ms", 2500);
  EXPECT_EQ(s.unit, "s");
  EXPECT_EQ(s.divisor, 1000);
  EXPECT_EQ(time_scale("ms", 599 * 1000.0).unit, "s");
  EXPECT_EQ(time_scale("ms", 600 * 1000.0).unit, "min");
  EXPECT_EQ(time_scale("ms", 11 * 3600 * 1000.0).unit, "h");
}

TEST(Units, BytesAllocatedAndFreed) {
  EXPECT_EQ(time_scale("B", 100).unit, "B allocated and freed");
  EXPECT_EQ(time_scale("B", 3 * kMi).unit, "MiB allocated and freed");
  EXPECT_EQ(time_scale("B", 3 * kMi).divisor, kMi);
}

TEST(Units, UnknownTimeUnitStaysAsItIs) {
  Scale scale = time_scale("weeks", 1e9);
  EXPECT_EQ(scale.divisor, 1);
  EXPECT_EQ(scale.unit, "time units");
}

TEST(Units, ByteAxis) {
  EXPECT_EQ(byte_scale(0).unit, "B");
  EXPECT_EQ(byte_scale(1023).unit, "B");
  EXPECT_EQ(byte_scale(1024).unit, "KiB");
  EXPECT_EQ(byte_scale(5 * kMi).unit, "MiB");
  EXPECT_EQ(byte_scale(5 * kMi).divisor, kMi);
  EXPECT_EQ(byte_scale(3 * kGi).unit, "GiB");
}

TEST(Units, ShortNumbers) {
  EXPECT_EQ(short_number(0), "0");
  EXPECT_EQ(short_number(1.5), "1.5");
  EXPECT_EQ(short_number(2.0), "2");
  EXPECT_EQ(short_number(0.25), "0.25");
  EXPECT_EQ(short_number(0.001), "0");
  EXPECT_EQ(short_number(12.34), "12.3");
  EXPECT_EQ(short_number(99.96), "100");
  EXPECT_EQ(short_number(512), "512");
  EXPECT_EQ(short_number(123456), "123456");
  EXPECT_EQ(short_number(-1.5), "-1.5");
}

TEST(Units, Sizes) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(100), "100 B");
  EXPECT_EQ(format_bytes(1000), "1000 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(614528), "600 KiB");  // the leaky player's frames per cycle
  EXPECT_EQ(format_bytes(5258368), "5.01 MiB");
  EXPECT_EQ(format_bytes(2.5 * kGi), "2.5 GiB");
}

TEST(Units, Times) {
  EXPECT_EQ(format_time("i", 120164932), "115 Mi instructions");
  EXPECT_EQ(format_time("i", 500), "500 instructions");
  EXPECT_EQ(format_time("ms", 1500), "1.5 s");
  EXPECT_EQ(format_time("ms", 250), "250 ms");
  EXPECT_EQ(format_time("B", 73728), "72 KiB allocated and freed");
}

}  // namespace
}  // namespace strata::test
