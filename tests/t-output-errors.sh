#!/bin/bash
# Where results go (defects 4 and 5 of the hostile round).  Every write to
# standard output is checked: /dev/full, a closed descriptor or a full disk
# is an error naming standard output, exit status 1, for every command (they
# exited 0, and convert -o - left 64 KiB of 1.5 MB on a full disk).  strata
# convert checks its options and the profile before it touches OUT, and
# replaces OUT whole: a failure never leaves it emptied or half-written.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

data=$top_srcdir/tests/data
cp "$data/prog.massif" "$WORK/a.massif"
cp "$data/prog-detailed.massif" "$WORK/b.massif"

# full NAME ARGS...: strata ARGS > /dev/full must fail, naming standard output.
full() {
   local name=$1
   shift
   "$STRATA" "$@" >/dev/full 2>"$WORK/$name.err"
   expect_eq "$name > /dev/full: exit status" "$?" 1
   expect_in "$name > /dev/full: says so" "$WORK/$name.err" \
      "^strata( [a-z]+)?: standard output: cannot write: No space left on device\$"
}
full report report "$WORK/a.massif"
full report-json report --json "$WORK/a.massif"
full report-tree report --tree "$WORK/a.massif"
full gate report --fail-on=any "$WORK/a.massif"
full diff diff "$WORK/a.massif" "$WORK/b.massif"
full diff-json diff --json "$WORK/a.massif" "$WORK/b.massif"
full convert-collapsed convert --to=collapsed "$WORK/a.massif" -o -
full convert-massif convert --to=massif "$WORK/a.massif" -o -
full help --help
full report-help report --help
full version report --version
if command -v gnuplot >/dev/null; then
   full plot plot "$WORK/a.massif" -o -
fi
"$STRATA" report "$WORK/a.massif" >&- 2>"$WORK/closed.err"
expect_eq "stdout closed: exit status" "$?" 1
expect_in "stdout closed: says so" "$WORK/closed.err" \
   "^strata report: standard output: cannot write: Bad file descriptor\$"
"$STRATA" report "$WORK/a.massif" >"$WORK/fine.out" 2>"$WORK/fine.err"
expect_eq "a writable stdout: exit status 0" "$?" 0
expect_eq "a writable stdout: nothing on stderr" "$(cat "$WORK/fine.err")" ""

# strata convert and OUT: every failure leaves OUT as it was.
printf 'strata-profile\t2\ncmd\tx\npid\t1\nppid\t0\ntime_unit\ti\nX\t5\n' >"$WORK/empty.strata"
keeps() {
   local what=$1
   shift
   printf 'keep\n' >"$WORK/out"
   "$STRATA" convert "$@" -o "$WORK/out" 2>"$WORK/keeps.err"
   expect_eq "$what: exit status" "$?" 1
   expect_eq "$what: OUT is as it was" "$(cat "$WORK/out")" keep
   expect_eq "$what: one line on stderr" "$(wc -l <"$WORK/keeps.err")" 1
}
keeps "--threshold=200" --to=massif --threshold=200 "$WORK/a.massif"
keeps "--threshold=200, collapsed" --to=collapsed --threshold=200 "$WORK/a.massif"
keeps "--at=xyz" --to=collapsed --at=xyz "$WORK/a.massif"
keeps "--at with --to=massif" --to=massif --at=5 "$WORK/a.massif"
keeps "--leaks with --to=massif" --to=massif --leaks "$WORK/a.massif"
keeps "--at with --leaks" --to=collapsed --at=5 --leaks "$WORK/a.massif"
keeps "a profile with no snapshot, collapsed" --to=collapsed "$WORK/empty.strata"
keeps "a profile with no snapshot, massif" --to=massif "$WORK/empty.strata"
keeps "no such profile" --to=massif "$WORK/none"
expect_eq "no temporary file left beside OUT" "$(ls -A "$WORK" | grep -c strata-)" 0

printf 'keep\n' >"$WORK/out"
chmod 640 "$WORK/out"
ln -sf out "$WORK/link"
"$STRATA" convert --to=collapsed "$WORK/a.massif" -o "$WORK/link"
expect_eq "a good conversion: exit status" "$?" 0
expect "the link is still a link" test -L "$WORK/link"
expect_eq "the file it names is replaced" "$(head -c 4 "$WORK/out")" "$(
   "$STRATA" convert --to=collapsed "$WORK/a.massif" -o - | head -c 4)"
expect_eq "with its mode" "$(stat -c %a "$WORK/out")" 640
rm -f "$WORK/new"
(umask 027 && "$STRATA" convert --to=massif "$WORK/a.massif" -o "$WORK/new")
expect_eq "a new OUT: the mode the umask gives" "$(stat -c %a "$WORK/new")" 640
"$STRATA" convert --to=massif "$WORK/a.massif" -o /dev/null
expect_eq "OUT a device: written, not replaced" "$?" 0

# A full disk: a 32 KiB tmpfs in a mount namespace of the test's own (root),
# OUT in it ($OUT, "out" unless given) holding "keep".
disk=$WORK/disk
mkdir -p "$disk"
in_small_disk() {
   OUT=${OUT:-out} unshare -m sh -c 'mount -t tmpfs -o size=32k tmpfs "$0" || exit 99
      printf "keep\n" >"$0/$OUT"; "$@" 2>"$0/../disk.err"; status=$?
      cat "$0/$OUT" >"$0/../disk.out.kept"; ls -A "$0" >"$0/../disk.ls"; exit $status' "$disk" "$@"
}
if in_small_disk true 2>/dev/null; then
   in_small_disk sh -c "exec '$STRATA' convert --to=massif --threshold=0 --detailed-freq=1 '$data/ls.massif' -o - >'$disk/stdout'"
   expect_eq "a full disk, convert -o -: exit status" "$?" 1
   expect_in "a full disk, convert -o -: says so" "$WORK/disk.err" \
      "^strata convert: standard output: cannot write: No space left on device\$"
   in_small_disk "$STRATA" convert --to=massif --threshold=0 --detailed-freq=1 "$data/ls.massif" -o "$disk/out"
   expect_eq "a full disk, convert -o OUT: exit status" "$?" 1
   expect_in "a full disk, convert -o OUT: names OUT, and why" "$WORK/disk.err" \
      "^strata: $disk/out: cannot write: No space left on device\$"
   expect_eq "a full disk: OUT is as it was" "$(cat "$WORK/disk.out.kept")" keep
   expect_eq "a full disk: no temporary file left" "$(cat "$WORK/disk.ls")" out
   # strata plot -o OUT: the picture gnuplot drew elsewhere is written as
   # convert's OUT is (it was copied over OUT, truncated first: a good graph
   # became the first 16 KiB of another, "cannot write: Input/output error").
   # 40 sites over 1,000 snapshots: each picture is more than the disk holds.
   "$PYTHON" - "$WORK/big.strata" <<'PY'
import sys
out = ["strata-profile\t3", "cmd\t./big", "pid\t2", "ppid\t1", "time_unit\tB"]
for i in range(1, 41):
    out += ["F\t%d\t0x%x\t0\tfunction_with_a_long_name_%d\tfile%d.c\t%d\t/obj\t0x%x" % (i, 4096 + i, i, i, i, 4096 + i),
            "S\t%d\t%d" % (i, i)]
for t in range(1, 1001):
    out += ["T\tregular\t%d\t%d\t0\t0" % (t * 100, t * 40), "s\t%d\t%d\t1\t0\t%d" % (t % 40 + 1, t * 40, t * 40), "E"]
out.append("X\t100000")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
   for out in graph.svg graph.png graph.pdf graph.html; do
      if [ "$out" != graph.html ] && ! command -v gnuplot >/dev/null; then continue; fi
      OUT=$out in_small_disk "$STRATA" plot "$WORK/big.strata" -o "$disk/$out"
      expect_eq "a full disk, plot -o $out: exit status" "$?" 1
      expect_in "a full disk, plot -o $out: names OUT, and why" "$WORK/disk.err" \
         "^strata: $disk/$out: cannot write: No space left on device\$"
      expect_eq "a full disk, plot -o $out: OUT is as it was" "$(cat "$WORK/disk.out.kept")" keep
      expect_eq "a full disk, plot -o $out: no temporary file left" "$(cat "$WORK/disk.ls")" "$out"
   done
else
   echo "skipped the full disk: no tmpfs can be mounted here (unshare -m and mount need root)"
fi
finish
