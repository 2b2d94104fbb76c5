#!/bin/bash
# --time-unit=ms|B|i
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok ms --time-unit=ms "$PROGS/timed"
expect_eq "header time_unit" "$(q get "$profile" header:time_unit)" ms
elapsed=$(( $(q get "$profile" time user:2) - $(q get "$profile" time user:1) ))
expect_le "300 ms asleep: at least 250 ms between the user snapshots" 250 "$elapsed"
expect_le "... and not 10 s" "$elapsed" 10000

record_ok bytes --time-unit=B --heap-admin=0 "$PROGS/timed"
expect_eq "header time_unit" "$(q get "$profile" header:time_unit)" B
expect_eq "1008 bytes allocated between the user snapshots" \
   "$(( $(q get "$profile" time user:2) - $(q get "$profile" time user:1) ))" 1008

record_ok instr "$PROGS/timed"
expect_eq "header time_unit" "$(q get "$profile" header:time_unit)" i
expect_le "instructions run before the first user snapshot" 1000 "$(q get "$profile" time user:1)"
finish
