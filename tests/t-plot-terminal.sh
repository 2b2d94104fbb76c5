#!/bin/bash
# strata plot -o -: the graph in the terminal, with gnuplot's dumb terminal.
# Given a size by $COLUMNS and $LINES, by --width and --height, or by a
# terminal (script(1) gives one, stty sets its size): the graph fits, also
# with names in CJK and emoji, its legend names the leak, and in a terminal
# it is in colour, colours of the palette.  Hostile names are drawn as
# text, nothing runs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
# A UTF-8 locale and a 256-colour terminal unless a check says otherwise.
export LC_ALL=C.UTF-8 TERM=xterm-256color
unset COLORTERM

# fits FILE COLUMNS LINES: the output has LINES lines, none wider than COLUMNS
# columns of a terminal once the colour escapes are taken out (East Asian
# wide characters and emoji take two, combining marks and zero-width spaces
# none).
fits() {
   run_py plot_terminal_fits "$@"
}

# sound FILE COLUMNS LINES utf8|ascii [REFERENCE]: the terminal's picture is
# sound: valid UTF-8 (ascii: every byte ASCII), every 256-colour index
# under 256, COLUMNS by LINES; the legend's lines after the plot, each a key
# of four characters and a label that is whole (the start of one of
# REFERENCE's labels, drawn at 1000 columns) or cut with an ellipsis; the
# plot's left and bottom border unbroken.  Prints "sound" or what is wrong.
sound() {
   run_py plot_terminal_sound "$@"
}

record_ok leaky "$EXAMPLES/leaky-player" || finish
COLUMNS=100 LINES=30 "$STRATA" plot "$profile" -o - >"$WORK/mono.txt" 2>"$WORK/mono.err"
expect_eq "-o -, not a terminal: exit status" "$?" 0
expect_eq "... 100 by 30" "$(fits "$WORK/mono.txt" 100 30)" fits
expect_not "... no colour" grep -q $'\e' "$WORK/mono.txt"
expect_in "... the leak's legend" "$WORK/mono.txt" '^  \*{4} LEAK: frame_alloc \(leaky-player\.c:[0-9]+\) ← decoder_decode'
COLUMNS=100 LINES=30 "$STRATA" plot --leaks-from=curves "$profile" -o - >"$WORK/curves.txt" 2>&1
expect_in "... its floor, judged from the curves" "$WORK/curves.txt" 'LEAK: its floor, \+600 KiB per cycle'
expect_in "... the peak" "$WORK/mono.txt" 'peak: 5\.0[0-9] MiB at 1[0-9]+ Mi instructions'
expect_in "... bytes in MiB" "$WORK/mono.txt" '^ *[0-9] MiB \+'
expect_eq "... nothing on stderr" "$(cat "$WORK/mono.err")" ""

if script -qec true /dev/null >/dev/null 2>&1; then
   NO_COLOR= script -qec "stty cols 90 rows 28; exec '$STRATA' plot '$profile' -o -" /dev/null \
      >"$WORK/tty.txt" 2>&1
   expect_eq "in a 90x28 terminal: exit status" "$?" 0
   expect_eq "... fits it" "$(fits "$WORK/tty.txt" 90 28)" fits
   expect_in "... in colour, the leak's legend in its red" "$WORK/tty.txt" \
      $'^  \e\\[38;5;160mXXXX\e\\[0m LEAK: frame_alloc'
   # gnuplot 5.4 sent colours 256 and 259 for the greys of the other places
   # and the extra heap, which no 256-colour palette has.
   expect_in "... the other places and the extra heap in colours of the palette" "$WORK/tty.txt" \
      $'^  \e\\[38;5;188mXXXX\e\\[0m [0-9]+ other places'
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

# 24 leak findings (tests/programs/many_leaks): at any size, the legend below
# the plot, never over it (gnuplot's key overwrote the plot and the axis),
# its labels whole or cut in the middle on a character, in UTF-8 or in
# ASCII as the locale says, colours of the palette.
many=$WORK/many.strata
"$STRATA" record -o "$many" "$PROGS/many_leaks" >"$WORK/many.stdout" 2>"$WORK/many.stderr"
expect_eq "many_leaks recorded" "$?" 0
COLUMNS=1000 LINES=1000 "$STRATA" plot "$many" -o - >"$WORK/many-reference.txt"
for size in 20x20 80x24 200x60 1000x1000; do
   c=${size%x*} l=${size#*x}
   COLUMNS=$c LINES=$l "$STRATA" plot "$many" -o - >"$WORK/many-$size.txt" 2>&1
   expect_eq "24 findings, $size, no colour: sound" \
      "$(sound "$WORK/many-$size.txt" "$c" "$l" utf8 "$WORK/many-reference.txt")" sound
   LC_ALL=C COLUMNS=$c LINES=$l "$STRATA" plot "$many" -o - >"$WORK/many-$size-C.txt" 2>&1
   expect_eq "24 findings, $size, LC_ALL=C: sound, in ASCII" \
      "$(sound "$WORK/many-$size-C.txt" "$c" "$l" ascii)" sound
done
expect_in "LC_ALL=C: the arrows as <-" "$WORK/many-200x60-C.txt" '^  \*{4} GROWTH 1: leak_[0-9]+ \(many_leaks\.c:[0-9]+\) <- main$'
LC_ALL= LC_CTYPE= LANG=de_DE.utf8 COLUMNS=80 LINES=24 "$STRATA" plot "$many" -o - >"$WORK/many-lang.txt"
expect_in "LANG=de_DE.utf8: UTF-8" "$WORK/many-lang.txt" '← main$'
COLUMNS=80 LINES=24 "$STRATA" plot "$many" -o - --top=3 >"$WORK/many-top3.txt"
expect_eq "--top=3: three findings and the other places" \
   "$(grep -cE '^  .{4} (GROWTH [0-9]+:|[0-9]+ other places)' "$WORK/many-top3.txt")" 4
if script -qec true /dev/null >/dev/null 2>&1; then
   for size in 20x20 80x24 200x60 1000x1000; do
      c=${size%x*} l=${size#*x}
      NO_COLOR= script -qec "stty cols $c rows $l; exec '$STRATA' plot '$many' -o -" /dev/null \
         >"$WORK/many-tty-$size.txt" 2>&1
      expect_eq "24 findings in a ${size} terminal, in colour: sound" \
         "$(sound "$WORK/many-tty-$size.txt" "$c" "$l" utf8 "$WORK/many-reference.txt")" sound
      NO_COLOR= LC_ALL=C script -qec "stty cols $c rows $l; exec '$STRATA' plot '$many' -o -" \
         /dev/null >"$WORK/many-tty-$size-C.txt" 2>&1
      expect_eq "... LC_ALL=C: sound, in ASCII" "$(sound "$WORK/many-tty-$size-C.txt" "$c" "$l" ascii)" sound
   done
   expect_in "... the first finding's key in its red" "$WORK/many-tty-80x24.txt" \
      $'^  \e\\[38;5;160mXXXX\e\\[0m GROWTH 1: leak_'
   # A terminal of 16 colours (the Linux console): the nearest of the 16.
   NO_COLOR= TERM=linux script -qec "stty cols 80 rows 24; exec '$STRATA' plot '$many' -o -" \
      /dev/null >"$WORK/many-16.txt" 2>&1
   expect_not "TERM=linux: no 256-colour escape" grep -q $'\e\\[38;5' "$WORK/many-16.txt"
   expect_eq "TERM=linux: every colour one of the 16" \
      "$(grep -o $'\e\\[[0-9;]*m' "$WORK/many-16.txt" | tr -d '\033[m' | tr ';' '\n' | sort -u |
         grep -vxE '0|1|22|3[0-7]|39|49' | head -3)" ""
   expect_in "TERM=linux: the first finding's key in red" "$WORK/many-16.txt" \
      $'^  \e\\[(1;)?31mXXXX\e\\[0m GROWTH 1: leak_'
   # The floor of a finding judged from the curves: magenta (201) o's, seen on
   # dark and light backgrounds (the dark red line was lost on a dark one).
   NO_COLOR= script -qec "stty cols 100 rows 30; exec '$STRATA' plot --leaks-from=curves '$profile' -o -" \
      /dev/null >"$WORK/troughs.txt" 2>&1
   expect_in "the floor in magenta in the plot" "$WORK/troughs.txt" $'\e\\[38;5;201mo'
   expect_in "... and their key" "$WORK/troughs.txt" $'^  \e\\[38;5;201moooo\e\\[0m LEAK: its floor,'
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
run_py plot_terminal_wide "$WORK/wide.strata"
COLUMNS=80 LINES=30 "$STRATA" plot "$WORK/wide.strata" -o - >"$WORK/wide.txt" 2>"$WORK/wide.err"
expect_eq "wide characters: exit status" "$?" 0
expect_eq "wide characters: 80 by 30 columns" "$(fits "$WORK/wide.txt" 80 30)" fits
expect_in "wide characters: the CJK legend, cut in its middle" "$WORK/wide.txt" \
   $'^  \\*{4} \xe6\xbc\xa2\xe5\xad\x97.*\xe2\x80\xa6.*\\(wide\\.c:1\\)'
expect_in "wide characters: the emoji legend from its start" "$WORK/wide.txt" '^  #### call_'
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
