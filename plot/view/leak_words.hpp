// SPDX-License-Identifier: GPL-2.0-or-later
// A leak finding in plain words, the same in the report, its JSON and the
// graph: what was seen ("kept 100%, 91%, 92% and 89% of what it made in
// each quarter of its part of the run"), what it is, and why a structure
// that keeps bytes is no finding.
#pragma once

#include <string>

#include "analyze/cycles.hpp"
#include "analyze/leaks.hpp"
#include "model/model.hpp"

namespace strata {

// A frame as a finding's words name it: "f (a.c:3)", its function without
// its parameters, and without line information the function alone.
std::string finding_place(const Frame& frame);

// What was seen of a finding, in one sentence without a final full stop:
// from the lifetimes "kept 100%, 91%, 92% and 89% of what it made in each
// quarter of its part of the run (3-95%)", from the curves "its floor rose
// in 37 of the 52 intervals between snapshots of its part of the run
// (3-95%)"; then, with cycles, "; each cycle left about 1.3 MiB behind, 7
// of 8 cycles".
std::string finding_why(const Model& model, const Leak& leak, const Leaks& leaks);

// A finding's sentence: "memory left behind all through the run: 22 places,
// 14.2 MiB, 91% at gst_buffer_new_allocate (gstbuffer.c:123) <-
// gst_buffer_pool_acquire_buffer" then "; never freed" or "; kept until
// exit, freed by HOLDER" (`holder`, "" when not known), and for growth ": a
// leak if this program should reach a steady state".
// Why a structure that keeps bytes is no finding, in one line ("levels
// off at 35% of the run: what it keeps was born before").
std::string passed_over_words(const Model& model, const PassedOverStructure& p,
                              const Leaks& leaks);

std::string finding_words(const Model& model, const Leak& leak, const std::string& holder);

// "+600 KiB per cycle" or "+1.2 MiB per Mi instructions".
std::string growth_rate(const Leak& leak, const std::string& time_unit, double end_time);
std::string growth_rate(LeakKind kind, double growth_bytes, const std::string& time_unit,
                        double end_time);

}  // namespace strata
