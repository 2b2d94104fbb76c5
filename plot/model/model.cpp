// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/model.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <numeric>
#include <string_view>

namespace strata {

const Option* recorded_option(const Model& model, std::string_view name) {
  auto option = std::find_if(model.header.options.rbegin(), model.header.options.rend(),
                             [&](const Option& o) { return o.name == name; });
  return option == model.header.options.rend() ? nullptr : &*option;
}

std::optional<std::size_t> recorded_depth(const Model& model) {
  const Option* option = recorded_option(model, "depth");
  if (option == nullptr) return std::nullopt;
  std::size_t depth = 0;
  auto [end, error] = std::from_chars(option->value.data(),
                                      option->value.data() + option->value.size(), depth);
  if (error != std::errc() || end != option->value.data() + option->value.size() || depth == 0) {
    return std::nullopt;
  }
  return depth;
}

std::optional<std::size_t> cut_at_depth(const Model& model, const std::vector<FrameId>& frames) {
  std::optional<std::size_t> depth = recorded_depth(model);
  if (!depth || frames.empty()) return std::nullopt;
  std::size_t called = 0;  // the frames that are calls (an address each), not inlined ones
  for (FrameId id : frames) called += model.frame(id).inlined ? 0 : 1;
  if (called < *depth) return std::nullopt;
  static constexpr std::array<std::string_view, 9> kStarts = {
      "main",  "_start", "__libc_start_main", "__libc_start_call_main", "start_thread",
      "clone", "clone3", "(below main)",      "thread_start"};
  std::string_view outermost = model.frame(frames.back()).function;
  if (std::find(kStarts.begin(), kStarts.end(), outermost) != kStarts.end()) return std::nullopt;
  return depth;
}

std::optional<std::size_t> peak_snapshot(const Model& model) {
  const std::vector<Snapshot>& snapshots = model.snapshots;
  if (snapshots.empty()) return std::nullopt;
  std::size_t largest = 0;
  for (std::size_t i = 1; i < snapshots.size(); ++i) {
    if (snapshots[i].total() > snapshots[largest].total()) largest = i;
  }
  for (std::size_t i = snapshots.size(); i-- > 0;) {
    if (snapshots[i].kind != SnapshotKind::peak) continue;
    bool overtaken = model.cut_short && snapshots[largest].total() > snapshots[i].total();
    return overtaken ? largest : i;
  }
  return largest;
}

namespace {

// The state of every site before the first snapshot: nothing held.
std::vector<SiteSample> empty_state(const Model& model) {
  std::vector<SiteSample> state(model.sites.size());
  for (std::size_t i = 0; i < state.size(); ++i) state[i].site = static_cast<SiteId>(i);
  return state;
}

void apply(std::vector<SiteSample>& state, const Snapshot& snapshot) {
  for (const SiteSample& sample : snapshot.sites) state[index(sample.site)] = sample;
}

// The state after the chain snapshots before `end`, every site steady since.
std::vector<SiteSample> state_before(const Model& model, std::size_t end) {
  std::vector<SiteSample> state = empty_state(model);
  for (std::size_t i = 0; i < end; ++i) {
    if (model.snapshots[i].site_data == SiteData::changes) apply(state, model.snapshots[i]);
  }
  for (SiteSample& sample : state) sample.min = sample.max = sample.bytes;
  return state;
}

}  // namespace

std::vector<SiteSample> sites_at(const Model& model, std::size_t snapshot) {
  const Snapshot& at = model.snapshots.at(snapshot);
  if (at.site_data == SiteData::complete) return at.sites;
  std::vector<SiteSample> state = state_before(model, snapshot);
  if (at.site_data == SiteData::changes) apply(state, at);
  std::erase_if(state, [](const SiteSample& s) { return s.bytes == 0 && s.blocks == 0; });
  return state;
}

std::optional<std::size_t> site_data_source(const Model& model, std::size_t snapshot) {
  for (std::size_t i = snapshot + 1; i-- > 0;) {
    SiteData data = model.snapshots.at(i).site_data;
    if (i == snapshot ? data != SiteData::none : data == SiteData::changes) return i;
  }
  return std::nullopt;
}

namespace {

// The byte of a sample's site id that one pass of the radix sort orders by.
std::size_t site_byte(const SiteSample& sample, unsigned shift) {
  return (index(sample.site) >> shift) & 0xff;
}

}  // namespace

void sort_by_site(std::vector<SiteSample>& samples, std::vector<SiteSample>& scratch) {
  constexpr std::size_t kFew = 64;  // fewer are sorted by comparisons
  if (samples.size() < kFew) {
    std::sort(samples.begin(), samples.end(),
              [](const SiteSample& a, const SiteSample& b) { return a.site < b.site; });
    return;
  }
  std::size_t largest = 0;
  for (const SiteSample& sample : samples) largest = std::max(largest, index(sample.site));
  scratch.resize(samples.size());
  for (unsigned shift = 0; shift < 32 && (largest >> shift) != 0; shift += 8) {
    std::array<std::size_t, 257> start{};  // byte -> where its samples go, from start[byte + 1]
    for (const SiteSample& sample : samples) ++start[site_byte(sample, shift) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (const SiteSample& sample : samples) scratch[start[site_byte(sample, shift)]++] = sample;
    samples.swap(scratch);
  }
}

std::vector<Frame> frames_of(const Model& model, const std::vector<FrameId>& ids) {
  std::vector<Frame> frames;
  for (FrameId id : ids) frames.push_back(model.frame(id));
  return frames;
}

// ---- the lifetimes' clock -------------------------------------------------------------

namespace {

// a + (x - x0) * (b - a) / (x1 - x0), for x0 <= x < x1, rounded down.
std::uint64_t interpolate(std::uint64_t x, std::uint64_t x0, std::uint64_t x1, std::uint64_t a,
                          std::uint64_t b) {
  if (x1 <= x0 || b <= a) return a;
  auto step = static_cast<unsigned __int128>(x - x0) * (b - a) / (x1 - x0);
  return a + static_cast<std::uint64_t>(step);
}

}  // namespace

std::uint64_t Lifetimes::time_at(std::uint64_t tick) const {
  if (tick_unit.empty()) return tick;
  if (clock.empty()) return 0;
  auto after = std::upper_bound(clock.begin(), clock.end(), tick,
                                [](std::uint64_t t, const auto& c) { return t < c.first; });
  if (after == clock.begin()) return clock.front().second;
  if (after == clock.end()) return clock.back().second;
  auto before = std::prev(after);
  return interpolate(tick, before->first, after->first, before->second, after->second);
}

std::uint64_t Lifetimes::tick_at(std::uint64_t time) const {
  if (tick_unit.empty()) return time;
  if (clock.empty()) return t0;
  auto at = std::lower_bound(clock.begin(), clock.end(), time,
                             [](const auto& c, std::uint64_t t) { return c.second < t; });
  if (at == clock.begin()) return clock.front().first;
  if (at == clock.end()) {
    // After the last record: at the run's mean pace.
    const auto& [first_tick, first_time] = clock.front();
    const auto& [last_tick, last_time] = clock.back();
    if (last_time <= first_time) return last_tick;
    auto more = static_cast<unsigned __int128>(time - last_time) * (last_tick - first_tick) /
                (last_time - first_time);
    return last_tick +
           static_cast<std::uint64_t>(std::min<unsigned __int128>(more, UINT64_MAX - last_tick));
  }
  auto before = std::prev(at);
  return interpolate(time, before->second, at->second, before->first, at->first);
}

}  // namespace strata
