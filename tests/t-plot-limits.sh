#!/bin/bash
# strata plot in time linear in what it draws (docs/faults.md): a leak
# suspect of 300,000 cycles (its floor's points were looked up one by one among the
# snapshots: 10^6 cycles took 80 s), and 1,600 bands (gnuplot reads the data
# once per band, each line holding every band: 33 s, 20,000 over 600 s),
# folded beyond the legend's room into the other places, leak suspects
# among them counted.  CPU limits (ulimit -t) stand for "linear".
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# guarded NAME SECONDS ARGS...: strata ARGS with SECONDS of CPU time (strata
# and gnuplot each); output in $WORK/NAME.out and .err, the status in $status.
guarded() {
   local name=$1 seconds=$2
   shift 2
   (ulimit -t "$seconds" && exec "$STRATA" "$@") >"$WORK/$name.out" 2>"$WORK/$name.err"
   status=$?
}

run_py plot_limits_inputs "$WORK"

guarded cycles 30 plot "$WORK/cycles.strata" -o "$WORK/cycles.svg" --keep-script
expect_eq "300,000 cycles: exit status ($(head -c 200 "$WORK/cycles.err"))" "$status" 0
troughs=$(awk '/^# the troughs/ { on = 1; next } on && /^$/ { exit } on' "$WORK/cycles.dat" | wc -l)
expect_le "... the trough line thinned to the samples (3 a pixel column)" "$troughs" 3600
expect_le "... but drawn" 100 "$troughs"

guarded bands 30 plot --top=1600 --threshold=0 "$WORK/bands.strata" -o "$WORK/bands.svg"
expect_eq "1,600 bands: exit status ($(head -c 200 "$WORK/bands.err"))" "$status" 0
"$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/bands.svg" >"$WORK/bands.texts"
# The legend's room: 40% of the picture at 19 pixels a row, 20 rows at most
# (cmd_plot.cpp): 16 rows of 800 pixels.
expect_eq "... 15 call sites in the legend (16 rows of 800 pixels, the other places one)" \
   "$(grep -c '^f[0-9]* (b\.c:[0-9]*)$' "$WORK/bands.texts")" 15
expect_in "... the others in the other places" "$WORK/bands.texts" '^1,585 other places$'

guarded leaks 30 plot "$WORK/leaks.strata" -o "$WORK/leaks.svg"
expect_eq "50 places leaking in cycles of their own: exit status ($(head -c 200 "$WORK/leaks.err"))" "$status" 0
"$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/leaks.svg" >"$WORK/leaks.texts"
found=$("$STRATA" report "$WORK/leaks.strata" | grep -cE '^#[0-9]+ (Leak|Growth) at ')
expect_le "... found as many findings as the legend has room for, and more" 10 "$found"
expect_eq "... 7 drawn, each with its floor (two lines)" \
   "$(grep -cE '^(LEAK|GROWTH) [0-9]*: its floor' "$WORK/leaks.texts")" 7
expect_in "... the others counted in the other places" "$WORK/leaks.texts" \
   "^[0-9]+ other places \\($((found - 7)) leak suspects among them: strata report lists them\\)\$"
guarded leaks-tall 30 plot --height=1600 "$WORK/leaks.strata" -o "$WORK/leaks-tall.svg"
"$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/leaks-tall.svg" >"$WORK/leaks-tall.texts"
expect_eq "... 9 drawn in a graph twice as tall (the legend's 20 rows at most)" \
   "$(grep -cE '^(LEAK|GROWTH) [0-9]*: its floor' "$WORK/leaks-tall.texts")" 9
finish
