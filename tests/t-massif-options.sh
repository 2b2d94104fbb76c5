#!/bin/bash
# massif's options (issue 11): a massif command line, with
# `valgrind --tool=massif` replaced by `strata record`, runs; --heap=no;
# --threshold given when recording is the reports' default.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# A massif command line, every massif option but --pages-as-heap (below).
mkdir -p "$WORK/massif"
(cd "$WORK/massif" && exec "$STRATA" record --heap=yes --heap-admin=16 --stacks=no --depth=8 \
   --alloc-fn=xmalloc --ignore-fn=noisy_logger --threshold=30 --peak-inaccuracy=2.0 --time-unit=B \
   --detailed-freq=1 --max-snapshots=10 --massif-out-file=massif.out "$PROGS/wrappers") \
   >"$WORK/massif.stdout" 2>"$WORK/massif.stderr"
expect_eq "a massif command line runs" "$?" 0
p=$WORK/massif/massif.out
expect "--massif-out-file names the profile" test -f "$p"
if [ -f "$p" ]; then
   check_profile "$p"
   ask "$p" "get opt:"{heap_admin,heap,threshold,detailed_freq,max_snapshots} "get heap final"
   expect_eq "the options are strata's: --heap-admin" "$(answer "$p" get opt:heap_admin)" 16
   expect_eq "--ignore-fn" "$(answer "$p" get heap final)" 6016
   expect_eq "--heap=yes in the header" "$(answer "$p" get opt:heap)" yes
   expect_eq "--threshold is recorded" "$(answer "$p" get opt:threshold)" 30.000
   expect_eq "--detailed-freq and --max-snapshots are not" \
      "$(answer "$p" get opt:detailed_freq)$(answer "$p" get opt:max_snapshots)" ""

   "$STRATA" report --json "$p" >"$WORK/threshold.json"
   expect_eq "strata report takes the recorded threshold" \
      "$(json "$WORK/threshold.json" grouping.threshold)" 30.0
   "$STRATA" report --json --threshold=2 "$p" >"$WORK/given.json"
   expect_eq "... unless given its own" "$(json "$WORK/given.json" grouping.threshold)" 2.0
   "$STRATA" report "$p" >"$WORK/threshold.txt"
   expect_in "the text report folds under it" "$WORK/threshold.txt" 'under 30\.0%'
fi

# Without --threshold when recording, nothing is written and the report's
# default holds.
record_ok plain --time-unit=B "$PROGS/wrappers"
expect_eq "no opt threshold without --threshold" "$(q get "$profile" opt:threshold)" ""
"$STRATA" report --json "$profile" >"$WORK/plain.json"
expect_eq "the report's default threshold" "$(json "$WORK/plain.json" grouping.threshold)" 1.0

# --max-snapshots has no effect: peak makes 150 heap operations.
record_ok many --time-unit=B --max-snapshots=10 --detailed-freq=1 "$PROGS/peak"
expect_le "--max-snapshots=10: no snapshot is thrown away" 150 "$(q get "$profile" count:all)"

# The tool itself takes --massif-out-file.
(cd "$WORK" && VALGRIND_LIB=$top_builddir/vglib exec valgrind --tool=strata \
   --massif-out-file="$WORK/direct.massif" "$PROGS/wrappers") >"$WORK/direct.out" 2>&1
expect "valgrind --tool=strata --massif-out-file=FILE writes FILE" test -f "$WORK/direct.massif"
[ -f "$WORK/direct.massif" ] && check_profile "$WORK/direct.massif"

# --heap=no: the stacks only.
record_ok noheap --heap=no --stacks=yes "$PROGS/stacks"
ask "$profile" "get opt:heap" "get heap "{user:1,peak} "get nsites" "get stacks user:1"
expect_eq "--heap=no in the header" "$(answer "$profile" get opt:heap)" no
expect_eq "--heap=no: no heap at user 1" "$(answer "$profile" get heap user:1)" 0
expect_eq "... nor at the peak" "$(answer "$profile" get heap peak)" 0
expect_eq "... no site" "$(answer "$profile" get nsites)" 0
expect_le "... the stacks are measured" $((4 * 65536)) "$(answer "$profile" get stacks user:1)"
record_ok noheap_malloc --heap=no "$PROGS/wrappers"
ask "$profile" "get "{heap,extra}" final"
expect_eq "--heap=no: the blocks of malloc are not counted" "$(answer "$profile" get heap final)" 0
expect_eq "... nor the extra heap" "$(answer "$profile" get extra final)" 0
# As in massif, --heap=no turns --pages-as-heap off: there is no heap.
record_ok noheap_pages --heap=no --pages-as-heap=yes "$PROGS/pages"
ask "$profile" "get opt:pages_as_heap" "get heap user:1"
expect_eq "--heap=no --pages-as-heap=yes: pages_as_heap no in the header" \
   "$(answer "$profile" get opt:pages_as_heap)" no
expect_eq "... no pages counted" "$(answer "$profile" get heap user:1)" 0
finish
