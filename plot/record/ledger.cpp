// SPDX-License-Identifier: GPL-2.0-or-later
// The ledger: a file shared by every strata tool of one run (forked
// children, programs started by a traced exec), where each notes what
// strata record cannot find out from the directory: the profile it created
// (P pid name), the one it could not create (F pid name reason), a program
// an exec left unprofiled (E pid program), and an exec that returned (e
// pid).  Each field ends with a NUL; st_write.c writes them.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>

#include "record/record.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace strata {

namespace {

// A pid field; -1 if it is not a number.
long pid_of(const std::string& field) {
  long pid = -1;
  auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), pid);
  return error == std::errc() && end == field.data() + field.size() ? pid : -1;
}

}  // namespace

LedgerNotes parse_ledger(std::string_view text) {
  std::vector<std::string> fields;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\0', at);
    if (end == std::string_view::npos) break;  // a note cut short: not one
    fields.emplace_back(text.substr(at, end - at));
    at = end + 1;
  }
  LedgerNotes notes;
  std::map<std::string, std::string> pending;  // pid -> the program of its last exec
  auto has = [&](std::size_t i, std::size_t n) { return i + n <= fields.size(); };
  for (std::size_t i = 0; i < fields.size();) {
    const std::string& kind = fields[i];
    if (kind == "P" && has(i, 3)) {
      notes.profiles.push_back({pid_of(fields[i + 1]), fields[i + 2]});
      i += 3;
    } else if (kind == "F" && has(i, 4)) {
      notes.not_created.push_back({pid_of(fields[i + 1]), fields[i + 2], fields[i + 3]});
      i += 4;
    } else if (kind == "E" && has(i, 3)) {
      pending[fields[i + 1]] = fields[i + 2];
      i += 3;
    } else if (kind == "e" && has(i, 2)) {
      pending.erase(fields[i + 1]);
      i += 2;
    } else {
      break;  // not a note of this strata: the rest cannot be read
    }
  }
  for (const auto& [pid, program] : pending) {
    notes.unprofiled_execs.push_back({pid_of(pid), program});
  }
  return notes;
}

Ledger::Ledger() {
  fd_ = memfd_create("strata-record-ledger", 0);  // inherited by valgrind
  if (fd_ < 0) throw Error(std::string("memfd_create: ") + std::strerror(errno));
  fcntl(fd_, F_SETFL, O_APPEND);
}

Ledger::~Ledger() { close(fd_); }

LedgerNotes Ledger::read() const { return parse_ledger(read_from(fd_, 0)); }

}  // namespace strata
