#!/bin/bash
# The unwind cache (massif/st_main.c) takes the deep frames of a stack from
# earlier unwinds: it must still tell apart two chains that differ only in
# deep return addresses, and it must be used (the statistics say so).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok chains --heap-admin=0 --depth=30 --stats=yes "$PROGS/unwind_cache"
expect_eq "via_a's blocks at the snapshot" "$(q bytes "$profile" via_a user:1)" 16000
expect_eq "via_b's blocks at the snapshot" "$(q bytes "$profile" via_b user:1)" 32000
expect_eq "two sites hold bytes" "$(q sites "$profile" user:1 | grep -c 'leaf')" 2
hits=$(sed -n 's/.*unwind cache: *\([0-9,]*\) hits.*/\1/p' "$WORK/chains.stderr" | tr -d ,)
expect_le "the cache served most unwinds" 1900 "${hits:-0}"
finish
