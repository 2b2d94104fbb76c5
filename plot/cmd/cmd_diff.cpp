// SPDX-License-Identifier: GPL-2.0-or-later
// strata diff [OPTIONS] OLD NEW: two profiles of one program compared
// (diff.hpp), as text or as one JSON document.
#include <iostream>

#include "analyze/diff.hpp"
#include "cmd/commands.hpp"
#include "cmd/report_options.hpp"
#include "render/render.hpp"
#include "util/error.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

constexpr Subcommand kDiff = {
    "strata diff [OPTIONS] OLD NEW",
    "Compares OLD and NEW, two profiles of one program (strata profiles or massif.out files):\n"
    "per context, the change in bytes at the peak and at the end; the leak suspects that\n"
    "appeared, vanished or changed growth.",
    2, "two profiles needed"};

po::options_description visible_options() {
  po::options_description options;
  add_context_options(options, "20");
  options.add_options()                                    //
      ("json", "print one JSON document instead of text")  //
      ("version", "show the version")                      //
      ("help,h", "show this help");
  return options;
}

}  // namespace

int cmd_diff(const Args& args) {
  po::options_description visible = visible_options();
  std::optional<po::variables_map> parsed = parse_subcommand(args, kDiff, visible);
  if (!parsed) return 0;
  const po::variables_map& values = *parsed;
  std::vector<std::string> files = profile_paths(values, kDiff);
  ContextOptions options = read_context_options(values);
  Model old_model = load_profile(files[0]), new_model = load_profile(files[1]);
  // As report and plot do: without --threshold, the one OLD was recorded with.
  Diff diff = diff_profiles(old_model, new_model, for_profile(options, values, old_model));
  if (values.count("json")) {
    render_diff_json(diff, std::cout);
  } else {
    render_diff_text(diff, std::cout);
  }
  return 0;
}

}  // namespace strata
