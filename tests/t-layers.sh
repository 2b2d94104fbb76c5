#!/bin/bash
# The strata command's dependencies run one way (tests/layers, docs/design.md
# "The folders"): no folder includes one it may not, no include cycle between
# modules or folders.  Checked on plot/, and, so that the check itself is
# known to work, on a copy of plot/ with a forbidden include and a cycle.
# And the tool's: the recorder's core (massif/st_core.h) includes only its
# own headers and the port (st_port.h), the one place it meets its host.
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
# The core's files and what they include, quoted or bracketed, but the port.
core_includes() {
   local f
   for f in st_core.h st_write.h st_heap.c st_lifetimes.c st_write.c; do
      sed -n "s/^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]\([^\">]*\).*/$f: \1/p" "$1/$f"
   done | grep -v ': st_\(core\|port\|write\)\.h$'
}
expect_eq "massif/: the core includes nothing but the core and the port" \
   "$(core_includes "$top_srcdir/massif")" ""
mkdir -p "$WORK/massif" && cp "$top_srcdir"/massif/st_* "$WORK/massif/"
sed -i '0,/^#include "st_core.h"/s//&\n#include "pub_tool_debuginfo.h"/' "$WORK/massif/st_heap.c"
expect_eq "... a core file that includes Valgrind's headers: found" \
   "$(core_includes "$WORK/massif")" "st_heap.c: pub_tool_debuginfo.h"
finish
