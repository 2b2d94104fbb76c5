// SPDX-License-Identifier: GPL-2.0-or-later
// strata report [OPTIONS] FILE: the header and the peak of a profile, its
// contexts ranked by spacetime, and its leak suspects (report.hpp), as text
// or as one JSON document; the text ends with what the profile cannot see
// (analyze/blind_spots.hpp).
#include <iostream>

#include "cmd/commands.hpp"
#include "util/error.hpp"
#include "analyze/gate.hpp"
#include "view/report.hpp"
#include "cmd/report_options.hpp"
#include "analyze/blind_spots.hpp"
#include "view/blind_spot_words.hpp"
#include "util/shown.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

// The synopsis: after "Usage: " in --help, after "usage: " in errors.
constexpr const char* kUsage = "strata report [OPTIONS] FILE";

// A report lists at most this many contexts unless --top says otherwise.
constexpr const char* kReportTop = "20";

po::options_description visible_options() {
  po::options_description options;
  add_context_options(options, kReportTop);
  options.add_options()  //
      ("tree",
       "print the calling-context tree, each node with its share of the spacetime and of the "
       "peak, the callers under the threshold folded")     //
      ("json", "print one JSON document instead of text")  //
      ("fail-on", po::value<std::string>()->value_name("KINDS"),
       "a CI gate: exit with status 3 when a leak suspect of one of KINDS is found (leak: a "
       "rising trough; growth: steady growth; leak,growth or any: both), naming each on "
       "stderr")                       //
      ("version", "show the version")  //
      ("help,h", "show this help");
  return options;
}

// What the profile cannot see (analyze/blind_spots.hpp), after the text report,
// one line each.
void print_blind_spots(const Model& model, std::ostream& out) {
  std::vector<std::string> lines = blind_spot_lines(blind_spots(model), std::nullopt);
  if (lines.empty()) return;
  const std::string title = "What this profile cannot see";
  out << "\n" << title << "\n" << std::string(title.size(), '-') << "\n\n";
  for (const std::string& line : lines) out << shown(line) << "\n";
}

}  // namespace

int cmd_report(const Args& args) {
  po::options_description visible = visible_options();
  po::variables_map values = parse_file_args(args, visible);
  if (values.count("help")) {
    std::cout << "Usage: " << kUsage
              << "\nReports on FILE, a strata profile or a massif.out file.\n\n";
    print_options(std::cout, visible);
    return 0;
  }
  if (values.count("version")) return print_version();
  if (!values.count("file")) throw Error(std::string("no profile given (usage: ") + kUsage + ")");
  ContextOptions options = read_context_options(values);
  std::optional<FailOn> fail_on;
  if (values.count("fail-on")) fail_on = parse_fail_on(values["fail-on"].as<std::string>());
  Model model = load_profile(values["file"].as<std::string>());
  Report report = make_report(model, for_profile(options, values, model), values.count("tree") > 0);
  if (values.count("json")) {
    render_report_json(report, std::cout);
  } else {
    render_report_text(report, std::cout);
    print_blind_spots(model, std::cout);
  }
  std::cout.flush();
  return fail_on ? run_gate(report, *fail_on, std::cerr) : 0;
}

}  // namespace strata
