// SPDX-License-Identifier: GPL-2.0-or-later
// The page's HTML and its data (page.hpp).  The data, one JSON document:
//
//   {"title": ..., "time_unit": "i", "x_unit": "Mi instructions", "x_scale": 1048576,
//    "start_time": 0, "end_time": ..., "times": [...], "between": [...],
//    "bands": [{"kind": "leak", "legend": ..., "detail": ..., "frames": [...],
//               "bytes": [...]}, ...],                       one value a time
//    "troughs": [{"band": 0, "legend": ..., "points": [[time, bytes], ...]}],
//    "markers": [[time, label], ...], "marker_count": 4, "peak": [time, bytes],
//    "totals": [[time, bytes], ...], "by_age": null or the same of the heap by age,
//    "by_age_first": false,                                   --by=age
//    "threshold": 1.0, "frames": ["f (a.c:3)", ...],         those the nodes name
//    "parent": [0, 0, 1, ...], "node_frames": [[], [4], ...], by the page's node
//    "moments": [{"time": ..., "at": "36571584",
//                 "lines": [node, bytes, folded, folded bytes, ...]}],  changes
//    "report": {...}}                                         strata report --json
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "render/page.hpp"
#include "render/render.hpp"
#include "render/render_gnuplot.hpp"
#include "util/error.hpp"
#include "util/output.hpp"

namespace strata {

namespace {

using Json = nlohmann::json;

std::string escape_html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// JSON that may stand inside a <script> element.
std::string script_json(const Json& json) {
  std::string text = json.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else {
      out += c;
    }
  }
  return out;
}

const char* kind_name(BandKind kind) {
  switch (kind) {
    case BandKind::leak:
      return "leak";
    case BandKind::context:
      return "context";
    case BandKind::other:
      return "other";
    case BandKind::extra:
      return "extra";
    case BandKind::stacks:
      return "stacks";
    case BandKind::age:
      return "age";
  }
  return "other";
}

Json bands_json(const PlotData& data) {
  Json bands = Json::array();
  for (const PlotBand& band : data.bands) {
    bands.push_back({{"kind", kind_name(band.kind)},
                     {"legend", band.legend},
                     {"detail", band.detail},
                     {"frames", band.frames},
                     {"bytes", band.bytes}});
  }
  return bands;
}

Json points_json(const std::vector<PlotPoint>& points) {
  Json list = Json::array();
  for (const PlotPoint& p : points) list.push_back({p.time, p.bytes});
  return list;
}

Json graph_json(const PlotData& data) {
  GraphScales scales = graph_scales(data);
  Json json = {{"title", data.title},
               {"time_unit", data.time_unit},
               {"x_unit", scales.time.unit},
               {"x_scale", scales.time.divisor},
               {"origin", data.origin_text()},
               {"start_time", data.start_time},
               {"end_time", data.end_time},
               {"times", data.times},
               {"between", data.between},
               {"bands", bands_json(data)},
               {"troughs", Json::array()},
               {"markers", Json::array()},
               {"marker_count", data.marker_count},
               {"peak", data.peak ? Json{data.peak->time, data.peak->bytes} : Json()},
               {"totals", points_json(data.totals)}};
  for (const PlotTroughs& t : data.troughs) {
    json["troughs"].push_back(
        {{"band", t.band}, {"legend", t.legend}, {"points", points_json(t.points)}});
  }
  for (const PlotMarker& m : data.markers) json["markers"].push_back({m.time, m.label});
  return json;
}

Json tree_json(const PageData& page, Json& json) {
  Json frames = Json::array();
  for (const Frame& frame : page.frames) frames.push_back(tree_frame_text(frame));
  json["frames"] = std::move(frames);
  json["parent"] = page.parent;
  json["node_frames"] = page.node_frames;
  Json moments = Json::array();
  for (const PageMoment& m : page.moments) {
    Json lines = Json::array();
    for (const PageLine& line : m.changes) {
      for (std::uint64_t n : {std::uint64_t{line.node}, line.bytes, line.folded, line.folded_bytes})
        lines.push_back(n);
    }
    moments.push_back(
        {{"time", m.time}, {"at", std::to_string(m.at)}, {"lines", std::move(lines)}});
  }
  json["moments"] = std::move(moments);
  return json;
}

Json report_json(const Report& report) {
  std::ostringstream text;
  render_report_json(report, text);
  return Json::parse(text.str());
}

Json page_json(const PageData& page) {
  Json json = graph_json(page.graph);
  json["by_age"] = page.by_age ? graph_json(*page.by_age) : Json();
  json["by_age_first"] = page.by_age && page.by_age_first;
  json["threshold"] = page.threshold;
  tree_json(page, json);
  json["report"] = report_json(page.report);
  return json;
}

constexpr const char* kBody = R"HTML(
<header><h1 id="title"></h1>
<p class="hint">Point at a band to see its call site; click to pin a moment (what the tip says
stays under the graph, to be selected and copied); drag across the graph to zoom into a time
range.</p></header>
<main>
<section id="graph-section">
 <div class="bar"><button id="reset" type="button" disabled>Reset zoom</button>
  <button id="unpin" type="button" disabled>Unpin</button>
  <span id="age-toggle" hidden><label><input type="checkbox" id="by-age"> by age</label></span>
  <span id="range"></span></div>
 <div id="plot-row"><div id="graph"></div><ol id="legend"></ol></div>
 <div id="pinned" hidden></div>
</section>
<section id="tree-section"><h2>The calling-context tree <span id="tree-when"></span></h2>
 <p class="hint" id="tree-command"></p>
 <div class="bar"><label>Search <input id="search" type="search" placeholder="function or file"></label>
  <span id="matches"></span>
  <label><input type="radio" name="view" value="tree" checked> tree</label>
  <label><input type="radio" name="view" value="icicle"> icicle</label>
  <label><input type="radio" name="view" value="flame"> flame graph</label>
  <button id="expand" type="button">Expand all</button>
  <button id="collapse" type="button">Collapse all</button></div>
 <div id="tree"></div><div id="flame" hidden></div>
</section>
<section id="findings-section"><h2>Findings</h2><div id="findings"></div></section>
<section id="tables-section"><h2>Contexts</h2>
 <p class="hint">The contexts of <code>strata report</code> with the same options, exact values;
 click a column to sort.</p>
 <table id="contexts"><thead></thead><tbody></tbody></table></section>
</main>
<div id="tip" role="tooltip"></div>
)HTML";

}  // namespace

std::string page_html(const PageData& page) {
  std::string title = escape_html(page.graph.title);
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
         " - strata plot</title>\n<style>" + kPageStyle + "</style>\n</head>\n<body>" + kBody +
         "<script type=\"application/json\" id=\"strata-data\">" + script_json(page_json(page)) +
         "</script>\n<script>" + kPageScript + "</script>\n</body>\n</html>\n";
}

void write_page(const PageData& page, const std::string& path, const std::string& input) {
  std::error_code error;
  if (!input.empty() && std::filesystem::equivalent(path, input, error)) {
    throw Error(path, 0,
                "the graph would be written over the profile being drawn: choose another OUT");
  }
  std::string html = page_html(page);
  ReplacedFile file(path);
  file.stream() << html;
  file.commit();
}

}  // namespace strata
