#!/bin/bash
# strata plot in time linear in what it draws (docs/faults.md): a leak
# suspect of 300,000 cycles (its troughs were looked up one by one among the
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

"$PYTHON" - "$WORK" <<'PY'
import sys
work = sys.argv[1]
head = ["strata-profile\t2", "cmd\t./p", "pid\t1", "ppid\t0", "time_unit\ti"]

# 300,000 cycles of one label; site 1 rises by one byte a cycle.
lines, t = head + ["F\t1\t0x401000\t0\tgrow\tg.c\t1\t/bin/g\t",
                   "F\t2\t0x402000\t0\tcycle\tc.c\t2\t/bin/g\t", "S\t1\t1", "S\t2\t2"], 0
for i in range(600000):
    t += 10
    if i % 2 == 0:
        lines.append("M\t%d\tframe" % t)
    lines += ["T\tregular\t%d\t%d\t0\t0" % (t, 100 * (i % 2) + i), "s\t1\t%d\t1\t%d\t%d" % (i, i, i),
              "s\t2\t%d\t1\t0\t%d" % (100 * (i % 2), 100), "E"]
lines.append("X\t%d" % (t + 1))
open(work + "/cycles.strata", "w").write("\n".join(lines) + "\n")

# n sites, each its own band; with cycles, each rising a little: n leaks.
def bands(n, snapshots, name, leaking):
    lines = list(head)
    lines += ["F\t%d\t0x%x\t0\tf%d\tb.c\t%d\t/bin/b\t" % (i, 0x400000 + i, i, i) for i in range(1, n + 1)]
    lines += ["S\t%d\t%d" % (i, i) for i in range(1, n + 1)]
    t = 0
    for k in range(snapshots):
        t += 100
        if leaking and k % 2 == 0:
            lines.append("M\t%d\tcycle" % t)
        body = []
        for i in range(1, n + 1):
            b = (50 * (k // 2) + 1000 * (k % 2) + i) if leaking else 1000 + (i * 7919 + k * 31) % 997
            body.append("s\t%d\t%d\t1\t%d\t%d" % (i, b, b, b))
        total = sum(int(line.split("\t")[2]) for line in body)
        lines += ["T\tregular\t%d\t%d\t0\t0" % (t, total)] + body + ["E"]
    lines.append("X\t%d" % (t + 1))
    open(work + "/" + name, "w").write("\n".join(lines) + "\n")
bands(1600, 200, "bands.strata", False)
bands(100, 40, "leaks.strata", True)
PY

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
expect_eq "100 leak suspects: exit status ($(head -c 200 "$WORK/leaks.err"))" "$status" 0
"$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/leaks.svg" >"$WORK/leaks.texts"
expect_eq "... 7 drawn, each with its troughs (two lines)" \
   "$(grep -c '^LEAK [0-9]*: its troughs' "$WORK/leaks.texts")" 7
expect_in "... the others counted in the other places" "$WORK/leaks.texts" \
   '^93 other places \(93 leak suspects among them: strata report lists them\)$'
guarded leaks-tall 30 plot --height=1600 "$WORK/leaks.strata" -o "$WORK/leaks-tall.svg"
"$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/leaks-tall.svg" >"$WORK/leaks-tall.texts"
expect_eq "... 9 drawn in a graph twice as tall (the legend's 20 rows at most)" \
   "$(grep -c '^LEAK [0-9]*: its troughs' "$WORK/leaks-tall.texts")" 9
finish
