// SPDX-License-Identifier: GPL-2.0-or-later
// The renderers of the report, the CI gate and strata diff: each writes what
// a view or an analysis says (view/report.hpp, view/gate.hpp,
// analyze/diff.hpp) as text or as JSON, and sees nothing else.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "analyze/diff.hpp"
#include "view/gate.hpp"
#include "view/report.hpp"

namespace strata {

// `strata report` (render_report_text.cpp, render_report_json.cpp).
void render_report_text(const Report& report, std::ostream& out);
void render_report_json(const Report& report, std::ostream& out);

// What a time unit counts: "instructions executed", "milliseconds", "bytes
// allocated and freed" (i, ms, B), else "unknown".
std::string unit_meaning(const std::string& unit);

// The recording options as they were given: "--depth=30 --stacks=no".  The
// header's `lifetimes` line is no option (the lifetimes line says it).
std::string recorded(const std::vector<Option>& options);

// "Leak at frame_alloc (player.c:74), context #1 (confidence 1.00)": a
// suspect's heading in the text report, and in the CI gate's lines.
std::string leak_heading(const ReportLeak& leak);

// The CI gate's lines on `err`, one a suspect that fails it: "strata report:
// FILE: Leak at ...: why" (render_report_text.cpp).
void render_gate(const Report& report, const std::vector<const ReportLeak*>& failing,
                 std::ostream& err);

// A frame in the calling-context tree: "function (file:line)", the function
// by its symbol (a clone as foo.isra.0, as in the full stacks), without its
// object, shown (shown.hpp), " [inlined]" after an inlined one.
std::string tree_frame_text(const Frame& frame);

// `strata diff` (render_diff.cpp).
void render_diff_text(const Diff& diff, std::ostream& out);
void render_diff_json(const Diff& diff, std::ostream& out);

}  // namespace strata
