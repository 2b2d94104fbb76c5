// SPDX-License-Identifier: GPL-2.0-or-later
// The libFuzzer target of a reader (`make fuzz`, docs/design.md "Hostile
// input"): FUZZ_READER (read_strata or read_massif) reads the input; a file
// it takes goes on through everything strata does with a profile but run
// gnuplot: the report with its tree (text and JSON) and the graph's data and
// script.  A strata::Error is a refusal, as it should be; anything else (a
// sanitizer's report, another exception, a timeout) is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "analyze/leaks.hpp"
#include "read/read.hpp"
#include "render/render.hpp"
#include "render/render_gnuplot.hpp"
#include "util/error.hpp"
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
  strata::PlotData data = strata::make_plot_data(model, strata::analyze_heap(model, options), plot);
  strata::GraphOptions graph;
  strata::gnuplot_job(data, graph, "graph.dat", "graph.svg");
  strata::html_page(data, "<svg></svg>", strata::AxisMap{});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(bytes), size));
  try {
    strata::Model model = strata::FUZZ_READER(in, "fuzz");
    report(model);
    graph(model);
  } catch (const strata::Error&) {
  }
  return 0;
}
