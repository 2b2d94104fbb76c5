#!/bin/bash
# The leak-detection corpus (tests/leaks, docs/leaks-corpus.md): every
# variant must be right, leaking ones found with each leaking function as a
# finding's headline, leak-free ones with no finding at all, but for the
# known misses of tests/leaks/known-misses.txt (each with why; a leak-free
# variant is never among them); and one leak must be one finding: at most
# 1.2 true findings a leak found.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

"$PYTHON" "$top_srcdir/tests/leaks/measure" --jobs 2 --work "$WORK/measure" \
   --programs "$top_builddir/tests/leaks" --strata "$STRATA" >"$WORK/measure.out" 2>&1
status=$?
cat "$WORK/measure.out"
expect_le "measure ran (exit status 0 or 1, not 99)" "$status" 1
known=$(sed -e 's/#.*//' "$top_srcdir/tests/leaks/known-misses.txt" | awk 'NF { print $1 }' | sort)
wrong=$(sed -n 's/^FAIL \([^ ]*\) .*/\1/p' "$WORK/measure.out" | sort)
expect_eq "every variant is right but the known misses (wrong and not listed)" \
   "$(comm -23 <(echo "$wrong") <(echo "$known") | tr '\n' ' ')" ""
now_right=$(comm -13 <(echo "$wrong") <(echo "$known") | tr '\n' ' ')
[ -n "$now_right" ] && echo "note: known misses right in this run: $now_right"
expect_eq "no leak-free variant is a known miss" \
   "$(grep -E "^($(echo "$known" | paste -sd'|'))[[:space:]]+none[[:space:]]" \
        "$top_srcdir/tests/leaks/variants.txt")" ""
expect_eq "no false finding in any variant" \
   "$(sed -n 's/^precision: *\([0-9.]*\) .*/\1/p' "$WORK/measure.out")" "1.00"
variants=$(sed -n 's/^variants: *\([0-9]*\) (\([0-9]*\) leaking, \([0-9]*\) leak-free).*/\1 \3/p' \
   "$WORK/measure.out")
set -- $variants
expect_le "at least 40 variants" 40 "${1:-0}"
expect_le "at least half of them leak-free" "$(( (${1:-0} + 1) / 2 ))" "${2:-0}"
# measure's total, "findings per leak: 1.00 (41/41) ...": true findings, leaks found
per_leak=$(sed -n 's|^findings per leak: [0-9.]* (\([0-9]*\)/\([0-9]*\)).*|\1 \2|p' \
   "$WORK/measure.out")
read -r true_findings leaks_found <<<"$per_leak"
expect_le "measure printed findings per leak, with some leak found" 1 "${leaks_found:-0}"
expect_le "at most 1.2 findings a leak (10 x true findings <= 12 x leaks found)" \
   "$(( 10 * ${true_findings:-1} ))" "$(( 12 * ${leaks_found:-0} ))"

# A leak split across callers is one suspect and one band of the graph,
# named at the function the callers call.
for split in split-25 split-40; do
   "$STRATA" plot "$WORK/measure/$split.strata" -o "$WORK/$split.html" >/dev/null 2>&1
   expect_eq "$split: plot exits 0" "$?" 0
   leaks=$("$PYTHON" - "$WORK/$split.html" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'<script type="application/json" id="strata-data">([\s\S]*?)</script>',
                            page).group(1))
print("|".join(b["legend"] for b in data["bands"] if b["kind"] == "leak"))
PY
)
   expect_eq "$split: one leak band, named at session_create" \
      "$(echo "$leaks" | sed 's/ (split.c:[0-9]*)//; s/ ← main_serve.*//')" "GROWTH: session_create ← handle"
done
finish
