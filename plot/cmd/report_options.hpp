// SPDX-License-Identifier: GPL-2.0-or-later
// The post-hoc options that `strata report` and `strata plot` share:
// --depth, --threshold, --alloc-fn, --top (contexts.hpp says what they do) and
// --library (own_code.hpp).
#pragma once

#include <boost/program_options.hpp>

#include "analyze/contexts.hpp"
#include "analyze/lifetimes.hpp"
#include "model/model.hpp"

namespace strata {

// Adds --depth, --threshold, --alloc-fn, --top, --library and --leaks-from to `options`, with the
// help texts of docs/manual.md. `default_top` is what --top is when not given: "all", or a number.
void add_context_options(boost::program_options::options_description& options,
                         const char* default_top = "all");

// The values of those options (defaults for those not given); a value out of
// range is an Error.
ContextOptions read_context_options(const boost::program_options::variables_map& values);

// Whether --leaks-from (in `values`, if given) says curves: true for
// "curves", false for "lifetimes" or when not given; anything else is an Error.
bool leaks_from_curves(const boost::program_options::variables_map& values);

// `options` for `model`: when --threshold was not given, the threshold a
// strata profile was recorded with (strata record --threshold) takes the
// default's place.  A recorded threshold out of range is an Error.
ContextOptions for_profile(ContextOptions options,
                           const boost::program_options::variables_map& values, const Model& model);

// A question of time: --born=FROM..TO and --alive-at=T, as given.
struct TimeQuestion {
  std::optional<std::string> born;
  std::optional<std::string> alive_at;

  bool asked() const { return born || alive_at; }
};

// Adds --born and --alive-at to `options`, with the help texts of docs/manual.md.
void add_time_options(boost::program_options::options_description& options);

TimeQuestion read_time_question(const boost::program_options::variables_map& values);

// When a question of time was asked: its selection, and `model` made the
// model of the selected bytes (analyze/lifetimes.hpp, selected_model);
// else nullopt and `model` as it was.  An Error when the file has no
// lifetimes or a time is bad.
std::optional<Selection> ask(Model& model, const TimeQuestion& question);

}  // namespace strata
