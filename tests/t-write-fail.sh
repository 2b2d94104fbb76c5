#!/bin/bash
# The profile cannot be written in full (issue 10, defect 9): the disk fills
# up mid-run.  The profile must say why it stops (a Q record, in the room
# kept for it), strata record must say that it is incomplete and why, and
# exit 1 although the program exited 0; strata report must give the reason
# instead of guessing that the program was killed.  With /dev/full as the
# file, the program must run on.  A full disk needs a small file system:
# a tmpfs mounted in a mount namespace of the test's own (root only).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# in_small_disk COMMAND...: runs COMMAND with a 32 KiB tmpfs on $WORK/disk
# (16 KiB natively, where the profile is smaller: no instruction time), then
# copies what it holds to $WORK/kept/; its exit status is COMMAND's.
disk=$WORK/disk
mkdir -p "$disk" "$WORK/kept"
size=32k
[ "$RECORDER" = native ] && size=16k
in_small_disk() {
   SIZE=$size unshare -m sh -c 'mount -t tmpfs -o size=$SIZE tmpfs "$0" || exit 99
      cd "$0/.." && "$@"; status=$?; cp "$0"/* kept/; exit $status' "$disk" "$@"
}

in_small_disk "$STRATA" record "${RECORD_ARGS[@]}" -o "$disk/full.%p" "$PROGS/edge_sizes" \
   >"$WORK/full.stdout" 2>"$WORK/full.stderr"
status=$?
p=$(ls "$WORK"/kept/full.[0-9]* 2>/dev/null | head -1)
if [ -n "$p" ]; then
   expect_eq "strata record exits 1: the program exited 0, its profile is incomplete" \
      "$status" 1
   expect_eq "the program ran to its end" "$(wc -w <"$WORK/full.stdout")" 2
   expect_in "the tool says output stopped, and why" "$WORK/full.stderr" \
      "strata: output stopped: the disk is full \(ENOSPC\); the profile ends at its last complete snapshot and says why"
   expect_in "strata record says the profile is incomplete, and why" "$WORK/full.stderr" \
      "^strata record: .*/full\.[0-9]+ is incomplete: strata stopped writing it: the disk is full \(ENOSPC\)$"
   check_profile "$p" --truncated-ok
   expect_eq "the profile's Q record says why it stops" "$(q get "$p" stopped)" \
      "the disk is full (ENOSPC)"
   "$STRATA" report "$p" >"$WORK/report" 2>"$WORK/report.stderr"
   expect_eq "strata report reads it" "$?" 0
   expect_in "strata report gives the reason" "$WORK/report" \
      "^end: +cut short, strata stopped writing it: the disk is full \(ENOSPC\); the last complete snapshot"
   expect_in "its warning too, not a guess" "$WORK/report.stderr" \
      "profile ends early \(strata stopped writing it: the disk is full \(ENOSPC\)\)"
   "$STRATA" report --json "$p" >"$WORK/report.json" 2>/dev/null
   expect_eq "JSON: stopped" "$(json "$WORK/report.json" stopped)" "the disk is full (ENOSPC)"
   expect_eq "JSON: not complete" "$(json "$WORK/report.json" complete)" False
else
   echo "skipped the full disk: no tmpfs can be mounted here (unshare -m and mount need root)"
fi

# /dev/full: every write fails; the program runs on and exits as it would.
(cd "$WORK" && exec "$STRATA" record "${RECORD_ARGS[@]}" -o /dev/full "$PROGS/malloc_basic") \
   >"$WORK/devfull.stdout" 2>"$WORK/devfull.stderr"
expect_eq "/dev/full: the program's exit status" "$?" 0
expect_in "/dev/full: the tool says output stopped" "$WORK/devfull.stderr" \
   "strata: output stopped: the disk is full \(ENOSPC\)"
expect_in "/dev/full: strata record says it cannot check it" "$WORK/devfull.stderr" \
   "^strata record: the profile went to /dev/full, which is not a regular file: it is not checked$"
finish
