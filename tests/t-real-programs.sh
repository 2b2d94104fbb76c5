#!/bin/bash
# Real programs from Debian packages, with small inputs: GCC's compiler proper
# (cc1plus) on a small C++ file, python3 building a list of JSON strings, and
# awk counting words.
# The default report's contexts (at most 20) and the default graph's bands (at
# most 12, the "other places" and the extra heap aside) must hold at least 80%
# of the useful heap at the peak, and no label may be a bare address.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

CC1PLUS=$(ls /usr/lib/gcc/x86_64-linux-gnu/*/cc1plus 2>/dev/null | sort -V | tail -1)
PYTHON3=/usr/bin/python3
if [ -z "$CC1PLUS" ] && [ ! -x "$PYTHON3" ] && [ ! -x /usr/bin/awk ]; then
   echo "neither cc1plus nor /usr/bin/python3 nor awk: skipped"
   exit 77
fi

# check NAME PROFILE: the figures of the default report and graph.
check() {
   "$STRATA" report --json "$2" >"$WORK/$1.json" 2>"$WORK/$1.report.err"
   expect_eq "$1: report exits 0" "$?" 0
   "$STRATA" plot "$2" -o "$WORK/$1.html" >"$WORK/$1.plot.out" 2>&1
   expect_eq "$1: plot exits 0" "$?" 0
   local figures
   figures=$("$PYTHON" "$top_srcdir/tests/coverage" "$WORK/$1.json" "$WORK/$1.html")
   echo "$1: $figures"
   set -- "$1" $figures
   expect_le "$1: the report's contexts are at most 20" "$3" 20
   expect_le "$1: they hold at least 80% of the peak's useful heap" 80 "$5"
   expect_le "$1: the graph's bands (other than the other places and extra heap) are at most 12" "$7" 12
   expect_le "$1: they hold at least 80% of the peak's useful heap" 80 "$8"
   expect_eq "$1: no two legends alike" "${10}" 0
   expect_eq "$1: no label is a bare address" "${12}" 0
}

if [ -x "$PYTHON3" ]; then
   PYTHONMALLOC=malloc record_ok python3 -- "$PYTHON3" -c \
      'import json; l = [json.dumps({"k": i, "v": "x" * (i % 50)}) for i in range(60000)]'
   [ -n "${profile:-}" ] && check python3 "$profile"
fi

if [ -n "$CC1PLUS" ]; then
   cat >"$WORK/small.cpp" <<'CPP'
#include <map>
#include <string>
#include <vector>
int f() { std::map<std::string, std::vector<int>> m; m["a"].push_back(1); return m.size(); }
CPP
   record_ok cc1plus -- "$CC1PLUS" -quiet -imultiarch x86_64-linux-gnu -D_GNU_SOURCE \
      "$WORK/small.cpp" -O1 -o "$WORK/small.s"
   [ -n "${profile:-}" ] && check cc1plus "$profile"
fi
AWK=$(readlink -f /usr/bin/awk 2>/dev/null)
if [ -x "$AWK" ]; then
   # A text tool: awk counting the words of 20,000 generated lines in an
   # associative array (mawk, Debian's awk, is stripped: its frames are
   # object+0xOFFSET).
   "$PYTHON" -c '
import random
r = random.Random(1)
for i in range(20000):
    print(" ".join(r.choice(["alpha", "beta", "gamma"]) + str(r.randint(0, 3000)) for _ in range(6)))
' >"$WORK/words.txt"
   record_ok awk -- "$AWK" '{ for (i = 1; i <= NF; i++) n[$i]++ } END { for (w in n) c++; print c }' \
      "$WORK/words.txt"
   [ -n "${profile:-}" ] && check awk "$profile"
fi
finish
