// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string_view>
#include <utility>

#include "analyze/heap_analysis.hpp"
#include "model/frame_names.hpp"

namespace strata {

namespace {

using Names = std::vector<std::string>;  // a stack's frames by name, innermost first

// massif ends a stack that goes below main with this frame; strata cuts
// the stack at main (docs/design.md, "What is a site").
constexpr std::string_view kBelowMain = "(below main)";

Names names_of(const Model& model, const std::vector<FrameId>& frames) {
  Names names;
  for (FrameId id : frames) names.push_back(frame_name(model.frame(id)));
  if (!names.empty() && names.back() == kBelowMain) names.pop_back();
  return names;
}

// The contexts compared, by name, as a trie of their names from the
// innermost: a site's bytes go to every context its stack starts with, found
// by walking its names down the trie (so the cost is the sites times the
// contexts' depth, not the sites times the contexts).
class NameTrie {
 public:
  // Adds `names`, a context; returns its index (0, 1, ... in the order added).
  std::size_t add(const Names& names) {
    std::size_t node = 0;
    for (const std::string& name : names) {
      auto [it, added] = children_.try_emplace({node, name}, keys_.size());
      if (added) keys_.push_back(kNone);
      node = it->second;
    }
    if (keys_[node] == kNone) keys_[node] = contexts_++;
    return keys_[node];
  }

  std::size_t size() const { return contexts_; }

  // Calls `each` with the index of each context that `names` starts with
  // (a context without frames holds the sites without a stack).
  template <typename Each>
  void prefixes(const Names& names, Each each) const {
    std::size_t node = 0;
    if (names.empty() && keys_[node] != kNone) each(keys_[node]);
    for (const std::string& name : names) {
      auto it = children_.find({node, name});
      if (it == children_.end()) return;
      node = it->second;
      if (keys_[node] != kNone) each(keys_[node]);
    }
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::map<std::pair<std::size_t, std::string>, std::size_t> children_;  // (node, name) -> node
  std::vector<std::size_t> keys_{kNone};  // node -> its context, or kNone; the root is 0
  std::size_t contexts_ = 0;
};

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

  // The bytes of each context of `trie` in `samples`: of the sites whose
  // stacks start with its names.
  std::vector<std::uint64_t> bytes(const std::vector<SiteSample>& samples,
                                   const NameTrie& trie) const {
    std::vector<std::uint64_t> sums(trie.size(), 0);
    for (const SiteSample& sample : samples) {
      trie.prefixes(site_names[index(sample.site)],
                    [&](std::size_t context) { sums[context] += sample.bytes; });
    }
    return sums;
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

// The useful heap at the peak: what the contexts' bytes at the peak add up
// to, as the end's do at the end.
std::uint64_t peak_heap(const Model& model) {
  std::optional<std::size_t> peak = peak_snapshot(model);
  return peak ? model.snapshots[*peak].heap : 0;
}

std::uint64_t end_heap(const Model& model) {
  return model.snapshots.empty() ? 0 : model.snapshots.back().heap;
}

// A side's suspects by the name of their headline, the call site the diff
// names them by ("Leak at frame_alloc"), whatever judged them: a finding
// from the lifetimes and a suspect from the curves of one leak match (a
// profile with lifetimes against one without, or --leaks-from), however
// their callers differ.  No two findings of a profile have the same headline
// function (they would be one); a suspect from the curves whose headline a
// more suspicious one has taken is keyed by its context's whole names.
std::map<Names, const Leak*> suspects(const Side& side) {
  std::map<Names, const Leak*> found;
  for (const Leak& leak : side.analysis.leaks.suspects) {
    Names names = names_of(side.model, side.analysis.contexts.contexts[leak.context].frames);
    bool headed = leak.headline < names.size();
    if (headed && found.emplace(Names{names[leak.headline]}, &leak).second) continue;
    found.emplace(std::move(names), &leak);
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

// A leak left behind by the cycles grows per cycle; a steady growth per
// time unit.  Its kind changes when that does, not with what judged it.
bool per_cycle(LeakKind kind) { return kind != LeakKind::steady_growth; }

DiffStatus status_of(const DiffLeak& leak, bool in_old, bool in_new) {
  if (!in_old) return DiffStatus::appeared;
  if (!in_new) return DiffStatus::vanished;
  double larger = std::max(std::abs(leak.old_growth_bytes), std::abs(leak.new_growth_bytes));
  bool moved = std::abs(leak.new_growth_bytes - leak.old_growth_bytes) > kGrowthChange * larger;
  bool kind = per_cycle(leak.old_kind) != per_cycle(leak.new_kind);
  return moved || kind ? DiffStatus::changed : DiffStatus::same;
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
  diff.peak = {peak_heap(old_model), peak_heap(new_model)};
  diff.end = {end_heap(old_model), end_heap(new_model)};
  NameTrie trie;
  std::vector<std::vector<Frame>> frames;  // the trie's context -> its frames
  for (auto& [names, first_frames] : context_keys(old_side, new_side)) {
    trie.add(names);
    frames.push_back(std::move(first_frames));
  }
  std::vector<std::uint64_t> old_peak = old_side.bytes(old_side.at_peak, trie),
                             new_peak = new_side.bytes(new_side.at_peak, trie),
                             old_end = old_side.bytes(old_side.at_end, trie),
                             new_end = new_side.bytes(new_side.at_end, trie);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    diff.contexts.push_back(
        {std::move(frames[i]), {old_peak[i], new_peak[i]}, {old_end[i], new_end[i]}});
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
