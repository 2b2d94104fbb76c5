#!/bin/bash
# How many snapshots (docs/format.md, "How often snapshots are taken"): a run
# with N heap operations has at least min(N, 500); a run of length T has at
# most 2 * (500 + 251 * (1 + log2(T / 250))) regular snapshots, so a run
# 1000 times longer adds at most about 5,000.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# bounds FILE OPS [QUESTION...]: checks the number of snapshots of FILE, a run
# of at least OPS heap operations (and asks the QUESTIONs about FILE too)
bounds() {
   local f=$1 ops=$2 T regular all low high
   shift 2
   ask "$f" "get time final" "get count:"{regular,user,final} "$@"
   T=$(answer "$f" get time final)
   regular=$(answer "$f" get count:regular)
   all=$(( regular + $(answer "$f" get count:user) + $(answer "$f" get count:final) ))
   low=$(( ops < 500 ? ops : 500 ))
   high=$("$PYTHON" -c "import math,sys; T=max(int(sys.argv[1]), 250)
print(2 * (500 + 251 * (1 + math.floor(math.log2(T / 250)))))" "$T")
   expect_le "$(basename "$f"): min(500, operations) <= snapshots" "$low" "$all"
   expect_le "$(basename "$f"): regular snapshots <= the bound for T=$T" "$regular" "$high"
}

record_ok tiny --time-unit=B "$PROGS/cyclic" 100
bounds "$profile" 200
record_ok short --time-unit=B "$PROGS/cyclic" 1000
short=$profile
bounds "$short" 2000
record_ok long --time-unit=B "$PROGS/cyclic" 1000000
long=$profile
bounds "$long" 2000000 "bytes cycle_alloc" "blocks cycle_alloc regular:400"
expect_le "1000 times longer adds at most 5020 snapshots" \
   "$(( $(answer "$long" get count:regular) - $(answer "$short" get count:regular) ))" 5020
expect_eq "cycle_alloc at the end" "$(answer "$long" bytes cycle_alloc)" 0
middle=$(answer "$long" blocks cycle_alloc regular:400)
expect_le "in the middle, cycle_alloc holds 63 or 64 blocks" 63 "$middle"
expect_le "... not more" "$middle" 64

record_ok instr "$PROGS/cyclic" 1000000
bounds "$profile" 2000000 "get header:time_unit"
expect_eq "default time unit" "$(answer "$profile" get header:time_unit)" i
record_ok instr-short "$PROGS/cyclic" 300
bounds "$profile" 600
finish
