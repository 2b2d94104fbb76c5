// SPDX-License-Identifier: GPL-2.0-or-later
#include "view/plot_legend.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "analyze/contexts.hpp"
#include "model/frame_names.hpp"
#include "util/shown.hpp"

namespace strata {

// ---- characters ---------------------------------------------------------------

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026
constexpr std::string_view kArrow = " \xE2\x86\x90 ";   // " ← "
constexpr std::string_view kZeroWidthSpace = "\xE2\x80\x8B";

}  // namespace

// ---- display columns ----------------------------------------------------------

namespace {

struct Range {
  char32_t first, last;
};

// Characters a terminal (wcwidth) shows in no column: combining marks,
// zero-width spaces and joiners, variation selectors.
constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489},   {0x0591, 0x05BD},   {0x05BF, 0x05BF}, {0x05C1, 0x05C2},
    {0x05C4, 0x05C5}, {0x05C7, 0x05C7},   {0x0610, 0x061A},   {0x064B, 0x065F}, {0x0670, 0x0670},
    {0x06D6, 0x06DC}, {0x06DF, 0x06E4},   {0x06E7, 0x06E8},   {0x06EA, 0x06ED}, {0x0E31, 0x0E31},
    {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},   {0x1160, 0x11FF},   {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},
    {0x200B, 0x200F}, {0x2060, 0x2064},   {0x20D0, 0x20FF},   {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
    {0xFEFF, 0xFEFF}, {0xE0001, 0xE007F}, {0xE0100, 0xE01EF},
};

// Characters shown in two columns: East Asian wide and fullwidth ones
// (Unicode's EastAsianWidth W and F) and the emoji shown as pictures.
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F2FF}, {0x1F300, 0x1F64F},
    {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F900, 0x1F9FF}, {0x1FA70, 0x1FAFF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

template <std::size_t N>
bool in(const Range (&ranges)[N], char32_t c) {
  const Range* after = std::upper_bound(std::begin(ranges), std::end(ranges), c,
                                        [](char32_t c, const Range& r) { return c < r.first; });
  return after != std::begin(ranges) && c <= (after - 1)->last;
}

// The character at `at` (valid UTF-8, else one byte) and its length.
std::pair<char32_t, std::size_t> character(std::string_view text, std::size_t at) {
  std::optional<std::size_t> length = utf8_sequence(text, at);
  if (!length) return {static_cast<unsigned char>(text[at]), 1};
  static constexpr unsigned char kLeadBits[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t c = static_cast<unsigned char>(text[at]) & kLeadBits[*length];
  for (std::size_t i = 1; i < *length; ++i) c = (c << 6) | (text[at + i] & 0x3F);
  return {c, *length};
}

}  // namespace

std::size_t char_width(char32_t c) {
  if (c < 0x300) return 1;
  if (in(kZeroWidth, c)) return 0;
  return in(kWide, c) ? 2 : 1;
}

std::size_t text_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t at = 0; at < text.size();) {
    auto [c, length] = character(text, at);
    width += char_width(c);
    at += length;
  }
  return width;
}

std::string cut_text(std::string_view text, std::size_t width) {
  if (text_width(text) <= width) return std::string(text);
  if (width == 0) return "";
  std::size_t used = 0, at = 0;
  while (at < text.size()) {
    auto [c, length] = character(text, at);
    if (used + char_width(c) > width - 1) break;  // room for the "…"
    used += char_width(c);
    at += length;
  }
  return std::string(text.substr(0, at)) + std::string(kEllipsis);
}

std::string middle_cut(std::string_view text, std::size_t width, std::string_view ellipsis) {
  if (text_width(text) <= width) return std::string(text);
  if (width < text_width(ellipsis)) ellipsis = "";  // no room for it: the start alone
  std::size_t room = width - text_width(ellipsis);
  std::size_t head_room = ellipsis.empty() ? room : (room + 1) / 2, used = 0, head = 0;
  while (head < text.size()) {
    auto [c, length] = character(text, head);
    if (used + char_width(c) > head_room) break;
    used += char_width(c);
    head += length;
  }
  std::size_t tail_room = ellipsis.empty() ? 0 : room - used, tail = text.size(), tail_used = 0;
  while (tail > head) {
    std::size_t start = tail - 1;  // back to the first byte of the character before `tail`
    while (start > head && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    auto [c, length] = character(text, start);
    std::size_t w = char_width(c);
    if (start + length != tail) start = tail - 1, w = 1;  // not UTF-8: one byte
    if (tail_used + w > tail_room) break;
    tail_used += w;
    tail = start;
  }
  return std::string(text.substr(0, head)) + std::string(ellipsis) + std::string(text.substr(tail));
}

std::string ascii_text(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    auto [c, length] = character(text, at);
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c == 0x2190) {
      out += "<-";
    } else if (c == 0x2026) {
      out += "...";
    } else if (c != 0x200B) {
      out += '?';
    }
    at += length;
  }
  return out;
}

std::string terminal_cells(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    auto [c, length] = character(text, at);
    out += text.substr(at, length);
    if (char_width(c) == 2) out += kZeroWidthSpace;
    at += length;
  }
  return out;
}

// ---- frames and wrappers --------------------------------------------------------

std::vector<LegendFrame> legend_frames(const Model& model, std::span<const FrameId> frames) {
  std::vector<LegendFrame> out;
  for (FrameId id : frames) {
    const Frame& frame = model.frame(id);
    LegendFrame legend;
    legend.function = shown(frame_name(frame));
    legend.named = !frame.function.empty();
    legend.place = shown(unnamed_frame(frame));
    if (!frame.file.empty()) {
      std::string_view file = frame.file;
      std::size_t slash = file.rfind('/');
      if (slash != std::string_view::npos && slash + 1 < file.size()) file.remove_prefix(slash + 1);
      legend.location = shown(file);
      if (frame.line != 0) legend.location += ":" + std::to_string(frame.line);
    }
    out.push_back(std::move(legend));
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
  return middle_cut(full, width);
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
