// SPDX-License-Identifier: GPL-2.0-or-later
// The CI gate of `strata report --fail-on=KINDS`: which leak suspects stop
// a build (render.hpp says them on stderr, one line each), and the exit
// status that says so.
#pragma once

#include <string>
#include <vector>

#include "view/report.hpp"

namespace strata {

// The exit status of `strata report --fail-on` when a suspect of the kinds
// asked for is found (0: none, 1: an error).
constexpr int kGateStatus = 3;

// The kinds of suspect that fail the gate.
struct FailOn {
  bool leak = false;    // a finding left behind by the cycles (LeakKind::left_behind)
  bool growth = false;  // steady growth (LeakKind::steady_growth)
};

// "leak", "growth", "leak,growth" or "any"; anything else is an Error.
FailOn parse_fail_on(const std::string& kinds);

// The suspects of `report` whose kind `fail_on` names, most suspicious first.
std::vector<const ReportLeak*> gate_suspects(const Report& report, const FailOn& fail_on);

}  // namespace strata
