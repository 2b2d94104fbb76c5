#!/bin/bash
# The tests that mean something in both recorders (tests/recorders, "both")
# run again with the native recorder: STRATA_RECORDER=native gives every
# recording of tests/lib.sh --native.  Each must pass as it does under
# Valgrind; its log is kept in tests/work/t-native-suite/NAME.log.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

while read -r test recorders _; do
   case $test in ''|'#'*) continue ;; esac
   [ "$recorders" = both ] || continue
   STRATA_RECORDER=native bash "$top_srcdir/tests/$test" >"$WORK/${test%.sh}.log" 2>&1
   status=$?
   checks=$((checks + 1))
   if [ "$status" -eq 0 ]; then
      pass "$test, natively"
   else
      fail "$test, natively: exit status $status; its failures:"
      grep '^FAIL' "$WORK/${test%.sh}.log" | head -5 | sed 's/^/   | /'
   fi
done <"$top_srcdir/tests/recorders"
finish
