// SPDX-License-Identifier: GPL-2.0-or-later
// Statistics of the cycles and of births (stats.hpp).
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

double correlation(std::span<const std::uint64_t> x, std::span<const std::uint64_t> y) {
  std::size_t n = std::min(x.size(), y.size());
  if (n == 0) return 0;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mx += static_cast<double>(x[i]);
    my += static_cast<double>(y[i]);
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double dx = static_cast<double>(x[i]) - mx, dy = static_cast<double>(y[i]) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

}  // namespace strata
