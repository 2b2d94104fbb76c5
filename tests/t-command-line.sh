#!/bin/bash
# Command lines that strata must refuse itself, in one line, before anything
# runs: a --peak-inaccuracy that Valgrind would refuse (it reads no exponent),
# `record -o -- PROGRAM` (-o would take "--" for the file), a --depth or
# --top past 2^32 - 1.  And a graph of times near 2^64 (gnuplot's "empty x
# range" before): its times are counted from its first record.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# refused NAME PATTERN ARGS...: strata ARGS exits 1 with one line on stderr
# that matches PATTERN, and writes nothing else (no Valgrind ran).
refused() {
   local name=$1 pattern=$2
   shift 2
   (cd "$WORK" && exec "$STRATA" "$@") >"$WORK/$name.out" 2>"$WORK/$name.err"
   expect_eq "$name: exit status" "$?" 1
   expect_eq "$name: one line on stderr" "$(wc -l <"$WORK/$name.err")" 1
   expect_in "$name: the error" "$WORK/$name.err" "$pattern"
   expect_eq "$name: nothing on stdout" "$(cat "$WORK/$name.out")" ""
}

for value in 1e3 0x10 inf 1.2.3 1,5 -1; do
   refused "peak-inaccuracy=$value" \
      "^strata record: --peak-inaccuracy=$value: must be a number of percent, 0 or more" \
      record --peak-inaccuracy="$value" -o "$WORK/p.%p" /bin/true
done
refused "record -o --" "^strata record: -o: needs a file name, not '--'" record -o -- /bin/true
expect_eq "record -o --: no file named --" "$(ls "$WORK" | grep -c -- '^--$')" 0
refused "record -o -x" "^strata record: -o: needs a file name, not '--depth=3'" \
   record -o --depth=3 /bin/true

massif=$top_srcdir/tests/data/prog.massif
for option in --depth=4294967297 --depth=4294967296 --top=18446744073709551617 --top=0; do
   refused "report $option" \
      "^strata report: $option: must be a number from 1 to 4294967295, or all" \
      report "$option" "$massif"
done
"$STRATA" report --depth=4294967295 "$massif" >"$WORK/depth-max.out" 2>&1
expect_eq "report --depth=4294967295: accepted" "$?" 0

# The translation settings strata record passes on (t-translation.sh).
refused "vex-guest-chase=maybe" "^strata record: --vex-guest-chase=maybe: must be yes or no$" \
   record --vex-guest-chase=maybe -o "$WORK/vex.%p" /bin/true
refused "vex-iropt-register-updates=all" \
   "^strata record: --vex-iropt-register-updates=all: must be one of: sp-at-mem-access " \
   record --vex-iropt-register-updates=all -o "$WORK/vex.%p" /bin/true
expect_eq "bad translation settings: nothing recorded" "$(ls "$WORK" | grep -c '^vex\.[0-9]')" 0

# Every option that takes a value, of every command (as its --help lists
# them), given an empty one: "--born: needs a value (--born=...)", as record
# always said (report, plot, convert and diff said Boost's "the argument for
# option '--born' should follow immediately after the equal sign").
for command in record report plot convert diff; do
   options=$("$STRATA" "$command" --help | sed -n 's/^  \(--[a-z-]*\) [A-Za-z|.]\{1,\}.*/\1/p')
   expect_le "$command: options with a value found in --help" 3 "$(echo "$options" | wc -w)"
   for option in $options; do
      refused "$command $option=" "^strata $command: $option: needs a value \\($option=\.\.\.\\)\$" \
         "$command" "$option=" "$massif" /bin/true
   done
done
for option in --log-file --num-callers --trace-children; do   # Valgrind's, through record
   refused "record $option=" "^strata record: $option: needs a value \\($option=\.\.\.\\)\$" \
      record "$option=" /bin/true
done
refused "plot -o at the end" "^strata plot: --output: needs a value \\(--output=\.\.\.\\)\$" \
   plot "$massif" -o

# Times near 2^64: the axis counts from the first record, and says so.
printf 'strata-profile\t2\ncmd\t./late\npid\t1\nppid\t0\ntime_unit\ti\n%s\n' \
   $'F\t1\t0x401000\t0\tf\tf.c\t1\t/bin/late\t\nS\t1\t1' >"$WORK/late.strata"
printf 'T\tregular\t%s\t%s\t0\t0\ns\t1\t%s\t1\t0\t%s\nE\n' \
   18446744073709551000 100 100 100 18446744073709551600 200 200 200 >>"$WORK/late.strata"
printf 'M\t18446744073709551300\thalf\nX\t18446744073709551615\n' >>"$WORK/late.strata"
for format in svg png; do
   "$STRATA" plot "$WORK/late.strata" -o "$WORK/late.$format" >"$WORK/late.out" 2>"$WORK/late.err"
   status=$?
   expect_eq "times near 2^64, $format: exit status ($(head -c 200 "$WORK/late.err"))" "$status" 0
   expect "times near 2^64, $format: a picture" test -s "$WORK/late.$format"
done
"$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/late.svg" >"$WORK/late.texts"
expect_in "times near 2^64: the axis says where it starts" "$WORK/late.texts" \
   '^time \(instructions after 18446744073709551000\)$'
expect_in "times near 2^64: the peak at its time" "$WORK/late.texts" \
   '^peak: 200 B at 600 instructions after 18446744073709551000$'
finish
