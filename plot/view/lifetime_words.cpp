// SPDX-License-Identifier: GPL-2.0-or-later
// The words of the lifetimes (lifetime_words.hpp).
#include "view/lifetime_words.hpp"

#include <algorithm>
#include <cmath>

#include "model/frame_names.hpp"
#include "util/units.hpp"

namespace strata {

namespace {

std::string unit_name(const Model& model) {
  const std::string& unit = model.header.time_unit;
  return unit.empty() ? "time units" : unit;
}

// "128 B", "65,536 i": an epoch's length and its tick.
std::string epoch_length_words(const Model& model) {
  const Lifetimes& l = model.lifetimes;
  return grouped(l.epoch_length) + " " + (l.tick_unit.empty() ? unit_name(model) : l.tick_unit);
}

}  // namespace

namespace {

// Where time `at` falls, in percent of the run from `start` to its end.
double percent_from(const Model& model, std::uint64_t start, std::uint64_t at) {
  std::uint64_t t0 = std::min(start, model.end_time);
  double span = static_cast<double>(std::max<std::uint64_t>(model.end_time - t0, 1));
  return std::min(100.0, 100.0 * static_cast<double>(at > t0 ? at - t0 : 0) / span);
}

}  // namespace

double percent_of_run(const Model& model, std::uint32_t k) {
  return percent_from(model, model.lifetimes.start(), boundary_time(model, k));
}

std::string lifetimes_words(const Model& model) {
  if (!model.has_lifetimes) {
    return "no lifetimes in this file (" + why_no_lifetimes(model) +
           "): when bytes were born and who freed them is not known";
  }
  const Lifetimes& l = model.lifetimes;
  bool stacks = std::any_of(model.header.options.begin(), model.header.options.end(),
                            [](const Option& o) { return o.name == "stacks" && o.value == "yes"; });
  std::string no_stacks = stacks ? "; the stacks (--stacks=yes) have no lifetimes" : "";
  if (l.epochs == 0) return "no epoch recorded (no heap operation)" + no_stacks;
  return counted(l.epochs, "epoch") + " of " + epoch_length_words(model) + " from time " +
         grouped(l.start()) + ", " +
         (l.free_stacks ? "free stacks known" : "free stacks not recorded (--free-stacks=no)") +
         no_stacks;
}

namespace {

std::string selected_range(const Model& model, const Selection& s, const std::string& at_end) {
  std::string at = s.at >= model.lifetimes.epochs ? at_end : grouped(boundary_time(model, s.at));
  std::string to = s.to >= model.lifetimes.epochs ? "the end" : grouped(boundary_time(model, s.to));
  return "bytes born in [" + grouped(boundary_time(model, s.from)) + ", " + to + ") and alive at " +
         at;
}

}  // namespace

std::string selection_words(const Model& model, const Selection& s) {
  return selected_range(model, s, "the end of the run (never freed)") +
         ", to the lifetimes' epochs of " + epoch_length_words(model);
}

std::string selection_title(const Model& model, const Selection& s) {
  return selected_range(model, s, "the end");
}

namespace {

std::string percent_range(double from, double to) {
  auto low = static_cast<long>(std::floor(from));
  auto high = static_cast<long>(std::ceil(to));
  return std::to_string(low) + "-" + std::to_string(high) + "%";
}

}  // namespace

std::string run_range(const Model& model, std::uint32_t from, std::uint32_t to) {
  return percent_range(percent_of_run(model, from), percent_of_run(model, to));
}

double percent_of_run(const Model& model, std::span<const std::uint64_t> boundaries,
                      std::uint32_t k) {
  if (boundaries.empty()) return 0;
  return percent_from(model, boundaries.front(),
                      boundaries[std::min<std::size_t>(k, boundaries.size() - 1)]);
}

double percent_at(const Model& model, std::span<const std::uint64_t> boundaries, std::uint64_t at) {
  return percent_from(model, boundaries.empty() ? 0 : boundaries.front(), at);
}

std::string run_range(const Model& model, std::span<const std::uint64_t> boundaries,
                      std::uint32_t from, std::uint32_t to) {
  return percent_range(percent_of_run(model, boundaries, from),
                       percent_of_run(model, boundaries, to));
}

std::string born_words(const Model& model, const std::vector<BornPart>& parts) {
  std::uint64_t total = 0;
  for (const BornPart& part : parts) total += part.bytes;
  std::string text;
  for (const BornPart& part : parts) {
    double share = 100.0 * static_cast<double>(part.bytes) / static_cast<double>(total);
    text += (text.empty() ? "" : ", ") + fixed(share, 0) + "% in " +
            run_range(model, part.from, part.to) + (text.empty() ? " of the run" : "");
  }
  return text;
}

namespace {

std::string headline_text(const FreeStackName& name) {
  return name.frames.empty() ? "(no stack)" : frame_text(name.frames[name.headline]);
}

// `name`'s headline, with its caller when `other` would read the same.
std::string stack_text(const FreeStackName& name, const FreeStackName* other) {
  std::string text = headline_text(name);
  bool same = other && headline_text(*other) == text;
  if (same && name.headline + 1 < name.frames.size()) {
    text += " <- " + frame_text(name.frames[name.headline + 1]);
  }
  return text;
}

}  // namespace

std::string freed_words(const Model& model, const std::vector<FreedBy>& freed,
                        const std::vector<FreeStackName>& names) {
  if (freed.empty()) return "";
  const FreedBy& top = freed.front();
  std::size_t exit = 1;  // another stack that freed some at exit, if any
  while (exit < freed.size() && !freed[exit].at_exit) ++exit;
  const FreeStackName* other = !top.at_exit && exit < freed.size() ? &names[exit] : nullptr;
  std::string who = stack_text(names.front(), other);
  std::string text = top.at_exit ? "freed at exit by " + who
                                 : "freed by " + who + " in " +
                                       run_range(model, top.first_epoch, top.last_epoch + 1) +
                                       " of the run";
  text +=
      " (" + fixed(top.share_pct, 0) + "% of its bytes freed after living across an epoch's end)";
  if (other) {
    text += "; at exit by " + stack_text(*other, &names.front()) + " (" +
            fixed(freed[exit].share_pct, 0) + "%)";
  }
  return text;
}

}  // namespace strata
