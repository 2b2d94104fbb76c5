#!/bin/bash
# --stacks=yes measures the stack; --stacks=no (default) leaves it 0.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok stacks --stacks=yes "$PROGS/stacks"
ask "$profile" "get opt:stacks" "get stacks "{user:1,user:2,peak}
expect_eq "header opt stacks" "$(answer "$profile" get opt:stacks)" yes
deep=$(answer "$profile" get stacks user:1)
shallow=$(answer "$profile" get stacks user:2)
expect_le "4 frames of 64 KiB are on the stack at user 1" $((4 * 65536)) "$((deep - shallow))"
expect_le "... and not 1 MiB" "$((deep - shallow))" $((1024 * 1024))
expect_le "the stack is not empty at user 2" 1 "$shallow"
expect_le "the peak includes the stack" $((4 * 65536)) "$(answer "$profile" get stacks peak)"

# A peak made by the stack alone, between two heap operations, is caught
# (as massif catches it: the peak is checked before the stack shrinks).
record_ok stack_peak --stacks=yes --time-unit=B --heap-admin=0 "$PROGS/stack_peak"
ask "$profile" "get "{heap,stacks}" peak"
expect_eq "stack_peak: the heap at the peak" "$(answer "$profile" get heap peak)" 1000
stacks=$(answer "$profile" get stacks peak)
expect_le "... the 4 frames of 64 KiB are in the peak's stacks" $((4 * 65536)) "$stacks"
valgrind --tool=massif --stacks=yes --time-unit=B --heap-admin=0 \
   --massif-out-file="$WORK/stack_peak.massif" "$PROGS/stack_peak" >/dev/null 2>&1
expect_eq "... the stacks of massif's peak" \
   "$(grep -B4 '^heap_tree=peak' "$WORK/stack_peak.massif" | sed -n 's/^mem_stacks_B=//p')" "$stacks"

record_ok nostacks "$PROGS/stacks"
ask "$profile" "get opt:stacks" "get stacks user:1"
expect_eq "header opt stacks" "$(answer "$profile" get opt:stacks)" no
expect_eq "no stack at user 1 without --stacks" "$(answer "$profile" get stacks user:1)" 0
finish
