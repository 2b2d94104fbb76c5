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
held=$(run_py clock_held "$p")
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
level=$(run_py clock_levels "$WORK/plot/idle.dat" "$(q get "$p" time final)")
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
