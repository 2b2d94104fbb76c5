#!/bin/bash
# The stack cache and the unwind cache (massif/st_unwind.c) take a stack's
# frames from earlier unwinds: they must still tell apart two chains that
# differ only in deep return addresses, and they must be used (the
# statistics say so): the stack cache for via_a and via_b, whose allocations
# repeat at the same stack pointer, the unwind cache for via_c, whose stack
# pointer at the allocation is never the same twice.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

stat() { sed -n "s/.*strata: $1: *\([0-9,]*\).*/\1/p" "$2" | tr -d ,; }

record_ok chains --heap-admin=0 --depth=30 --stats=yes "$PROGS/unwind_cache"
ask "$profile" "bytes via_"{a,b,c}" user:1" "sites user:1"
expect_eq "via_a's blocks at the snapshot" "$(answer "$profile" bytes via_a user:1)" 16000
expect_eq "via_b's blocks at the snapshot" "$(answer "$profile" bytes via_b user:1)" 32000
expect_eq "via_c's blocks at the snapshot" "$(answer "$profile" bytes via_c user:1)" 48000
expect_eq "three sites hold bytes" "$(answer "$profile" sites user:1 | grep -c 'leaf\|shifted')" 3
hits=$(stat "stack cache hits" "$WORK/chains.stderr")
expect_le "the stack cache served via_a and via_b" 1990 "${hits:-0}"
hits=$(stat "unwind cache" "$WORK/chains.stderr")
expect_le "the unwind cache served via_c" 990 "${hits:-0}"

# Allocations on a stack the program made itself, alternating with the main
# stack's.
record_ok coroutine --heap-admin=0 "$PROGS/coroutine"
ask "$profile" "bytes "{co,main}"_alloc user:1"
expect_eq "co_alloc's blocks at the snapshot" "$(answer "$profile" bytes co_alloc user:1)" 32000
expect_eq "main_alloc's blocks at the snapshot" "$(answer "$profile" bytes main_alloc user:1)" 64000

# --check-unwind-cache=yes (a debugging option of the tool, so valgrind is run
# directly) unwinds in full at every hit and counts the hits that differ.
for prog in unwind_cache threads cxx_new coroutine; do
   VALGRIND_LIB=$top_builddir/vglib valgrind --tool=strata --stats=yes \
      --check-unwind-cache=yes --out-file="$WORK/check-$prog.out" \
      "$PROGS/$prog" >/dev/null 2>"$WORK/check-$prog.stderr"
   expect_eq "$prog: no cache hit differs from a full unwind" \
      "$(sed -n 's/.*wrong cache hits: *\([0-9,]*\)$/\1/p' "$WORK/check-$prog.stderr")" 0
done
finish
