#!/bin/bash
# What a profile cannot see, told as a new user needs it: one line each on
# stderr at the end of strata record, and at the end of strata report's text
# where the profile holds the facts.  With real programs: gzip allocates
# nothing; env hands over to another program by exec; python3 keeps its
# small objects in its own arenas; a stripped program has no symbols.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# run NAME [RECORD-OPTIONS] PROGRAM [ARGS] (stdin from $WORK/input): strata
# record with -o $WORK/NAME.%p, then strata report of the first profile.
head -c 100000 /dev/urandom >"$WORK/input"
run() {
   local name=$1
   shift
   (cd "$WORK" && exec "$STRATA" record "${RECORD_ARGS[@]}" -o "$WORK/$name.%p" "$@") <"$WORK/input" \
      >/dev/null 2>"$WORK/$name.stderr"
   status=$?
   local first
   first=$(ls "$WORK/$name".[0-9]* 2>/dev/null | head -1)
   "$STRATA" report "$first" >"$WORK/$name.report" 2>&1
}
# says NAME TEXT: record's stderr has the line "strata record: TEXT..."
says() {
   expect_in "$1: strata record says: $2" "$WORK/$1.stderr" "^strata record: $2"
}
silent() {
   expect_not "$1: strata record does not say: $2" grep -Eq "^strata record: $2" "$WORK/$1.stderr"
}

no_heap="no heap allocation was recorded: the program did not call malloc or new"
if command -v gzip >/dev/null; then
   run gzip gzip -c
   expect_eq "gzip: exit status" "$status" 0
   says gzip "$no_heap"
   expect_in "gzip: the report ends with it" "$WORK/gzip.report" "^$no_heap"
   expect_eq "gzip: one line of it, at the end" "$(tail -1 "$WORK/gzip.report" | cut -c1-40)" \
      "$(echo "$no_heap" | cut -c1-40)"
fi
run basic "$PROGS/malloc_basic"
silent basic "no heap"
silent basic "no symbols"
expect_not "a report with nothing to note has no such part" \
   grep -q "What this profile cannot see" "$WORK/basic.report"

# env hands over to true by exec: true is not profiled without
# --trace-children=yes, and strata record says so.
run handover /usr/bin/env /bin/true
says handover "the program handed over to /bin/true by exec, which was not profiled: record with --trace-children=yes to profile it$"
run handover-traced --trace-children=yes /usr/bin/env /bin/true
silent handover-traced "the program handed over"
run forked "$PROGS/fork_exec" "$PROGS/exec_child"
says forked "1 program started by exec \\($PROGS/exec_child\\) not profiled: record with --trace-children=yes to profile it$"
run exec-failed "$PROGS/exec_fail"
silent exec-failed ".*by exec"

# python3: pymalloc hides most objects; PYTHONMALLOC=malloc shows them.
if [ -x /usr/bin/python3 ]; then
   script='x = [str(i) * 3 for i in range(2000)]'
   run python /usr/bin/python3 -c "$script"
   says python "python3[.0-9]* keeps its small objects in arenas of its own \\(pymalloc\\), which strata does not see: record with PYTHONMALLOC=malloc to see them$"
   expect_in "python: the report says it, not knowing the environment" "$WORK/python.report" \
      "^python3[.0-9]* keeps its small objects in arenas of its own \\(pymalloc\\), which strata does not see unless it was recorded with PYTHONMALLOC=malloc$"
   PYTHONMALLOC=malloc run python-malloc /usr/bin/python3 -c "$script"
   silent python-malloc "python"
fi

# A stripped copy of a test program: its objects are named once.
if strip -o "$WORK/basic-stripped" "$PROGS/malloc_basic" 2>/dev/null; then
   run stripped "$WORK/basic-stripped"
   says stripped "no symbols for most frames in $WORK/basic-stripped \\(stripped\\?\\): they are named object\\+0xOFFSET"
   expect_eq "stripped: named once" "$(grep -c "no symbols" "$WORK/stripped.stderr")" 1
   expect_in "stripped: the report says it too" "$WORK/stripped.report" \
      "^no symbols for most frames in $WORK/basic-stripped "
fi
finish
