// SPDX-License-Identifier: GPL-2.0-or-later
// The one error type of strata.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace strata {

// Thrown where input or a command line is wrong, caught once in main and printed
// on one line: "strata: FILE:LINE: what" for a problem in a file, "strata CMD: what"
// for any other.  `line` is 0 when the problem is not on one line of the file.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  Error(std::string file, std::uint64_t line, const std::string& what)
      : std::runtime_error(what), file_(std::move(file)), line_(line) {}

  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }

 private:
  std::string file_;
  std::uint64_t line_ = 0;
};

// "FILE:LINE: what", "FILE: what" or "what", as far as the error knows.
std::string describe(const Error& error);

}  // namespace strata
