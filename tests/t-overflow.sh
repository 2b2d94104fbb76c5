#!/bin/bash
# Writes past the end of a block that run natively without harm (glibc's
# slack) must not reach strata's bookkeeping (issue 32, 1): the chunks'
# records are in the tool's memory, so tests/programs/overflow, which writes
# one NUL past 1000 blocks of 16 bytes and 16 bytes past 1000 blocks of 8,
# each onto the block after, runs to its end with every byte at its site.
# Its frees of addresses that are no live block (a double free, a pointer
# into a block after a copy of the 16 bytes in front of a live one, the
# bytes in front of a block, the middle of a big block, the stack) are
# counted and ignored, the tables checked at --sanity-level=3.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok overflow --time-unit=B --heap-admin=0 "$PROGS/overflow"
p=$profile
expect_eq "the program ran to its end" "$(cat "$WORK/overflow.stdout")" "total 16000"
ask "$p" "bytes "{keep_block,dup_bad,small_block}" user:"{1,2} \
   "blocks "{keep_block,dup_bad,small_block}" user:1" "get end"
for f in keep_block dup_bad; do
   expect_eq "$f at user 1: its 1000 blocks of 16 bytes" "$(answer "$p" bytes $f user:1)" 16000
   expect_eq "$f at user 1: blocks" "$(answer "$p" blocks $f user:1)" 1000
done
expect_eq "small_block at user 1: its 1000 blocks of 8 bytes" \
   "$(answer "$p" bytes small_block user:1)" 8000
expect_eq "small_block at user 1: blocks" "$(answer "$p" blocks small_block user:1)" 1000
for f in keep_block dup_bad small_block; do
   expect_eq "$f at user 2: all freed" "$(answer "$p" bytes $f user:2)" 0
done
expect_eq "the profile has its end" "$([ "$(answer "$p" get end)" != none ] && echo yes)" yes

record_valgrind bad-frees --time-unit=B --heap-admin=0 --stats=yes --sanity-level=3 \
   "$PROGS/overflow" bad-frees
expect_eq "bad-frees: exit status" "$status" 0
expect_eq "bad-frees: the program ran to its end" "$(cat "$WORK/bad-frees.stdout")" "total 16000"
expect_in "bad-frees: the 5 frees of no block are counted" "$WORK/bad-frees.stderr" \
   'frees of no block: *5$'
expect_in "bad-frees: the expensive sanity checks ran" "$WORK/bad-frees.stderr" \
   'sanity checks: *[0-9,]+ cheap, [1-9][0-9,]* expensive'
ask "$profile" "get heap final" "get blocks final"
expect_eq "bad-frees: every block freed, none twice" "$(answer "$profile" get blocks final)" 0
expect_eq "bad-frees: final heap" "$(answer "$profile" get heap final)" 0
finish
