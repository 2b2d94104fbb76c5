// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/units.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace strata {

namespace {

constexpr std::array<const char*, 5> kBinaryPrefixes = {"", "Ki", "Mi", "Gi", "Ti"};

// The largest power of 1024 (at most 1024^4) that `value` reaches.
int binary_power(double value) {
  int power = 0;
  while (power + 1 < static_cast<int>(kBinaryPrefixes.size()) &&
         value >= std::pow(1024.0, power + 1)) {
    ++power;
  }
  return power;
}

// A binary multiple of bytes: "KiB", "MiB allocated and freed".
Scale byte_multiple(double max_value, const std::string& tail) {
  int power = binary_power(max_value);
  return {std::pow(1024.0, power), kBinaryPrefixes[power] + std::string("B") + tail};
}

// "instructions", "Ki instructions", "Mi instructions", ...
Scale instruction_multiple(double max_value) {
  int power = binary_power(max_value);
  std::string prefix = kBinaryPrefixes[power];
  return {std::pow(1024.0, power), prefix.empty() ? "instructions" : prefix + " instructions"};
}

// Milliseconds up to a second, seconds up to ten minutes, minutes up to ten hours.
Scale millisecond_scale(double max_ms) {
  if (max_ms < 1000) return {1, "ms"};
  if (max_ms < 600 * 1000.0) return {1000, "s"};
  if (max_ms < 600 * 60 * 1000.0) return {60 * 1000.0, "min"};
  return {3600 * 1000.0, "h"};
}

}  // namespace

Scale time_scale(const std::string& time_unit, double max_time) {
  if (time_unit == "i") return instruction_multiple(max_time);
  if (time_unit == "ms") return millisecond_scale(max_time);
  if (time_unit == "B") return byte_multiple(max_time, " allocated and freed");
  return {1, "time units"};
}

Scale byte_scale(double max_bytes) { return byte_multiple(max_bytes, ""); }

std::string short_number(double value) {
  double magnitude = std::fabs(value);
  int decimals = magnitude >= 99.95 ? 0 : magnitude >= 9.995 ? 1 : 2;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string number = text;
  if (number.find('.') == std::string::npos) return number;
  while (number.back() == '0') number.pop_back();
  if (number.back() == '.') number.pop_back();
  return number == "-0" ? "0" : number;
}

std::string format_bytes(double bytes) {
  Scale scale = byte_scale(std::fabs(bytes));
  return short_number(bytes / scale.divisor) + " " + scale.unit;
}

std::string format_time(const std::string& time_unit, double time) {
  Scale scale = time_scale(time_unit, std::fabs(time));
  return short_number(time / scale.divisor) + " " + scale.unit;
}

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string counted(std::size_t n, const std::string& what) {
  return grouped(n) + " " + what + (n == 1 ? "" : "s");
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace strata
