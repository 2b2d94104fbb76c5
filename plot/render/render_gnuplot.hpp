// SPDX-License-Identifier: GPL-2.0-or-later
// The graph renderer: draws a PlotData with gnuplot as SVG, PNG, PDF or in
// the terminal (the page of `-o FILE.html` draws itself: render/page.hpp).
//
// gnuplot is given a script written here and one data file.  Every text that
// comes from the profile or the command line (names, marker labels, the
// title, the output file's name) is in the data file, never in the script:
// the script reads the texts into an array and uses them as string values,
// so nothing in them is ever parsed as gnuplot code.  gnuplot runs without a
// shell, in the directory of the two files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/units.hpp"
#include "view/plot_data.hpp"

namespace strata {

enum class GraphFormat : std::uint8_t {
  svg,
  png,
  pdf,
  html,
  terminal,  // -o -: gnuplot's dumb terminal, on the standard output
};

// The format named by the extension of `path` (in any case), or terminal for
// "-"; nullopt if none.
std::optional<GraphFormat> graph_format(const std::string& path);

struct GraphOptions {
  std::string output;  // the file to write
  GraphFormat format = GraphFormat::svg;
  int width = 1200;    // pixels (a PDF page is width/100 by height/100 inches);
  int height = 800;    // characters for the terminal
  bool colour = true;  // the terminal: ANSI colours (else each band a line of its own character)
  int colours = 256;   // the terminal: its palette, 256 or 16 colours
  bool utf8 = true;    // the terminal: UTF-8 texts (else ASCII: the locale is not UTF-8)
  bool keep_script = false;  // leave the script and its data beside the output
  std::string input;         // the profile drawn: no file written may be it
};

// A script and its data file.  The script reads `data_name` and writes
// `output_name`, both in its own directory.
struct GnuplotJob {
  std::string script;
  std::string data;
  // The terminal: the legend's lines, printed by strata below gnuplot's
  // plot (gnuplot's key overwrote the plot and its own texts in a terminal).
  std::vector<std::string> key;
};

// The lines of the legend of `data` drawn in `format`: one for each band,
// each leak's troughs, the totals and the note on the markers drawn.
std::size_t legend_rows(const PlotData& data, GraphFormat format);

// The most lines a legend takes, whatever the picture's size: past 20 rows
// the key is a wall of text no eye matches to bands by colour (the
// palettes have 5 reds and 12 blues and greens), and each band is a
// sliver: 20 bands at the default 800 pixels are 25 pixels each on average
// (docs/design.md, "The graph").
inline constexpr std::size_t kMaxLegendRows = 20;

GnuplotJob gnuplot_job(const PlotData& data, const GraphOptions& options,
                       const std::string& data_name, const std::string& output_name);

// Where --keep-script left the script and its data.
struct KeptScript {
  std::string script;
  std::string data;
};

// Draws `data` into options.output.  Errors (gnuplot missing or failing, an
// output that cannot be written) are thrown as Error.
std::optional<KeptScript> render_graph(const PlotData& data, const GraphOptions& options);

// ---- the parts, exposed for the tests --------------------------------------------

// A text as gnuplot is given it: a zero-width space put into "]]>" after
// its "]]" (it may not appear in XML text) and into "&#" after its "&"
// (gnuplot's SVG passes "&#x1b;" on as a character reference, one that XML
// 1.0 does not allow).  Nothing else changes.  Only gnuplot's texts: the
// graph's data (PlotData) and the page hold the names as they are.
std::string gnuplot_text(std::string_view text);

// The units of the axes: time up to PlotData::end_time, bytes up to max_total().
struct GraphScales {
  Scale time;
  Scale bytes;
};

GraphScales graph_scales(const PlotData& data);

// gnuplot's picture in a terminal made safe to print: every 256-colour
// escape of a colour the palette has (16 colours: the nearest of the 16),
// each byte that is not UTF-8 a "?" (without UTF-8: every byte outside
// ASCII).
std::string terminal_output(const std::string& text, const GraphOptions& options);

// The SGR parameters of colour `index` (0 to 255) in a palette of `colours`
// (256: "38;5;N"; 16: the nearest of the 16, "31" or "1;31").
std::string sgr_colour(int index, int colours);

// Runs `gnuplot SCRIPT` in `directory` (no shell); returns what it printed on
// stderr.  Throws Error when gnuplot is missing or fails.
std::string run_gnuplot(const std::string& directory, const std::string& script);

}  // namespace strata
