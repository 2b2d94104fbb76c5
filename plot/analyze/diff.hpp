// SPDX-License-Identifier: GPL-2.0-or-later
// strata diff OLD NEW: two profiles of the same program compared, such as
// before and after a fix.
//
// Addresses and line numbers change from one build to the next, so the two
// are matched by names: a context is the names of its frames (frame_name),
// and it is measured in each profile as the sites whose stacks start with
// those names.  The contexts compared are those of either profile's report
// (the calling-context tree's, with the same options), other than "N other
// places" and the rest of a split; a leak suspect, from the lifetimes or
// from the curves, is matched by the name of its headline, as the diff
// names it (the whole names of its context when a more suspicious one of
// its profile has that headline).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyze/contexts.hpp"
#include "analyze/leaks.hpp"
#include "model/model.hpp"

namespace strata {

// A measure in the old profile and in the new.
struct DiffBytes {
  std::uint64_t old_bytes = 0;
  std::uint64_t new_bytes = 0;

  std::int64_t change() const {
    return static_cast<std::int64_t>(new_bytes) - static_cast<std::int64_t>(old_bytes);
  }
};

struct DiffContext {
  std::vector<Frame> frames;  // innermost first, as the profile that has it names them
  DiffBytes peak;             // at each profile's peak
  DiffBytes end;              // at each profile's last snapshot
};

enum class DiffStatus : std::uint8_t { appeared, vanished, changed, same };

struct DiffLeak {
  DiffStatus status = DiffStatus::same;
  LeakKind old_kind = LeakKind::steady_growth;  // when it was a suspect in OLD
  LeakKind new_kind = LeakKind::steady_growth;  // when it is a suspect in NEW
  std::vector<Frame> frames;                    // its context's, innermost first
  std::size_t headline = 0;                     // index into frames (own_code.hpp)
  double old_growth_bytes = 0;                  // per cycle or per time unit (Leak::growth_bytes);
  double new_growth_bytes = 0;                  // 0 when not a suspect there
};

struct Diff {
  std::string old_file;
  std::string new_file;
  std::string old_time_unit;  // each profile's time unit and end (for a growth's rate)
  std::string new_time_unit;
  std::uint64_t old_end_time = 0;
  std::uint64_t new_end_time = 0;
  bool same_time_unit = true;
  DiffBytes peak;                     // the useful heap at the peaks
  DiffBytes end;                      // the useful heap at the last snapshots
  std::vector<DiffContext> contexts;  // the largest change at the peak first, then at the end
  std::vector<DiffLeak> leaks;        // appeared, vanished, changed, same
};

// A growth that moved by more than this share of the larger is "changed".
constexpr double kGrowthChange = 0.25;

Diff diff_profiles(const Model& old_model, const Model& new_model, const ContextOptions& options);

}  // namespace strata
