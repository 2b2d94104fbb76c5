// SPDX-License-Identifier: GPL-2.0-or-later
#include "view/leak_words.hpp"

#include <cmath>

#include "util/units.hpp"

namespace strata {

namespace {

// A rise that starts after this share of the run says when it started.
constexpr double kLateStart = 0.1;

std::string bytes(std::uint64_t value) { return format_bytes(static_cast<double>(value)); }

// "rose in 7 of 8 cycles" / "in 9 of 10 tenths of the run".
std::string rose_in(const Leak& leak) {
  std::size_t judged = leak.troughs.size() - (leak.kind == LeakKind::rising_trough ? 0 : 1);
  if (leak.kind == LeakKind::rising_trough) {
    return "its trough (the least it held in a cycle) rose in " + std::to_string(leak.rises) +
           " of " + std::to_string(judged) + " cycles";
  }
  if (leak.steps > 0) {
    return "its floor (the least it held from then on) rose in " + std::to_string(leak.steps) +
           " steps, each about " + short_number(leak.step_factor) +
           " times the rise before it (a buffer grown by a factor)";
  }
  return "its floor (the least it held from then on) rose in " + std::to_string(leak.rises) +
         " of " + std::to_string(judged) + " " + (judged == 10 ? "tenths" : "parts") +
         " of the run";
}

std::string ending(const Leak& leak) {
  if (leak.freed_before_exit) return ", and was given back only at exit";
  if (leak.end_bytes > 0) return ", and " + bytes(leak.end_bytes) + " is still held at the end";
  return "";
}

}  // namespace

std::string growth_rate(LeakKind kind, double growth_bytes, const std::string& time_unit,
                        double end_time) {
  if (kind == LeakKind::rising_trough) return "+" + format_bytes(growth_bytes) + " per cycle";
  Scale scale = time_scale(time_unit, end_time);
  return "+" + format_bytes(growth_bytes * scale.divisor) + " per " + scale.unit;
}

std::string growth_rate(const Leak& leak, const std::string& time_unit, double end_time) {
  return growth_rate(leak.kind, leak.growth_bytes, time_unit, end_time);
}

std::string leak_why(const Leak& leak, const std::string& time_unit, double end_time) {
  if (leak.troughs.empty()) return "";
  const Trough &first = leak.troughs.front(), &last = leak.troughs.back();
  auto at = [&](const Trough& t) {
    return " (at " + format_time(time_unit, static_cast<double>(t.time)) + ")";
  };
  std::string text = rose_in(leak) + ", from " + bytes(first.bytes);
  if (static_cast<double>(first.time) > kLateStart * end_time) text += at(first);
  text += " to " + bytes(last.bytes) + at(last) + ", about ";
  if (leak.kind == LeakKind::rising_trough) {
    text += format_bytes(leak.growth_bytes) + " a cycle";
  } else {
    text += growth_rate(leak, time_unit, end_time).substr(1);
  }
  return text + ending(leak);
}

std::string growth_words(const Leak& leak) {
  std::string end = leak.freed_before_exit ? "is freed only at exit" : "is still held at the end";
  return "grows for the whole run and " + end +
         ": a leak if this program should reach a steady state";
}

}  // namespace strata
