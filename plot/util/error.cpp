// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/error.hpp"

namespace strata {

std::string describe(const Error& error) {
  std::string where;
  if (!error.file().empty()) {
    where = error.file();
    if (error.line() != 0) where += ":" + std::to_string(error.line());
    where += ": ";
  }
  return where + error.what();
}

}  // namespace strata
