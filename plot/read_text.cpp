// SPDX-License-Identifier: GPL-2.0-or-later
#include "read_text.hpp"

#include <charconv>
#include <cmath>

#include "error.hpp"

namespace strata {

bool LineReader::next() {
  if (!std::getline(in_, line_)) return false;
  ++number_;
  complete_ = !in_.eof();
  return true;
}

void LineReader::fail(const std::string& what) const { throw Error(name_, number_, what); }

std::vector<std::string_view> split(std::string_view line, char separator) {
  std::vector<std::string_view> fields;
  split(line, separator, fields);
  return fields;
}

void split(std::string_view line, char separator, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t start = 0;
  for (std::size_t end; (end = line.find(separator, start)) != std::string_view::npos;
       start = end + 1) {
    fields.push_back(line.substr(start, end - start));
  }
  fields.push_back(line.substr(start));
}

namespace {

std::optional<std::uint64_t> parse_base(std::string_view text, int base) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::uint64_t> parse_number(std::string_view text) { return parse_base(text, 10); }

std::optional<std::uint64_t> parse_hex(std::string_view text) { return parse_base(text, 16); }

std::optional<double> parse_decimal(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size()) return std::nullopt;
    switch (text[i]) {
      case '\\':
        out += '\\';
        break;
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      default:
        return std::nullopt;
    }
  }
  return out;
}

std::string quote(std::string_view text) {
  constexpr std::size_t kLongest = 60;
  if (text.size() <= kLongest) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kLongest)) + "...'";
}

}  // namespace strata
