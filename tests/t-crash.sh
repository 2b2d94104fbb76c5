#!/bin/bash
# A program killed by SIGSEGV, and one leaving by _exit: complete profiles.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record crash --heap-admin=0 "$PROGS/crash"
expect "record of a crashing program fails (status $status)" test "$status" -ne 0
expect_eq "crash: X present" "$([ "$(q get "$profile" end)" != none ] && echo yes)" yes
expect_eq "crash: final snapshots" "$(q get "$profile" count:final)" 1
expect_eq "crash: crash_alloc at the end" "$(q bytes "$profile" crash_alloc final)" 1008
expect_eq "crash: final heap" "$(q get "$profile" heap final)" 1008

record exit --heap-admin=0 "$PROGS/exit_now"
expect_eq "_exit(3): the exit status comes back" "$status" 3
expect_eq "_exit: X present" "$([ "$(q get "$profile" end)" != none ] && echo yes)" yes
expect_eq "_exit: leave_it at the end" "$(q bytes "$profile" leave_it final)" 1008
expect_eq "_exit: final heap" "$(q get "$profile" heap final)" 1008
finish
