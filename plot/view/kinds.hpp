// SPDX-License-Identifier: GPL-2.0-or-later
// The names of a suspect's kind, in one place: how the JSON documents, the
// text report and strata diff, the graph's bands and `--fail-on` spell it.
#pragma once

#include <string_view>

#include "analyze/leaks.hpp"

namespace strata {

struct KindNames {
  std::string_view id;       // JSON: "steady_growth", "leak"
  std::string_view heading;  // text: "Leak at ...", "Growth at ..."
  std::string_view band;     // the graph's legend: "LEAK", "GROWTH"
  std::string_view option;   // --fail-on: "leak", "growth"
  std::string_view per;      // JSON's growth_per: "cycle", "time_unit"
};

constexpr KindNames kind_names(LeakKind kind) {
  if (kind == LeakKind::left_behind) return {"leak", "Leak", "LEAK", "leak", "time_unit"};
  return {"steady_growth", "Growth", "GROWTH", "growth", "time_unit"};
}

}  // namespace strata
