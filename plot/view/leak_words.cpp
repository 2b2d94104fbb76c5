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

namespace {

// A rise that starts after this share of the run says when it started.
constexpr double kLateStart = 0.1;

std::string bytes(std::uint64_t value) { return format_bytes(static_cast<double>(value)); }

}  // namespace

std::string finding_place(const Frame& frame) {
  std::string text = shown(short_function(frame_name(frame)));
  if (!frame.file.empty())
    text += " (" + shown(frame.file) + ":" + std::to_string(frame.line) + ")";
  return text;
}

namespace {

// "rose in 7 of 8 cycles" / "in 9 of 10 tenths of the run".
std::string rose_in(const Leak& leak, const CurveEvidence& curve) {
  std::size_t judged = curve.troughs.size() - (leak.kind == LeakKind::rising_trough ? 0 : 1);
  if (leak.kind == LeakKind::rising_trough) {
    return "its trough (the least it held in a cycle) rose in " + std::to_string(curve.rises) +
           " of " + std::to_string(judged) + " cycles";
  }
  if (curve.steps > 0) {
    return "its floor (the least it held from then on) rose in " + std::to_string(curve.steps) +
           " steps, each about " + short_number(curve.step_factor) +
           " times the rise before it (a buffer grown by a factor)";
  }
  return "its floor (the least it held from then on) rose in " + std::to_string(curve.rises) +
         " of " + std::to_string(judged) + " " + (judged == 10 ? "tenths" : "parts") +
         " of the run";
}

std::string ending(const Leak& leak) {
  if (leak.freed_before_exit) return ", and was given back only at exit";
  if (leak.end_bytes > 0) return ", and " + bytes(leak.end_bytes) + " is still held at the end";
  return "";
}

}  // namespace

std::string growth_rate(LeakKind kind, double growth_bytes, const std::string& time_unit,
                        double end_time) {
  if (kind == LeakKind::rising_trough || kind == LeakKind::left_behind) {
    return "+" + format_bytes(growth_bytes) + " per cycle";
  }
  Scale scale = time_scale(time_unit, end_time);
  return "+" + format_bytes(growth_bytes * scale.divisor) + " per " + scale.unit;
}

std::string growth_rate(const Leak& leak, const std::string& time_unit, double end_time) {
  return growth_rate(leak.kind, leak.growth_bytes, time_unit, end_time);
}

std::string leak_why(const Leak& leak, const std::string& time_unit, double end_time) {
  const CurveEvidence* curve = leak.curves();
  if (!curve || curve->troughs.empty()) return "";
  const Trough &first = curve->troughs.front(), &last = curve->troughs.back();
  auto at = [&](const Trough& t) {
    return " (at " + format_time(time_unit, static_cast<double>(t.time)) + ")";
  };
  std::string text = rose_in(leak, *curve) + ", from " + bytes(first.bytes);
  if (static_cast<double>(first.time) > kLateStart * end_time) text += at(first);
  text += " to " + bytes(last.bytes) + at(last) + ", about ";
  if (leak.kind == LeakKind::rising_trough) {
    text += format_bytes(leak.growth_bytes) + " a cycle";
  } else {
    text += growth_rate(leak, time_unit, end_time).substr(1);
  }
  return text + ending(leak);
}

std::string finding_why(const Model& model, const Leak& leak, const Cycles& cycles) {
  const LifetimeEvidence& life = std::get<LifetimeEvidence>(leak.evidence);
  const Finding& f = life.finding;
  std::string text = "kept ";
  for (std::size_t q = 0; q < f.retention.size(); ++q) {
    if (q > 0) text += q + 1 == f.retention.size() ? " and " : ", ";
    text += fixed(100 * f.retention[q], 0) + "%";
  }
  std::uint32_t horizon = static_cast<std::uint32_t>(f.kept_by_epoch.size());
  text += " of what it made in each " + std::string(f.retention.size() == 4 ? "quarter" : "part") +
          " of its part of the run (" + run_range(model, f.first_epoch, horizon) + ")";
  if (leak.cycles > 0) {
    std::string each = cycles.source == CycleSource::markers
                           ? "each cycle (marker " + shown(cycles.label) + ")"
                           : "each cycle (the heap's rhythm)";
    text += "; " + each + " left about " +
            format_bytes(static_cast<double>(f.kept_bytes) /
                         static_cast<double>(std::max<std::size_t>(life.cycles_left, 1))) +
            " behind, " + std::to_string(life.cycles_left) + " of " + std::to_string(leak.cycles) +
            " cycles";
  }
  return text;
}

std::string passed_over_words(const Model& model, const PassedOverStructure& p,
                              std::uint32_t horizon) {
  const PassedOver& why = p.why;
  std::string born = run_range(model, why.first_kept, horizon) + " of the run";
  auto at = [&](std::uint32_t epoch) {
    return fixed(std::round(percent_of_run(model, epoch)), 0) + "% of the run";
  };
  switch (why.reason) {
    case PassedOver::Reason::few_blocks:
      return "kept " + std::to_string(p.kept_blocks) + (p.kept_blocks == 1 ? " block" : " blocks") +
             ", fewer than " +
             std::to_string(kMinBlocks) + ": too few to tell a trend from chance";
    case PassedOver::Reason::short_span:
      return "what it keeps was born in " + born + ", fewer than " + std::to_string(kMinSpan) +
             " epochs of work: too short to judge";
    case PassedOver::Reason::replaced:
      return "its floor rose with " + fixed(100 * why.matched, 0) +
             "% of what it keeps beyond its working set (born in " + born +
             "): its entries are replaced, as a cache's or a fixed key space's are";
    case PassedOver::Reason::levels_off:
      return "levels off at " + at(why.level_epoch) + ": what it keeps was born before";
    case PassedOver::Reason::newest_only:
      return "what it keeps was born after " + at(why.level_epoch) +
             ": its newest entries, as a cache keeps them";
    case PassedOver::Reason::turnover:
      return "what it keeps replaces what another place gives back (one band falls as it rises)";
    case PassedOver::Reason::gap:
      return "what it leaves behind was born in none of " + run_range(model, why.level_epoch, why.gap_end) +
             " of the run: not all through it";
    case PassedOver::Reason::none:
      break;
  }
  return "";
}

std::string finding_words(const Model& model, const Leak& leak, const std::string& holder) {
  const Finding& f = std::get<LifetimeEvidence>(leak.evidence).finding;
  // The parts by headline function, each with its share of the kept bytes.
  std::map<std::string, std::uint64_t> by_function;
  std::vector<std::string> order;
  for (const FindingPart& part : f.parts) {
    std::string name = part.frames.empty()
                           ? "(no stack)"
                           : short_function(frame_name(model.frame(part.frames.back())));
    if (by_function.try_emplace(name, 0).second) order.push_back(name);
    by_function[name] += part.kept_bytes;
  }
  std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
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

std::string growth_words(const Leak& leak) {
  std::string end = leak.freed_before_exit ? "is freed only at exit" : "is still held at the end";
  return "grows for the whole run and " + end +
         ": a leak if this program should reach a steady state";
}

}  // namespace strata
