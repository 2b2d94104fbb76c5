// SPDX-License-Identifier: GPL-2.0-or-later
// The libFuzzer target of a reader (`make fuzz`, docs/design.md "Hostile
// input"): FUZZ_READER (read_strata or read_massif) reads the input; a file
// it takes goes on through everything strata does with a profile but run
// gnuplot: the report with its tree (text and JSON) and the graph's data and
// script, and with lifetimes the same of two questions of time (--born,
// --alive-at).  A strata::Error is a refusal, as it should be; anything else (a
// sanitizer's report, another exception, a timeout) is a finding.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "analyze/leaks.hpp"
#include "analyze/lifetimes.hpp"
#include "read/read.hpp"
#include "render/page.hpp"
#include "render/render.hpp"
#include "render/render_gnuplot.hpp"
#include "util/error.hpp"
#include "view/page_data.hpp"
#include "view/plot_data.hpp"

#ifndef FUZZ_READER
#error "FUZZ_READER must name the reader: read_strata or read_massif"
#endif

namespace {

void report(const strata::Model& model) {
  strata::ContextOptions options;
  strata::Report report = strata::make_report(model, options, true);
  std::ostringstream text, json;
  strata::render_report_text(report, text);
  strata::render_report_json(report, json);
}

void graph(const strata::Model& model) {
  strata::ContextOptions options;
  options.top = 10;
  strata::PlotOptions plot;
  plot.max_samples = 3600;
  strata::HeapAnalysis analysis = strata::analyze_heap(model, options, {.leaks = true, .tree = true});
  strata::PlotData data = strata::make_plot_data(model, analysis, plot);
  strata::GraphOptions graph;
  strata::gnuplot_job(data, graph, "graph.dat", "graph.svg");
  strata::page_html(strata::make_page_data(model, options, analysis, plot, std::nullopt));
}

// The questions of time, on a file with lifetimes: the report and the graph
// of the bytes born in the first half and alive at the end, and of those
// alive at three quarters of the run.
void questions(const strata::Model& model) {
  if (!model.has_lifetimes) return;
  for (auto [born, at] : {std::pair<const char*, const char*>{"..50%", nullptr},
                          std::pair<const char*, const char*>{nullptr, "75%"}}) {
    std::optional<std::string> born_text, at_text;
    if (born) born_text = born;
    if (at) at_text = at;
    strata::Selection selection = strata::select_lifetimes(model, born_text, at_text);
    strata::Model selected = strata::selected_model(model, selection);
    std::ostringstream text;
    strata::render_report_text(strata::make_report(selected, {}, false, selection), text);
    graph(selected);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(bytes), size));
  try {
    strata::Model model = strata::FUZZ_READER(in, "fuzz");
    report(model);
    graph(model);
    questions(model);
  } catch (const strata::Error&) {
  }
  return 0;
}
