#!/bin/bash
# Allocations that cannot be served (issue 10, fault table): malloc(SIZE_MAX)
# and its kin give NULL and record nothing; an alignment above 16 MiB, which
# made Valgrind's allocator panic, gives NULL and a message naming the limit.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok limits --heap-admin=0 "$PROGS/limits"
p=$profile
expect_eq "heap at user 1: the two blocks served" "$(q get "$p" heap user:1)" 101
expect_eq "blocks at user 1" "$(q get "$p" blocks user:1)" 2
expect_eq "use_kept at user 1, after reallocs that failed" "$(q bytes "$p" use_kept user:1)" 100
expect_eq "use_max_align at user 1 (16 MiB is served)" "$(q bytes "$p" use_max_align user:1)" 1
expect_eq "final heap" "$(q get "$p" heap final)" 0
expect_eq "the limit named once" \
   "$(grep -c "aligns to at most 16777216 bytes (16 MiB)" "$WORK/limits.stderr")" 1
expect_in "the message gives the alignment asked for" "$WORK/limits.stderr" \
   'allocation of 1 bytes aligned to 33554432 returns NULL'
finish
