// SPDX-License-Identifier: GPL-2.0-or-later
// The JSON report's parts that other JSON documents share (strata diff).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "model/model.hpp"

namespace strata {

// Frames as `strata report --json` lists them: function, file, line, object,
// address, offset, name, inlined.
nlohmann::ordered_json report_frames_json(const std::vector<Frame>& frames);

}  // namespace strata
