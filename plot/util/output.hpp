// SPDX-License-Identifier: GPL-2.0-or-later
// Where results go, checked: standard output, whose every write is checked
// (a full disk, /dev/full, a closed descriptor are errors, not a short
// result and exit status 0), and a file that is replaced whole, so that a
// command that fails never leaves it emptied or half-written.
#pragma once

#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <streambuf>
#include <string>

namespace strata {

// Standard output for std::cout, installed for its lifetime: a buffer
// written to descriptor 1 that remembers the first write that failed, and
// then drops the rest (std::cout goes bad, so the command's printing costs
// nothing more).
class StandardOutput : public std::streambuf {
 public:
  StandardOutput();
  ~StandardOutput() override;
  StandardOutput(const StandardOutput&) = delete;
  StandardOutput& operator=(const StandardOutput&) = delete;

  // Writes what is buffered; an Error naming standard output if a write failed.
  void finish();

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize n) override;
  int sync() override;

 private:
  bool drain();  // writes the buffer; false once a write failed

  std::array<char, 1 << 16> buffer_;
  std::streambuf* previous_ = nullptr;
  int error_ = 0;  // the errno of the first write that failed
};

// A file written whole or not at all: the text goes to a temporary file
// beside `path` (same directory, same file system), which commit() renames
// over it; until then `path` is untouched, and a ReplacedFile destroyed
// without commit() removes its temporary file, and so does a stop signal
// (interrupt.hpp).  A path that is not a regular file (a device, a pipe),
// or one in a directory where no file can be created, is written directly:
// there is nothing to rename over it.
class RemovedOnSignal;
class ReplacedFile {
 public:
  explicit ReplacedFile(const std::string& path);
  ~ReplacedFile();
  ReplacedFile(const ReplacedFile&) = delete;
  ReplacedFile& operator=(const ReplacedFile&) = delete;

  std::ostream& stream() { return out_; }
  // Closes and renames; an Error naming the file if anything failed.
  void commit();

 private:
  std::string path_;              // as given, for errors
  std::filesystem::path target_;  // where it ends: `path` with its links followed
  std::string temp_;              // the temporary file, or empty when written directly
  std::unique_ptr<RemovedOnSignal> removed_;
  std::ofstream out_;
};

}  // namespace strata
