#!/bin/bash
# Threads: every thread's allocations are counted.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok threads --heap-admin=0 "$PROGS/threads"
p=$profile
ask "$p" "bytes thread_alloc "{user:1,user:2,final} "blocks thread_alloc user:1" \
   "bytes thread_churn user:1"
expect_eq "thread_alloc at user 1" "$(answer "$p" bytes thread_alloc user:1)" 10080
expect_eq "thread_alloc blocks at user 1" "$(answer "$p" blocks thread_alloc user:1)" 10
expect_eq "thread_churn at user 1" "$(answer "$p" bytes thread_churn user:1)" 0
expect_eq "thread_alloc at user 2" "$(answer "$p" bytes thread_alloc user:2)" 0
expect_eq "thread_alloc at the end" "$(answer "$p" bytes thread_alloc final)" 0
finish
