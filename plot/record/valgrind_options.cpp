// SPDX-License-Identifier: GPL-2.0-or-later
// The Valgrind core options (valgrind --help, Valgrind 3.19) that `strata
// record` passes on, with the values each takes, so that a mistyped option or
// value fails before anything runs.  Left out: most options about reporting
// errors (strata reports none), XML output (the tool has none), --tool, and
// the debugging options of --help-debug, but for the two translation settings
// whose defaults the tool changes (docs/design.md, "Translation"), so that
// Valgrind's own can be had.
#include <algorithm>
#include <array>
#include <string_view>

#include "record/record.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace strata {

namespace {

enum class Takes {
  nothing,   // -q
  yes_no,    // --trace-children=yes
  choice,    // --vgdb=full: one of CoreOption::choices
  number,    // --log-fd=3
  hex,       // --aspace-minaddr=0x1000
  text,      // --log-file=FILE, not empty
  any_text,  // --fullpath-after=, may be empty
};

struct CoreOption {
  std::string_view name;
  Takes takes;
  std::string_view choices = "";  // for Takes::choice, separated by '|'
};

constexpr std::array kCoreOptions = {
    CoreOption{"-q", Takes::nothing},
    CoreOption{"--quiet", Takes::nothing},
    CoreOption{"-v", Takes::nothing},
    CoreOption{"--verbose", Takes::nothing},
    CoreOption{"--trace-children", Takes::yes_no},
    CoreOption{"--trace-children-skip", Takes::text},
    CoreOption{"--trace-children-skip-by-arg", Takes::text},
    CoreOption{"--child-silent-after-fork", Takes::yes_no},
    CoreOption{"--vgdb", Takes::choice, "no|yes|full"},
    CoreOption{"--vgdb-error", Takes::number},
    CoreOption{"--vgdb-stop-at", Takes::text},
    CoreOption{"--vgdb-poll", Takes::number},
    CoreOption{"--vgdb-prefix", Takes::text},
    CoreOption{"--vgdb-shadow-registers", Takes::yes_no},
    CoreOption{"--track-fds", Takes::choice, "no|yes|all"},
    CoreOption{"--time-stamp", Takes::yes_no},
    CoreOption{"--log-fd", Takes::number},
    CoreOption{"--log-file", Takes::text},
    CoreOption{"--log-socket", Takes::text},
    CoreOption{"--demangle", Takes::yes_no},
    CoreOption{"--num-callers", Takes::number},
    CoreOption{"--error-limit", Takes::yes_no},
    CoreOption{"--suppressions", Takes::text},
    CoreOption{"--default-suppressions", Takes::yes_no},
    CoreOption{"--keep-debuginfo", Takes::yes_no},
    CoreOption{"--show-below-main", Takes::yes_no},
    CoreOption{"--max-stackframe", Takes::number},
    CoreOption{"--main-stacksize", Takes::number},
    CoreOption{"--fullpath-after", Takes::any_text},
    CoreOption{"--extra-debuginfo-path", Takes::text},
    CoreOption{"--debuginfo-server", Takes::text},
    CoreOption{"--allow-mismatched-debuginfo", Takes::yes_no},
    CoreOption{"--smc-check", Takes::choice, "none|stack|all|all-non-file"},
    CoreOption{"--read-inline-info", Takes::yes_no},
    CoreOption{"--read-var-info", Takes::yes_no},
    CoreOption{"--run-libc-freeres", Takes::yes_no},
    CoreOption{"--run-cxx-freeres", Takes::yes_no},
    CoreOption{"--sim-hints", Takes::text},
    CoreOption{"--fair-sched", Takes::choice, "no|yes|try"},
    CoreOption{"--kernel-variant", Takes::text},
    CoreOption{"--merge-recursive-frames", Takes::number},
    CoreOption{"--num-transtab-sectors", Takes::number},
    CoreOption{"--avg-transtab-entry-size", Takes::number},
    CoreOption{"--aspace-minaddr", Takes::hex},
    CoreOption{"--valgrind-stacksize", Takes::number},
    CoreOption{"--show-emwarns", Takes::yes_no},
    CoreOption{"--require-text-symbol", Takes::text},
    CoreOption{"--soname-synonyms", Takes::text},
    CoreOption{"--sigill-diagnostics", Takes::yes_no},
    CoreOption{"--max-threads", Takes::number},
    CoreOption{"--resync-filter", Takes::choice, "no|yes|verbose"},
    CoreOption{"--sanity-level", Takes::number},
    CoreOption{"--vex-guest-chase", Takes::yes_no},
    CoreOption{"--vex-iropt-register-updates", Takes::choice,
               "sp-at-mem-access|unwindregs-at-mem-access|allregs-at-mem-access|"
               "allregs-at-each-insn"},
};

const CoreOption* find(std::string_view name) {
  auto it = std::find_if(kCoreOptions.begin(), kCoreOptions.end(),
                         [&](const CoreOption& option) { return option.name == name; });
  return it == kCoreOptions.end() ? nullptr : &*it;
}

bool is_choice(std::string_view value, std::string_view choices) {
  auto allowed = split(choices, '|');
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

// What is wrong with `value`, or an empty string.
std::string value_problem(const CoreOption& option, std::string_view value) {
  switch (option.takes) {
    case Takes::nothing:
      return "";
    case Takes::yes_no:
      return is_choice(value, "yes|no") ? "" : "must be yes or no";
    case Takes::number:
      return parse_number(value) ? "" : "must be a number";
    case Takes::text:  // not empty: check_core_option()
    case Takes::any_text:
      return "";
    case Takes::hex: {
      bool ok = value.starts_with("0x") && parse_hex(value.substr(2));
      return ok ? "" : "must be a hexadecimal address (0x...)";
    }
    case Takes::choice: {
      std::string list(option.choices);
      std::replace(list.begin(), list.end(), '|', ' ');
      return is_choice(value, option.choices) ? "" : "must be one of: " + list;
    }
  }
  return "";
}

}  // namespace

bool is_core_option(const std::string& name) { return find(name) != nullptr; }

void check_core_option(const std::string& arg) {
  std::size_t equals = arg.find('=');
  const CoreOption* option = find(arg.substr(0, equals));
  if (!option) throw Error(arg + ": not an option of strata record or a Valgrind core option");
  bool has_value = equals != std::string::npos;
  if (option->takes == Takes::nothing && has_value) throw Error(arg + ": takes no value");
  bool empty = has_value && equals + 1 == arg.size() && option->takes != Takes::any_text;
  if (option->takes != Takes::nothing && (!has_value || empty)) {
    std::string name = arg.substr(0, equals);
    throw Error(name + ": needs a value (" + name + "=...)");  // as parse_command_line() says
  }
  std::string problem = has_value ? value_problem(*option, arg.substr(equals + 1)) : "";
  if (!problem.empty()) throw Error(arg + ": " + problem);
}

std::vector<std::string> core_option_names() {
  std::vector<std::string> names;
  for (const CoreOption& option : kCoreOptions) names.emplace_back(option.name);
  return names;
}

}  // namespace strata
