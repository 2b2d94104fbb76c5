#!/bin/bash
# strata plot -o -: the graph in the terminal, with gnuplot's dumb terminal.
# Given a size by $COLUMNS and $LINES, by --width and --height, or by a
# terminal (script(1) gives one, stty sets its size): the graph fits, also
# with names in CJK and emoji, its legend names the leak, and in a terminal
# it is in colour, colours of the palette.  Hostile names are drawn as
# text, nothing runs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# fits FILE COLUMNS LINES: the output has LINES lines, none wider than COLUMNS
# columns of a terminal once the colour escapes are taken out (East Asian
# wide characters and emoji take two, combining marks and zero-width spaces
# none).
fits() {
   "$PYTHON" - "$@" <<'PYEOF'
import re, sys, unicodedata
def columns(line):
    return sum(0 if unicodedata.combining(c) or c in "\u200b\u200d" else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
text = open(sys.argv[1], encoding="utf-8").read().replace("\r", "")
lines = re.sub(r"\x1b\[[0-9;]*m", "", text).split("\n")
if lines[-1] == "": lines.pop()
widest = max(columns(l) for l in lines)
ok = len(lines) == int(sys.argv[3]) and widest <= int(sys.argv[2])
print("fits" if ok else "%d lines, %d wide" % (len(lines), widest))
PYEOF
}

record_ok leaky "$EXAMPLES/leaky-player" || finish
COLUMNS=100 LINES=30 "$STRATA" plot "$profile" -o - >"$WORK/mono.txt" 2>"$WORK/mono.err"
expect_eq "-o -, not a terminal: exit status" "$?" 0
expect_eq "... 100 by 30" "$(fits "$WORK/mono.txt" 100 30)" fits
expect_not "... no colour" grep -q $'\e' "$WORK/mono.txt"
expect_in "... the leak's legend" "$WORK/mono.txt" '^ +\*+LEAK: frame_alloc \(leaky-player\.c:[0-9]+\) ← decoder_decode'
COLUMNS=100 LINES=30 "$STRATA" plot --leaks-from=curves "$profile" -o - >"$WORK/curves.txt" 2>&1
expect_in "... its troughs, judged from the curves" "$WORK/curves.txt" 'LEAK: its troughs, \+600 KiB per cycle'
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
   # gnuplot 5.4 sent colours 256 and 259 for the greys of the other places
   # and the extra heap, which no 256-colour palette has.
   expect_in "... the other places and the extra heap in colours of the palette" "$WORK/tty.txt" \
      $'\e\\[38;5;188m.*\e\\[0;39m[0-9]+ other places'
   expect_eq "... every colour from 0 to 255" \
      "$(grep -o $'\e\\[38;5;[0-9]*m' "$WORK/tty.txt" | tr -dc '0-9\n' | sed 's/^385//' |
         awk '$1 > 255' | head -3)" ""
   NO_COLOR=1 script -qec "stty cols 90 rows 28; exec '$STRATA' plot '$profile' -o -" /dev/null \
      >"$WORK/nocolor.txt" 2>&1
   expect_not "... NO_COLOR=1: no colour" grep -q $'\e\\[38' "$WORK/nocolor.txt"
   NO_COLOR= script -qec "stty cols 90 rows 28; exec '$STRATA' plot '$profile' -o - --width=70 --height=24" \
      /dev/null >"$WORK/sized.txt" 2>&1
   expect_eq "--width=70 --height=24 in a 90x28 terminal: 70 by 24" "$(fits "$WORK/sized.txt" 70 24)" fits
else
   echo "script(1) cannot make a terminal here: the terminal's own size is not tested"
fi

"$STRATA" plot "$profile" -o - --keep-script >/dev/null 2>"$WORK/keep.err"
expect_eq "-o - --keep-script: status 1" "$?" 1

# The size options are characters with -o -: applied, or out of range an
# error (they were ignored).
COLUMNS=100 LINES=30 "$STRATA" plot "$profile" -o - --width=60 --height=20 >"$WORK/small.txt"
expect_eq "--width=60 --height=20: 60 by 20" "$(fits "$WORK/small.txt" 60 20)" fits
"$STRATA" plot "$profile" -o - --width=5 --height=99999 >/dev/null 2>"$WORK/size.err"
expect_eq "-o - --width=5: status 1" "$?" 1
expect_eq "... one line naming it" "$(cat "$WORK/size.err")" \
   'strata plot: --width=5: must be 20 to 1000 characters with -o -'
"$STRATA" plot "$profile" -o - --height=99999 >/dev/null 2>"$WORK/size.err"
expect_eq "-o - --height=99999: status 1" "$?" 1
expect_eq "... one line naming it" "$(cat "$WORK/size.err")" \
   'strata plot: --height=99999: must be 20 to 1000 lines with -o -'

# Wide characters: names in CJK and emoji, their legends cut to the
# terminal's columns, each line within it.
"$PYTHON" - "$WORK/wide.strata" <<'PYEOF'
import sys
lines = ["strata-profile\t2", "cmd\t./wide", "pid\t1", "ppid\t0", "time_unit\ti",
         "F\t1\t0x401000\t0\t%s\twide.c\t1\t/bin/w\t" % ("\u6f22\u5b57" * 100),
         "F\t2\t0x401010\t0\tcall_%s_x\twide.c\t2\t/bin/w\t" % ("\U0001f389" * 90),
         "F\t3\t0x401020\t0\tmix_e\u0301_\u6f22\U0001f389_end\twide.c\t3\t/bin/w\t",
         "F\t4\t0x401030\t0\tmain\twide.c\t9\t/bin/w\t",
         "S\t1\t1\t4", "S\t2\t2\t4", "S\t3\t3\t4",
         "T\tregular\t10\t600\t0\t0", "s\t1\t300\t1\t0\t300", "s\t2\t200\t1\t0\t200",
         "s\t3\t100\t1\t0\t100", "E", "T\tregular\t20\t300\t0\t0", "s\t1\t150\t1\t150\t300",
         "E", "X\t30"]
open(sys.argv[1], "w", encoding="utf-8").write("\n".join(lines) + "\n")
PYEOF
COLUMNS=80 LINES=30 "$STRATA" plot "$WORK/wide.strata" -o - >"$WORK/wide.txt" 2>"$WORK/wide.err"
expect_eq "wide characters: exit status" "$?" 0
expect_eq "wide characters: 80 by 30 columns" "$(fits "$WORK/wide.txt" 80 30)" fits
expect_in "wide characters: the CJK legend, cut" "$WORK/wide.txt" \
   $'^ +\\*+\xe6\xbc\xa2\xe2\x80\x8b\xe5\xad\x97\xe2\x80\x8b.*\xe2\x80\xa6 *$'
expect_in "wide characters: the emoji legend from its start" "$WORK/wide.txt" '^ +#+call_'
expect_in "wide characters: a combining mark" "$WORK/wide.txt" $'mix_e\xcc\x81_'

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
