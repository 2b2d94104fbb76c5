#!/bin/bash
# SIGTERM, SIGINT and SIGHUP sent to `strata record` (not to its process
# group): strata passes the signal on to Valgrind and waits for it, so that
# neither Valgrind nor the program is left running, the profile is complete
# (the program ended by the signal), and strata exits with 128 + the signal.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

steps=3
alive() {
   kill -0 "$1" 2>/dev/null
}

for signal in TERM INT HUP; do
   out=$WORK/$signal
   # A background job of a script starts with SIGINT ignored: the signals as
   # an interactive shell leaves them.
   (cd "$WORK" && exec "$PYTHON" -c '
import os, signal, sys
for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$STRATA" record "${RECORD_ARGS[@]}" -o "$out" "$PROGS/blocker" $steps) \
      >"$WORK/$signal.stdout" 2>"$WORK/$signal.stderr" &
   strata=$!
   expect_eq "$signal: the program runs" "$(user_snapshots "$out" $steps)" $steps
   program=$(q get "$out" header:pid 2>/dev/null)
   kill -"$signal" "$strata"
   ended=no
   for _ in $(seq 300); do # 30 s at most
      alive "$strata" || {
         ended=yes
         break
      }
      sleep 0.1
   done
   expect_eq "$signal: strata record ends" "$ended" yes
   if [ $ended = no ]; then
      kill -KILL "$strata" "$program" 2>/dev/null
      continue
   fi
   wait "$strata"
   expect_eq "$signal: exit status 128 + the signal" "$?" $((128 + $(kill -l "$signal")))
   expect_not "$signal: the program and Valgrind (pid $program) are gone" alive "$program"
   kill -KILL "$program" 2>/dev/null
   check_profile "$out"
   expect_in "$signal: strata says where the profile is" "$WORK/$signal.stderr" \
      "^strata record: profile written to $out\$"
done
finish
