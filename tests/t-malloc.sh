#!/bin/bash
# malloc, calloc, realloc and free: exact bytes, blocks, min/max, heap admin,
# and the sites' frames against a golden file.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

src=$top_srcdir/tests/programs/malloc_basic.c
record_ok basic --time-unit=B --heap-admin=0 "$PROGS/malloc_basic"
p=$profile
ask "$p" "get heap user:1" "bytes use_malloc user:1" "bytes use_calloc user:1" \
   "bytes use_realloc user:1" "blocks use_realloc user:1" "get heap user:2" \
   "bytes use_malloc user:2" "get heap final" "get blocks final" "get heap peak" \
   "get header:time_unit" "get opt:heap_admin" "get end" "sites final" crests \
   "get "{extra,heap}" "{user:1,user:2,final}
expect_eq "heap at user snapshot 1" "$(answer "$p" get heap user:1)" 3488
expect_eq "use_malloc at user 1" "$(answer "$p" bytes use_malloc user:1)" 1008
expect_eq "use_calloc at user 1" "$(answer "$p" bytes use_calloc user:1)" 480
expect_eq "use_realloc at user 1" "$(answer "$p" bytes use_realloc user:1)" 2000
expect_eq "use_realloc blocks at user 1" "$(answer "$p" blocks use_realloc user:1)" 1
expect_eq "heap at user snapshot 2" "$(answer "$p" get heap user:2)" 2480
expect_eq "use_malloc at user 2" "$(answer "$p" bytes use_malloc user:2)" 0
expect_eq "final heap" "$(answer "$p" get heap final)" 2480
expect_eq "final blocks" "$(answer "$p" get blocks final)" 2
expect_eq "peak heap (malloc 112 grown to 3008 before the shrink)" "$(answer "$p" get heap peak)" 4496
expect_eq "header time_unit" "$(answer "$p" get header:time_unit)" B
expect_eq "header opt heap_admin" "$(answer "$p" get opt:heap_admin)" 0
expect_eq "X present" "$([ "$(answer "$p" get end)" != none ] && echo yes)" yes

# The golden file: the sites at the final snapshot and the crest of every
# site (exact whenever snapshots are taken: a crest never falls between two),
# with stacks cut below main (libc's frames).
{
   echo "sites at the final snapshot:"
   answer "$p" sites final
   echo "crests (the most each site held):"
   answer "$p" crests
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
expect_same "sites and crests match tests/golden/malloc_basic.sites" \
   "$WORK/sites.exp" "$WORK/sites.out"

# --heap-admin=N adds N bytes per live block to the extra heap, nothing else.
record_ok admin64 --time-unit=B --heap-admin=64 "$PROGS/malloc_basic"
ask "$profile" "get "{extra,blocks,heap}" "{user:1,user:2,final} "get opt:heap_admin"
for at in user:1 user:2 final; do
   e0=$(answer "$p" get extra $at)
   e64=$(answer "$profile" get extra $at)
   blocks=$(answer "$profile" get blocks $at)
   expect_eq "extra at $at with --heap-admin=64 minus with 0" "$((e64 - e0))" "$((64 * blocks))"
   expect_eq "heap at $at does not depend on --heap-admin" "$(answer "$profile" get heap $at)" "$(answer "$p" get heap $at)"
done
expect_eq "header opt heap_admin" "$(answer "$profile" get opt:heap_admin)" 64

# the default heap admin is 8 bytes
record_ok admin8 --time-unit=B "$PROGS/malloc_basic"
ask "$profile" "get opt:heap_admin" "get extra final"
expect_eq "default heap_admin in the header" "$(answer "$profile" get opt:heap_admin)" 8
expect_eq "final extra with the default admin minus with 0" \
   "$(( $(answer "$profile" get extra final) - $(answer "$p" get extra final) ))" 16

# A buffer grown by realloc stays at its site all along: the site's low in
# an interval never falls to 0 between its first growth and its free (it
# did when a moving realloc took the block out before putting it back).
for unit in i B; do
   record_ok "grow-$unit" --time-unit=$unit "$PROGS/realloc_grow"
   ask "$profile" "timeline log_grow"
   dips=$(answer "$profile" timeline log_grow | awk -F'\t' '
      $1 == "T" && $4 > 0 && seen && $6 == 0 { dips++ }
      $1 == "T" && $4 > 0 { seen = 1 }
      END { print dips + 0 }')
   expect_eq "realloc_grow, --time-unit=$unit: log_grow's low never 0 while it lives" "$dips" 0
   expect_eq "realloc_grow, --time-unit=$unit: log_grow holds 1 block before the free" \
      "$(answer "$profile" timeline log_grow | awk -F'\t' '$1 == "T" && $4 > 0 { b = $5 } END { print b }')" 1
done
finish
