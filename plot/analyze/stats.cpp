// SPDX-License-Identifier: GPL-2.0-or-later
// Statistics of the cycles (stats.hpp).
#include "analyze/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace strata {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  return (upper + *std::max_element(values.begin(), values.begin() + middle)) / 2;
}

// The standard deviation of `values` over their mean; infinite when the mean
// is not above 0.
double coefficient_of_variation(std::span<const double> values) {
  double mean =
      std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  double variance = 0;
  for (double v : values) variance += (v - mean) * (v - mean);
  variance /= static_cast<double>(values.size());
  return mean > 0 ? std::sqrt(variance) / mean : INFINITY;
}

double quantile(std::vector<double> x, double q) {
  std::size_t at = static_cast<std::size_t>(q * static_cast<double>(x.size() - 1));
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(at), x.end());
  return x[at];
}

}  // namespace strata
