// SPDX-License-Identifier: GPL-2.0-or-later
// The statistics of leak detection: robust ones (medians, ranks), whose cost
// stays bounded however long the series (the pairwise ones take at most 256
// evenly spaced points, the first and the last among them).
#pragma once

#include <span>
#include <vector>

namespace strata {

// The median of `values`; 0 when there are none.
double median(std::vector<double> values);

// -1, 0 or 1, differences within `tie` being 0.
int sign(double difference, double tie);

// Kendall's tau of `y` against its order: the Mann-Kendall S over the pairs.
double kendall_tau(std::span<const double> y, double tie);

// The standard deviation of `values` over their mean; infinite when the mean
// is not above 0.
double coefficient_of_variation(std::span<const double> values);

// The Theil-Sen slope of y over x: the median of the pairwise slopes.
double theil_sen_slope(std::span<const double> x, std::span<const double> y);

// The value at share `q` (0 to 1) of the sorted values of `x` (not empty).
double quantile(std::vector<double> x, double q);

}  // namespace strata
