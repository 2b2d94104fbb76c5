(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("strata-data").textContent);
  resolveTexts(data);
  var report = data.report;
  var SVG = "http://www.w3.org/2000/svg";
  var units = ["B", "KiB", "MiB", "GiB", "TiB"];
  var tip = byId("tip");
  // The bands drawn, and their samples: the heap by call site (the data
  // itself), or by age (data.by_age, when the page has it).
  var series = data, bands = data.bands;
  var state = { from: data.start_time, to: data.end_time, pinned: null, highlight: -1,
                drag: null, zoomed: false };
  var MARGIN = { left: 72, right: 12, top: 12, bottom: 44 }, HEIGHT = 440;

  // ---- small helpers ------------------------------------------------------------
  function byId(id) { return document.getElementById(id); }
  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function readable(v) {
    return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  }
  function bytes(v) {
    var unit = 0;
    while (unit + 1 < units.length && v >= Math.pow(1024, unit + 1)) unit++;
    return readable(v / Math.pow(1024, unit)) + " " + units[unit];
  }
  function grouped(n) {
    var digits = String(Math.round(n)), out = "";
    for (var i = 0; i < digits.length; i++) {
      if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
      out += digits[i];
    }
    return out;
  }
  function timeText(t) { return readable(t / data.x_scale) + " " + data.x_unit; }
  // A label cut in its middle: the whole of it goes to the tip and the title.
  function shortened(text, most) {
    if (text.length <= most) return text;
    var head = Math.ceil((most - 1) / 2), tail = most - 1 - head;
    return text.slice(0, head) + "\u2026" + text.slice(text.length - tail);
  }
  function frameText(f) {
    if (!f) return "(no stack)";
    var text = f.name || "???";
    if (f.file) text += " (" + f.file + ":" + f.line + ")";
    return text;
  }
  function pctOf(part, whole) { return whole > 0 ? 100 * part / whole : 0; }

  // ---- the data's shared texts --------------------------------------------------
  // The data writes each long name once, in data.strings (page_texts.hpp): a
  // text is a string, or its pieces, each a string or an index into
  // data.strings; the report's frames are indexes into data.report_frames,
  // whose texts are indexes into data.strings.  Made whole here, once, so
  // the rest reads the data as strata report --json writes it.
  function resolveTexts(d) {
    var strings = d.strings || [];
    function text(t) {
      if (!Array.isArray(t)) return t;
      return t.map(function (p) { return typeof p === "number" ? strings[p] : p; }).join("");
    }
    function str(i) { return i === null || i === undefined ? i : strings[i]; }
    var frames = (d.report_frames || []).map(function (f) {
      return { "function": str(f["function"]), file: str(f.file), line: f.line, object: str(f.object),
               address: f.address, offset: f.offset, name: str(f.name), inlined: f.inlined };
    });
    function frame(i) { return typeof i === "number" ? frames[i] : i; }
    function frameList(list) { return list.map(frame); }
    [d, d.by_age].forEach(function (set) {
      if (!set || !set.bands) return;
      set.bands.forEach(function (band) {
        band.detail = text(band.detail);
        band.frames = band.frames.map(text);
      });
    });
    d.frames = d.frames.map(text);
    var report = d.report;
    report.contexts.forEach(function (c) { c.frames = frameList(c.frames); });
    report.leaks.concat(report.small_leaks).forEach(function (leak) {
      leak.headline = frame(leak.headline);
      leak.frames = frameList(leak.frames);
      leak.why = text(leak.why);
      leak.words = text(leak.words);
      leak.parts.forEach(function (part) {
        part.frames = frameList(part.frames);
        if ("headline" in part) part.headline = frame(part.headline);
      });
      (leak.freed_by || []).forEach(function (f) {
        f.frames = frameList(f.frames);
        f.headline = frame(f.headline);
      });
      leak.freed_at_exit_by = frame(leak.freed_at_exit_by);
    });
  }

  // ---- colours ------------------------------------------------------------------
  var cool = ["#3182bd", "#31a354", "#756bb1", "#e6550d", "#17becf", "#8c6d31", "#637939",
              "#7b4173", "#6baed6", "#74c476", "#9e9ac8", "#fd8d3c", "#bcbd22", "#843c39"];
  var reds = ["#a50f15", "#de2d26", "#fb6a4a", "#cb181d", "#ef3b2c"];
  function colour(b) {
    var band = bands[b];
    if (band.kind === "leak") return reds[b % reds.length];
    if (band.kind === "other") return "#bdbdbd";
    if (band.kind === "extra") return "#e0e0e0";
    if (band.kind === "stacks") return "#d9c7a0";
    if (band.kind === "age") return "hsl(" + (30 + 200 * b / Math.max(bands.length, 1)) + ",55%,55%)";
    return cool[b % cool.length];
  }

  // ---- the graph ----------------------------------------------------------------
  var graph = byId("graph");
  var plot = svgEl("svg", { "class": "plot", role: "img" });
  graph.appendChild(plot);
  var geometry = null;

  function stacked(s, upto) {
    var sum = 0;
    for (var b = 0; b < upto; b++) sum += bands[b].bytes[s];
    return sum;
  }
  // The samples shown: those in the range, and one on each side.
  function shownSamples() {
    var lo = 0, hi = series.times.length - 1;
    while (lo < hi && series.times[lo + 1] <= state.from) lo++;
    while (hi > lo && series.times[hi - 1] >= state.to) hi--;
    return { lo: lo, hi: hi };
  }
  function niceStep(span, count) {
    var raw = span / count, power = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 2.5, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * power >= raw) return steps[i] * power;
    return 10 * power;
  }
  function byteScale(most) {
    var unit = 0;
    while (unit + 1 < units.length && most >= Math.pow(1024, unit + 1)) unit++;
    return { divisor: Math.pow(1024, unit), unit: units[unit] };
  }
  function draw() {
    clear(plot);
    var width = Math.max(graph.clientWidth || 900, 400);
    plot.setAttribute("width", width);
    plot.setAttribute("height", HEIGHT);
    plot.setAttribute("viewBox", "0 0 " + width + " " + HEIGHT);
    var range = shownSamples(), most = 0;
    for (var s = range.lo; s <= range.hi; s++) most = Math.max(most, stacked(s, bands.length));
    data.totals.forEach(function (p) {
      if (p[0] >= state.from && p[0] <= state.to) most = Math.max(most, p[1]);
    });
    if (most <= 0) most = 1;
    var left = MARGIN.left, right = width - MARGIN.right, top = MARGIN.top,
        bottom = HEIGHT - MARGIN.bottom;
    var span = Math.max(state.to - state.from, 1e-9);
    var g = {
      left: left, right: right, top: top, bottom: bottom, most: most * 1.05,
      x: function (t) { return left + (t - state.from) / span * (right - left); },
      y: function (v) { return bottom - v / (most * 1.05) * (bottom - top); },
      time: function (x) { return state.from + (x - left) / (right - left) * span; },
      value: function (y) { return (bottom - y) / (bottom - top) * most * 1.05; }
    };
    geometry = g;
    var clip = svgEl("clipPath", { id: "plot-clip" });
    clip.appendChild(svgEl("rect", { x: left, y: top, width: right - left, height: bottom - top }));
    plot.appendChild(clip);
    drawAxes(g);
    var area = svgEl("g", { "clip-path": "url(#plot-clip)" });
    plot.appendChild(area);
    var below = [];
    for (s = range.lo; s <= range.hi; s++) below.push(0);
    for (var b = 0; b < bands.length; b++) {
      var upper = "", lower = "";
      for (s = range.lo; s <= range.hi; s++) {
        var k = s - range.lo, x = g.x(series.times[s]).toFixed(1);
        var low = below[k], high = low + bands[b].bytes[s];
        upper += (k ? "L" : "M") + x + "," + g.y(high).toFixed(1);
        lower = "L" + x + "," + g.y(low).toFixed(1) + lower;
        below[k] = high;
      }
      var path = svgEl("path", { d: upper + lower + "Z", fill: colour(b), "data-band": b,
                                 "class": "band" + (state.highlight === b ? " highlighted" :
                                                    state.highlight >= 0 ? " dimmed" : "") });
      area.appendChild(path);
    }
    if (series === data) drawTroughs(area, g);
    if (data.totals.length) {
      var line = "";
      data.totals.forEach(function (p, i) {
        line += (i ? "L" : "M") + g.x(p[0]).toFixed(1) + "," + g.y(p[1]).toFixed(1);
      });
      area.appendChild(svgEl("path", { d: line, "class": "totals" }));
    }
    drawMarkers(area, g);
    if (data.peak && data.peak[0] >= state.from && data.peak[0] <= state.to) {
      area.appendChild(svgEl("circle", { cx: g.x(data.peak[0]), cy: g.y(data.peak[1]), r: 4,
                                         "class": "peak" }));
    }
    if (state.pinned !== null) {
      var px = g.x(state.pinned);
      area.appendChild(svgEl("line", { x1: px, x2: px, y1: top, y2: bottom, "class": "pin" }));
    }
    if (state.drag && state.drag.moved) {
      var a = Math.min(state.drag.x0, state.drag.x1), w = Math.abs(state.drag.x1 - state.drag.x0);
      area.appendChild(svgEl("rect", { x: a, y: top, width: w, height: bottom - top,
                                       "class": "selection" }));
    }
    byId("range").textContent = "time " + timeText(state.from) + " to " + timeText(state.to) +
                                data.origin;
  }
  function drawAxes(g) {
    var axes = svgEl("g", { "class": "axes" });
    plot.appendChild(axes);
    axes.appendChild(svgEl("rect", { x: g.left, y: g.top, width: g.right - g.left,
                                     height: g.bottom - g.top, "class": "frame" }));
    var step = niceStep((state.to - state.from) / data.x_scale, 8);
    var first = Math.ceil(state.from / data.x_scale / step) * step;
    for (var t = first; t * data.x_scale <= state.to + 1e-9; t += step) {
      var x = g.x(t * data.x_scale);
      axes.appendChild(svgEl("line", { x1: x, x2: x, y1: g.bottom, y2: g.bottom + 5 }));
      var label = svgEl("text", { x: x, y: g.bottom + 18, "text-anchor": "middle" });
      label.textContent = String(+t.toPrecision(6));
      axes.appendChild(label);
    }
    var xname = svgEl("text", { x: (g.left + g.right) / 2, y: g.bottom + 36,
                                "text-anchor": "middle", "class": "axis-name" });
    xname.textContent = "time (" + data.x_unit + ")" + data.origin;
    axes.appendChild(xname);
    var scale = byteScale(g.most), ystep = niceStep(g.most / scale.divisor, 6);
    for (var v = 0; v * scale.divisor <= g.most; v += ystep) {
      var y = g.y(v * scale.divisor);
      axes.appendChild(svgEl("line", { x1: g.left - 5, x2: g.left, y1: y, y2: y }));
      axes.appendChild(svgEl("line", { x1: g.left, x2: g.right, y1: y, y2: y, "class": "grid" }));
      var ylabel = svgEl("text", { x: g.left - 8, y: y + 4, "text-anchor": "end" });
      ylabel.textContent = String(+v.toPrecision(6));
      axes.appendChild(ylabel);
    }
    var yname = svgEl("text", { x: 14, y: (g.top + g.bottom) / 2, "text-anchor": "middle",
                                transform: "rotate(-90 14 " + (g.top + g.bottom) / 2 + ")",
                                "class": "axis-name" });
    yname.textContent = "heap (" + scale.unit + ")";
    axes.appendChild(yname);
  }
  function drawTroughs(area, g) {
    data.troughs.forEach(function (troughs) {
      var line = "";
      troughs.points.forEach(function (p, i) {
        line += (i ? "L" : "M") + g.x(p[0]).toFixed(1) + "," + g.y(p[1]).toFixed(1);
      });
      if (line) area.appendChild(svgEl("path", { d: line, "class": "trough" }));
    });
  }
  function drawMarkers(area, g) {
    data.markers.forEach(function (m) {
      if (m[0] < state.from || m[0] > state.to) return;
      var x = g.x(m[0]);
      area.appendChild(svgEl("line", { x1: x, x2: x, y1: g.top, y2: g.bottom, "class": "marker" }));
      var label = svgEl("text", { x: x + 3, y: g.top + 12, "class": "marker-label" });
      label.textContent = shortened(m[1], 30);
      area.appendChild(label);
    });
  }

  // ---- pointing, pinning, zooming -----------------------------------------------------
  function pointed(event) {
    var box = plot.getBoundingClientRect(), g = geometry;
    var x = event.clientX - box.left, y = event.clientY - box.top;
    if (x < g.left || x > g.right || y < g.top || y > g.bottom) return null;
    return { x: x, time: g.time(x), bytes: g.value(y) };
  }
  function nearest(time) {
    var low = 0, high = series.times.length - 1;
    if (high < 0) return -1;
    while (high - low > 1) {
      var middle = (low + high) >> 1;
      if (series.times[middle] <= time) low = middle; else high = middle;
    }
    return time - series.times[low] <= series.times[high] - time ? low : high;
  }
  function bandAt(s, value) {
    var top = 0;
    for (var b = 0; b < bands.length; b++) {
      var lower = top;
      top += bands[b].bytes[s];
      if (value >= lower && value < top) return b;
    }
    return -1;
  }
  function tipLine(text, className, into) { (into || tip).appendChild(el("div", className, text)); }
  // The band's lines into the tip, or into `into` (the pinned moment's box).
  function fillTip(b, s, into) {
    var box = into || tip;
    clear(box);
    var line = function (text, className) { tipLine(text, className, box); };
    var band = bands[b], total = stacked(s, bands.length);
    line(band.legend, band.kind === "leak" ? "legend leak" : "legend");
    var when = series.between[s] ? " (its low or high between two snapshots)" : "";
    line(bytes(band.bytes[s]) + " at time " + timeText(series.times[s]) + when + ", " +
         pctOf(band.bytes[s], total).toFixed(1) + "% of the heap then");
    if (band.detail) line(band.detail);
    if (band.frames && band.frames.length) line(band.frames.join("\n"), "frames");
  }
  function placeTip(event) {
    tip.style.display = "block";
    var x = event.clientX + 16, y = event.clientY + 16;
    if (x + tip.offsetWidth > window.innerWidth) x = Math.max(0, event.clientX - tip.offsetWidth - 16);
    if (y + tip.offsetHeight > window.innerHeight) y = Math.max(0, event.clientY - tip.offsetHeight - 16);
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }
  function hideTip() { if (state.pinned === null) tip.style.display = "none"; }
  plot.addEventListener("mousemove", function (event) {
    if (state.drag) {
      var box = plot.getBoundingClientRect();
      state.drag.x1 = Math.min(Math.max(event.clientX - box.left, geometry.left), geometry.right);
      state.drag.moved = state.drag.moved || Math.abs(state.drag.x1 - state.drag.x0) > 4;
      if (state.drag.moved) draw();
      return;
    }
    if (state.pinned !== null) return;
    var at = pointed(event), s = at ? nearest(at.time) : -1, b = s >= 0 ? bandAt(s, at.bytes) : -1;
    if (b < 0) { hideTip(); return; }
    fillTip(b, s);
    placeTip(event);
  });
  plot.addEventListener("mouseleave", hideTip);
  plot.addEventListener("mousedown", function (event) {
    var at = pointed(event);
    if (!at || event.button !== 0) return;
    event.preventDefault();
    state.drag = { x0: at.x, x1: at.x, moved: false };
  });
  window.addEventListener("mouseup", function (event) {
    var drag = state.drag;
    if (!drag) return;
    state.drag = null;
    if (drag.moved) {
      var t0 = geometry.time(Math.min(drag.x0, drag.x1)), t1 = geometry.time(Math.max(drag.x0, drag.x1));
      zoom(t0, t1);
      return;
    }
    var at = pointed(event);
    if (at) pin(at);
  });
  function zoom(from, to) {
    state.from = from;
    state.to = to;
    state.zoomed = from > data.start_time || to < data.end_time;
    byId("reset").disabled = !state.zoomed;
    draw();
    if (state.pinned === null) showTree();
  }
  // A pinned moment: the tip's lines stay in a box under the graph (to be
  // selected and copied), where they cover nothing.
  function pin(at) {
    var s = nearest(at.time), b = bandAt(s, at.bytes), box = byId("pinned");
    state.pinned = series.times[s];
    tip.style.display = "none";
    if (b >= 0) {
      fillTip(b, s, box);
    } else {
      clear(box);
      tipLine("time " + timeText(series.times[s]) + data.origin, "legend", box);
    }
    box.hidden = false;
    byId("unpin").disabled = false;
    draw();
    showTree();
  }
  function unpin() {
    state.pinned = null;
    byId("pinned").hidden = true;
    byId("unpin").disabled = true;
    draw();
    showTree();
  }
  byId("reset").addEventListener("click", function () { zoom(data.start_time, data.end_time); });
  byId("unpin").addEventListener("click", unpin);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && state.pinned !== null) unpin();
  });

  // ---- the legend -----------------------------------------------------------------------
  function highlight(b) {
    state.highlight = state.highlight === b ? -1 : b;
    var items = byId("legend").children;
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle("highlighted", i === state.highlight);
    }
    draw();
  }
  function drawLegend() {
    var legend = byId("legend");
    clear(legend);
    bands.forEach(function (band, b) {
      var item = el("li", band.kind === "leak" ? "leak" : "");
      var swatch = el("span", "swatch");
      swatch.style.background = colour(b);
      item.appendChild(swatch);
      item.appendChild(el("span", "label", shortened(band.legend, 56)));
      item.title = band.legend;
      item.setAttribute("data-band", b);
      item.addEventListener("click", function () { highlight(b); });
      legend.appendChild(item);
    });
  }

  // ---- the tree at a moment -------------------------------------------------------------
  // The page holds the nodes shown at one of its moments, and each one's
  // line at each moment as changes (all 0 when it is not shown then).
  var nodes = data.parent.length, children = [], depth = new Int32Array(nodes);
  for (var n = 0; n < nodes; n++) children.push([]);
  for (n = 1; n < nodes; n++) {
    children[data.parent[n]].push(n);
    depth[n] = depth[data.parent[n]] + 1;
  }
  var lineBytes = new Float64Array(nodes), lineFolded = new Float64Array(nodes),
      lineFoldedBytes = new Float64Array(nodes), replayed = -1;
  function replayTo(m) {
    if (m < replayed) {
      lineBytes.fill(0);
      lineFolded.fill(0);
      lineFoldedBytes.fill(0);
      replayed = -1;
    }
    for (var k = replayed + 1; k <= m; k++) {
      var changes = data.moments[k].lines;
      for (var i = 0; i < changes.length; i += 4) {
        lineBytes[changes[i]] = changes[i + 1];
        lineFolded[changes[i]] = changes[i + 2];
        lineFoldedBytes[changes[i]] = changes[i + 3];
      }
    }
    replayed = m;
  }
  // As tree_lines_at (context_tree.hpp): preorder, children by bytes then
  // in the tree's order; the nodes shown then, each with its folded callers.
  function treeLines(m) {
    replayTo(m);
    var total = lineBytes[0], lines = [], pending = [0];
    while (pending.length) {
      var id = pending.pop();
      lines.push({ node: id, depth: depth[id], bytes: lineBytes[id], pct: pctOf(lineBytes[id], total),
                   folded: lineFolded[id], foldedBytes: lineFoldedBytes[id],
                   foldedPct: pctOf(lineFoldedBytes[id], total) });
      var shown = children[id].filter(function (c) { return lineBytes[c] > 0; });
      shown.sort(function (a, b) { return lineBytes[b] - lineBytes[a] || a - b; });
      for (var k = shown.length - 1; k >= 0; k--) pending.push(shown[k]);
    }
    return lines;
  }
  function nodeText(id) {
    return data.node_frames[id].map(function (f) { return data.frames[f]; }).join(" <- ");
  }
  function share(pct, b) { return pct.toFixed(2) + "% (" + grouped(b) + " bytes)"; }
  // The moment of the tree: nearest the pinned time, else the range's peak.
  function treeMoment() {
    var moments = data.moments;
    if (!moments.length) return -1;
    function closest(t) {
      var best = 0;
      for (var m = 1; m < moments.length; m++) {
        if (Math.abs(moments[m].time - t) < Math.abs(moments[best].time - t)) best = m;
      }
      return best;
    }
    if (state.pinned !== null) return closest(state.pinned);
    var top = -1, at = state.from;
    for (var s = 0; s < data.times.length; s++) {
      if (data.times[s] < state.from || data.times[s] > state.to || data.between[s]) continue;
      var total = 0;
      for (var b = 0; b < data.bands.length; b++) total += data.bands[b].bytes[s];
      if (total > top) { top = total; at = data.times[s]; }
    }
    return closest(at);
  }
  var treeState = { moment: -1, lines: [] };
  function showTree() {
    var m = treeMoment();
    var when = byId("tree-when"), command = byId("tree-command");
    if (m < 0) { when.textContent = "(no snapshot)"; return; }
    var moment = data.moments[m];
    when.textContent = "at time " + timeText(moment.time) + data.origin +
                       (state.pinned !== null ? " (pinned)" : " (the peak of the range shown)");
    command.textContent = "The heap at the snapshot at time " + moment.at +
                          ", as strata report --tree --at=" + moment.at + " shows it; nodes under " +
                          data.threshold.toFixed(1) + "% are folded.";
    when.setAttribute("data-at", moment.at);
    treeState.moment = m;
    treeState.lines = treeLines(m);
    drawTree(treeState.lines);
    drawFlame(treeState.lines);
    search();
  }
  function treeRow(line) {
    var row = el("div", "row");
    row.setAttribute("data-depth", line.depth);
    row.setAttribute("data-node", line.node);
    row.appendChild(el("span", "toggle", ""));
    row.appendChild(el("span", "share", share(line.pct, line.bytes)));
    row.appendChild(el("span", "name", line.depth === 0 ? "all the heap" : nodeText(line.node)));
    return row;
  }
  function foldedRow(line) {
    var row = el("div", "row folded");
    row.setAttribute("data-depth", line.depth + 1);
    row.appendChild(el("span", "toggle", ""));
    row.appendChild(el("span", "share", share(line.foldedPct, line.foldedBytes)));
    row.appendChild(el("span", "name", "in " + grouped(line.folded) + " " +
                       (line.depth === 0 ? "other call site" : "other caller") +
                       (line.folded === 1 ? "" : "s") + ", each under " +
                       data.threshold.toFixed(1) + "%"));
    return row;
  }
  var kMaxRows = 5000;
  function drawTree(lines) {
    var tree = byId("tree");
    clear(tree);
    var open = [], containers = [tree], rows = 0;
    function closeTo(d) {
      while (open.length && open[open.length - 1].depth >= d) {
        var line = open.pop(), kids = containers.pop();
        if (line.folded > 0) kids.appendChild(foldedRow(line));
      }
    }
    for (var i = 0; i < lines.length && rows < kMaxRows; i++, rows++) {
      var line = lines[i];
      closeTo(line.depth);
      var item = el("div", "node");
      var row = treeRow(line);
      var kids = el("div", "children");
      item.appendChild(row);
      item.appendChild(kids);
      containers[containers.length - 1].appendChild(item);
      if (line.depth >= 4) item.classList.add("collapsed");
      row.firstChild.addEventListener("click", (function (node) {
        return function () { node.classList.toggle("collapsed"); };
      })(item));
      open.push(line);
      containers.push(kids);
    }
    closeTo(0);
    if (rows < lines.length) {
      tree.appendChild(el("p", "hint", (lines.length - rows) + " more nodes are not shown: " +
                          "strata report --tree --at=" + data.moments[treeState.moment].at +
                          " lists them all"));
    }
    var items = tree.querySelectorAll(".node");
    for (i = 0; i < items.length; i++) {
      if (items[i].lastChild.firstChild) items[i].classList.add("parent");
    }
  }
  function setCollapsed(collapsed) {
    var items = byId("tree").querySelectorAll(".node");
    for (var i = 0; i < items.length; i++) items[i].classList.toggle("collapsed", collapsed && i > 0);
  }
  byId("expand").addEventListener("click", function () { setCollapsed(false); });
  byId("collapse").addEventListener("click", function () { setCollapsed(true); });

  // The icicle (the root on top) or the flame graph (the root at the bottom).
  var ROW = 18;
  function drawFlame(lines) {
    var flame = byId("flame");
    clear(flame);
    if (!lines.length || lines[0].bytes <= 0) return;
    var total = lines[0].bytes, next = {}, deepest = 0, flameGraph = viewName() === "flame";
    lines.forEach(function (l) { deepest = Math.max(deepest, l.depth); });
    flame.style.height = (deepest + 1) * ROW + "px";
    var start = {};  // node -> its left edge, in bytes
    start[lines[0].node] = 0;
    lines.forEach(function (line) {
      var left = start[line.node];
      if (line.depth > 0) {
        var parent = data.parent[line.node];
        left = next[parent] === undefined ? start[parent] : next[parent];
        next[parent] = left + line.bytes;
        start[line.node] = left;
      }
      if (line.bytes / total < 0.001) return;
      var box = el("div", "box", line.depth === 0 ? "all the heap" : nodeText(line.node));
      box.setAttribute("data-node", line.node);
      box.title = (line.depth === 0 ? "all the heap" : nodeText(line.node)) + "\n" +
                  share(line.pct, line.bytes);
      box.style.left = (100 * left / total) + "%";
      box.style.width = (100 * line.bytes / total) + "%";
      box.style.top = (flameGraph ? deepest - line.depth : line.depth) * ROW + "px";
      box.style.background = line.depth === 0 ? "#ddd" :
                             "hsl(" + (20 + (line.node * 37) % 40) + ",80%," + (62 + line.depth % 3 * 6) + "%)";
      flame.appendChild(box);
    });
  }
  function viewName() {
    var views = document.getElementsByName("view");
    for (var i = 0; i < views.length; i++) if (views[i].checked) return views[i].value;
    return "tree";
  }
  Array.prototype.forEach.call(document.getElementsByName("view"), function (radio) {
    radio.addEventListener("change", function () {
      var name = viewName();
      byId("tree").hidden = name !== "tree";
      byId("flame").hidden = name === "tree";
      drawFlame(treeState.lines);
      search();
    });
  });

  // ---- search -------------------------------------------------------------------------------
  function search() {
    var query = byId("search").value.trim().toLowerCase(), count = 0;
    var names = byId("tree").querySelectorAll(".node > .row .name");
    for (var i = 0; i < names.length; i++) {
      var row = names[i].parentNode;
      var match = query !== "" && row.getAttribute("data-depth") !== "0" &&
                  names[i].textContent.toLowerCase().indexOf(query) >= 0;
      row.classList.toggle("match", match);
      if (match) {
        count++;
        for (var node = row.parentNode.parentNode; node && node.id !== "tree"; node = node.parentNode) {
          if (node.classList && node.classList.contains("node")) node.classList.remove("collapsed");
        }
      }
    }
    var boxes = byId("flame").querySelectorAll(".box");
    for (i = 0; i < boxes.length; i++) {
      boxes[i].classList.toggle("match", query !== "" && boxes[i].getAttribute("data-node") !== "0" &&
                                boxes[i].textContent.toLowerCase().indexOf(query) >= 0);
    }
    byId("matches").textContent = query === "" ? "" : count + (count === 1 ? " node matches" : " nodes match");
  }
  byId("search").addEventListener("input", search);

  // ---- the findings ---------------------------------------------------------------------
  function list(title, items) {
    var box = el("div", "evidence");
    box.appendChild(el("div", "evidence-title", title));
    var ul = el("ul");
    items.forEach(function (text) { ul.appendChild(el("li", "", text)); });
    box.appendChild(ul);
    return box;
  }
  function drawFindings() {
    var findings = byId("findings");
    var leaks = report.leaks.concat(report.small_leaks);
    if (!leaks.length) {
      findings.appendChild(el("p", "hint", report.selection ? "No leak is judged for a question of time." :
                                           "No leak suspect."));
      return;
    }
    leaks.forEach(function (leak, i) {
      var card = el("div", "finding");
      card.setAttribute("data-finding", i);
      var heading = (leak.kind === "growth" ? "Growth" : "Leak") + " at " + frameText(leak.headline) +
                    (leak.context ? ", context #" + leak.context : "") +
                    " (confidence " + leak.confidence.toFixed(2) + ")";
      card.appendChild(el("div", "finding-title", heading));
      card.appendChild(el("div", "why", leak.why));
      if (leak.words) card.appendChild(el("div", "words", leak.words));
      var details = el("details");
      details.appendChild(el("summary", "", "its stack, its parts and who frees it"));
      details.appendChild(list("stack", leak.frames.map(frameText)));
      if (leak.parts.length) {
        details.appendChild(list("parts", leak.parts.map(function (part) {
          var where = part.frames.length ? part.frames.map(frameText).join(" <- ") : "its own sites";
          return part.share_pct.toFixed(1) + "% " + where +
                 (part.kept_bytes !== undefined ? " (" + grouped(part.kept_bytes) + " bytes kept)" : "");
        })));
      }
      if (leak.retention) {
        details.appendChild(list("survivors by birth: the share kept of what it made, by part of its span",
                                 [leak.retention.map(function (r) { return (100 * r).toFixed(0) + "%"; }).join(", ")]));
      }
      var context = leak.context ? report.contexts[leak.context - 1] : null;
      if (context && context.born && context.born.length) {
        details.appendChild(list("born", context.born.map(function (b) {
          return grouped(b.bytes) + " bytes born from time " + b.from + " to " + b.to;
        })));
      }
      if (leak.freed_by && leak.freed_by.length) {
        details.appendChild(list("freed by", leak.freed_by.map(function (f) {
          return f.share_pct.toFixed(0) + "% " + f.frames.map(frameText).join(" <- ") +
                 (f.at_exit ? " (at exit)" : "");
        })));
      } else if (leak.freed_at_exit_by) {
        details.appendChild(list("freed at exit by", [frameText(leak.freed_at_exit_by)]));
      }
      card.appendChild(details);
      card.addEventListener("click", function (event) {
        if (event.target.tagName === "SUMMARY") return;
        var cards = findings.querySelectorAll(".finding");
        for (var c = 0; c < cards.length; c++) cards[c].classList.toggle("chosen", cards[c] === card);
        details.open = true;
        if (i < data.bands.length && data.bands[i].kind === "leak") {
          if (series !== data) setSeries(data);
          state.highlight = -1;
          highlight(i);
        }
      });
      findings.appendChild(card);
    });
  }

  // ---- the table of contexts -------------------------------------------------------------
  var columns = [
    { key: "rank", title: "#", value: function (c) { return c.rank; }, text: String },
    { key: "context", title: "context", value: function (c) { return contextName(c); }, text: String },
    { key: "peak", title: "at the peak", value: function (c) { return c.peak_bytes; }, text: grouped },
    { key: "spacetime", title: "spacetime", value: function (c) { return c.spacetime_pct; },
      text: function (v) { return v.toFixed(2) + "%"; } },
    { key: "allocations", title: "allocations", value: function (c) { return c.allocations ? c.allocations.calls : null; }, text: grouped },
    { key: "temporary", title: "temporary", value: function (c) { return c.allocations ? c.allocations.temporary : null; }, text: grouped },
    { key: "allocated", title: "allocated bytes", value: function (c) { return c.allocations ? c.allocations.allocated_bytes : null; }, text: grouped },
    { key: "end", title: "at the end", value: function (c) { return c.end_bytes; }, text: grouped }
  ];
  function contextName(c) {
    if (c.other_places) return grouped(c.other_places) + " other places";
    return c.frames.length ? c.frames.map(frameText).join(" <- ") : "(no stack)";
  }
  var sorted = { key: "rank", down: false };
  function drawTable() {
    var table = byId("contexts"), head = table.tHead, body = table.tBodies[0];
    clear(head);
    clear(body);
    var row = el("tr");
    columns.forEach(function (column) {
      var th = el("th", "", column.title + (sorted.key === column.key ? (sorted.down ? " \u25bc" : " \u25b2") : ""));
      th.setAttribute("data-key", column.key);
      th.addEventListener("click", function () {
        sorted = { key: column.key, down: sorted.key === column.key ? !sorted.down : column.key !== "rank" && column.key !== "context" };
        drawTable();
      });
      row.appendChild(th);
    });
    head.appendChild(row);
    var column = columns.filter(function (c) { return c.key === sorted.key; })[0];
    var contexts = report.contexts.slice().sort(function (a, b) {
      var x = column.value(a), y = column.value(b);
      var order = x === y ? a.rank - b.rank : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return sorted.down && x !== y ? -order : order;
    });
    contexts.forEach(function (c) {
      var tr = el("tr");
      tr.setAttribute("data-rank", c.rank);
      columns.forEach(function (col) {
        var v = col.value(c);
        var td = el("td", col.key, v === null ? "" : col.key === "context" ? shortened(v, 80) : col.text(v));
        if (col.key === "context") td.title = v;
        td.setAttribute("data-value", v === null ? "" : v);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  // ---- by age ------------------------------------------------------------------------------
  function setSeries(set) {
    series = set;
    bands = set.bands;
    state.highlight = -1;
    byId("by-age").checked = set !== data;
    drawLegend();
    draw();
  }
  if (data.by_age && data.by_age.bands && data.by_age.bands.length) {
    byId("age-toggle").hidden = false;
    byId("by-age").addEventListener("change", function (event) {
      setSeries(event.target.checked ? data.by_age : data);
    });
    if (data.by_age_first) {
      series = data.by_age;
      bands = data.by_age.bands;
    }
  }

  byId("title").textContent = data.title;
  byId("by-age").checked = series !== data;
  drawLegend();
  draw();
  showTree();
  drawFindings();
  drawTable();
  window.addEventListener("resize", draw);
})();
