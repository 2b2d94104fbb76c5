#!/bin/bash
# strata plot --by=age: the heap as strata, a band per part of the run its
# bytes were born in.  Each band's bytes at each epoch boundary are checked
# against tests/profile-query's own reading of the lifetime records
# (`layers`), for the whole heap, a function (--focus=FUNCTION) and a leak
# (--focus=leak:N), by cycles and by tenths; what the layers show of a leak
# (old layers that never thin out) and of a selection (--born); every
# format; and the errors.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# bands DAT: each band of a kept data file, bottom first, as the line
# "B0 B1 ...": its bytes at each sample (the differences of the stacked tops).
bands() {
   run_py plot_age_bands "$1"
}

# same_layers WHAT DAT PROFILE FUNC LABEL: the bands of DAT are the layers
# profile-query reads from PROFILE's records.
same_layers() {
   local what=$1 dat=$2 profile=$3
   bands "$dat" >"$WORK/got"
   "$PYTHON" "$top_srcdir/tests/profile-query" layers "$profile" "$4" "$5" |
      sed 's/^[0-9]* [0-9]*: //' >"$WORK/want"
   checks=$((checks + 1))
   if [ -s "$WORK/want" ] && cmp -s "$WORK/got" "$WORK/want"; then
      pass "$what: every band, at every boundary, is what the lifetime records say"
   else
      fail "$what: the bands are not the records' layers:"
      diff "$WORK/want" "$WORK/got" | head -10 | sed 's/^/   | /'
   fi
}

# band_at DAT B K: band B's (from 1) bytes at sample K (from 1; 0: the
# last, -1: the one before).
band_at() {
   bands "$1" | sed -n "${2}p" | awk -v k="$3" '{ print k <= 0 ? $(NF + k) : $k }'
}

# ---- by cycles: the leaky player, 6 videos --------------------------------------
record_ok player --depth=30 "$EXAMPLES/leaky-player" --cycles 6 --frames 24
p=$profile
plot age "$p" --by=age -o "$WORK/age.svg" --keep-script
same_layers "by cycles, the whole heap" "$WORK/age.dat" "$p" - "video opened"
pc svg "$WORK/age.svg" >"$WORK/age.texts"
for c in 1 2 3 4 5 6; do
   expect_in "by cycles: a band for cycle $c" "$WORK/age.texts" "^born in cycle $c\$"
done
expect_in "by cycles: the title says by age" "$WORK/age.texts" ': by age$'
expect_eq "by cycles: no band by site" "$(grep -c '^LEAK\|other places' "$WORK/age.texts")" 0

# The leak, the player's frames: each video leaves its frames behind, so
# each cycle's layer, once its video is closed, keeps its bytes to the end.
plot frames "$p" --by=age --focus=frame_alloc -o "$WORK/frames.svg" --keep-script
same_layers "--focus=frame_alloc" "$WORK/frames.dat" "$p" frame_alloc "video opened"
for c in 1 2 3 4 5; do
   kept=$(band_at "$WORK/frames.dat" "$c" -1)
   expect_le "cycle $c's frames are still there before exit ($kept bytes)" 100000 "$kept"
done
# From the second video on, to the exit, the first video's layer stays as it is.
first=$(bands "$WORK/frames.dat" | sed -n 1,2p | "$PYTHON" -c '
import sys
one, two = ([int(x) for x in line.split()] for line in sys.stdin)
start = next(k for k, b in enumerate(two) if b > 0)
print(len(set(one[start:-1])), one[start])')
expect_eq "the oldest layer of the leak never thins out (${first#* } bytes)" "${first%% *}" 1
last=$(bands "$WORK/frames.dat" | awk '{ s += $NF } END { print s }')
expect_eq "the leak is freed at exit: the last boundary holds none of it" "$last" 0

plot leak "$p" --by=age --focus=leak:1 -o "$WORK/leak.svg" --keep-script
expect_eq "--focus=leak:1 (the frames' finding) draws the frames' layers" \
   "$(bands "$WORK/leak.dat")" "$(bands "$WORK/frames.dat")"
pc svg "$WORK/leak.svg" >"$WORK/leak.texts"
expect_in "--focus=leak:1: the title says which" "$WORK/leak.texts" 'leak:1, by age$'

# With a question of time, leak:N is still the whole profile's report's (the
# report of a selection judges none: "the report lists 0 leaks", always),
# its bytes then selected: the frames' layers under the same question.
plot leak-born "$p" --by=age --focus=leak:1 --born=..50% --alive-at=95% -o "$WORK/leak-born.svg" \
   --keep-script
plot frames-born "$p" --by=age --focus=frame_alloc --born=..50% --alive-at=95% \
   -o "$WORK/frames-born.svg" --keep-script
expect_eq "--focus=leak:1 --born --alive-at: the frames' layers, selected" \
   "$(bands "$WORK/leak-born.dat")" "$(bands "$WORK/frames-born.dat")"
expect_le "... which hold some bytes" 1 "$(bands "$WORK/leak-born.dat" | tr ' ' '\n' | sort -n | tail -1)"
plot leak-page "$p" --by=age --focus=leak:1 --alive-at=95% -o "$WORK/leak-born.html"
expect "... and on the page" pc html "$WORK/leak-born.html"

# A selection first: what was born in the second half only, alive before
# the release at exit (at the end of the run nothing is: never freed).
plot late "$p" --by=age --born=50%.. --alive-at=95% -o "$WORK/late.svg" --keep-script
early=$(bands "$WORK/late.dat" | sed -n 1,2p | tr ' ' '\n' | sort -u)
expect_eq "--born=50%.. --alive-at=95%: the first cycles' layers are empty" "$early" 0
later=$(bands "$WORK/late.dat" | sed -n '$p' | tr ' ' '\n' | sort -n | tail -1)
expect_le "--born=50%.. --alive-at=95%: the last cycle's layer is drawn" 1 "$later"

# ---- by tenths: no cycles ---------------------------------------------------------
record_ok steady "$PROGS/leak_steady"
plot tenths "$profile" --by=age -o "$WORK/tenths.svg" --keep-script
same_layers "by tenths" "$WORK/tenths.dat" "$profile" - -
pc svg "$WORK/tenths.svg" >"$WORK/tenths.texts"
expect_eq "by tenths: ten bands" "$(grep -c '^born in [0-9]*-[0-9]*% of the run$' "$WORK/tenths.texts")" 10
expect_in "by tenths: the first" "$WORK/tenths.texts" '^born in 0-10% of the run$'
expect_in "by tenths: the last" "$WORK/tenths.texts" '^born in 90-100% of the run$'
# The log that is never trimmed: every tenth leaves records that stay.
for b in 1 5 9; do
   kept=$(band_at "$WORK/tenths.dat" "$b" 0)
   expect_le "by tenths: layer $b still holds log records at the end ($kept bytes)" 48 "$kept"
done

# ---- cycles shorter than an epoch -------------------------------------------------
# 500 cycles of 131 B (a "tick" marker each, the first at 100) in 64 epochs
# of 1024 B, each epoch keeping 32 bytes: about 8 cycles start in each
# epoch.  The layers were named by the cycles in which their epochs start:
# "born in cycles 1-47", then "55-102": cycles 48-54, born in the first
# layer, were never named, and the last, "cycle 493", held 493-500.  The
# names now follow on, from before the first cycle to the 500th.
"$PYTHON" - "$WORK/short.strata" <<'PY'
import sys
out = ["strata-profile\t3", "cmd\t./ticks", "pid\t1", "ppid\t0", "time_unit\tB",
       "opt\tlifetimes\tyes", "opt\tfree_stacks\tyes",
       "F\t1\t0x1000\t0\tkeep\tk.c\t1\t/m\t0x1000", "S\t1\t1"]
events = [(100 + 131 * i, "M\t%d\ttick" % (100 + 131 * i)) for i in range(500)]
for e in range(64):
    t = e * 1024 + 1
    events.append((t, "T\tregular\t%d\t%d\t0\t0\ns\t1\t%d\t%d\t%d\t%d\nE" % (t, 32 * (e + 1), 32 * (e + 1), e + 1, 32 * e, 32 * (e + 1))))
    if e < 63:
        events.append(((e + 1) * 1024, "L\t%d\t%d\t1024\nb\t1\t%d\t32\t1\nE" % (e, e * 1024, e)))
events.sort(key=lambda x: x[0])
out += [line for _, line in events]
out += ["T\tfinal\t65535\t2048\t0\t0", "E", "L\t63\t64512\t1024", "b\t1\t63\t32\t1"]
out += ["a\t1\t%d\t32\t1" % e for e in range(64)]
out += ["E", "X\t65535"]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
plot short "$WORK/short.strata" --by=age -o "$WORK/short.svg"
pc svg "$WORK/short.svg" | grep '^born ' >"$WORK/short.texts"
expect_eq "short cycles: the layers' names follow on, every cycle once" "$("$PYTHON" - "$WORK/short.texts" <<'PY'
import re, sys
names = [l.strip() for l in open(sys.argv[1])]
first = re.fullmatch(r"born before cycle (\d+)", names[0])
last = int(first.group(1)) - 1 if first else 0
for n in names[1:]:
    m = re.fullmatch(r"born in cycles? (\d+)(?:-(\d+))?", n)
    if not m or int(m.group(1)) != last + 1:
        print("after cycle %d: %s" % (last, n))
        sys.exit()
    last = int(m.group(2) or m.group(1))
print("from the start to cycle %d in %d layers" % (last, len(names)))
PY
)" "from the start to cycle 500 in 10 layers"
expect_in "... the first: before the first cycle and the cycles that start in its epochs" \
   "$WORK/short.texts" '^born before cycle [0-9]*$'

# ---- every format ---------------------------------------------------------------
for format in png pdf html; do
   plot "age-$format" "$p" --by=age -o "$WORK/age.$format"
   expect "--by=age as $format: plot-check finds it sound" pc "$format" "$WORK/age.$format"
done
COLUMNS=100 LINES=30 "$STRATA" plot "$p" --by=age -o - >"$WORK/term.out" 2>&1
expect_eq "--by=age in the terminal: exit status" "$?" 0
expect_in "--by=age in the terminal: the legend" "$WORK/term.out" 'born in cycle 1'

# ---- errors ---------------------------------------------------------------------
plot_fails by-what "^strata plot: --by=sideways: draw by sites or by age$" \
   "$p" --by=sideways -o "$WORK/x.svg"
plot_fails focus-alone "^strata plot: --focus: give --by=age too$" \
   "$p" --focus=frame_alloc -o "$WORK/x.svg"
plot_fails focus-none "^strata plot: --focus=no_such_function: no call site has this function" \
   "$p" --by=age --focus=no_such_function -o "$WORK/x.svg"
plot_fails focus-leak "^strata plot: --focus=leak:9: the report lists 1 leak, from leak:1$" \
   "$p" --by=age --focus=leak:9 -o "$WORK/x.svg"
plot_fails massif "prog.massif: --by=age needs lifetimes, which this file has not \\(a massif.out file\\)$" \
   "$top_srcdir/tests/data/prog.massif" --by=age -o "$WORK/x.svg"
expect_not "no graph written on an error" test -e "$WORK/x.svg"
finish
