// SPDX-License-Identifier: GPL-2.0-or-later
// The subcommands of strata, each a function of its arguments (those after the
// subcommand's name) that returns the exit status.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "util/error.hpp"
#include "util/help.hpp"

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

// Reads a profile; warns on stderr when it was cut short.
Model load_profile(const std::string& path);

// What a subcommand that reads profiles takes on its command line.
struct Subcommand {
  const char* usage;    // the synopsis: after "Usage: " in --help, after "usage: " in errors
  const char* about;    // what it does, the lines after the synopsis in --help
  std::size_t files;    // the profiles it takes (FILE: 1; OLD NEW: 2)
  const char* missing;  // the error without them: "no profile given"
};

// The preamble every such subcommand shares: parses `args` against `visible`
// plus the profiles, and answers --help (the synopsis, `about`, then the
// options) and --version.  nullopt when it answered (exit status 0); else
// the values, the profiles (0 to `files` of them) under "files".
std::optional<boost::program_options::variables_map> parse_subcommand(
    const Args& args, const Subcommand& command,
    const boost::program_options::options_description& visible);

// The profiles given, exactly `command.files` of them; else an Error
// ("no profile given (usage: ...)").
std::vector<std::string> profile_paths(const boost::program_options::variables_map& values,
                                       const Subcommand& command);

// An Error naming `model`'s file when it has no allocation counts, for
// `option` (--sort=allocations, --cost=temporary, ...), which needs them.
void require_counts(const Model& model, const std::string& option);

// An Error "WHAT (usage: SYNOPSIS)".
Error usage_error(const std::string& what, const Subcommand& command);

}  // namespace strata
