#!/bin/bash
# The peak (of useful heap plus stacks): exact with --peak-inaccuracy=0,
# within P% otherwise, and taken, as massif takes it, at the top of a climb.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok exact --time-unit=B --heap-admin=0 --peak-inaccuracy=0 "$PROGS/peak"
p=$profile
ask "$p" "get opt:peak_inaccuracy" "get heap peak" "bytes grow peak" "blocks grow peak" \
   "get heap final" "get measure peak"
expect_eq "header opt peak_inaccuracy" "$("$PYTHON" -c "print(float('$(answer "$p" get opt:peak_inaccuracy)'))")" 0.0
expect_eq "exact peak heap" "$(answer "$p" get heap peak)" 100800
expect_eq "grow at the peak" "$(answer "$p" bytes grow peak)" 100800
expect_eq "grow blocks at the peak" "$(answer "$p" blocks grow peak)" 100
expect_eq "final heap" "$(answer "$p" get heap final)" 50400
true_peak=$(answer "$p" get measure peak)

for inaccuracy in 1.0 10; do
   record_ok "p$inaccuracy" --time-unit=B --heap-admin=0 --peak-inaccuracy=$inaccuracy "$PROGS/peak"
   recorded=$(q get "$profile" measure peak)
   expect_le "--peak-inaccuracy=$inaccuracy: recorded peak <= true peak" "$recorded" "$true_peak"
   expect "--peak-inaccuracy=$inaccuracy: true peak within $inaccuracy% of the recorded one" \
      "$PYTHON" -c "import sys; sys.exit(not $true_peak <= $recorded * (1 + $inaccuracy / 100))"
done
# As in massif, the peak is checked before the heap falls: what is recorded
# is the top of the climb, here the exact peak even with 10% (the check at
# each allocation gave 94752, the first total 10% above the last peak).
record_ok top10 --time-unit=B --heap-admin=0 --peak-inaccuracy=10 "$PROGS/peak"
expect_eq "--peak-inaccuracy=10: the top of the climb" "$(q get "$profile" heap peak)" 100800
valgrind --tool=massif --time-unit=B --heap-admin=0 --peak-inaccuracy=10 \
   --massif-out-file="$WORK/top10.massif" "$PROGS/peak" >/dev/null 2>&1
expect_eq "... massif's peak" \
   "$(grep -B4 '^heap_tree=peak' "$WORK/top10.massif" | sed -n 's/^mem_heap_B=//p')" 100800

record_ok default "$PROGS/peak"
expect_eq "default peak_inaccuracy in the header" \
   "$("$PYTHON" -c "print(float('$(q get "$profile" opt:peak_inaccuracy)'))")" 1.0
finish
