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
// markup, and builds no code from them.
#pragma once

#include <string>

#include "view/page_data.hpp"

namespace strata {

// The page's HTML.
std::string page_html(const PageData& page);

// Writes the page to `path` whole, or not at all (util/output.hpp); an Error
// when `path` is the profile `input`.
void write_page(const PageData& page, const std::string& path, const std::string& input);

// The page's script and style (page_script.cpp, page_style.cpp).
extern const char* const kPageScript;
extern const char* const kPageStyle;

}  // namespace strata
