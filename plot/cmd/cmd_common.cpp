// SPDX-License-Identifier: GPL-2.0-or-later
#include <algorithm>
#include <iostream>
#include <sstream>

#include "cmd/commands.hpp"
#include "read/read.hpp"
#include "util/command_line.hpp"
#include "util/error.hpp"
#include "util/shown.hpp"

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

std::optional<po::variables_map> parse_subcommand(const Args& args, const Subcommand& command,
                                                  const po::options_description& visible) {
  po::options_description all;
  all.add(visible).add_options()("files", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("files", static_cast<int>(command.files));
  po::variables_map values =
      parse_command_line(po::command_line_parser(args).options(all).positional(positional));
  if (values.count("help")) {
    std::cout << "Usage: " << command.usage << "\n" << command.about << "\n\n";
    print_options(std::cout, visible);
    return std::nullopt;
  }
  if (values.count("version")) {
    print_version();
    return std::nullopt;
  }
  return values;
}

std::vector<std::string> profile_paths(const po::variables_map& values, const Subcommand& command) {
  std::vector<std::string> paths;
  if (values.count("files")) paths = values["files"].as<std::vector<std::string>>();
  if (paths.size() != command.files) throw usage_error(command.missing, command);
  return paths;
}

void require_counts(const Model& model, const std::string& option) {
  if (model.has_counts) return;
  throw Error(model.file, 0,
              option +
                  ": the profile has no allocation counts (profiles of format version 3 "
                  "have them)");
}

Error usage_error(const std::string& what, const Subcommand& command) {
  return Error(what + " (usage: " + command.usage + ")");
}

}  // namespace strata
