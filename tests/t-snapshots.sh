#!/bin/bash
# How many snapshots: at least min(500, T/d), at most
# 500 * (1 + log2(T / (500 d))); a run 1000 times longer adds at most 5000.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# bounds FILE D: checks the number of snapshots of FILE for the base interval D
bounds() {
   local f=$1 d=$2 T regular all low high
   T=$(q get "$f" time final)
   regular=$(q get "$f" count:regular)
   all=$(( regular + $(q get "$f" count:user) + $(q get "$f" count:final) ))
   low=$(( T / d < 500 ? T / d : 500 ))
   high=$("$PYTHON" -c "import math,sys; T,d=int(sys.argv[1]),int(sys.argv[2]);
print(T//d + 1 if T <= 500*d else math.floor(500*(1+math.log2(T/(500*d)))))" "$T" "$d")
   expect_le "$(basename "$f"): min(500, T/d) for T=$T <= snapshots" "$low" "$all"
   expect_le "$(basename "$f"): regular snapshots <= the bound" "$regular" "$high"
}

record_ok short --time-unit=B "$PROGS/cyclic" 1000
short=$profile
bounds "$short" 4096
record_ok long --time-unit=B "$PROGS/cyclic" 1000000
long=$profile
bounds "$long" 4096
expect_le "a long run has 500 snapshots or more" 500 "$(q get "$long" count:regular)"
expect_le "1000 times longer adds at most 5000 snapshots" \
   "$(( $(q get "$long" count:regular) - $(q get "$short" count:regular) ))" 5000
expect_eq "cycle_alloc at the end" "$(q bytes "$long" cycle_alloc)" 0
middle=$(q blocks "$long" cycle_alloc regular:400)
expect_le "in the middle, cycle_alloc holds 63 or 64 blocks" 63 "$middle"
expect_le "... not more" "$middle" 64

record_ok instr "$PROGS/cyclic" 1000000
expect_eq "default time unit" "$(q get "$profile" header:time_unit)" i
bounds "$profile" 10000
expect_le "a long run in instructions has 500 snapshots or more" 500 "$(q get "$profile" count:regular)"
finish
