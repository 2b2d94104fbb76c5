// SPDX-License-Identifier: GPL-2.0-or-later
// The analyses: functions of a Model that return plain result structs.
#pragma once

#include <cstddef>
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

// Where the sites' bytes at a snapshot come from when they are not that
// snapshot's own, or do not add up to its useful heap: a massif.out file
// gives sites only at its detailed snapshots, and sites_at() takes them from
// the last one before (site_data_source).
struct SitesFrom {
  std::optional<std::size_t> snapshot;  // the snapshot they are from; nullopt: none before
  bool own = false;                     // from the snapshot itself (they do not add up)
  std::uint64_t time = 0;               // its time and useful heap
  std::uint64_t heap = 0;
  std::uint64_t sites_bytes = 0;  // what the sites hold together
};

// nullopt when the sites at `snapshot` are its own and add up to its useful heap.
std::optional<SitesFrom> sites_from(const Model& model, std::size_t snapshot);

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
  std::size_t forks = 0;  // K records: the times the process forked
  bool cut_short = false;
  std::string stop_reason;  // why strata stopped writing the profile, if it said
  std::uint64_t end_time = 0;
  std::optional<Totals> peak;            // see peak_snapshot()
  std::optional<Totals> final;           // the last snapshot
  std::optional<SitesFrom> peak_sites;   // see sites_from(), at the peak
  std::optional<SitesFrom> final_sites;  // and at the last snapshot
};

Summary summarize(const Model& model);

}  // namespace strata
