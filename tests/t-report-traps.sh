#!/bin/bash
# strata report flags no leak in programs whose memory grows without leaking:
# a cache that plateaus, temporary buffers, working sets built up and
# released, waves of different heights, allocations made once at start-up;
# on strata profiles (in bytes and in instructions) and on massif.out files.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/report-lib.sh"

# check NAME FUNCTION: no suspect in NAME's profiles, and FUNCTION (the
# trap's site) is among the contexts.
check() {
   local name=$1 function=$2
   record_ok "$name" --time-unit=B "$PROGS/$name" || return
   report_json "$name" "$profile"
   expect_suspects "$name (strata, bytes)" "$WORK/$name.json"
   "$STRATA" report --threshold=0 "$profile" >"$WORK/$name.txt"
   expect_in "$name: $function is a context" "$WORK/$name.txt" "^     $function \("
   record_ok "$name-i" "$PROGS/$name" || return
   report_json "$name-i" "$profile"
   expect_suspects "$name (strata, instructions)" "$WORK/$name-i.json"
   record_massif "$name" "$PROGS/$name"
   report_json "$name.massif" "$massif"
   expect_suspects "$name (massif)" "$WORK/$name.massif.json"
}

check trap_cache cache_fill
check trap_temp temp_alloc
check trap_working_set ws_add
check trap_waves wave_alloc
check trap_startup startup_table
expect_eq "trap_temp: cycles from the marker" "$(json "$WORK/trap_temp.json" cycles.label)" frame

# leaky-player fixed: nothing left behind, nothing flagged.
record_ok fixed --time-unit=B "$EXAMPLES/leaky-player" --cycles 5 --frames 24 --fixed
report_json fixed "$profile"
expect_suspects "leaky-player --fixed" "$WORK/fixed.json"
finish
