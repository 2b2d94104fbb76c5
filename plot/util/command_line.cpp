// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/command_line.hpp"

#include <string>

#include "util/error.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

bool missing_value(const po::invalid_command_line_syntax& error) {
  return error.kind() == po::invalid_syntax::missing_parameter ||
         error.kind() == po::invalid_syntax::empty_adjacent_parameter;
}

}  // namespace

po::variables_map parse_command_line(const po::command_line_parser& parser) {
  po::variables_map values;
  try {
    po::command_line_parser copy = parser;
    po::store(copy.run(), values);
    po::notify(values);
  } catch (const po::invalid_command_line_syntax& error) {
    if (!missing_value(error)) throw Error(error.what());
    std::string name = error.get_option_name();  // the long name, also for -o
    throw Error(name + ": needs a value (" + name + "=...)");
  } catch (const po::error& error) {
    throw Error(error.what());
  }
  return values;
}

}  // namespace strata
