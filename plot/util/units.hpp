// SPDX-License-Identifier: GPL-2.0-or-later
// Numbers and units for people, in one place: for the graph, the time axis
// in the profile's unit with a multiple that suits the run's length ("Mi
// instructions", "s", "MiB allocated and freed"), the bytes axis in B, KiB,
// MiB or GiB, and sizes and times as short texts ("1.5 MiB", "3.07 s"); for
// the report, numbers grouped by thousands and counted things.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace strata {

// Values are divided by `divisor` and then read in `unit`.
struct Scale {
  double divisor = 1;
  std::string unit;  // "MiB", "Mi instructions", "s", ...
};

// The scale of a time axis running to `max_time`, for a profile's time unit
// ("i", "ms" or "B"; anything else is left as it is, in "time units").
Scale time_scale(const std::string& time_unit, double max_time);

// The scale of a bytes axis running to `max_bytes`: B, KiB, MiB, GiB or TiB.
Scale byte_scale(double max_bytes);

// `value` with three significant digits at most, trailing zeros dropped:
// 1.5, 12.3, 512, 0.25.
std::string short_number(double value);

// A size: "100 B", "1.5 KiB", "600 KiB", "2.34 GiB".
std::string format_bytes(double bytes);

// A moment or a length of time in the profile's time unit: "3.07 Mi
// instructions", "250 ms", "1.5 s", "12 KiB allocated and freed".
std::string format_time(const std::string& time_unit, double time);

// The report's numbers: 1234567 as "1,234,567"; "1 site", "3 sites" (the
// plural by adding an s); 0.904 as "0.90" with 2 decimals.
std::string grouped(std::uint64_t n);
std::string counted(std::size_t n, const std::string& what);
std::string fixed(double value, int decimals);

// `part` in percent of `whole`; 0 when `whole` is not above 0.
inline double percent_of(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

}  // namespace strata
