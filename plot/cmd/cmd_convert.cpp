// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=FORMAT FILE -o OUT: a profile for other tools, as a
// massif.out file or as collapsed stacks (export.hpp).  Every option and
// the profile are checked, and the result made, before OUT is written; OUT
// is replaced whole (output.hpp), so a failure never empties it.
#include <iostream>

#include "analyze/heap_analysis.hpp"
#include "cmd/commands.hpp"
#include "cmd/report_options.hpp"
#include "render/export.hpp"
#include "util/error.hpp"
#include "util/output.hpp"
#include "util/shown.hpp"
#include "util/text.hpp"
#include "util/units.hpp"
#include "view/lifetime_words.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

constexpr Subcommand kConvert = {"strata convert --to=FORMAT [OPTIONS] FILE -o OUT",
                                 "Writes FILE (a strata profile or a massif.out file) as FORMAT.",
                                 1, "no profile given"};

po::options_description visible_options() {
  po::options_description options;
  options.add_options()  //
      ("to", po::value<std::string>()->value_name("FORMAT"),
       "massif (a massif.out file, for ms_print and massif-visualizer) or collapsed (collapsed "
       "stacks, for flamegraph.pl, inferno and speedscope)")  //
      ("output,o", po::value<std::string>()->value_name("OUT"),
       "write to OUT (-: the standard output)")  //
      ("at", po::value<std::string>()->value_name("TIME"),
       "collapsed: the heap as it was at TIME, in the profile's time unit (the peak)")  //
      ("leaks",
       "collapsed: what the leak suspects hold: a finding's bytes kept from all through the run "
       "(with lifetimes), else what a suspect gained from its first trough (or floor) to its "
       "last; instead of the heap at one time")  //
      ("leaks-from", po::value<std::string>()->value_name("WHAT"),
       "collapsed --leaks: judge the leaks from the lifetimes (the default when the profile has "
       "them) or from the curves of the contexts' bytes")  //
      ("cost", po::value<std::string>()->value_name("KIND")->default_value("bytes"),
       "collapsed: what a stack weighs: bytes (held at the peak, or at --at), allocations "
       "(allocation calls), allocated (bytes allocated in total), temporary (allocations freed "
       "by the next heap operation) or leaked (bytes still held at the end); all but bytes and "
       "leaked need a profile with allocation counts")  //
      ("threshold", po::value<std::string>()->value_name("PCT")->default_value("1.0"),
       "massif: put the entries under PCT percent of a snapshot's heap together, as massif "
       "does (0: every site apart)")  //
      ("detailed-freq", po::value<std::string>()->value_name("N")->default_value("10"),
       "massif: give the sites (a detailed snapshot) at every Nth snapshot, as massif does, and "
       "at the peak and the last (1: at every snapshot)")  //
      ("version", "show the version")                      //
      ("help,h", "show this help");
  add_time_options(options);
  return options;
}

// An output this large gets a warning first (massif_size() estimates it).
constexpr std::uint64_t kLargeOutput = std::uint64_t{1} << 30;

MassifOptions massif_options(const po::variables_map& values) {
  MassifOptions options;
  std::string text = values["threshold"].as<std::string>();
  std::optional<double> percent = parse_decimal(text);
  if (!percent || *percent < 0 || *percent > 100) {
    throw Error("--threshold=" + text + ": must be a percentage, 0 to 100");
  }
  options.threshold = *percent;
  text = values["detailed-freq"].as<std::string>();
  std::optional<std::uint64_t> every = parse_number(text);
  if (!every || *every < 1 || *every > 1000000) {
    throw Error("--detailed-freq=" + text + ": must be a number of snapshots, 1 to 1000000");
  }
  options.detailed_freq = *every;
  return options;
}

// One line on stderr before writing more than kLargeOutput.
void warn_if_large(const Model& model, const MassifOptions& options, const std::string& output) {
  std::uint64_t size = massif_size(model, options);
  if (size <= kLargeOutput) return;
  std::cerr << "strata convert: warning: " << (output == "-" ? "the output" : shown(output))
            << " will be about " << format_bytes(static_cast<double>(size))
            << " (--threshold=" << short_number(options.threshold)
            << " --detailed-freq=" << options.detailed_freq
            << "); a larger --threshold or --detailed-freq makes it smaller\n";
}

// What a collapsed stack weighs (--cost).
enum class Cost : std::uint8_t { bytes, allocations, allocated, temporary, leaked };

Cost cost_of(const std::string& kind) {
  if (kind == "bytes") return Cost::bytes;
  if (kind == "allocations") return Cost::allocations;
  if (kind == "allocated") return Cost::allocated;
  if (kind == "temporary") return Cost::temporary;
  if (kind == "leaked") return Cost::leaked;
  throw Error("--cost=" + kind +
              ": the costs are bytes, allocations, allocated, temporary and leaked");
}

// What to write, every option checked before the profile is read (and
// long before OUT is touched).
struct Conversion {
  std::string format;               // massif or collapsed
  MassifOptions massif;             // massif
  bool leaks = false;               // collapsed: the leaks' growth
  bool leaks_from_curves = false;   // --leaks-from=curves
  std::optional<std::uint64_t> at;  // collapsed: the heap at this time, else at the peak
  std::string at_text;              // ... as given
  Cost cost = Cost::bytes;          // collapsed
  std::string cost_text;
  TimeQuestion question;  // --born, --alive-at: the selected bytes, as the bytes held
};

// The options of one format only are an error with the other.
void check_format_options(const po::variables_map& values, const Conversion& c) {
  if (c.format == "massif" && (c.at || c.leaks || !values["cost"].defaulted())) {
    throw Error(
        "--at, --leaks and --cost are for --to=collapsed: a massif.out file has every "
        "snapshot");
  }
  if (c.format != "collapsed") return;
  for (const char* name : {"threshold", "detailed-freq"}) {
    if (!values[name].defaulted()) {
      throw Error("--" + std::string(name) + "=" + values[name].as<std::string>() +
                  ": for --to=massif only (collapsed stacks list every stack)");
    }
  }
  if (c.leaks && c.at) throw Error("--at and --leaks: give one");
  if (c.question.asked() && (c.at || c.leaks || c.cost != Cost::bytes)) {
    throw Error(std::string(c.question.born ? "--born" : "--alive-at") +
                ": the selected bytes are the cost, not with --at, --leaks or another --cost");
  }
  bool at_a_time = c.cost == Cost::bytes;
  if ((c.at || c.leaks) && !at_a_time) {
    throw Error("--cost=" + c.cost_text + ": the whole run's, not with --at or --leaks");
  }
}

Conversion conversion(const po::variables_map& values) {
  Conversion c;
  c.format = values["to"].as<std::string>();
  if (c.format != "massif" && c.format != "collapsed") {
    throw Error("--to=" + c.format + ": the formats are massif and collapsed");
  }
  c.massif = massif_options(values);
  c.leaks = values.count("leaks") > 0;
  c.leaks_from_curves = leaks_from_curves(values);
  if (values.count("leaks-from") && !c.leaks) throw Error("--leaks-from is for --leaks");
  if (values.count("at")) {
    c.at_text = values["at"].as<std::string>();
    c.at = parse_number(c.at_text);
    if (!c.at) {
      throw Error("--at=" + c.at_text + ": must be a time, a whole number in the profile's unit");
    }
  }
  c.cost_text = values["cost"].as<std::string>();
  c.cost = cost_of(c.cost_text);
  c.question = read_time_question(values);
  check_format_options(values, c);
  return c;
}

// The heap at snapshot `snapshot`; a note on stderr when a massif.out file
// gives its sites at another snapshot (sites_note).
std::vector<CollapsedStack> stacks_at(const Model& model, std::size_t snapshot,
                                      const std::string& asked) {
  std::string note = sites_note(model, snapshot, asked);
  if (!note.empty())
    std::cerr << "strata convert: note: " << shown(model.file) << ": " << note << "\n";
  return collapsed_at(model, snapshot);
}

std::vector<CollapsedStack> collapsed_stacks(const Model& model, const Conversion& c) {
  switch (c.cost) {
    case Cost::allocations:
      return collapsed_counts(model, CountCost::allocations);
    case Cost::allocated:
      return collapsed_counts(model, CountCost::allocated);
    case Cost::temporary:
      return collapsed_counts(model, CountCost::temporary);
    case Cost::leaked:
      return stacks_at(model, model.snapshots.size() - 1, "the end");
    case Cost::bytes:
      break;
  }
  if (c.leaks) {
    return collapsed_growth(
        model, analyze_heap(model, ContextOptions{.leaks_from_curves = c.leaks_from_curves}));
  }
  if (c.at) return stacks_at(model, snapshot_at(model, *c.at), "--at=" + c.at_text);
  return stacks_at(model, *peak_snapshot(model), "the peak");
}

// The result, made before OUT is opened: everything that can fail on the
// profile fails here (a massif.out file is written as it is made, from
// checks that cannot fail).
void check_profile(const Model& model, const Conversion& c) {
  if (model.snapshots.empty()) throw Error(model.file, 0, "no snapshot: no heap to convert");
  bool counts =
      c.cost == Cost::allocations || c.cost == Cost::allocated || c.cost == Cost::temporary;
  if (counts) require_counts(model, "--cost=" + c.cost_text);
}

void write(const Model& model, const Conversion& c, const std::vector<CollapsedStack>& stacks,
           std::ostream& out) {
  if (c.format == "massif") {
    write_massif(model, c.massif, out);
    return;
  }
  if (std::size_t saturated = write_collapsed(model, stacks, out)) {
    std::cerr << "strata convert: note: " << shown(model.file) << ": " << saturated << " stack"
              << (saturated == 1 ? " weighs" : "s weigh") << " 2^64-1 (" << kCountsMax
              << ") or more (--cost=" << c.cost_text << "): the sum of its sites' counts\n";
  }
}

}  // namespace

int cmd_convert(const Args& args) {
  po::options_description visible = visible_options();
  std::optional<po::variables_map> parsed = parse_subcommand(args, kConvert, visible);
  if (!parsed) return 0;
  const po::variables_map& values = *parsed;
  if (!values.count("to")) throw usage_error("no format given", kConvert);
  std::string file = profile_paths(values, kConvert)[0];
  if (!values.count("output")) throw usage_error("no output given", kConvert);
  Conversion c = conversion(values);
  Model model = load_profile(file);
  if (std::optional<Selection> selection = ask(model, c.question)) {
    std::cerr << "strata convert: note: " << shown(file) << ": "
              << shown(selection_words(model, *selection)) << "\n";
  }
  check_profile(model, c);
  std::string output = values["output"].as<std::string>();
  std::vector<CollapsedStack> stacks;
  if (c.format == "massif") {
    warn_if_large(model, c.massif, output);
  } else {
    stacks = collapsed_stacks(model, c);
  }
  if (output == "-") {
    write(model, c, stacks, std::cout);  // checked in main (util/output.hpp)
    return 0;
  }
  ReplacedFile out(output);  // OUT itself is untouched until commit()
  write(model, c, stacks, out.stream());
  out.commit();
  return 0;
}

}  // namespace strata
