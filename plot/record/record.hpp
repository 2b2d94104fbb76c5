// SPDX-License-Identifier: GPL-2.0-or-later
// The parts of `strata record`: its command line, Valgrind's core options it
// passes on, the --out-file pattern, and running Valgrind.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace strata {

// ---- the command line (record_options.cpp) ---------------------------------

struct RecordRequest {
  bool help = false;
  bool version = false;                    // --version
  std::vector<std::string> valgrind_args;  // the options for valgrind, after --tool=strata
  std::vector<std::string> program;        // PROGRAM and its arguments, as given
  std::string out_file;                    // the --out-file pattern
};

// Parses `strata record [OPTIONS] [--] PROGRAM [ARGS]`; a bad option, a bad
// value or a missing program is an Error naming the option.
RecordRequest parse_record_args(const std::vector<std::string>& args);

void print_record_help(std::ostream& out);

// ---- Valgrind's core options (valgrind_options.cpp) ------------------------

// Whether `name` ("--trace-children", "-q") is a core option strata passes on.
bool is_core_option(const std::string& name);

// Checks the value of a core option given as `arg` ("--log-fd=3"); throws Error.
void check_core_option(const std::string& arg);

// The names of the core options passed on, for --help.
std::vector<std::string> core_option_names();

// ---- the --out-file pattern (out_file.cpp) ---------------------------------

// Checks a pattern as Valgrind will: %p, %n, %q{VAR} with VAR set, %%.
void check_out_file(const std::string& pattern);

// The file name of process `pid`'s first file: %p = pid, %n = 1, %q{VAR} = $VAR.
std::string expand_out_file(const std::string& pattern, pid_t pid);

// The files the pattern can name in its directory (any pid, any %n), with
// the times they were last written; `pid` is used for %p in the directory.
using FileTimes = std::map<std::string, std::filesystem::file_time_type>;
FileTimes profile_files(const std::string& pattern, pid_t pid);

// The profiles written or rewritten since `before` was taken, process `pid`'s first.
// A program that a process execs writes to the process's name followed by
// .execN, N counting its execs.
std::vector<std::string> written_profiles(const std::string& pattern, pid_t pid,
                                          const FileTimes& before);

// How a profile ends: complete (with the end record X), stopped (strata
// could not write the rest, and its Q record says why), or cut short (its
// process was killed, or strata could not write even a Q record).
struct ProfileEnd {
  enum class Kind { complete, stopped, cut_short } kind = Kind::cut_short;
  std::string reason;  // the Q record's, when stopped
};
ProfileEnd profile_end(const std::string& path);

// ---- running Valgrind (record_run.cpp) -------------------------------------

// The directory to give Valgrind as VALGRIND_LIB: $STRATA_VALGRIND_LIB, else
// vglib/ beside the strata executable (a build tree), else the installed
// tool's directory found from the executable (installed_tool_dir), else the
// configured one; throws Error when none holds the tool.
std::string find_tool_dir();

// Where the tool is for the strata executable `self`, installed in `bindir`
// with the tool in `pkglibexecdir` (both as configured): the same way from
// self's directory as from bindir to pkglibexecdir (bin/../libexec/strata by
// default), so that a tree installed with DESTDIR, or moved, finds its own tool.
std::filesystem::path installed_tool_dir(const std::filesystem::path& self,
                                         const std::filesystem::path& bindir,
                                         const std::filesystem::path& pkglibexecdir);

struct RunResult {
  pid_t pid = 0;
  int status = 0;  // the exit status, or 128 + the signal that ended it
};

// valgrind --tool=strata OPTIONS PROGRAM ARGS, with the valgrind found by configure.
std::vector<std::string> valgrind_command(const RecordRequest& request);

// Runs `argv` (no shell) with VALGRIND_LIB=lib_dir and waits for it.
RunResult run_valgrind(const std::string& lib_dir, const std::vector<std::string>& argv);

}  // namespace strata
