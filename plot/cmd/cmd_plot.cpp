// SPDX-License-Identifier: GPL-2.0-or-later
// strata plot [OPTIONS] FILE -o OUT: the heap of a profile over time as a
// stacked-area graph by call site, with the leak suspects drawn out, written
// by gnuplot as SVG, PNG or PDF (plot_data.hpp, render_gnuplot.hpp), or as
// a page that draws itself (page_data.hpp, page.hpp).
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <iostream>

#include "analyze/ages.hpp"
#include "analyze/heap_analysis.hpp"
#include "analyze/leaks.hpp"
#include "analyze/lifetimes.hpp"
#include "cmd/commands.hpp"
#include "cmd/report_options.hpp"
#include "render/page.hpp"
#include "render/render_gnuplot.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
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

// The bands of contexts a graph draws at least, whatever its size
// (PlotOptions::max_bands).
constexpr std::size_t kMinBands = 4;

// The legend's rows: at most kMaxLegendRows (render_gnuplot.hpp says why),
// and at most kLegendShare of the picture's height, at kRowPixels a row
// (gnuplot's line of text with the key's spacing: 17 pixels in a PNG, 18
// in an SVG, less in a PDF) or a line of the terminal.  The plot keeps the
// rest; docs/design.md, "The graph".
constexpr double kLegendShare = 0.4;
constexpr double kRowPixels = 19;

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
      ("by", po::value<std::string>()->value_name("WHAT")->default_value("sites"),
       "what a band is: sites (the heap by call site) or age (the heap by when its bytes were "
       "born: a band per cycle when the program has cycles, else per tenth of the run, the "
       "oldest at the bottom; needs lifetimes)")  //
      ("focus", po::value<std::string>()->value_name("FUNCTION"),
       "with --by=age, only the bytes of the call sites with FUNCTION on their stack, or of a "
       "leak the report lists (leak:N for its Nth)")  //
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

// The value of the first of `names` set and not empty, else "".
std::string first_set(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const char* value = std::getenv(name);
    if (value && *value) return value;
  }
  return "";
}

// Whether the locale's characters are UTF-8 ($LC_ALL, else $LC_CTYPE, else
// $LANG: "C.UTF-8", "en_US.utf8"); without any, the C locale: ASCII.
bool utf8_locale() {
  std::string locale = first_set({"LC_ALL", "LC_CTYPE", "LANG"});
  for (char& c : locale) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return locale.find("utf-8") != std::string::npos || locale.find("utf8") != std::string::npos;
}

// The colours of the terminal: 256 for an xterm and the terminals that say
// so ($TERM ending in -256color, $COLORTERM set), else 16 (the Linux
// console, vt100, screen).
int terminal_colours() {
  std::string term = first_set({"TERM"});
  bool many = !first_set({"COLORTERM"}).empty() || term.find("256") != std::string::npos ||
              term.find("direct") != std::string::npos || term == "xterm";
  return many ? 256 : 16;
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
  options.colours = terminal_colours();
  options.utf8 = utf8_locale();
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

// The rows the legend of `graph` may take.
std::size_t legend_room(const GraphOptions& graph) {
  double row = graph.format == GraphFormat::terminal ? 1 : kRowPixels;
  double room = kLegendShare * graph.height / row;
  return std::min(static_cast<std::size_t>(room), kMaxLegendRows);
}

PlotOptions plot_options(const po::variables_map& values, const GraphOptions& graph) {
  PlotOptions options;
  if (values.count("title")) options.title = values["title"].as<std::string>();
  // About 7 pixels a character, less the key's sample; in a terminal, characters.
  bool terminal = graph.format == GraphFormat::terminal;
  // In a terminal, strata writes the legend's lines: two spaces, a key of
  // four characters and one.
  options.legend_width =
      static_cast<std::size_t>(terminal ? std::max(graph.width - 7, 8) : (graph.width - 100) / 7);
  // Three samples a pixel column: more would not show.
  options.max_samples = 3 * static_cast<std::size_t>(graph.width);
  options.max_bands = std::clamp<std::size_t>(legend_room(graph), kMinBands, kMaxLegendRows);
  return options;
}

// The sites of --focus: a leak of `judged`'s report (leak:N), else a function.
std::vector<SiteId> focus_sites(const Model& model, const std::string& focus,
                                const HeapAnalysis* judged) {
  std::string what = "--focus=" + focus;
  if (focus.starts_with("leak:")) {
    std::optional<std::uint64_t> n = parse_number(std::string_view(focus).substr(5));
    const std::vector<Leak>& leaks = judged->leaks.suspects;
    if (!n || *n == 0 || *n > leaks.size()) {
      throw Error(what + ": the report lists " + std::to_string(leaks.size()) + " leak" +
                  (leaks.size() == 1 ? "" : "s") + (leaks.empty() ? "" : ", from leak:1"));
    }
    return judged->contexts.contexts.at(leaks[*n - 1].context).sites;
  }
  std::vector<SiteId> sites = sites_of_function(model, focus);
  if (sites.empty()) throw Error(what + ": no call site has this function on its stack");
  return sites;
}

// --by=age: the layers of every site's bytes, or of those of --focus.  An
// analysis that judged the leaks (`judged`, may be null) gives the cycles and
// the leaks of --focus=leak:N; without one, what is needed is found here.
// With a question of time `model` is the selection's, and `judged` that of
// the whole profile (whose sites the selection keeps, by the same ids):
// the report of a selection judges no leak.
PlotData age_plot_data(const Model& model, const po::variables_map& values,
                       const ContextOptions& contexts, PlotOptions plot,
                       const HeapAnalysis* judged = nullptr) {
  if (!model.has_lifetimes || model.lifetimes.epochs == 0) {
    throw Error(
        model.file, 0,
        "--by=age needs lifetimes, which this file has not (" + why_no_lifetimes(model) + ")");
  }
  std::string focus = values.count("focus") ? values["focus"].as<std::string>() : "";
  std::optional<HeapAnalysis> own;
  if (!judged && focus.starts_with("leak:")) judged = &own.emplace(analyze_heap(model, contexts));
  Cycles cycles = judged ? judged->leaks.cycles : find_cycles(model);
  std::vector<SiteId> sites;
  if (!focus.empty()) {
    sites = focus_sites(model, focus, judged);
    plot.note += (plot.note.empty() ? "" : ", ") + focus;
  } else {
    for (std::size_t i = 0; i < model.sites.size(); ++i) sites.push_back(static_cast<SiteId>(i));
  }
  plot.note += (plot.note.empty() ? "" : ", ") + std::string("by age");
  return make_age_plot_data(model, age_layers(model, sites, cycles), plot);
}

// The graph of `analysis`, its bands folded until its legend fits its room:
// the bands of call sites take what the other rows (the extra heap, the
// stacks, the troughs, the totals) leave.
PlotData fitted_plot_data(const Model& model, const HeapAnalysis& analysis, PlotOptions plot,
                          const GraphOptions& graph) {
  std::size_t room = legend_room(graph);
  PlotData data = make_plot_data(model, analysis, plot);
  for (;;) {
    std::size_t rows = legend_rows(data, graph.format);
    if (rows <= room || plot.max_bands <= kMinBands) return data;
    plot.max_bands = std::max(kMinBands, plot.max_bands - std::min(plot.max_bands, rows - room));
    data = make_plot_data(model, analysis, plot);
  }
}

// The page: the graph by call site, with the heap by age as its toggle
// when the profile has lifetimes (shown first with --by=age); `whole` as
// age_plot_data's `judged` with a selection.
PageData page_data(const Model& model, const po::variables_map& values,
                   const ContextOptions& contexts, const PlotOptions& plot,
                   const std::optional<Selection>& selection, const HeapAnalysis* whole,
                   bool by_age) {
  if (values.count("keep-script")) {
    throw Error("--keep-script: a page draws its graph with its own script, not gnuplot");
  }
  HeapAnalysis analysis = analyze_heap(model, contexts, {.leaks = !selection, .tree = true});
  PageData page = make_page_data(model, contexts, analysis, plot, selection);
  if (by_age || (model.has_lifetimes && model.lifetimes.epochs > 0)) {
    page.by_age = age_plot_data(model, values, contexts, plot, selection ? whole : &analysis);
  }
  page.by_age_first = by_age;
  return page;
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
  ContextOptions contexts = for_profile(options, values, model);
  std::string by = values["by"].as<std::string>();
  if (by != "sites" && by != "age") throw Error("--by=" + by + ": draw by sites or by age");
  if (values.count("focus") && by != "age") throw Error("--focus: give --by=age too");
  // --focus=leak:N is the Nth leak of the report on the whole profile: judged
  // before a question of time makes `model` the selection's.
  TimeQuestion question = read_time_question(values);
  std::optional<HeapAnalysis> whole;
  if (question.asked() && values.count("focus") &&
      values["focus"].as<std::string>().starts_with("leak:")) {
    whole.emplace(analyze_heap(model, contexts));
  }
  const HeapAnalysis* judged = whole ? &*whole : nullptr;
  std::optional<Selection> selection = ask(model, question);
  if (selection) plot.note = selection_title(model, *selection);
  plot.top = contexts.top;
  if (graph.format == GraphFormat::html) {
    write_page(page_data(model, values, contexts, plot, selection, judged, by == "age"),
               graph.output, file);
    return 0;
  }
  PlotData data =
      by == "age" ? age_plot_data(model, values, contexts, plot, judged)
                  : fitted_plot_data(model, analyze_heap(model, contexts, {.leaks = !selection}),
                                     plot, graph);
  if (std::optional<KeptScript> kept = render_graph(data, graph)) {
    std::cout << "strata plot: the gnuplot script is " << kept->script << ", its data "
              << kept->data << "\n";
  }
  return 0;
}

}  // namespace strata
