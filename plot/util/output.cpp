// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "util/error.hpp"
#include "util/interrupt.hpp"

namespace fs = std::filesystem;

namespace strata {

// ---- a descriptor's buffer -------------------------------------------------------

DescriptorBuffer::DescriptorBuffer(int fd) : fd_(fd) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool DescriptorBuffer::drain() {
  const char* at = pbase();
  while (error_ == 0 && at < pptr()) {
    ssize_t n = write(fd_, at, static_cast<std::size_t>(pptr() - at));
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

DescriptorBuffer::int_type DescriptorBuffer::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize DescriptorBuffer::xsputn(const char* text, std::streamsize n) {
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

int DescriptorBuffer::sync() { return drain() ? 0 : -1; }

// ---- standard output ---------------------------------------------------------

StandardOutput::StandardOutput() : buffer_(STDOUT_FILENO) {
  std::cout.flush();
  previous_ = std::cout.rdbuf(&buffer_);
}

StandardOutput::~StandardOutput() {
  buffer_.drain();
  std::cout.rdbuf(previous_);
}

void StandardOutput::finish() {
  std::cout.flush();
  buffer_.drain();
  if (buffer_.error() != 0) {
    throw Error(std::string("standard output: cannot write: ") + std::strerror(buffer_.error()));
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
  fd_ = exists && !S_ISREG(st.st_mode) ? -1 : mkostemp(pattern.data(), O_CLOEXEC);
  if (fd_ >= 0) {
    fchmod(fd_, exists ? st.st_mode & 07777 : new_file_mode());
    temp_ = pattern;
    removed_ = std::make_unique<RemovedOnSignal>(temp_);
  } else if (exists) {
    // a device or a pipe, or a file in a directory strata may not write
    // in: there is nothing to rename over it, it is written directly
    fd_ = open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  }
  if (fd_ < 0) fail(errno);
  buffer_ = std::make_unique<DescriptorBuffer>(fd_);
  out_.rdbuf(buffer_.get());
}

ReplacedFile::~ReplacedFile() {
  if (fd_ >= 0) close(fd_);
  if (!temp_.empty()) unlink(temp_.c_str());
}

void ReplacedFile::fail(int error) const {
  throw Error(path_, 0, std::string("cannot write: ") + std::strerror(error));
}

void ReplacedFile::commit() {
  out_.flush();
  buffer_->drain();
  if (buffer_->error() != 0) fail(buffer_->error());
  int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) fail(errno);
  if (temp_.empty()) return;
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) fail(errno);
  temp_.clear();
  removed_.reset();
}

}  // namespace strata
