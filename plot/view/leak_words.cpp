// SPDX-License-Identifier: GPL-2.0-or-later
#include "view/leak_words.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/frame_names.hpp"
#include "util/shown.hpp"
#include "util/units.hpp"
#include "view/lifetime_words.hpp"

namespace strata {

std::string finding_place(const Frame& frame) {
  std::string text = shown(short_function(frame_name(frame)));
  if (!frame.file.empty())
    text += " (" + shown(frame.file) + ":" + std::to_string(frame.line) + ")";
  return text;
}

std::string growth_rate(LeakKind kind, double growth_bytes, const std::string& time_unit,
                        double end_time) {
  if (kind == LeakKind::left_behind) {
    return "+" + format_bytes(growth_bytes) + " per cycle";
  }
  Scale scale = time_scale(time_unit, end_time);
  return "+" + format_bytes(growth_bytes * scale.divisor) + " per " + scale.unit;
}

std::string growth_rate(const Leak& leak, const std::string& time_unit, double end_time) {
  return growth_rate(leak.kind, leak.growth_bytes, time_unit, end_time);
}

std::string finding_why(const Model& model, const Leak& leak, const Leaks& leaks) {
  const Cycles& cycles = leaks.cycles;
  const Finding& f = leak.finding();
  std::uint32_t horizon = static_cast<std::uint32_t>(f.kept_by_epoch.size());
  std::uint32_t end = f.span_end();
  std::string range = run_range(model, leaks.boundaries, f.first_epoch, end);
  std::string text;
  if (!leaks.from_lifetimes) {
    // From the curves: the intervals in which its floor rose.
    std::size_t rose = 0;
    for (std::uint32_t e = f.first_epoch; e < horizon; ++e) rose += f.kept_by_epoch[e] > 0;
    text = "its floor rose in " + std::to_string(rose) + " of the " +
           std::to_string(horizon - f.first_epoch) +
           " intervals between snapshots of its part of the run (" + range + ")";
  } else {
    text = "kept ";
    for (std::size_t q = 0; q < f.retention.size(); ++q) {
      if (q > 0) text += q + 1 == f.retention.size() ? " and " : ", ";
      text += fixed(100 * f.retention[q], 0) + "%";
    }
    text += " of what it made in each " +
            std::string(f.retention.size() == 4 ? "quarter" : "part") + " of its part of the run (" +
            range + ")";
    if (end < horizon) text += ", after which its code made nothing";
  }
  if (leak.cycles > 0) {
    std::string each = cycles.source == CycleSource::markers
                           ? "each cycle (marker " + shown(cycles.label) + ")"
                           : "each cycle (the heap's rhythm)";
    text += "; " + each + " left about " +
            format_bytes(static_cast<double>(f.kept_bytes) /
                         static_cast<double>(std::max<std::size_t>(leak.cycles_left(), 1))) +
            " behind, " + std::to_string(leak.cycles_left()) + " of " + std::to_string(leak.cycles) +
            " cycles";
  }
  return text;
}

std::string passed_over_words(const Model& model, const PassedOverStructure& p,
                              const Leaks& leaks) {
  const PassedOver& why = p.why;
  const std::vector<std::uint64_t>& clock = leaks.boundaries;
  bool curves = !leaks.from_lifetimes;
  std::string born = run_range(model, clock, why.first_kept, leaks.horizon) + " of the run";
  auto at = [&](std::uint32_t epoch) {
    return fixed(std::round(percent_of_run(model, clock, epoch)), 0) + "% of the run";
  };
  switch (why.reason) {
    case PassedOver::Reason::few_blocks:
      if (curves) {
        return "its floor rose too seldom, its working set set aside, to tell a trend from "
               "chance or from a band that only comes and goes";
      }
      if (why.draws < why.left_blocks) {  // born together: fewer events than blocks
        std::string behind = why.left_blocks < p.kept_blocks
                                 ? ", " + std::to_string(why.left_blocks) + " behind its working set"
                                 : "";
        return "kept " + std::to_string(p.kept_blocks) + " blocks" + behind +
               ", born together: " + std::to_string(why.draws) +
               " events as the chance tests count them (an epoch at most twice the median "
               "epoch), fewer than " +
               std::to_string(kMinBlocks) + ": too few to tell a trend from chance";
      }
      if (why.left_blocks < p.kept_blocks) {  // the rest is its working set at the end
        return "kept " + std::to_string(p.kept_blocks) + " blocks, " +
               std::to_string(why.left_blocks) + " behind its working set, fewer than " +
               std::to_string(kMinBlocks) + ": too few to tell a trend from chance";
      }
      return "kept " + std::to_string(p.kept_blocks) + (p.kept_blocks == 1 ? " block" : " blocks") +
             ", fewer than " +
             std::to_string(kMinBlocks) + ": too few to tell a trend from chance";
    case PassedOver::Reason::short_span:
      return "what it keeps was born in " + born + ", fewer than " + std::to_string(why.least_span) +
             (curves ? " intervals between snapshots" : " epochs of work") + ": too short to judge";
    case PassedOver::Reason::replaced:
      return "its floor rose with " + fixed(100 * why.matched, 0) +
             "% of what it keeps beyond its working set (born in " + born +
             "): its entries are replaced, as a cache's or a fixed key space's are";
    case PassedOver::Reason::levels_off:
      return "levels off at " + at(why.level_epoch) + ": what it keeps was born before";
    case PassedOver::Reason::high_water:
      return "its floor rose as seldom as a band's that only comes and goes, and little after " +
             at(why.level_epoch) + ": a high-water mark (a buffer grown to its largest use)";
    case PassedOver::Reason::newest_only:
      return "what it keeps was born after " + at(why.level_epoch) +
             ": its newest entries, as a cache keeps them";
    case PassedOver::Reason::turnover:
      return "what it keeps replaces what another place gives back (one band falls as it rises)";
    case PassedOver::Reason::gap:
      return "what it leaves behind was born in none of " +
             run_range(model, clock, why.level_epoch, why.gap_end) +
             " of the run: not all through it";
    case PassedOver::Reason::forked: {
      // At the first fork's time, in percent of the run as the clock counts it.
      auto first =
          std::min_element(model.forks.begin(), model.forks.end(),
                           [](const Marker& a, const Marker& b) { return a.time < b.time; });
      double percent = percent_at(model, clock, first == model.forks.end() ? 0 : first->time);
      return "what it keeps was born before the process first forked, at " +
             fixed(std::round(percent), 0) +
             "% of the run: what its children inherit, their start-up";
    }
    case PassedOver::Reason::none:
      break;
  }
  return "";
}

std::string finding_words(const Model& model, const Leak& leak, const std::string& holder) {
  const Finding& f = leak.finding();
  // The parts by headline function, each with its share of the kept bytes
  // (the main part first: its function is the first in `order`).
  std::map<std::string, std::uint64_t> by_function;
  std::vector<std::string> order;
  for (const FindingPart& part : f.parts) {
    std::string name = part.frames.empty()
                           ? "(no stack)"
                           : short_function(frame_name(model.frame(part.frames.back())));
    if (by_function.try_emplace(name, 0).second) order.push_back(name);
    by_function[name] += part.kept_bytes;
  }
  // The main part's first (where the words place it), then the most kept.
  std::stable_sort(order.begin() + 1, order.end(), [&](const std::string& a, const std::string& b) {
    return by_function[a] > by_function[b];
  });
  auto share = [&](std::uint64_t bytes) {
    return fixed(f.kept_bytes > 0 ? 100.0 * static_cast<double>(bytes) / f.kept_bytes : 0, 0) + "%";
  };
  const FindingPart& main = f.parts.front();
  const Site& site = model.site(main.main_site);
  std::string where = "(no stack)";
  // The headline ends the main part's frames; the main site's stack goes on from it.
  std::size_t headline = main.frames.empty() ? site.frames.size() : main.frames.size() - 1;
  if (headline < site.frames.size()) {
    where = finding_place(model.frame(site.frames[headline]));
    // and its first named caller
    for (std::size_t i = headline + 1; i < site.frames.size(); ++i) {
      const Frame& caller = model.frame(site.frames[i]);
      if (caller.function.empty()) continue;
      where += " <- " + shown(short_function(frame_name(caller)));
      break;
    }
  }
  std::string text = "memory left behind all through the run: " + counted(f.parts.size(), "place") +
                     ", " + format_bytes(static_cast<double>(f.kept_bytes)) + ", " +
                     share(by_function[order.front()]) + " at " + where;
  for (std::size_t i = 1; i < order.size() && i < 4; ++i) {
    if (100 * by_function[order[i]] < f.kept_bytes) break;  // under 1%
    text += ", " + share(by_function[order[i]]) + " at " + shown(order[i]);
  }
  if (f.freed_at_exit()) {
    text += "; kept until exit, freed " + (holder.empty() ? std::string("then") : "by " + holder);
  } else {
    text += "; never freed";
  }
  if (leak.kind == LeakKind::steady_growth)
    text += ": a leak if this program should reach a steady state";
  return text;
}

}  // namespace strata
