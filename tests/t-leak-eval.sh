#!/bin/bash
# scripts/leak-eval's scoring (docs/leaks-corpus.md, "The evaluation bench"),
# on reports written here: no program is recorded (--rescore reads them).
# Two programs: "pump" leaks at pump_fill (headline where it can be fixed:
# pump_fill) and "tree" does not, but may grow at build_tree.  K = 2.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

mkdir -p "$WORK/truth" "$WORK/runs"
cat >"$WORK/truth/pump.truth" <<'JSON'
{"program": "pump", "about": "a leak",
 "leak": {"functions": ["pump_fill"], "headline": ["pump_fill"], "parts": ["pump_pool"],
          "freed_at_exit": false},
 "variants": [{"name": "pump-a", "args": [], "leaks": true},
              {"name": "pump-b", "args": [], "leaks": true, "freed_at_exit": true},
              {"name": "pump-fixed", "args": [], "leaks": false}]}
JSON
cat >"$WORK/truth/tree.truth" <<'JSON'
{"program": "tree", "about": "growth",
 "growth": {"functions": ["build_tree"]},
 "variants": [{"name": "tree", "args": [], "leaks": false}]}
JSON

# report NAME K FINDING... : FINDING is KIND:HEADLINE:FRAME,FRAME...
report() {
   "$PYTHON" - "$WORK/runs/$1.i.$2.json" "${@:3}" <<'PY'
import json, sys
leaks = []
for spec in sys.argv[2:]:
    kind, head, frames = spec.split(":")
    frame = lambda n: {"name": n, "function": n}
    leaks.append({"kind": kind, "headline": frame(head) if head else None,
                  "frames": [frame(n) for n in frames.split(",") if n], "end_bytes": 1})
json.dump({"leaks": leaks, "cycles": {"count": 0}}, open(sys.argv[1], "w"))
PY
}
# pump-a: found twice, the second time as two findings (one headed by the
# allocator, its frames naming pump_fill), plus a false one and a part of the
# leak (the pool the leak keeps, named where it cannot be fixed).
report pump-a 1 "steady_growth:pump_fill:pump_fill,main"
report pump-a 2 "rising_trough:pump_fill:pump_fill,main" \
   "rising_trough:xmalloc:xmalloc,pump_fill,main" "steady_growth:log_line:log_line,main" \
   "rising_trough:g_malloc:g_malloc,pump_pool"
# pump-b: missed once, found once: unstable.
report pump-b 1
report pump-b 2 "steady_growth:pump_fill:pump_fill,main"
# pump-fixed: a false alarm once.
report pump-fixed 1
report pump-fixed 2 "steady_growth:pump_fill:pump_fill,main"
# tree: growth at build_tree is allowed, whatever kind of finding names it;
# a finding at main is false.
report tree 1 "steady_growth:build_tree:build_tree,main"
report tree 2 "rising_trough:build_tree:build_tree,main" "rising_trough:main:main"

"$PYTHON" "$top_srcdir/scripts/leak-eval" --rescore --truth "$WORK/truth" --work "$WORK/runs" \
   -K 2 --modes strata -o "$WORK/results.json" >"$WORK/out" 2>&1
status=$?
cat "$WORK/out"
expect_eq "leak-eval --rescore exits 0" "$status" 0
summary() {
   "$PYTHON" -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]["strata"]
print(" ".join(str(s[k]) for k in sys.argv[2:]))' "$WORK/results.json" "$@"
}
expect_eq "right, false (parts among them), allowed findings" \
   "$(summary right false part allowed)" "4 4 1 2"
expect_eq "found: 3 of the 4 leaking recordings" "$(summary found leaking_recordings)" "3 4"
expect_eq "precision 4/8, findings per leak (4 + 1)/3" \
   "$(summary precision findings_per_leak)" "0.5 1.6666666666666667"
expect_eq "headline right: 3 of the 4 right findings (not xmalloc)" "$(summary headline_right)" "3"
expect_eq "freed at exit: 1 of 2 found" \
   "$(summary freed_at_exit_found freed_at_exit_recordings)" "1 2"
expect_eq "recordings right: pump-a #1, pump-b #2, pump-fixed #1, tree #1" \
   "$(summary recordings_right recordings)" "4 8"
expect_eq "stable: pump-a only" "$(summary stable_variants variants)" "1 4"
expect_eq "the table marks pump-b unstable" \
   "$(grep -c '^  pump-b .*unstable' "$WORK/out")" 1

# A missing report is a broken setup, not a score.
rm "$WORK/runs/tree.i.2.json"
"$PYTHON" "$top_srcdir/scripts/leak-eval" --rescore --truth "$WORK/truth" --work "$WORK/runs" \
   -K 2 --modes strata -o "$WORK/results2.json" >"$WORK/out2" 2>&1
expect_eq "a missing report: exit 99" "$?" 99
finish
