// SPDX-License-Identifier: GPL-2.0-or-later
// A leak suspect in plain words, the same in the report, its JSON and the
// graph: what was seen ("its trough rose in 7 of 8 cycles, from 0 B to 3.5
// MiB, about 512 KiB a cycle, and was given back only at exit"), and, for
// steady growth, what it may be.
#pragma once

#include <string>

#include "analyze/leaks.hpp"

namespace strata {

// What was seen, in one sentence without a final full stop.  `time_unit`
// and `end_time` are the profile's (for a rate in time).
std::string leak_why(const Leak& leak, const std::string& time_unit, double end_time);

// Steady growth: "grows for the whole run and is freed only at exit (or is
// still held at the end): a leak if this program should reach a steady state".
std::string growth_words(const Leak& leak);

// "+600 KiB per cycle" or "+1.2 MiB per Mi instructions".
std::string growth_rate(const Leak& leak, const std::string& time_unit, double end_time);
std::string growth_rate(LeakKind kind, double growth_bytes, const std::string& time_unit,
                        double end_time);

}  // namespace strata
