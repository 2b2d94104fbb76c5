#!/bin/bash
# The stored-profile leak corpus (tests/data/leaks, docs/leaks-corpus.md):
# profiles recorded once from generated programs (tests/eval/gen, tuning
# seeds 1-40) and from blind round 1, judged again by `strata report --json`
# without Valgrind, in seconds, and scored by scripts/leak-eval --rescore
# against their truth files.  Every variant must be right but those of
# tests/data/leaks/known-wrong.txt (each with why); at most 1.2 right
# findings a leak found.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

data="$top_srcdir/tests/data/leaks"
mkdir -p "$WORK/runs"
profiles=0
for gz in "$data"/*.strata.gz; do
   name=$(basename "$gz" .strata.gz)
   gzip -dc "$gz" >"$WORK/$name.strata" || fail "$name: cannot decompress $gz"
   "$STRATA" report --json "$WORK/$name.strata" >"$WORK/runs/$name.i.1.json" \
      2>"$WORK/runs/$name.i.1.report.stderr"
   expect_eq "$name: strata report exits 0" "$?" 0
   rm -f "$WORK/$name.strata"
   profiles=$((profiles + 1))
done
expect_le "at least 50 stored profiles" 50 "$profiles"

"$PYTHON" "$top_srcdir/scripts/leak-eval" --rescore --truth "$data" --programs "$data" \
   --work "$WORK/runs" -K 1 --modes strata -o "$WORK/results.json" >"$WORK/out" 2>&1
status=$?
cat "$WORK/out"
expect_eq "leak-eval --rescore exits 0" "$status" 0

wrong=$("$PYTHON" - "$WORK/results.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for v in doc["variants"]:
    if not all(r["ok"] for r in v["recordings"]["strata"]):
        print(v["name"])
PY
)
known=$(sed -e 's/#.*//' "$data/known-wrong.txt" | awk 'NF { print $1 }' | sort)
expect_eq "every variant is right but the known ones (wrong and not listed)" \
   "$(comm -23 <(echo "$wrong" | sort) <(echo "$known") | tr '\n' ' ')" ""
now_right=$(comm -13 <(echo "$wrong" | sort) <(echo "$known") | tr '\n' ' ')
[ -n "${now_right// /}" ] && echo "note: known wrong variants right in this run: $now_right"
counts=$("$PYTHON" -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]["strata"]
print(s["right"] + s["part"], s["leaks_found"])' "$WORK/results.json")
read -r true_findings leaks_found <<<"$counts"
expect_le "some leak found" 1 "${leaks_found:-0}"
expect_le "at most 1.2 findings a leak (10 x true findings <= 12 x leaks found)" \
   "$(( 10 * ${true_findings:-1} ))" "$(( 12 * ${leaks_found:-0} ))"

# A forked child that ran briefly after its parent's long run is judged on
# its snapshots, and the report says so; its parent's profile is not.
gzip -dc "$data/bdbstore-long.strata.gz" >"$WORK/child.strata"
"$STRATA" report "$WORK/child.strata" >"$WORK/child.txt" 2>&1
expect_eq "the short child's report exits 0" "$?" 0
expect_text "the short child's report says it was judged on its snapshots" "$WORK/child.txt" \
   "Judged on its snapshots: this forked child"
expect_text "the short child's leak is named" "$WORK/child.txt" "Growth at snapshot_scan"
"$STRATA" report "$WORK/child.strata" --leaks-from=curves >"$WORK/curves.txt" 2>&1
expect_eq "asked for the curves, nothing to say" "$(grep -c 'Judged on its snapshots' "$WORK/curves.txt")" 0
finish
