#!/bin/bash
# --stacks=yes measures the stack; --stacks=no (default) leaves it 0.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok stacks --stacks=yes "$PROGS/stacks"
expect_eq "header opt stacks" "$(q get "$profile" opt:stacks)" yes
deep=$(q get "$profile" stacks user:1)
shallow=$(q get "$profile" stacks user:2)
expect_le "4 frames of 64 KiB are on the stack at user 1" $((4 * 65536)) "$((deep - shallow))"
expect_le "... and not 1 MiB" "$((deep - shallow))" $((1024 * 1024))
expect_le "the stack is not empty at user 2" 1 "$shallow"
expect_le "the peak includes the stack" $((4 * 65536)) "$(q get "$profile" stacks peak)"

# A peak made by the stack alone, between two heap operations, is caught
# (as massif catches it: the peak is checked before the stack shrinks).
record_ok stack_peak --stacks=yes --time-unit=B --heap-admin=0 "$PROGS/stack_peak"
expect_eq "stack_peak: the heap at the peak" "$(q get "$profile" heap peak)" 1000
stacks=$(q get "$profile" stacks peak)
expect_le "... the 4 frames of 64 KiB are in the peak's stacks" $((4 * 65536)) "$stacks"
valgrind --tool=massif --stacks=yes --time-unit=B --heap-admin=0 \
   --massif-out-file="$WORK/stack_peak.massif" "$PROGS/stack_peak" >/dev/null 2>&1
expect_eq "... the stacks of massif's peak" \
   "$(grep -B4 '^heap_tree=peak' "$WORK/stack_peak.massif" | sed -n 's/^mem_stacks_B=//p')" "$stacks"

record_ok nostacks "$PROGS/stacks"
expect_eq "header opt stacks" "$(q get "$profile" opt:stacks)" no
expect_eq "no stack at user 1 without --stacks" "$(q get "$profile" stacks user:1)" 0
finish
