// SPDX-License-Identifier: GPL-2.0-or-later
// The parts of `strata record`: its command line, Valgrind's core options it
// passes on, the --out-file pattern, and running Valgrind.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "util/object_tally.hpp"
#include "util/symbolize.hpp"

namespace strata {

// ---- the command line (record_options.cpp) ---------------------------------

struct RecordRequest {
  bool help = false;
  bool version = false;                    // --version
  bool native = false;                     // --native: the preloaded library, not Valgrind
  std::vector<std::string> valgrind_args;  // the options for valgrind, after --tool=strata
  std::vector<std::string> native_args;    // with --native: the library's options (--name=value)
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

// ---- the ledger (ledger.cpp) ------------------------------------------------

// What the strata tools of one run told strata record (st_write.c, "The
// ledger"): the profiles they created, in order (the first process's
// first), those they could not create and why, and the programs an exec
// started unprofiled (without --trace-children=yes), by the process that
// exec'd.
struct LedgerNotes {
  struct Profile {
    long pid = 0;
    std::string path;  // absolute
  };
  struct NotCreated {
    long pid = 0;
    std::string path;
    std::string reason;
  };
  struct Exec {
    long pid = 0;
    std::string program;
  };
  std::vector<Profile> profiles;
  std::vector<NotCreated> not_created;
  std::vector<Exec> unprofiled_execs;
};

// Reads the notes, NUL-ended fields; stops at the first it cannot read.
LedgerNotes parse_ledger(std::string_view text);

// A ledger for one run: a memfd, appended to, inherited by Valgrind, whose
// number the tool gets as --record-fd.
class Ledger {
 public:
  Ledger();
  ~Ledger();
  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;

  int fd() const { return fd_; }
  LedgerNotes read() const;

 private:
  int fd_ = -1;
};

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

// valgrind --tool=strata OPTIONS PROGRAM ARGS, with the valgrind found by
// configure; with --record-fd=N first when `record_fd` is not -1.
std::vector<std::string> valgrind_command(const RecordRequest& request, int record_fd = -1);

// Runs `argv` (no shell) with VALGRIND_LIB=lib_dir and waits for it.
RunResult run_valgrind(const std::string& lib_dir, const std::vector<std::string>& argv);

// ---- the native recorder (record_run.cpp, native_names.cpp) -----------------

// The native recorder's library in the tool's directory `tool_dir`
// (find_tool_dir); throws Error when it is not there.
std::string find_native_library(const std::string& tool_dir);

// Runs PROGRAM (searched in PATH, no shell) with `library` preloaded and
// the request's native options (and the ledger's descriptor, when
// `record_fd` is not -1), and waits for it.
// `started`, when given, is called once the program runs.
RunResult run_native(const std::string& library, const RecordRequest& request, int record_fd,
                     const std::function<void()>& started = {});

// What naming a native profile's frames did.
struct NativeNaming {
  std::size_t frames = 0;  // F records of the recorder's, with an object and an offset
  std::size_t named = 0;   // of them, given a function from their object's DWARF
  std::size_t added = 0;   // inlined frames added
  bool native = false;          // its header says so: it was named
  // What the named profile says that strata record's notes on what it
  // cannot see are judged on (analyze/blind_spots.hpp, BlindSpotFacts),
  // gathered from the lines as they were named, so that the end of the run
  // does not read the profile again.
  bool complete = false;        // an X record
  bool sites = false;           // an S record
  bool heap = false;            // a T record with heap above 0
  std::string heap_option;      // its opt heap, empty without one
  std::string pages_as_heap;    // its opt pages_as_heap
  ObjectTally objects;          // the F records written, by object
};

// Names the frames of the profile at `path`, recorded natively (its
// header says `opt native yes`; nothing is done otherwise): each F record
// without a function but with an object and an offset becomes the frames
// the object's DWARF gives there (util/symbolize.hpp: the inlined
// functions, then the function that holds them), and every S and P record
// names the new frames.  Each object is read once.  The file is written
// beside and renamed over the profile; a profile cut short stays cut at
// the same record.  Throws Error when it cannot be read or written.
NativeNaming name_native_frames(const std::string& path, Symbolizer& symbolizer);

class ProfileNaming;

// Names a native recording's profiles as they are written, on a thread of
// its own: every 50 ms it reads the ledger for the profiles opened (regular
// files only) and names the complete lines written to each since, into
// PATH.naming (as name_native_frames does, reading each object once); so
// when the run ends finish() names only what is left, and on a second core
// the end waits less.  What was named is checked then to be what the file
// still holds (the recorder cuts a profile back when an exec fails, or a
// write fails half done), else the profile is named again from its start.
// The symbolizer is the thread's from start() to stop() (or finish(), or
// the destructor), which waits for the lines being named.
class NativeNamer {
 public:
  NativeNamer(Symbolizer& symbolizer, const Ledger& ledger);
  ~NativeNamer();
  NativeNamer(const NativeNamer&) = delete;
  NativeNamer& operator=(const NativeNamer&) = delete;

  void start();
  void stop();

  // Stops the thread, names the rest of the profile at `path` and renames
  // the named file over it, as name_native_frames does.
  NativeNaming finish(const std::string& path);

 private:
  void run();
  bool stopping();
  ProfileNaming& naming(const std::string& path);

  Symbolizer& symbolizer_;
  const Ledger& ledger_;
  std::map<std::string, std::unique_ptr<ProfileNaming>> profiles_;  // path -> its naming
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
};

}  // namespace strata
