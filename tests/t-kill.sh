#!/bin/bash
# SIGKILL: the profile is readable up to its last complete snapshot.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

steps=5
out=$WORK/killed
(cd "$WORK" && exec "$STRATA" record ${RECORD_ARGS[@]+"${RECORD_ARGS[@]}"} -o "$out" "$PROGS/blocker" $steps) \
   >"$WORK/record.stdout" 2>"$WORK/record.stderr" &
launcher=$!
expect_eq "user snapshots written before the kill" "$(user_snapshots "$out" $steps)" $steps
kill_recorded "$out" "$launcher"
expect "record fails when the program is killed" test "$launcher_status" -ne 0
check_profile "$out" --truncated-ok
ask "$out" "get end" "get count:"{user,all} "bytes step_alloc last" "get heap last"
expect_eq "no X after SIGKILL" "$(answer "$out" get end)" none
expect_eq "user snapshots" "$(answer "$out" get count:user)" $steps
expect_eq "step_alloc at the last complete snapshot" "$(answer "$out" bytes step_alloc last)" $((steps * 1008))
"$STRATA" report --json "$out" >"$WORK/report.json" 2>"$WORK/report.stderr"
expect_eq "strata report --json reads the killed profile" "$?" 0
expect_eq "report: final heap is the last complete snapshot's" \
   "$(json "$WORK/report.json" final.heap_bytes)" "$(answer "$out" get heap last)"

# The same once the program has had a thread of its own (natively, the
# writer thread writes the profile then: a user snapshot is handed to it at
# once, and what it wrote before the kill is read).
out=$WORK/killed-threaded
(cd "$WORK" && exec "$STRATA" record ${RECORD_ARGS[@]+"${RECORD_ARGS[@]}"} -o "$out" "$PROGS/blocker" $steps threaded) \
   >"$WORK/record-threaded.stdout" 2>"$WORK/record-threaded.stderr" &
launcher=$!
expect_eq "threaded: user snapshots written before the kill" "$(user_snapshots "$out" $steps)" $steps
kill_recorded "$out" "$launcher"
check_profile "$out" --truncated-ok
expect_eq "threaded: step_alloc at the last complete snapshot" \
   "$(q bytes "$out" step_alloc last)" $((steps * 1008))
out=$WORK/killed

# An unfinished snapshot after the last E is ignored by readers.
cp "$out" "$WORK/cut"
printf 'T\tregular\t999999999\t1\t0\t0\ns\t1\t1\t1\t0\t1\n' >>"$WORK/cut"
check_profile "$WORK/cut" --truncated-ok
expect_eq "cut: snapshots as before" "$(q get "$WORK/cut" count:all)" "$(answer "$out" get count:all)"
"$STRATA" report --json "$WORK/cut" >"$WORK/cut.json" 2>"$WORK/cut.stderr"
expect_eq "strata report --json reads a profile cut inside a snapshot" "$?" 0
expect_eq "report of the cut profile: the same final heap" \
   "$(json "$WORK/cut.json" final.heap_bytes)" "$(answer "$out" get heap last)"
finish
