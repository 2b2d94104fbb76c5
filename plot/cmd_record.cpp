// SPDX-License-Identifier: GPL-2.0-or-later
// strata record [OPTIONS] [--] PROGRAM [ARGS]: runs PROGRAM under Valgrind's
// strata tool, then says where the profile is and how to read it.  The exit
// status is the program's (128 + the signal, if a signal ended it).
#include <iostream>

#include "commands.hpp"
#include "record.hpp"
#include "shown.hpp"

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

void tell_profiles(const std::vector<std::string>& written, const std::string& expected) {
  if (written.empty()) {
    std::cerr << "strata record: no profile was written (expected " << shown(expected) << ")\n";
    return;
  }
  if (written.size() == 1) {
    std::cerr << "strata record: profile written to " << shown(written[0]) << "\n"
              << "strata record: read it with: strata report " << shown(shell_word(written[0]))
              << "\n";
    return;
  }
  std::cerr << "strata record: " << written.size() << " profiles written:";
  for (const std::string& name : written) std::cerr << " " << shown(name);
  std::cerr << "\nstrata record: read one with: strata report " << shown(shell_word(written[0]))
            << "\n";
}

}  // namespace

int cmd_record(const Args& args) {
  RecordRequest request = parse_record_args(args);
  if (request.help) {
    print_record_help(std::cout);
    return 0;
  }
  std::string lib_dir = find_tool_dir();
  FileTimes before = profile_files(request.out_file, 0);
  RunResult run = run_valgrind(lib_dir, valgrind_command(request));
  tell_profiles(written_profiles(request.out_file, run.pid, before),
                expand_out_file(request.out_file, run.pid));
  return run.status;
}

}  // namespace strata
