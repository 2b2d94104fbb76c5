// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "util/error.hpp"
#include "util/interrupt.hpp"

namespace fs = std::filesystem;

namespace strata {

// ---- standard output ---------------------------------------------------------

StandardOutput::StandardOutput() {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  std::cout.flush();
  previous_ = std::cout.rdbuf(this);
}

StandardOutput::~StandardOutput() {
  drain();
  std::cout.rdbuf(previous_);
}

bool StandardOutput::drain() {
  const char* at = pbase();
  while (error_ == 0 && at < pptr()) {
    ssize_t n = write(STDOUT_FILENO, at, static_cast<std::size_t>(pptr() - at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = n < 0 ? errno : ENOSPC;
    } else {
      at += n;
    }
  }
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return error_ == 0;
}

StandardOutput::int_type StandardOutput::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize StandardOutput::xsputn(const char* text, std::streamsize n) {
  std::streamsize done = 0;
  while (done < n) {
    if (pptr() == epptr() && !drain()) return done;
    std::streamsize room = std::min<std::streamsize>(epptr() - pptr(), n - done);
    std::memcpy(pptr(), text + done, static_cast<std::size_t>(room));
    pbump(static_cast<int>(room));
    done += room;
  }
  return done;
}

int StandardOutput::sync() { return drain() ? 0 : -1; }

void StandardOutput::finish() {
  std::cout.flush();
  drain();
  if (error_ != 0) {
    throw Error(std::string("standard output: cannot write: ") + std::strerror(error_));
  }
}

// ---- a file replaced whole -----------------------------------------------------

namespace {

// The mode a new file gets: 0666 less the umask.
mode_t new_file_mode() {
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

}  // namespace

ReplacedFile::ReplacedFile(const std::string& path) : path_(path) {
  std::error_code error;
  target_ = fs::exists(path, error) ? fs::canonical(path, error) : fs::path(path);
  if (error) target_ = path;
  struct stat st {};
  bool exists = stat(target_.c_str(), &st) == 0;
  fs::path dir = target_.parent_path().empty() ? fs::path(".") : target_.parent_path();
  std::string pattern = (dir / ("." + target_.filename().string() + ".strata-XXXXXX")).string();
  int fd = exists && !S_ISREG(st.st_mode) ? -1 : mkstemp(pattern.data());
  if (fd >= 0) {
    fchmod(fd, exists ? st.st_mode & 07777 : new_file_mode());
    close(fd);
    temp_ = pattern;
    removed_ = std::make_unique<RemovedOnSignal>(temp_);
    out_.open(temp_, std::ios::binary | std::ios::trunc);
  } else if (exists) {
    // a device or a pipe, or a file in a directory strata may not write
    // in: there is nothing to rename over it, it is written directly
    out_.open(target_, std::ios::binary | std::ios::trunc);
  }
  if (!out_.is_open()) throw Error(path_, 0, std::string("cannot write: ") + std::strerror(errno));
}

ReplacedFile::~ReplacedFile() {
  if (!temp_.empty()) unlink(temp_.c_str());
}

void ReplacedFile::commit() {
  out_.close();
  if (!out_) throw Error(path_, 0, std::string("cannot write: ") + std::strerror(errno));
  if (temp_.empty()) return;
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
    throw Error(path_, 0, std::string("cannot write: ") + std::strerror(errno));
  }
  temp_.clear();
  removed_.reset();
}

}  // namespace strata
