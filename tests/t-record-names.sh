#!/bin/bash
# Whose profile goes where (defects 2 and 3 of the hostile round).  -o FILE
# without %p: the first process writes FILE, a forked child FILE.PID (its
# own pid), what the child execs FILE.PID.execN; none writes into another's
# file (parent and child once wrote into the same one), and strata record
# names every file written.  A child that cannot create its profile (its
# program gave up root, or the directory became read-only) runs on without
# one; strata record says so and exits 1.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# forker: the parent and a child, both with blocks of their own.
rm -f "$WORK"/same*
(cd "$WORK" && exec "$STRATA" record "${RECORD_ARGS[@]}" -o "$WORK/same" --heap-admin=0 "$PROGS/forker" "$WORK/pids") \
   >"$WORK/same.stdout" 2>"$WORK/same.stderr"
expect_eq "no %p: exit status" "$?" 0
read -r parent child <"$WORK/pids" || fail "forker wrote no pids"
expect_eq "no %p: two files, FILE and FILE.CHILD" "$(cd "$WORK" && ls same same.* 2>&1 | grep -v std)" \
   "$(printf 'same\nsame.%s' "$child")"
check_profile "$WORK/same"
check_profile "$WORK/same.$child"
expect_eq "FILE is the parent's" "$(q get "$WORK/same" header:pid)" "$parent"
expect_eq "FILE.CHILD is the child's" "$(q get "$WORK/same.$child" header:pid)" "$child"
expect_eq "the parent's blocks" "$(q bytes "$WORK/same" parent_alloc)" 10080
expect_eq "the child's blocks" "$(q bytes "$WORK/same.$child" child_alloc)" 6000
expect_eq "no child block in the parent's" "$(q bytes "$WORK/same" child_alloc)" 0
"$STRATA" report "$WORK/same" >/dev/null 2>&1
expect_eq "strata report reads the parent's" "$?" 0
expect_in "strata record names both" "$WORK/same.stderr" \
   "^strata record: 2 profiles written: $WORK/same $WORK/same\.$child\$"

# fork + exec, traced: FILE, FILE.CHILD, FILE.CHILD.exec1.
rm -f "$WORK"/fe*
(cd "$WORK" && exec "$STRATA" record "${RECORD_ARGS[@]}" -o "$WORK/fe" --heap-admin=0 --trace-children=yes \
   "$PROGS/fork_exec" "$PROGS/exec_child") >"$WORK/fe.stdout" 2>"$WORK/fe.stderr"
expect_eq "fork and exec, no %p: exit status" "$?" 0
forked=$(ls "$WORK" | grep -E '^fe\.[0-9]+$')
expect_eq "three files" "$(ls "$WORK" | grep -E '^fe(\.|$)' | grep -vc std)" 3
expect "the forked child's, before its exec" test -n "$forked" -a -f "$WORK/$forked.exec1"
for f in "$WORK/fe" "$WORK/$forked" "$WORK/$forked.exec1"; do check_profile "$f"; done
expect_eq "the program the child became" "$(q bytes "$WORK/$forked.exec1" exec_child_alloc user:1)" 7008
expect_eq "the parent's is the first process's" "$(q get "$WORK/fe" header:pid)" \
   "$(q get "$WORK/$forked" header:ppid)"
expect_in "strata record names all three" "$WORK/fe.stderr" \
   "^strata record: 3 profiles written: $WORK/fe $WORK/$forked $WORK/$forked\.exec1\$"

# A child that cannot create its profile.
mkdir -p "$WORK/dir"
(cd "$WORK" && exec "$STRATA" record "${RECORD_ARGS[@]}" -o "$WORK/dir/drop.%p" "$PROGS/drop_fork" "$WORK/dir" \
   "$WORK/child-status") >"$WORK/drop.stdout" 2>"$WORK/drop.stderr"
expect_eq "a profile not created: strata record exits 1" "$?" 1
expect_eq "the child ran on and exited as it would" "$(cat "$WORK/child-status")" 7
expect_in "the tool says the child runs on without a profile" "$WORK/drop.stderr" \
   "^(==[0-9]+== )?strata: cannot create the profile file '$WORK/dir/drop\.[0-9]+': Permission denied; process [0-9]+ runs on without a profile\$"
expect_in "strata record says which profile could not be created, and why" "$WORK/drop.stderr" \
   "^strata record: the profile of process [0-9]+ could not be created: $WORK/dir/drop\.[0-9]+: Permission denied\$"
expect_eq "one profile: the parent's" "$(ls "$WORK/dir" | grep -c '^drop\.')" 1
check_profile "$WORK/dir/$(ls "$WORK/dir" | grep '^drop\.')"
expect_not "no word of a heap not recorded: the child had one" \
   grep -q "no heap allocation" "$WORK/drop.stderr"
expect_in "strata record names the one written" "$WORK/drop.stderr" \
   "^strata record: profile written to $WORK/dir/drop\.[0-9]+\$"
finish
