// SPDX-License-Identifier: GPL-2.0-or-later
// The command line of `strata record [OPTIONS] [--] PROGRAM [ARGS]`.  The
// options end at `--` or at the first argument that is not an option; what
// follows is the program's, passed on as it is.  Options are strata's own
// (forwarded to the tool under the same names) or Valgrind core options
// (checked against valgrind_options.cpp); anything else fails before anything
// runs.  Like Valgrind, long options take their value after '='.
#include <algorithm>
#include <boost/program_options.hpp>
#include <functional>
#include <iostream>

#include "record/record.hpp"
#include "util/command_line.hpp"
#include "util/error.hpp"
#include "util/help.hpp"
#include "util/text.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

using Args = std::vector<std::string>;

// The synopsis: after "Usage: " in --help, after "usage: " in errors.
constexpr const char* kUsage = "strata record [OPTIONS] [--] PROGRAM [ARGS]";

// An option that may be given more than once: the last value counts, as for Valgrind.
po::typed_value<Args>* setting(const char* value_name, const char* default_value) {
  return po::value<Args>()
      ->value_name(value_name)
      ->default_value({default_value}, default_value)
      ->composing();
}

// An option whose every value counts.
po::typed_value<Args>* patterns() { return po::value<Args>()->value_name("PATTERN")->composing(); }

po::options_description record_options() {
  po::options_description options;
  options.add_options()  //
      ("native",
       "record natively, with strata's library preloaded into PROGRAM, instead of under "
       "Valgrind: many times faster; no instruction time (--time-unit=ms or B, ms by default)")  //
      ("depth", setting("N", "30"),
       "record at most N code addresses of each allocation stack (1 to 200)")  //
      ("alloc-fn", patterns(),
       "treat functions matching PATTERN as allocators: their frames are left out of stacks "
       "(repeatable)")  //
      ("ignore-fn", patterns(),
       "ignore the allocations made directly by functions matching PATTERN (repeatable)")  //
      ("heap", setting("yes|no", "yes"),
       "profile the blocks of malloc and new (no: a profile of the stacks alone)")  //
      ("heap-admin", setting("N", "8"),
       "count N bytes of allocator overhead per block in the extra heap (0 to 1024)")  //
      ("time-unit", setting("U", "i"),
       "the time axis: i (instructions executed; ms by default with --native, where i is "
       "refused), ms (milliseconds) or B (bytes allocated and freed)")  //
      ("peak-inaccuracy", setting("P", "1.0"),
       "record a new peak only when it exceeds the last one by more than P percent (0: the exact "
       "peak)")                                                             //
      ("stacks", setting("yes|no", "no"), "profile the stacks too (slow)")  //
      ("pages-as-heap", setting("yes|no", "no"),
       "profile pages mapped (mmap, brk) instead of the blocks of malloc and new")  //
      ("free-stacks", setting("yes|no", "yes"),
       "record the stack that frees the bytes that lived across the end of an epoch")  //
      ("free-depth", setting("N", "12"),
       "record at most N code addresses of each free stack (1 to 200)")  //
      ("unwind", setting("HOW", "libunwind"),
       "with --native, HOW stacks are unwound: libunwind (from the objects' unwind tables: right "
       "in any code) or fp (the chain of frame pointers: faster, right only where every function "
       "on the stack keeps a frame pointer; one that does not hides its caller, e.g. operator "
       "new in a libstdc++ built without them)")  //
      ("out-file,o", setting("FILE", "strata.out.%p"),
       "write the profile to FILE; %p is the process id, %q{VAR} the value of $VAR, %n a "
       "sequence number, %% a %; a forked child whose FILE would be its parent's writes "
       "FILE.PID")                                                                          //
      ("massif-out-file", po::value<Args>()->value_name("FILE"), "the same as --out-file")  //
      ("threshold", setting("PCT", "1.0"),
       "the significance threshold (0 to 100) that strata report and strata plot take for this "
       "profile when not given their own")  //
      ("detailed-freq", setting("N", "10"),
       "massif's, accepted for its command lines: no effect (every snapshot has the sites that "
       "changed)")  //
      ("max-snapshots", setting("N", "100"),
       "massif's, accepted for its command lines: no effect (no snapshot is thrown away)")  //
      ("stats", setting("yes|no", "no"), "print the tool's own statistics at exit")         //
      ("version", "show the version")                                                       //
      ("help,h", "show this help");
  return options;
}

// ---- values ----------------------------------------------------------------

// A check returns what is wrong with a value, or an empty string.
using Check = std::function<std::string(const std::string&)>;

Check between(std::uint64_t low, std::uint64_t high) {
  return [=](const std::string& value) {
    auto n = parse_number(value);
    if (n && *n >= low && *n <= high) return std::string();
    return "must be between " + std::to_string(low) + " and " + std::to_string(high);
  };
}

Check one_of(std::vector<std::string> choices, std::string described) {
  return [=](const std::string& value) {
    bool ok = std::find(choices.begin(), choices.end(), value) != choices.end();
    return ok ? std::string() : "must be " + described;
  };
}

// What Valgrind reads as a number (VG_(strtod)): digits with at most one
// decimal point, no exponent, no "inf" or hexadecimal; the tool then takes
// any that is not negative.
std::string percentage_problem(const std::string& value) {
  bool digits = value.find_first_not_of("0123456789.") == std::string::npos &&
                std::count(value.begin(), value.end(), '.') <= 1 &&
                value.find_first_of("0123456789") != std::string::npos;
  if (digits && parse_decimal(value)) return "";
  return "must be a number of percent, 0 or more, in digits with at most one decimal point "
         "(no exponent)";
}

std::string threshold_problem(const std::string& value) {
  bool ok = percentage_problem(value).empty() && *parse_decimal(value) <= 100;
  return ok ? "" : "must be a percentage, 0 to 100";
}

std::string out_file_problem(const std::string& value) {
  try {
    check_out_file(value);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

std::string anything(const std::string&) { return ""; }

// Every option but --help, with what its values must be.
const std::vector<std::pair<std::string, Check>>& checks() {
  static const std::vector<std::pair<std::string, Check>> table = {
      {"depth", between(1, 200)},
      {"alloc-fn", anything},
      {"ignore-fn", anything},
      {"heap", one_of({"yes", "no"}, "yes or no")},
      {"heap-admin", between(0, 1024)},
      {"time-unit", one_of({"i", "ms", "B"}, "i, ms or B")},
      {"peak-inaccuracy", percentage_problem},
      {"stacks", one_of({"yes", "no"}, "yes or no")},
      {"pages-as-heap", one_of({"yes", "no"}, "yes or no")},
      {"free-stacks", one_of({"yes", "no"}, "yes or no")},
      {"free-depth", between(1, 200)},
      {"unwind", one_of({"fp", "libunwind"}, "fp or libunwind")},
      {"out-file", out_file_problem},
      {"threshold", threshold_problem},
      {"detailed-freq", between(1, 1000000)},
      {"max-snapshots", between(10, 1000)},
      {"stats", one_of({"yes", "no"}, "yes or no")},
  };
  return table;
}

// The last value of option `name`, given or default.
std::string last(const po::variables_map& values, const std::string& name) {
  return values[name].as<Args>().back();
}

void check_combinations(const po::variables_map& values) {
  if (last(values, "pages-as-heap") == "yes" && last(values, "stacks") == "yes") {
    throw Error("--pages-as-heap=yes: cannot be combined with --stacks=yes");
  }
}

// The values given for option `name`; none when it has its default.
Args given(const po::variables_map& values, const std::string& name) {
  if (!values.count(name) || values[name].defaulted()) return {};
  return values[name].as<Args>();
}

// Checks every value given and returns the tool options: every --alloc-fn
// and --ignore-fn, the last value of any other option but --unwind (the
// native library's alone), and --out-file always.
Args tool_args(const po::variables_map& values) {
  Args args;
  for (const auto& [name, check] : checks()) {
    Args all = given(values, name);
    for (const std::string& value : all) {
      std::string problem = check(value);
      if (!problem.empty()) throw Error("--" + name + "=" + value + ": " + problem);
    }
    bool pattern = name == "alloc-fn" || name == "ignore-fn";
    if (!pattern && !all.empty()) all = {all.back()};
    if (name == "out-file" || name == "unwind") all.clear();
    for (const std::string& value : all) args.push_back("--" + name + "=" + value);
  }
  args.push_back("--out-file=" + last(values, "out-file"));
  return args;
}

// What the native recorder cannot do (yet): said in one line, before
// anything runs.
void check_native(const po::variables_map& values, const Args& core) {
  if (values.count("time-unit") && !values["time-unit"].defaulted() &&
      last(values, "time-unit") == "i") {
    throw Error("--time-unit=i: there is no instruction counter with --native: use ms or B");
  }
  const std::pair<const char*, const char*> refused[] = {
      {"stacks", "yes"}, {"pages-as-heap", "yes"}, {"heap", "no"}};
  for (const auto& [name, value] : refused) {
    if (last(values, name) == value) {
      throw Error(std::string("--") + name + "=" + value +
                  ": not with --native (record under Valgrind)");
    }
  }
  for (const char* name : {"alloc-fn", "ignore-fn"}) {
    if (!values.count(name)) continue;
    const Args& patterns = values[name].as<Args>();
    if (patterns.size() > 256) {
      throw Error(std::string("--") + name + ": at most 256 patterns with --native");
    }
    for (const std::string& pattern : patterns) {
      if (pattern.find('\n') != std::string::npos) {
        throw Error(std::string("--") + name + ": a pattern with a line break, not with --native");
      }
    }
  }
  for (const std::string& arg : core) {
    if (!arg.starts_with("--trace-children=")) {
      throw Error(arg.substr(0, arg.find('=')) +
                  ": a Valgrind option, not with --native (only --trace-children is)");
    }
  }
}

// The native library's options: strata's, ms by default, --unwind, and
// --trace-children.
Args native_args(const po::variables_map& values, const Args& core) {
  Args args = tool_args(values);
  if (!values.count("time-unit") || values["time-unit"].defaulted()) {
    args.push_back("--time-unit=ms");
  }
  if (Args unwind = given(values, "unwind"); !unwind.empty()) {
    args.push_back("--unwind=" + unwind.back());
  }
  for (const std::string& arg : core) args.push_back(arg);
  return args;
}

// ---- splitting the command line ---------------------------------------------

struct Split {
  Args ours;     // strata's options
  Args core;     // Valgrind's core options
  Args program;  // PROGRAM [ARGS]
};

bool is_option(const std::string& arg) { return arg.size() > 1 && arg[0] == '-' && arg != "--"; }

// "--depth" of "--depth=3", "-o" of "-oFILE".
std::string option_name(const std::string& arg) {
  return arg.starts_with("--") ? arg.substr(0, arg.find('=')) : arg.substr(0, 2);
}

bool is_ours(const po::options_description& ours, const std::string& name) {
  if (name == "--") return false;
  std::string key = name.starts_with("--") ? name.substr(2) : name;
  return ours.find_nothrow(key, false) != nullptr;
}

void reject_misplaced(const std::string& name) {
  if (name == "--tool") throw Error("--tool: strata record always runs the strata tool");
}

// --massif-out-file=FILE, massif's name for --out-file, as --out-file=FILE;
// a problem with FILE is named as given.
std::string out_file_synonym(const std::string& arg) {
  std::size_t equals = arg.find('=');
  std::string name = arg.substr(0, equals);
  if (equals == std::string::npos || equals + 1 == arg.size()) {
    throw Error(name + ": needs a value (" + name + "=...)");  // as parse_command_line() says
  }
  std::string problem = out_file_problem(arg.substr(equals + 1));
  if (!problem.empty()) throw Error(arg + ": " + problem);
  return "--out-file" + arg.substr(equals);
}

// The word after -o: a file name, not "--" or an option (-o -- prog would
// write the profile to a file named "--").
const std::string& out_file_word(const std::string& word) {
  if (word.starts_with("-")) {
    throw Error("-o: needs a file name, not " + quote(word) +
                " (--out-file=FILE names a file that begins with -)");
  }
  return word;
}

Split split_args(const Args& args, const po::options_description& ours) {
  Split split;
  std::size_t i = 0;
  for (; i < args.size() && is_option(args[i]); ++i) {
    std::string name = option_name(args[i]);
    if (name == "--massif-out-file") {
      split.ours.push_back(out_file_synonym(args[i]));
      continue;
    }
    if (is_ours(ours, name)) {
      split.ours.push_back(args[i]);
      if (args[i] == "-o" && i + 1 < args.size()) split.ours.push_back(out_file_word(args[++i]));
      continue;
    }
    reject_misplaced(name);
    check_core_option(args[i]);
    split.core.push_back(args[i]);
  }
  if (i < args.size() && args[i] == "--") ++i;
  split.program.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  return split;
}

po::variables_map parse_ours(const Args& ours, const po::options_description& options) {
  namespace style = po::command_line_style;
  int valgrind_like = style::allow_long | style::long_allow_adjacent | style::allow_short |
                      style::short_allow_adjacent | style::short_allow_next |
                      style::allow_dash_for_short;
  return parse_command_line(po::command_line_parser(ours).options(options).style(valgrind_like));
}

}  // namespace

RecordRequest parse_record_args(const Args& args) {
  po::options_description options = record_options();
  Split split = split_args(args, options);
  po::variables_map values = parse_ours(split.ours, options);
  RecordRequest request;
  request.help = values.count("help") > 0;
  request.version = values.count("version") > 0;
  if (request.help || request.version) return request;
  request.native = values.count("native") > 0;
  if (request.native) {
    check_native(values, split.core);
    request.native_args = native_args(values, split.core);
  } else {
    if (!given(values, "unwind").empty()) {
      throw Error("--unwind: only with --native (under Valgrind, Valgrind unwinds)");
    }
    request.valgrind_args = split.core;
    for (std::string& arg : tool_args(values)) request.valgrind_args.push_back(std::move(arg));
  }
  check_combinations(values);
  request.out_file = last(values, "out-file");
  request.program = std::move(split.program);
  if (request.program.empty()) {
    throw Error(std::string("no program to run (usage: ") + kUsage + ")");
  }
  return request;
}

void print_record_help(std::ostream& out) {
  out << "Usage: " << kUsage << "\n"
      << "Runs PROGRAM under Valgrind with the strata tool, or natively with --native,\n"
         "and writes its heap profile.\n\n";
  print_options(out, record_options());
  out << "\n"
      << "Valgrind core options passed on (see valgrind --help; --vex-*: --help-debug):\n";
  // A paragraph, not indented: help2man would take indented lines starting
  // with '-' for options of strata record in its manual page.
  std::string line;
  for (const std::string& name : core_option_names()) {
    if (!line.empty() && line.size() + 1 + name.size() > 78) {
      out << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + name;
  }
  out << line;
  out << "\nWith --native, only --trace-children is.";
  out << "\n\nA massif command line runs with `valgrind --tool=massif` replaced by\n"
         "`strata record`: nothing is dropped while recording, whatever --threshold says.\n";
}

}  // namespace strata
