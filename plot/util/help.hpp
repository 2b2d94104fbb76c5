// SPDX-License-Identifier: GPL-2.0-or-later
// The layout of every subcommand's --help, which help2man reads to make the
// manual pages.
#pragma once

#include <boost/program_options.hpp>
#include <ostream>

namespace strata {

// Prints the options of a --help: "Options (defaults in parentheses):", then
// each option's name and value ("--depth N (=30)") and its description,
// wrapped to 79 columns.  The descriptions start in one column, two spaces
// after the longest name (help2man, which makes the manual pages, needs two);
// a name longer than 36 characters has a line of its own.
void print_options(std::ostream& out, const boost::program_options::options_description& options);

}  // namespace strata
