#!/bin/bash
# The snapshot clock follows the heap (docs/format.md, "How often snapshots
# are taken"): a snapshot gives the heap at its tick, an idle stretch is held
# by a snapshot at its first tick and one at its last, a short run gets a
# snapshot per heap operation up to 500, and the rhythm of a bursty program
# with idle stretches between its bursts is found in every time unit.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# report_json NAME PROFILE: strata report --json PROFILE into $WORK/NAME.json
report_json() {
   "$STRATA" report --json "$2" >"$WORK/$1.json" 2>"$WORK/$1.err" ||
      fail "strata report --json $1: $(cat "$WORK/$1.err")"
}

# ---- a bursty player: 8 cycles, long idle stretches, no markers ----------------
declare -A bursty
for unit in i ms B; do
   # In milliseconds the idle stretches sleep 100 ms: a loop's length in
   # milliseconds depends on the machine's load, a sleep's does not.
   idle=(2000000)
   [ "$unit" = ms ] && idle=(100000 sleep)
   record_ok "bursty-$unit" --time-unit=$unit "$PROGS/bursty" 8 "${idle[@]}" || continue
   bursty[$unit]=$profile
   report_json "bursty-$unit" "$profile"
   cycles=$(json "$WORK/bursty-$unit.json" cycles.count)
   source=$(json "$WORK/bursty-$unit.json" cycles.source)
   expect_eq "bursty, --time-unit=$unit: cycles from the rhythm" "$source" rhythm
   if [ "$unit" = B ]; then
      # In bytes the idle stretches take no time and a cycle starts at its
      # crest, mid-burst: the part before the first crest is not a whole cycle.
      expect_le "bursty, --time-unit=B: 7 cycles or more" 7 "$cycles"
      expect_le "bursty, --time-unit=B: 8 cycles at most" "$cycles" 8
   elif [ "$unit" = ms ]; then
      # The first or last cycle may not count as whole.
      expect_le "bursty, --time-unit=ms: 6 cycles or more" 6 "$cycles"
      expect_le "bursty, --time-unit=ms: 9 cycles at most" "$cycles" 9
   else
      expect_eq "bursty, --time-unit=$unit: the 8 cycles" "$cycles" 8
   fi
   "$PYTHON" - "$WORK/bursty-$unit.json" "$cycles" <<'PY' || fail "bursty, --time-unit=$unit: the period is not the run's eighth"
import json, sys
d = json.load(open(sys.argv[1]))
run = d["duration"] - d["cycles"]["starts"][0]
period = d["cycles"]["period"]
cycles = int(sys.argv[2])
# the cycles found cover the run from the first start, one period each
sys.exit(0 if abs(period * cycles - run) <= 0.2 * run else 1)
PY
   checks=$((checks + 1))
done

# The idle stretches are held: between the bursts of the run in
# instructions, the heap changes only where an operation is.  Every two
# consecutive snapshots with the same heap and no site listed are a plateau;
# together they cover most of the run.
p=${bursty[i]}
held=$("$PYTHON" - "$p" <<'PY'
import sys
snaps, cur = [], None
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if f[0] == "T":
        cur = [f[1], int(f[2]), int(f[3]), 0]
    elif f[0] == "s":
        cur[3] += 1
    elif f[0] == "E":
        snaps.append(cur)
    elif f[0] == "X":
        end = int(f[1])
regular = [s for s in snaps if s[0] != "peak"]
held = sum(b[1] - a[1] for a, b in zip(regular, regular[1:]) if b[3] == 0 and a[2] == b[2])
print(int(100 * held / end))
PY
)
expect_le "bursty: held stretches cover 80% of the run or more" 80 "$held"

# ---- allocate once, idle, free, idle: level points in the plotted data --------
record_ok idle "$PROGS/idle_free" 3000000
p=$profile
mkdir -p "$WORK/plot"
"$STRATA" plot "$p" -o "$WORK/plot/idle.svg" --keep-script >/dev/null 2>"$WORK/plot.err" ||
   fail "strata plot idle_free: $(cat "$WORK/plot.err")"
checks=$((checks + 1))
# The bands block of the data (after the texts): time, 0, then the stacked
# tops.  The top band's value sloping (strictly between 0 and 1 MiB of
# hold_buffer) may last one tick at most; level at 1 MiB and at 0 for most
# of the run each.
level=$("$PYTHON" - "$WORK/plot/idle.dat" "$(q get "$p" time final)" <<'PY'
import sys
blocks = open(sys.argv[1]).read().split("\n\n\n")
rows = []
for block in blocks:
    lines = [l for l in block.split("\n") if l and not l.startswith("#")]
    if lines and all(len(l.split("\t")) >= 3 for l in lines):
        rows = [[float(x) for x in l.split("\t")] for l in lines]
        break
end = float(sys.argv[2])
MiB = 1 << 20
up = down = slope = 0.0
for a, b in zip(rows, rows[1:]):
    dt = b[0] - a[0]
    ya, yb = a[2], b[2]            # the bottom band: hold_buffer
    if ya == yb == MiB:
        up += dt
    elif ya == yb == 0 and a[0] > 0.3 * end:
        down += dt
    elif ya != yb:
        slope += dt
print(int(100 * up / end), int(100 * down / end), int(100000 * slope / end))
PY
)
read -r up down slope <<<"$level"
expect_le "idle_free: level at 1 MiB for 45% of the run or more" 45 "$up"
expect_le "idle_free: level at 0 after the free for 45% or more" 45 "$down"
expect_le "idle_free: sloping for at most 0.01% of the run" "$slope" 10
report_json idle "$p"
expect_eq "idle_free: the peak is hold_buffer's 1 MiB" \
   "$(json "$WORK/idle.json" peak.heap_bytes)" 1048576

# ---- a short run in threads: a snapshot per operation -------------------------
record_ok threads "$PROGS/short_threads" 12
p=$profile
ask "$p" "get time final" "get count:regular"
expect_le "short_threads: a run of under 1,000,000 instructions" "$(answer "$p" get time final)" 1000000
expect_le "short_threads: 500 regular snapshots or more (its 600 operations)" 500 \
   "$(answer "$p" get count:regular)"
finish
