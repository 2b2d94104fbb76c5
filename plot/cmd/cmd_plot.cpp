// SPDX-License-Identifier: GPL-2.0-or-later
// strata plot [OPTIONS] FILE -o OUT: the heap of a profile over time as a
// stacked-area graph by call site, with the leak suspects drawn out, written
// by gnuplot as SVG, PNG, PDF or an HTML page (plot_data.hpp,
// render_gnuplot.hpp).
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "analyze/heap_analysis.hpp"
#include "analyze/leaks.hpp"
#include "cmd/commands.hpp"
#include "cmd/report_options.hpp"
#include "render/page.hpp"
#include "render/render_gnuplot.hpp"
#include "util/error.hpp"
#include "view/lifetime_words.hpp"
#include "view/plot_data.hpp"

namespace po = boost::program_options;

namespace strata {

namespace {

constexpr Subcommand kPlot = {
    "strata plot [OPTIONS] FILE -o OUT",
    "Draws the heap of FILE (a strata profile or a massif.out file) over time, by call site,\n"
    "into OUT.  A graph shows 10 call sites unless --top says otherwise.",
    1, "no profile given"};

// A graph shows at most this many call sites unless --top says otherwise.
constexpr const char* kPlotTop = "10";

// The bands of contexts a graph draws, whatever --top says (PlotOptions::max_bands).
constexpr std::size_t kMinBands = 4, kMaxBands = 60;

po::options_description visible_options() {
  po::options_description options;
  options.add_options()  //
      ("output,o", po::value<std::string>()->value_name("OUT"),
       "write the graph to OUT; its extension picks the format: .svg, .png, .pdf, or .html (one "
       "self-contained page to explore the heap: zoom, the calling-context tree at a moment, the "
       "findings, the contexts' table; no gnuplot); - draws it in the terminal")  //
      ("title", po::value<std::string>()->value_name("TEXT"),
       "the graph's title (the command and the file)")  //
      ("width", po::value<int>()->value_name("PX")->default_value(1200),
       "the graph's width in pixels, 200 to 20000 (a PDF page is PX/100 inches wide); with -o -, "
       "in characters, 20 to 1000 (the terminal's)")  //
      ("height", po::value<int>()->value_name("PX")->default_value(800),
       "the graph's height in pixels, 200 to 20000; with -o -, in lines, 20 to 1000 (the "
       "terminal's)")  //
      ("keep-script",
       "leave the gnuplot script and its data beside OUT (OUT's name with .gp and .dat), to "
       "restyle the graph");
  add_context_options(options, kPlotTop);
  add_time_options(options);
  options.add_options()("version", "show the version")("help,h", "show this help");
  return options;
}

int pixels(const po::variables_map& values, const char* name) {
  int value = values[name].as<int>();
  if (value < 200 || value > 20000) {
    throw Error("--" + std::string(name) + "=" + std::to_string(value) +
                ": must be 200 to 20000 pixels");
  }
  return value;
}

// -o -: the size of --width and --height in characters, else the
// terminal's ($COLUMNS and $LINES, else the terminal's own, else 100 by 30),
// in colour when the output is a terminal and $NO_COLOR is not set.
GraphOptions terminal_options(GraphOptions options, const po::variables_map& values) {
  if (options.keep_script) throw Error("--keep-script: give an output file, not -");
  struct winsize size = {};
  bool tty = isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0;
  auto dimension = [&](const char* option, const char* unit, const char* name, int found,
                       int otherwise) {
    if (!values[option].defaulted()) {
      int given = values[option].as<int>();
      if (given < 20 || given > 1000) {
        throw Error("--" + std::string(option) + "=" + std::to_string(given) +
                    ": must be 20 to 1000 " + unit + " with -o -");
      }
      return given;
    }
    const char* text = std::getenv(name);
    int value = text ? std::atoi(text) : found;
    return std::clamp(value > 0 ? value : otherwise, 20, 1000);
  };
  options.width = dimension("width", "characters", "COLUMNS", tty ? size.ws_col : 0, 100);
  options.height = dimension("height", "lines", "LINES", tty ? size.ws_row : 0, 30);
  const char* no_colour = std::getenv("NO_COLOR");
  options.colour = isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
  return options;
}

GraphOptions graph_options(const po::variables_map& values) {
  if (!values.count("output")) throw usage_error("no output given", kPlot);
  GraphOptions options;
  options.output = values["output"].as<std::string>();
  std::optional<GraphFormat> format = graph_format(options.output);
  if (!format) {
    throw Error(options.output, 0,
                "unknown graph format: name the output .svg, .png, .pdf or .html");
  }
  options.format = *format;
  options.keep_script = values.count("keep-script") > 0;
  if (options.format == GraphFormat::terminal) return terminal_options(options, values);
  options.width = pixels(values, "width");
  options.height = pixels(values, "height");
  return options;
}

PlotOptions plot_options(const po::variables_map& values, const GraphOptions& graph) {
  PlotOptions options;
  if (values.count("title")) options.title = values["title"].as<std::string>();
  // About 7 pixels a character, less the key's sample; in a terminal, characters.
  bool terminal = graph.format == GraphFormat::terminal;
  // In a terminal, the key starts under the plot's left border (the y axis'
  // labels, 10 columns or so), after a sample of 5: a longer legend was
  // shifted left, its first characters lost.
  options.legend_width =
      static_cast<std::size_t>(terminal ? std::max(graph.width - 20, 8) : (graph.width - 100) / 7);
  // Three samples a pixel column: more would not show.
  options.max_samples = 3 * static_cast<std::size_t>(graph.width);
  // The bands a legend has room for: a line per 32 pixels (half the
  // picture), half the lines of a terminal.
  std::size_t room = static_cast<std::size_t>(terminal ? graph.height / 2 : graph.height / 32);
  options.max_bands = std::clamp<std::size_t>(room, kMinBands, kMaxBands);
  return options;
}

}  // namespace

int cmd_plot(const Args& args) {
  po::options_description visible = visible_options();
  std::optional<po::variables_map> parsed = parse_subcommand(args, kPlot, visible);
  if (!parsed) return 0;
  const po::variables_map& values = *parsed;
  std::string file = profile_paths(values, kPlot)[0];
  GraphOptions graph = graph_options(values);
  graph.input = file;
  ContextOptions options = read_context_options(values);
  Model model = load_profile(file);
  PlotOptions plot = plot_options(values, graph);
  std::optional<Selection> selection = ask(model, read_time_question(values));
  if (selection) plot.note = selection_title(model, *selection);
  ContextOptions contexts = for_profile(options, values, model);
  if (graph.format == GraphFormat::html) {
    if (graph.keep_script) {
      throw Error("--keep-script: a page draws its graph with its own script, not gnuplot");
    }
    write_page(make_page_data(model, contexts, plot, selection), graph.output, file);
    return 0;
  }
  PlotData data = make_plot_data(model, analyze_heap(model, contexts, {.leaks = !selection}), plot);
  if (std::optional<KeptScript> kept = render_graph(data, graph)) {
    std::cout << "strata plot: the gnuplot script is " << kept->script << ", its data "
              << kept->data << "\n";
  }
  return 0;
}

}  // namespace strata
