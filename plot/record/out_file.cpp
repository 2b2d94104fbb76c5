// SPDX-License-Identifier: GPL-2.0-or-later
// The --out-file pattern, read as Valgrind reads --log-file: %p is the process
// id, %n a sequence number per process (1 for its first file), %q{VAR} the
// value of the environment variable VAR, %% a %; any other % is an error, and
// so is an unset VAR.  And how a profile ends.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "record/record.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace strata {

namespace {

struct Piece {
  enum class Kind { text, pid, sequence } kind = Kind::text;
  std::string text;
};

// The value of VAR in "%q{VAR}" whose 'q' is at `at`; moves `at` to the '}'.
std::string environment_value(const std::string& pattern, std::size_t& at) {
  std::size_t close = pattern.find('}', at);
  if (at + 1 >= pattern.size() || pattern[at + 1] != '{' || close == std::string::npos ||
      close == at + 2) {
    throw Error("%q must be followed by {VARIABLE}");
  }
  std::string name = pattern.substr(at + 2, close - at - 2);
  const char* value = std::getenv(name.c_str());
  if (!value) throw Error("%q{" + name + "}: the environment variable " + name + " is not set");
  at = close;
  return value;
}

std::vector<Piece> parse_pattern(const std::string& pattern) {
  if (pattern.empty()) throw Error("the file name is empty");
  std::vector<Piece> pieces(1);
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c != '%') {
      pieces.back().text += c;
      continue;
    }
    c = ++i < pattern.size() ? pattern[i] : '\0';
    if (c == '%') {
      pieces.back().text += '%';
    } else if (c == 'q') {
      pieces.back().text += environment_value(pattern, i);
    } else if (c == 'p' || c == 'n') {
      pieces.push_back({c == 'p' ? Piece::Kind::pid : Piece::Kind::sequence, ""});
      pieces.push_back({});
    } else {
      throw Error(std::string("%") + c + " is not one of %p, %n, %q{VAR}, %%");
    }
  }
  return pieces;
}

std::string expand(const std::vector<Piece>& pieces, pid_t pid) {
  std::string name;
  for (const Piece& piece : pieces) {
    if (piece.kind == Piece::Kind::text) name += piece.text;
    if (piece.kind == Piece::Kind::pid) name += std::to_string(pid);
    if (piece.kind == Piece::Kind::sequence) name += "1";
  }
  return name;
}

}  // namespace

void check_out_file(const std::string& pattern) {
  std::vector<Piece> pieces = parse_pattern(pattern);
  // The directory, when it does not depend on the process: it must exist and
  // be writable, or the tool could not create the profile.
  fs::path dir = fs::path(expand(pieces, 1)).parent_path();
  if (dir != fs::path(expand(pieces, 2)).parent_path()) return;
  if (dir.empty()) dir = ".";
  std::error_code error;
  if (!fs::is_directory(dir, error)) throw Error("no directory " + dir.string());
  if (access(dir.c_str(), W_OK) != 0) throw Error("directory " + dir.string() + " is not writable");
}

std::string expand_out_file(const std::string& pattern, pid_t pid) {
  return expand(parse_pattern(pattern), pid);
}

ProfileEnd profile_end(const std::string& path) {
  constexpr std::streamoff kTail = 4096;  // more than an X or Q line
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : 0;
  std::string tail(static_cast<std::size_t>(std::min(size, kTail)), '\0');
  in.seekg(size - static_cast<std::streamoff>(tail.size()));
  if (tail.empty() || !in.read(tail.data(), static_cast<std::streamsize>(tail.size())) ||
      tail.back() != '\n') {
    return {};
  }
  tail.pop_back();
  std::string last = tail.substr(tail.rfind('\n') + 1);  // npos + 1 == 0
  if (last.starts_with("X\t")) return {ProfileEnd::Kind::complete, ""};
  std::size_t reason = last.find('\t', 2);
  if (!last.starts_with("Q\t") || reason == std::string::npos) return {};
  return {ProfileEnd::Kind::stopped, last.substr(reason + 1)};
}

}  // namespace strata
