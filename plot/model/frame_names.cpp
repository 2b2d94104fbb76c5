// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/frame_names.hpp"

#include <cctype>
#include <cstdio>

#include "util/shown.hpp"

namespace strata {

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

}  // namespace

std::string hex_address(std::uint64_t address) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

std::optional<std::uint64_t> object_offset(const Frame& frame) {
  if (frame.offset) return frame.offset;
  if (frame.object.empty()) return std::nullopt;
  return frame.address;
}

std::string unnamed_frame(const Frame& frame) {
  std::optional<std::uint64_t> offset = object_offset(frame);
  if (!offset) return hex_address(frame.address);
  std::string_view object = frame.object;
  std::size_t slash = object.rfind('/');
  if (slash != std::string_view::npos && slash + 1 < object.size()) object.remove_prefix(slash + 1);
  return std::string(object) + "+" + hex_address(*offset);
}

std::string frame_name(const Frame& frame) {
  return frame.function.empty() ? unnamed_frame(frame) : frame.function;
}

// ---- short C++ names ----------------------------------------------------------

namespace {

// Where the bracket closing at `close` opens, scanning back; npos if unbalanced.
std::size_t opening(std::string_view text, std::size_t close, char open_char, char close_char) {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (text[i] == close_char) ++depth;
    if (text[i] == open_char && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// Whether `name` can be a C++ function named before `open`, with a
// parameter list after: a name or a template's ">" before it, and no quotes
// in it (names are data: "system(\"ls\")" or "$(ls)" stay as they are).
bool cxx_parameters(std::string_view name, std::size_t open) {
  char before = name[open - 1];
  bool named = std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '>' ||
               name.substr(0, open).find("operator") != std::string_view::npos;
  return named && name.find_first_of("\"'$`", open) == std::string_view::npos;
}

// "f(int, char)" -> "f"; a trailing " const" goes too.  "(anonymous
// namespace)::f()" keeps its namespace; a name that does not end in a
// balanced list stays.
std::string without_arguments(std::string_view name) {
  std::string_view bare = name;
  if (bare.ends_with(" const")) bare.remove_suffix(6);
  if (!bare.ends_with(')')) return std::string(name);
  std::size_t open = opening(bare, bare.size() - 1, '(', ')');
  if (open == std::string_view::npos || open == 0 || !cxx_parameters(bare, open)) {
    return std::string(name);
  }
  return std::string(bare.substr(0, open));
}

bool operator_sign(std::string_view name, std::size_t at) {
  std::string_view before = name.substr(0, at);
  while (!before.empty() && (before.back() == '<' || before.back() == '>')) before.remove_suffix(1);
  return before.ends_with("operator");
}

// Each outermost template argument list longer than the limit becomes <…>;
// unchanged if the brackets do not pair up.
std::string without_long_template_arguments(std::string_view name) {
  std::string out;
  int depth = 0;
  std::size_t open = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool sign = operator_sign(name, i);
    if (c == '<' && !sign && depth++ == 0) open = i;
    if (c == '>' && !sign && depth > 0 && --depth == 0) {
      std::string_view inside = name.substr(open + 1, i - open - 1);
      out += inside.size() > kLongTemplateArguments ? "<" + std::string(kEllipsis) + ">"
                                                    : "<" + std::string(inside) + ">";
      continue;
    }
    if (depth == 0 && !(c == '<' && !sign)) out += c;
  }
  return depth == 0 ? out : std::string(name);
}

}  // namespace

std::string short_function(std::string_view name) {
  return without_long_template_arguments(without_arguments(name));
}

std::string frame_text(const Frame& f) {
  std::string text = frame_name(f);
  if (!f.file.empty()) {
    text += " (" + f.file + ":" + std::to_string(f.line) + ")";
  } else if (!f.object.empty()) {
    text += " (in " + f.object + ")";
  }
  return shown(text) + (f.inlined ? " [inlined]" : "");
}

}  // namespace strata
