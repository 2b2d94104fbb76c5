// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/shown.hpp"

#include <cstdio>

namespace strata {

std::optional<std::size_t> utf8_sequence(std::string_view text, std::size_t at) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (length == 0 || lead > 0xF4 || at + length > text.size()) return std::nullopt;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return std::nullopt;
  }
  unsigned char second = byte(at + 1);
  if (lead == 0xE0 && second < 0xA0) return std::nullopt;   // overlong
  if (lead == 0xED && second >= 0xA0) return std::nullopt;  // surrogate
  if (lead == 0xF0 && second < 0x90) return std::nullopt;   // overlong
  if (lead == 0xF4 && second >= 0x90) return std::nullopt;  // beyond U+10FFFF
  return length;
}

namespace {

// The code point of the valid UTF-8 sequence of `length` bytes at `at`.
char32_t code_point(std::string_view text, std::size_t at, std::size_t length) {
  static constexpr unsigned char kLeadBits[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t point = static_cast<unsigned char>(text[at]) & kLeadBits[length];
  for (std::size_t i = 1; i < length; ++i) {
    point = (point << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3F);
  }
  return point;
}

bool escaped_point(char32_t point) {
  return (point >= 0x80 && point <= 0x9F) || (point >= 0x202A && point <= 0x202E) ||
         (point >= 0x2066 && point <= 0x2069) || point == 0xFFFE || point == 0xFFFF;
}

void append_escape(std::string& out, const char* format, unsigned value) {
  char escape[8];
  std::snprintf(escape, sizeof escape, format, value);
  out += escape;
}

void append_ascii(std::string& out, char c) {
  if (c == '\t') {
    out += "\\t";
  } else if (c == '\n') {
    out += "\\n";
  } else if (c == '\r') {
    out += "\\r";
  } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
    append_escape(out, "\\x%02x", static_cast<unsigned char>(c));
  } else {
    out += c;
  }
}

}  // namespace

std::string shown(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    std::optional<std::size_t> length = utf8_sequence(text, at);
    if (!length) {
      append_escape(out, "\\x%02x", static_cast<unsigned char>(text[at++]));
    } else if (*length == 1) {
      append_ascii(out, text[at++]);
    } else {
      char32_t point = code_point(text, at, *length);
      if (escaped_point(point)) {
        append_escape(out, "\\u%04x", static_cast<unsigned>(point));
      } else {
        out += text.substr(at, *length);
      }
      at += *length;
    }
  }
  return out;
}

}  // namespace strata
