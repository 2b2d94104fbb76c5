#!/bin/bash
# The tests that mean something in both recorders (tests/recorders, "both")
# run again with the native recorder: STRATA_RECORDER=native gives every
# recording of tests/lib.sh --native.  Each must pass as it does under
# Valgrind; its log is kept in tests/work/t-native-suite/NAME.MODE.log.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# Twice: as recorded by default (these programs hold too few blocks for the
# recorder thread, so their threads do the core's work), and with the
# recorder thread from the start (STRATA_NATIVE_RECORDER=thread).
for mode in auto thread; do
   while read -r test recorders _; do
      case $test in ''|'#'*) continue ;; esac
      [ "$recorders" = both ] || continue
      STRATA_RECORDER=native STRATA_NATIVE_RECORDER=$mode bash "$top_srcdir/tests/$test" \
         >"$WORK/${test%.sh}.$mode.log" 2>&1
      status=$?
      checks=$((checks + 1))
      if [ "$status" -eq 0 ]; then
         pass "$test, natively ($mode)"
      else
         fail "$test, natively ($mode): exit status $status; its failures:"
         grep '^FAIL' "$WORK/${test%.sh}.$mode.log" | head -5 | sed 's/^/   | /'
      fi
   done <"$top_srcdir/tests/recorders"
done
finish
