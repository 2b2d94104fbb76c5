#!/bin/bash
# The peak (of useful heap plus stacks): exact with --peak-inaccuracy=0,
# within P% otherwise.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok exact --time-unit=B --heap-admin=0 --peak-inaccuracy=0 "$PROGS/peak"
p=$profile
expect_eq "header opt peak_inaccuracy" "$("$PYTHON" -c "print(float('$(q get "$p" opt:peak_inaccuracy)'))")" 0.0
expect_eq "exact peak heap" "$(q get "$p" heap peak)" 100800
expect_eq "grow at the peak" "$(q bytes "$p" grow peak)" 100800
expect_eq "grow blocks at the peak" "$(q blocks "$p" grow peak)" 100
expect_eq "final heap" "$(q get "$p" heap final)" 50400
true_peak=$(q get "$p" measure peak)

for inaccuracy in 1.0 10; do
   record_ok "p$inaccuracy" --time-unit=B --heap-admin=0 --peak-inaccuracy=$inaccuracy "$PROGS/peak"
   recorded=$(q get "$profile" measure peak)
   expect_le "--peak-inaccuracy=$inaccuracy: recorded peak <= true peak" "$recorded" "$true_peak"
   expect "--peak-inaccuracy=$inaccuracy: true peak within $inaccuracy% of the recorded one" \
      "$PYTHON" -c "import sys; sys.exit(not $true_peak <= $recorded * (1 + $inaccuracy / 100))"
done
record_ok default "$PROGS/peak"
expect_eq "default peak_inaccuracy in the header" \
   "$("$PYTHON" -c "print(float('$(q get "$profile" opt:peak_inaccuracy)'))")" 1.0
finish
