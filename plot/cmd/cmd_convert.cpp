// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=FORMAT FILE -o OUT: a profile for other tools, as a
// massif.out file or as collapsed stacks (export.hpp).  Every option and
// the profile are checked, and the result made, before OUT is written; OUT
// is replaced whole (output.hpp), so a failure never empties it.
#include <iostream>

#include "analyze/heap_analysis.hpp"
#include "cmd/commands.hpp"
#include "render/export.hpp"
#include "util/error.hpp"
#include "util/output.hpp"
#include "util/text.hpp"

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
       "collapsed: what the leak suspects gained, from their first trough (or floor) to their "
       "last, instead of the heap at one time")  //
      ("threshold", po::value<std::string>()->value_name("PCT")->default_value("0"),
       "massif: put the entries under PCT percent of a snapshot's heap together, as massif "
       "does (0: every site apart)")   //
      ("version", "show the version")  //
      ("help,h", "show this help");
  return options;
}

double threshold_value(const po::variables_map& values) {
  std::string text = values["threshold"].as<std::string>();
  std::optional<double> percent = parse_decimal(text);
  if (!percent || *percent < 0 || *percent > 100) {
    throw Error("--threshold=" + text + ": must be a percentage, 0 to 100");
  }
  return *percent;
}

// What to write, every option checked before the profile is read (and
// long before OUT is touched).
struct Conversion {
  std::string format;               // massif or collapsed
  double threshold = 0;             // massif
  bool leaks = false;               // collapsed: the leaks' growth
  std::optional<std::uint64_t> at;  // collapsed: the heap at this time, else at the peak
};

Conversion conversion(const po::variables_map& values) {
  Conversion c;
  c.format = values["to"].as<std::string>();
  if (c.format != "massif" && c.format != "collapsed") {
    throw Error("--to=" + c.format + ": the formats are massif and collapsed");
  }
  c.threshold = threshold_value(values);
  c.leaks = values.count("leaks") > 0;
  if (values.count("at")) {
    std::string text = values["at"].as<std::string>();
    c.at = parse_number(text);
    if (!c.at) {
      throw Error("--at=" + text + ": must be a time, a whole number in the profile's unit");
    }
  }
  if (c.format == "massif" && (c.at || c.leaks)) {
    throw Error("--at and --leaks are for --to=collapsed: a massif.out file has every snapshot");
  }
  if (c.leaks && c.at) throw Error("--at and --leaks: give one");
  return c;
}

std::vector<CollapsedStack> collapsed_stacks(const Model& model, const Conversion& c) {
  if (c.leaks) return collapsed_growth(model, analyze_heap(model, ContextOptions{}));
  if (c.at) return collapsed_at(model, snapshot_at(model, *c.at));
  return collapsed_at(model, *peak_snapshot(model));
}

// The result, made before OUT is opened: everything that can fail on the
// profile fails here.
struct Converted {
  std::vector<MassifSnapshot> massif;
  std::vector<CollapsedStack> collapsed;
};

Converted convert(const Model& model, const Conversion& c) {
  if (model.snapshots.empty()) throw Error(model.file, 0, "no snapshot: no heap to convert");
  Converted result;
  if (c.format == "massif") {
    result.massif = massif_snapshots(model, c.threshold);
  } else {
    result.collapsed = collapsed_stacks(model, c);
  }
  return result;
}

void write(const Model& model, const Conversion& c, const Converted& result, std::ostream& out) {
  if (c.format == "massif") {
    write_massif(model, result.massif, c.threshold, out);
  } else {
    write_collapsed(model, result.collapsed, out);
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
  Converted result = convert(model, c);
  std::string output = values["output"].as<std::string>();
  if (output == "-") {
    write(model, c, result, std::cout);  // checked in main (util/output.hpp)
    return 0;
  }
  ReplacedFile out(output);  // OUT itself is untouched until commit()
  write(model, c, result, out.stream());
  out.commit();
  return 0;
}

}  // namespace strata
