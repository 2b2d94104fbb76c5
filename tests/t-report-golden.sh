#!/bin/bash
# Golden tests of the text report: a leak in marked cycles, a program without
# a leak, a massif.out file, and the post-hoc options.  Paths and pids are
# filtered out; the differences are shown with diff -u.  With
# STRATA_UPDATE_GOLDEN=1 the golden files are rewritten instead.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/report-lib.sh"

# golden NAME FILE [OPTIONS]: strata report OPTIONS FILE against
# tests/golden/report_NAME.txt.
golden() {
   local name=$1 file=$2 expected=$top_srcdir/tests/golden/report_$1.txt
   shift 2
   "$STRATA" report "$@" "$file" 2>"$WORK/$name.stderr" |
      sed -e "s|$WORK/||g" -e "s|$top_builddir/||g" -e "s|$top_srcdir/||g" \
         -e 's/^\(profile: *[^ ]*\)\.[0-9][0-9]* (/\1.PID (/' -e 's/pid [0-9][0-9]*/pid PID/' \
         >"$WORK/$name.txt"
   expect_eq "$name: nothing on stderr" "$(cat "$WORK/$name.stderr")" ""
   if [ -n "${STRATA_UPDATE_GOLDEN:-}" ]; then
      cp "$WORK/$name.txt" "$expected"
   fi
   checks=$((checks + 1))
   if diff -u "$expected" "$WORK/$name.txt"; then
      pass "$name: the report is the golden one"
   else
      fail "$name: the report differs from $expected (diff above)"
   fi
}

record_ok leak_markers --time-unit=B "$PROGS/leak_markers"
golden leak_markers "$profile"
golden leak_markers_options "$profile" --depth=1 --alloc-fn='header_*' --top=1
record_ok trap_startup --time-unit=B "$PROGS/trap_startup"
golden trap_startup "$profile"
record_massif leak_rhythm "$PROGS/leak_rhythm"
golden leak_rhythm_massif "$massif"
record_massif leak_steady "$PROGS/leak_steady"
golden leak_steady_massif "$massif"
finish
