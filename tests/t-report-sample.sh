#!/bin/bash
# The text report's sample above its renderer
# (plot/render/render_report_text.cpp) is real output: it is checked
# against a real run of the command it names, word for word with every
# number masked (numbers move with the machine and the environment;
# the words, the lines' order, the frames and the kinds of record do not).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# sample FILE: the lines of the sample comment after "clang-format off",
# without their "//   " (blank for "//"), up to "clang-format on".
sample() {
   sed -n '/^\/\/ clang-format off$/,/^\/\/ clang-format on$/p' "$1" |
      sed -e '1d' -e '$d' -e 's|^//   ||' -e 's|^//$||'
}
# masked: the words of stdin, one a line, each run of digits as N.
masked() { tr -s ' \n' '\n\n' | sed -E 's/[0-9]+/N/g' | grep -v '^$'; }

sample "$top_srcdir/plot/render/render_report_text.cpp" >"$WORK/sample.txt"
expect_le "the report's sample has its lines" 40 "$(wc -l <"$WORK/sample.txt")"
(cd "$EXAMPLES" && "$STRATA" record -o "$WORK/strata.out.%p" ./leaky-player) >/dev/null 2>&1
expect_eq "the leaky player, recorded: exit status" "$?" 0
profile=$(cd "$WORK" && ls strata.out.* | head -1)
(cd "$WORK" && "$STRATA" report --top=3 "$profile") >"$WORK/real.txt"
expect_eq "its report: exit status" "$?" 0
masked <"$WORK/sample.txt" >"$WORK/sample.words"
masked <"$WORK/real.txt" >"$WORK/real.words"
if diff -u "$WORK/sample.words" "$WORK/real.words" >"$WORK/words.diff"; then
   expect_eq "the sample is the real report, numbers aside" same same
else
   head -40 "$WORK/words.diff"
   expect_eq "the sample is the real report, numbers aside (see the diff above)" differs same
fi
finish
