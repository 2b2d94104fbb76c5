// SPDX-License-Identifier: GPL-2.0-or-later
// Frame names for people, in one place: the report, the graph's legends and
// the JSON document name a frame the same way.
//
// A frame with a symbol is its function.  One without is `object+0xOFFSET`,
// the basename of its object and where the address is in it, which
// `addr2line -e OBJECT 0xOFFSET` takes (cc1plus+0x1b6a652): the offset the
// profile gives, else the address itself (right for executables not built as
// position-independent).  Without an object either, it is the address alone.
//
// The graph's legends name functions shortly: no C++ argument lists, and
// long template arguments abbreviated (std::vector<…>::push_back).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/model.hpp"

namespace strata {

// "0x1b6a652".
std::string hex_address(std::uint64_t address);

// Where the frame is in its object: Frame::offset, else its address when the
// object is known; nullopt without an object.
std::optional<std::uint64_t> object_offset(const Frame& frame);

// "cc1plus+0x1b6a652", or "0x1b6a652" without an object.
std::string unnamed_frame(const Frame& frame);

// The function's full name, or unnamed_frame() when the symbol is unknown.
std::string frame_name(const Frame& frame);

// A function name for a legend: without its argument list (and a trailing
// " const"), and with each template argument list longer than
// kLongTemplateArguments characters shown as <…>.
std::string short_function(std::string_view name);

constexpr std::size_t kLongTemplateArguments = 12;

// A frame as the text report and strata diff show it: "function (file:line)",
// "function (in object)" without line information, " [inlined]" after one
// inlined into the next; its control characters escaped (shown()).
std::string frame_text(const Frame& frame);

}  // namespace strata
