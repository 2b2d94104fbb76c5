// SPDX-License-Identifier: GPL-2.0-or-later
// Line reading and field parsing shared by the readers.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// Reads a text file line by line and names the line in errors.
class LineReader {
 public:
  LineReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  // Moves to the next line; false at the end of the file.
  bool next();
  const std::string& line() const { return line_; }
  // Whether the line ended with a newline (the last line of a file cut short may not).
  bool complete() const { return complete_; }
  std::uint64_t number() const { return number_; }
  const std::string& name() const { return name_; }

  // Throws Error naming the file and the current line.
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::istream& in_;
  std::string name_;
  std::string line_;
  std::uint64_t number_ = 0;
  bool complete_ = true;
};

// The fields of `line` between the separators.
std::vector<std::string_view> split(std::string_view line, char separator);

// The same into `fields`, whose storage is reused: for readers that split
// every line of a large file.
void split(std::string_view line, char separator, std::vector<std::string_view>& fields);

// An unsigned decimal number, all of `text`; nullopt otherwise.
std::optional<std::uint64_t> parse_number(std::string_view text);

// A finite decimal number (as strtod reads it, without exponent tricks), all
// of `text`; nullopt otherwise.
std::optional<double> parse_decimal(std::string_view text);

// Hexadecimal digits (either case), all of `text`; nullopt otherwise.
std::optional<std::uint64_t> parse_hex(std::string_view text);

// `text` with the escapes \\ \t \n \r replaced; nullopt for any other escape.
std::optional<std::string> unescape(std::string_view text);

// "'text'", with the text cut short when long, for error messages.
std::string quote(std::string_view text);

}  // namespace strata
