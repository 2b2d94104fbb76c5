// SPDX-License-Identifier: GPL-2.0-or-later
// What a signal that stops strata undoes first: SIGTERM, SIGINT, SIGHUP or
// SIGQUIT (unless strata was started ignoring it) kills the child strata
// waits for (gnuplot) and waits for it, removes the temporary files and
// directories strata made (a directory with the files in it), then kills
// strata with the same signal, so that whoever sent it sees it.  The
// handler only makes system calls (kill, waitpid, getdents64, unlinkat,
// rmdir): it is async-signal-safe.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace strata {

// While it lives, `path` (a file, or a directory and the files in it) is
// removed if a stop signal comes.  At most 4 at a time.
class RemovedOnSignal {
 public:
  explicit RemovedOnSignal(const std::string& path);
  ~RemovedOnSignal();
  RemovedOnSignal(const RemovedOnSignal&) = delete;
  RemovedOnSignal& operator=(const RemovedOnSignal&) = delete;

 private:
  int slot_ = -1;
};

// While it lives, the stop signals are held back: a child started in the
// meantime can be named (kill_on_signal) before a signal can come.
// `original()` is the mask to give the child.
class HoldSignals {
 public:
  HoldSignals();
  ~HoldSignals();
  HoldSignals(const HoldSignals&) = delete;
  HoldSignals& operator=(const HoldSignals&) = delete;
  const sigset_t& original() const { return original_; }

 private:
  sigset_t original_;
};

// The child to kill (SIGTERM) and wait for if a stop signal comes; 0 once
// it has been waited for.
void kill_on_signal(pid_t child);

// The stop signals strata handles, for a child's posix_spawnattr_setsigdefault.
sigset_t stop_signals();

}  // namespace strata
