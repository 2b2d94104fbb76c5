// SPDX-License-Identifier: GPL-2.0-or-later
// The texts of the graph: names from a profile made safe to show, and the
// legend that names each call site by the frames that tell it apart.
//
// A legend starts at the first frame outside the allocator's wrappers
// (xmalloc, g_malloc, std::allocator and the like: the recorder has removed
// the allocator itself), and goes on until the frame that no other band has at
// that place; then it adds callers while they fit.  The first frame and the
// telling one carry their file:line:
//
//   frame_alloc (leaky-player.c:72) ← decoder_decode ← player_play ← main
//   g_try_malloc (gmem.c:196) ← … ← gst_buffer_new (gstbuffer.c:88) ← …
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/own_code.hpp"
#include "model/frame_names.hpp"
#include "model/model.hpp"

namespace strata {

// The graph's texts (PlotData) are names as shown() gives them (shown.hpp),
// nothing more: what gnuplot alone needs (gnuplot_text, render_gnuplot.hpp)
// is done where its texts are written, so the page holds the names as they are.

// The columns a terminal shows character `c` in, as wcwidth() does: 0 for
// combining marks and zero-width characters, 2 for East Asian wide and
// fullwidth characters and emoji, else 1.  A picture's text is about as wide
// (a CJK character of a sans-serif font, twice a Latin letter).
std::size_t char_width(char32_t c);

// The display columns of UTF-8 `text` (a byte that is not UTF-8: one).
std::size_t text_width(std::string_view text);

// `text` cut to `width` columns, the last being "…" when cut.
std::string cut_text(std::string_view text, std::size_t width);

// `text` cut in its middle to `width` columns: its start and its end, with
// `ellipsis` between them (on character boundaries); whole when it fits.
// A legend's first frame and its telling frame are at its two ends.
std::string middle_cut(std::string_view text, std::size_t width,
                       std::string_view ellipsis = "\xE2\x80\xA6");

// `text` in ASCII, for a terminal whose locale is not UTF-8: "←" is "<-",
// "…" is "...", a zero-width space goes, any other character outside ASCII
// (or a byte that is not UTF-8) is "?".
std::string ascii_text(std::string_view text);

// `text` with a zero-width space after each wide character: gnuplot's dumb
// terminal gives each character one cell, and a wide one takes two columns
// of the screen, so a line of the graph with a CJK name was longer than the
// terminal; the zero-width space takes the second cell and no column.
std::string terminal_cells(std::string_view text);

// One frame as a legend shows it.
struct LegendFrame {
  std::string function;  // the full name, or object+0xOFFSET (frame_names.hpp)
  std::string location;  // "file.c:72" (the file's last component), or empty
  bool named = true;     // false when the symbol is unknown
  std::string place;     // object+0xOFFSET, whether named or not; may be empty
};

// The frames of a stack, innermost first.
std::vector<LegendFrame> legend_frames(const Model& model, std::span<const FrameId> frames);

// The legend of each stack: the frames that tell it apart from the other
// stacks, in at most `width` characters (callers are added while they fit).
// An empty stack gets an empty legend.
// Frames without a symbol between named ones read as one "…"; function names
// are short (short_function).  No two non-empty legends are the same: the
// second and later of those that would be get what tells them apart, as
// " [file:line]" or " [object+0xOFFSET]" (then " #2", ...).
std::vector<std::string> choose_legends(const std::vector<std::vector<LegendFrame>>& stacks,
                                        std::size_t width);

// Makes `legends` (of `stacks`, or of no stack beyond stacks.size()) differ
// as choose_legends() does, in at most `width` characters.
void tell_apart(const std::vector<std::vector<LegendFrame>>& stacks,
                std::vector<std::string>& legends, std::size_t width);

}  // namespace strata
