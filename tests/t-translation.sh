#!/bin/bash
# Translation settings (docs/design.md, "Translation"): by default a
# superblock does not chase jumps and calls; --vex-guest-chase=yes, passed on
# by strata record, brings chasing back.  Either way the heap recorded is the
# same: with --time-unit=B (bytes, which the blocks' shapes cannot change)
# the two profiles are the same file but for the pids.  (A bad value of
# either setting: t-command-line.sh.)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# The jumps and calls chased, from Valgrind's statistics (--stats=yes).
chased() {
   sed -n 's/.*translate: .* \([0-9,]*\) uncond chased.*/\1/p' "$1" | tr -d ,
}

for prog in malloc_basic cxx_new realloc_heavy wrappers; do
   record_ok "$prog-default" --stats=yes "$PROGS/$prog"
   expect_eq "$prog: no jump or call chased by default" \
      "$(chased "$WORK/$prog-default.stderr")" 0
   record_ok "$prog-chase" --stats=yes --vex-guest-chase=yes "$PROGS/$prog"
   expect_le "$prog: --vex-guest-chase=yes chases" 1 "$(chased "$WORK/$prog-chase.stderr")"

   record_ok "$prog-B-no" --time-unit=B "$PROGS/$prog"
   without=$profile
   record_ok "$prog-B-yes" --time-unit=B --vex-guest-chase=yes "$PROGS/$prog"
   expect "$prog: the same profile with and without chasing (--time-unit=B)" \
      cmp -s <(grep -v '^p*pid' "$without") <(grep -v '^p*pid' "$profile")
done

record_ok registers --vex-iropt-register-updates=allregs-at-mem-access --time-unit=B \
   "$PROGS/malloc_basic"
expect "--vex-iropt-register-updates=allregs-at-mem-access: the same profile" \
   cmp -s <(grep -v '^p*pid' "$WORK/malloc_basic-B-no".[0-9]*) <(grep -v '^p*pid' "$profile")
finish
