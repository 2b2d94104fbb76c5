// SPDX-License-Identifier: GPL-2.0-or-later
// Texts from a file, made safe to show.  Every text read from a profile (a
// command, a name, a label, an option, a field quoted in an error) goes
// through shown() before it reaches a terminal, a report or a graph, so that
// a file cannot move the cursor, retitle a window, clear a screen, reorder a
// line or break the XML of an SVG.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

// `text` with what a terminal or an XML parser would not show as text
// escaped, the rest (printable ASCII and valid UTF-8) as it is:
//   \t \n \r               tab, newline, carriage return
//   \xNN                   other control characters (C0 and DEL), and each
//                          byte that is not part of valid UTF-8
//   \uNNNN                 C1 controls (U+0080 to U+009F), the bidirectional
//                          controls (U+202A to U+202E, U+2066 to U+2069),
//                          U+FFFE and U+FFFF (not characters in XML 1.0)
// A backslash stays as it is.  shown(shown(x)) == shown(x).
std::string shown(std::string_view text);

// The length of the valid UTF-8 sequence at `at` (1 to 4), or nullopt:
// overlong forms, surrogates and code points beyond U+10FFFF are not valid.
std::optional<std::size_t> utf8_sequence(std::string_view text, std::size_t at);

}  // namespace strata
