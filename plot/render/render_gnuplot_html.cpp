// SPDX-License-Identifier: GPL-2.0-or-later
// The HTML page of `strata plot -o graph.html`: gnuplot's SVG in a page, the
// bands' data as JSON, and a script that shows, for the point under the
// pointer, the band there: its legend, its bytes at that time, what the
// band is about and its call stack.  The page needs nothing else.
//
// Texts from the profile reach the page twice, both escaped: in the SVG,
// where gnuplot's svg terminal escapes < and &, and in the JSON, where
// <, > and & are written \u003c, \u003e and \u0026 so that no text can close
// the script element.  The script shows texts with textContent only.
#include <nlohmann/json.hpp>
#include <string_view>

#include "render/render_gnuplot.hpp"

namespace strata {

namespace {

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
std::string script_json(const nlohmann::json& json) {
  std::string text = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
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

nlohmann::json page_data(const PlotData& data, const AxisMap& axes) {
  nlohmann::json json;
  json["time_unit"] = data.time_unit;
  json["times"] = data.times;
  json["between"] = data.between;
  json["axes"] = {
      {"term_xmin", axes.term_xmin}, {"term_xmax", axes.term_xmax}, {"term_ymin", axes.term_ymin},
      {"term_ymax", axes.term_ymax}, {"x_min", axes.x_min},         {"x_max", axes.x_max},
      {"y_min", axes.y_min},         {"y_max", axes.y_max},         {"x_scale", axes.x_scale},
      {"y_scale", axes.y_scale},     {"x_unit", axes.x_unit},       {"height", axes.height}};
  json["bands"] = nlohmann::json::array();
  for (const PlotBand& band : data.bands) {
    json["bands"].push_back({{"kind", kind_name(band.kind)},
                             {"legend", band.legend},
                             {"detail", band.detail},
                             {"frames", band.frames},
                             {"bytes", band.bytes}});
  }
  return json;
}

// gnuplot's SVG without its XML prolog and without its <title> elements
// ("Gnuplot", "gnuplot_plot_1", ...), which browsers would show on hover.
// (Not with std::regex: its matcher recurses once per character.)
std::string inline_svg(const std::string& svg) {
  constexpr std::string_view kOpen = "<title>", kClose = "</title>";
  std::size_t start = svg.find("<svg");
  std::string_view body = std::string_view(svg).substr(start == std::string::npos ? 0 : start);
  std::string out;
  for (std::size_t at = 0;;) {
    std::size_t open = body.find(kOpen, at);
    std::size_t close = open == body.npos ? body.npos : body.find(kClose, open);
    bool text_only =
        close != body.npos &&
        body.substr(open + kOpen.size(), close - open - kOpen.size()).find('<') == body.npos;
    if (!text_only) {
      out += body.substr(at, open == body.npos ? body.npos : open + kOpen.size() - at);
      if (open == body.npos) return out;
      at = open + kOpen.size();
      continue;
    }
    out += body.substr(at, open - at);
    at = close + kClose.size();
  }
}

constexpr const char* kStyle = R"CSS(
body { font-family: sans-serif; margin: 1em; color: #222; }
#graph svg { max-width: 100%; height: auto; }
.hint { color: #666; font-size: 90%; }
#tip { position: fixed; display: none; pointer-events: none; z-index: 1;
       background: #fffff4; border: 1px solid #999; border-radius: 4px;
       box-shadow: 2px 2px 6px rgba(0, 0, 0, 0.25); padding: 6px 9px;
       font-size: 12px; max-width: 48em; }
#tip div { white-space: pre-wrap; overflow-wrap: anywhere; }
#tip .legend { font-weight: bold; }
#tip .leak { color: #a50f15; }
#tip .frames { font-family: monospace; color: #444; margin-top: 4px; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("strata-data").textContent);
  var svg = document.querySelector("#graph svg");
  var tip = document.getElementById("tip");
  var axes = data.axes;
  var units = ["B", "KiB", "MiB", "GiB", "TiB"];

  function readable(value) {
    return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
  }
  function bytes(value) {
    var unit = 0;
    while (unit + 1 < units.length && value >= Math.pow(1024, unit + 1)) unit++;
    return readable(value / Math.pow(1024, unit)) + " " + units[unit];
  }
  // The pointer in the axes' units, or null outside the plot.
  function pointed(event) {
    var point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    var p = point.matrixTransform(svg.getScreenCTM().inverse());
    var up = axes.height - p.y;
    if (p.x < axes.term_xmin || p.x > axes.term_xmax || up < axes.term_ymin || up > axes.term_ymax)
      return null;
    var x = axes.x_min + (p.x - axes.term_xmin) / (axes.term_xmax - axes.term_xmin) *
            (axes.x_max - axes.x_min);
    var y = axes.y_min + (up - axes.term_ymin) / (axes.term_ymax - axes.term_ymin) *
            (axes.y_max - axes.y_min);
    return { time: x * axes.x_scale, bytes: y * axes.y_scale };
  }
  // The sample nearest to `time`.
  function nearest(time) {
    var low = 0, high = data.times.length - 1;
    if (high < 0) return -1;
    while (high - low > 1) {
      var middle = (low + high) >> 1;
      if (data.times[middle] <= time) low = middle; else high = middle;
    }
    return time - data.times[low] <= data.times[high] - time ? low : high;
  }
  // The band at `value` bytes in sample `s` (stacked from the bottom up).
  function bandAt(s, value) {
    var top = 0;
    for (var b = 0; b < data.bands.length; b++) {
      var lower = top;
      top += data.bands[b].bytes[s];
      if (value >= lower && value < top) return b;
    }
    return -1;
  }
  function line(text, className) {
    var div = document.createElement("div");
    div.textContent = text;
    if (className) div.className = className;
    tip.appendChild(div);
  }
  function show(event, band, s) {
    while (tip.firstChild) tip.removeChild(tip.firstChild);
    line(band.legend, band.kind === "leak" ? "legend leak" : "legend");
    var when = data.between[s] ? " (its low or high between two snapshots)" : "";
    var time = readable(data.times[s] / axes.x_scale) + " " + axes.x_unit;
    line(bytes(band.bytes[s]) + " at time " + time + when);
    if (band.detail) line(band.detail);
    if (band.frames.length) line(band.frames.join("\n"), "frames");
    tip.style.display = "block";
    var x = event.clientX + 16, y = event.clientY + 16;
    if (x + tip.offsetWidth > window.innerWidth) x = Math.max(0, event.clientX - tip.offsetWidth - 16);
    if (y + tip.offsetHeight > window.innerHeight) y = Math.max(0, event.clientY - tip.offsetHeight - 16);
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }
  function hide() { tip.style.display = "none"; }
  svg.addEventListener("mousemove", function (event) {
    var at = pointed(event);
    var s = at ? nearest(at.time) : -1;
    var b = s >= 0 ? bandAt(s, at.bytes) : -1;
    if (b < 0) hide(); else show(event, data.bands[b], s);
  });
  svg.addEventListener("mouseleave", hide);
})();
)JS";

}  // namespace

std::string html_page(const PlotData& data, const std::string& svg, const AxisMap& axes) {
  std::string title = escape_html(data.title);
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
         " - strata plot</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" +
         "<div id=\"graph\">\n" + inline_svg(svg) + "</div>\n" +
         "<p class=\"hint\">Point at a band to see its call site and its bytes.</p>\n" +
         "<div id=\"tip\"></div>\n<script type=\"application/json\" id=\"strata-data\">" +
         script_json(page_data(data, axes)) + "</script>\n<script>" + kScript +
         "</script>\n</body>\n</html>\n";
}

}  // namespace strata
