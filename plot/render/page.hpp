// SPDX-License-Identifier: GPL-2.0-or-later
// The page of `strata plot -o FILE.html`: one file that holds everything it
// shows (nothing is fetched: it opens offline and can be attached to a bug
// report).  The page's own script draws the graph from the data (an SVG it
// builds, so that a zoom re-scales the axes), and makes the tree at a moment
// from the page's tree and moments (view/page_data.hpp).
//
// Texts from the profile reach the page once, in the JSON of a
// <script type="application/json"> element, where <, > and & are written
// \u003c, \u003e and \u0026 so that no text can close the element; the
// script shows every text with textContent (or an SVG text node), never as
// markup, and builds no code from them.  Each long name is written once, in
// the data's table of strings, which the report's frames and the other
// texts point into (page_texts.hpp); the script makes the texts whole as it
// reads the data.
#pragma once

#include <string>

#include "view/page_data.hpp"

namespace strata {

// The page's HTML.
std::string page_html(const PageData& page);

// Writes the page to `path` whole, or not at all (util/output.hpp); an Error
// when `path` is the profile `input`.
void write_page(const PageData& page, const std::string& path, const std::string& input);

// The page's script, page.js after a newline: the build makes it a string
// (scripts/embed-text).  It reads the page's data (page_html.cpp) and draws,
// each text with textContent or as an attribute's value only:
// - the graph, an SVG it builds for the time range shown (drag to zoom, a
//   reset), the band under the pointer in a tip, a click to pin a moment
//   (the tip stays, to be selected and copied);
// - the legend, an HTML list beside the graph: a click highlights a band;
// - the calling-context tree at the pinned moment, else at the peak of the
//   range shown: the lines of tree_lines_at there (the moments, replayed);
//   as a tree, an icicle or a flame graph, with a search that marks the
//   matching frames among the nodes shown;
// - the findings of `strata report` with their evidence (a click highlights
//   its band and opens its stack and parts), and its contexts as a table
//   sorted by any column.
extern const char* const kPageScript;

// The page's style, page.css after a newline, made a string the same way.
extern const char* const kPageStyle;

}  // namespace strata
