// SPDX-License-Identifier: GPL-2.0-or-later
// The renderers: they take the analyses' result structs and write text or JSON.
#pragma once

#include <ostream>

#include "analyze.hpp"

namespace strata {

void render_summary_text(const Summary& summary, std::ostream& out);
void render_summary_json(const Summary& summary, std::ostream& out);

}  // namespace strata
