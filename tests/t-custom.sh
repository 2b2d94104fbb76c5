#!/bin/bash
# Custom allocators: VALGRIND_MALLOCLIKE_BLOCK, RESIZEINPLACE_BLOCK, FREELIKE_BLOCK.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok custom --heap-admin=0 "$PROGS/custom_alloc"
p=$profile
ask "$p" "bytes pool_create user:1" "bytes make_node "{user:1,user:4} "blocks make_node user:1" \
   "bytes "{make_table,resize_table}" "{user:2,user:3,user:4} "bytes make_table user:1" \
   "get heap "{user:1,user:2,user:3,user:4,final} "get extra user:1"
expect_eq "pool_create at user 1" "$(answer "$p" bytes pool_create user:1)" 65536
expect_eq "make_node at user 1" "$(answer "$p" bytes make_node user:1)" 608
expect_eq "make_node blocks at user 1" "$(answer "$p" blocks make_node user:1)" 2
expect_eq "make_table at user 1" "$(answer "$p" bytes make_table user:1)" 1200
expect_eq "heap at user 1" "$(answer "$p" get heap user:1)" 67344
# A resized block may stay with its site or move to the resize's (as
# massif's realloc does): together they hold the new size.
table() {
   echo $(( $(answer "$p" bytes make_table "$1") + $(answer "$p" bytes resize_table "$1") ))
}
expect_eq "the table at user 2 (shrunk in place)" "$(table user:2)" 800
expect_eq "heap at user 2" "$(answer "$p" get heap user:2)" 66944
expect_eq "the table at user 3 (grown in place)" "$(table user:3)" 2000
expect_eq "heap at user 3" "$(answer "$p" get heap user:3)" 68144
expect_eq "make_node at user 4 (one freed)" "$(answer "$p" bytes make_node user:4)" 304
expect_eq "the table at user 4 (freed)" "$(table user:4)" 0
expect_eq "heap at user 4" "$(answer "$p" get heap user:4)" 65840
expect_eq "final heap" "$(answer "$p" get heap final)" 0

# with --heap-admin=16, each custom block has its admin bytes too
record_ok custom16 --heap-admin=16 "$PROGS/custom_alloc"
expect_eq "extra at user 1: --heap-admin=16 minus 0, 4 blocks" \
   "$(( $(q get "$profile" extra user:1) - $(answer "$p" get extra user:1) ))" 64
finish
