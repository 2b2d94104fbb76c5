// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=FORMAT FILE -o OUT: a profile for other tools, as a
// massif.out file or as collapsed stacks (export.hpp).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cmd/commands.hpp"
#include "render/export.hpp"
#include "util/error.hpp"
#include "util/shown.hpp"
#include "util/text.hpp"
#include "util/units.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

// The synopsis: after "Usage: " in --help, after "usage: " in errors.
constexpr const char* kUsage = "strata convert --to=FORMAT [OPTIONS] FILE -o OUT";

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
      ("threshold", po::value<std::string>()->value_name("PCT")->default_value("1.0"),
       "massif: put the entries under PCT percent of a snapshot's heap together, as massif "
       "does (0: every site apart)")  //
      ("detailed-freq", po::value<std::string>()->value_name("N")->default_value("10"),
       "massif: give the sites (a detailed snapshot) at every Nth snapshot, as massif does, and "
       "at the peak and the last (1: at every snapshot)")  //
      ("version", "show the version")                      //
      ("help,h", "show this help");
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

// The options of one format only are an error with the other, before the
// profile is read.
void check_format_options(const po::variables_map& values, const std::string& format) {
  if (format == "massif" && (values.count("at") || values.count("leaks"))) {
    throw Error("--at and --leaks are for --to=collapsed: a massif.out file has every snapshot");
  }
  if (format != "collapsed") return;
  for (const char* name : {"threshold", "detailed-freq"}) {
    if (!values[name].defaulted()) {
      throw Error("--" + std::string(name) + "=" + values[name].as<std::string>() +
                  ": for --to=massif only (collapsed stacks list every stack)");
    }
  }
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

std::vector<CollapsedStack> collapsed_stacks(const Model& model, const po::variables_map& values) {
  if (values.count("leaks") && values.count("at")) throw Error("--at and --leaks: give one");
  if (values.count("leaks")) return collapsed_growth(model, analyze_heap(model, ContextOptions{}));
  if (!values.count("at")) {
    std::optional<std::size_t> peak = peak_snapshot(model);
    if (!peak) throw Error(model.file, 0, "no snapshot: no heap to convert");
    return stacks_at(model, *peak, "the peak");
  }
  std::string text = values["at"].as<std::string>();
  std::optional<std::uint64_t> time = parse_number(text);
  if (!time) throw Error("--at=" + text + ": must be a time, a whole number in the profile's unit");
  return stacks_at(model, snapshot_at(model, *time), "--at=" + text);
}

void convert(const Model& model, const po::variables_map& values, const std::string& format,
             std::ostream& out) {
  if (format == "massif") {
    write_massif(model, massif_options(values), out);
  } else {
    write_collapsed(model, collapsed_stacks(model, values), out);
  }
}

}  // namespace

int cmd_convert(const Args& args) {
  po::options_description visible = visible_options();
  po::variables_map values = parse_file_args(args, visible);
  if (values.count("help")) {
    std::cout << "Usage: " << kUsage
              << "\nWrites FILE (a strata profile or a massif.out file) as FORMAT.\n\n";
    print_options(std::cout, visible);
    return 0;
  }
  if (values.count("version")) return print_version();
  if (!values.count("to")) throw Error(std::string("no format given (usage: ") + kUsage + ")");
  std::string format = values["to"].as<std::string>();
  if (format != "massif" && format != "collapsed") {
    throw Error("--to=" + format + ": the formats are massif and collapsed");
  }
  if (!values.count("file")) throw Error(std::string("no profile given (usage: ") + kUsage + ")");
  if (!values.count("output")) throw Error(std::string("no output given (usage: ") + kUsage + ")");
  check_format_options(values, format);
  if (format == "massif") massif_options(values);  // its errors before the profile is read
  Model model = load_profile(values["file"].as<std::string>());
  std::string output = values["output"].as<std::string>();
  if (format == "massif") warn_if_large(model, massif_options(values), output);
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
