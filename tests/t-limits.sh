#!/bin/bash
# Allocations that cannot be served (issue 10, fault table): malloc(SIZE_MAX)
# and its kin give NULL and record nothing; an alignment above 16 MiB, which
# made Valgrind's allocator panic, gives NULL and a message naming the limit.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok limits --heap-admin=0 "$PROGS/limits"
p=$profile
ask "$p" "get "{heap,blocks}" user:1" "bytes use_"{kept,max_align}" user:1" "get heap final"
expect_eq "heap at user 1: the two blocks served" "$(answer "$p" get heap user:1)" 101
expect_eq "blocks at user 1" "$(answer "$p" get blocks user:1)" 2
expect_eq "use_kept at user 1, after reallocs that failed" "$(answer "$p" bytes use_kept user:1)" 100
expect_eq "use_max_align at user 1 (16 MiB is served)" "$(answer "$p" bytes use_max_align user:1)" 1
expect_eq "final heap" "$(answer "$p" get heap final)" 0
expect_eq "the limit named once" \
   "$(grep -c "aligns to at most 16777216 bytes (16 MiB)" "$WORK/limits.stderr")" 1
expect_in "the message gives the alignment asked for" "$WORK/limits.stderr" \
   'allocation of 1 bytes aligned to 33554432 returns NULL'
finish
