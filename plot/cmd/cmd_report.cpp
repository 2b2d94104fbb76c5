// SPDX-License-Identifier: GPL-2.0-or-later
// strata report [OPTIONS] FILE: the header and the peak of a profile, its
// contexts ranked by spacetime, and its leak suspects (report.hpp), as text
// or as one JSON document; the text ends with what the profile cannot see
// (analyze/blind_spots.hpp).
#include <iostream>

#include "analyze/blind_spots.hpp"
#include "cmd/commands.hpp"
#include "cmd/report_options.hpp"
#include "render/export.hpp"
#include "render/render.hpp"
#include "util/error.hpp"
#include "util/shown.hpp"
#include "util/text.hpp"
#include "view/blind_spot_words.hpp"
#include "view/gate.hpp"
#include "view/report.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

constexpr Subcommand kReport = {"strata report [OPTIONS] FILE",
                                "Reports on FILE, a strata profile or a massif.out file.", 1,
                                "no profile given"};

// A report lists at most this many contexts unless --top says otherwise.
constexpr const char* kReportTop = "20";

po::options_description visible_options() {
  po::options_description options;
  add_context_options(options, kReportTop);
  add_time_options(options);
  options.add_options()  //
      ("tree",
       "print the calling-context tree, each node with its share of the spacetime and of the "
       "peak, the callers under the threshold folded")  //
      ("at", po::value<std::string>()->value_name("T"),
       "with --tree: the tree of the heap at time T instead (the last snapshot at or before T, "
       "a whole number in the profile's unit), each node with its bytes and its share of the "
       "heap then")                                        //
      ("json", "print one JSON document instead of text")  //
      ("sort", po::value<std::string>()->value_name("BY")->default_value("spacetime"),
       "rank the contexts by spacetime, peak (bytes at the peak), allocations (allocation "
       "calls), temporary (allocations freed by the next heap operation) or allocated (bytes "
       "allocated in total); other than spacetime, the contexts are whole stacks (or --depth) "
       "and --threshold and --top fold by their share of it")  //
      ("fail-on", po::value<std::string>()->value_name("KINDS"),
       "a CI gate: exit with status 3 when a leak finding of one of KINDS is found (leak: left "
       "behind by the program's cycles; growth: growth; leak,growth or any: both), naming "
       "each on stderr, one line a finding")  //
      ("version", "show the version")         //
      ("help,h", "show this help");
  return options;
}

ContextSort parse_sort(const std::string& by) {
  if (by == "spacetime") return ContextSort::spacetime;
  if (by == "peak") return ContextSort::peak;
  if (by == "allocations") return ContextSort::allocations;
  if (by == "temporary") return ContextSort::temporary;
  if (by == "allocated") return ContextSort::allocated;
  throw Error("--sort=" + by +
              ": the orders are spacetime, peak, allocations, temporary and "
              "allocated");
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

// --at=T, for --tree only; nullopt without it.
std::optional<std::uint64_t> tree_time(const po::variables_map& values) {
  if (!values.count("at")) return std::nullopt;
  std::string text = values["at"].as<std::string>();
  if (!values.count("tree")) throw Error("--at=" + text + ": is for --tree");
  std::optional<std::uint64_t> at = parse_number(text);
  if (!at) throw Error("--at=" + text + ": must be a time, a whole number in the profile's unit");
  return at;
}

// The tree at time `at` (a note on stderr when a massif.out file gives its
// sites at another snapshot, as for convert --at).
ReportTreeAt tree_at(const Model& model, const ContextOptions& options, std::uint64_t at,
                     const std::string& text) {
  std::size_t snapshot = snapshot_at(model, at);
  std::string note = sites_note(model, snapshot, "--at=" + text);
  if (!note.empty())
    std::cerr << "strata report: note: " << shown(model.file) << ": " << note << "\n";
  ContextTree tree(model, options.alloc_fns);
  return report_tree_at(model, tree, at, snapshot, options.threshold);
}

}  // namespace

int cmd_report(const Args& args) {
  po::options_description visible = visible_options();
  std::optional<po::variables_map> parsed = parse_subcommand(args, kReport, visible);
  if (!parsed) return 0;
  const po::variables_map& values = *parsed;
  std::string file = profile_paths(values, kReport)[0];
  ContextOptions options = read_context_options(values);
  options.sort = parse_sort(values["sort"].as<std::string>());
  std::optional<FailOn> fail_on;
  if (values.count("fail-on")) fail_on = parse_fail_on(values["fail-on"].as<std::string>());
  Model model = load_profile(file);
  bool by_counts = options.sort != ContextSort::spacetime && options.sort != ContextSort::peak;
  if (by_counts) require_counts(model, "--sort=" + values["sort"].as<std::string>());
  std::optional<Selection> selection = ask(model, read_time_question(values));
  // The selected bytes are those at the peak of the selection's model.
  if (selection && values["sort"].defaulted()) options.sort = ContextSort::peak;
  std::optional<std::uint64_t> at = tree_time(values);
  ContextOptions grouping = for_profile(options, values, model);
  Report report = make_report(model, grouping, values.count("tree") > 0 && !at, selection);
  if (at) report.tree_at = tree_at(model, grouping, *at, values["at"].as<std::string>());
  if (values.count("json")) {
    render_report_json(report, std::cout);
  } else {
    render_report_text(report, std::cout);
    print_blind_spots(model, std::cout);
  }
  std::cout.flush();
  if (!fail_on) return 0;
  std::vector<const ReportLeak*> failing = gate_suspects(report, *fail_on);
  render_gate(report, failing, std::cerr);
  return failing.empty() ? 0 : kGateStatus;
}

}  // namespace strata
