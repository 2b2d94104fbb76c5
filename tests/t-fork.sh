#!/bin/bash
# fork: parent and child each write their own profile.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok fork --heap-admin=0 "$PROGS/forker" "$WORK/pids"
read -r parent child <"$WORK/pids" || fail "forker wrote no pids"
expect_eq "profiles written" "${#profiles[@]}" 2
pp=$WORK/fork.$parent
cp=$WORK/fork.$child
ask "$pp" "get header:"{pid,cmd} "bytes "{parent_alloc,child_alloc,before_fork} "get heap final"
ask "$cp" "get header:"{pid,ppid,cmd} "bytes child_alloc user:1" \
   "bytes "{child_alloc,parent_alloc,before_fork} "get heap final"
expect "the parent's profile is fork.PARENT_PID" test -f "$pp"
expect "the child's profile is fork.CHILD_PID" test -f "$cp"
expect_eq "parent: header pid" "$(answer "$pp" get header:pid)" "$parent"
expect_eq "parent: parent_alloc at the end" "$(answer "$pp" bytes parent_alloc)" 10080
expect_eq "parent: child_alloc at the end" "$(answer "$pp" bytes child_alloc)" 0
expect_eq "parent: before_fork at the end" "$(answer "$pp" bytes before_fork)" 512
expect_eq "parent: final heap" "$(answer "$pp" get heap final)" 10592
expect_eq "child: header pid" "$(answer "$cp" get header:pid)" "$child"
expect_eq "child: header ppid" "$(answer "$cp" get header:ppid)" "$parent"
expect_eq "child: header cmd" "$(answer "$cp" get header:cmd)" "$(answer "$pp" get header:cmd)"
expect_eq "child: child_alloc at user 1" "$(answer "$cp" bytes child_alloc user:1)" 6000
expect_eq "child: child_alloc at the end" "$(answer "$cp" bytes child_alloc)" 6000
expect_eq "child: parent_alloc at the end" "$(answer "$cp" bytes parent_alloc)" 0
expect_eq "child: the inherited block of before_fork" "$(answer "$cp" bytes before_fork)" 512
expect_eq "child: final heap" "$(answer "$cp" get heap final)" 6512
finish
