#!/bin/bash
# The files of strata plot (defects 6 and 7 of the hostile round).  No file
# it writes is the profile drawn (--keep-script once wrote its data over a
# profile named graph.dat, silently).  A stop signal (SIGTERM, SIGINT,
# SIGHUP) kills gnuplot and removes the temporary directory (25 to 110 MB
# were left behind with gnuplot running), then strata dies of the signal;
# gnuplot killed by a signal is named so.  A fake gnuplot, first in PATH,
# holds still until it is killed.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

data=$top_srcdir/tests/data

# refuses WHAT PROFILE ARGS...: strata plot PROFILE ARGS fails and leaves
# PROFILE as it was.
refuses() {
   local what=$1 profile=$2
   shift 2
   local before
   before=$(cksum <"$profile")
   (cd "$WORK" && exec "$STRATA" plot "$profile" "$@") >/dev/null 2>"$WORK/refuses.err"
   expect_eq "$what: exit status" "$?" 1
   expect_eq "$what: the profile is as it was" "$(cksum <"$profile")" "$before"
   expect_in "$what: one line says why" "$WORK/refuses.err" "^strata: .*profile being drawn"
}
cp "$data/prog.massif" "$WORK/graph.dat"
refuses "--keep-script over its own data" "$WORK/graph.dat" -o graph.svg --keep-script
expect_in "it names the data file" "$WORK/refuses.err" \
   "^strata: \./graph\.dat: --keep-script would write the gnuplot data over the profile being drawn"
cp "$data/prog.massif" "$WORK/graph.gp"
refuses "--keep-script over its own script" "$WORK/graph.gp" -o graph.png --keep-script
cp "$data/prog.massif" "$WORK/other.svg"
cp "$data/prog.massif" "$WORK/page.html"
refuses "a page over the profile drawn" "$WORK/page.html" -o page.html
refuses "OUT the profile itself" "$WORK/other.svg" -o other.svg
ln -f "$WORK/graph.dat" "$WORK/linked.dat"
refuses "a hard link is the same file" "$WORK/graph.dat" -o linked.pdf --keep-script
expect_eq "nothing else was written (graph.gp and page.html are profiles)" "$(ls "$WORK" | grep -Ec '\.(gp|png|pdf|html)$|^graph\.svg$')" 2

# The fake gnuplot: writes its pid, then waits (or kills itself: $FAKE_DIE).
mkdir -p "$WORK/bin" "$WORK/tmp"
cat >"$WORK/bin/gnuplot" <<'SH'
#!/bin/sh
echo $$ >"$FAKE_PID"
[ -n "${FAKE_DIE:-}" ] && kill -"$FAKE_DIE" $$
exec sleep 60
SH
chmod +x "$WORK/bin/gnuplot"
# With SIGINT back to its default: a background job of a shell ignores it.
plot_in_background() {
   rm -f "$WORK/gnuplot.pid"
   FAKE_PID=$WORK/gnuplot.pid PATH=$WORK/bin:$PATH TMPDIR=$WORK/tmp "$PYTHON" -c '
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$STRATA" plot "$data/prog.massif" -o "$WORK/s.svg" &
   plotter=$!
   for _ in $(seq 100); do [ -s "$WORK/gnuplot.pid" ] && break; sleep 0.1; done
}
for sig in TERM INT HUP; do
   plot_in_background
   expect "$sig: gnuplot started, in its temporary directory" test -n "$(ls "$WORK/tmp")"
   gnuplot_pid=$(cat "$WORK/gnuplot.pid")
   kill -s "$sig" "$plotter"
   wait "$plotter" 2>/dev/null
   expect_eq "$sig: strata died of it" "$?" "$((128 + $(kill -l "$sig")))"
   expect_not "$sig: gnuplot is no longer running" kill -0 "$gnuplot_pid" 2>/dev/null
   expect_eq "$sig: the temporary directory is gone" "$(ls -A "$WORK/tmp")" ""
done
FAKE_DIE=KILL FAKE_PID=$WORK/gnuplot.pid PATH=$WORK/bin:$PATH TMPDIR=$WORK/tmp \
   "$STRATA" plot "$data/prog.massif" -o "$WORK/s.svg" 2>"$WORK/killed.err"
expect_eq "gnuplot killed: exit status" "$?" 1
expect_in "gnuplot killed: the signal named" "$WORK/killed.err" \
   "^strata plot: gnuplot was killed by signal 9 \(Killed\)\$"
expect_eq "gnuplot killed: the temporary directory is gone" "$(ls -A "$WORK/tmp")" ""
finish
