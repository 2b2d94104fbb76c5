#!/bin/bash
# Hostile sizes (docs/format.md, "Limits"): a file without newlines
# (/dev/zero) and a line longer than 16 MiB are one-line errors naming the
# file and the line, so are sums beyond 2^64-1; many markers with one label, and peaks written long
# after the snapshots they come before, are read and judged in linear time
# and memory; a graph draws at most 200 markers and counts the rest.  Hang
# and memory guards (ulimit -t, -v) stand for "linear": the inputs are sized
# so that the quadratic code they replace runs for minutes or takes GiBs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# guarded NAME SECONDS ARGS...: strata ARGS with SECONDS of CPU time and,
# unless the build is sanitized (its shadow memory needs the address
# space), 2 GiB of address space; output in $WORK/NAME.out, .err, the exit
# status in $status, the most memory it held in $rss (MiB).
guarded() {
   local name=$1 seconds=$2
   shift 2
   read -r status rss < <("$PYTHON" - "$seconds" "${STRATA_SANITIZED:-}" "$WORK/$name" \
      "$STRATA" "$@" <<'PY'
import resource, subprocess, sys
seconds, sanitized, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def limits():
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
    if not sanitized:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
with open(out + ".out", "wb") as o, open(out + ".err", "wb") as e:
    status = subprocess.run(sys.argv[4:], stdout=o, stderr=e, preexec_fn=limits).returncode
print(status if status >= 0 else 128 - status,
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PY
   )
}

# one_line_error WHAT NAME PATTERN: exit status 1 and one line on stderr.
one_line_error() {
   expect_eq "$1: exit status" "$status" 1
   expect_eq "$1: one line on stderr" "$(wc -l <"$WORK/$2.err")" 1
   expect_in "$1: the error" "$WORK/$2.err" "$3"
}

guarded zero 10 report /dev/zero
one_line_error "/dev/zero" zero '^strata: /dev/zero: not a strata profile or massif.out file$'
[ -n "${STRATA_SANITIZED:-}" ] || expect_le "/dev/zero: memory held (MiB)" "$rss" 64

{
   printf 'strata-profile\t2\ncmd\t'
   head -c $((17 << 20)) /dev/zero | tr '\0' x
} >"$WORK/long.strata"
guarded long 10 report "$WORK/long.strata"
one_line_error "a 17 MiB line" long \
   '^strata: .*/long.strata:2: a line longer than 16 MiB: not a strata profile or massif.out file'
[ -n "${STRATA_SANITIZED:-}" ] || expect_le "a 17 MiB line: memory held (MiB)" "$rss" 128
{
   printf 'desc: '
   head -c $((17 << 20)) /dev/zero | tr '\0' x
} >"$WORK/long.massif"
guarded long-massif 10 report "$WORK/long.massif"
one_line_error "a 17 MiB massif line" long-massif '/long.massif:1: a line longer than 16 MiB'

# Sums beyond 2^64-1 (a heap of 2^64-1 and an extra heap of 1 once made a
# peak of 0): an error on the line that makes them.
printf 'strata-profile\t2\ncmd\tx\npid\t1\nppid\t0\ntime_unit\ti\nT\tregular\t1\t18446744073709551615\t1\t0\nE\nX\t2\n' \
   >"$WORK/wrap.strata"
guarded wrap 10 report "$WORK/wrap.strata"
one_line_error "heap 2^64-1, extra heap 1" wrap \
   '^strata: .*/wrap.strata:6: the snapshot.s heap, extra heap and stacks add up to more than 2\^64-1 bytes$'
printf 'desc: x\ncmd: x\ntime_unit: i\n#-----------\nsnapshot=0\n#-----------\ntime=0\nmem_heap_B=18446744073709551615\nmem_heap_extra_B=1\nmem_stacks_B=0\nheap_tree=empty\n' \
   >"$WORK/wrap.massif"
guarded wrap-massif 10 plot "$WORK/wrap.massif" -o "$WORK/wrap.svg"
one_line_error "massif: heap 2^64-1, extra heap 1" wrap-massif \
   '^strata: .*/wrap.massif:10: the snapshot.s heap, extra heap and stacks add up to more than 2\^64-1 bytes$'

# Allocation counts: each site's are exact, but two sites of one call site
# with 2^63 calls and 2^63 bytes allocated each were "0 allocation calls (0
# temporary), 0 bytes allocated", their sum modulo 2^64.  A sum of counts
# saturates: 2^64-1, "or more" in the report, in the JSON the number, and
# convert's collapsed stack (sites of the same names, added up) says so.
printf 'strata-profile\t3\ncmd\t./x\npid\t1\nppid\t0\ntime_unit\tB\nF\t1\t0x1000\t0\talloc\ta.c\t1\t/m\t0x1000\nF\t2\t0x2000\t0\tmain\tm.c\t1\t/m\t0x2000\nF\t3\t0x3000\t0\tmain\tm.c\t9\t/m\t0x3000\nS\t1\t1\t2\nS\t2\t1\t3\nT\tregular\t10\t20\t0\t0\ns\t1\t10\t1\t0\t10\ns\t2\t10\t1\t0\t10\nc\t1\t9223372036854775808\t9223372036854775808\t1\nc\t2\t9223372036854775808\t9223372036854775808\t1\nE\nT\tfinal\t20\t20\t0\t0\nE\nX\t20\n' \
   >"$WORK/counts.strata"
guarded counts 10 report --depth=1 "$WORK/counts.strata"
expect_eq "counts of 2^63 + 2^63: exit status" "$status" 0
expect_text "... 2^64-1 or more, not 0" "$WORK/counts.out" \
   "   18,446,744,073,709,551,615 or more allocation calls (2 temporary), 18,446,744,073,709,551,615 or more bytes allocated"
guarded counts-json 10 report --json --depth=1 "$WORK/counts.strata"
expect_eq "... the JSON: 2^64-1" "$(json "$WORK/counts-json.out" contexts | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)[0]["allocations"])')" \
   "{'calls': 18446744073709551615, 'allocated_bytes': 18446744073709551615, 'temporary': 2}"
guarded counts-collapsed 10 convert --to=collapsed --cost=allocated "$WORK/counts.strata" -o -
expect_eq "... collapsed: main;alloc 2^64-1" "$(cat "$WORK/counts-collapsed.out")" "main;alloc 18446744073709551615"
expect_eq "... and says so" "$(cat "$WORK/counts-collapsed.err")" \
   "strata convert: note: $WORK/counts.strata: 1 stack weighs 2^64-1 (18446744073709551615) or more (--cost=allocated): the sum of its sites' counts"

"$PYTHON" - "$WORK" <<'PY'
import sys
work = sys.argv[1]
head = ["strata-profile\t2", "cmd\t./many", "pid\t1", "ppid\t0", "time_unit\ti",
        "F\t1\t0x401000\t0\tgrow\tg.c\t1\t/bin/g\t", "F\t2\t0x402000\t0\tcycle\tc.c\t2\t/bin/g\t",
        "S\t1\t1", "S\t2\t2"]

# 20,000 markers with one label over 40,000 snapshots: 20,000 cycles.
lines, t = list(head), 0
for i in range(40000):
    t += 10
    if i % 2 == 0:
        lines.append("M\t%d\tframe" % t)
    lines += ["T\tregular\t%d\t%d\t0\t0" % (t, 100 * (i % 2) + i), "s\t1\t%d\t1\t%d\t%d" % (i, i, i),
              "s\t2\t%d\t1\t0\t%d" % (100 * (i % 2), 100), "E"]
lines.append("X\t%d" % (t + 1))
open(work + "/markers.strata", "w").write("\n".join(lines) + "\n")

# 300,000 snapshots, each followed by a peak at time 0, written late.
lines = list(head)
for i in range(1, 300001):
    lines += ["T\tregular\t%d\t100\t0\t0" % i, "E", "T\tpeak\t0\t100\t0\t0",
              "s\t1\t100\t1\t100\t100", "E"]
lines.append("X\t300001")
open(work + "/peaks.strata", "w").write("\n".join(lines) + "\n")

# 100,000 markers for the graph.
lines, t = list(head), 0
for i in range(100000):
    t += 10
    lines.append("M\t%d\tm%d" % (t, i % 7))
    if i % 100 == 0:
        lines += ["T\tregular\t%d\t%d\t0\t0" % (t, i), "s\t1\t%d\t1\t0\t%d" % (i, i), "E"]
lines.append("X\t%d" % (t + 1))
open(work + "/graph.strata", "w").write("\n".join(lines) + "\n")
PY

guarded markers 60 report "$WORK/markers.strata"
expect_eq "20,000 markers with one label: exit status ($(head -c 200 "$WORK/markers.err"))" \
   "$status" 0
expect_in "20,000 markers: 20,000 cycles" "$WORK/markers.out" \
   '^cycles:     20,000, each begun by the marker "frame"'
expect_in "20,000 markers: the leak is found" "$WORK/markers.out" '^#1 Leak at grow'
[ -n "${STRATA_SANITIZED:-}" ] || expect_le "20,000 markers: memory held (MiB)" "$rss" 256

guarded peaks 60 report "$WORK/peaks.strata"
expect_eq "300,000 late peaks: exit status ($(head -c 200 "$WORK/peaks.err"))" "$status" 0
expect_in "300,000 late peaks: all read" "$WORK/peaks.out" '^snapshots:  600,000,'
expect_in "300,000 late peaks: the peak" "$WORK/peaks.out" '^peak:       100 bytes at time 0 '

guarded graph 60 plot "$WORK/graph.strata" -o "$WORK/graph.svg" --keep-script
expect_eq "100,000 markers drawn: exit status ($(head -c 200 "$WORK/graph.err"))" "$status" 0
expect_le "100,000 markers: at most 200 labelled (and the peak)" \
   "$(grep -c '^set label' "$WORK/graph.gp")" 201
expect_in "100,000 markers: the rest counted" "$WORK/graph.dat" \
   $'^[0-9]+\tmarkers: 200 of 100000 drawn'
"$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/graph.svg" >"$WORK/graph.texts"
expect_in "100,000 markers: the count in the legend" "$WORK/graph.texts" '^markers: 200 of 100000 drawn'
finish
