// SPDX-License-Identifier: GPL-2.0-or-later
// The command lines of every subcommand, read with Boost.Program_options in
// one place, so that a bad one is said the same way everywhere.
#pragma once

#include <boost/program_options.hpp>

namespace strata {

// What `parser` reads, stored and notified.  Boost's errors become one Error
// naming the option; an option given without its value (`--born=`, or
// `--born` last) is "--born: needs a value (--born=...)", not Boost's
// "should follow immediately after the equal sign".
boost::program_options::variables_map parse_command_line(
    const boost::program_options::command_line_parser& parser);

}  // namespace strata
