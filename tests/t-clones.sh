#!/bin/bash
# GCC's clones are called by their function in what the report and the graph
# say (issue 33; plot/model/frame_names.hpp): clones' log_append, built at
# -O2, is the symbol log_append.constprop.0; the leak's headline (text and
# JSON), its words and the graph's legend say log_append, and the full stack
# keeps the symbol.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

command -v nm >/dev/null || { echo "SKIP: nm (binutils) is missing"; exit 77; }

symbol=$(nm "$PROGS/clones" | awk '$3 ~ /^log_append[.]/ { print $3 }')
expect_eq "GCC made a clone of log_append" "$symbol" "log_append.constprop.0"
line=$(line_of "$top_srcdir/tests/programs/clones.c" 'the leak \*/')

record_ok clones --time-unit=B "$PROGS/clones" || { finish; exit; }
"$STRATA" report "$profile" >"$WORK/report.txt" 2>&1
expect_eq "strata report exits 0" "$?" 0
expect_in "the headline says log_append" "$WORK/report.txt" \
   "^#1 Growth at log_append \\(clones.c:$line\\), context"
expect_in "the stacks give the symbol" "$WORK/report.txt" \
   "^     log_append[.]constprop[.]0 \\(clones.c:$line\\)$"
expect_eq "the symbol is nowhere else (the context's stack and the leak's)" \
   "$(grep -c 'constprop' "$WORK/report.txt")" 2

"$STRATA" report --json "$profile" >"$WORK/report.json"
expect_eq "JSON: the headline's name and its function" \
   "$("$PYTHON" -c 'import json, sys
h = json.load(open(sys.argv[1]))["leaks"][0]["headline"]
print(h["name"], h["function"])' "$WORK/report.json")" "log_append log_append.constprop.0"
"$PYTHON" -c 'import json, sys
print(json.load(open(sys.argv[1]))["leaks"][0]["words"])' "$WORK/report.json" >"$WORK/words"
expect_in "JSON: the words say log_append" "$WORK/words" \
   "^memory left behind all through the run: 1 place, [0-9.]+ KiB, 100% at log_append \\(clones.c:$line\\) <- main;"

"$STRATA" plot "$profile" -o "$WORK/clones.html"
expect_eq "strata plot exits 0" "$?" 0
"$PYTHON" "$top_srcdir/tests/plot-check" html "$WORK/clones.html" >"$WORK/html.facts"
expect_in "the graph's legend says log_append" "$WORK/html.facts" \
   "^band [a-z]+ GROWTH: log_append \\(clones.c:$line\\)"
expect_not "and never the clone" grep -q 'constprop' "$WORK/html.facts"
finish
