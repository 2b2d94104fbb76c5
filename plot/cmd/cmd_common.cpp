// SPDX-License-Identifier: GPL-2.0-or-later
#include <algorithm>
#include <iostream>
#include <sstream>

#include "cmd/commands.hpp"
#include "read/read.hpp"
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

namespace {

constexpr std::size_t kHelpWidth = 79;      // the last column of a --help line
constexpr std::size_t kHelpNameColumn = 2;  // where an option's name starts
constexpr std::size_t kHelpMaxColumn = 40;  // the furthest a description starts

std::string option_name(const po::option_description& option) {
  std::string parameter = option.format_parameter();
  return option.format_name() + (parameter.empty() ? "" : " " + parameter);
}

// `text` cut into lines of at most `width` characters, at spaces.
std::vector<std::string> wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines(1);
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) {
      lines.emplace_back();
    }
    lines.back() += (lines.back().empty() ? "" : " ") + word;
  }
  return lines;
}

}  // namespace

void print_options(std::ostream& out, const po::options_description& options) {
  std::size_t column = 0;  // two spaces after the longest name that fits
  for (const auto& option : options.options()) {
    std::size_t after = kHelpNameColumn + option_name(*option).size() + 2;
    if (after <= kHelpMaxColumn) column = std::max(column, after);
  }
  const std::string indent(column, ' ');
  out << "Options (defaults in parentheses):\n";
  for (const auto& option : options.options()) {
    std::string name = std::string(kHelpNameColumn, ' ') + option_name(*option);
    if (name.size() + 2 > column) {
      out << name << "\n" << indent;
    } else {
      out << name << std::string(column - name.size(), ' ');
    }
    std::vector<std::string> lines = wrap(option->description(), kHelpWidth - column);
    for (std::size_t i = 0; i < lines.size(); ++i) out << (i ? indent : "") << lines[i] << "\n";
  }
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
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    throw Error(error.what());
  }
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

Error usage_error(const std::string& what, const Subcommand& command) {
  return Error(what + " (usage: " + command.usage + ")");
}

}  // namespace strata
