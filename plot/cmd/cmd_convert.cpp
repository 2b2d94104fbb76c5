// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=FORMAT FILE -o OUT: a profile for other tools, as a
// massif.out file, as collapsed stacks or as pprof profiles (export.hpp).  Every option and
// the profile are checked, and the result made, before OUT is written; OUT
// is replaced whole (output.hpp), so a failure never empties it.
#include <sys/stat.h>

#include <cstdio>
#include <iostream>

#include "analyze/heap_analysis.hpp"
#include "analyze/lifetimes.hpp"
#include "analyze/moments.hpp"
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
       "massif (a massif.out file, for ms_print and massif-visualizer), collapsed (collapsed "
       "stacks, for flamegraph.pl, inferno and speedscope) or pprof (a gzip-compressed pprof "
       "profile, for go tool pprof, Pyroscope, Parca and Perfetto)")  //
      ("output,o", po::value<std::string>()->value_name("OUT"),
       "write to OUT (-: the standard output)")  //
      ("at", po::value<std::string>()->value_name("TIME"),
       "collapsed, pprof: the heap as it was at TIME, in the profile's time unit, or for pprof a "
       "percentage of the run (35%) or a marker (marker:LABEL, marker:LABEL#3 for its third "
       "occurrence) (the peak)")  //
      ("every", po::value<std::string>()->value_name("WHAT"),
       "pprof: a series of profiles, OUT.0001.pb.gz, OUT.0002.pb.gz, ...: one at each marker "
       "(marker) or at every Nth snapshot (N), each the heap then, for a continuous-profiling "
       "backend")  //
      ("leaks",
       "collapsed: what the leak findings keep: each site's bytes born before the horizon and "
       "alive at it (from the curves, what it holds at the horizon); instead of the heap at one "
       "time")  //
      ("leaks-from", po::value<std::string>()->value_name("WHAT"),
       "collapsed --leaks: judge the leaks from the lifetimes (the default when the profile has "
       "them) or from the curves of the sites' bytes alone, with the same judgement")  //
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
  std::string at_text;              // ... as given (pprof: resolve_time() reads it)
  bool at_given = false;
  std::optional<std::string> every;  // pprof: a series, at each marker or every N snapshots
  std::uint64_t every_n = 0;          // ... N; 0: at each marker
  Cost cost = Cost::bytes;          // collapsed
  std::string cost_text;
  TimeQuestion question;  // --born, --alive-at: the selected bytes, as the bytes held
};

// The options of one format only are an error with the other.
// The massif.out options are an error with another format.
void check_massif_only(const po::variables_map& values, const char* why) {
  for (const char* name : {"threshold", "detailed-freq"}) {
    if (!values[name].defaulted()) {
      throw Error("--" + std::string(name) + "=" + values[name].as<std::string>() +
                  ": for --to=massif only (" + why + ")");
    }
  }
}

void check_pprof_options(const po::variables_map& values, const Conversion& c) {
  check_massif_only(values, "a pprof profile lists every site");
  if (c.leaks || !values["cost"].defaulted()) {
    throw Error(
        "--leaks and --cost are for --to=collapsed: a pprof profile holds each cost as a sample "
        "type (inuse_space, alloc_space, leaked_space, ...)");
  }
  if (c.every && c.at_given) throw Error("--at and --every: give one");
  if (c.question.asked() && (c.every || c.at_given)) {
    throw Error(std::string(c.question.born ? "--born" : "--alive-at") +
                ": the selected bytes at their peak are the heap, not with --at or --every");
  }
}

void check_format_options(const po::variables_map& values, const Conversion& c) {
  if (c.every && c.format != "pprof") throw Error("--every=" + *c.every + ": for --to=pprof only");
  if (c.format == "massif" && (c.at_given || c.leaks || !values["cost"].defaulted())) {
    throw Error(
        "--at, --leaks and --cost are for --to=collapsed: a massif.out file has every "
        "snapshot");
  }
  if (c.format == "pprof") check_pprof_options(values, c);
  if (c.format != "collapsed") return;
  check_massif_only(values, "collapsed stacks list every stack");
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
  if (c.format != "massif" && c.format != "collapsed" && c.format != "pprof") {
    throw Error("--to=" + c.format + ": the formats are massif, collapsed and pprof");
  }
  c.massif = massif_options(values);
  c.leaks = values.count("leaks") > 0;
  c.leaks_from_curves = leaks_from_curves(values);
  if (values.count("leaks-from") && !c.leaks) throw Error("--leaks-from is for --leaks");
  if (values.count("every")) {
    c.every = values["every"].as<std::string>();
    std::optional<std::uint64_t> n = parse_number(*c.every);
    if (*c.every != "marker" && (!n || *n < 1)) {
      throw Error("--every=" + *c.every + ": must be marker or a number of snapshots, 1 or more");
    }
    c.every_n = n.value_or(0);
  }
  c.at_given = values.count("at") > 0;
  if (c.at_given) c.at_text = values["at"].as<std::string>();
  if (c.at_given && c.format != "pprof") {
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
void stacks_note(const Model& model, std::size_t snapshot, const std::string& asked) {
  std::string note = sites_note(model, snapshot, asked);
  if (!note.empty())
    std::cerr << "strata convert: note: " << shown(model.file) << ": " << note << "\n";
}

std::vector<CollapsedStack> stacks_at(const Model& model, std::size_t snapshot,
                                      const std::string& asked) {
  stacks_note(model, snapshot, asked);
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

// ---- pprof ----------------------------------------------------------------------

// The one profile: the heap at the peak or at --at, over the whole run.
PprofMoment single_moment(const Model& model, const Conversion& c) {
  PprofMoment m;
  m.to = model.end_time;
  if (c.at_given) {
    m.asked = "--at=" + c.at_text;
    m.time = resolve_time(model, c.at_text, m.asked);
    m.snapshot = snapshot_at(model, m.time);
    return m;
  }
  m.asked = "the peak";
  m.snapshot = *peak_snapshot(model);
  m.time = model.snapshots[m.snapshot].time;
  return m;
}

// --every=marker: the heap at each marker after the first snapshot, from
// it to the next marker; a note on stderr for the markers before it.
std::vector<PprofMoment> marker_moments(const Model& model) {
  std::vector<PprofMoment> moments;
  std::uint64_t first = model.snapshots.front().time;
  std::size_t early = 0;
  for (std::size_t i = 0; i < model.markers.size(); ++i) {
    const Marker& m = model.markers[i];
    if (m.time < first) {
      ++early;
      continue;
    }
    std::uint64_t to = i + 1 < model.markers.size() ? model.markers[i + 1].time : model.end_time;
    moments.push_back({snapshot_at(model, m.time), m.time, "the marker " + m.label, m.time,
                       std::max(to, m.time)});
  }
  if (moments.empty()) {
    throw Error(model.file, 0,
                model.markers.empty() ? "--every=marker: the profile has no marker"
                                      : "--every=marker: every marker is before the first snapshot");
  }
  if (early > 0) {
    std::cerr << "strata convert: note: " << shown(model.file) << ": " << early << " marker"
              << (early == 1 ? " is" : "s are") << " before the first snapshot: no file for "
              << (early == 1 ? "it" : "them") << "\n";
  }
  return moments;
}

// --every=N: the heap at snapshots 0, N, 2N, ..., each to the next.
std::vector<PprofMoment> snapshot_moments(const Model& model, std::uint64_t every) {
  std::vector<PprofMoment> moments;
  for (std::size_t i = 0; i < model.snapshots.size(); i += every) {
    std::uint64_t time = model.snapshots[i].time;
    std::uint64_t to =
        i + every < model.snapshots.size() ? model.snapshots[i + every].time : model.end_time;
    moments.push_back({i, time, "snapshot " + std::to_string(i) + " (--every=" +
                                    std::to_string(every) + ")",
                       time, std::max(to, time)});
  }
  return moments;
}

std::vector<PprofMoment> pprof_moments(const Model& model, const Conversion& c) {
  if (!c.every) return {single_moment(model, c)};
  if (c.every_n == 0) return marker_moments(model);
  return snapshot_moments(model, c.every_n);
}

// The wall-clock time of the run's end: when the profile was last written
// (its modification time), in ns since 1970.
std::optional<std::int64_t> end_nanos(const std::string& file) {
  struct stat st {};
  if (stat(file.c_str(), &st) != 0) return std::nullopt;
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

// OUT.0001.pb.gz for the first file of OUT.pb.gz (OUT.0001 for OUT).
std::string series_name(const std::string& output, std::size_t number) {
  char digits[24];
  std::snprintf(digits, sizeof digits, ".%04zu", number);
  const std::string suffix = ".pb.gz";
  if (output.size() > suffix.size() && output.ends_with(suffix))
    return output.substr(0, output.size() - suffix.size()) + digits + suffix;
  return output + digits;
}

void write_pprof_files(const Model& model, const Conversion& c, const std::string& output,
                       const std::string& note) {
  std::vector<PprofMoment> moments = pprof_moments(model, c);
  if (c.every && output == "-") throw Error("--every: writes files OUT.0001.pb.gz, ...: give -o OUT");
  PprofContent content;
  content.counts = model.has_counts;
  content.note = note;
  PprofLeaks leaks;
  if (model.has_lifetimes && !c.question.asked() && !c.every) {
    leaks = pprof_leaks(model, analyze_heap(model, ContextOptions{}));
    content.leaks = &leaks;
  }
  if (model.header.time_unit == "ms") content.end_nanos = end_nanos(model.file);
  if (!c.every) stacks_note(model, moments[0].snapshot, moments[0].asked);
  std::vector<std::size_t> snapshots;
  for (const PprofMoment& m : moments) snapshots.push_back(m.snapshot);
  std::size_t next = 0;
  replay_states(model, snapshots, [&](std::size_t, std::span<const SiteSample> state) {
    const PprofMoment& moment = moments[next++];
    if (output == "-") {
      write_pprof(model, moment, state, content, std::cout);
      return true;
    }
    ReplacedFile out(c.every ? series_name(output, next) : output);
    write_pprof(model, moment, state, content, out.stream());
    out.commit();
    return true;
  });
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
  std::string note;
  if (std::optional<Selection> selection = ask(model, c.question)) {
    note = selection_words(model, *selection);
    std::cerr << "strata convert: note: " << shown(file) << ": " << shown(note) << "\n";
  }
  check_profile(model, c);
  std::string output = values["output"].as<std::string>();
  if (c.format == "pprof") {
    write_pprof_files(model, c, output, note);
    return 0;
  }
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
