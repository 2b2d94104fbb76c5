// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/frame_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "util/shown.hpp"

namespace strata {

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

// GCC's clones: IPA-SRA, constant propagation, partial inlining, LTO's
// private copies, each with a number; the cold part of a function split in two.
constexpr std::string_view kNumberedClones[] = {"isra", "constprop", "part", "lto_priv"};
constexpr std::string_view kClones[] = {"cold"};

bool digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// How many characters of one suffix of GCC's (".isra.0", ".cold") end
// `name`; 0 if none does.  The name before it is never empty.
std::size_t dotted_suffix(std::string_view name) {
  std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return 0;
  std::string_view last = name.substr(dot + 1);
  if (std::find(std::begin(kClones), std::end(kClones), last) != std::end(kClones)) {
    return name.size() - dot;
  }
  if (!digits(last)) return 0;
  std::size_t word = name.rfind('.', dot - 1);
  if (word == std::string_view::npos || word == 0) return 0;
  std::string_view kind = name.substr(word + 1, dot - word - 1);
  bool numbered = std::find(std::begin(kNumberedClones), std::end(kNumberedClones), kind) !=
                  std::end(kNumberedClones);
  // GCC before 9 numbered the cold parts too (foo.cold.12).
  return numbered || kind == "cold" ? name.size() - word : 0;
}

std::string_view without_dotted_suffixes(std::string_view name) {
  for (std::size_t length; (length = dotted_suffix(name)) > 0;) name.remove_suffix(length);
  return name;
}

// How many characters of one clone suffix end `name`: the dotted ones, or
// a demangled C++ name's " [clone .isra.0]"; 0 if none does.
std::size_t clone_suffix(std::string_view name) {
  constexpr std::string_view kCxx = " [clone .";
  if (!name.ends_with(']')) return dotted_suffix(name);
  std::size_t open = name.rfind(kCxx);
  if (open == std::string_view::npos || open == 0) return 0;
  // "x.isra.0" for " [clone .isra.0]": all of it but the x must go.
  std::string probe = "x" + std::string(name.substr(open + kCxx.size() - 1));
  probe.pop_back();
  return without_dotted_suffixes(probe) == "x" ? name.size() - open : 0;
}

}  // namespace

std::string_view function_of_clone(std::string_view symbol) {
  for (std::size_t length; (length = clone_suffix(symbol)) > 0;) symbol.remove_suffix(length);
  return symbol;
}

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

std::string frame_symbol(const Frame& frame) {
  return frame.function.empty() ? unnamed_frame(frame) : frame.function;
}

std::string frame_name(const Frame& frame) {
  return frame.function.empty() ? unnamed_frame(frame)
                                : std::string(function_of_clone(frame.function));
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

namespace {

// `name` with the frame's place and whether it is inlined.
std::string placed(std::string text, const Frame& f) {
  if (!f.file.empty()) {
    text += " (" + f.file + ":" + std::to_string(f.line) + ")";
  } else if (!f.object.empty()) {
    text += " (in " + f.object + ")";
  }
  return shown(text) + (f.inlined ? " [inlined]" : "");
}

}  // namespace

std::string frame_text(const Frame& f) { return placed(frame_name(f), f); }

std::string stack_frame_text(const Frame& f) { return placed(frame_symbol(f), f); }

bool system_object(std::string_view object) {
  constexpr std::array<std::string_view, 5> kSystemDirectories = {
      "/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/libexec/"};
  return std::any_of(kSystemDirectories.begin(), kSystemDirectories.end(),
                     [&](std::string_view d) { return object.starts_with(d); });
}

bool header_file(std::string_view file) {
  return file.ends_with(".h") || file.ends_with(".hh") || file.ends_with(".hpp");
}

}  // namespace strata
