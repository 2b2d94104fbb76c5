#!/bin/bash
# The samples of the output in massif/'s comments are real: each of their
# records has the fields the tool writes for its type, and the main one has
# the header lines of a profile recorded with the default options and a
# record of every type such a profile holds.  A sample begins after a
# comment line holding "Sample of" and ends with the comment; its records
# are its lines indented by 6 spaces or more, '...' marking lines left out,
# with fields two spaces or more apart.  A line that
# looks like a record anywhere else in a comment is an error, so that no
# sample escapes the check.  (The F sample once showed 8 fields when the
# writer wrote 9.)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# A profile with the default options, of the program of the main sample.
record_ok player "$EXAMPLES/leaky-player" --cycles 1
default=$profile

# A profile that stopped (a Q record): on a full disk, a tmpfs of 32 KiB in
# a mount namespace of the test's own (root only; without it, the Q sample
# is checked against the grammar's 3 fields alone).
stopped=
disk=$WORK/disk
mkdir -p "$disk" "$WORK/kept"
unshare -m sh -c 'mount -t tmpfs -o size=32k tmpfs "$0" || exit 99
   "$@"; cp "$0"/full.* "$0/../kept/"' "$disk" \
   "$STRATA" record -o "$disk/full.%p" "$PROGS/edge_sizes" >/dev/null 2>&1
stopped=$(ls "$WORK"/kept/full.* 2>/dev/null | head -1)
if [ -n "$stopped" ]; then
   expect_in "the profile on a full disk ends with Q" <(tail -1 "$stopped") '^Q'$'\t'
else
   echo "note: no full disk here (not root?): Q checked against 3 fields"
fi

checks=$((checks + 1))
if out=$(run_py samples_check "$top_srcdir/massif" "$default" "$stopped" 2>&1); then
   pass "the samples in massif/ agree with the tool's profiles"
   echo "$out" | sed 's/^/   | /'
else
   fail "the samples in massif/ disagree with the tool's profiles:"
   echo "$out" | sed 's/^/   | /'
fi
finish
