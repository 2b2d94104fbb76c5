#!/bin/bash
# fork: parent and child each write their own profile.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok fork --heap-admin=0 "$PROGS/forker" "$WORK/pids"
read -r parent child <"$WORK/pids" || fail "forker wrote no pids"
expect_eq "profiles written" "${#profiles[@]}" 2
pp=$WORK/fork.$parent
cp=$WORK/fork.$child
expect "the parent's profile is fork.PARENT_PID" test -f "$pp"
expect "the child's profile is fork.CHILD_PID" test -f "$cp"
expect_eq "parent: header pid" "$(q get "$pp" header:pid)" "$parent"
expect_eq "parent: parent_alloc at the end" "$(q bytes "$pp" parent_alloc)" 10080
expect_eq "parent: child_alloc at the end" "$(q bytes "$pp" child_alloc)" 0
expect_eq "parent: before_fork at the end" "$(q bytes "$pp" before_fork)" 512
expect_eq "parent: final heap" "$(q get "$pp" heap final)" 10592
expect_eq "child: header pid" "$(q get "$cp" header:pid)" "$child"
expect_eq "child: header ppid" "$(q get "$cp" header:ppid)" "$parent"
expect_eq "child: header cmd" "$(q get "$cp" header:cmd)" "$(q get "$pp" header:cmd)"
expect_eq "child: child_alloc at user 1" "$(q bytes "$cp" child_alloc user:1)" 6000
expect_eq "child: child_alloc at the end" "$(q bytes "$cp" child_alloc)" 6000
expect_eq "child: parent_alloc at the end" "$(q bytes "$cp" parent_alloc)" 0
expect_eq "child: the inherited block of before_fork" "$(q bytes "$cp" before_fork)" 512
expect_eq "child: final heap" "$(q get "$cp" heap final)" 6512
finish
