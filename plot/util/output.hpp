// SPDX-License-Identifier: GPL-2.0-or-later
// Where results go, checked: standard output, whose every write is checked
// (a full disk, /dev/full, a closed descriptor are errors, not a short
// result and exit status 0), and a file that is replaced whole, so that a
// command that fails never leaves it emptied or half-written.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

namespace strata {

// A buffer written to a descriptor that remembers the first write that
// failed, with its errno (ENOSPC on a full disk, whatever later calls leave
// in errno), and then drops the rest: the stream goes bad, so the printing
// costs nothing more.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd);
  DescriptorBuffer(const DescriptorBuffer&) = delete;
  DescriptorBuffer& operator=(const DescriptorBuffer&) = delete;

  // Writes what is buffered; false once a write failed.
  bool drain();
  // The errno of the first write that failed; 0 while none has.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize n) override;
  int sync() override;

 private:
  int fd_;
  std::array<char, 1 << 16> buffer_;
  int error_ = 0;
};

// Standard output for std::cout, installed for its lifetime: a
// DescriptorBuffer on descriptor 1.
class StandardOutput {
 public:
  StandardOutput();
  ~StandardOutput();
  StandardOutput(const StandardOutput&) = delete;
  StandardOutput& operator=(const StandardOutput&) = delete;

  // Writes what is buffered; an Error naming standard output if a write failed.
  void finish();

 private:
  DescriptorBuffer buffer_;
  std::streambuf* previous_ = nullptr;
};

// A file written whole or not at all: the text goes to a temporary file
// beside `path` (same directory, same file system), which commit() renames
// over it; until then `path` is untouched, and a ReplacedFile destroyed
// without commit() removes its temporary file, and so does a stop signal
// (interrupt.hpp).  A path that is not a regular file (a device, a pipe),
// or one in a directory where no file can be created, is written directly:
// there is nothing to rename over it.  Every write is checked, and an error
// gives the first that failed ("No space left on device").  strata convert
// -o, the page and the graphs of strata plot -o, with the script and data
// --keep-script keeps, are written so.
class RemovedOnSignal;
class ReplacedFile {
 public:
  explicit ReplacedFile(const std::string& path);
  ~ReplacedFile();
  ReplacedFile(const ReplacedFile&) = delete;
  ReplacedFile& operator=(const ReplacedFile&) = delete;

  std::ostream& stream() { return out_; }
  // Writes what is buffered, closes and renames; an Error naming the file
  // if anything failed.
  void commit();

 private:
  [[noreturn]] void fail(int error) const;

  std::string path_;              // as given, for errors
  std::filesystem::path target_;  // where it ends: `path` with its links followed
  std::string temp_;              // the temporary file, or empty when written directly
  std::unique_ptr<RemovedOnSignal> removed_;
  int fd_ = -1;
  std::unique_ptr<DescriptorBuffer> buffer_;
  std::ostream out_{nullptr};
};

}  // namespace strata
