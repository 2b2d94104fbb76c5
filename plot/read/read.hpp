// SPDX-License-Identifier: GPL-2.0-or-later
// The readers: each turns one file format into a Model.
#pragma once

#include <istream>
#include <string>

#include "model/model.hpp"

namespace strata {

// Reads a strata profile or a massif.out file, told apart by their first
// line, then names the frames Valgrind could not from their objects' DWARF
// (name_frames.hpp).
Model read_profile(const std::string& path);

// Reads a strata profile (docs/format.md); `name` is used in errors.
Model read_strata(std::istream& in, const std::string& name);

// Reads a massif.out file of Valgrind 3.3 or later; `name` is used in errors.
Model read_massif(std::istream& in, const std::string& name);

}  // namespace strata
