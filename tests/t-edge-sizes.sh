#!/bin/bash
# Zero and edge sizes in every allocation function (issue 10, 1): malloc(0)
# and its kin once wrote a free-list link over the next chunk's header, and
# a site then held 77832272 bytes in 2^64-1 blocks.  tests/programs/edge_sizes
# allocates at every size and alignment where the allocator changes, checks
# its blocks, and frees them all; the heap must then be empty, through the
# fast client calls and through the scheduler alike.  pvalloc among them
# (issue 32, 3): Valgrind's preload library aborted the program at it; its
# blocks, page-rounded, are at the caller's site like the others.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# minus A B: A - B, or "?" unless both are numbers.
minus() {
   if [[ "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ ]]; then echo $(($1 - $2)); else echo "?"; fi
}

for fast in yes no; do
   name=edge-$fast
   record_valgrind "$name" --heap-admin=0 --stats=yes --fast-client-calls=$fast \
      "$PROGS/edge_sizes" || continue
   p=$profile
   ask "$p" "get "{heap,blocks}" "{user:1,user:2,final} "get extra final" \
      "bytes allocate user:1" "frames pvalloc"
   expect_eq "$name: exit status" "$status" 0
   heap= blocks=
   read -r heap blocks <"$WORK/$name.stdout"
   # What libstdc++ holds from its start to its freeres (its emergency pool)
   # is in both user snapshots.
   expect_eq "$name: heap of the blocks at user 1" \
      "$(minus "$(answer "$p" get heap user:1)" "$(answer "$p" get heap user:2)")" "${heap:-none}"
   expect_eq "$name: blocks at user 1" \
      "$(minus "$(answer "$p" get blocks user:1)" "$(answer "$p" get blocks user:2)")" "${blocks:-none}"
   expect_eq "$name: every block at a site of allocate, the caller" \
      "$(answer "$p" bytes allocate user:1)" "${heap:-none}"
   expect_eq "$name: no site has the preload's pvalloc frame" "$(answer "$p" frames pvalloc)" ""
   expect_eq "$name: final heap, all freed" "$(answer "$p" get heap final)" 0
   expect_eq "$name: final blocks" "$(answer "$p" get blocks final)" 0
   expect_eq "$name: final extra heap" "$(answer "$p" get extra final)" 0
   expect "$name: strata report reads it" eval "\"$STRATA\" report \"$p\" >/dev/null"
   expect_in "$name: no free missed its block" "$WORK/$name.stderr" 'frees of no block: *0$'
done
fast_calls() {
   sed -n 's/.*strata: fast client calls: *\([0-9,]*\)$/\1/p' "$WORK/$1.stderr" | tr -d ,
}
expect_le "the fast path served the calls" 1000 "$(fast_calls edge-yes)"
expect_eq "the scheduler served them with --fast-client-calls=no" "$(fast_calls edge-no)" 0
finish
