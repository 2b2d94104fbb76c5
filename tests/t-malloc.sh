#!/bin/bash
# malloc, calloc, realloc and free: exact bytes, blocks, min/max, heap admin,
# and the sites' frames against a golden file.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

src=$top_srcdir/tests/programs/malloc_basic.c
record_ok basic --time-unit=B --heap-admin=0 "$PROGS/malloc_basic"
p=$profile
expect_eq "heap at user snapshot 1" "$(q get "$p" heap user:1)" 3488
expect_eq "use_malloc at user 1" "$(q bytes "$p" use_malloc user:1)" 1008
expect_eq "use_calloc at user 1" "$(q bytes "$p" use_calloc user:1)" 480
expect_eq "use_realloc at user 1" "$(q bytes "$p" use_realloc user:1)" 2000
expect_eq "use_realloc blocks at user 1" "$(q blocks "$p" use_realloc user:1)" 1
expect_eq "heap at user snapshot 2" "$(q get "$p" heap user:2)" 2480
expect_eq "use_malloc at user 2" "$(q bytes "$p" use_malloc user:2)" 0
expect_eq "final heap" "$(q get "$p" heap final)" 2480
expect_eq "final blocks" "$(q get "$p" blocks final)" 2
expect_eq "peak heap (malloc 112 grown to 3008 before the shrink)" "$(q get "$p" heap peak)" 4496
expect_eq "header time_unit" "$(q get "$p" header:time_unit)" B
expect_eq "header opt heap_admin" "$(q get "$p" opt:heap_admin)" 0
expect_eq "X present" "$([ "$(q get "$p" end)" != none ] && echo yes)" yes

# The golden file: the sites at the final snapshot and the crest of every
# site (exact whenever snapshots are taken: a crest never falls between two),
# with stacks cut below main (libc's frames).
{
   echo "sites at the final snapshot:"
   q sites "$p" final
   echo "crests (the most each site held):"
   q crests "$p"
} | sed 's/ < \(main ([^)]*)\).*/ < \1/' >"$WORK/sites.out"
{
   sed -e "s/@MALLOC@/$(line_of "$src" 'return AFTER_CALL(malloc(1008))')/" \
       -e "s/@CALLOC@/$(line_of "$src" 'return AFTER_CALL(calloc(10, 48))')/" \
       -e "s/@REALLOC@/$(line_of "$src" 'return AFTER_CALL(realloc(p, 2000))')/" \
       -e "s/@GROW@/$(line_of "$src" 'p = realloc(p, 3008)')/" \
       -e "s/@M112@/$(line_of "$src" 'p = malloc(112)')/" \
       -e "s/@MAIN1@/$(line_of "$src" 'kept\[0\] = use_malloc')/" \
       -e "s/@MAIN2@/$(line_of "$src" 'kept\[1\] = use_calloc')/" \
       -e "s/@MAIN3@/$(line_of "$src" 'kept\[2\] = use_realloc')/" \
       "$top_srcdir/tests/golden/malloc_basic.sites"
} >"$WORK/sites.exp"
checks=$((checks + 1))
if diff -u "$WORK/sites.exp" "$WORK/sites.out"; then
   pass "sites and crests match tests/golden/malloc_basic.sites"
else
   fail "sites and crests differ from tests/golden/malloc_basic.sites (diff above)"
fi

# --heap-admin=N adds N bytes per live block to the extra heap, nothing else.
record_ok admin64 --time-unit=B --heap-admin=64 "$PROGS/malloc_basic"
for at in user:1 user:2 final; do
   e0=$(q get "$p" extra $at)
   e64=$(q get "$profile" extra $at)
   blocks=$(q get "$profile" blocks $at)
   expect_eq "extra at $at with --heap-admin=64 minus with 0" "$((e64 - e0))" "$((64 * blocks))"
   expect_eq "heap at $at does not depend on --heap-admin" "$(q get "$profile" heap $at)" "$(q get "$p" heap $at)"
done
expect_eq "header opt heap_admin" "$(q get "$profile" opt:heap_admin)" 64

# the default heap admin is 8 bytes
record_ok admin8 --time-unit=B "$PROGS/malloc_basic"
expect_eq "default heap_admin in the header" "$(q get "$profile" opt:heap_admin)" 8
expect_eq "final extra with the default admin minus with 0" \
   "$(( $(q get "$profile" extra final) - $(q get "$p" extra final) ))" 16

# A buffer grown by realloc stays at its site all along: the site's low in
# an interval never falls to 0 between its first growth and its free (it
# did when a moving realloc took the block out before putting it back).
for unit in i B; do
   record_ok "grow-$unit" --time-unit=$unit "$PROGS/realloc_grow"
   dips=$(q timeline "$profile" log_grow | awk -F'\t' '
      $1 == "T" && $4 > 0 && seen && $6 == 0 { dips++ }
      $1 == "T" && $4 > 0 { seen = 1 }
      END { print dips + 0 }')
   expect_eq "realloc_grow, --time-unit=$unit: log_grow's low never 0 while it lives" "$dips" 0
   expect_eq "realloc_grow, --time-unit=$unit: log_grow holds 1 block before the free" \
      "$(q timeline "$profile" log_grow | awk -F'\t' '$1 == "T" && $4 > 0 { b = $5 } END { print b }')" 1
done
finish
