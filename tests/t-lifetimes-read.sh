#!/bin/bash
# Questions of time on tests/data/lifetimes.strata, a hand-written profile
# of a player that opens three videos (markers at 0, 128 and 256 B), in four
# epochs of 128 B: frame_alloc keeps 100, 200 and 300 bytes of videos 1 to
# 3, all freed at exit (epoch 3) by player_free; decoder_open holds 50, 60
# and 70 bytes, each freed by decoder_close in the epoch after its birth;
# config_load holds 10 bytes, never freed.  --born and --alive-at on report
# (text and JSON), plot (its data) and convert --to=collapsed have known
# answers; a file without lifetimes, and bad times, are one-line errors.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

data=$top_srcdir/tests/data/lifetimes.strata

# jget FILE KEY.PATH: as json, list items by their index (contexts.0.born).
jget() {
   "$PYTHON" - "$1" "$2" <<'PY'
import json, sys
value = json.load(open(sys.argv[1]))
for key in sys.argv[2].split("."):
    value = value[int(key)] if isinstance(value, list) else value[key]
print(json.dumps(value) if isinstance(value, (dict, list)) else value)
PY
}

# ---- the report, without a question ------------------------------------------

"$STRATA" report "$data" >"$WORK/report.txt" 2>"$WORK/report.err"
expect_eq "report: exit status" "$?" 0
expect_text "the lifetimes in the header" "$WORK/report.txt" \
   "lifetimes:  4 epochs of 128 B from time 0, free stacks known"
# At the end of the peak's epoch (boundary 3, time 384), frame_alloc holds
# the 100, 200 and 300 bytes born in epochs 0, 1 and 2.
expect_text "frame_alloc's bytes by birth" "$WORK/report.txt" \
   "born: 17% in 0-25% of the run, 33% in 25-50%, 50% in 50-75%"
# Four epochs are too few to judge a finding (a span of 4 epochs at least,
# before the horizon's two); judged from the curves, frame_alloc's floor rose
# in too few snapshots too, and the report says so.
"$STRATA" report --leaks-from=curves "$data" >"$WORK/curves.txt" 2>"$WORK/curves.err"
expect_in "no finding from the curves" "$WORK/curves.txt" "^None\.$"
expect_text "... frame_alloc passed over as too few rises" "$WORK/curves.txt" \
   "600 B at frame_alloc (player.c:74): its floor rose too seldom, its working set set aside"
expect_in "no finding from four epochs" "$WORK/report.txt" "^None\.$"
"$STRATA" report --json --leaks-from=curves "$data" >"$WORK/report.json"
expect_eq "JSON lifetimes" "$(json "$WORK/report.json" lifetimes)" \
   '{"t0": 0, "epoch_length": 128, "epoch_unit": "B", "epochs": 4, "free_stacks": true, "born_at": 384}'
expect_eq "JSON born of the first context" "$(jget "$WORK/report.json" contexts.0.born)" \
   '[{"from": 0, "to": 128, "bytes": 100}, {"from": 128, "to": 256, "bytes": 200}, {"from": 256, "to": 384, "bytes": 300}]'
expect_eq "JSON: no selection" "$(json "$WORK/report.json" selection)" "None"

# ---- what did the second video leave behind --------------------------------

# Until the release at exit (epoch 3, from 384 = 75% of the run): at the end
# of the run, alive means never freed, and frame_alloc's bytes are not.
"$STRATA" report --born="marker:video opened#2..marker:video opened#3" --alive-at=75% "$data" \
   >"$WORK/second.txt"
expect_eq "report --born: exit status" "$?" 0
expect_text "the selection in words" "$WORK/second.txt" \
   "selected:   200 bytes born in [128, 256) and alive at 384, to the lifetimes' epochs of 128 B"
expect_in "ranked by the selected bytes, frame_alloc's 200 first" "$WORK/second.txt" \
   "^   selected: 200 bytes$"
expect_text "no suspect judged on a selection" "$WORK/second.txt" "Not judged on a selection"
"$STRATA" report --json --born="marker:video opened#2..marker:video opened#3" --alive-at=75% \
   "$data" >"$WORK/second.json"
expect_eq "JSON selection" "$(json "$WORK/second.json" selection.bytes) $(json "$WORK/second.json" selection.born_from) $(json "$WORK/second.json" selection.born_to) $(json "$WORK/second.json" selection.alive_at) $(json "$WORK/second.json" selection.alive_at_end)" \
   "200 128 256 384 False"
expect_eq "JSON selected bytes of the first context" \
   "$(jget "$WORK/second.json" contexts.0.selected_bytes)" 200

# Alive at the third video (time 256): frame_alloc's 100 + 200, the
# decoder's 60 (freed in epoch 2), the config's 10.
"$STRATA" report --json --alive-at="marker:video opened#3" "$data" >"$WORK/at3.json"
expect_eq "--alive-at: the bytes alive at 256" "$(json "$WORK/at3.json" selection.bytes)" 370
expect_eq "--alive-at: per context" \
   "$("$PYTHON" -c 'import json,sys; print(sorted(c["selected_bytes"] for c in json.load(open(sys.argv[1]))["contexts"]))' "$WORK/at3.json")" \
   "[10, 60, 300]"
# 40% of 512 is 204.8, nearest boundary 256; 10% (51.2) is nearest 0.
"$STRATA" report --json --born=10%..40% --alive-at=50% "$data" >"$WORK/pct.json"
expect_eq "percentages: to the nearest boundaries" \
   "$(json "$WORK/pct.json" selection.born_from) $(json "$WORK/pct.json" selection.born_to) $(json "$WORK/pct.json" selection.bytes)" \
   "0 256 370"
# At the end of the run, alive is what the last record's a lines give, the
# final snapshot's heap: the config's 10, never freed; not frame_alloc's 100,
# freed at exit (once counted alive: freed in the last epoch).
"$STRATA" report --json --born=..128 "$data" >"$WORK/first.json"
expect_eq "born in epoch 0, alive at the end: the config's 10 (frame_alloc's 100 was freed at exit)" \
   "$(json "$WORK/first.json" selection.bytes) $(json "$WORK/first.json" selection.alive_at_end)" "10 True"
"$STRATA" report --born=.. "$data" >"$WORK/end.txt"
expect_text "alive at the end in words" "$WORK/end.txt" \
   "selected:   10 bytes born in [0, the end) and alive at the end of the run (never freed), to"

# ---- convert and plot ----------------------------------------------------------

"$STRATA" convert --to=collapsed --born="marker:video opened#2.." \
   --alive-at="marker:video opened#3" "$data" -o "$WORK/second.collapsed" 2>"$WORK/convert.err"
expect_eq "convert --born: exit status" "$?" 0
expect_eq "collapsed: the selected bytes as the cost" "$(sort "$WORK/second.collapsed" | tr '\n' '|')" \
   "main;decoder_open 60|main;frame_alloc 200|"
expect_text "convert says the range used" "$WORK/convert.err" \
   "bytes born in [128, the end) and alive at 256, to the lifetimes' epochs of 128 B"
"$STRATA" convert --to=collapsed --born=.. --cost=allocations "$data" -o - >/dev/null 2>"$WORK/cost.err"
expect_eq "--born with another cost: exit status" "$?" 1
expect_text "... says why" "$WORK/cost.err" "--born: the selected bytes are the cost"
"$STRATA" convert --to=massif --born=.. "$data" -o "$WORK/born.massif" 2>/dev/null
expect_eq "convert --to=massif --born: exit status" "$?" 0
# Only the config's 10, never freed (not frame_alloc's 600 and the
# decoder's last 70, freed at exit), from its birth to the end.
expect_eq "massif: the bytes never freed, at the end" "$(massif_last_heap "$WORK/born.massif")" 10
expect_eq "massif: ... and at most" "$(massif_max_heap "$WORK/born.massif")" 10

if command -v gnuplot >/dev/null; then
   "$STRATA" plot --born="marker:video opened#2.." --alive-at="marker:video opened#3" "$data" \
      -o "$WORK/second.svg" --keep-script >/dev/null
   expect_eq "plot --born: exit status" "$?" 0
   # The bands at the boundaries 0, 128, 256, 384 and the end: frame_alloc's
   # 200 from its birth epoch to its death's (freed at exit: not at the end),
   # the decoder's 60 at 256 only.
   expect_eq "plot: the selected bytes from birth to death" \
      "$(sed -n '/^# the bands/,/^$/p' "$WORK/second.dat" | sed 1d | cut -f1-4 | tr '\t\n' ' |')" \
      "0.0 0 0 0|128.0 0 0 0|256.0 0 200 260|384.0 0 200 200|512.0 0 0 0||"
   expect_in "plot: the title says what is selected" "$WORK/second.dat" \
      "bytes born in \[128, the end\) and alive at 256"
fi

# ---- files without lifetimes, bad times --------------------------------------

"$STRATA" report "$top_srcdir/tests/data/prog.massif" >"$WORK/massif.txt"
expect_text "a massif.out file: said plainly, once" "$WORK/massif.txt" \
   "lifetimes:  no lifetimes in this file (a massif.out file): when bytes were born and who freed them is not known"
expect_eq "... once" "$(grep -c 'lifetimes' "$WORK/massif.txt")" 1
"$STRATA" report --json "$top_srcdir/tests/data/prog.massif" >"$WORK/massif.json"
expect_eq "JSON: lifetimes null" "$(json "$WORK/massif.json" lifetimes)" None
expect_eq "JSON: born null" "$(jget "$WORK/massif.json" contexts.0.born)" None
for command in report "plot -o $WORK/x.svg" "convert --to=collapsed -o -"; do
   "$STRATA" $command --born=..50% "$top_srcdir/tests/data/prog.massif" >/dev/null 2>"$WORK/none.err"
   expect_eq "$command --born on a massif.out file: exit status" "$?" 1
   expect_eq "... one line" "$(cat "$WORK/none.err")" \
      "strata: $top_srcdir/tests/data/prog.massif: --born needs lifetimes, which this file has not (a massif.out file)"
done
"$STRATA" report --alive-at=10 "$top_srcdir/tests/data/hostile.strata" >/dev/null 2>"$WORK/v.err"
expect_in "--alive-at on a profile without lifetimes" "$WORK/v.err" \
   "^strata: .*hostile.strata: --alive-at needs lifetimes, which this file has not \("

bad() {
   "$STRATA" report "$@" "$data" >/dev/null 2>"$WORK/bad.err"
   expect_eq "$* : exit status" "$?" 1
   expect_eq "$* : one line" "$(wc -l <"$WORK/bad.err")" 1
}
bad --born=..x
expect_text "... names the option" "$WORK/bad.err" "strata report: --born=..x: 'x' is not a time"
bad --born=5
expect_text "... FROM..TO" "$WORK/bad.err" "--born=5: expected FROM..TO"
bad --born=300..100
expect_text "... FROM after TO" "$WORK/bad.err" "--born=300..100: FROM is after TO"
bad --alive-at=marker:video
expect_text "... an unknown marker names the labels" "$WORK/bad.err" \
   "--alive-at=marker:video: no marker 'video' (the markers are 'video opened')"
bad "--alive-at=marker:video opened#4"
expect_text "... an occurrence too many" "$WORK/bad.err" "occurs 3 times, not 4"
bad --alive-at=101%
expect_text "... a percentage beyond the run" "$WORK/bad.err" "is not a percentage of the run"

# A malformed record: one line naming the file and the line.
sed 's/^d\t1\t2\t2\t300\t3$/d\t1\t2\t2\t301\t3/' "$data" >"$WORK/more.strata"
"$STRATA" report "$WORK/more.strata" >/dev/null 2>"$WORK/more.err"
expect_eq "more deaths than births: exit status" "$?" 1
expect_eq "... the line" "$(cat "$WORK/more.err")" \
   "strata: $WORK/more.strata:$(grep -n '^E' "$WORK/more.strata" | tail -1 | cut -d: -f1): epoch 3: site 1, birth epoch 2: more died (301 bytes, 3 blocks) than were born and alive (300 bytes, 3 blocks)"
# ---- in milliseconds: epochs in instructions (opt epoch_unit i) ------------

# The same table in a profile in ms whose epochs are counted in instructions,
# 1,024 a millisecond: each L record gives its start in instructions
# (131,072 = 128 * 1,024 an epoch) and the time of its first event, in ms.
# The answers are the same, in ms.
run_py lifetimes_read_in_ms "$data" "$WORK/ms.strata"
"$STRATA" report "$WORK/ms.strata" >"$WORK/ms.txt" 2>"$WORK/ms.err"
expect_eq "ms: exit status" "$?" 0
expect_text "ms: the epochs in instructions" "$WORK/ms.txt" \
   "lifetimes:  4 epochs of 131,072 i from time 0, free stacks known"
expect_text "ms: frame_alloc's bytes by birth, as in B" "$WORK/ms.txt" \
   "born: 17% in 0-25% of the run, 33% in 25-50%, 50% in 50-75%"
"$STRATA" report --json "$WORK/ms.strata" >"$WORK/ms.json"
expect_eq "ms: JSON lifetimes" "$(json "$WORK/ms.json" lifetimes)" \
   '{"t0": 0, "epoch_length": 131072, "epoch_unit": "i", "epochs": 4, "free_stacks": true, "born_at": 384}'
"$STRATA" report --born="marker:video opened#2..marker:video opened#3" --alive-at=75% \
   "$WORK/ms.strata" >"$WORK/ms-second.txt"
expect_text "ms: what the second video left behind, in ms" "$WORK/ms-second.txt" \
   "selected:   200 bytes born in [128, 256) and alive at 384"
"$STRATA" report --born=120..250 --alive-at=75% "$WORK/ms.strata" >"$WORK/ms-num.txt"
expect_in "ms: --born in ms, to the nearest epochs: the same 200 bytes" "$WORK/ms-num.txt" \
   "^   selected: 200 bytes$"
# An L record without its time, or with a time before the one before.
sed 's/^\(L\t1\t[0-9]*\t[0-9]*\)\t128$/\1/' "$WORK/ms.strata" >"$WORK/ms-untimed.strata"
"$STRATA" report "$WORK/ms-untimed.strata" >/dev/null 2>"$WORK/ms-untimed.err"
expect_eq "ms: an L record without its time: exit status" "$?" 1
expect_in "... one line naming the file and line" "$WORK/ms-untimed.err" \
   "^strata: $WORK/ms-untimed.strata:[0-9]*: .*5"
sed 's/^\(L\t2\t[0-9]*\t[0-9]*\)\t256$/\1\t100/' "$WORK/ms.strata" >"$WORK/ms-back.strata"
"$STRATA" report "$WORK/ms-back.strata" >/dev/null 2>"$WORK/ms-back.err"
expect_eq "ms: an epoch's time going back: exit status" "$?" 1
expect_eq "... one line" "$(cat "$WORK/ms-back.err")" \
   "strata: $WORK/ms-back.strata:$(grep -n '^L.2' "$WORK/ms-back.strata" | cut -d: -f1): epoch 2 at time 100, before the epoch record before it (128)"
# epoch_unit is for profiles in ms only.
sed 's/^opt\tfree_stacks\tyes$/&\nopt\tepoch_unit\ti/' "$data" >"$WORK/i-in-B.strata"
"$STRATA" report "$WORK/i-in-B.strata" >/dev/null 2>"$WORK/i-in-B.err"
expect_eq "epoch_unit in a profile in B: exit status" "$?" 1
expect_eq "... one line naming the file" "$(cat "$WORK/i-in-B.err")" \
   "strata: $WORK/i-in-B.strata:10: opt epoch_unit 'i' in a profile in 'B' (only i or B, in ms)"
finish
