// SPDX-License-Identifier: GPL-2.0-or-later
// The page's HTML and its data (page.hpp).  The data, one JSON document:
//
//   {"title": ..., "time_unit": "i", "x_unit": "Mi instructions", "x_scale": 1048576,
//    "start_time": 0, "end_time": ..., "times": [...], "between": [...],
//    "bands": [{"kind": "leak", "legend": ..., "detail": TEXT, "frames": [TEXT, ...],
//               "bytes": [...]}, ...],                       one value a time
//    "troughs": [{"band": 0, "legend": ..., "points": [[time, bytes], ...]}],
//    "markers": [[time, label], ...], "marker_count": 4, "peak": [time, bytes],
//    "totals": [[time, bytes], ...], "by_age": null or the same of the heap by age,
//    "by_age_first": false,                                   --by=age
//    "threshold": 1.0, "frames": [TEXT, ...],                 those the nodes name
//    "parent": [0, 0, 1, ...], "node_frames": [[], [4], ...], by the page's node
//    "moments": [{"time": ..., "at": "36571584",
//                 "lines": [node, bytes, folded, folded bytes, ...]}],  changes
//    "report": {...},                      strata report --json, each frame an index
//                                          into "report_frames", "why" and "words" TEXTs
//    "report_frames": [{"function": 0, "file": 1, "line": 3, "object": 2,
//                       "address": ..., "offset": ..., "name": 0, "inlined": false}],
//                                          the report's frames, each once, their
//                                          texts indexes into "strings" (or null)
//    "strings": ["keep_1_xxxx...", "k.c", ...]}
//
// TEXT: a string, or its pieces, each a string or an index into "strings"
// (page_texts.hpp): so each long name is written once however often it is shown.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "model/frame_names.hpp"
#include "render/page.hpp"
#include "render/page_texts.hpp"
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

Json bands_json(const PlotData& data, PageTexts& texts) {
  Json bands = Json::array();
  for (const PlotBand& band : data.bands) {
    Json frames = Json::array();
    for (const std::string& frame : band.frames) frames.push_back(texts.text(frame));
    bands.push_back({{"kind", kind_name(band.kind)},
                     {"legend", band.legend},
                     {"detail", texts.text(band.detail)},
                     {"frames", std::move(frames)},
                     {"bytes", band.bytes}});
  }
  return bands;
}

Json points_json(const std::vector<PlotPoint>& points) {
  Json list = Json::array();
  for (const PlotPoint& p : points) list.push_back({p.time, p.bytes});
  return list;
}

Json graph_json(const PlotData& data, PageTexts& texts) {
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
               {"bands", bands_json(data, texts)},
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

Json tree_json(const PageData& page, PageTexts& texts, Json& json) {
  Json frames = Json::array();
  for (const Frame& frame : page.frames) frames.push_back(texts.text(tree_frame_text(frame)));
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

// The report's frames, each once ("report_frames"), their texts in the
// table of strings; the report names them by index.
class ReportFrames {
 public:
  explicit ReportFrames(PageTexts& texts) : texts_(texts) {}
  // `frame`, an object of the report or null, as its index (or null).
  Json index(const Json& frame);
  void index_each(Json& frames) {
    for (Json& frame : frames) frame = index(frame);
  }
  Json table() const { return table_; }

 private:
  PageTexts& texts_;
  std::unordered_map<std::string, std::uint32_t> index_;  // a frame's JSON -> its index
  Json table_ = Json::array();
};

Json ReportFrames::index(const Json& frame) {
  if (!frame.is_object()) return frame;
  std::string key = frame.dump(-1, ' ', false, Json::error_handler_t::replace);
  auto [at, added] = index_.try_emplace(std::move(key), static_cast<std::uint32_t>(table_.size()));
  if (added) {
    Json entry = frame;
    for (const char* field : {"function", "file", "object", "name"}) {
      if (entry[field].is_string()) entry[field] = texts_.index(entry[field].get<std::string>());
    }
    auto name = frame.find("name");  // its short form is in the findings' words
    if (name != frame.end() && name->is_string())
      texts_.offer(short_function(name->get<std::string>()));
    table_.push_back(std::move(entry));
  }
  return at->second;
}

// A finding's frames: its headline, stack, parts, frees.
void index_leak_frames(Json& leak, ReportFrames& frames) {
  leak["headline"] = frames.index(leak["headline"]);
  frames.index_each(leak["frames"]);
  for (Json& part : leak["parts"]) {
    frames.index_each(part["frames"]);
    if (part.contains("headline")) part["headline"] = frames.index(part["headline"]);
  }
  if (leak["freed_by"].is_array()) {
    for (Json& freed : leak["freed_by"]) {
      frames.index_each(freed["frames"]);
      freed["headline"] = frames.index(freed["headline"]);
    }
  }
  leak["freed_at_exit_by"] = frames.index(leak["freed_at_exit_by"]);
}

// Every frame of the report (its contexts', findings' and places passed over) as its index.
void index_report_frames(Json& report, ReportFrames& frames) {
  for (Json& context : report["contexts"]) frames.index_each(context["frames"]);
  for (const char* list : {"leaks", "small_leaks"}) {
    for (Json& leak : report[list]) index_leak_frames(leak, frames);
  }
  for (Json& passed : report["passed_over"]) {
    frames.index_each(passed["frames"]);
    passed["headline"] = frames.index(passed["headline"]);
  }
}

// The sentences of the findings and the places passed over, which name their frames, as TEXTs.
void share_report_texts(Json& report, PageTexts& texts) {
  for (const char* list : {"leaks", "small_leaks"}) {
    for (Json& leak : report[list]) {
      for (const char* field : {"why", "words"}) {
        if (leak[field].is_string()) leak[field] = texts.text(leak[field].get<std::string>());
      }
    }
  }
  for (Json& passed : report["passed_over"]) {
    passed["words"] = texts.text(passed["words"].get<std::string>());
  }
}

// The names of the tree's frames, which its texts and the bands' hold.
void offer_tree_names(const PageData& page, PageTexts& texts) {
  for (const Frame& frame : page.frames) {
    std::string name = frame_name(frame);
    texts.offer(name);
    texts.offer(short_function(name));
    texts.offer(frame.file);
  }
}

// The report first: the names of its frames go into the table, and the
// other texts point into it.
Json page_json(const PageData& page) {
  PageTexts texts;
  ReportFrames frames(texts);
  Json report = report_json(page.report);
  index_report_frames(report, frames);
  offer_tree_names(page, texts);
  share_report_texts(report, texts);
  Json json = graph_json(page.graph, texts);
  json["by_age"] = page.by_age ? graph_json(*page.by_age, texts) : Json();
  json["by_age_first"] = page.by_age && page.by_age_first;
  json["threshold"] = page.threshold;
  tree_json(page, texts, json);
  json["report"] = std::move(report);
  json["report_frames"] = frames.table();
  json["strings"] = texts.strings();
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
