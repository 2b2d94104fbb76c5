#!/bin/bash
# valgrind --tool=strata directly, with VALGRIND_LIB naming the tool's
# directory (vglib/ in the build tree).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

export VALGRIND_LIB=$top_builddir/vglib
(cd "$WORK" && valgrind --tool=strata --time-unit=B --heap-admin=0 "$PROGS/malloc_basic") \
   >"$WORK/run.out" 2>&1
expect_eq "valgrind --tool=strata exits 0" "$?" 0
files=$(cd "$WORK" && ls | grep '^strata\.out\.')
expect "it writes strata.out.PID" grep -Eqx 'strata\.out\.[0-9]+' <<<"$files"
if [ -f "$WORK/$files" ]; then
   check_profile "$WORK/$files"
   expect_eq "final heap" "$(q get "$WORK/$files" heap final)" 2480
fi

(cd "$WORK" && valgrind --tool=strata --out-file="$WORK/named.%p" "$PROGS/malloc_basic") >/dev/null 2>&1
expect "--out-file names the profile" compgen -G "$WORK/named.[0-9]*"

valgrind --tool=strata --help >"$WORK/help" 2>&1
expect_in "--help lists --depth with its default" "$WORK/help" '--depth=.*'
expect_in "--help shows the defaults" "$WORK/help" '\[30\]'

valgrind --tool=strata --depth=0 /bin/true >"$WORK/bad" 2>&1
expect_eq "a bad option: exit 1" "$?" 1
expect_in "the message names it" "$WORK/bad" 'depth'
finish
