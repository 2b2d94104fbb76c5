// SPDX-License-Identifier: GPL-2.0-or-later
// The CI gate (gate.hpp).
#include "view/gate.hpp"

#include "util/error.hpp"
#include "util/text.hpp"
#include "view/kinds.hpp"

namespace strata {

FailOn parse_fail_on(const std::string& kinds) {
  FailOn fail_on;
  for (std::string_view kind : split(kinds, ',')) {
    if (kind == kind_names(LeakKind::left_behind).option) {
      fail_on.leak = true;
    } else if (kind == kind_names(LeakKind::steady_growth).option) {
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
    bool is_leak = leak.kind != LeakKind::steady_growth;
    if (is_leak ? fail_on.leak : fail_on.growth) found.push_back(&leak);
  }
  return found;
}

}  // namespace strata
