#!/bin/bash
# --time-unit=ms|B|i
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok ms --time-unit=ms "$PROGS/timed"
ask "$profile" "get header:time_unit" "get time "{user:1,user:2}
expect_eq "header time_unit" "$(answer "$profile" get header:time_unit)" ms
elapsed=$(( $(answer "$profile" get time user:2) - $(answer "$profile" get time user:1) ))
expect_le "300 ms asleep: at least 250 ms between the user snapshots" 250 "$elapsed"
expect_le "... and not 10 s" "$elapsed" 10000
# The lifetimes' epochs in instructions (opt epoch_unit i), each L record
# with the time of its epoch's first event, in ms: the births before and
# after the 300 ms asleep are in epochs whose records are 250 ms apart or more.
expect_eq "ms: opt epoch_unit i" "$("$PYTHON" "$top_srcdir/tests/profile-query" get "$profile" opt:epoch_unit)" i
times=$(awk -F'\t' '$1 == "L" { print $5 }' "$profile")
expect_le "ms: the L records' times are 250 ms apart or more" 250 \
   "$(( $(tail -1 <<<"$times") - $(head -1 <<<"$times") ))"

record_ok bytes --time-unit=B --heap-admin=0 "$PROGS/timed"
ask "$profile" "get header:time_unit" "get time "{user:1,user:2}
expect_eq "header time_unit" "$(answer "$profile" get header:time_unit)" B
expect_eq "1008 bytes allocated between the user snapshots" \
   "$(( $(answer "$profile" get time user:2) - $(answer "$profile" get time user:1) ))" 1008

record_ok instr "$PROGS/timed"
ask "$profile" "get header:time_unit" "get time user:1"
expect_eq "header time_unit" "$(answer "$profile" get header:time_unit)" i
expect_le "instructions run before the first user snapshot" 1000 "$(answer "$profile" get time user:1)"

# The same loop run by the main thread, by a signal handler and by a second
# thread: each span is counted once, in full.
record_ok counted "$PROGS/counted"
ask "$profile" "get time user:"{1,2,3,4}
span() { echo $(( $(answer "$profile" get time "user:$(($1 + 1))") - $(answer "$profile" get time "user:$1") )); }
main_span=$(span 1)
expect_le "the loop is at least 3 instructions a turn" 3000000 "$main_span"
for what in "signal handler:2" "second thread:3"; do
   n=$(span "${what#*:}")
   expect_le "the ${what%:*}'s loop: not under 0.9 of the main thread's" \
      "$(( main_span * 9 / 10 ))" "$n"
   expect_le "the ${what%:*}'s loop: not over 1.2 of the main thread's" \
      "$n" "$(( main_span * 12 / 10 ))"
done
finish
