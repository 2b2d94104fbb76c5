#!/bin/bash
# The native recorder (strata record --native, native/): the same program
# recorded natively and under Valgrind, with --time-unit=B --heap-admin=0,
# has the same peak to the byte and the same sites, at the same code, with
# the same bytes at the peak (tests/py/native_parity.py); its profile says
# it was recorded natively, names its frames (inlined ones too), and every
# reader reads it; the recorder thread writes the profile the program's own
# threads write (STRATA_NATIVE_RECORDER=thread and =inline); a program
# with threads has its profile written by the recorder's writer thread.  (tests/t-native-suite.sh runs the other tests natively:
# threads, fork, exec, SIGKILL, markers.)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

for prog in malloc_basic peak memalign cxx_new counts_cxx realloc_heavy realloc_grow \
   deep inlined main_alloc; do
   record_ok "vg-$prog" --time-unit=B --heap-admin=0 "$PROGS/$prog" || continue
   run_py native_parity "$profile" >"$WORK/vg-$prog.peak"
   record_ok "nat-$prog" --native --time-unit=B --heap-admin=0 "$PROGS/$prog" || continue
   run_py native_parity "$profile" >"$WORK/nat-$prog.peak"
   expect "$prog: one or more sites at the peak" test "$(wc -l <"$WORK/nat-$prog.peak")" -ge 2
   expect_eq "$prog: the same peak and the same sites, natively and under Valgrind" \
      "$(diff "$WORK/vg-$prog.peak" "$WORK/nat-$prog.peak")" ""
done

# The recorder thread (STRATA_NATIVE_RECORDER=thread: from the start)
# applies the events as the program's own threads do (=inline): a
# single-threaded program's profile is the same (but for its pid and its
# frames' addresses, which ASLR moves), its lifetimes and free stacks
# included.
same_body() {   # the profile without pid, ppid, cmd and frame addresses
   grep -v '^pid\|^ppid\|^cmd' "$1" | awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "F" { $3 = "" } { print }'
}
for prog in trap_cache realloc_heavy counts_cxx leak_requests; do
   STRATA_NATIVE_RECORDER=thread record_ok "thr-$prog" --native --time-unit=B "$PROGS/$prog" || continue
   same_body "$profile" >"$WORK/thr-$prog.body"
   STRATA_NATIVE_RECORDER=inline record_ok "inl-$prog" --native --time-unit=B "$PROGS/$prog" || continue
   same_body "$profile" >"$WORK/inl-$prog.body"
   expect "$prog: lifetimes in the profile" grep -q '^L' "$WORK/thr-$prog.body"
   expect_same "$prog: the same profile from the recorder thread and from the program's" \
      "$WORK/inl-$prog.body" "$WORK/thr-$prog.body"
done

# A program that reaches the recorder thread's threshold (2^19 live blocks)
# midway: the thread takes the events over then (one more thread in the
# process), and the profile has the same sites, counts and useful heap at
# every snapshot as with the program's threads doing the work throughout;
# only the allocator's extra bytes may differ (the thread's own start takes
# memory from the C library, which moves the program's blocks).
no_extra() {   # same_body, the extra heap of each snapshot left out
   same_body "$1" | awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "T" { $5 = "" } { print }'
}
record_ok many-auto --native --time-unit=B "$PROGS/many_blocks" &&
   no_extra "$profile" >"$WORK/many-auto.body"
STRATA_NATIVE_RECORDER=inline record_ok many-inline --native --time-unit=B "$PROGS/many_blocks" &&
   no_extra "$profile" >"$WORK/many-inline.body"
expect_eq "many_blocks: the recorder thread ran" "$(cat "$WORK/many-auto.stdout")" "threads 2"
expect_eq "... and not with STRATA_NATIVE_RECORDER=inline" "$(cat "$WORK/many-inline.stdout")" "threads 1"
expect "many_blocks: 600,000 blocks live at the peak" \
   test "$(awk -F'\t' '$1 == "T" && $4 > m { m = $4 } END { print m + 0 }' "$WORK/many-inline.body")" -gt 19200000
expect_same "many_blocks: the same profile when the recorder thread takes over midway" \
   "$WORK/many-inline.body" "$WORK/many-auto.body"

# A program with a thread of its own: from then on the recorder's writer
# thread writes the profile (one thread beside main at the end, the worker
# joined; the program alone has none), and the profile is whole: the
# worker's 200,000 calls at worker_alloc, and its end.
record_ok writer --native --time-unit=B "$PROGS/writer_thread" &&
   expect_eq "writer_thread: the recorder's writer thread beside main" \
      "$(cat "$WORK/writer.stdout")" "threads 2" &&
   expect_eq "writer_thread: the worker's calls, all in the profile" \
      "$(q counts "$profile" worker_alloc | cut -d' ' -f1)" 200000 &&
   expect "writer_thread: the profile's end" grep -q '^X' "$profile"
expect_eq "writer_thread alone: no thread beside main" "$("$PROGS/writer_thread")" "threads 1"
# While the program idles, what it did before is in the file (the writer
# thread hands it over after 200 ms without output): every regular
# snapshot (the final one, and a peak not yet written, come at the end).
"$STRATA" record --native --time-unit=B -o "$WORK/idle.out" "$PROGS/writer_thread" idle \
   >"$WORK/idle.stdout" 2>"$WORK/idle.stderr" &
launcher=$!
sleep 1.5
cp "$WORK/idle.out" "$WORK/idle-during.out" 2>/dev/null
wait "$launcher"
expect_eq "writer_thread idle: every regular snapshot in the file as it idles" \
   "$(grep -c '^T.regular' "$WORK/idle-during.out" 2>/dev/null)" "$(grep -c '^T.regular' "$WORK/idle.out")"

# --unwind=fp: on programs built with frame pointers (tests/programs are),
# the same peak and the same sites as with libunwind, in C and in C++
# (libstdc++'s operator new, outside the program, is unwound by libunwind),
# and on a stack of the program's own (coroutine: libunwind again).
record_ok "nat-coroutine" --native --time-unit=B --heap-admin=0 "$PROGS/coroutine" &&
   run_py native_parity "$profile" >"$WORK/nat-coroutine.peak"
for prog in malloc_basic deep main_alloc realloc_heavy memalign cxx_new coroutine; do
   record_ok "fp-$prog" --native --unwind=fp --time-unit=B --heap-admin=0 "$PROGS/$prog" || continue
   run_py native_parity "$profile" >"$WORK/fp-$prog.peak"
   expect "$prog, --unwind=fp: one or more sites at the peak" \
      test "$(wc -l <"$WORK/fp-$prog.peak")" -ge 2
   expect_same "$prog: the same peak and the same sites with --unwind=fp and libunwind" \
      "$WORK/nat-$prog.peak" "$WORK/fp-$prog.peak"
done
# A program built without frame pointers (tests/programs/no_frame_pointer,
# -fomit-frame-pointer): libunwind, said in one line, and the same sites at
# the peak as with libunwind asked for.
record_ok fp-nofp --native --unwind=fp --time-unit=B --heap-admin=0 "$PROGS/no_frame_pointer" &&
   run_py native_parity "$profile" >"$WORK/fp-nofp.peak"
expect_eq "--unwind=fp, main without a frame pointer: one line on stderr" \
   "$(grep -c 'strata: --unwind=fp: the program.s main keeps no frame pointer' "$WORK/fp-nofp.stderr")" 1
record_ok nat-nofp --native --time-unit=B --heap-admin=0 "$PROGS/no_frame_pointer" &&
   run_py native_parity "$profile" >"$WORK/nat-nofp.peak"
expect_same "... and the same peak and sites as with libunwind" "$WORK/nat-nofp.peak" "$WORK/fp-nofp.peak"
for bad in --unwind=dwarf --unwind=; do
   "$STRATA" record --native "$bad" "$PROGS/malloc_basic" >"$WORK/bad.out" 2>"$WORK/bad.err"
   expect_eq "$bad: exit status 1" "$?" 1
   expect_eq "$bad: one line" "$(wc -l <"$WORK/bad.err")" 1
   expect_in "$bad: names the option" "$WORK/bad.err" '^strata record: --unwind'
done
"$STRATA" record --unwind=fp "$PROGS/malloc_basic" >"$WORK/bad.out" 2>"$WORK/bad.err"
expect_eq "--unwind without --native: exit status 1" "$?" 1
expect_in "... in one line: only with --native" "$WORK/bad.err" '^strata record: --unwind: only with --native'

# The header, and ms by default.
record_ok ms --native "$PROGS/malloc_basic"
ask "$profile" "get header:time_unit" "get opt:native" "bytes use_realloc peak"
expect_eq "natively, the time is in ms by default" "$(answer "$profile" get header:time_unit)" ms
expect_eq "the header says: recorded natively" "$(answer "$profile" get opt:native)" yes
expect_eq "the frames are named: use_realloc at the peak" \
   "$(answer "$profile" bytes use_realloc peak)" 3008
expect_in "natively in ms, the epochs count bytes allocated and freed" "$profile" \
   '^opt	epoch_unit	B$'
expect_eq "... and each L record gives its epoch's time in ms" \
   "$(awk -F'\t' '$1 == "L" && NF != 5 { bad++ } END { print bad + 0 }' "$profile")" 0

# Inlined frames, named from DWARF when the run ends.
record_ok inl --native "$PROGS/inlined"
expect_in "an inlined frame (inlined 1)" "$profile" '^F	[0-9]+	0x[0-9a-f]+	1	[^	]+	'

# Every reader reads a native profile.
"$STRATA" report --json "$profile" >"$WORK/report.json" 2>"$WORK/report.err"
expect_eq "strata report --json reads it" "$?" 0
plot svg -o "$WORK/native.svg" "$profile"
plot page -o "$WORK/native.html" "$profile"
plot age --by=age -o "$WORK/age.svg" "$profile"
"$STRATA" convert --to=massif "$profile" -o "$WORK/native.massif" 2>"$WORK/convert.err"
expect_eq "strata convert --to=massif reads it" "$?" 0
expect_in "... into a massif.out" "$WORK/native.massif" '^mem_heap_B='

# Refused in one line: instruction time, and what only Valgrind does.
for bad in --time-unit=i --stacks=yes --pages-as-heap=yes --alloc-fn=$'f\ng' --vex-guest-chase=no; do
   "$STRATA" record --native "$bad" "$PROGS/malloc_basic" >"$WORK/bad.out" 2>"$WORK/bad.err"
   expect_eq "${bad//$'\n'/\\n} --native: exit status 1" "$?" 1
   expect_eq "${bad//$'\n'/\\n} --native: one line" "$(wc -l <"$WORK/bad.err")" 1
done
expect_in "--vex-guest-chase: why" "$WORK/bad.err" 'a Valgrind option, not with --native'

# Without --trace-children=yes, nothing the program runs is recorded: the
# library is no longer in LD_PRELOAD.
record_ok sh --native /bin/sh -c 'echo "LD_PRELOAD=$LD_PRELOAD"'
expect_eq "the program's children do not preload strata" \
   "$(grep -c libstrata-native "$WORK/sh.stdout")" 0
# Thread-specific data whose destructors free through the recorder after its
# own per-thread cache is gone (tests/programs/tsd_free: a blind program on
# Kyoto Cabinet crashed there, exit status 139): the program exits 0 and
# its profile is complete.
record_ok nat-tsd --native --time-unit=B "$PROGS/tsd_free" &&
   expect_eq "tsd_free: the profile is complete" "$(grep -c incomplete "$WORK/nat-tsd.stderr")" 0

# The C library loads and unloads its iconv modules itself, without a
# dlclose of the program's, and maps others where they were
# (tests/programs/gconv_cycle: a blind program converting charsets crashed
# in libunwind, exit status 139, unwinding by a table registered for a
# module since unloaded): the program exits 0 and its profile is complete,
# its 3,000 scratch buffers counted.
record_ok nat-gconv --native "$PROGS/gconv_cycle" && {
   expect_eq "gconv_cycle: the profile is complete" \
      "$(grep -c incomplete "$WORK/nat-gconv.stderr")" 0
   ask "$profile" "counts scratch"
   expect_eq "gconv_cycle: scratch's calls" "$(answer "$profile" counts scratch | cut -d' ' -f1)" 3000
}

finish
