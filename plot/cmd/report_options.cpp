// SPDX-License-Identifier: GPL-2.0-or-later
// The post-hoc options of `strata report` and `strata plot`.  Values are read
// as text and checked here, so that every problem is one Error naming the
// option; given twice, the last value counts.
#include "cmd/report_options.hpp"

#include <algorithm>

#include "util/error.hpp"
#include "util/text.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

using Values = std::vector<std::string>;

po::typed_value<Values>* setting(const char* value_name, const char* default_value) {
  return po::value<Values>()
      ->value_name(value_name)
      ->default_value({default_value}, default_value)
      ->composing();
}

// The last value given for `name`.
const std::string& last(const po::variables_map& values, const char* name) {
  return values[name].as<Values>().back();
}

// "all" or a number from 1 to 2^32 - 1 (frames and sites are counted in 32
// bits: no stack and no list of contexts is longer); "all" is 0.
std::size_t count_value(const po::variables_map& values, const char* name) {
  const std::string& value = last(values, name);
  if (value == "all") return 0;
  auto n = parse_number(value);
  if (!n || *n == 0 || *n > UINT32_MAX) {
    throw Error("--" + std::string(name) + "=" + value + ": must be a number from 1 to " +
                std::to_string(UINT32_MAX) + ", or all");
  }
  return static_cast<std::size_t>(*n);
}

std::optional<double> percentage(const std::string& value) {
  std::optional<double> percent = parse_decimal(value);
  if (!percent || *percent < 0 || *percent > 100) return std::nullopt;
  return percent;
}

double percent_value(const po::variables_map& values, const char* name) {
  const std::string& value = last(values, name);
  std::optional<double> percent = percentage(value);
  if (!percent) {
    throw Error("--" + std::string(name) + "=" + value + ": must be a percentage, 0 to 100");
  }
  return *percent;
}

// The threshold a strata profile was recorded with (strata record
// --threshold), if any.
std::optional<double> recorded_threshold(const Model& model) {
  if (model.format != Format::strata) return std::nullopt;
  const Option* recorded = recorded_option(model, "threshold");
  if (recorded == nullptr) return std::nullopt;
  std::optional<double> percent = percentage(recorded->value);
  if (!percent) {
    throw Error(
        model.file, 0,
        "recorded threshold " + quote(recorded->value) + ": must be a percentage, 0 to 100");
  }
  return percent;
}

}  // namespace

void add_context_options(po::options_description& options, const char* default_top) {
  options.add_options()  //
      ("depth", po::value<Values>()->value_name("N")->composing(),
       "group the sites by the first N code addresses of their stacks (all: whole stacks), "
       "instead of choosing the contexts from the calling-context tree")  //
      ("threshold", setting("PCT", "1.0"),
       "a context holds at least PCT percent of the spacetime or of the peak; the others are "
       "folded into their callers' context or into \"N other places\"; a leak finding under PCT "
       "percent of the peak (1 at most) is listed in one line at the end")  //
      ("alloc-fn", po::value<Values>()->value_name("PATTERN")->composing(),
       "treat functions matching PATTERN as allocators: their frames are taken off the top of "
       "stacks, so their callers become the contexts (repeatable)")                   //
      ("top", setting("N", default_top), "list at most N contexts, fold the others")  //
      ("library", po::value<Values>()->value_name("PATTERN")->composing(),
       "treat objects, source files or functions matching PATTERN as library code, not the "
       "program's own: a leak suspect is headed by its first frame in the program's own code "
       "(repeatable; system libraries and headers always are library code)")  //
      ("leaks-from", po::value<std::string>()->value_name("WHAT"),
       "judge the leaks from the lifetimes (the default when the profile has them) or from the "
       "curves of the sites' bytes alone (the only way without lifetimes), with the same "
       "judgement");
}

ContextOptions read_context_options(const po::variables_map& values) {
  ContextOptions options;
  if (values.count("depth")) options.depth = count_value(values, "depth");
  options.threshold = percent_value(values, "threshold");
  options.top = count_value(values, "top");
  if (values.count("alloc-fn")) options.alloc_fns = values["alloc-fn"].as<Values>();
  if (values.count("library")) options.libraries = values["library"].as<Values>();
  options.leaks_from_curves = leaks_from_curves(values);
  return options;
}

bool leaks_from_curves(const po::variables_map& values) {
  if (!values.count("leaks-from")) return false;
  std::string from = values["leaks-from"].as<std::string>();
  if (from != "curves" && from != "lifetimes") {
    throw Error("--leaks-from=" + from + ": judge the leaks from lifetimes or curves");
  }
  return from == "curves";
}

ContextOptions for_profile(ContextOptions options, const po::variables_map& values,
                           const Model& model) {
  if (!values["threshold"].defaulted()) return options;
  if (std::optional<double> recorded = recorded_threshold(model)) options.threshold = *recorded;
  return options;
}

void add_time_options(po::options_description& options) {
  options.add_options()  //
      ("born", po::value<std::string>()->value_name("FROM..TO"),
       "keep only the bytes born from FROM to TO (either may be left out), each a time in the "
       "profile's unit, a percentage of the run (35%) or a marker (marker:LABEL, "
       "marker:LABEL#3 for its third occurrence), taken to the nearest epoch boundary of the "
       "lifetimes")  //
      ("alive-at", po::value<std::string>()->value_name("T"),
       "keep only the bytes still alive at T, a time as for --born (the end of the run, where "
       "alive means never freed)");
}

TimeQuestion read_time_question(const po::variables_map& values) {
  TimeQuestion question;
  if (values.count("born")) question.born = values["born"].as<std::string>();
  if (values.count("alive-at")) question.alive_at = values["alive-at"].as<std::string>();
  return question;
}

std::optional<Selection> ask(Model& model, const TimeQuestion& question) {
  if (!question.asked()) return std::nullopt;
  Selection selection = select_lifetimes(model, question.born, question.alive_at);
  model = selected_model(model, selection);
  return selection;
}

}  // namespace strata
