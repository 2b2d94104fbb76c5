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
# A supervisor builds a pool, runs /bin/true by posix_spawn, forks its worker
# and waits on it.  Its profile records the fork (a K record), not the spawn
# (a clone with CLONE_VFORK, whose child only execs), under Valgrind and
# natively alike; the pool, built before the fork, is what the worker
# inherits: no finding of the supervisor's, and the report says why.  The
# worker's own leak is found in its profile.
for mode in vg nat; do
   args=(--heap-admin=0)
   # (natively, tests/t-native-suite.sh, RECORD_ARGS already holds --native)
   [ "$mode" = nat ] && [ "$RECORDER" != native ] && args+=(--native)
   record_ok "sup-$mode" "${args[@]}" "$PROGS/supervisor" "$WORK/sup-$mode.pids" || continue
   read -r parent child <"$WORK/sup-$mode.pids" || { fail "$mode: supervisor wrote no pids"; continue; }
   sp=$WORK/sup-$mode.$parent
   sc=$WORK/sup-$mode.$child
   ask "$sp" forks
   ask "$sc" forks
   expect_eq "$mode: the supervisor's forks" "$(answer "$sp" forks | wc -l)" 1
   expect_eq "$mode: the worker's forks" "$(answer "$sc" forks | grep -c .)" 0
   "$STRATA" report "$sp" >"$WORK/sup-$mode.txt"
   "$STRATA" report --json "$sp" >"$WORK/sup-$mode.json"
   "$STRATA" report "$sc" >"$WORK/sup-$mode-child.txt"
   expect_text "$mode: the supervisor's report counts its fork" "$WORK/sup-$mode.txt" ", 1 fork)"
   expect_eq "$mode: the supervisor's leaks" "$(json "$WORK/sup-$mode.json" leaks)" "[]"
   expect_eq "$mode: the supervisor's forks (JSON)" "$(json "$WORK/sup-$mode.json" forks)" 1
   expect_eq "$mode: why its pool is no finding" \
      "$("$PYTHON" -c 'import json, sys; print(" ".join(p["headline"]["function"] + ":" + p["reason"] for p in json.load(open(sys.argv[1]))["passed_over"] if p["reason"] == "forked"))' "$WORK/sup-$mode.json")" \
      "pool_value:forked"
   expect_text "$mode: the words name the fork" "$WORK/sup-$mode.txt" "born before the process first"
   "$STRATA" plot "$sp" -o "$WORK/sup-$mode.svg"
   expect_eq "$mode: the graph marks the fork" "$(grep -c '<text>fork</text>' "$WORK/sup-$mode.svg")" 1
   "$STRATA" convert --to=massif "$sp" -o "$WORK/sup-$mode.massif"
   expect_text "$mode: massif.out says it dropped the forks" "$WORK/sup-$mode.massif" \
      "--strata-convert-dropped=interval-lows,markers,forks"
   expect_in "$mode: the worker's leak is found" "$WORK/sup-$mode-child.txt" "^#1 (Growth|Leak) at reject_reply "
done

finish
