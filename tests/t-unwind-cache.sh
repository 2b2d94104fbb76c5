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

# --check-unwind-cache=yes (a debugging option of the tool, so valgrind is run
# directly) unwinds in full at every hit and counts the hits that differ.
for prog in unwind_cache threads cxx_new; do
   VALGRIND_LIB=$top_builddir/vglib valgrind --tool=strata --stats=yes \
      --check-unwind-cache=yes --out-file="$WORK/check-$prog.out" \
      "$PROGS/$prog" >/dev/null 2>"$WORK/check-$prog.stderr"
   expect_eq "$prog: no cache hit differs from a full unwind" \
      "$(sed -n 's/.*wrong cache hits: *\([0-9,]*\)$/\1/p' "$WORK/check-$prog.stderr")" 0
done
finish
