// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=FORMAT FILE -o OUT: a profile for other tools, as a
// massif.out file or as collapsed stacks (export.hpp).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "analyze/heap_analysis.hpp"
#include "cmd/commands.hpp"
#include "render/export.hpp"
#include "util/error.hpp"
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

std::vector<CollapsedStack> collapsed_stacks(const Model& model, const po::variables_map& values) {
  if (values.count("leaks") && values.count("at")) throw Error("--at and --leaks: give one");
  if (values.count("leaks")) return collapsed_growth(model, analyze_heap(model, ContextOptions{}));
  if (!values.count("at")) {
    std::optional<std::size_t> peak = peak_snapshot(model);
    if (!peak) throw Error(model.file, 0, "no snapshot: no heap to convert");
    return collapsed_at(model, *peak);
  }
  std::string text = values["at"].as<std::string>();
  std::optional<std::uint64_t> time = parse_number(text);
  if (!time) throw Error("--at=" + text + ": must be a time, a whole number in the profile's unit");
  return collapsed_at(model, snapshot_at(model, *time));
}

void convert(const Model& model, const po::variables_map& values, const std::string& format,
             std::ostream& out) {
  if (format == "massif") {
    if (values.count("at") || values.count("leaks")) {
      throw Error("--at and --leaks are for --to=collapsed: a massif.out file has every snapshot");
    }
    double threshold = threshold_value(values);
    write_massif(model, massif_snapshots(model, threshold), threshold, out);
  } else {
    write_collapsed(model, collapsed_stacks(model, values), out);
  }
}

}  // namespace

int cmd_convert(const Args& args) {
  po::options_description visible = visible_options();
  std::optional<po::variables_map> parsed = parse_subcommand(args, kConvert, visible);
  if (!parsed) return 0;
  const po::variables_map& values = *parsed;
  if (!values.count("to")) throw usage_error("no format given", kConvert);
  std::string format = values["to"].as<std::string>();
  if (format != "massif" && format != "collapsed") {
    throw Error("--to=" + format + ": the formats are massif and collapsed");
  }
  std::string file = profile_paths(values, kConvert)[0];
  if (!values.count("output")) throw usage_error("no output given", kConvert);
  Model model = load_profile(file);
  std::string output = values["output"].as<std::string>();
  if (output == "-") {
    convert(model, values, format, std::cout);
    return 0;
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(output, 0, std::string("cannot write: ") + std::strerror(errno));
  convert(model, values, format, out);
  out.close();
  if (!out) throw Error(output, 0, std::string("cannot write: ") + std::strerror(errno));
  return 0;
}

}  // namespace strata
