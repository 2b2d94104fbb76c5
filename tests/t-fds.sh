#!/bin/bash
# The profile's descriptor is out of the program's reach (issue 10, 2): a
# program that closes every descriptor, dup2()s stderr over all of them and
# then opens its own file must find only its own lines in it (the profile
# was once written into it), and cannot dup2 over or close the profile's.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok fds --heap-admin=0 "$PROGS/fd_hostile" "$WORK/own.txt" "$WORK/fds."
expect "its file holds only its own lines" cmp -s "$WORK/own.txt" <(seq 0 199 | sed 's/^/line /')
expect_eq "the profile's descriptor found, and not taken" "$(cat "$WORK/fds.stdout")" "1 0"
ask "$profile" "bytes use_lines user:1" "blocks use_lines user:1" "get heap final"
expect_eq "use_lines at user 1" "$(answer "$profile" bytes use_lines user:1)" 20000
expect_eq "blocks at user 1" "$(answer "$profile" blocks use_lines user:1)" 200
expect_eq "final heap" "$(answer "$profile" get heap final)" 0
expect_eq "no profile record on stderr" "$(grep -c -P '^(strata-profile|[TsSFE])(\t|$)' "$WORK/fds.stderr")" 0
finish
