// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "util/error.hpp"
#include "util/shown.hpp"

namespace strata {

bool LineReader::next() {
  std::size_t end;
  while ((end = std::string_view(block_.data(), filled_).find('\n', scanned_)) ==
         std::string_view::npos) {
    scanned_ = filled_;
    if (scanned_ - start_ > kMaxLine) {
      throw Error(name_, number_ + 1,
                  "a line longer than " + std::to_string(kMaxLine >> 20) +
                      " MiB: not a strata profile or massif.out file (docs/format.md, limits)");
    }
    if (refill()) continue;
    if (start_ == filled_) return false;
    end = filled_;  // the last line, without its newline
    break;
  }
  line_ = std::string_view(block_.data() + start_, end - start_);
  complete_ = end < filled_;
  start_ = scanned_ = std::min(end + 1, filled_);
  ++number_;
  return true;
}

bool LineReader::refill() {
  if (end_) return false;
  std::size_t kept = filled_ - start_;
  if (kept > 0) std::memmove(block_.data(), block_.data() + start_, kept);
  scanned_ -= start_;
  start_ = 0;
  if (block_.size() - kept < kBlock / 2) block_.resize(std::max(2 * block_.size(), kept + kBlock));
  in_.read(block_.data() + kept, static_cast<std::streamsize>(block_.size() - kept));
  std::size_t read = static_cast<std::size_t>(in_.gcount());
  filled_ = kept + read;
  end_ = !in_;
  return read > 0;
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

constexpr std::size_t kSafeDigits = 19;  // any 19 decimal digits fit in 64 bits

std::optional<std::uint64_t> parse_base(std::string_view text, int base) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::uint64_t> parse_number(std::string_view text) { return parse_base(text, 10); }

namespace {

// Reads the decimal digits from `at` on, up to `end` at most, into `value`;
// how many there were.
std::size_t read_digits(const char*& at, const char* end, std::uint64_t& value) {
  const char* start = at;
  value = 0;
  for (unsigned digit; at != end && (digit = static_cast<unsigned char>(*at) - unsigned{'0'}) <= 9;
       ++at) {
    value = 10 * value + digit;
  }
  return static_cast<std::size_t>(at - start);
}

}  // namespace

std::size_t parse_numbers(std::string_view line, char separator, std::span<std::uint64_t> numbers) {
  std::size_t first = line.find(separator);
  if (first == std::string_view::npos) return 0;
  const char* at = line.data() + first + 1;
  const char* end = line.data() + line.size();
  for (std::size_t count = 0;;) {
    std::uint64_t value;
    std::size_t digits = read_digits(at, end, value);
    if (digits == 0 || digits > kSafeDigits || count == numbers.size()) return 0;
    numbers[count++] = value;
    if (at == end) return count;
    if (*at++ != separator) return 0;
  }
}

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
  if (text.size() <= kLongest) return "'" + shown(text) + "'";
  return "'" + shown(text.substr(0, kLongest)) + "...'";
}

int open_regular(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  struct stat status;
  if (fd >= 0 && (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode))) {
    ::close(fd);
    fd = -1;
  }
  return fd;
}

std::string read_from(int fd, std::uint64_t at) {
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = pread(fd, buffer, sizeof buffer, static_cast<off_t>(at + text.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace strata
