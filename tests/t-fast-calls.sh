#!/bin/bash
# Fast client calls (massif/st_main.c): the malloc replacements' requests
# are served from the generated code instead of the scheduler.  The
# profile must be the same either way, times included, and the fast path
# must be the one taken by default (the statistics say so).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_with() {
   VALGRIND_LIB=$top_builddir/vglib valgrind --tool=strata --stats=yes \
      --fast-client-calls="$1" --out-file="$WORK/$2-$1.out" "$PROGS/$2" \
      >/dev/null 2>"$WORK/$2-$1.stderr"
}
fast_calls() {
   sed -n 's/.*strata: fast client calls: *\([0-9,]*\)$/\1/p' "$1" | tr -d ,
}

for prog in malloc_basic cxx_new memalign realloc_heavy wrappers custom_alloc; do
   record_with yes "$prog"
   record_with no "$prog"
   expect "$prog: the same profile with and without fast calls" \
      cmp -s <(grep -v '^pid' "$WORK/$prog-yes.out") <(grep -v '^pid' "$WORK/$prog-no.out")
   expect_le "$prog: the malloc calls were fast" 1 "$(fast_calls "$WORK/$prog-yes.stderr")"
   expect_eq "$prog: none with --fast-client-calls=no" \
      "$(fast_calls "$WORK/$prog-no.stderr")" 0
done
finish
