// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "analyze/heap_analysis.hpp"
#include "model/frame_names.hpp"

namespace strata {

namespace {

using Names = std::vector<std::string>;  // a stack's frames by name, innermost first

Names names_of(const Model& model, const std::vector<FrameId>& frames) {
  Names names;
  for (FrameId id : frames) names.push_back(frame_name(model.frame(id)));
  return names;
}

std::vector<Frame> frames_of(const Model& model, const std::vector<FrameId>& ids) {
  std::vector<Frame> frames;
  for (FrameId id : ids) frames.push_back(model.frame(id));
  return frames;
}

// One profile, its analysis and its sites by name.
struct Side {
  const Model& model;
  HeapAnalysis analysis;
  std::vector<Names> site_names;    // SiteId -> its stack's names (after --alloc-fn)
  std::vector<SiteSample> at_peak;  // every site at the peak
  std::vector<SiteSample> at_end;   // every site at the last snapshot

  Side(const Model& m, const ContextOptions& options)
      : model(m), analysis(analyze_heap(m, options)) {
    for (const Site& site : m.sites)
      site_names.push_back(names_of(m, context_frames(m, site, options)));
    if (std::optional<std::size_t> peak = peak_snapshot(m)) at_peak = sites_at(m, *peak);
    if (!m.snapshots.empty()) at_end = sites_at(m, m.snapshots.size() - 1);
  }

  // The bytes of the sites whose stacks start with `names`.
  std::uint64_t bytes(const std::vector<SiteSample>& samples, const Names& names) const {
    std::uint64_t sum = 0;
    for (const SiteSample& sample : samples) {
      const Names& site = site_names[index(sample.site)];
      if (site.size() >= names.size() && std::equal(names.begin(), names.end(), site.begin())) {
        sum += sample.bytes;
      }
    }
    return sum;
  }
};

// The contexts of both reports, by name, each with the frames it was first seen with.
std::map<Names, std::vector<Frame>> context_keys(const Side& old_side, const Side& new_side) {
  std::map<Names, std::vector<Frame>> keys;
  for (const Side* side : {&new_side, &old_side}) {
    for (const Context& context : side->analysis.contexts.contexts) {
      if (context.other() || context.shape == ContextShape::other_callers) continue;
      keys.try_emplace(names_of(side->model, context.frames),
                       frames_of(side->model, context.frames));
    }
  }
  return keys;
}

std::uint64_t peak_total(const Model& model) {
  std::optional<std::size_t> peak = peak_snapshot(model);
  return peak ? model.snapshots[*peak].total() : 0;
}

std::uint64_t end_heap(const Model& model) {
  return model.snapshots.empty() ? 0 : model.snapshots.back().heap;
}

// A side's suspects by their context's names.
std::map<Names, const Leak*> suspects(const Side& side) {
  std::map<Names, const Leak*> found;
  for (const Leak& leak : side.analysis.leaks.suspects) {
    found.emplace(names_of(side.model, side.analysis.contexts.contexts[leak.context].frames),
                  &leak);
  }
  return found;
}

// Fills in one side of a DiffLeak from its suspect there.
void fill_side(const Side& side, const Leak& leak, bool is_new, DiffLeak& out) {
  const Context& context = side.analysis.contexts.contexts[leak.context];
  out.frames = frames_of(side.model, context.frames);
  out.headline = leak.headline;
  (is_new ? out.new_kind : out.old_kind) = leak.kind;
  (is_new ? out.new_growth_bytes : out.old_growth_bytes) = leak.growth_bytes;
}

DiffStatus status_of(const DiffLeak& leak, bool in_old, bool in_new) {
  if (!in_old) return DiffStatus::appeared;
  if (!in_new) return DiffStatus::vanished;
  double larger = std::max(std::abs(leak.old_growth_bytes), std::abs(leak.new_growth_bytes));
  bool moved = std::abs(leak.new_growth_bytes - leak.old_growth_bytes) > kGrowthChange * larger;
  return moved || leak.old_kind != leak.new_kind ? DiffStatus::changed : DiffStatus::same;
}

std::vector<DiffLeak> diff_leaks(const Side& old_side, const Side& new_side) {
  std::map<Names, const Leak*> before = suspects(old_side), after = suspects(new_side);
  std::map<Names, DiffLeak> leaks;
  for (const auto& [names, leak] : before) fill_side(old_side, *leak, false, leaks[names]);
  for (const auto& [names, leak] : after) fill_side(new_side, *leak, true, leaks[names]);
  std::vector<DiffLeak> out;
  for (auto& [names, leak] : leaks) {
    leak.status = status_of(leak, before.contains(names), after.contains(names));
    out.push_back(std::move(leak));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const DiffLeak& a, const DiffLeak& b) { return a.status < b.status; });
  return out;
}

}  // namespace

Diff diff_profiles(const Model& old_model, const Model& new_model, const ContextOptions& options) {
  Side old_side(old_model, options), new_side(new_model, options);
  Diff diff;
  diff.old_file = old_model.file;
  diff.new_file = new_model.file;
  diff.old_time_unit = old_model.header.time_unit;
  diff.new_time_unit = new_model.header.time_unit;
  diff.old_end_time = old_model.end_time;
  diff.new_end_time = new_model.end_time;
  diff.same_time_unit = old_model.header.time_unit == new_model.header.time_unit;
  diff.peak = {peak_total(old_model), peak_total(new_model)};
  diff.end = {end_heap(old_model), end_heap(new_model)};
  for (auto& [names, frames] : context_keys(old_side, new_side)) {
    diff.contexts.push_back(
        {std::move(frames),
         {old_side.bytes(old_side.at_peak, names), new_side.bytes(new_side.at_peak, names)},
         {old_side.bytes(old_side.at_end, names), new_side.bytes(new_side.at_end, names)}});
  }
  std::stable_sort(diff.contexts.begin(), diff.contexts.end(),
                   [](const DiffContext& a, const DiffContext& b) {
                     auto key = [](const DiffContext& c) {
                       return std::pair(std::llabs(c.peak.change()), std::llabs(c.end.change()));
                     };
                     return key(a) > key(b);
                   });
  diff.leaks = diff_leaks(old_side, new_side);
  return diff;
}

}  // namespace strata
