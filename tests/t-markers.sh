#!/bin/bash
# STRATA_MARK and STRATA_SNAPSHOT: M records and user snapshots in order;
# outside the tool they do nothing.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok markers --time-unit=B --heap-admin=0 "$PROGS/markers"
p=$profile
ask "$p" markers "bytes first_alloc user:1" "bytes second_alloc user:2" "get time "{user:1,user:2} \
   "get end"
printf '%s\n' begin "tab	and back\\slash" end >"$WORK/labels.exp"
answer "$p" markers | cut -f2- >"$WORK/labels.out"
expect_same "the three labels, in order, unescaped" "$WORK/labels.exp" "$WORK/labels.out"
expect_in "the TAB and the backslash are escaped in the file" "$p" '^M	[0-9]+	tab\\tand back\\\\slash$'
# In file order: M begin, T user, M tab..., T user, M end.
grep -E '^(M|T	user)	' "$p" | cut -f1 | tr '\n' ' ' >"$WORK/order"
expect_eq "order of markers and user snapshots" "$(cat "$WORK/order")" "M T M T M "
expect_eq "user 1: first_alloc" "$(answer "$p" bytes first_alloc user:1)" 1008
expect_eq "user 2: second_alloc" "$(answer "$p" bytes second_alloc user:2)" 1008
t1=$(answer "$p" get time user:1)
t2=$(answer "$p" get time user:2)
expect_eq "bytes between the user snapshots (time unit B)" "$((t2 - t1))" 1008
m2=$(answer "$p" markers | sed -n 2p | cut -f1)
expect_eq "the middle marker's time is user 1's" "$m2" "$t1"
expect_eq "the end marker's time is user 2's" "$(answer "$p" markers | sed -n 3p | cut -f1)" "$t2"
expect_eq "X time: the two frees after user 2" "$(( $(answer "$p" get end) - t2 ))" 2016

"$PROGS/markers" >"$WORK/native.out" 2>&1
expect_eq "run natively, the program exits 0" "$?" 0
expect_eq "run natively, it prints nothing" "$(cat "$WORK/native.out")" ""

# Labels the program cannot read (issue 32, 2: a dangling one killed the
# run): no marker for each, one line on stderr for the first, and the run
# goes on; a label that ends where its page does, or that is cut at 255
# bytes before an unreadable one, is read.
record_valgrind bad-labels --stats=yes "$PROGS/bad_labels"
expect_eq "bad labels: exit status" "$status" 0
ask "$profile" markers "get end"
{ echo before; echo edge; printf 'x%.0s' $(seq 255); echo; echo after; } >"$WORK/bad-labels.exp"
answer "$profile" markers | cut -f2- >"$WORK/bad-labels.out"
expect_same "bad labels: the markers of the labels that can be read, in order" \
   "$WORK/bad-labels.exp" "$WORK/bad-labels.out"
expect_eq "bad labels: the profile has its end" \
   "$([ "$(answer "$profile" get end)" != none ] && echo yes)" yes
expect_eq "bad labels: one warning, naming the request" \
   "$(grep -c 'STRATA_MARK with a label at 0x[0-9A-Fa-f]* that cannot be read: no marker' \
      "$WORK/bad-labels.stderr")" 1
expect_in "bad labels: --stats=yes counts the 5" "$WORK/bad-labels.stderr" \
   'markers not made: *5 '
"$PROGS/bad_labels" >"$WORK/native-bad.out" 2>&1
expect_eq "bad labels, run natively: exit status 0" "$?" 0
finish
