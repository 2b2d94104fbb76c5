// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/summary.hpp"

namespace strata {

namespace {

Totals totals(const Snapshot& snapshot) {
  return {snapshot.time, snapshot.heap, snapshot.extra, snapshot.stacks};
}

}  // namespace

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
  summary.cut_short = model.cut_short;
  summary.stop_reason = model.stop_reason;
  summary.end_time = model.end_time;
  if (auto peak = peak_snapshot(model)) summary.peak = totals(model.snapshots[*peak]);
  if (!model.snapshots.empty()) summary.final = totals(model.snapshots.back());
  return summary;
}

}  // namespace strata
