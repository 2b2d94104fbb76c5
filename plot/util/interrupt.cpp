// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/interrupt.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include "util/error.hpp"

namespace strata {

namespace {

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
constexpr int kSlots = 4;

// What the handler undoes; written only with the signals held back.
char paths[kSlots][PATH_MAX];
volatile sig_atomic_t used[kSlots];
volatile pid_t child = 0;
int holders = 0;               // RemovedOnSignal objects alive, and the child
struct sigaction previous[4];  // the actions before, by kStopSignals index

// Removes the entries of directory `dir` (one level: strata's temporary
// directories hold files), then the directory; or the file.
void remove_path(const char* path) {
  int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) {
    unlink(path);
    return;
  }
  alignas(8) char buffer[4096];
  for (;;) {
    long n = syscall(SYS_getdents64, dir, buffer, sizeof buffer);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      struct Entry {
        ino64_t inode;
        off64_t next;
        unsigned short length;
        unsigned char type;
        char name[1];
      };
      const Entry* e = reinterpret_cast<const Entry*>(buffer + at);
      bool dots = e->name[0] == '.' && (e->name[1] == 0 || (e->name[1] == '.' && e->name[2] == 0));
      if (!dots) unlinkat(dir, e->name, 0);
      at += e->length;
    }
  }
  close(dir);
  rmdir(path);
}

void on_stop(int signal) {
  if (pid_t pid = child; pid > 0) {
    kill(pid, SIGTERM);
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  for (int i = 0; i < kSlots; ++i) {
    if (used[i]) remove_path(paths[i]);
  }
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(signal, &dfl, nullptr);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, signal);
  sigprocmask(SIG_UNBLOCK, &one, nullptr);
  raise(signal);
  _exit(128 + signal);  // if the signal did not end it
}

void install() {
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
    struct sigaction action {};
    sigaction(kStopSignals[i], nullptr, &previous[i]);
    if (previous[i].sa_handler == SIG_IGN) continue;  // nohup: stays ignored
    action.sa_handler = on_stop;
    action.sa_mask = stop_signals();
    sigaction(kStopSignals[i], &action, nullptr);
  }
}

void uninstall() {
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
    sigaction(kStopSignals[i], &previous[i], nullptr);
  }
}

}  // namespace

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal : kStopSignals) sigaddset(&set, signal);
  return set;
}

HoldSignals::HoldSignals() {
  sigset_t set = stop_signals();
  sigprocmask(SIG_BLOCK, &set, &original_);
}

HoldSignals::~HoldSignals() { sigprocmask(SIG_SETMASK, &original_, nullptr); }

RemovedOnSignal::RemovedOnSignal(const std::string& path) {
  HoldSignals hold;
  for (int i = 0; i < kSlots && slot_ < 0; ++i) {
    if (!used[i]) slot_ = i;
  }
  if (slot_ < 0 || path.size() >= PATH_MAX) throw Error("too many temporary files");
  std::memcpy(paths[slot_], path.c_str(), path.size() + 1);
  used[slot_] = 1;
  if (holders++ == 0) install();
}

RemovedOnSignal::~RemovedOnSignal() {
  HoldSignals hold;
  used[slot_] = 0;
  if (--holders == 0) uninstall();
}

void kill_on_signal(pid_t pid) {
  HoldSignals hold;
  if (pid > 0 && child <= 0 && holders++ == 0) install();
  if (pid <= 0 && child > 0 && --holders == 0) uninstall();
  child = pid;
}

}  // namespace strata
