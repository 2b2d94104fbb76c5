// SPDX-License-Identifier: GPL-2.0-or-later
// The style of the page (page.hpp).
#include "render/page.hpp"

namespace strata {

const char* const kPageStyle = R"CSS(
body { font-family: sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.2em; overflow-wrap: anywhere; white-space: pre-wrap; }
h2 { font-size: 1.05em; margin-top: 1.5em; }
.hint { color: #666; font-size: 90%; }
.bar { margin: 0.4em 0; display: flex; gap: 0.8em; align-items: center; flex-wrap: wrap; }
#range { color: #444; font-size: 90%; }
#plot-row { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
#graph { flex: 1 1 700px; min-width: 400px; user-select: none; }
#graph svg { display: block; font-size: 11px; }
.axes line { stroke: #444; }
.axes line.grid { stroke: #eee; }
.axes rect.frame { fill: none; stroke: #888; }
.axes text { fill: #333; }
.axes .axis-name { font-size: 12px; }
path.band { stroke: rgba(255, 255, 255, 0.6); stroke-width: 0.5; }
path.band.dimmed { opacity: 0.25; }
path.band.highlighted { stroke: #000; stroke-width: 1.5; }
path.trough { fill: none; stroke: #3b0000; stroke-width: 2; stroke-dasharray: 5 3; }
path.totals { fill: none; stroke: #000; stroke-width: 1; }
line.marker { stroke: #999; stroke-dasharray: 2 3; }
.marker-label { fill: #555; font-size: 10px; }
circle.peak { fill: #000; }
line.pin { stroke: #000; stroke-width: 1.5; }
rect.selection { fill: rgba(30, 100, 200, 0.2); stroke: #1e64c8; }
#legend { flex: 0 1 26em; list-style: none; padding: 0; margin: 0; font-size: 12px;
          max-height: 440px; overflow-y: auto; }
#legend li { cursor: pointer; padding: 2px 4px; border-radius: 3px; white-space: nowrap;
             overflow: hidden; text-overflow: ellipsis; }
#legend li.highlighted { background: #fde8b0; }
#legend li.leak .label { color: #a50f15; font-weight: bold; }
.swatch { display: inline-block; width: 1em; height: 0.8em; margin-right: 0.4em;
          vertical-align: middle; border: 1px solid #999; }
#tip { position: fixed; display: none; pointer-events: none; z-index: 1;
       background: #fffff4; border: 1px solid #999; border-radius: 4px;
       box-shadow: 2px 2px 6px rgba(0, 0, 0, 0.25); padding: 6px 9px;
       font-size: 12px; max-width: 48em; }
#pinned { background: #fffff4; border: 1px solid #000; border-radius: 4px; padding: 6px 9px;
          font-size: 12px; margin: 0.5em 0; user-select: text; }
#tip div, #pinned div { white-space: pre-wrap; overflow-wrap: anywhere; }
#tip .legend, #pinned .legend { font-weight: bold; }
#tip .leak, #pinned .leak { color: #a50f15; }
#tip .frames, #pinned .frames { font-family: monospace; color: #444; margin-top: 4px; }
#tree { font-size: 12px; font-family: monospace; }
#tree .children { margin-left: 1.2em; }
#tree .node.collapsed > .children { display: none; }
#tree .row { white-space: pre-wrap; overflow-wrap: anywhere; padding: 1px 0; }
#tree .toggle { display: inline-block; width: 1.2em; cursor: pointer; color: #666; }
#tree .node.parent > .row > .toggle::before { content: "\25be"; }
#tree .node.parent.collapsed > .row > .toggle::before { content: "\25b8"; }
#tree .share { color: #0b4f8a; margin-right: 0.6em; }
#tree .folded .name { color: #777; }
.match .name, .box.match { background: #ffe94d; }
#flame { position: relative; font-size: 11px; font-family: monospace; }
#flame .box { position: absolute; height: 17px; overflow: hidden; white-space: nowrap;
              text-overflow: ellipsis; box-sizing: border-box; border: 1px solid #fff;
              padding: 0 2px; line-height: 15px; }
#flame .box.match { background: #ffe94d !important; }
.finding { border: 1px solid #ddd; border-radius: 4px; padding: 6px 9px; margin: 6px 0;
           cursor: pointer; }
.finding.chosen { border-color: #a50f15; background: #fff6f6; }
.finding-title { font-weight: bold; color: #a50f15; overflow-wrap: anywhere; white-space: pre-wrap; }
.finding .why, .finding .words { margin: 3px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.evidence { margin: 4px 0 4px 1em; font-size: 90%; }
.evidence-title { color: #555; }
.evidence li { white-space: pre-wrap; overflow-wrap: anywhere; font-family: monospace; }
#contexts { border-collapse: collapse; font-size: 12px; }
#contexts th { cursor: pointer; background: #f0f0f0; text-align: left; padding: 3px 6px; }
#contexts td { border-top: 1px solid #eee; padding: 3px 6px; }
#contexts td.context { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 40em; }
#contexts td:not(.context) { text-align: right; font-variant-numeric: tabular-nums; }
)CSS";

}  // namespace strata
