// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=collapsed: collapsed stacks, a line a stack, outermost
// frame first, frames separated by ';', then a space and the bytes:
//
//   main;player_play;decoder_decode;frame_alloc 3226272
//
// as flamegraph.pl, inferno and speedscope read them.  A frame is named as
// in the report's stacks, by its symbol (frame_symbol(), frame_names.hpp);
// inlined frames are frames of their own.
#include <map>

#include "analyze/heap_analysis.hpp"
#include "analyze/lifetime_leaks.hpp"
#include "analyze/summary.hpp"
#include "model/frame_names.hpp"
#include "render/export.hpp"
#include "util/error.hpp"
#include "util/shown.hpp"

namespace strata {

namespace {

// `frames` (innermost first, as a site has them) outermost first.
std::vector<FrameId> outermost_first(const std::vector<FrameId>& frames) {
  return {frames.rbegin(), frames.rend()};
}

}  // namespace

std::size_t snapshot_at(const Model& model, std::uint64_t time) {
  std::size_t found = model.snapshots.size();
  for (std::size_t i = 0; i < model.snapshots.size() && model.snapshots[i].time <= time; ++i) {
    found = i;
  }
  if (found == model.snapshots.size()) {
    throw Error(model.file, 0,
                "no snapshot at or before time " + std::to_string(time) + " (the first is at " +
                    (model.snapshots.empty() ? std::string("no time: there is none")
                                             : std::to_string(model.snapshots.front().time)) +
                    ")");
  }
  return found;
}

std::vector<CollapsedStack> collapsed_at(const Model& model, std::size_t snapshot) {
  std::vector<CollapsedStack> stacks;
  for (const SiteSample& sample : sites_at(model, snapshot)) {
    if (sample.bytes == 0) continue;
    stacks.push_back({outermost_first(model.site(sample.site).frames), sample.bytes});
  }
  return stacks;
}

std::vector<CollapsedStack> collapsed_counts(const Model& model, CountCost cost) {
  std::vector<CollapsedStack> stacks;
  for (const Site& site : model.sites) {
    std::uint64_t value = cost == CountCost::allocations ? site.counts.calls
                          : cost == CountCost::allocated ? site.counts.allocated
                                                         : site.counts.temporary;
    if (value > 0) stacks.push_back({outermost_first(site.frames), value});
  }
  return stacks;
}

std::vector<CollapsedStack> collapsed_growth(const Model& model, const HeapAnalysis& analysis) {
  std::vector<CollapsedStack> stacks;
  for (const Leak& leak : analysis.leaks.suspects) {
    // A finding's sites, each with what it kept (site_kept).
    for (SiteId site : leak.finding().sites) {
      std::uint64_t kept = site_kept(model, analysis.leaks, leak, site);
      if (kept > 0) stacks.push_back({outermost_first(model.site(site).frames), kept});
    }
  }
  return stacks;
}

std::string sites_note(const Model& model, std::size_t snapshot, const std::string& asked) {
  std::optional<SitesFrom> from = sites_from(model, snapshot);
  if (!from) return "";
  const Snapshot& at = model.snapshots[snapshot];
  std::string where = "snapshot " + std::to_string(snapshot) + " at time " +
                      std::to_string(at.time) + " (" + asked + ")";
  if (!from->snapshot) return where + " gives no sites, nor does any before it: no stack";
  if (from->own) {
    return "the sites of " + where + " hold " + std::to_string(from->sites_bytes) +
           " bytes, not its useful heap of " + std::to_string(at.heap);
  }
  return where + " gives no sites: the stacks are those of snapshot " +
         std::to_string(*from->snapshot) + " at time " + std::to_string(from->time) + ", " +
         std::to_string(at.time - from->time) + " earlier, whose sites hold " +
         std::to_string(from->sites_bytes) +
         " bytes (its useful heap: " + std::to_string(from->heap) + "; at snapshot " +
         std::to_string(snapshot) + ": " + std::to_string(at.heap) + ")";
}

std::string collapsed_name(std::string_view name) {
  std::string out;
  for (std::size_t at = 0; at < name.size();) {
    if (name[at] == '\\' || name[at] == ';') {
      out += name[at] == ';' ? "\\x3b" : "\\\\";
      ++at;
      continue;
    }
    std::size_t length = utf8_sequence(name, at).value_or(1);
    out += shown(name.substr(at, length));
    at += length;
  }
  return out;
}

std::size_t write_collapsed(const Model& model, const std::vector<CollapsedStack>& stacks,
                            std::ostream& out) {
  std::map<std::string, std::uint64_t> lines;  // the frames' names -> bytes
  for (const CollapsedStack& stack : stacks) {
    std::string line;
    for (FrameId id : stack.frames) {
      line += (line.empty() ? "" : ";") + collapsed_name(frame_symbol(model.frame(id)));
    }
    std::uint64_t& weight = lines[line.empty() ? "[no stack]" : line];
    weight = saturated_sum(weight, stack.bytes);
  }
  std::size_t saturated = 0;
  for (const auto& [line, bytes] : lines) {
    out << line << " " << bytes << "\n";
    if (bytes == kCountsMax) ++saturated;
  }
  return saturated;
}

}  // namespace strata
