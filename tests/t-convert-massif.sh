#!/bin/bash
# strata convert on the inputs of a hostile test round (docs/faults.md):
# stacks of 10,000 frames on a 1 MiB call stack (no recursion per frame); a
# 180 KB profile whose massif.out is 145 MB, written in a few MiB of memory
# (streamed), and one whose massif.out would pass 1 GiB, said on stderr
# before writing; frames without a symbol keep their names (their offsets)
# and a profile cut short keeps that, so that strata diff of a profile and
# its export shows no change; options of the other format are errors;
# collapsed stacks of names that are not UTF-8 are valid UTF-8; a massif.out
# file whose peak is not a detailed snapshot says where its sites are from.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

run_py convert_massif_inputs "$WORK"

# 8. No recursion per frame: 10,000 frames on a 1 MiB stack.
(ulimit -s 1024 && exec "$STRATA" convert --to=massif "$WORK/deep.strata" -o "$WORK/deep.massif") \
   2>"$WORK/deep.err"
expect_eq "10,000 frames on a 1 MiB stack: exit status ($(head -c 200 "$WORK/deep.err"))" "$?" 0
expect_in "... the deepest frame written, 10,000 spaces in" "$WORK/deep.massif" \
   '^ {10000}n0: 100 0x40[0-9A-F]+: f10000 \(deep\.c:10000\)$'
(ulimit -s 1024 && exec "$STRATA" report "$WORK/deep.massif") >"$WORK/deep.report" 2>&1
expect_in "... and read back" "$WORK/deep.report" '^     f10000 \(deep\.c:10000\)$'

# 9. Streamed: 145 MB of massif.out in a few MiB; the defaults' output is
# small; more than 1 GiB is said before it is written.
if [ -z "${STRATA_SANITIZED:-}" ]; then
   size=$( (ulimit -v 262144 && exec "$STRATA" convert --to=massif --threshold=0 \
      --detailed-freq=1 "$WORK/many.strata" -o -) 2>"$WORK/many.err" | wc -c)
   expect_le "a 145 MB massif.out in 256 MiB of address space ($(head -c 200 "$WORK/many.err"))" \
      140000000 "$size"
fi
"$STRATA" convert --to=massif "$WORK/many.strata" -o "$WORK/many.massif"
expect_le "the defaults (every 10th snapshot detailed, 1%): under 10 MB" \
   "$(wc -c <"$WORK/many.massif")" 10000000
expect_eq "... 151 detailed of 1,501 (every 10th, and the last, the peak)" \
   "$(grep -c '^heap_tree=\(detailed\|peak\)' "$WORK/many.massif")" 151
"$STRATA" convert --to=massif --threshold=0 --detailed-freq=1 "$WORK/huge.strata" -o /dev/full \
   2>"$WORK/huge.err"
expect_eq "about 1.1 GiB to a full disk: status 1" "$?" 1
expect_eq "... the warning first, then the error: two lines" "$(wc -l <"$WORK/huge.err")" 2
expect_in "... the warning" "$WORK/huge.err" \
   '^strata convert: warning: /dev/full will be about 1\.[0-9]+ GiB \(--threshold=0 --detailed-freq=1\); a larger --threshold or --detailed-freq makes it smaller$'
expect_in "... the error" "$WORK/huge.err" '^strata: /dev/full: cannot write'
"$STRATA" convert --to=massif "$WORK/huge.strata" -o "$WORK/huge.massif" 2>"$WORK/huge-default.err"
expect_eq "... with the defaults, no warning" "$(cat "$WORK/huge-default.err")" ""

# 13. Frames keep their names, offsets and all: no change in a diff.
for p in unnamed many; do
   "$STRATA" convert --to=massif --threshold=0 --detailed-freq=1 "$WORK/$p.strata" \
      -o "$WORK/$p-all.massif"
   "$STRATA" diff --json "$WORK/$p.strata" "$WORK/$p-all.massif" >"$WORK/$p.diff"
   expect_eq "$p: diff of the profile and its export: exit status" "$?" 0
   "$PYTHON" - "$WORK/$p.diff" >"$WORK/$p.changes" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
changes = [c["peak"]["change"] for c in d["contexts"]] + [c["end"]["change"] for c in d["contexts"]]
print(len(d["contexts"]) > 0, d["peak"]["change"], d["end"]["change"], set(changes),
      set(l["status"] for l in d["leaks"]) <= {"same"})
PY
   expect_eq "$p: ... no change" "$(cat "$WORK/$p.changes")" "True 0 0 {0} True"
done
expect_text "unnamed: the offset follows the object" "$WORK/unnamed-all.massif" \
   ' 0x10EE8C: ??? (in /usr/bin/sort+0x6e8c)'
"$STRATA" report "$WORK/unnamed-all.massif" >"$WORK/unnamed-back.txt"
expect_in "unnamed: named by its offset when read back" "$WORK/unnamed-back.txt" \
   '^     sort\+0x6e8c \(in /usr/bin/sort\)$'
expect_in "unnamed: ... in a library too" "$WORK/unnamed-back.txt" \
   '^     libz\.so\.1\+0x1234 \(in /lib/libz\.so\.1\)$'

# A profile cut short stays so.
for p in killed stopped; do
   "$STRATA" convert --to=massif "$WORK/$p.strata" -o "$WORK/$p.massif" 2>/dev/null
   "$STRATA" report --json "$WORK/$p.massif" >"$WORK/$p.json" 2>"$WORK/$p.err"
   expect_eq "$p: the export is not complete" "$(json "$WORK/$p.json" complete)" False
   expect_in "$p: ... and reading it warns" "$WORK/$p.err" "^strata: warning: .*$p.massif: profile ends early"
done
expect_in "killed: the desc says cut short" "$WORK/killed.massif" '^desc: .* --strata-cut-short=yes$'
expect_eq "stopped: the reason kept" "$(json "$WORK/stopped.json" stopped)" \
   'the disk is full (ENOSPC) \ really'
"$STRATA" report "$WORK/stopped.massif" >"$WORK/stopped.txt" 2>/dev/null
expect_in "stopped: the report says why" "$WORK/stopped.txt" \
   '^end: +cut short, strata stopped writing it: the disk is full \(ENOSPC\) \\ really; '
expect_not "stopped: not among the recording options" grep -q '^recorded:.*strata-\(cut-short\|stopped\)' \
   "$WORK/stopped.txt"

# 17. Options of the other format.
"$STRATA" convert --to=collapsed --threshold=50 "$WORK/many.strata" -o "$WORK/x" 2>"$WORK/opt.err"
expect_eq "collapsed --threshold=50: status 1" "$?" 1
expect_eq "... one line" "$(cat "$WORK/opt.err")" \
   'strata convert: --threshold=50: for --to=massif only (collapsed stacks list every stack)'
"$STRATA" convert --to=collapsed --detailed-freq=2 "$WORK/many.strata" -o "$WORK/x" 2>"$WORK/opt.err"
expect_eq "collapsed --detailed-freq=2: status 1" "$?" 1
"$STRATA" convert --to=massif --detailed-freq=0 "$WORK/many.strata" -o "$WORK/x" 2>"$WORK/opt.err"
expect_eq "massif --detailed-freq=0: status 1" "$?" 1
expect_in "... naming it" "$WORK/opt.err" '^strata convert: --detailed-freq=0: must be a number of snapshots, 1 to 1000000$'

# 19. Collapsed stacks are UTF-8, escaped as the report escapes.
"$STRATA" convert --to=collapsed "$WORK/bytes.strata" -o "$WORK/bytes.folded"
expect_eq "names not UTF-8: exit status" "$?" 0
expect "... the stacks are valid UTF-8" "$PYTHON" -c \
   'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$WORK/bytes.folded"
expect_text "... bytes as \\xNN" "$WORK/bytes.folded" 'main;bad\xff\xfe name 100'
expect_text "... a C1 control and a bidirectional override as \\uNNNN" "$WORK/bytes.folded" \
   'main;c1\u0085 and \u202e rtl 200'

# 15. A massif.out peak that is not a detailed snapshot.
"$STRATA" report "$WORK/nopeak.massif" >"$WORK/nopeak.txt"
expect_in "massif peak without a tree: the report says where its sites are from" "$WORK/nopeak.txt" \
   "^note: +the peak gives no sites \(not a detailed snapshot\): the contexts' bytes there are those of the snapshot at time 1,000, 4,000 earlier, whose sites hold 100 bytes \(its useful heap: 100; at the peak: 200\)$"
"$STRATA" report --json "$WORK/nopeak.massif" >"$WORK/nopeak.json"
expect_eq "... and the JSON" "$(json "$WORK/nopeak.json" peak_sites)" \
   '{"own": false, "time": 1000, "heap_bytes": 100, "sites_bytes": 100}'
"$STRATA" convert --to=collapsed --at=9500 "$WORK/nopeak.massif" -o "$WORK/nopeak.folded" \
   2>"$WORK/nopeak.err"
expect_in "... convert --at=TIME says so on stderr" "$WORK/nopeak.err" \
   '^strata convert: note: .*nopeak.massif: snapshot 2 at time 9000 \(--at=9500\) gives no sites: the stacks are those of snapshot 0 at time 1000, 8000 earlier'
"$STRATA" report "$WORK/many.strata" >"$WORK/many.txt"
expect_not "a strata profile: no note" grep -q '^note:' "$WORK/many.txt"
finish
