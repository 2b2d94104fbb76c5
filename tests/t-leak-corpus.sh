#!/bin/bash
# The leak-detection corpus (tests/leaks, docs/leaks-corpus.md): every
# variant must be right, leaking ones found with their leaking function as a
# suspect's headline, leak-free ones with no suspect at all.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

"$PYTHON" "$top_srcdir/tests/leaks/measure" --jobs 2 --work "$WORK/measure" \
   --programs "$top_builddir/tests/leaks" --strata "$STRATA" >"$WORK/measure.out" 2>&1
status=$?
cat "$WORK/measure.out"
expect_eq "every variant of the corpus is right (measure's exit status)" "$status" 0
variants=$(sed -n 's/^variants: *\([0-9]*\) (\([0-9]*\) leaking, \([0-9]*\) leak-free).*/\1 \3/p' \
   "$WORK/measure.out")
set -- $variants
expect_le "at least 40 variants" 40 "${1:-0}"
expect_le "at least half of them leak-free" "$(( (${1:-0} + 1) / 2 ))" "${2:-0}"
finish
