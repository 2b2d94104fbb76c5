#!/bin/bash
# make install DESTDIR=...: the command, the tool beside links to Valgrind's
# own files, strata.h; the installed tool runs with VALGRIND_LIB.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

inst=$WORK/inst
unset MAKEFLAGS MFLAGS
${MAKE:-make} -C "$top_builddir" install DESTDIR="$inst" >"$WORK/install.log" 2>&1
if [ $? -ne 0 ]; then
   fail "make install DESTDIR=$inst failed:"
   tail -20 "$WORK/install.log"
   finish
fi
tool=$(find "$inst" -name 'strata-*-linux' -type f | head -1)
libdir=$(dirname "${tool:-$WORK/none/x}")
expect "the tool is installed" test -n "$tool"
expect "the command is installed" test -x "$(find "$inst" -path '*/bin/strata' | head -1)"
expect "strata.h is installed" test -f "$(find "$inst" -path '*/include/strata.h' | head -1)"
expect "the preload library is beside the tool" compgen -G "$libdir/vgpreload_strata-*.so"
expect "Valgrind's core preload library is beside the tool" compgen -G "$libdir/vgpreload_core-*.so"
expect_eq "the tool's directory is <prefix>/libexec/strata" "$(basename "$(dirname "$libdir")")/$(basename "$libdir")" libexec/strata

(cd "$WORK" && VALGRIND_LIB=$libdir valgrind --tool=strata --out-file="$WORK/installed.%p" \
   --time-unit=B --heap-admin=0 "$PROGS/malloc_basic") >"$WORK/run.out" 2>&1
expect_eq "the installed tool runs" "$?" 0
for f in "$WORK"/installed.[0-9]*; do
   check_profile "$f"
   expect_eq "final heap" "$(q get "$f" heap final)" 2480
done
finish
