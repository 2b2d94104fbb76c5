// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/gate.hpp"

#include "util/error.hpp"
#include "util/text.hpp"

namespace strata {

FailOn parse_fail_on(const std::string& kinds) {
  FailOn fail_on;
  for (std::string_view kind : split(kinds, ',')) {
    if (kind == "leak") {
      fail_on.leak = true;
    } else if (kind == "growth") {
      fail_on.growth = true;
    } else if (kind == "any") {
      fail_on = {true, true};
    } else {
      throw Error("--fail-on=" + kinds +
                  ": the kinds are leak, growth (or both: leak,growth) and any");
    }
  }
  return fail_on;
}

std::vector<const ReportLeak*> gate_suspects(const Report& report, const FailOn& fail_on) {
  std::vector<const ReportLeak*> found;
  for (const ReportLeak& leak : report.leaks) {
    bool rising = leak.kind == LeakKind::rising_trough;
    if (rising ? fail_on.leak : fail_on.growth) found.push_back(&leak);
  }
  return found;
}

int run_gate(const Report& report, const FailOn& fail_on, std::ostream& err) {
  std::vector<const ReportLeak*> found = gate_suspects(report, fail_on);
  for (const ReportLeak* leak : found) {
    err << "strata report: " << report.summary.file << ": " << leak_heading(*leak) << ": "
        << leak->why << "\n";
  }
  return found.empty() ? 0 : kGateStatus;
}

}  // namespace strata
