#!/bin/bash
# strata convert --to=pprof, read by go tool pprof (Debian's golang-go;
# skipped without it): on the leaky player, inlined frames and C++ names
# recorded with the real valgrind, and on a massif.out file, `-top
# -sample_index=inuse_space` names the functions of strata report's
# contexts at the peak (whole stacks) with their bytes, and
# `-sample_index=leaked_space` the findings' headlines with the bytes they
# keep; --at at a marker matches the collapsed stacks then; --every writes
# the series; hostile names come out as valid UTF-8, a 10 KB name whole;
# bad options are one line and status 1.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if ! command -v go >/dev/null; then
   echo "SKIP: go is not installed (Debian: golang-go)"
   exit 77
fi
# go tool pprof on local files only: no toolchain download, no symbolizer
# reading the objects (the names are the profile's), nothing under $HOME.
export GOTOOLCHAIN=local HOME=$WORK PPROF_TMPDIR=$WORK GOCACHE=$WORK/gocache GOFLAGS=
pprof_top() {
   local index=$1
   shift
   go tool pprof -symbolize=none -top -unit=B -nodecount=100000 -nodefraction=0 \
      -sample_index="$index" "$@" 2>"$WORK/pprof.err"
}
check() {
   run_py pprof_check "$@"
}

# convert_and_compare NAME PROFILE: the peak's inuse_space against the report's contexts.
convert_and_compare() {
   local name=$1 file=$2
   "$STRATA" convert --to=pprof "$file" -o "$WORK/$name.pb.gz" 2>"$WORK/$name.err"
   expect_eq "$name: convert --to=pprof: exit status" "$?" 0
   # Whole stacks, every one: a finding of the lifetimes is a context of
   # its own whose frames end at its headline, so the leaks are judged from
   # the curves here (their contexts are whole stacks too).
   "$STRATA" report --json --depth=all --threshold=0 --top=all --leaks-from=curves "$file" \
      >"$WORK/$name.json" 2>/dev/null
   pprof_top inuse_space "$WORK/$name.pb.gz" >"$WORK/$name.top"
   expect_eq "$name: go tool pprof reads it" "$?" 0
   expect_in "$name: inuse_space: the report's contexts at the peak, function by function" \
      <(check top "$WORK/$name.top" "$WORK/$name.json") '^top True$'
}

record_ok leaky "$EXAMPLES/leaky-player" || finish
leaky=$profile
convert_and_compare leaky "$leaky"
expect_in "leaky: the comments say how it was recorded" "$WORK/leaky.top" \
   '^strata record of .*leaky-player \(pid [0-9]+\), time in instructions executed, recorded with --depth=30 '
pprof_top leaked_space "$WORK/leaky.pb.gz" >"$WORK/leaky-leaked.top"
"$STRATA" report --json "$leaky" >"$WORK/leaky-report.json"
check leaked "$WORK/leaky-leaked.top" "$WORK/leaky-report.json" >"$WORK/leaked.facts"
expect_in "leaky: leaked_space: each finding's headline with its kept bytes" "$WORK/leaked.facts" '^leaked True$'
expect_in "... and nothing else" "$WORK/leaked.facts" '^total True$'
pprof_top alloc_space "$WORK/leaky.pb.gz" >"$WORK/leaky-alloc.top"
expect_in "leaky: alloc_space: frame_alloc's bytes allocated over the run" "$WORK/leaky-alloc.top" \
   "^ *$("$PYTHON" -c 'import json,sys; print([c for c in json.load(open(sys.argv[1]))["contexts"] if c["frames"][0]["function"] == "frame_alloc"][0]["allocations"]["allocated_bytes"])' "$WORK/leaky.json")B .* frame_alloc$"
go tool pprof -symbolize=none -raw "$WORK/leaky.pb.gz" >"$WORK/leaky.raw" 2>&1
expect_in "leaky: the finding labels its sample" "$WORK/leaky.raw" '^ +finding:\[#1 frame_alloc\] phase:\[video opened\]$'

# --at at a marker: the heap then, as the collapsed stacks have it.
second=$(awk -F'\t' '$1 == "M" && $3 == "video closed" { n++; if (n == 2) print $2 }' "$leaky")
"$STRATA" convert --to=pprof --at="marker:video closed#2" "$leaky" -o "$WORK/at.pb.gz"
expect_eq "--at=marker:LABEL#2: exit status" "$?" 0
"$STRATA" convert --to=collapsed --at="$second" "$leaky" -o "$WORK/at.folded"
pprof_top inuse_space "$WORK/at.pb.gz" >"$WORK/at.top"
expect_in "--at=marker:LABEL#2: the heap at the marker" <(check folded "$WORK/at.top" "$WORK/at.folded") '^folded True$'
expect_in "... labelled with its phase" <(go tool pprof -symbolize=none -raw "$WORK/at.pb.gz" 2>&1) \
   'phase:\[video closed\]'

# The series: one file at each marker, numbered from 1.
"$STRATA" convert --to=pprof --every=marker "$leaky" -o "$WORK/series.pb.gz"
expect_eq "--every=marker: exit status" "$?" 0
expect_eq "--every=marker: a file a marker" "$(ls "$WORK"/series.*.pb.gz | wc -l)" \
   "$(grep -c '^M' "$leaky")"
expect_eq "... OUT.0001.pb.gz first" "$(ls "$WORK"/series.*.pb.gz | head -1)" "$WORK/series.0001.pb.gz"
pprof_top inuse_space "$WORK/series.0017.pb.gz" >/dev/null
expect_eq "... each read by go tool pprof" "$?" 0
"$STRATA" convert --to=pprof --every=500 "$leaky" -o "$WORK/every"
expect_eq "--every=500: a file every 500 snapshots" "$(ls "$WORK"/every.* | tr '\n' ' ')" \
   "$WORK/every.0001 $WORK/every.0002 $WORK/every.0003 $WORK/every.0004 "

# Inlined frames are lines of one location; C++ names keep their spaces.
record_ok inlined --heap-admin=0 "$PROGS/inlined" && convert_and_compare inlined "$profile"
go tool pprof -symbolize=none -raw "$WORK/inlined.pb.gz" >"$WORK/inlined.raw" 2>&1
grep -A2 '^ *[0-9]*: 0x[0-9a-f]* M=1 inner ' "$WORK/inlined.raw" | sed 's/ [^ ]*:[0-9]* s=0$//; s/.* //' \
   >"$WORK/inlined.lines"
expect_eq "inlined: inner, outer and api are lines of one location" \
   "$(tr '\n' ' ' <"$WORK/inlined.lines")" "inner outer api "
record_ok cxx "$PROGS/cxx_new" && convert_and_compare cxx "$profile"

# A massif.out file.
convert_and_compare massif "$top_srcdir/tests/data/prog-detailed.massif"
"$STRATA" convert --to=pprof --every=2 "$top_srcdir/tests/data/prog-detailed.massif" \
   -o "$WORK/massif-series.pb.gz"
expect_eq "massif.out --every=2: exit status" "$?" 0

# Hostile names: quotes, a newline, bytes that are not UTF-8, a name of 10 KB.
"$PYTHON" - "$WORK/hostile.strata" <<'PYEOF'
import sys
long = "L" * 10240
names = ['say "hi"', "two\\nlines", "bad\xff\xfeutf8", "<script>x</script>", long]
lines = ["strata-profile\t2", "cmd\t./hostile\xff", "pid\t1", "ppid\t0", "time_unit\tms"]
for i, name in enumerate(names, 1):
    lines.append("F\t%d\t0x%x\t0\t%s\th.c\t%d\t/bin/hostile\t0x%x" % (i, 0x1000 + i, name, i, i))
lines.append("F\t6\t0x2000\t0\tmain\th.c\t9\t/bin/hostile\t0x2000")
for i in range(1, 6):
    lines.append("S\t%d\t%d\t6" % (i, i))
lines.append("M\t5\tphase\xff\\tone")
lines.append("T\tregular\t10\t%d\t0\t0" % (100 * 15))
lines += ["s\t%d\t%d\t1\t0\t%d" % (i, 100 * i, 100 * i) for i in range(1, 6)]
lines += ["E", "X\t20"]
open(sys.argv[1], "wb").write(("\n".join(lines) + "\n").encode("latin-1"))
PYEOF
"$STRATA" convert --to=pprof "$WORK/hostile.strata" -o "$WORK/hostile.pb.gz" 2>"$WORK/hostile.err"
expect_eq "hostile: exit status" "$?" 0
check strings "$WORK/hostile.pb.gz" >"$WORK/hostile.facts"
expect_in "hostile: every string valid UTF-8" "$WORK/hostile.facts" '^utf8 True$'
expect_in "hostile: the 10 KB name whole" "$WORK/hostile.facts" '^longest 10240$'
pprof_top inuse_space "$WORK/hostile.pb.gz" >"$WORK/hostile.top"
expect_eq "hostile: go tool pprof reads it" "$?" 0
expect_in "hostile: the names, escaped as the report shows them" "$WORK/hostile.top" \
   '^ +300B .* bad\\xff\\xfeutf8$'
expect_in "... a newline as \\n" "$WORK/hostile.top" '^ +200B .* two\\nlines$'
for f in "$top_srcdir"/tests/data/hostile-export.strata "$top_srcdir"/tests/data/hostile.strata; do
   "$STRATA" convert --to=pprof "$f" -o "$WORK/h.pb.gz" 2>/dev/null
   expect_eq "$(basename "$f"): exit status" "$?" 0
   expect_in "$(basename "$f"): every string valid UTF-8" <(check strings "$WORK/h.pb.gz") '^utf8 True$'
done

# Bad options: one line naming the option, status 1, OUT untouched.
bad() {
   local what=$1 pattern=$2
   shift 2
   echo keep >"$WORK/kept.pb.gz"
   "$STRATA" convert --to=pprof "$@" -o "$WORK/kept.pb.gz" >/dev/null 2>"$WORK/bad.err"
   expect_eq "$what: status 1" "$?" 1
   expect_eq "... one line" "$(wc -l <"$WORK/bad.err")" 1
   expect_in "... saying why" "$WORK/bad.err" "$pattern"
   expect_eq "... OUT untouched" "$(cat "$WORK/kept.pb.gz")" keep
}
bad "--leaks" '^strata convert: --leaks and --cost are for --to=collapsed: ' --leaks "$leaky"
bad "--every=0" '^strata convert: --every=0: must be marker or a number of snapshots, 1 or more$' \
   --every=0 "$leaky"
bad "--every=marker without markers" '^strata: .*prog-detailed.massif: --every=marker: the profile has no marker$' \
   --every=marker "$top_srcdir/tests/data/prog-detailed.massif"
bad "--at=marker:nothing" '^strata convert: --at=marker:nothing: ' --at=marker:nothing "$leaky"
bad "--at and --every" '^strata convert: --at and --every: give one$' --at=5 --every=2 "$leaky"
bad "--threshold" '^strata convert: --threshold=5: for --to=massif only ' --threshold=5 "$leaky"
"$STRATA" convert --to=pprof --every=2 "$leaky" -o - >/dev/null 2>"$WORK/bad.err"
expect_eq "--every to the standard output: status 1" "$?" 1
finish
