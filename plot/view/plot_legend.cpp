// SPDX-License-Identifier: GPL-2.0-or-later
#include "view/plot_legend.hpp"

#include <array>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "analyze/contexts.hpp"
#include "model/frame_names.hpp"
#include "util/shown.hpp"

namespace strata {

// ---- safe texts ---------------------------------------------------------------

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026
constexpr std::string_view kArrow = " \xE2\x86\x90 ";   // " ← "
constexpr std::string_view kZeroWidthSpace = "\xE2\x80\x8B";

}  // namespace

std::string plain_text(std::string_view text) {
  std::string out;
  for (char c : shown(text)) {
    bool breaks_xml = (c == '>' && out.ends_with("]]")) || (c == '#' && out.ends_with('&'));
    if (breaks_xml) out += kZeroWidthSpace;
    out += c;
  }
  return out;
}

std::size_t text_width(std::string_view text) {
  std::size_t width = 0;
  for (char c : text) width += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return width;
}

std::string cut_text(std::string_view text, std::size_t width) {
  if (text_width(text) <= width) return std::string(text);
  if (width == 0) return "";
  std::size_t kept = 0, at = 0;
  while (at < text.size()) {
    bool starts = (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80;
    if (starts && kept == width - 1) break;
    kept += starts;
    ++at;
  }
  return std::string(text.substr(0, at)) + std::string(kEllipsis);
}

// ---- frames and wrappers --------------------------------------------------------

std::vector<LegendFrame> legend_frames(const Model& model, std::span<const FrameId> frames) {
  std::vector<LegendFrame> out;
  for (FrameId id : frames) {
    const Frame& frame = model.frame(id);
    LegendFrame shown;
    shown.function = plain_text(frame_name(frame));
    shown.named = !frame.function.empty();
    shown.place = plain_text(unnamed_frame(frame));
    if (!frame.file.empty()) {
      std::string_view file = frame.file;
      std::size_t slash = file.rfind('/');
      if (slash != std::string_view::npos && slash + 1 < file.size()) file.remove_prefix(slash + 1);
      shown.location = plain_text(file);
      if (frame.line != 0) shown.location += ":" + std::to_string(frame.line);
    }
    out.push_back(std::move(shown));
  }
  return out;
}

// ---- choosing legends -------------------------------------------------------------

namespace {

using Stack = std::vector<LegendFrame>;

bool same_frame(const LegendFrame& a, const LegendFrame& b) {
  return a.function == b.function && a.location == b.location;
}

// Whether `a` from `a_start` and `b` from `b_start` agree on `count` frames.
bool same_run(const Stack& a, std::size_t a_start, const Stack& b, std::size_t b_start,
              std::size_t count) {
  if (a_start + count > a.size() || b_start + count > b.size()) return false;
  for (std::size_t i = 0; i < count; ++i) {
    if (!same_frame(a[a_start + i], b[b_start + i])) return false;
  }
  return true;
}

bool skipped(const LegendFrame& frame) { return !frame.named && frame.function == kEllipsis; }

// The stack as a legend reads it: a run of frames without a symbol after a
// frame is one "…"; at the start, the first of them is shown (by its object
// and offset).
Stack readable(const Stack& stack) {
  Stack out;
  for (const LegendFrame& frame : stack) {
    if (frame.named || out.empty()) {
      out.push_back(frame);
    } else if (!skipped(out.back())) {
      out.push_back(
          {.function = std::string(kEllipsis), .location = "", .named = false, .place = ""});
    }
  }
  return out;
}

// The first frame outside the allocator's wrappers (0 if all are wrappers),
// or the wrapper before it when it is a "…".
std::size_t first_shown(const Stack& stack) {
  for (std::size_t i = 0; i < stack.size(); ++i) {
    if (!allocator_wrapper(stack[i].function)) return skipped(stack[i]) && i > 0 ? i - 1 : i;
  }
  return 0;
}

// The frames shown of each stack: from `start`, up to `telling`, the frame
// at which no other stack has the same run.
struct Span {
  std::size_t start = 0;
  std::size_t telling = 0;
};

std::optional<std::size_t> telling_frame(const std::vector<Stack>& stacks,
                                         const std::vector<std::size_t>& starts, std::size_t i,
                                         std::size_t start) {
  const Stack& stack = stacks[i];
  for (std::size_t end = start; end < stack.size(); ++end) {
    bool alone = true;
    for (std::size_t j = 0; j < stacks.size() && alone; ++j) {
      if (j != i && same_run(stack, start, stacks[j], starts[j], end - start + 1)) alone = false;
    }
    if (alone) return end;
  }
  return std::nullopt;
}

Span span_of(const std::vector<Stack>& stacks, const std::vector<std::size_t>& starts,
             std::size_t i) {
  std::size_t start = starts[i];
  if (std::optional<std::size_t> end = telling_frame(stacks, starts, i, start))
    return {start, *end};
  // The same as another from its first frame shown: the wrappers must tell them apart.
  if (start > 0) {
    if (std::optional<std::size_t> end = telling_frame(stacks, starts, i, 0)) return {0, *end};
  }
  return {start, stacks[i].size() - 1};
}

std::string frame_text(const LegendFrame& frame, bool with_location) {
  std::string text = short_function(frame.function);
  if (with_location && !frame.location.empty()) text += " (" + frame.location + ")";
  return text;
}

// The frames of `span` in full, or as "first ← … ← telling" when too long,
// or cut to `width`.
std::string telling_text(const Stack& stack, Span span, std::size_t width) {
  std::string full;
  for (std::size_t i = span.start; i <= span.telling; ++i) {
    if (i > span.start) full += kArrow;
    full += frame_text(stack[i], i == span.start || i == span.telling);
  }
  if (text_width(full) <= width) return full;
  if (span.telling > span.start + 1) {
    std::string elided = frame_text(stack[span.start], true) + std::string(kArrow) +
                         std::string(kEllipsis) + std::string(kArrow) +
                         frame_text(stack[span.telling], true);
    if (text_width(elided) <= width) return elided;
  }
  return cut_text(full, width);
}

// The legend of one stack: the telling frames, then callers while they fit.
std::string legend_text(const Stack& stack, Span span, std::size_t width) {
  std::string text = telling_text(stack, span, width);
  for (std::size_t i = span.telling + 1; i < stack.size(); ++i) {
    std::string longer = text + std::string(kArrow) + frame_text(stack[i], false);
    if (text_width(longer) > width) break;
    text = longer;
  }
  return text;
}

// What tells stack `i` apart from the stacks `others`: the first frame where
// it differs from one of them, by its file:line, else by its name, else by
// its object+0xOFFSET (two code addresses of one function without lines).
std::string telling_detail(const std::vector<Stack>& stacks, std::size_t i,
                           const std::vector<std::size_t>& others) {
  const Stack& stack = stacks[i];
  for (std::size_t k = 0; k < stack.size(); ++k) {
    for (std::size_t j : others) {
      if (j == i || k >= stacks[j].size()) continue;
      const LegendFrame& mine = stack[k];
      const LegendFrame& theirs = stacks[j][k];
      if (!same_frame(mine, theirs)) return mine.location.empty() ? mine.function : mine.location;
      if (mine.place != theirs.place) return mine.place;
    }
  }
  return "";
}

}  // namespace

void tell_apart(const std::vector<Stack>& stacks, std::vector<std::string>& legends,
                std::size_t width) {
  std::map<std::string, std::vector<std::size_t>> same;  // legend -> the stacks with it
  for (std::size_t i = 0; i < legends.size(); ++i) {
    if (!legends[i].empty()) same[legends[i]].push_back(i);
  }
  std::set<std::string> taken;
  for (const std::string& legend : legends) taken.insert(legend);
  for (const auto& [legend, group] : same) {
    if (group.size() < 2) continue;
    for (std::size_t n = 1; std::size_t i : group) {
      if (i == group.front()) continue;  // the first keeps its legend
      std::string detail = i < stacks.size() ? telling_detail(stacks, i, group) : "";
      std::string suffix = detail.empty() ? "" : " [" + detail + "]";
      std::string told = cut_text(legend, width - std::min(width, text_width(suffix))) + suffix;
      while (taken.count(told)) {
        std::string number = " #" + std::to_string(++n);
        told = cut_text(legend, width - std::min(width, text_width(suffix + number))) + suffix +
               number;
      }
      taken.insert(told);
      legends[i] = told;
    }
  }
}

std::vector<std::string> choose_legends(const std::vector<Stack>& full_stacks, std::size_t width) {
  std::vector<Stack> stacks;
  for (const Stack& stack : full_stacks) stacks.push_back(readable(stack));
  std::vector<std::size_t> starts;
  for (const Stack& stack : stacks) starts.push_back(first_shown(stack));
  std::vector<std::string> legends;
  for (std::size_t i = 0; i < stacks.size(); ++i) {
    if (stacks[i].empty()) {
      legends.emplace_back();
      continue;
    }
    legends.push_back(legend_text(stacks[i], span_of(stacks, starts, i), width));
  }
  tell_apart(full_stacks, legends, width);
  return legends;
}

}  // namespace strata
