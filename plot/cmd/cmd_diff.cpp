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

// The synopsis: after "Usage: " in --help, after "usage: " in errors.
constexpr const char* kUsage = "strata diff [OPTIONS] OLD NEW";

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
  po::options_description all;
  all.add(visible).add_options()("files", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("files", 2);
  po::variables_map values = parse_args(args, all, positional);
  if (values.count("help")) {
    std::cout << "Usage: " << kUsage
              << "\nCompares OLD and NEW, two profiles of one program (strata profiles or "
                 "massif.out files):\nper context, the change in bytes at the peak and at the "
                 "end; the leak suspects that\nappeared, vanished or changed growth.\n\n";
    print_options(std::cout, visible);
    return 0;
  }
  if (values.count("version")) return print_version();
  if (!values.count("files") || values["files"].as<std::vector<std::string>>().size() != 2) {
    throw Error(std::string("two profiles needed (usage: ") + kUsage + ")");
  }
  const std::vector<std::string>& files = values["files"].as<std::vector<std::string>>();
  ContextOptions options = read_context_options(values);
  Diff diff = diff_profiles(load_profile(files[0]), load_profile(files[1]), options);
  if (values.count("json")) {
    render_diff_json(diff, std::cout);
  } else {
    render_diff_text(diff, std::cout);
  }
  return 0;
}

}  // namespace strata
