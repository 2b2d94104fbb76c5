#!/bin/bash
# strata report --fail-on (the CI gate) and strata diff, on the leaky player
# and its fixed run, recorded with the real valgrind; a steady growth
# (tests/programs/leak_steady) fails --fail-on=growth, not --fail-on=leak;
# the hostile names of tests/data/hostile-export.strata stay on one line.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok leaky "$EXAMPLES/leaky-player" || finish
leaky=$profile
record_ok fixed "$EXAMPLES/leaky-player" --fixed || finish
fixed=$profile
record_ok steady --time-unit=B "$PROGS/leak_steady" || finish
steady=$profile

# gate FILE ARGS...: runs strata report ARGS FILE; $gate_status, $WORK/gate.{out,err}.
gate() {
   local file=$1
   shift
   "$STRATA" report "$@" "$file" >"$WORK/gate.out" 2>"$WORK/gate.err"
   gate_status=$?
}

gate "$leaky" --fail-on=leak
expect_eq "--fail-on=leak, a leak: status 3" "$gate_status" 3
expect_eq "... one line on stderr, naming the call site" "$(wc -l <"$WORK/gate.err")" 1
expect_in "... its heading and why" "$WORK/gate.err" \
   "^strata report: .*leaky\.[0-9]+: Leak at frame_alloc \(leaky-player\.c:[0-9]+\), context #1 \(confidence [01]\.[0-9]+\): memory left behind all through the run: "
expect_in "... the report on stdout as usual" "$WORK/gate.out" '^Leak suspects, most suspicious first'
gate "$leaky" --fail-on=leak --json
expect_eq "--fail-on=leak --json: status 3" "$gate_status" 3
expect "... the JSON on stdout parses" "$PYTHON" -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/gate.out"
gate "$fixed" --fail-on=any
expect_eq "--fail-on=any, fixed: status 0" "$gate_status" 0
expect_eq "... nothing on stderr" "$(cat "$WORK/gate.err")" ""
gate "$steady" --fail-on=leak
expect_eq "--fail-on=leak, steady growth: status 0" "$gate_status" 0
gate "$steady" --fail-on=growth
expect_eq "--fail-on=growth, steady growth: status 3" "$gate_status" 3
expect_in "... Growth on stderr" "$WORK/gate.err" '^strata report: .*: Growth at '
gate "$leaky" --fail-on=growth
expect_eq "--fail-on=growth, a rising trough: status 0" "$gate_status" 0
gate "$steady" --fail-on=leak,growth
expect_eq "--fail-on=leak,growth: status 3" "$gate_status" 3
gate "$leaky" --fail-on=leaks
expect_eq "--fail-on=leaks: an error, status 1" "$gate_status" 1
expect_in "... naming the kinds" "$WORK/gate.err" '^strata report: --fail-on=leaks: the kinds are leak, growth'
gate "$top_srcdir/tests/data/hostile-export.strata" --fail-on=any
expect_eq "hostile names: status 3" "$gate_status" 3
expect_eq "... still one line a suspect" "$(wc -l <"$WORK/gate.err")" 1

# strata diff: the leak vanished with the fix.
"$STRATA" diff "$leaky" "$fixed" >"$WORK/diff.txt" 2>"$WORK/diff.err"
expect_eq "diff: exit status" "$?" 0
expect_in "diff: the leak vanished" "$WORK/diff.txt" '^vanished: Leak at frame_alloc \(leaky-player\.c:[0-9]+\), \+[0-9.]+ KiB per cycle before$'
"$STRATA" diff --json "$leaky" "$fixed" >"$WORK/diff.json"
"$STRATA" report --json "$leaky" >"$WORK/leaky.json"
"$STRATA" report --json "$fixed" >"$WORK/fixed.json"
run_py gate_diff_facts "$WORK/diff.json" "$WORK/leaky.json" "$WORK/fixed.json" >"$WORK/diff.facts"
expect_eq "diff --json: the peaks" "$(sed -n 1p "$WORK/diff.facts")" "peak True True"
expect_eq "diff --json: frame_alloc's bytes at the peak, before and after, fell" \
   "$(sed -n 2p "$WORK/diff.facts")" "top True True True"
expect_eq "diff --json: the largest change first" "$(sed -n 3p "$WORK/diff.facts")" "first True"
expect_eq "diff --json: the leak vanished" "$(sed -n 4p "$WORK/diff.facts")" "leaks [('vanished', 'leak', None)]"
"$STRATA" diff "$fixed" "$leaky" >"$WORK/back.txt"
expect_in "diff the other way: the leak appeared" "$WORK/back.txt" '^appeared: Leak at frame_alloc \(leaky-player\.c:[0-9]+\), \+[0-9.]+ KiB per cycle$'
"$STRATA" diff "$leaky" "$leaky" >"$WORK/same.txt"
expect_in "diff with itself: the leak is the same" "$WORK/same.txt" '^same: Leak at frame_alloc'
expect_not "diff with itself: no change" grep -Eq '^[-+][0-9]' "$WORK/same.txt"
# A profile with lifetimes against one without (the same run written as
# version 2, its lifetime and count records left out): the finding from the
# lifetimes and the suspect from the curves are one leak, named by one call
# site (once it was listed twice, "appeared" and "vanished": the one keyed by
# its headline, the other by its context's whole names).
awk -F'\t' 'NR == 1 { print "strata-profile\t2"; next }
  $1 == "L" || $1 == "b" || $1 == "d" || $1 == "a" { skip = 1; next }
  $1 == "E" && skip { skip = 0; next }
  $1 == "P" || $1 == "c" { next }
  $1 == "opt" && ($2 == "lifetimes" || $2 == "free_stacks" || $2 == "free_depth" || $2 == "epoch_unit") { next }
  { print }' "$leaky" >"$WORK/leaky-v2.strata"
"$STRATA" report "$WORK/leaky-v2.strata" >"$WORK/v2.txt"
expect_in "version 2: the curves judge the leak" "$WORK/v2.txt" '^#1 Leak at frame_alloc'
for pair in "$WORK/leaky-v2.strata $leaky" "$leaky $WORK/leaky-v2.strata"; do
   # shellcheck disable=SC2086
   "$STRATA" diff $pair >"$WORK/mixed.txt"
   expect_eq "diff ${pair##*/} (lifetimes and curves): one leak, the same" \
      "$(grep -E '^(appeared|vanished|changed|same): ' "$WORK/mixed.txt" | sed 's/ (.*//')" \
      "same: Leak at frame_alloc"
done
"$STRATA" diff "$leaky" >/dev/null 2>"$WORK/one.err"
expect_eq "diff with one profile: status 1" "$?" 1
hostile=$top_srcdir/tests/data/hostile-export.strata
"$STRATA" diff "$hostile" "$fixed" >"$WORK/hostile.txt"
expect_eq "diff, hostile names: exit status" "$?" 0
expect_not "diff, hostile names: no line broken (each frame line starts with 5 spaces)" \
   grep -Evq '^(     .*|[-+0-9].* at the end|strata diff: .*|peak: .*|end: .*|== .* ==|\(the profiles have .*|(vanished|appeared|changed|same): .*|)$' "$WORK/hostile.txt"

# The threshold a profile was recorded with is strata diff's too, as it is
# report's and plot's (without --threshold of its own): the contexts compared
# are those the report lists.
record_ok coarse --threshold=30 "$EXAMPLES/leaky-player" || finish
listed=$("$STRATA" report --json "$profile" | "$PYTHON" -c '
import json, sys
print(sum(1 for c in json.load(sys.stdin)["contexts"] if not c["other_places"]))')
compared=$("$STRATA" diff --json "$profile" "$profile" | "$PYTHON" -c '
import json, sys
print(len(json.load(sys.stdin)["contexts"]))')
expect_eq "diff of a profile recorded with --threshold=30: its contexts are the report's" \
   "$compared" "$listed"
expect_le "... which are few" "$listed" 3
finish
