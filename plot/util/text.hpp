// SPDX-License-Identifier: GPL-2.0-or-later
// Line reading and field parsing shared by the readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// The longest line a reader takes: no strata profile or massif.out file
// comes near (a line is one frame, one site of at most a few thousand frame
// ids, one snapshot's totals), and a file without newlines (/dev/zero) is
// an error once this much of it is read, not a memory grown without end.
constexpr std::size_t kMaxLine = 16 << 20;

// Reads a text file line by line and names the line in errors.  The file is
// read in large blocks and a line is a view into the block: it stays valid
// until the next call to next().  A line longer than kMaxLine is an error.
class LineReader {
 public:
  LineReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  // Moves to the next line; false at the end of the file.
  bool next();
  std::string_view line() const { return line_; }
  // Whether the line ended with a newline (the last line of a file cut short may not).
  bool complete() const { return complete_; }
  std::uint64_t number() const { return number_; }
  const std::string& name() const { return name_; }

  // Throws Error naming the file and the current line.
  [[noreturn]] void fail(const std::string& what) const;

 private:
  // Moves the text not yet taken to the front of block_ and reads more after
  // it; false when the file has no more.
  bool refill();

  static constexpr std::size_t kBlock = 1 << 20;  // bytes read at a time

  std::istream& in_;
  std::string name_;
  std::vector<char> block_;  // the text read and not yet taken; lines are views into it
  std::size_t start_ = 0;    // where the next line starts in block_
  std::size_t scanned_ = 0;  // block_ has no newline from start_ to here
  std::size_t filled_ = 0;   // the text read ends here in block_
  std::string_view line_;
  std::uint64_t number_ = 0;
  bool complete_ = true;
  bool end_ = false;  // the rest of the file is in block_
};

// The fields of `line` between the separators.
std::vector<std::string_view> split(std::string_view line, char separator);

// The same into `fields`, whose storage is reused: for readers that split
// every line of a large file.
void split(std::string_view line, char separator, std::vector<std::string_view>& fields);

// The fields of `line` after its first, each an unsigned decimal number of
// at most 19 digits, into `numbers`: how many there are, or 0 when a field is
// not such a number or there are more than numbers.size().  One pass over
// the line, for the records of a large file that are all numbers; a reader
// reports a malformed record with split() and parse_number().
std::size_t parse_numbers(std::string_view line, char separator, std::span<std::uint64_t> numbers);

// An unsigned decimal number, all of `text`; nullopt otherwise.
std::optional<std::uint64_t> parse_number(std::string_view text);

// A finite decimal number (as strtod reads it, without exponent tricks), all
// of `text`; nullopt otherwise.
std::optional<double> parse_decimal(std::string_view text);

// Hexadecimal digits (either case), all of `text`; nullopt otherwise.
std::optional<std::uint64_t> parse_hex(std::string_view text);

// `text` with the escapes \\ \t \n \r replaced; nullopt for any other escape.
std::optional<std::string> unescape(std::string_view text);

// "'text'", shown() and cut short when long, for error messages.
std::string quote(std::string_view text);

// Opens `path` for reading, without blocking, only when it is a regular
// file (never a FIFO or a device, which a profile could name): its
// descriptor, closed on exec, or -1.
int open_regular(const std::string& path);

// The bytes of the descriptor `fd` from byte `at` to its end, as far as
// they can be read (pread: its offset does not move).
std::string read_from(int fd, std::uint64_t at);

}  // namespace strata
