// SPDX-License-Identifier: GPL-2.0-or-later
// The statistics of leak detection (analyze/stats.hpp).
#include "analyze/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "strata_profile.hpp"

namespace strata::test {
namespace {

TEST(TheilSen, IgnoresAnOutlier) {
  std::vector<double> x{0, 1, 2, 3, 4, 5}, y{0, 2, 4, 600, 8, 10};
  EXPECT_DOUBLE_EQ(theil_sen_slope(x, y), 2.0);
  std::vector<double> flat{5, 5, 5, 5, 5, 5};
  EXPECT_DOUBLE_EQ(theil_sen_slope(x, flat), 0.0);
}

// Over many points it takes 256 of them, evenly spaced: a line's slope stays exact.
TEST(TheilSen, ManyPoints) {
  std::vector<double> x, y;
  for (int i = 0; i < 100000; ++i) x.push_back(i), y.push_back(3.0 * i + (i % 2));
  EXPECT_NEAR(theil_sen_slope(x, y), 3.0, 0.01);
}

}  // namespace
}  // namespace strata::test
