// SPDX-License-Identifier: GPL-2.0-or-later
// The analyses: functions of a Model that return plain result structs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/model.hpp"

namespace strata {

// The totals of one snapshot.
struct Totals {
  std::uint64_t time = 0;
  std::uint64_t heap = 0;
  std::uint64_t extra = 0;
  std::uint64_t stacks = 0;

  std::uint64_t total() const { return heap + extra + stacks; }
};

// What `strata report` says first about a profile.
struct Summary {
  std::string file;
  Format format = Format::strata;
  std::string command;
  std::uint64_t pid = 0;  // 0 when unknown
  std::string time_unit;
  std::size_t snapshots = 0;
  std::size_t sites = 0;
  std::size_t markers = 0;
  bool cut_short = false;
  std::string stop_reason;  // why strata stopped writing the profile, if it said
  std::uint64_t end_time = 0;
  std::optional<Totals> peak;   // see peak_snapshot()
  std::optional<Totals> final;  // the last snapshot
};

Summary summarize(const Model& model);

}  // namespace strata
