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

# rescore SET K [OUT]: leak-eval --rescore of $WORK/truthSET and $WORK/runsSET,
# K recordings each, into $WORK/resultsOUT.json and $WORK/outOUT (OUT: SET).
rescore() {
   local out=${3-$1}
   "$PYTHON" "$top_srcdir/scripts/leak-eval" --rescore --truth "$WORK/truth$1" \
      --work "$WORK/runs$1" -K "$2" --modes strata -o "$WORK/results$out.json" \
      >"$WORK/out$out" 2>&1
}
rescore "" 2
status=$?
cat "$WORK/out"
expect_eq "leak-eval --rescore exits 0" "$status" 0
# summary_of RESULTS KEY...: those of the strata mode's summary in RESULTS.
summary_of() {
   "$PYTHON" -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]["strata"]
print(" ".join(str(s[k]) for k in sys.argv[2:]))' "$@"
}
summary() { summary_of "$WORK/results.json" "$@"; }
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

# growth as a list of functions, and a variant's own: "ring-creep" grows
# its ring all run, "ring" does not, so the same finding is allowed in one
# and false in the other.
mkdir -p "$WORK/truth3" "$WORK/runs3"
cat >"$WORK/truth3/ring.truth" <<'JSON'
{"program": "ring", "about": "a ring whose high-water mark creeps up in one variant",
 "growth": ["log_keep"],
 "variants": [{"name": "ring", "args": [], "leaks": false},
              {"name": "ring-creep", "args": [], "leaks": false, "growth": ["ring_grow"]}]}
JSON
# growths REPORT NAME...: a report of a steady growth headed by each NAME (its frames NAME, main).
growths() {
   "$PYTHON" -c 'import json, sys
f = lambda n: {"name": n, "function": n}
json.dump({"leaks": [{"kind": "steady_growth", "headline": f(n), "frames": [f(n), f("main")],
                      "end_bytes": 1} for n in sys.argv[2:]], "cycles": {"count": 0}},
          open(sys.argv[1], "w"))' "$@"
}
growths "$WORK/runs3/ring.i.1.json" ring_grow log_keep
growths "$WORK/runs3/ring-creep.i.1.json" ring_grow log_keep
rescore 3 1
expect_eq "leak-eval --rescore of list growths exits 0" "$?" 0
expect_eq "allowed: log_keep twice and ring_grow in ring-creep; false: ring_grow in ring" \
   "$(summary_of "$WORK/results3.json" allowed false)" "3 1"

# A truth's scoped function is named by Valgrind's bare name of an inlined
# frame (decode for Consumer::decode), not by another scope's.
mkdir -p "$WORK/truth4" "$WORK/runs4"
cat >"$WORK/truth4/relay.truth" <<'JSON'
{"program": "relay", "about": "a leak in a member function, inlined",
 "leak": {"functions": ["Consumer::decode"], "headline": ["Consumer::decode"],
          "freed_at_exit": false},
 "variants": [{"name": "relay", "args": [], "leaks": true},
              {"name": "relay-b", "args": [], "leaks": true}]}
JSON
growths "$WORK/runs4/relay.i.1.json" decode
growths "$WORK/runs4/relay-b.i.1.json" Other::decode
rescore 4 1
expect_eq "leak-eval --rescore of scoped names exits 0" "$?" 0
expect_eq "right and headline right: decode; false: Other::decode" \
   "$(summary_of "$WORK/results4.json" right headline_right false)" "1 1 1"

# A program that forks: the child's profile is its own, and its leak one
# more found.  Saved as report() of leak-eval saves it: the first process's
# report with every process's findings, and each child's beside it.
mkdir -p "$WORK/truth5" "$WORK/runs5"
cat >"$WORK/truth5/signer.truth" <<'JSON'
{"program": "signer", "about": "a leak in the parent and in its forked worker",
 "leak": {"functions": ["sign_record"], "headline": ["sign_record"], "freed_at_exit": false},
 "variants": [{"name": "signer", "args": [], "leaks": true}]}
JSON
growths "$WORK/runs5/signer.i.1.4242.json" sign_record
"$PYTHON" -c 'import json, sys
f = lambda n: {"name": n, "function": n}
leak = {"kind": "steady_growth", "headline": f("sign_record"), "frames": [f("sign_record")],
        "end_bytes": 1}
json.dump({"leaks": [leak, leak], "forked": ["4242"], "cycles": {"count": 0}},
          open(sys.argv[1], "w"))' "$WORK/runs5/signer.i.1.json"
rescore 5 1
expect_eq "leak-eval --rescore of a fork exits 0" "$?" 0
expect_eq "a finding in each process: 2 right, 2 leaks found, 1 finding per leak" \
   "$(summary_of "$WORK/results5.json" right leaks_found findings_per_leak)" "2 2 1.0"

# A program with two leaks ("each"): recall counts the leaks, and two
# findings that name one each are one finding a leak.
mkdir -p "$WORK/truth6" "$WORK/runs6"
cat >"$WORK/truth6/relay.truth" <<'JSON'
{"program": "relay", "about": "two leaks",
 "leak": {"functions": ["keep_reply", "keep_session"], "freed_at_exit": false,
          "each": [["keep_reply"], ["keep_session"]]},
 "variants": [{"name": "relay", "args": [], "leaks": true}]}
JSON
growths "$WORK/runs6/relay.i.1.json" keep_reply
growths "$WORK/runs6/relay.i.2.json" keep_reply keep_session
rescore 6 2
expect_eq "leak-eval --rescore of two leaks exits 0" "$?" 0
expect_eq "recall 3 of 4 leaks (both recordings found), 1 finding a leak" \
   "$(summary_of "$WORK/results6.json" leaks_recalled leaks found findings_per_leak)" "3 4 2 1.0"
sed -i 's/"each": .*]]/"each": [["keep_reply"], ["keep_relay"]]/' "$WORK/truth6/relay.truth"
rescore 6 2
expect_eq "an \"each\" naming a function the leak has not: exit 99" "$?" 99
expect_eq "it says so" "$(grep -c 'groups of its functions' "$WORK/out6")" 1

# A missing report is a broken setup, not a score.
rm "$WORK/runs/tree.i.2.json"
rescore "" 2 2
expect_eq "a missing report: exit 99" "$?" 99
finish
