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
   read -r status rss < <(run_py read_limits_guarded "$seconds" "${STRATA_SANITIZED:-}" "$WORK/$name" \
      "$STRATA" "$@")
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

run_py read_limits_inputs "$WORK"

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
# A profile dominated by deaths (the record of a run's last epoch, where a
# program frees what it kept): 10,000 sites born in 64 epochs, dying in one
# record by 4 free stacks.  Its lifetimes are read in less memory than twice
# the file (once, five times it: every d line a pending line, a hash-set
# node and a cell).
awk -v n=10000 'BEGIN {
  printf "strata-profile\t3\ncmd\t./d\npid\t1\nppid\t0\ntime_unit\tB\nopt\tlifetimes\tyes\n"
  printf "opt\tfree_stacks\tyes\nF\t1\t0x1000\t0\tmain\tm.c\t1\t/m\t0x1000\n"
  for (i = 1; i <= n; i++) printf "S\t%d\t1\n", i
  for (p = 1; p <= 4; p++) printf "P\t%d\t1\n", p
  printf "T\tregular\t10\t0\t0\t0\nE\nL\t63\t63\t1\n"
  for (i = 1; i <= n; i++) for (b = 0; b < 64; b++) printf "b\t%d\t%d\t8\t1\n", i, b
  printf "E\nL\t32\t64\t2\n"
  for (i = 1; i <= n; i++) for (b = 0; b < 32; b++) for (p = 1; p <= 4; p++)
    printf "d\t%d\t%d\t%d\t4\t0\n", i, b, p
  printf "E\nT\tfinal\t100\t0\t0\t0\nE\nL\t33\t66\t2\n"
  for (i = 1; i <= n; i++) for (b = 0; b < 32; b++) printf "d\t%d\t%d\t1\t0\t2\n", i, b
  printf "E\nX\t100\n"
}' >"$WORK/deaths.strata"
guarded deaths 120 report "$WORK/deaths.strata"
expect_eq "a profile of deaths: exit status ($(head -c 200 "$WORK/deaths.err"))" "$status" 0
expect_in "a profile of deaths: its sites read" "$WORK/deaths.out" '^contexts: '
[ -n "${STRATA_SANITIZED:-}" ] || expect_le "a profile of deaths: memory held (MiB) within twice the file" \
   "$rss" $(($(wc -c <"$WORK/deaths.strata") * 2 / 1048576))
# 32,000 sites that each keep a little in every quarter of the run (a
# compiler's or a cache's many call sites): the leak findings join the
# leaking places by what they compare, not pair by pair (which took 19 s
# for 16,000 sites and would take more than a minute here).
awk -v n=32000 'BEGIN {
  printf "strata-profile\t3\ncmd\t./leaks\npid\t1\nppid\t0\ntime_unit\tB\nopt\tlifetimes\tyes\n"
  printf "opt\tfree_stacks\tyes\nF\t1\t0x1000\t0\tmain\tm.c\t1\t/m\t0x1000\n"
  for (i = 1; i <= n; i++) {
    printf "F\t%d\t0x%x\t0\tkeep_%d\tk.c\t%d\t/m\t0x%x\n", i + 1, 4096 + 16 * i, i, i, 4096 + 16 * i
    printf "S\t%d\t%d\t1\n", i, i + 1
  }
  for (e = 0; e < 64; e++) {
    t = e * 1024 + 512
    printf "T\tregular\t%d\t%d\t0\t0\nE\n", t, heap
    for (i = 1 + e % 16; i <= n; i += 16) { held[i] += 32; heap += 32; calls[i]++ }
    printf "T\tregular\t%d\t%d\t0\t0\n", t + 1, heap
    for (i = 1 + e % 16; i <= n; i += 16)
      printf "s\t%d\t%d\t%d\t%d\t%d\n", i, held[i], calls[i], held[i] - 32, held[i]
    printf "E\nL\t%d\t%d\t1024\n", e, e * 1024
    for (i = 1 + e % 16; i <= n; i += 16) printf "b\t%d\t%d\t32\t1\n", i, e
    if (e == 63) for (i = 1; i <= n; i++)
      for (b = i % 16 == 0 ? 15 : i % 16 - 1; b < 64; b += 16) printf "a\t%d\t%d\t32\t1\n", i, b
    printf "E\n"
  }
  printf "T\tfinal\t65535\t%d\t0\t0\nE\nX\t65535\n", heap
}' >"$WORK/places.strata"
guarded places 30 report "$WORK/places.strata"
expect_eq "32,000 leaking places: exit status ($(head -c 200 "$WORK/places.err"))" "$status" 0
expect_in "32,000 leaking places: findings" "$WORK/places.out" '^#1 '
finish
