#!/bin/bash
# strata convert: the leaky player recorded with the real valgrind, written as
# a massif.out file that the installed ms_print reads (its peak and top
# context agree with strata report; massif's defaults: every 10th snapshot
# detailed, and the peak and the last) and that strata reads back (with
# --threshold=0 --detailed-freq=1, the peak and the contexts kept), and as
# collapsed stacks at the peak, at a time and of the leak's growth.  Then tests/data/hostile-export.strata, whose frames are
# named a;b, ", \, <script>, ]]>, $(...) and with newlines: no line breaks,
# nothing runs, the names come back.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

py() {
   "$PYTHON" - "$@"
}

record_ok leaky "$EXAMPLES/leaky-player" || finish
"$STRATA" report --json "$profile" >"$WORK/report.json"
"$STRATA" convert --to=massif "$profile" -o "$WORK/leaky.massif" 2>"$WORK/convert.err"
expect_eq "convert --to=massif: exit status" "$?" 0

# ms_print reads it, every snapshot, the peak marked.
ms_print "$WORK/leaky.massif" >"$WORK/ms_print.out" 2>"$WORK/ms_print.err"
expect_eq "ms_print: exit status" "$?" 0
expect_eq "ms_print: every snapshot" \
   "$(sed -n 's/^Number of snapshots: //p' "$WORK/ms_print.out")" "$(json "$WORK/report.json" snapshots)"
"$PYTHON" - "$WORK/ms_print.out" >"$WORK/detailed" <<'PYEOF'
import re, sys
text = open(sys.argv[1]).read()
count = int(re.search(r"Number of snapshots: (\d+)", text).group(1))
listed = re.search(r"Detailed snapshots: \[([^]]*)\]", text).group(1)
peak = int(re.search(r"(\d+) \(peak\)", listed).group(1))
got = [int(n) for n in re.findall(r"\d+", listed)]
print(got == sorted({i for i in range(count) if (i + 1) % 10 == 0} | {peak, count - 1}))
PYEOF
expect_eq "detailed: every 10th snapshot, the peak and the last (massif's default)" \
   "$(cat "$WORK/detailed")" True
expect_eq "one peak" "$(grep -c '^heap_tree=peak' "$WORK/leaky.massif")" 1
expect_in "desc names the export's options and what was dropped" "$WORK/leaky.massif" \
   '^desc: --depth=30 .* --strata-convert-threshold=1.0 --strata-convert-detailed-freq=10 --strata-convert-dropped=interval-lows,markers$'
expect_in "entries under 1% put together, as massif does" "$WORK/leaky.massif" \
   "^ +n0: [0-9]+ in [0-9]+ places?,( all)? below massif's threshold \(1.00%\)$"
# The peak snapshot's row and its tree's first entry, as ms_print prints them.
run_py convert_ms_peak "$WORK/ms_print.out" "$WORK/report.json" >"$WORK/ms_peak"
expect_eq "ms_print: the peak's total is strata report's" "$(sed -n 1p "$WORK/ms_peak")" "total True"
expect_eq "ms_print: the peak's first entry holds context #1's bytes" "$(sed -n 2p "$WORK/ms_peak")" "bytes True"
expect_eq "ms_print: ... at context #1's frame" "$(sed -n 3p "$WORK/ms_peak")" "frame True True"

# The round trip: strata -> massif.out (every snapshot detailed, every site
# apart) -> strata report.
"$STRATA" convert --to=massif --threshold=0 --detailed-freq=1 "$profile" -o "$WORK/all.massif"
expect_eq "every snapshot with sites is detailed (--detailed-freq=1)" \
   "$(grep -c '^heap_tree=\(detailed\|peak\)' "$WORK/all.massif")" "$(json "$WORK/report.json" snapshots)"
"$STRATA" report --json "$WORK/all.massif" >"$WORK/back.json" 2>"$WORK/back.err"
expect_eq "strata report on the massif.out: exit status" "$?" 0
run_py convert_round_trip "$WORK/report.json" "$WORK/back.json" >"$WORK/trip"
expect_eq "round trip: the peak" "$(sed -n 1p "$WORK/trip")" "peak True"
expect_eq "round trip: the contexts, their frames and bytes" "$(sed -n 2p "$WORK/trip")" "contexts True"
expect_eq "round trip: the leak suspect" "$(sed -n 3p "$WORK/trip")" "leaks True"

# Collapsed stacks.
sum() {
   awk '{ s += $NF } END { print s + 0 }' "$1"
}
"$STRATA" convert --to=collapsed "$profile" -o "$WORK/peak.folded"
expect_eq "collapsed: exit status" "$?" 0
expect_eq "collapsed: the stacks add up to the peak's heap" "$(sum "$WORK/peak.folded")" \
   "$(json "$WORK/report.json" peak.heap_bytes)"
top=$(py "$WORK/report.json" <<'PYEOF'
import json, sys
top = json.load(open(sys.argv[1]))["contexts"][0]
print(";".join(f["name"] for f in reversed(top["frames"])), top["peak_bytes"])
PYEOF
)
expect_eq "collapsed: outermost first, context #1's bytes at the peak" \
   "$(grep "^main;player_play;decoder_decode;frame_alloc " "$WORK/peak.folded")" "$top"
# --at: a time between snapshots gives the snapshot before it.
at=$(sed -n 's/^time=//p' "$WORK/all.massif" | sed -n 800p)
heap=$(sed -n 's/^mem_heap_B=//p' "$WORK/all.massif" | sed -n 800p)
"$STRATA" convert --to=collapsed --at=$((at)) "$profile" -o "$WORK/at.folded"
expect_eq "collapsed --at=TIME: the heap then" "$(sum "$WORK/at.folded")" "$heap"
"$STRATA" convert --to=collapsed --leaks "$profile" -o "$WORK/leaks.folded"
expect_eq "collapsed --leaks: one stack, the leak's" "$(cut -d' ' -f1 "$WORK/leaks.folded")" \
   "main;player_play;decoder_decode;frame_alloc"
grown=$(py "$WORK/report.json" <<'PYEOF'
import json, sys
leak = json.load(open(sys.argv[1]))["leaks"][0]
print(leak["kept_bytes"])
PYEOF
)
expect_eq "collapsed --leaks: the finding's kept bytes" "$(sum "$WORK/leaks.folded")" "$grown"
# Judged from the curves, what the finding keeps: its sites' bytes at the horizon.
"$STRATA" convert --to=collapsed --leaks --leaks-from=curves "$profile" -o "$WORK/leaks-curves.folded"
"$STRATA" report --json --leaks-from=curves "$profile" >"$WORK/report-curves.json"
grown=$(py "$WORK/report-curves.json" <<'PYEOF'
import json, sys
leak = json.load(open(sys.argv[1]))["leaks"][0]
print(leak["kept_bytes"])
PYEOF
)
expect_eq "collapsed --leaks --leaks-from=curves: the finding's kept bytes" \
   "$(sum "$WORK/leaks-curves.folded")" "$grown"
"$STRATA" convert --to=collapsed --at=0 "$profile" -o "$WORK/none" 2>"$WORK/at0.err"
expect_eq "--at before the first snapshot: status 1" "$?" 1
expect_in "... saying where the profile starts" "$WORK/at0.err" '^strata: .*: no snapshot at or before time 0 \(the first is at [0-9]+\)$'
"$STRATA" convert --to=svg "$profile" -o "$WORK/x" 2>"$WORK/to.err"
expect_eq "an unknown format: status 1" "$?" 1
expect_in "... naming the formats" "$WORK/to.err" '^strata convert: --to=svg: the formats are massif, collapsed and pprof$'

# Hostile names.
hostile=$top_srcdir/tests/data/hostile-export.strata
rm -f /tmp/strata-PWNED-e*
"$STRATA" convert --to=collapsed "$hostile" -o "$WORK/hostile.folded"
expect_eq "hostile, collapsed: exit status" "$?" 0
"$STRATA" convert --to=collapsed --leaks "$hostile" -o "$WORK/hostile-leaks.folded"
expect_eq "hostile, collapsed --leaks: exit status" "$?" 0
"$STRATA" convert --to=massif --threshold=0 "$hostile" -o "$WORK/hostile.massif"
expect_eq "hostile, massif: exit status" "$?" 0
ms_print "$WORK/hostile.massif" >"$WORK/hostile.ms_print" 2>&1
expect_eq "hostile, ms_print: exit status" "$?" 0
"$STRATA" report --json "$WORK/hostile.massif" >"$WORK/hostile-back.json"
expect_eq "hostile, massif read back: exit status" "$?" 0
run_py convert_hostile_facts "$WORK/hostile.folded" "$WORK/hostile-leaks.folded" "$WORK/hostile-back.json" \
   "$WORK/hostile.massif" >"$WORK/hostile.facts"
for fact in "ends with a newline" "every line a stack and a count" "main first" \
   "no control character" "the names come back"; do
   expect_eq "hostile, collapsed: $fact" "$(grep -c "^$fact True" "$WORK/hostile.facts")" 2
done
expect_in "hostile, massif: every name read back, line breaks escaped" "$WORK/hostile.facts" \
   "^massif: every name read back True$"
expect_in "hostile, massif: every line one of the format's" "$WORK/hostile.facts" \
   "^massif: every line one of the format's True$"
made=$(ls /tmp/strata-PWNED-* 2>/dev/null)
expect_eq "hostile: nothing ran" "$made" ""

# --cost: the allocation counts as collapsed stacks, exact for the server of
# tests/programs/leak_requests (300 requests: a record kept, a buffer read,
# six tokens parsed: none temporary, since every block is freed after
# another heap operation).
record_ok requests "$PROGS/leak_requests" || finish
requests=$profile
cost() {
   "$STRATA" convert --to=collapsed --cost="$1" "$requests" -o - 2>"$WORK/cost.err" |
      sed -n "s/^.*;$2 \([0-9]*\)\$/\1/p"
}
expect_eq "--cost=allocations: history_keep's calls" "$(cost allocations history_keep)" 300
expect_eq "--cost=allocations: token_alloc's calls" "$(cost allocations token_alloc)" 1800
expect_eq "--cost=allocated: request_read's bytes" "$(cost allocated request_read)" 1228800
expect_eq "--cost=temporary: history_keep's" "$(cost temporary history_keep)" ""
expect_eq "--cost=temporary: token_alloc's" "$(cost temporary token_alloc)" ""
expect_eq "--cost=leaked: nothing held at the end" \
   "$("$STRATA" convert --to=collapsed --cost=leaked "$requests" -o - | wc -l)" 0
expect_eq "--cost=bytes: the heap at the peak, as without --cost" \
   "$("$STRATA" convert --to=collapsed --cost=bytes "$requests" -o - | md5sum)" \
   "$("$STRATA" convert --to=collapsed "$requests" -o - | md5sum)"
for bad in "--to=collapsed --cost=allocations $top_srcdir/tests/data/prog.massif" \
   "--to=massif --cost=allocations $requests" "--to=collapsed --cost=allocations --at=1 $requests" \
   "--to=collapsed --cost=size $requests"; do
   # shellcheck disable=SC2086  # the words are the options
   "$STRATA" convert $bad -o "$WORK/cost.out" >/dev/null 2>"$WORK/cost.err"
   expect_eq "convert $bad: exit status 1" "$?" 1
   expect_eq "... one line" "$(wc -l <"$WORK/cost.err")" 1
done
finish
