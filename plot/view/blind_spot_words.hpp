// SPDX-License-Identifier: GPL-2.0-or-later
// What a profile cannot see (analyze/blind_spots.hpp), told to a new user in
// one line each: strata record says it on stderr after the run, strata
// report at the end of its text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyze/blind_spots.hpp"

namespace strata {

// One line each.  `pymalloc`: whether Python's allocator was on (strata
// record knows it from PYTHONMALLOC), nullopt when unknown (a report).
std::vector<std::string> blind_spot_lines(const BlindSpots& spots, std::optional<bool> pymalloc);

}  // namespace strata
