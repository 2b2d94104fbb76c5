#!/bin/bash
# docs/manual.md's option table of each command is its --help: each option
# of `strata COMMAND --help` is a row of the command's tables, with the same
# names, values, default and words of description, and no row is an option
# --help does not have (tests/manual-check, python3).  The manual follows
# --help: --help is the code's.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

for command in record report plot convert diff; do
   "$STRATA" "$command" --help >"$WORK/$command.help" 2>"$WORK/$command.help.err"
   expect_eq "strata $command --help exits 0" "$?" 0
   checks=$((checks + 1))
   if out=$("$PYTHON" "$top_srcdir/tests/manual-check" "$top_srcdir/docs/manual.md" "$command" \
      "$WORK/$command.help"); then
      pass "$out"
   else
      fail "docs/manual.md's table of strata $command is not its --help:"
      echo "$out" | sed 's/^/   | /'
   fi
done
finish
