// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/summary.hpp"

namespace strata {

namespace {

Totals totals(const Snapshot& snapshot) {
  return {snapshot.time, snapshot.heap, snapshot.extra, snapshot.stacks};
}

}  // namespace

std::optional<SitesFrom> sites_from(const Model& model, std::size_t snapshot) {
  SitesFrom from;
  from.snapshot = site_data_source(model, snapshot);
  if (from.snapshot) {
    from.time = model.snapshots[*from.snapshot].time;
    from.heap = model.snapshots[*from.snapshot].heap;
  }
  for (const SiteSample& sample : sites_at(model, snapshot)) from.sites_bytes += sample.bytes;
  from.own = from.snapshot == snapshot;
  if (from.own && from.sites_bytes == model.snapshots[snapshot].heap) return std::nullopt;
  return from;
}

Summary summarize(const Model& model) {
  Summary summary;
  summary.file = model.file;
  summary.format = model.format;
  summary.command = model.header.cmd;
  summary.pid = model.header.pid;
  summary.time_unit = model.header.time_unit;
  summary.snapshots = model.snapshots.size();
  summary.sites = model.sites.size();
  summary.markers = model.markers.size();
  summary.forks = model.forks.size();
  summary.cut_short = model.cut_short;
  summary.stop_reason = model.stop_reason;
  summary.end_time = model.end_time;
  if (auto peak = peak_snapshot(model)) {
    summary.peak = totals(model.snapshots[*peak]);
    summary.peak_sites = sites_from(model, *peak);
  }
  if (!model.snapshots.empty()) {
    summary.final = totals(model.snapshots.back());
    summary.final_sites = sites_from(model, model.snapshots.size() - 1);
  }
  return summary;
}

}  // namespace strata
