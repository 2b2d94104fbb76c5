// SPDX-License-Identifier: GPL-2.0-or-later
// strata record [OPTIONS] [--] PROGRAM [ARGS]: runs PROGRAM under Valgrind's
// strata tool, then says where the profile is, whether it is complete, and
// how to read it.  The exit status is the program's (128 + the signal, if a
// signal ended it), or 1 if the program's is 0 but a profile is incomplete.
#include <filesystem>
#include <iostream>

#include "cmd/commands.hpp"
#include "record/record.hpp"
#include "util/shown.hpp"

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

// Says where the profiles are and which are incomplete; false if one is.
bool tell_profiles(const std::vector<std::string>& written, const std::string& expected) {
  if (written.empty()) {
    std::error_code error;
    if (std::filesystem::exists(expected, error) &&
        !std::filesystem::is_regular_file(expected, error)) {
      std::cerr << "strata record: the profile went to " << shown(expected)
                << ", which is not a regular file: it is not checked\n";
      return true;
    }
    std::cerr << "strata record: no profile was written (expected " << shown(expected) << ")\n";
    return false;
  }
  if (written.size() == 1) {
    std::cerr << "strata record: profile written to " << shown(written[0]) << "\n";
  } else {
    std::cerr << "strata record: " << written.size() << " profiles written:";
    for (const std::string& name : written) std::cerr << " " << shown(name);
    std::cerr << "\n";
  }
  bool complete = true;
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

}  // namespace

int cmd_record(const Args& args) {
  RecordRequest request = parse_record_args(args);
  if (request.help) {
    print_record_help(std::cout);
    return 0;
  }
  if (request.version) return print_version();
  std::string lib_dir = find_tool_dir();
  FileTimes before = profile_files(request.out_file, 0);
  RunResult run = run_valgrind(lib_dir, valgrind_command(request));
  bool complete = tell_profiles(written_profiles(request.out_file, run.pid, before),
                                expand_out_file(request.out_file, run.pid));
  return run.status == 0 && !complete ? 1 : run.status;
}

}  // namespace strata
