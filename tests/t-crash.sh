#!/bin/bash
# A program killed by SIGSEGV, and one leaving by _exit: complete profiles.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record crash --heap-admin=0 "$PROGS/crash"
expect "record of a crashing program fails (status $status)" test "$status" -ne 0
ask "$profile" "get end" "get count:final" "bytes crash_alloc final" "get heap final"
expect_eq "crash: X present" "$([ "$(answer "$profile" get end)" != none ] && echo yes)" yes
expect_eq "crash: final snapshots" "$(answer "$profile" get count:final)" 1
expect_eq "crash: crash_alloc at the end" "$(answer "$profile" bytes crash_alloc final)" 1008
expect_eq "crash: final heap" "$(answer "$profile" get heap final)" 1008

record exit --heap-admin=0 "$PROGS/exit_now"
expect_eq "_exit(3): the exit status comes back" "$status" 3
ask "$profile" "get end" "bytes leave_it final" "get heap final"
expect_eq "_exit: X present" "$([ "$(answer "$profile" get end)" != none ] && echo yes)" yes
expect_eq "_exit: leave_it at the end" "$(answer "$profile" bytes leave_it final)" 1008
expect_eq "_exit: final heap" "$(answer "$profile" get heap final)" 1008
finish
