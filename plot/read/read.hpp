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

// What a reader keeps of a strata profile: all of it, or its outline,
// without the records that make most of a long profile (the snapshots'
// s and c records, the epochs' b, d and a records): the header, frames,
// sites, free stacks, markers, the snapshots' totals and how it ends.
enum class Detail { all, outline };

// The outline of a strata profile (a massif.out file is read whole), with
// its frames named as read_profile names them, except a native profile's,
// which `strata record` named when the run ended.
Model read_outline(const std::string& path);

// Reads a strata profile (docs/format.md); `name` is used in errors.
Model read_strata(std::istream& in, const std::string& name, Detail detail = Detail::all);

// Reads a massif.out file of Valgrind 3.3 or later; `name` is used in errors.
Model read_massif(std::istream& in, const std::string& name);

}  // namespace strata
