#!/bin/bash
# make install DESTDIR=...: the command, the tool beside links to Valgrind's
# own files, strata.h; the installed tool runs with VALGRIND_LIB, and the
# installed strata record runs it from the staged tree (it finds its tool
# from its own place, bin/../libexec/strata), even once the tree is moved.
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

# installed_record NAME BIN: BIN/strata record, from the staged tree, with
# nothing pointing at a tool; then BIN/strata report reads the profile.
installed_record() {
   local name=$1 bin=$2
   (cd "$WORK" && env -u STRATA_VALGRIND_LIB -u VALGRIND_LIB "$bin/strata" record \
      -o "$WORK/$name.%p" --time-unit=B --heap-admin=0 "$PROGS/malloc_basic") \
      >"$WORK/$name.out" 2>"$WORK/$name.err"
   expect_eq "$name: the installed strata record exits 0" "$?" 0
   collect_profiles "$name" || return
   expect_eq "$name: final heap" "$(q get "$profile" heap final)" 2480
   "$bin/strata" report "$profile" >"$WORK/$name.report" 2>&1
   expect_eq "$name: the installed strata report exits 0" "$?" 0
   expect_in "$name: the report names the profile" "$WORK/$name.report" "^profile: +$profile "
   expect_in "$name: the report has the final heap" "$WORK/$name.report" "^final: .*\(useful heap 2,480,"
}
bin=$(dirname "$(find "$inst" -path '*/bin/strata' | head -1)")
installed_record staged "$bin"

# The native recorder's library is installed beside the tool, and found.
(cd "$WORK" && env -u STRATA_VALGRIND_LIB -u VALGRIND_LIB "$bin/strata" record --native \
   -o "$WORK/native.%p" --time-unit=B --heap-admin=0 "$PROGS/malloc_basic") \
   >"$WORK/native.out" 2>"$WORK/native.err"
expect_eq "natively: the installed strata record exits 0" "$?" 0
if collect_profiles native; then
   expect_eq "natively: final heap" "$(q get "$profile" heap final)" 2480
   expect_eq "natively: the frames are named" "$(q bytes "$profile" use_realloc peak)" 3008
fi

# Moved elsewhere, the tree still finds its own tool; without it, strata
# record says where it looked: there first, then the configured directory.
moved=$WORK/moved
mv "$inst" "$moved"
installed_record moved "${bin/#$inst/$moved}"
mv "${libdir/#$inst/$moved}" "$WORK/hidden-tool"
"${bin/#$inst/$moved}/strata" record "$PROGS/malloc_basic" >"$WORK/none.out" 2>"$WORK/none.err"
expect_eq "without its tool, the installed strata record exits 1" "$?" 1
expect_in "... and names the directory it looked in" "$WORK/none.err" \
   "none of .*${libdir/#$inst/$moved}, "
finish
