#!/bin/bash
# Many processes and threads (issue 10, the fault table): 50 children alive
# at once, each with a complete profile of its own; 200 threads alive at
# once, each block counted.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok forks --heap-admin=0 "$PROGS/many_forks"
expect_eq "a profile for the parent and each of 50 children" "${#profiles[@]}" 51
parent=$profile
ask "$parent" "get header:pid" "bytes parent_alloc user:1"
parent_pid=$(answer "$parent" get header:pid)
expect_eq "the parent's profile is named first" "$(basename "$parent")" "forks.$parent_pid"
expect_eq "the parent: parent_alloc at its user snapshot" "$(answer "$parent" bytes parent_alloc user:1)" 1000
expect_in "strata record lists them all" "$WORK/forks.stderr" "^strata record: 51 profiles written: "
: >"$WORK/children"
for f in "${profiles[@]}"; do
   [ "$f" = "$parent" ] && continue
   ask "$f" "get header:ppid" "bytes child_alloc user:1"
   echo "$(answer "$f" get header:ppid) $(answer "$f" bytes child_alloc user:1)" >>"$WORK/children"
done
expect_eq "each child: its parent's pid, and its own bytes" "$(sort -n -k2 "$WORK/children")" \
   "$(for i in $(seq 50); do echo "$parent_pid $((i * 100))"; done)"

record_ok threads --heap-admin=0 "$PROGS/many_threads"
ask "$profile" "bytes thread_alloc "{user:1,user:2} "blocks thread_alloc user:1"
expect_eq "200 threads: thread_alloc at user 1" "$(answer "$profile" bytes thread_alloc user:1)" 20000
expect_eq "200 threads: its blocks" "$(answer "$profile" blocks thread_alloc user:1)" 200
expect_eq "200 threads: all freed at user 2" "$(answer "$profile" bytes thread_alloc user:2)" 0
finish
