#!/bin/bash
# strata record's command line: bad options, --help, the profile's name,
# what record says at the end, --stats, the program's own arguments.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# A bad option fails before the program starts: exit 1, one line on stderr
# naming the option, nothing on stdout, no profile, the program did not run.
# bad_option NAME-REGEXP OPTION...
bad_option() {
   local name=$1 dir=$WORK/bad$((++bad))
   shift
   mkdir -p "$dir"
   (cd "$dir" && exec "$STRATA" record "$@" touch "$dir/ran") >"$dir/stdout" 2>"$dir/stderr"
   local rc=$?
   checks=$((checks + 1))
   local lines
   lines=$(wc -l <"$dir/stderr")
   if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && grep -Eq -- "$name" "$dir/stderr" &&
      [ ! -s "$dir/stdout" ] && [ ! -e "$dir/ran" ] && ! ls "$dir" | grep -q '^strata.out'; then
      pass "$*: exit 1, one line: $(cat "$dir/stderr")"
   else
      fail "$*: exit $rc (want 1), $lines stderr lines (want 1 naming $name)," \
         "stdout $(wc -c <"$dir/stdout") bytes (want 0), program ran: $([ -e "$dir/ran" ] && echo yes || echo no)," \
         "profile written: $(ls "$dir" | grep -c '^strata.out')"
      sed 's/^/   | /' "$dir/stderr" "$dir/stdout" | head -20
   fi
}
bad=0
bad_option --depth --depth=0
bad_option --depth --depth=201
bad_option --depth --depth=ten
bad_option --heap-admin --heap-admin=-1
bad_option --heap-admin --heap-admin=1025
bad_option --time-unit --time-unit=s
bad_option --peak-inaccuracy --peak-inaccuracy=abc
bad_option --peak-inaccuracy --peak-inaccuracy=-1
bad_option --stacks --stacks=maybe
bad_option --pages-as-heap --pages-as-heap=maybe
bad_option --stats --stats=maybe
bad_option --threshold --threshold=101
bad_option --threshold --threshold=-1
bad_option --threshold --threshold=abc
bad_option --threshold --threshold
bad_option --heap --heap=maybe
bad_option --detailed-freq --detailed-freq=0
bad_option --max-snapshots --max-snapshots=9
bad_option --max-snapshots --max-snapshots=1001
bad_option --massif-out-file --massif-out-file=/nonexistent-strata-dir/profile
bad_option --no-such-option --no-such-option
bad_option --trace-children --trace-children=perhaps
# the profile's directory must exist and be writable
bad_option --out-file --out-file=/nonexistent-strata-dir/profile
bad_option --out-file -o /nonexistent-strata-dir/profile.%p
# the tool cannot measure stacks with --pages-as-heap
bad_option '--pages-as-heap|--stacks' --pages-as-heap=yes --stacks=yes

# --help lists every option with its default.
"$STRATA" record --help >"$WORK/help" 2>"$WORK/help.err"
expect_eq "record --help exits 0" "$?" 0
# has_option OPTION [DEFAULT]: OPTION is listed, and its text shows DEFAULT
# as (=D), [D], (D) or "default D".
has_option() {
   checks=$((checks + 1))
   if run_py options_has_option "$WORK/help" "$@"; then
      pass "--help lists $1${2:+ with its default $2}"
   else
      fail "--help does not list $1${2:+ with its default $2}"
   fi
}
has_option --depth 30
has_option --alloc-fn
has_option --ignore-fn
has_option --heap-admin 8
has_option --time-unit i
has_option --peak-inaccuracy 1.0
has_option --stacks no
has_option --pages-as-heap no
has_option --stats no
has_option --out-file strata.out.%p
has_option -o
has_option --heap yes
has_option --massif-out-file
has_option --threshold 1.0
has_option --detailed-freq 10
has_option --max-snapshots 100

# The default name is strata.out.PID in the current directory, and record
# says at the end where the profile is and how to read it.
mkdir -p "$WORK/default"
(cd "$WORK/default" && "$STRATA" record "$PROGS/malloc_basic") >"$WORK/default.out" 2>&1
expect_eq "record exits with the program's status" "$?" 0
files=$(cd "$WORK/default" && ls)
expect "the profile is strata.out.PID" grep -Eqx 'strata\.out\.[0-9]+' <<<"$files"
if [ -f "$WORK/default/$files" ]; then
   pid=${files#strata.out.}
   expect_eq "PID is the header's pid" "$(q get "$WORK/default/$files" header:pid)" "$pid"
   check_profile "$WORK/default/$files"
   expect_in "record names the profile at the end" "$WORK/default.out" "strata\.out\.$pid"
   expect_in "and the command to read it" "$WORK/default.out" "strata report.*strata\.out\.$pid"
fi

# Run as ./strata from the top of the build tree, as the README says.
(cd "$top_builddir" && ./strata record -o "$WORK/dot.%p" "$PROGS/malloc_basic") >"$WORK/dot.out" 2>&1
expect_eq "./strata record from the top of the build tree" "$?" 0
for f in "$WORK"/dot.[0-9]*; do
   check_profile "$f"
done

# -o with %p and %q{VAR}; --out-file
(cd "$WORK" && STRATA_TEST_VAR=abc "$STRATA" record -o "$WORK/named.%q{STRATA_TEST_VAR}.%p" "$PROGS/malloc_basic") \
   >/dev/null 2>&1
files=$(cd "$WORK" && ls | grep '^named\.')
expect "-o FILE.%q{VAR}.%p names the profile named.abc.PID" grep -Eqx 'named\.abc\.[0-9]+' <<<"$files"
record_ok long --out-file="$WORK/long.%p" "$PROGS/malloc_basic"
expect_eq "--out-file=FILE is the last word: one profile" "${#profiles[@]}" 1

# The program's own arguments are its, even when they look like options.
record_ok args -- /bin/sh -c 'printf %s "$0" >"$1"' --depth=3 "$WORK/arg"
expect_eq "the program got --depth=3" "$(cat "$WORK/arg" 2>/dev/null)" --depth=3
expect_eq "and record did not take it" "$(q get "$profile" opt:depth)" 30
record_ok args2 --depth=12 /bin/sh -c 'exit 0'
expect_eq "options before the program are record's" "$(q get "$profile" opt:depth)" 12
record sh_status /bin/sh -c 'exit 7'
expect_eq "record exits with the program's status" "$status" 7

# --stats=yes prints the tool's counters
record_ok nostats "$PROGS/malloc_basic"
record_ok stats --stats=yes "$PROGS/malloc_basic"
expect_le "--stats=yes prints more" "$(( $(wc -l <"$WORK/nostats.stderr") + 1 ))" "$(wc -l <"$WORK/stats.stderr")"
expect_in "--stats=yes counts snapshots" "$WORK/stats.stderr" '[Ss]napshots'
finish
