// SPDX-License-Identifier: GPL-2.0-or-later
// Statistics for leak detection (stats.hpp).
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

// -1, 0 or 1, differences within `tie` being 0.
int sign(double difference, double tie) {
  if (difference > tie) return 1;
  if (difference < -tie) return -1;
  return 0;
}

namespace {

// At most kMaxPairwise of `values`, evenly spaced, the first and the last
// among them: the statistics over all pairs take these, so that their cost
// stays bounded however many cycles a run has.
constexpr std::size_t kMaxPairwise = 256;

std::vector<double> evenly_spaced(std::span<const double> values) {
  std::size_t n = std::min(values.size(), kMaxPairwise);
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(n == values.size() ? values[i] : values[i * (values.size() - 1) / (n - 1)]);
  }
  return out;
}

}  // namespace

// Kendall's tau of `y` against its order: the Mann-Kendall S over the pairs
// (of at most kMaxPairwise of them).
double kendall_tau(std::span<const double> all_y, double tie) {
  std::vector<double> y = evenly_spaced(all_y);
  if (y.size() < 2) return 0;
  long s = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    for (std::size_t j = i + 1; j < y.size(); ++j) s += sign(y[j] - y[i], tie);
  }
  return static_cast<double>(s) / static_cast<double>(y.size() * (y.size() - 1) / 2);
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

double theil_sen_slope(std::span<const double> all_x, std::span<const double> all_y) {
  std::vector<double> x = evenly_spaced(all_x), y = evenly_spaced(all_y);
  std::vector<double> slopes;
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t j = i + 1; j < x.size(); ++j) {
      if (x[j] != x[i]) slopes.push_back((y[j] - y[i]) / (x[j] - x[i]));
    }
  }
  return median(std::move(slopes));
}

double quantile(std::vector<double> x, double q) {
  std::size_t at = static_cast<std::size_t>(q * static_cast<double>(x.size() - 1));
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(at), x.end());
  return x[at];
}

}  // namespace strata
