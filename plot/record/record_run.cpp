// SPDX-License-Identifier: GPL-2.0-or-later
// Finding the strata tool and running Valgrind: fork and exec, no shell, so
// that the program's arguments reach it exactly as given.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "record/record.hpp"
#include "util/error.hpp"

#ifndef STRATA_PKGLIBEXECDIR
#define STRATA_PKGLIBEXECDIR "/usr/local/libexec/strata"
#endif
#ifndef STRATA_BINDIR
#define STRATA_BINDIR "/usr/local/bin"
#endif
#ifndef STRATA_PLATFORM
#define STRATA_PLATFORM "amd64-linux"
#endif
#ifndef STRATA_VALGRIND
#define STRATA_VALGRIND "valgrind"
#endif

extern char** environ;

namespace fs = std::filesystem;

namespace strata {

namespace {

const std::string kTool = std::string("strata-") + STRATA_PLATFORM;
constexpr const char* kNativeLibrary = "libstrata-native.so";

bool holds_tool(const fs::path& dir) {
  std::error_code error;
  return fs::is_regular_file(dir / kTool, error);
}

// The strata executable, or "" if /proc/self/exe cannot be read.
fs::path self_exe() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : self;
}

// vglib/ beside the strata executable: the tool of an uninstalled build tree.
fs::path build_tree_dir(const fs::path& self) { return self.parent_path() / "vglib"; }

// ---- processes -------------------------------------------------------------

// The environment of this process with NAME=value set.
std::vector<std::string> environment_with(const std::string& name, const std::string& value) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    if (!std::string_view(*entry).starts_with(name + "=")) environment.emplace_back(*entry);
  }
  environment.push_back(name + "=" + value);
  return environment;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// In the child: exec with the signal mask strata was given, or send errno
// through `report` and exit.  With `search`, argv[0] is looked for in PATH.
[[noreturn]] void exec_child(std::vector<char*>& argv, std::vector<char*>& envp, int report,
                             const sigset_t& mask, bool search) {
  sigprocmask(SIG_SETMASK, &mask, nullptr);
  if (search) {
    execvpe(argv[0], argv.data(), envp.data());
  } else {
    execve(argv[0], argv.data(), envp.data());
  }
  int error = errno;
  ssize_t written = write(report, &error, sizeof error);
  (void)written;
  _exit(127);
}

// The errno of a failed exec, sent by the child; 0 when the exec succeeded.
int exec_error(int report) {
  int error = 0;
  ssize_t got;
  while ((got = read(report, &error, sizeof error)) < 0 && errno == EINTR) {
  }
  close(report);
  return got == sizeof error ? error : 0;
}

int exit_status(int status) {
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

// The signals that ask strata record to stop: while Valgrind runs they are
// passed on to it (Valgrind passes them to the program), and strata waits for
// it to end, so that nothing is left running.  A signal ignored when strata
// started stays ignored, by both.
constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

// While it lives, the stop signals that are not ignored, and SIGCHLD, are
// blocked (they wait to be taken by wait_passing_signals()), and SIGCHLD is
// not ignored (so that the child can be waited for).
class PassSignals {
 public:
  PassSignals() {
    sigemptyset(&waited_);
    for (int signal : kStopSignals) {
      struct sigaction action {};
      if (sigaction(signal, nullptr, &action) == 0 && action.sa_handler != SIG_IGN) {
        sigaddset(&waited_, signal);
      }
    }
    sigaddset(&waited_, SIGCHLD);
    struct sigaction child {};
    child.sa_handler = SIG_DFL;
    sigemptyset(&child.sa_mask);
    sigaction(SIGCHLD, &child, &child_);
    sigprocmask(SIG_BLOCK, &waited_, &original_);
  }
  ~PassSignals() {
    sigprocmask(SIG_SETMASK, &original_, nullptr);
    sigaction(SIGCHLD, &child_, nullptr);
  }
  PassSignals(const PassSignals&) = delete;
  PassSignals& operator=(const PassSignals&) = delete;

  const sigset_t& original() const { return original_; }

  // Waits for `pid` to end, passing on each stop signal sent to strata; one
  // from the terminal (^C, ^\) is not passed on: the terminal sent it to
  // Valgrind too.  Returns its exit status.
  int wait_for(pid_t pid) const {
    for (;;) {
      int status = 0;
      pid_t ended = waitpid(pid, &status, WNOHANG);
      if (ended == pid) return exit_status(status);
      if (ended < 0 && errno != EINTR) {
        throw Error(std::string("waiting for valgrind: ") + std::strerror(errno));
      }
      siginfo_t info;
      timespec second{1, 0};  // and look again, whatever happens
      int signal = sigtimedwait(&waited_, &info, &second);
      if (signal > 0 && signal != SIGCHLD && info.si_code != SI_KERNEL) kill(pid, signal);
    }
  }

 private:
  sigset_t waited_;
  sigset_t original_;
  struct sigaction child_ {};
};

}  // namespace

fs::path installed_tool_dir(const fs::path& self, const fs::path& bindir,
                            const fs::path& pkglibexecdir) {
  fs::path way = pkglibexecdir.lexically_normal().lexically_relative(bindir.lexically_normal());
  if (way.empty()) return pkglibexecdir;  // not both absolute: only the configured path
  return (self.parent_path() / way).lexically_normal();
}

std::string find_tool_dir() {
  if (const char* dir = std::getenv("STRATA_VALGRIND_LIB"); dir && *dir) {
    if (holds_tool(dir)) return dir;
    throw Error(std::string("STRATA_VALGRIND_LIB=") + dir + ": there is no " + kTool + " there");
  }
  std::vector<fs::path> tried;
  if (fs::path self = self_exe(); !self.empty()) {
    tried.push_back(build_tree_dir(self));
    tried.push_back(installed_tool_dir(self, STRATA_BINDIR, STRATA_PKGLIBEXECDIR));
  }
  tried.push_back(STRATA_PKGLIBEXECDIR);
  std::string names;
  for (const fs::path& dir : tried) {
    if (holds_tool(dir)) return dir.string();
    names += (names.empty() ? "" : ", ") + dir.string();
  }
  throw Error("the Valgrind tool " + kTool + " is in none of " + names +
              "; set STRATA_VALGRIND_LIB to its directory");
}

std::vector<std::string> valgrind_command(const RecordRequest& request, int record_fd) {
  std::vector<std::string> command = {STRATA_VALGRIND, "--tool=strata"};
  if (record_fd >= 0) command.push_back("--record-fd=" + std::to_string(record_fd));
  command.insert(command.end(), request.valgrind_args.begin(), request.valgrind_args.end());
  command.insert(command.end(), request.program.begin(), request.program.end());
  return command;
}

namespace {

// Runs `args` with the environment `env_strings` and waits for it.
RunResult run(const std::vector<std::string>& args, std::vector<std::string> env_strings,
              bool search, const std::function<void()>& started = {}) {
  std::vector<std::string> arg_strings = args;
  std::vector<char*> argv = c_strings(arg_strings);
  std::vector<char*> envp = c_strings(env_strings);
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  PassSignals signals;
  pid_t pid = fork();
  if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) exec_child(argv, envp, report[1], signals.original(), search);
  close(report[1]);
  if (int error = exec_error(report[0])) {
    signals.wait_for(pid);
    throw Error("cannot run " + args[0] + ": " + std::strerror(error));
  }
  if (started) started();
  return {pid, signals.wait_for(pid)};
}

// The environment of this process without NAME.
void erase_variable(std::vector<std::string>& environment, const std::string& name) {
  std::erase_if(environment, [&](const std::string& entry) { return entry.starts_with(name + "="); });
}

}  // namespace

RunResult run_valgrind(const std::string& lib_dir, const std::vector<std::string>& args) {
  return run(args, environment_with("VALGRIND_LIB", lib_dir), false);
}

std::string find_native_library(const std::string& tool_dir) {
  fs::path library = fs::path(tool_dir) / kNativeLibrary;
  std::error_code error;
  if (fs::is_regular_file(library, error)) return fs::absolute(library, error).string();
  throw Error("the native recorder's library " + std::string(kNativeLibrary) +
              " is not beside the tool in " + tool_dir);
}

// The program's environment: the library first in LD_PRELOAD, the options
// one a line in STRATA_NATIVE_OPTIONS, and nothing of a recording this one
// runs in (STRATA_NATIVE_IMAGE, which says what an exec'd image was).
RunResult run_native(const std::string& library, const RecordRequest& request, int record_fd,
                     const std::function<void()>& started) {
  std::string options = "--library=" + library;
  if (record_fd >= 0) options += "\n--record-fd=" + std::to_string(record_fd);
  for (const std::string& arg : request.native_args) options += "\n" + arg;
  const char* preload = std::getenv("LD_PRELOAD");
  std::string preloads = library + (preload && *preload ? std::string(":") + preload : "");
  std::vector<std::string> environment = environment_with("LD_PRELOAD", preloads);
  erase_variable(environment, "STRATA_NATIVE_OPTIONS");
  erase_variable(environment, "STRATA_NATIVE_IMAGE");
  environment.push_back("STRATA_NATIVE_OPTIONS=" + options);
  return run(request.program, environment, true, started);
}

}  // namespace strata
