// SPDX-License-Identifier: GPL-2.0-or-later
// A JSON document written as nlohmann's dump(2) writes it (two spaces a
// level, invalid UTF-8 replaced), but without recursion, so that the
// nesting of a deep calling-context tree cannot overflow the call stack,
// and with the indentation stopping at kMaxIndentLevels, so that the
// output grows with the document, not with its depth squared.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace strata {

constexpr std::size_t kMaxIndentLevels = 64;

void write_json(const nlohmann::ordered_json& json, std::ostream& out);

}  // namespace strata
