// SPDX-License-Identifier: GPL-2.0-or-later
// strata record [OPTIONS] [--] PROGRAM [ARGS]: runs PROGRAM under Valgrind's
// strata tool (or natively with --native, its frames named at the end), then says where the profiles are (the tools' ledger lists
// them), whether they are complete, how to read them, and what they cannot
// see.  The exit status is the program's (128 + the signal, if a
// signal ended it), or 1 if the program's is 0 but a profile is incomplete
// or could not be created.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include "analyze/blind_spots.hpp"
#include "cmd/commands.hpp"
#include "read/read.hpp"
#include "record/record.hpp"
#include "util/error.hpp"
#include "util/shown.hpp"
#include "view/blind_spot_words.hpp"

namespace strata {

namespace {

// `name` as a shell word.
std::string shell_word(const std::string& name) {
  static const std::string plain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+.,/:=@%";
  if (!name.empty() && name.find_first_not_of(plain) == std::string::npos) return name;
  std::string quoted = "'";
  for (char c : name) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Why a profile is incomplete, or "" if it is not.  (The Q record's reason
// is shown with anything but printable ASCII as '?': a program could have
// written to the file.)
std::string incomplete(const std::string& profile) {
  ProfileEnd end = profile_end(profile);
  if (end.kind == ProfileEnd::Kind::complete) return "";
  if (end.kind == ProfileEnd::Kind::cut_short) {
    return "it ends early: its process was killed, or strata could not write it (see strata's "
           "message above)";
  }
  for (char& c : end.reason) c = c >= ' ' && c <= '~' ? c : '?';
  return "strata stopped writing it: " + end.reason;
}

// `path` (absolute, from the ledger) as the user named it: relative to the
// working directory when the pattern was relative and it is below it.
std::string as_named(const std::string& path, const std::string& pattern) {
  namespace fs = std::filesystem;
  if (fs::path(pattern).is_absolute()) return path;
  std::error_code error;
  std::string here = fs::current_path(error).string() + "/";
  return !error && path.starts_with(here) ? path.substr(here.size()) : path;
}

// Says where the profiles are, which are incomplete and which could not be
// created; false if one is incomplete or was not created.
bool tell_profiles(const LedgerNotes& notes, const std::string& pattern,
                   const std::string& expected) {
  std::vector<std::string> written;
  bool complete = true;
  for (const LedgerNotes::Profile& profile : notes.profiles) {
    std::string name = as_named(profile.path, pattern);
    std::error_code error;
    if (std::filesystem::is_regular_file(profile.path, error)) {
      written.push_back(name);
    } else {
      std::cerr << "strata record: the profile went to " << shown(name)
                << ", which is not a regular file: it is not checked\n";
    }
  }
  for (const LedgerNotes::NotCreated& lost : notes.not_created) {
    std::cerr << "strata record: the profile of process " << lost.pid
              << " could not be created: " << shown(as_named(lost.path, pattern)) << ": "
              << shown(lost.reason) << "\n";
    complete = false;
  }
  if (written.empty()) {
    if (notes.profiles.empty() && notes.not_created.empty()) {
      std::cerr << "strata record: no profile was written (expected " << shown(expected) << ")\n";
      return false;
    }
    return complete;
  }
  if (written.size() == 1) {
    std::cerr << "strata record: profile written to " << shown(written[0]) << "\n";
  } else {
    std::cerr << "strata record: " << written.size() << " profiles written:";
    for (const std::string& name : written) std::cerr << " " << shown(name);
    std::cerr << "\n";
  }
  for (const std::string& name : written) {
    std::string why = incomplete(name);
    if (why.empty()) continue;
    std::cerr << "strata record: " << shown(name) << " is incomplete: " << shown(why) << "\n";
    complete = false;
  }
  std::cerr << "strata record: read " << (written.size() == 1 ? "it" : "one")
            << " with: strata report " << shown(shell_word(written[0])) << "\n";
  return complete;
}

// The programs started by exec that were not profiled, in one line for the
// program the first process became, one for those its children started.
void tell_execs(const LedgerNotes& notes, pid_t first) {
  std::vector<std::string> others;
  for (const LedgerNotes::Exec& exec : notes.unprofiled_execs) {
    if (exec.pid == first) {
      std::cerr << "strata record: the program handed over to " << shown(exec.program)
                << " by exec, which was not profiled: record with --trace-children=yes to "
                   "profile it\n";
    } else {
      others.push_back(exec.program);
    }
  }
  if (others.empty()) return;
  std::cerr << "strata record: " << others.size() << (others.size() == 1 ? " program" : " programs")
            << " started by exec (" << shown(others[0]) << (others.size() > 1 ? ", ..." : "")
            << ") not profiled: record with --trace-children=yes to profile "
            << (others.size() == 1 ? "it" : "them") << "\n";
}

// The facts of a native profile's blind spots, as naming it found them.
BlindSpotFacts facts_of(const NativeNaming& naming) {
  BlindSpotFacts facts;
  facts.complete = naming.complete;
  facts.sites = naming.sites;
  facts.heap = naming.heap;
  facts.heap_option = naming.heap_option;
  facts.pages_as_heap = naming.pages_as_heap;
  facts.objects = naming.objects;
  return facts;
}

// What the profiles cannot see, from the profiles themselves (those that
// are regular files: a native profile's from what naming it found, in
// `named`; another's read as far as it goes, nothing when they hold more
// than 256 MiB, which would take long to read) and the environment.
void tell_blind_spots(const LedgerNotes& notes,
                      const std::map<std::string, NativeNaming>& named) {
  constexpr std::uintmax_t kMostRead = std::uintmax_t{256} << 20;
  std::uintmax_t read = 0;
  std::optional<BlindSpots> spots;
  for (const LedgerNotes::Profile& profile : notes.profiles) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(profile.path, error)) continue;
    std::optional<BlindSpots> more;
    if (auto at = named.find(profile.path); at != named.end()) {
      more = blind_spots(facts_of(at->second));
    } else {
      read += std::filesystem::file_size(profile.path, error);
      if (error || read > kMostRead) return;
      try {
        more = blind_spots(read_outline(profile.path));
      } catch (const std::exception&) {
        // a profile strata cannot read is told about above, or by strata report
      }
    }
    if (!more) continue;
    if (spots) {
      merge(*spots, *more);
    } else {
      spots = more;
    }
  }
  if (!spots) return;
  if (!notes.not_created.empty()) spots->no_heap = false;  // a process without a profile may have
  const char* python_malloc = std::getenv("PYTHONMALLOC");
  bool pymalloc = !python_malloc || !std::string_view(python_malloc).starts_with("malloc");
  for (const std::string& line : blind_spot_lines(*spots, pymalloc)) {
    std::cerr << "strata record: " << shown(line) << "\n";
  }
}

// The native profiles' frames, named from their objects (the profiles the
// ledger lists that are regular files): the rest of what `namer` named
// while the program ran.  What naming each found, by its path.
std::map<std::string, NativeNaming> name_native_profiles(const LedgerNotes& notes,
                                                         NativeNamer& namer) {
  std::map<std::string, NativeNaming> named;
  for (const LedgerNotes::Profile& profile : notes.profiles) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(profile.path, error)) continue;
    try {
      NativeNaming naming = namer.finish(profile.path);
      if (naming.native) named[profile.path] = std::move(naming);
    } catch (const Error& problem) {
      std::cerr << "strata record: the frames of " << shown(profile.path)
                << " were not named: " << shown(problem.what()) << "\n";
    }
  }
  return named;
}

}  // namespace

int cmd_record(const Args& args) {
  RecordRequest request = parse_record_args(args);
  if (request.help) {
    print_record_help(std::cout);
    return 0;
  }
  if (request.version) return print_version();
  std::string lib_dir = find_tool_dir();
  Ledger ledger;
  Symbolizer symbolizer;
  NativeNamer namer(symbolizer, ledger);
  RunResult run = request.native
                      ? run_native(find_native_library(lib_dir), request, ledger.fd(),
                                   [&namer] { namer.start(); })
                      : run_valgrind(lib_dir, valgrind_command(request, ledger.fd()));
  namer.stop();
  LedgerNotes notes = ledger.read();
  std::map<std::string, NativeNaming> named;
  if (request.native) named = name_native_profiles(notes, namer);
  bool complete =
      tell_profiles(notes, request.out_file, expand_out_file(request.out_file, run.pid));
  tell_execs(notes, run.pid);
  tell_blind_spots(notes, named);
  return run.status == 0 && !complete ? 1 : run.status;
}

}  // namespace strata
