// SPDX-License-Identifier: GPL-2.0-or-later
// The options of a --help, laid out (help.hpp).
#include "util/help.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace strata {

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

}  // namespace strata
