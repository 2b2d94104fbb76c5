#!/bin/bash
# Every input kept under tests/fuzz/ (the seed corpus of make fuzz, and each
# input that once crashed or hung a fuzz target) goes through ./strata:
# report, report --tree --json, plot.  Each must end within 20 s of CPU with
# status 0 (warnings only on stderr) or 1 and one line "strata: FILE...", and
# a graph drawn must parse as XML.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# replay NAME INPUT ARGS...: strata ARGS (ARGS hold the INPUT's name).
replay() {
   local name=$1 input=$2 status
   shift 2
   (ulimit -t 20 && exec "$STRATA" "$@") >"$WORK/$name.out" 2>"$WORK/$name.err"
   status=$?
   checks=$((checks + 1))
   if [ $status -eq 0 ] && ! grep -qv '^strata: warning: ' "$WORK/$name.err"; then
      pass "$name: read"
   elif [ $status -eq 1 ] && [ "$(wc -l <"$WORK/$name.err")" -eq 1 ] &&
      grep -q "^strata: .*$(basename "$input")" "$WORK/$name.err"; then
      pass "$name: refused ($(cut -c1-100 "$WORK/$name.err"))"
   else
      fail "$name: status $status; stderr:"
      head -20 "$WORK/$name.err" | sed 's/^/   | /'
   fi
   return $status
}

count=0
for input in "$top_srcdir"/tests/fuzz/strata/* "$top_srcdir"/tests/fuzz/massif/*; do
   [ -f "$input" ] || continue
   count=$((count + 1))
   name=$(basename "$(dirname "$input")")-$(basename "$input")
   replay "$name report" "$input" report "$input"
   replay "$name tree" "$input" report --tree --json "$input"
   if replay "$name plot" "$input" plot "$input" -o "$WORK/graph.svg"; then
      "$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/graph.svg" >/dev/null 2>"$WORK/check.err"
      parsed=$?
      expect_eq "$name: the SVG parses ($(cat "$WORK/check.err"))" "$parsed" 0
   fi
   rm -f "$WORK/graph.svg"
done
expect_le "inputs replayed" 10 "$count"
finish
