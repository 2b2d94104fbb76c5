// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=collapsed: collapsed stacks, a line a stack, outermost
// frame first, frames separated by ';', then a space and the bytes:
//
//   main;player_play;decoder_decode;frame_alloc 3226272
//
// as flamegraph.pl, inferno and speedscope read them.  A frame is named as
// in the report (frame_names.hpp); inlined frames are frames of their own.
#include <map>

#include "analyze/heap_analysis.hpp"
#include "model/frame_names.hpp"
#include "render/export.hpp"
#include "util/error.hpp"

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

std::vector<CollapsedStack> collapsed_growth(const Model& model, const HeapAnalysis& analysis) {
  SeriesBuilder series(model);
  std::vector<CollapsedStack> stacks;
  for (const Leak& leak : analysis.leaks.suspects) {
    if (leak.troughs.size() < 2) continue;
    std::size_t first = leak.troughs.front().snapshot, last = leak.troughs.back().snapshot;
    for (SiteId site : analysis.contexts.contexts[leak.context].sites) {
      std::uint64_t before = series.site_at(site, first).min,
                    after = series.site_at(site, last).min;
      if (after > before) {
        stacks.push_back({outermost_first(model.site(site).frames), after - before});
      }
    }
  }
  return stacks;
}

void write_collapsed(const Model& model, const std::vector<CollapsedStack>& stacks,
                     std::ostream& out) {
  std::map<std::string, std::uint64_t> lines;  // the frames' names -> bytes
  for (const CollapsedStack& stack : stacks) {
    std::string line;
    for (FrameId id : stack.frames) {
      line += (line.empty() ? "" : ";") + export_name(frame_name(model.frame(id)), "\\;");
    }
    lines[line.empty() ? "[no stack]" : line] += stack.bytes;
  }
  for (const auto& [line, bytes] : lines) out << line << " " << bytes << "\n";
}

}  // namespace strata
