// SPDX-License-Identifier: GPL-2.0-or-later
// Leak findings: the structures whose memory the program keeps leaving
// behind, judged once (lifetime_leaks.hpp) from the lifetimes or, in a file
// without them, from the curves; docs/design.md, "Leak detection", gives
// the method and its parameters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "analyze/cycles.hpp"
#include "analyze/lifetime_leaks.hpp"
#include "analyze/series.hpp"
#include "model/model.hpp"

namespace strata {

// A finding is left_behind when the program's cycles (its markers) each
// left some of it behind, else steady_growth (a batch program's growth and a
// leak look alike there).
enum class LeakKind : std::uint8_t { steady_growth, left_behind };

// One point of a finding's floor, judged from the curves: the least it held
// from a snapshot to the horizon.
struct Trough {
  std::size_t snapshot = 0;  // index into Model::snapshots
  std::uint64_t time = 0;
  std::uint64_t bytes = 0;
};

// The evidence of a finding judged from the curves (find_curve_leaks).
struct CurveEvidence {
  Finding finding;              // its parts, sites and what they kept, read off the curves
  std::size_t cycles_left = 0;  // the cycles (of Leak::cycles) that left some behind
  std::vector<Trough> troughs;  // its floor where it rose, from its span's start to the horizon
  std::vector<std::uint64_t> site_kept;  // what each of finding.sites holds at the horizon
};

// The evidence of a finding from the lifetimes (find_lifetime_leaks).
struct LifetimeEvidence {
  Finding finding;              // its parts, sites and what they kept (lifetime_leaks.hpp)
  std::size_t cycles_left = 0;  // the cycles (of Leak::cycles) that left some behind
};

// A finding, from the lifetimes or from the curves: what both say, and the
// evidence of the line that judged it, chosen once where it is made.
// A finding's context holds all its sites; its `headline` indexes the frames
// of its main part's main site, its context's frames.
struct Leak {
  std::size_t context = 0;  // index into Contexts::contexts (contexts.hpp)
  LeakKind kind = LeakKind::steady_growth;
  double growth_bytes = 0;  // per cycle (left behind), per time unit (steady growth)
  std::size_t cycles = 0;   // the cycles (of Leaks::cycles) before the horizon
  std::uint64_t peak_bytes = 0;
  std::uint64_t end_bytes = 0;
  bool freed_before_exit = false;  // near zero at the end, after rising during the run
  double confidence = 0;           // in [0, 1]
  std::size_t headline = 0;        // index into its context's frames: the first in the
                                   // program's own code (own_code.hpp)
  std::variant<CurveEvidence, LifetimeEvidence> evidence;

  // The evidence of the curves; else null.
  const CurveEvidence* curves() const { return std::get_if<CurveEvidence>(&evidence); }
  // The finding, and the cycles that left some of it behind, from either line.
  const Finding& finding() const {
    return std::visit([](const auto& e) -> const Finding& { return e.finding; }, evidence);
  }
  std::size_t cycles_left() const {
    return std::visit([](const auto& e) { return e.cycles_left; }, evidence);
  }
};

struct Leaks {
  Cycles cycles;
  std::vector<Leak> suspects;   // the findings, the most kept first
  bool from_lifetimes = false;  // judged from the lifetimes, else from the curves
  // Judged from the curves though the profile has lifetimes: a forked child
  // whose own run holds too few of their epochs (lifetimes_judge_own_run).
  bool short_child = false;
  std::uint32_t horizon = 0;    // the horizon's epoch boundary
  // The time of each epoch boundary of the judgement: the lifetimes', or
  // the snapshots' with site data when judged from the curves alone.
  std::vector<std::uint64_t> boundaries;
  // Findings under the threshold's share of the peak, listed apart: no
  // context of their own (Leak::context is 0), the most kept first.
  std::vector<Leak> small;
  // The structures that keep bytes and are no finding, with why
  // (lifetime_leaks.hpp), the most kept first, but the small ones (as the
  // small findings are): what the report accounts for.
  std::vector<PassedOverStructure> passed_over;
};

// What `site`, one of `leak`'s, keeps: from the lifetimes its bytes born
// before the horizon and alive at it; from the curves what it holds at the
// horizon (CurveEvidence::site_kept).
std::uint64_t site_kept(const Model& model, const Leaks& leaks, const Leak& leak, SiteId site);

}  // namespace strata
