#!/bin/bash
# strata report: the JSON document and its fields, the post-hoc options
# (--depth, --threshold, --alloc-fn, --top), their help in the manual, a
# profile cut short, and what is not a profile.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/report-lib.sh"

record_ok markers --time-unit=B "$PROGS/leak_markers" || finish
p=$profile
report_json all "$p"
j=$WORK/all.json

# ---- the JSON fields the manual promises ------------------------------------
run_py report_options_fields "$j" >"$WORK/fields.out"
expect_eq "every field is there" "$(grep -c missing "$WORK/fields.out")" 0
expect_in "3 contexts, 1 leak" "$WORK/fields.out" "^contexts 3 leaks 1$"
expect_in "the shares of spacetime add up to 100%" "$WORK/fields.out" "^sum 100.0$"
expect_in "confidences are in [0, 1]" "$WORK/fields.out" "^confidence True$"
ask "$p" "get heap "{peak,final}
expect_eq "peak heap: the profile's" "$(json "$j" peak.heap_bytes)" "$(answer "$p" get heap peak)"
expect_eq "final heap: the profile's" "$(json "$j" final.heap_bytes)" "$(answer "$p" get heap final)"
expect_eq "the command" "$(json "$j" command)" "$PROGS/leak_markers"
expect_eq "the leak's frames, innermost first" \
   "$("$PYTHON" -c 'import json,sys; print(" ".join(f["function"] for f in json.load(open(sys.argv[1]))["leaks"][0]["frames"]))' "$j")" \
   "header_keep handle main"

# ---- post-hoc options ----------------------------------------------------------
report_json depth1 "$p" --depth=1
expect_eq "--depth=1: one frame a context" \
   "$("$PYTHON" -c 'import json,sys; print(sorted({len(c["frames"]) for c in json.load(open(sys.argv[1]))["contexts"]}))' "$WORK/depth1.json")" \
   "[1]"
report_json alloc "$p" --alloc-fn='header_*' --alloc-fn=nothing
expect_suspects "--alloc-fn: the wrapper's caller is the finding" "$WORK/alloc.json" \
   "leak $(site handle "$top_srcdir/tests/programs/leak_markers.c" 'header_keep(request);')"
report_json top "$p" --top=1
expect_eq "--top=1: the first context, the finding, and the other places" \
   "$("$PYTHON" -c 'import json,sys; print([min(c["other_places"], 1) for c in json.load(open(sys.argv[1]))["contexts"]])' "$WORK/top.json")" \
   "[0, 0, 1]"
report_json threshold "$p" --threshold=50
expect_eq "--threshold=50: the suspect is never folded" \
   "$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["contexts"]), d["leaks"][0]["context"])' "$WORK/threshold.json")" \
   "3 2"
# --sort: whole stacks, ranked by the measure, the largest first.
report_json sorted "$p" --sort=peak --threshold=0
expect_eq "--sort=peak: the contexts by their bytes at the peak, the largest first" \
   "$("$PYTHON" -c '
import json, sys
peaks = [c["peak_bytes"] for c in json.load(open(sys.argv[1]))["contexts"] if not c["other_places"]]
print(len(peaks) > 1 and peaks == sorted(peaks, reverse=True))' "$WORK/sorted.json")" True
report_json calls "$p" --sort=allocations --threshold=0
expect_eq "--sort=allocations: the contexts by their allocation calls, the most first" \
   "$("$PYTHON" -c '
import json, sys
calls = [c["allocations"]["calls"] for c in json.load(open(sys.argv[1]))["contexts"]
         if not c["other_places"]]
print(len(calls) > 1 and calls == sorted(calls, reverse=True) and calls[0] > 0)' "$WORK/calls.json")" True
"$STRATA" report --sort=allocations "$top_srcdir/tests/data/prog.massif" >/dev/null 2>"$WORK/nocounts.err"
expect_eq "--sort=allocations, a massif.out file: exit status 1" "$?" 1
expect_in "... it has no counts" "$WORK/nocounts.err" 'no allocation counts'
for bad in --depth=0 --depth=x --threshold=101 --threshold=-1 --top=0 --sort=size; do
   "$STRATA" report "$bad" "$p" >"$WORK/bad.out" 2>"$WORK/bad.err"
   expect_eq "$bad: exit status 1" "$?" 1
   expect_eq "$bad: one line on stderr" "$(wc -l <"$WORK/bad.err")" 1
   expect_in "$bad: names the option" "$WORK/bad.err" "^strata report: ${bad%%=*}="
done

# ---- the help, in the manual with the same words ------------------------------------
"$STRATA" report --help >"$WORK/help.txt"
expect_eq "--help exits 0" "$?" 0
# Each option's help, its wrapped lines joined, is in the manual's table,
# less a default said in its last words, which the table gives in its
# default column (tests/t-manual.sh checks the tables of every command,
# report's too).
awk '/^  --/ { if (text) print text; sub(/^  --[^ ]+( [A-Z.]+)?( \(=[^)]*\))? +/, ""); text = $0; next }
     /^     +/ { sub(/^ +/, ""); text = text " " $0; next }
     { if (text) print text; text = "" }
     END { if (text) print text }' "$WORK/help.txt" | sed 's/  */ /g; s/ $//' >"$WORK/help.lines"
expect_eq "fourteen options with help, and --help" "$(wc -l <"$WORK/help.lines")" 14
expect_in "--help" "$WORK/help.txt" "^  -h \[ --help \] +show this help$"
while read -r line; do
   checks=$((checks + 1))
   if grep -Fq -- "$line" "$top_srcdir/docs/manual.md" ||
      grep -Fq -- "${line% (*)}" "$top_srcdir/docs/manual.md"; then
      pass "in the manual: $line"
   else
      fail "not in docs/manual.md: $line"
   fi
done <"$WORK/help.lines"

# ---- a profile cut short; not a profile --------------------------------------------
cut=$WORK/cut.profile
lines=$(wc -l <"$p")
head -n $((lines / 2)) "$p" >"$cut"
printf 'T\tregular\t99' >>"$cut"
"$STRATA" report "$cut" >"$WORK/cut.txt" 2>"$WORK/cut.err"
expect_eq "cut short: exit status 0" "$?" 0
expect_eq "cut short: one line of warning" "$(wc -l <"$WORK/cut.err")" 1
expect_in "cut short: the warning says so" "$WORK/cut.err" "^strata: warning: .*profile ends early"
expect_in "cut short: the header says so" "$WORK/cut.txt" "^end: +cut short"
expect_in "cut short: contexts are reported" "$WORK/cut.txt" "Context accounted for"
echo "hello" >"$WORK/not-a-profile"
"$STRATA" report "$WORK/not-a-profile" >"$WORK/not.out" 2>"$WORK/not.err"
expect_eq "not a profile: exit status 1" "$?" 1
expect_eq "not a profile: one line" "$(cat "$WORK/not.err")" \
   "strata: $WORK/not-a-profile: not a strata profile or massif.out file"
expect_eq "not a profile: nothing on stdout" "$(wc -c <"$WORK/not.out")" 0

# Names are data: a tab or newline in a function name is shown as an escape
# and cannot break the report's lines, and --top has each command's default.
"$STRATA" report "$top_srcdir/tests/data/hostile.strata" >"$WORK/hostile.txt" 2>&1
# (in a context's stack: a function of the program with no source file beside
# others with theirs is no headline, a static library's without debug information)
expect_eq "control characters in names are escaped" \
   "$(grep -c 'tab\\there\\nnewline\\n!touch' "$WORK/hostile.txt")" 1
expect_eq "no line begins inside a name" "$(grep -c '^newline' "$WORK/hostile.txt")" 0
"$STRATA" plot --help >"$WORK/plot.help"
"$STRATA" report --help >"$WORK/report.help"
expect_in "plot --help: --top is 10" "$WORK/plot.help" "--top N \(=10\)"
expect_in "report --help: --top is 20" "$WORK/report.help" "--top N \(=20\)"
finish
