#!/bin/bash
# The same programs under stock massif and under strata, with
# --time-unit=B --heap-admin=0 --peak-inaccuracy=0: strata's peak heap (from
# strata report --json) is the largest mem_heap_B of massif's output.
#
# The final heap: massif takes no snapshot at exit, and once its table is
# full it keeps one event in many, so its last snapshot is the end state only
# for a program with fewer events than --max-snapshots=1000 (the "short"
# ones below).  For every program, strata's final heap is what memcheck says
# is "in use at exit".
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

opts="--time-unit=B --heap-admin=0 --peak-inaccuracy=0"

# in_use_at_exit PROGRAM [ARGS]: memcheck's count of bytes in use at exit
in_use_at_exit() {
   valgrind --tool=memcheck "$@" 2>&1 >/dev/null |
      sed -n 's/.*in use at exit: \([0-9,]*\) bytes.*/\1/p' | tr -d ,
}

# compare NAME short|long PROGRAM [ARGS]
compare() {
   local name=$1 length=$2
   shift 2
   valgrind --tool=massif $opts --max-snapshots=1000 --massif-out-file="$WORK/$name.massif" "$@" \
      >"$WORK/$name.massif.stdout" 2>"$WORK/$name.massif.stderr" ||
      fail "$name: massif failed"
   record_ok "$name" $opts "$@" || return
   ask "$profile" "get "{heap,time}" peak" "get heap final" "get count:all"
   "$STRATA" report --json "$profile" >"$WORK/$name.json" 2>"$WORK/$name.json.stderr"
   expect_eq "$name: strata report --json exits 0" "$?" 0
   local peak final
   peak=$(json "$WORK/$name.json" peak.heap_bytes)
   final=$(json "$WORK/$name.json" final.heap_bytes)
   expect_eq "$name: peak heap, strata vs massif" "$peak" "$(massif_max_heap "$WORK/$name.massif")"
   if [ "$length" = short ]; then
      expect_le "$name: massif kept every event (fewer than 1000 snapshots)" \
         "$(grep -c '^snapshot=' "$WORK/$name.massif")" 999
      expect_eq "$name: final heap, strata vs massif's last snapshot" \
         "$final" "$(massif_last_heap "$WORK/$name.massif")"
   fi
   expect_eq "$name: final heap, strata vs memcheck's in use at exit" "$final" "$(in_use_at_exit "$@")"
   expect_eq "$name: report's peak is the profile's" "$peak" "$(answer "$profile" get heap peak)"
   expect_eq "$name: report's peak time is the profile's" \
      "$(json "$WORK/$name.json" peak.time)" "$(answer "$profile" get time peak)"
   expect_eq "$name: report's final is the profile's" "$final" "$(answer "$profile" get heap final)"
   expect_eq "$name: report's snapshots are the profile's" \
      "$(json "$WORK/$name.json" snapshots)" "$(answer "$profile" get count:all)"
}

compare malloc_basic short "$PROGS/malloc_basic"
compare memalign short "$PROGS/memalign"
compare cxx_new short "$PROGS/cxx_new"
compare custom_alloc short "$PROGS/custom_alloc"
compare peak short "$PROGS/peak"
compare realloc_heavy long "$PROGS/realloc_heavy"
compare threads long "$PROGS/threads"
compare leaky long "$EXAMPLES/leaky-player" --cycles 3 --frames 24
finish
