// SPDX-License-Identifier: GPL-2.0-or-later
// A leak suspect in plain words, the same in the report, its JSON and the
// graph: what was seen ("its trough rose in 7 of 8 cycles, from 0 B to 3.5
// MiB, about 512 KiB a cycle, and was given back only at exit"), and, for
// steady growth, what it may be.
#pragma once

#include <string>

#include "analyze/cycles.hpp"
#include "analyze/leaks.hpp"
#include "model/model.hpp"

namespace strata {

// What was seen, in one sentence without a final full stop.  `time_unit`
// and `end_time` are the profile's (for a rate in time).
std::string leak_why(const Leak& leak, const std::string& time_unit, double end_time);

// Steady growth: "grows for the whole run and is freed only at exit (or is
// still held at the end): a leak if this program should reach a steady state".
std::string growth_words(const Leak& leak);

// A frame as a finding's words name it: "f (a.c:3)", its function without
// its parameters, and without line information the function alone.
std::string finding_place(const Frame& frame);

// A finding from the lifetimes (its Leak::evidence a LifetimeEvidence), what was seen: "kept 100%,
// 91%, 92% and 89% of what it made in each quarter of its part of the run
// (from 3% of the run to 95%)", then, with cycles, "; each cycle left about
// 1.3 MiB behind, 7 of 8 cycles".
std::string finding_why(const Model& model, const Leak& leak, const Cycles& cycles);

// A finding's sentence: "memory left behind all through the run: 22 places,
// 14.2 MiB, 91% at gst_buffer_new_allocate (gstbuffer.c:123) <-
// gst_buffer_pool_acquire_buffer" then "; never freed" or "; kept until
// exit, freed by HOLDER" (`holder`, "" when not known), and for growth ": a
// leak if this program should reach a steady state".
// Why a structure that keeps bytes is no finding, in one line ("levels
// off at 35% of the run: what it keeps was born before").
std::string passed_over_words(const Model& model, const PassedOverStructure& p,
                              std::uint32_t horizon);

std::string finding_words(const Model& model, const Leak& leak, const std::string& holder);

// "+600 KiB per cycle" or "+1.2 MiB per Mi instructions".
std::string growth_rate(const Leak& leak, const std::string& time_unit, double end_time);
std::string growth_rate(LeakKind kind, double growth_bytes, const std::string& time_unit,
                        double end_time);

}  // namespace strata
