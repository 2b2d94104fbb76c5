#!/bin/bash
# --pages-as-heap=yes counts pages mapped by mmap and brk instead of malloc.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok pages --pages-as-heap=yes "$PROGS/pages"
p=$profile
ask "$p" "get opt:pages_as_heap" "bytes map_pages "{user:1,user:2} "bytes grow_brk "{user:1,user:2} \
   "get heap "{user:1,user:2} "frames map_pages"
expect_eq "header opt pages_as_heap" "$(answer "$p" get opt:pages_as_heap)" yes
expect_eq "map_pages at user 1" "$(answer "$p" bytes map_pages user:1)" 40960
expect_eq "map_pages at user 2 (unmapped)" "$(answer "$p" bytes map_pages user:2)" 0
brk=$(answer "$p" bytes grow_brk user:1)
expect_le "grow_brk at user 1: 3 pages or more" 12288 "$brk"
expect_le "... at most 4" "$brk" 16384
expect_eq "grow_brk at user 2 (given back)" "$(answer "$p" bytes grow_brk user:2)" 0
expect_eq "heap at user 1 - user 2" \
   "$(( $(answer "$p" get heap user:1) - $(answer "$p" get heap user:2) ))" "$((40960 + brk))"

# As in massif, the system call's function (mmap, brk) is the innermost
# frame of the pages it maps: map_pages is its caller.
expect_eq "map_pages's site starts with mmap's frame" \
   "$(answer "$p" frames map_pages | sed -n '2,/^map_pages/p' | cut -f1 | grep -cx mmap)" 1
# So --ignore-fn=mmap leaves out every page mmap maps, the loader's too.
record_ok ignore_mmap --pages-as-heap=yes --ignore-fn=mmap "$PROGS/pages"
ask "$profile" "bytes "{map_pages,grow_brk}" user:1" "frames mmap" "get heap "{user:1,user:2}
expect_eq "--ignore-fn=mmap: map_pages at user 1" "$(answer "$profile" bytes map_pages user:1)" 0
expect_eq "... no site has mmap" "$(answer "$profile" frames mmap)" ""
expect_eq "... grow_brk is kept" "$(answer "$profile" bytes grow_brk user:1)" "$brk"
expect_eq "... heap at user 1 - user 2" \
   "$(( $(answer "$profile" get heap user:1) - $(answer "$profile" get heap user:2) ))" "$brk"

# A page of the break counts while any byte below the break is in it, as in
# massif: a break moved down into the middle of a page keeps that page.
record_ok brk_partial --pages-as-heap=yes "$PROGS/brk_partial"
ask "$profile" "bytes grow_brk user:"{1,2,3,4}
for at in 1:12288 2:12288 3:8192 4:0; do
   expect_eq "brk_partial: grow_brk at user ${at%:*}" \
      "$(answer "$profile" bytes grow_brk "user:${at%:*}")" "${at#*:}"
done

record_ok nopages "$PROGS/pages"
ask "$profile" "get opt:pages_as_heap" "bytes map_pages user:1"
expect_eq "header opt pages_as_heap" "$(answer "$profile" get opt:pages_as_heap)" no
expect_eq "without --pages-as-heap, mmap is not heap" "$(answer "$profile" bytes map_pages user:1)" 0
finish
