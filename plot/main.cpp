// SPDX-License-Identifier: GPL-2.0-or-later
// strata: the command of the strata heap profiler.  main only picks the
// subcommand, checks that its results reached standard output
// (util/output.hpp), and prints the one error that stops it, shown()
// (util/shown.hpp): an error may quote a file.
//
// The folders, each including only those after it (docs/design.md, "The
// folders"; tests/t-layers.sh checks it):
//   cmd -> render -> view -> analyze -> model -> util, read -> model,
//   record -> util; the subcommands (cmd/cmd_*.cpp) join the stages.
#include <iostream>
#include <string_view>

#include "cmd/commands.hpp"
#include "util/error.hpp"
#include "util/output.hpp"
#include "util/shown.hpp"

namespace {

struct Command {
  std::string_view name;
  int (*run)(const strata::Args&);
  std::string_view summary;
};

constexpr Command kCommands[] = {
    {"record", strata::cmd_record, "run a program under Valgrind and record its heap profile"},
    {"report", strata::cmd_report, "report on a strata profile or a massif.out file"},
    {"plot", strata::cmd_plot, "draw the heap over time by call site (SVG, PNG, PDF, HTML)"},
    {"convert", strata::cmd_convert, "write a profile as a massif.out file or collapsed stacks"},
    {"diff", strata::cmd_diff, "compare two profiles: contexts and leak suspects"},
};

void print_usage(std::ostream& out) {
  out << "Usage: strata COMMAND [OPTIONS] [ARGS]\n\nCommands:\n";
  for (const Command& command : kCommands) {
    out << "  " << command.name << std::string(10 - command.name.size(), ' ') << command.summary
        << "\n";
  }
  out << "\nOptions:\n"
         "  --version       show the version\n"
         "  -h [ --help ]   show this help\n"
         "\n'strata COMMAND --help' shows the options of a command.\n";
}

// Runs the command named by args[0]; `context` becomes "strata COMMAND".
int dispatch(const strata::Args& args, std::string& context) {
  if (args.empty()) throw strata::Error("no command given (try strata --help)");
  const std::string& name = args[0];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return 0;
  }
  if (name == "--version") return strata::print_version();
  for (const Command& command : kCommands) {
    if (command.name != name) continue;
    context = "strata " + name;
    return command.run(strata::Args(args.begin() + 1, args.end()));
  }
  throw strata::Error("unknown command '" + name + "' (try strata --help)");
}

}  // namespace

int main(int argc, char** argv) {
  std::string context = "strata";
  try {
    strata::StandardOutput out;  // every write to it checked (util/output.hpp)
    int status = dispatch(strata::Args(argv + 1, argv + argc), context);
    out.finish();
    return status;
  } catch (const strata::Error& error) {
    std::string where = error.file().empty() ? context : "strata";
    std::cerr << where << ": " << strata::shown(describe(error)) << "\n";
  } catch (const std::exception& error) {
    std::cerr << context << ": " << strata::shown(error.what()) << "\n";
  }
  return 1;
}
