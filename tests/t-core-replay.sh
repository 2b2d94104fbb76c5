#!/bin/bash
# The recorder's core (massif/st_core.h) compiled against the C library, as a
# recorder that is not a Valgrind tool builds it (issue 31): tests/unit/
# core_replay replays tests/unit/core_trace.txt (a player of 8 cycles that
# keeps a 512-byte frame each cycle) into a profile, and strata report reads
# it: the grammar and invariants hold, and the numbers are the trace's.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

replay=$top_builddir/tests/unit/core_replay
trace=$top_srcdir/tests/unit/core_trace.txt
profile=$WORK/replay.strata
"$replay" "$trace" "$profile" 2>"$WORK/replay.stderr"
expect_eq "core_replay: exit status" "$?" 0
check_profile "$profile"

"$STRATA" report --json "$profile" >"$WORK/report.json"
# At the peak: the decoder's context (4096), one frame being decoded (1000)
# and the 7 frames kept before; at the end, the 8 frames kept.
expect_eq "the peak: 4096 + 1000 + 7 * 512 bytes" "$(json "$WORK/report.json" peak.heap_bytes)" 8680
expect_eq "the end: 8 * 512 bytes" "$(json "$WORK/report.json" final.heap_bytes)" 4096
expect_eq "the markers: one a cycle" "$(grep -c '^M' "$profile")" 8
# Allocation counts: the 48 decoded frames are temporaries (each freed by the
# next operation), the kept frames are not.
expect_eq "counts of decode_frame: 48 calls, 48 temporary" \
   "$(awk -F'\t' '$1 == "c" && $2 == 2 { print $3, $5 }' "$profile" | tail -1)" "48 48"
# Lifetimes: every death of a block born in an earlier epoch has its free
# stack (P records), and the leak is named where the trace keeps its frames.
expect_le "free stacks written" 1 "$(grep -c '^P' "$profile")"
"$STRATA" report "$profile" >"$WORK/report.txt"
expect_in "the leak finding names keep_frame" "$WORK/report.txt" '^#1 .* at keep_frame '

# A trace the replay refuses: no profile claims what did not happen.
printf 'f 7 main\n' >"$WORK/bad.txt"
"$replay" "$WORK/bad.txt" "$WORK/bad.strata" 2>"$WORK/bad.stderr"
expect_eq "a free of no block: exit status 1" "$?" 1
finish
