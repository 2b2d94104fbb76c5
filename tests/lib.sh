# tests/lib.sh: sourced by every tests/t-*.sh (bash).
#
# A test records programs from tests/programs with the uninstalled ./strata,
# asks tests/profile-query about the profiles, and counts failed assertions;
# `finish` ends it: exit 0 if all held, 1 if not or if it checked nothing
# (the work directory tests/work/NAME is then kept for a look); a test exits 77
# to skip, 99 for a broken setup.
#
# `make check` exports top_srcdir and top_builddir; run by hand from the top
# of the build tree (bash tests/t-malloc.sh), they default to that.

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
# STRATA_BIN: another strata to test (the sanitized build of make
# check-sanitize, or an older one to see a test fail).
STRATA=${STRATA_BIN:-$top_builddir/strata}
PROGS=$top_builddir/tests/programs
EXAMPLES=$top_builddir/examples
if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
TEST_NAME=$(basename "$0" .sh)
# tests/work/NAME, or NAME-sanitized in make check-sanitize's run (so that
# it keeps what make check's run of the test left)
# STRATA_RECORDER=native runs the test's recordings with the native recorder
# (strata record --native): tests/recorders says which tests mean something
# in both, and tests/t-native-suite.sh runs those so.  RECORD_ARGS holds the
# option, for a test that runs strata record itself.
RECORDER=${STRATA_RECORDER:-valgrind}
RECORD_ARGS=()
[ "$RECORDER" = native ] && RECORD_ARGS=(--native)
WORK=$top_builddir/tests/work/$TEST_NAME${STRATA_SANITIZED:+-sanitized}${STRATA_RECORDER:+-$STRATA_RECORDER}
failures=0
checks=0

if [ ! -x "$STRATA" ]; then
   echo "ERROR: $STRATA is missing: build first (make)" >&2
   exit 99
fi
rm -rf "$WORK" && mkdir -p "$WORK" || exit 99

# A test whose script ends with status 0 without finish has not said whether
# its checks held: it fails.
finished=no
trap 'end_status=$?
if [ "$finished" = no ] && [ "$end_status" -eq 0 ]; then
   echo "$TEST_NAME: the test ended without finish"
   exit 1
fi' EXIT

# run_py NAME ARGS...: tests/py/NAME.py ARGS..., the Python of a test that
# takes more than a few lines.
run_py() {
   local name=$1
   shift
   "$PYTHON" "$top_srcdir/tests/py/$name.py" "$@"
}

# q ARGS...: tests/profile-query ARGS...: one question, one run of python3
# reading the whole profile.  Several questions about one profile: ask.
q() {
   "$PYTHON" "$top_srcdir/tests/profile-query" "$@"
}

# ask FILE QUESTION...: one run of tests/profile-query reads FILE and answers
# each QUESTION, the words of a q command but FILE, in one argument ("get heap
# user:1", "bytes use_malloc user:1", "frames xmalloc"; split at spaces, so a
# FUNC has none).  Then $(answer FILE QUESTION) is what $(q ... FILE ...)
# would have printed then, until record writes FILE again or the question is
# asked again.  A question without an answer (a profile that is not there or
# does not parse, no such snapshot) fails the test.  The answers are files
# (answers_dir), not shell variables: what a subshell or a pipeline asks is
# answered after it too, and a failed test keeps them in $WORK/.answers.
ask() {
   local file=$1 question words args=() out status line
   shift
   for question in "$@"; do
      read -ra words <<<"$question"
      [ ${#args[@]} -gt 0 ] && args+=(--)
      args+=("${words[@]}")
   done
   [ ${#args[@]} -gt 0 ] || return 0
   # one line "WORDS: REASON" for each question without an answer
   out=$("$PYTHON" "$top_srcdir/tests/profile-query" ask "$(answers_dir "$file")" "$file" \
      "${args[@]}")
   status=$?
   while IFS= read -r line; do
      [ -n "$line" ] && fail "ask $(basename "$file") $line"
   done <<<"$out"
   if [ "$status" -ne 0 ] && [ -z "$out" ]; then
      fail "ask $(basename "$file"): profile-query stopped (exit status $status)"
   fi
}

# answer FILE QUESTION: ask's answer to QUESTION (its words, as asked) about
# FILE, printed as q prints it.  A question that was not asked, or has no
# answer, prints why and returns 1; one not asked also fails the test at
# finish (answer runs in $(...), where a failure would not count).
answer() {
   local file=$1 record path
   shift
   path=$(answers_dir "$file")/$(escaped "$*")
   if [ ! -f "$path" ]; then
      echo "answer: '$*' was not asked of $(basename "$file")" | tee -a "$WORK/not-asked"
      return 1
   fi
   # "=ANSWER" or "!REASON", newlines and all
   IFS= read -r -d '' record <"$path"
   [ -z "${record:1}" ] || printf '%s\n' "${record:1}"
   [ "${record:0:1}" = "=" ]
}

# forget_answers PREFIX: forgets the answers about the files whose names
# start with PREFIX (record forgets those of the files it may overwrite).
forget_answers() {
   rm -rf "$(answers_dir "$1")"*
}

# answers_dir FILE: the folder of ask's answers about FILE, one file a
# question: $WORK/.answers/ and FILE's path from $WORK (its whole path if
# elsewhere), escaped into one name.
answers_dir() {
   local path=$1
   [[ $path == "$WORK"/* ]] && path=${path#"$WORK"/}
   echo "$WORK/.answers/$(escaped "$path")"
}

# escaped TEXT: TEXT as one file name, "%" and "/" written %25 and %2F (as
# tests/profile-query's answer_name writes a question).
escaped() {
   local text=${1//%/%25}
   printf '%s' "${text//\//%2F}"
}

fail() {
   echo "FAIL: $*"
   failures=$((failures + 1))
}

pass() {
   echo "ok: $*"
}

# expect_eq WHAT ACTUAL EXPECTED
expect_eq() {
   checks=$((checks + 1))
   if [ "$2" = "$3" ]; then
      pass "$1 = $3"
   else
      fail "$1: got '$2', expected '$3'"
   fi
}

# expect WHAT COMMAND...: the command must succeed.
expect() {
   local what=$1
   shift
   checks=$((checks + 1))
   if "$@"; then
      pass "$what"
   else
      fail "$what (failed: $*)"
   fi
}

# expect_not WHAT COMMAND...: the command must fail.
expect_not() {
   local what=$1
   shift
   checks=$((checks + 1))
   if "$@"; then
      fail "$what (succeeded: $*)"
   else
      pass "$what"
   fi
}

# expect_same WHAT EXPECTED ACTUAL: the files are the same (diff -u shows how not).
expect_same() {
   checks=$((checks + 1))
   if diff -u "$2" "$3"; then
      pass "$1"
   else
      fail "$1: $3 differs from $2 (diff above)"
   fi
}

# expect_grep WHAT FILE FLAG PATTERN: FILE has a line that `grep FLAG`
# matches with PATTERN (-E an extended regexp, -F a fixed string, -Fx a line).
expect_grep() {
   checks=$((checks + 1))
   if grep "$3" -q -- "$4" "$2"; then
      pass "$1"
   else
      fail "$1: no line matching ($3) /$4/ in $2:"
      sed 's/^/   | /' "$2" | head -20
   fi
}

# expect_in WHAT FILE PATTERN: FILE has a line matching the extended regexp.
expect_in() {
   expect_grep "$1" "$2" -E "$3"
}

# expect_text WHAT FILE TEXT: FILE holds TEXT (a fixed string).
expect_text() {
   expect_grep "$1" "$2" -F "$3"
}

# user_snapshots FILE N: waits until the profile FILE, being written, holds
# N user snapshots (30 s at most); prints how many it holds.
user_snapshots() {
   local users=0
   for _ in $(seq 300); do
      if [ -f "$1" ]; then
         users=$(q get "$1" count:user 2>/dev/null || echo 0)
         [ "$users" -ge "$2" ] && break
      fi
      sleep 0.1
   done
   echo "$users"
}

# kill_recorded FILE LAUNCHER: SIGKILL to the process whose profile FILE is
# being written (its pid from FILE's header), then waits for LAUNCHER, the
# strata record in the background; a failed check, and LAUNCHER killed,
# when no such process lives.  Sets $launcher_status.
kill_recorded() {
   local pid
   pid=$(q get "$1" header:pid 2>/dev/null)
   if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid"
   else
      fail "no live process $pid from the profile's header"
      kill -KILL "$2" 2>/dev/null
   fi
   wait "$2"
   launcher_status=$?
}

# expect_le WHAT A B: the integer A <= B
expect_le() {
   checks=$((checks + 1))
   if [ -n "$2" ] && [ -n "$3" ] && [ "$2" -le "$3" ] 2>/dev/null; then
      pass "$1 ($2 <= $3)"
   else
      fail "$1: expected '$2' <= '$3'"
   fi
}

# check_profile FILE [--truncated-ok]: the grammar and the invariants, and
# strata report reads it.
check_profile() {
   local out
   checks=$((checks + 1))
   if out=$(q check "$@" 2>&1); then
      pass "$(basename "$1") is well formed and its invariants hold"
   else
      fail "$(basename "$1"): $out"
   fi
   check_read "$1"
}

# check_read FILE: strata report reads the profile FILE (exit status 0).
check_read() {
   local out
   checks=$((checks + 1))
   if out=$("$STRATA" report "$1" 2>&1 >/dev/null); then
      pass "strata report reads $(basename "$1")"
   else
      fail "strata report does not read $(basename "$1"): $out"
   fi
}

# check_profiles FILE...: check_profile FILE, complete, for each FILE, in one
# run of profile-query.
check_profiles() {
   local results=() record f i=0
   while IFS= read -r -d '' record; do
      results+=("$record")
   done < <("$PYTHON" "$top_srcdir/tests/profile-query" check --each "$@")
   for f in "$@"; do
      checks=$((checks + 1))
      record=${results[i]:-"!profile-query stopped before $f"}
      if [ "$record" = "=" ]; then
         pass "$(basename "$f") is well formed and its invariants hold"
      else
         fail "$(basename "$f"): profile-query: ${record:1}"
      fi
      check_read "$f"
      i=$((i + 1))
   done
}

# record NAME [RECORD-OPTIONS] [--] PROGRAM [ARGS]: runs
#    strata record -o $WORK/NAME.%p RECORD-OPTIONS PROGRAM ARGS
# in $WORK, with its output in $WORK/NAME.stdout and NAME.stderr, and its
# exit status in $status.  Sets $profiles to the files written and $profile
# to the first, and checks each with check_profile (complete, with X).
record() {
   local name=$1
   shift
   rm -f "$WORK/$name".[0-9]*
   forget_answers "$WORK/$name."
   (cd "$WORK" && exec "$STRATA" record ${RECORD_ARGS[@]+"${RECORD_ARGS[@]}"} \
      -o "$WORK/$name.%p" "$@") >"$WORK/$name.stdout" 2>"$WORK/$name.stderr"
   status=$?
   collect_profiles "$name"
}

# record_valgrind NAME [TOOL-OPTIONS] PROGRAM [ARGS]: like record, but runs
#    valgrind --tool=strata --out-file=$WORK/NAME.%p TOOL-OPTIONS PROGRAM ARGS
# directly, for the tool's debugging options that strata record does not
# pass on (--fast-client-calls, --check-unwind-cache).
record_valgrind() {
   local name=$1
   shift
   rm -f "$WORK/$name".[0-9]*
   forget_answers "$WORK/$name."
   (cd "$WORK" && VALGRIND_LIB=$top_builddir/vglib exec valgrind --tool=strata \
      --out-file="$WORK/$name.%p" "$@") >"$WORK/$name.stdout" 2>"$WORK/$name.stderr"
   status=$?
   collect_profiles "$name"
}

# collect_profiles NAME: sets $profiles and $profile to the files
# $WORK/NAME.PID, the first process's first: in the order of their depth in
# the process tree (each header's pid and ppid), then of their pids.  Not of
# the pids alone: they wrap (a child of 32767 may be 300), and a glob would
# put NAME.1001 before NAME.939.  Checks each (complete, with X).
collect_profiles() {
   local name=$1 f
   profiles=()
   while IFS= read -r f; do
      profiles+=("$f")
   done < <(for f in "$WORK/$name".[0-9]*; do
         [ -e "$f" ] || continue
         printf '%s\t%s\n' "$f" "$(sed -n '/^pid\t/{s/^pid\t//p};/^ppid\t/{s/^ppid\t//p};/^[FT]\t/q' "$f" | tr '\n' ' ')"
      done | awk -F'\t' '
         { file[NR] = $1; split($2, ids, " "); pid[NR] = ids[1]; ppid[NR] = ids[2]; of[ids[1]] = NR }
         END {
            for (i = 1; i <= NR; i++) {
               depth = 0
               for (j = i; (ppid[j] in of) && depth < NR; j = of[ppid[j]]) depth++
               print depth "\t" pid[i] + 0 "\t" file[i]
            }
         }' | sort -n -k1,1 -k2,2 | cut -f3-)
   profile=${profiles[0]:-$WORK/$name.none}
   if [ ${#profiles[@]} -eq 0 ]; then
      fail "record $name: no profile written (status $status); stderr:"
      sed 's/^/   | /' "$WORK/$name.stderr" | tail -20
      return 1
   fi
   check_profiles "${profiles[@]}"
   return 0
}

# record_ok NAME ...: record, and the program must have exited 0.
record_ok() {
   record "$@" || return 1
   checks=$((checks + 1))
   if [ "$status" -ne 0 ]; then
      fail "record $1: exit status $status; stderr:"
      sed 's/^/   | /' "$WORK/$1.stderr" | tail -20
      return 1
   fi
   return 0
}

# json FILE KEY.PATH: one value of a JSON document (e.g. peak.heap_bytes).
json() {
   "$PYTHON" - "$1" "$2" <<'EOF'
import json, sys
value = json.load(open(sys.argv[1]))
for key in sys.argv[2].split("."):
    value = value[key]
print(json.dumps(value) if isinstance(value, (dict, list)) else value)
EOF
}

# massif_max_heap FILE / massif_last_heap FILE: from a massif.out file.
massif_max_heap() {
   sed -n 's/^mem_heap_B=//p' "$1" | sort -n | tail -1
}
massif_last_heap() {
   sed -n 's/^mem_heap_B=//p' "$1" | tail -1
}

# ---- strata plot ------------------------------------------------------------------

# pc svg|png|pdf|html|... FILE: tests/plot-check.
pc() {
   "$PYTHON" "$top_srcdir/tests/plot-check" "$@"
}

# opens svg|png|pdf|html FILE: plot-check finds the file sound.
opens() {
   pc "$@" >/dev/null
}

# plot NAME ARGS...: strata plot ARGS, output in $WORK/NAME.out and .err;
# the command must succeed.
plot() {
   local name=$1
   shift
   "$STRATA" plot "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
   local status=$?
   checks=$((checks + 1))
   if [ $status -eq 0 ]; then
      pass "strata plot $name"
   else
      fail "strata plot $name: exit status $status:"
      sed 's/^/   | /' "$WORK/$name.err"
   fi
}

# plot_fails NAME PATTERN ARGS...: strata plot ARGS exits 1 with one line on
# stderr that matches PATTERN.
plot_fails() {
   local name=$1 pattern=$2
   shift 2
   "$STRATA" plot "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
   expect_eq "$name: exit status" "$?" 1
   expect_eq "$name: one line on stderr" "$(wc -l <"$WORK/$name.err")" 1
   expect_in "$name: the message" "$WORK/$name.err" "$pattern"
}


# line_of FILE TAG: the line number of the line holding TAG in a source file.
line_of() {
   grep -n -- "$2" "$1" | head -1 | cut -d: -f1
}

finish() {
   finished=yes
   if [ -s "$WORK/not-asked" ]; then
      fail "answer to questions that ask was not asked:"
      sed 's/^/   | /' "$WORK/not-asked"
   fi
   if [ "$failures" -eq 0 ] && [ "$checks" -eq 0 ]; then
      echo "$TEST_NAME: no check was made: a test must check something (or exit 77 to skip)"
      exit 1
   fi
   if [ "$failures" -eq 0 ]; then
      echo "$TEST_NAME: all $checks checks passed"
      rm -rf "$WORK"
      exit 0
   fi
   echo "$TEST_NAME: $failures of $checks checks failed; files kept in $WORK"
   exit 1
}
