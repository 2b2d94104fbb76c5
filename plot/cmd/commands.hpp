// SPDX-License-Identifier: GPL-2.0-or-later
// The subcommands of strata, each a function of its arguments (those after the
// subcommand's name) that returns the exit status.
#pragma once

#include <boost/program_options.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace strata {

using Args = std::vector<std::string>;

int cmd_record(const Args& args);
int cmd_report(const Args& args);
int cmd_plot(const Args& args);
int cmd_convert(const Args& args);
int cmd_diff(const Args& args);

// ---- shared by the subcommands (cmd_common.cpp) ----------------------------

// Prints "strata VERSION" (the same for every subcommand) and returns 0.
int print_version();

// Prints the options of a --help: "Options (defaults in parentheses):", then
// each option's name and value ("--depth N (=30)") and its description,
// wrapped to 79 columns.  The descriptions start in one column, two spaces
// after the longest name (help2man, which makes the manual pages, needs two);
// a name longer than 36 characters has a line of its own.
void print_options(std::ostream& out, const boost::program_options::options_description& options);

// Reads a profile; warns on stderr when it was cut short.
Model load_profile(const std::string& path);

// Parses `args` against `options` and `positional`; Boost's errors become Error.
boost::program_options::variables_map parse_args(
    const Args& args, const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description& positional);

// Parses `args` against `visible` plus one positional argument, FILE (the
// profile), which lands in the map as "file".
boost::program_options::variables_map parse_file_args(
    const Args& args, const boost::program_options::options_description& visible);

}  // namespace strata
