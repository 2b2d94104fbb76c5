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

record_ok nostacks "$PROGS/stacks"
expect_eq "header opt stacks" "$(q get "$profile" opt:stacks)" no
expect_eq "no stack at user 1 without --stacks" "$(q get "$profile" stacks user:1)" 0
finish
