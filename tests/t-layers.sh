#!/bin/bash
# The strata command's dependencies run one way (tests/layers, docs/design.md
# "The folders"): no folder includes one it may not, no include cycle between
# modules or folders.  Checked on plot/, and, so that the check itself is
# known to work, on a copy of plot/ with a forbidden include and a cycle.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

layers() { "$PYTHON" "$top_srcdir/tests/layers" "$1" 2>"$WORK/layers.err"; }

expect_eq "plot/: no violation" "$(layers "$top_srcdir/plot")" ""
expect_in "... every folder checked" "$WORK/layers.err" '^checked [0-9]+ modules in 9 folders$'

cp -r "$top_srcdir/plot" "$WORK/plot"
sed -i '0,/^#include "/s//#include "view\/report.hpp"\n&/' "$WORK/plot/analyze/leaks.hpp"
layers "$WORK/plot" >"$WORK/bad.out"
expect_in "analyze/ including view/: found" "$WORK/bad.out" \
   '^analyze/leaks.hpp: analyze/ may not include view/report.hpp$'
expect_in "... and the cycle it makes between the folders" "$WORK/bad.out" \
   '^an include cycle between folders: '

cp -r "$top_srcdir/plot" "$WORK/plot2"
sed -i '0,/^#include "/s//#include "analyze\/heap_analysis.hpp"\n&/' "$WORK/plot2/analyze/series.hpp"
layers "$WORK/plot2" >"$WORK/cycle.out"
expect_in "a cycle between modules of one folder: found" "$WORK/cycle.out" \
   '^an include cycle between modules: .*analyze/series'
finish
