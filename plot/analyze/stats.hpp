// SPDX-License-Identifier: GPL-2.0-or-later
// The statistics of the cycles found in the heap's rhythm (cycles.cpp):
// robust ones (medians, quantiles) and the spread of the cycles' lengths;
// and the correlation of two structures' births (lifetime_leaks.cpp).
#pragma once

#include <cstdint>
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

// The (Pearson) correlation of two series of counts of the same length,
// -1 to 1; 0 when either is constant (or empty).
double correlation(std::span<const std::uint64_t> x, std::span<const std::uint64_t> y);

}  // namespace strata
