// SPDX-License-Identifier: GPL-2.0-or-later
// strata report [--json] FILE: what a profile says.  For now the header and
// the peak; the context report of the allocation sites comes later.
#include <iostream>

#include "analyze.hpp"
#include "commands.hpp"
#include "error.hpp"
#include "render.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

constexpr const char* kUsage = "usage: strata report [--json] FILE";

po::options_description visible_options() {
  po::options_description options("Options");
  options.add_options()                                    //
      ("json", "print one JSON document instead of text")  //
      ("help,h", "show this help");
  return options;
}

}  // namespace

int cmd_report(const Args& args) {
  po::options_description visible = visible_options();
  po::options_description all;
  all.add(visible).add_options()("file", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map values = parse_args(args, all, positional);
  if (values.count("help")) {
    std::cout << kUsage << "\nReports on FILE, a strata profile or a massif.out file.\n\n"
              << visible;
    return 0;
  }
  if (!values.count("file")) throw Error(std::string("no profile given (") + kUsage + ")");
  Summary summary = summarize(load_profile(values["file"].as<std::string>()));
  if (values.count("json")) {
    render_summary_json(summary, std::cout);
  } else {
    render_summary_text(summary, std::cout);
  }
  return 0;
}

}  // namespace strata
