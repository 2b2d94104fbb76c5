// SPDX-License-Identifier: GPL-2.0-or-later
// The headline policy (headlines.hpp).
#include "analyze/headlines.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

namespace strata {

namespace {

// Each frame's function's distinct callers over `stacks` (the unnamed counting once).
template <typename Stacks>
std::vector<std::size_t> fan_in(const Model& model, const Stacks& stacks) {
  std::map<std::string_view, std::set<std::string_view>> callers;
  for (const std::vector<FrameId>& frames : stacks) {
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) {
      const Frame& inner = model.frame(frames[i]);
      const Frame& outer = model.frame(frames[i + 1]);
      // A recursive call is no caller of its own (render_template calling itself).
      if (inner.function.empty() || inner.function == outer.function) continue;
      callers[inner.function].insert(outer.function.empty() ? std::string_view() : outer.function);
    }
  }
  std::vector<std::size_t> out;
  out.reserve(model.frames.size());
  for (const Frame& frame : model.frames) {
    auto at = frame.function.empty() ? callers.end() : callers.find(frame.function);
    out.push_back(at == callers.end() ? 0 : at->second.size());
  }
  return out;
}

// Whether each site's blocks are of more than one size, as its samples and
// its lifetime cells show them (bytes against blocks); false when no sample
// counts blocks (a massif.out file).
std::vector<bool> sizes_vary(const Model& model) {
  std::vector<std::uint64_t> size(model.sites.size(), 0);  // 0: none seen yet
  std::vector<bool> vary(model.sites.size(), false);
  auto see = [&](std::size_t site, std::uint64_t bytes, std::uint64_t blocks) {
    if (blocks == 0 || vary[site]) return;
    if (bytes % blocks != 0 || (size[site] != 0 && size[site] != bytes / blocks)) {
      vary[site] = true;
    } else {
      size[site] = bytes / blocks;
    }
  };
  for (const Snapshot& snapshot : model.snapshots) {
    for (const SiteSample& sample : snapshot.sites) {
      if (index(sample.site) < vary.size()) see(index(sample.site), sample.bytes, sample.blocks);
    }
  }
  for (std::size_t site = 0; site < model.sites.size(); ++site) {
    for (const LifetimeCell& cell : model.sites[site].cells) see(site, cell.bytes, cell.blocks);
  }
  return vary;
}

}  // namespace

FindingHeadlines::FindingHeadlines(const Model& model, const OwnCode& own) : model_(model) {
  library_.reserve(model.frames.size());
  own_source_.reserve(model.frames.size());
  for (const Frame& frame : model.frames) {
    library_.push_back(own.library(frame));
    own_source_.push_back(own.own_source(frame));
  }
  std::vector<std::vector<FrameId>> site_stacks;
  site_stacks.reserve(model.sites.size());
  for (const Site& site : model.sites) site_stacks.push_back(site.frames);
  fan_in_ = fan_in(model, site_stacks);
  free_fan_in_ = fan_in(model, model.lifetimes.free_stacks_frames);
  // A method of a class named for an allocator, a pool or an arena is the
  // program's allocator (allocator_class).  A function named as one is
  // when it hands out blocks of more than one size (over the sites whose
  // stacks hold it) or allocates for two functions or more; one that
  // builds blocks of one size for one caller is a constructor (frame_alloc),
  // the code of one structure.
  // The blocks' sizes are read only for the functions they decide.
  std::set<std::string_view> undecided;  // named so, one caller, not of such a class
  named_allocator_.reserve(model.frames.size());
  for (std::size_t id = 0; id < model.frames.size(); ++id) {
    const std::string& function = model.frames[id].function;
    bool by_class = allocator_class(function);
    bool by_name = !by_class && allocator_named(function);
    bool builds = !by_class && !by_name && constructor(function);
    named_allocator_.push_back(by_class || ((by_name || builds) && fan_in_[id] >= 2));
    if (by_name && !named_allocator_.back()) undecided.insert(function);
  }
  if (undecided.empty()) return;
  std::vector<bool> vary = sizes_vary(model);
  std::set<std::string_view> varied;
  for (std::size_t site = 0; site < model.sites.size(); ++site) {
    if (!vary[site]) continue;
    for (FrameId id : model.sites[site].frames) {
      if (undecided.contains(model.frame(id).function)) varied.insert(model.frame(id).function);
    }
  }
  for (std::size_t id = 0; id < model.frames.size(); ++id) {
    if (varied.contains(model.frames[id].function)) named_allocator_[id] = true;
  }
}

bool FindingHeadlines::library(std::span<const FrameId> frames, std::size_t i) const {
  for (; i < frames.size(); ++i) {
    if (library_[index(frames[i])]) return true;
    if (!model_.frame(frames[i]).inlined) return false;
  }
  return false;
}

bool FindingHeadlines::generic(FrameId id) const {
  const Frame& frame = model_.frame(id);
  if (frame.function.empty()) return true;  // an unnamed frame cannot be a headline
  return library_function(frame.function) || fan_in_[index(id)] >= kWrapperFanIn;
}

std::size_t FindingHeadlines::headline(std::span<const FrameId> frames) const {
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Frame& frame = model_.frame(frames[i]);
    bool known = !frame.function.empty() || !frame.object.empty();
    // The program's source counted as a library's only for what it is
    // inlined into (std::thread's _M_run) is its own.
    bool inlined_own = own_source_[index(frames[i])] && !library_[index(frames[i])];
    if (!known || (library(frames, i) && !inlined_own)) continue;
    std::size_t head = past_wrappers(frames, i);
    // The program's allocation hook, called by a library (an allocator it
    // installed in it): frames[i] calls the allocator, through its wrappers
    // only, and a library calls it.  The headline is the own code that
    // called the library.
    std::size_t j = head + 1;
    if (j >= frames.size() || !library(frames, j) ||
        !std::all_of(frames.begin(), frames.begin() + i,
                     [&](FrameId k) { return library_function(model_.frame(k).function); })) {
      return head;
    }
    while (j < frames.size() && (library(frames, j) || model_.frame(frames[j]).function.empty())) ++j;
    if (j >= frames.size() || model_.frame(frames[j]).function == "main") return head;
    return past_wrappers(frames, j);
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (own_source_[index(frames[i])]) return i;  // inlined into the library's code
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (!generic(frames[i])) return i;
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (!model_.frame(frames[i]).function.empty()) return i;
  }
  return 0;
}

bool FindingHeadlines::library_made(std::span<const FrameId> frames, std::size_t head) const {
  if (head >= frames.size()) return false;
  std::string_view program = model_.frame(frames[head]).object;
  // The C and C++ runtime's strings and containers hold the program's own data.
  auto runtime = [](std::string_view object) {
    std::string_view name = object.substr(object.rfind('/') + 1);
    return name.starts_with("libstdc++") || name.starts_with("libc.so") ||
           name.starts_with("libc-") || name.starts_with("ld-linux");
  };
  for (std::size_t i = 0; i < head; ++i) {
    const Frame& frame = model_.frame(frames[i]);
    if (frame.object.empty() || frame.object == program || runtime(frame.object)) continue;
    if (library(frames, i) && !library_function(frame.function)) return true;
  }
  return false;
}

std::size_t FindingHeadlines::past_wrappers(std::span<const FrameId> frames, std::size_t i) const {
  // Whether frames[j]'s caller may be a headline: the program's own, not main.
  auto passes_on = [&](std::size_t j) {
    return j + 1 < frames.size() && !library(frames, j + 1) &&
           model_.frame(frames[j + 1]).function != "main";
  };
  for (;;) {
    // The chain of functions with one caller each, from i, up to one named
    // as an allocator.
    std::size_t top = i;
    while (fan_in_[index(frames[top])] == 1 && !named_allocator_[index(frames[top])] &&
           passes_on(top)) {
      ++top;
    }
    bool wrapper = fan_in_[index(frames[top])] >= kWrapperFanIn || named_allocator_[index(frames[top])];
    if (!wrapper || !passes_on(top)) return i;
    i = top + 1;
  }
}

std::size_t FindingHeadlines::holder(std::span<const FrameId> frames) const {
  std::optional<std::size_t> first, outermost;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Frame& frame = model_.frame(frames[i]);
    bool known = !frame.function.empty() || !frame.object.empty();
    if (!known || library(frames, i)) continue;
    if (!first) first = i;
    if (frame.function != "main") outermost = i;
  }
  if (outermost) return *outermost;
  if (first) return *first;
  return headline(frames);
}

std::optional<std::size_t> FindingHeadlines::freer(std::span<const FrameId> frames) const {
  std::optional<std::size_t> first;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Frame& frame = model_.frame(frames[i]);
    bool known = !frame.function.empty() || !frame.object.empty();
    if (!known || library(frames, i)) continue;
    if (free_fan_in_[index(frames[i])] < kWrapperFanIn) return i;
    if (!first) first = i;
  }
  return first;
}

std::optional<std::size_t> FindingHeadlines::builder(std::span<const FrameId> frames,
                                                     std::size_t head) const {
  for (std::size_t i = head + 1; i < frames.size(); ++i) {
    const Frame& frame = model_.frame(frames[i]);
    if (frame.function.empty()) continue;
    if (frame.function == "main" || library(frames, i)) return std::nullopt;
    return i;
  }
  return std::nullopt;
}

std::optional<std::vector<std::size_t>> FindingHeadlines::own_frames(
    std::span<const FrameId> frames, std::size_t head) const {
  if (head >= frames.size() || model_.frame(frames[head]).function.empty() || library(frames, head)) {
    return std::nullopt;
  }
  std::vector<std::size_t> out;
  bool called_back = false;  // a library's frame beyond the headline
  for (std::size_t i = head; i < frames.size(); ++i) {
    const Frame& frame = model_.frame(frames[i]);
    if (frame.function == "main") break;
    if (library(frames, i)) {
      called_back = called_back || i > head;
    } else if (!frame.function.empty()) {
      out.push_back(i);
    }
  }
  // A callback whose only own frame is the headline: the code that builds
  // it is the library's loop (libuv's, a thread's start), which says nothing.
  if (called_back && out.size() == 1) return std::nullopt;
  return out;
}

}  // namespace strata
