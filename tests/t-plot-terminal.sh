#!/bin/bash
# strata plot -o -: the graph in the terminal, with gnuplot's dumb terminal.
# Given a size by $COLUMNS and $LINES, or by a terminal (script(1) gives one,
# stty sets its size): the graph fits, its legend names the leak, and in a
# terminal it is in colour.  Hostile names are drawn as text, nothing runs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# fits FILE COLUMNS LINES: the output has LINES lines, none wider than COLUMNS
# characters once the colour escapes are taken out.
fits() {
   "$PYTHON" - "$@" <<'PYEOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read().replace("\r", "")
lines = re.sub(r"\x1b\[[0-9;]*m", "", text).split("\n")
if lines[-1] == "": lines.pop()
ok = len(lines) == int(sys.argv[3]) and max(len(l) for l in lines) <= int(sys.argv[2])
print("fits" if ok else "%d lines, %d wide" % (len(lines), max(len(l) for l in lines)))
PYEOF
}

record_ok leaky "$EXAMPLES/leaky-player" || finish
COLUMNS=100 LINES=30 "$STRATA" plot "$profile" -o - >"$WORK/mono.txt" 2>"$WORK/mono.err"
expect_eq "-o -, not a terminal: exit status" "$?" 0
expect_eq "... 100 by 30" "$(fits "$WORK/mono.txt" 100 30)" fits
expect_not "... no colour" grep -q $'\e' "$WORK/mono.txt"
expect_in "... the leak's legend" "$WORK/mono.txt" '^ +\*+LEAK: frame_alloc \(leaky-player\.c:[0-9]+\) ← decoder_decode'
expect_in "... its troughs" "$WORK/mono.txt" 'LEAK: its troughs, \+600 KiB per cycle'
expect_in "... the peak" "$WORK/mono.txt" 'peak: 5\.0[0-9] MiB at 1[0-9]+ Mi instructions'
expect_in "... bytes in MiB" "$WORK/mono.txt" '^ *[0-9] MiB \+'
expect_eq "... nothing on stderr" "$(cat "$WORK/mono.err")" ""

if script -qec true /dev/null >/dev/null 2>&1; then
   NO_COLOR= script -qec "stty cols 90 rows 28; exec '$STRATA' plot '$profile' -o -" /dev/null \
      >"$WORK/tty.txt" 2>&1
   expect_eq "in a 90x28 terminal: exit status" "$?" 0
   expect_eq "... fits it" "$(fits "$WORK/tty.txt" 90 28)" fits
   expect_in "... in colour, the leak's legend in its red" "$WORK/tty.txt" \
      $'\e\\[38;5;[0-9]+m\\+-+\\+\e\\[0;39mLEAK: frame_alloc'
   NO_COLOR=1 script -qec "stty cols 90 rows 28; exec '$STRATA' plot '$profile' -o -" /dev/null \
      >"$WORK/nocolor.txt" 2>&1
   expect_not "... NO_COLOR=1: no colour" grep -q $'\e\\[38' "$WORK/nocolor.txt"
else
   echo "script(1) cannot make a terminal here: the terminal's own size is not tested"
fi

"$STRATA" plot "$profile" -o - --keep-script >/dev/null 2>"$WORK/keep.err"
expect_eq "-o - --keep-script: status 1" "$?" 1

rm -f /tmp/strata-PWNED-*
COLUMNS=120 LINES=40 "$STRATA" plot "$top_srcdir/tests/data/hostile-export.strata" -o - \
   >"$WORK/hostile.txt" 2>"$WORK/hostile.err"
expect_eq "hostile names: exit status" "$?" 0
expect_eq "hostile names: 120 by 40" "$(fits "$WORK/hostile.txt" 120 40)" fits
expect_in "hostile names: drawn as they are" "$WORK/hostile.txt" 'a;b \(semi;colon\.c:20\) ← main'
expect_in "hostile names: <script> and ]]> (a zero-width space in it)" "$WORK/hostile.txt" '<script>x</script> \]\][^ ]*> \(\]\][^ ]*>\.c:50\)'
made=$(ls /tmp/strata-PWNED-* 2>/dev/null)
expect_eq "hostile names: nothing ran" "$made" ""
finish
