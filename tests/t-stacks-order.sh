#!/bin/bash
# --stacks=yes in every time unit, with and without --heap: every profile
# reads, and its records are in time order.  With --stacks=yes the peak is
# checked between heap operations too (a stack that shrinks), so in
# instructions its time could be later than the clock's tick: a peak
# snapshot then came before a regular one with an earlier time, and the
# reader refused the file ("snapshot at time 1 is older than the snapshot
# before it"), at the start of every run and again mid-run.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# in_time_order FILE: prints what is out of order, if anything.  The order
# of docs/format.md: the times of the T, M and X records never decrease,
# except that a peak is written once the heap has fallen from it, so it may
# be older than the records just before it; it is never older than the
# peak before it, and no record after it is older than it.
in_time_order() {
   run_py stacks_order_check "$1"
}

# reads FILE: strata report reads it (exit 0).
reads() {
   "$STRATA" report "$1" >/dev/null 2>"$WORK/report.stderr" \
      || { sed 's/^/   | /' "$WORK/report.stderr"; return 1; }
}

# /bin/true allocates nothing (the peak is the stack's); cyclic allocates
# and frees in a loop; stacks takes user snapshots deep down the stack.
for unit in i ms B; do
   for heap in yes no; do
      for prog in true cyclic stacks; do
         name=$unit-$heap-$prog
         case $prog in
         true)   cmd=(/bin/true) ;;
         cyclic) cmd=("$PROGS/cyclic" 20000) ;;
         *)      cmd=("$PROGS/$prog") ;;
         esac
         record_ok "$name" --stacks=yes --heap=$heap --time-unit=$unit "${cmd[@]}" || continue
         expect "$name: strata report reads it" reads "$profile"
         expect_eq "$name: the records are in time order" "$(in_time_order "$profile")" ""
         expect_le "$name: it has a peak" 1 "$(q get "$profile" count:peak)"
      done
   done
done
finish
