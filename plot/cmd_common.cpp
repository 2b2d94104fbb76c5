// SPDX-License-Identifier: GPL-2.0-or-later
#include <iostream>

#include "commands.hpp"
#include "error.hpp"
#include "read.hpp"
#include "shown.hpp"

namespace po = boost::program_options;

namespace strata {

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

int print_version() {
  std::cout << "strata " << PACKAGE_VERSION << "\n";
  return 0;
}

Model load_profile(const std::string& path) {
  Model model = read_profile(path);
  if (!model.cut_short) return model;
  std::cerr << "strata: warning: " << shown(path) << ": profile ends early ";
  if (model.stop_reason.empty()) {
    std::cerr << "(the program was killed?); ";
  } else {
    std::cerr << "(strata stopped writing it: " << model.stop_reason << "); ";
  }
  if (model.snapshots.empty()) {
    std::cerr << "it holds no complete snapshot\n";
  } else {
    std::cerr << "read up to its last complete snapshot at time " << model.end_time << "\n";
  }
  return model;
}

po::variables_map parse_args(const Args& args, const po::options_description& options,
                             const po::positional_options_description& positional) {
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    throw Error(error.what());
  }
  return values;
}

po::variables_map parse_file_args(const Args& args, const po::options_description& visible) {
  po::options_description all;
  all.add(visible).add_options()("file", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("file", 1);
  return parse_args(args, all, positional);
}

}  // namespace strata
