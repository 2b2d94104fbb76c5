// SPDX-License-Identifier: GPL-2.0-or-later
// The statistics of the cycles found in the heap's rhythm (cycles.cpp):
// robust ones (medians, quantiles) and the spread of the cycles' lengths.
#pragma once

#include <span>
#include <vector>

namespace strata {

// The median of `values`; 0 when there are none.
double median(std::vector<double> values);

// The standard deviation of `values` over their mean; infinite when the mean
// is not above 0.
double coefficient_of_variation(std::span<const double> values);

// The value at share `q` (0 to 1) of the sorted values of `x` (not empty).
double quantile(std::vector<double> x, double q);

}  // namespace strata
