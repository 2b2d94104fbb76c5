// SPDX-License-Identifier: GPL-2.0-or-later
// The statistics of the cycles and of births (analyze/stats.hpp).
#include "analyze/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "strata_profile.hpp"

namespace strata::test {
namespace {

TEST(Stats, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({5, 1, 3}), 3.0);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
}

TEST(Stats, QuantileOfTheSortedValues) {
  std::vector<double> x{9, 1, 8, 2, 7, 3, 6, 4, 5};
  EXPECT_DOUBLE_EQ(quantile(x, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantile(x, 0.5), 5.0);
  EXPECT_DOUBLE_EQ(quantile(x, 1.0), 9.0);
}

// The cycles' jitter: the spread of their lengths over their mean.
TEST(Stats, CoefficientOfVariation) {
  std::vector<double> even{10, 10, 10, 10}, spread{5, 15, 5, 15}, none{0, 0};
  EXPECT_DOUBLE_EQ(coefficient_of_variation(even), 0.0);
  EXPECT_DOUBLE_EQ(coefficient_of_variation(spread), 0.5);
  EXPECT_TRUE(std::isinf(coefficient_of_variation(none)));
}

// Two structures' births, epoch by epoch.
TEST(Stats, CorrelationOfCounts) {
  std::vector<std::uint64_t> x{1, 3, 2, 5, 4}, twice{2, 6, 4, 10, 8}, mirror{5, 3, 4, 1, 2},
      flat{3, 3, 3, 3, 3};
  EXPECT_DOUBLE_EQ(correlation(x, twice), 1.0);
  EXPECT_DOUBLE_EQ(correlation(x, mirror), -1.0);
  EXPECT_DOUBLE_EQ(correlation(x, flat), 0.0);
  std::vector<std::uint64_t> a{1, 0, 1, 0}, b{0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(correlation(a, b), 0.0);
  EXPECT_DOUBLE_EQ(correlation({}, {}), 0.0);
}

}  // namespace
}  // namespace strata::test
