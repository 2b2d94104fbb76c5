#!/bin/bash
# Issue 32, item 15: a textbook marked leak whose work runs to the end of its
# last cycle is found by default (the lifetimes): the horizon falls inside
# the last cycle, whose frames in flight count as kept, and the floor's last
# quarter is then judged with the whole span (docs/design.md, "Leak
# detection from lifetimes").  The curves find it too.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

line=$(line_of "$top_srcdir/tests/programs/last_cycle.c" 'struct frame \*f = frame_alloc(n);')
record_ok last_cycle "$PROGS/last_cycle" || { finish; exit; }
"$STRATA" report --fail-on=leak "$profile" >"$WORK/report.txt" 2>"$WORK/report.err"
expect_eq "strata report --fail-on=leak: a leak (exit status 3)" "$?" 3
# Headed by play, which frees the frames it does not keep: where the path
# that keeps 4 of 48 is (Finding::owner); frame_alloc makes them.
expect_in "the finding is play's, a leak of the marked cycles" "$WORK/report.txt" \
   "^#1 Leak at play \\(last_cycle.c:$line\\), context"
expect_in "... left behind by every cycle" "$WORK/report.txt" \
   "each cycle \\(marker video\\) left about [0-9.]+ KiB behind, [78] of [78] cycles"
expect_eq "one finding" "$(grep -c '^#[0-9]* \(Leak\|Growth\) at' "$WORK/report.txt")" 1
"$STRATA" report --leaks-from=curves "$profile" >"$WORK/curves.txt" 2>&1
expect_in "the curves find it too" "$WORK/curves.txt" "^#1 Leak at play "
finish
