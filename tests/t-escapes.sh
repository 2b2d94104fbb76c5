#!/bin/bash
# Texts from a file never reach the terminal raw: escape sequences and bare
# carriage returns in a recording option (the report's "recorded:" line), in
# a massif.out desc: and cmd: line, in a name, and in the field an error
# quotes are shown escaped (shown.hpp), and so in a graph's title.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# The payload: retitle the window, clear the screen, a bare CR, a C1 CSI
# (U+009B) and a right-to-left override (U+202E).
evil=$'\e]0;owned\a\e[2J\rX\xc2\x9b2J\xe2\x80\xaeY'
shown='\x1b]0;owned\x07\x1b[2J\rX\u009b2J\u202eY'

# raw WHAT FILE: FILE holds no control character other than a newline and
# no C1 control or bidirectional override.
raw_free() {
   checks=$((checks + 1))
   if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]\|\xe2\x80[\xaa-\xae]' "$2"; then
      fail "$1: a control character reaches the terminal:"
      cat -A "$2" | head -10 | sed 's/^/   | /'
   else
      pass "$1: no control character"
   fi
}

strata_profile() {
   printf 'strata-profile\t2\ncmd\t./evil %s\npid\t42\nppid\t1\ntime_unit\ti\n' "$evil"
   printf 'opt\tdepth\t30\nopt\talloc_fn\t%s\n' "$evil"
   printf 'F\t1\t0x401000\t0\tf%s\tevil.c\t3\t/tmp/evil\t\nS\t1\t1\n' "$evil"
   printf 'M\t5\tmark%s\n' "$evil"
   printf 'T\tregular\t10\t100\t0\t0\ns\t1\t100\t1\t0\t100\nE\n'
   printf 'T\tregular\t20\t200\t0\t0\ns\t1\t200\t1\t100\t200\nE\nX\t30\n'
}
strata_profile >"$WORK/evil.strata"

"$STRATA" report "$WORK/evil.strata" >"$WORK/report.out" 2>"$WORK/report.err"
expect_eq "report: exit status" "$?" 0
raw_free "report" "$WORK/report.out"
expect_text "report: the option shown escaped" "$WORK/report.out" "recorded:   --depth=30 --alloc-fn=$shown"
expect_text "report: the command shown escaped" "$WORK/report.out" "command:    ./evil $shown"
expect_text "report: the frame shown escaped" "$WORK/report.out" "f$shown (evil.c:3)"

# massif.out: desc: and cmd: lines.
{
   printf 'desc: --depth=5 --evil=%s\ncmd: ./evil %s\ntime_unit: i\n' "$evil" "$evil"
   printf '#-----------\nsnapshot=0\n#-----------\ntime=0\nmem_heap_B=0\n'
   printf 'mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=empty\n'
} >"$WORK/evil.massif"
"$STRATA" report "$WORK/evil.massif" >"$WORK/massif.out" 2>"$WORK/massif.err"
expect_eq "massif report: exit status" "$?" 0
raw_free "massif report" "$WORK/massif.out"
expect_text "massif: desc: shown escaped" "$WORK/massif.out" "recorded:   --depth=5 --evil=$shown"
expect_text "massif: cmd: shown escaped" "$WORK/massif.out" "command:    ./evil $shown"

# An error quoting a field: the pid, and a bare CR.
sed "s/^pid\t42\$/pid\t$(printf '%s' "$evil" | sed 's/[\/&]/\\&/g')/" "$WORK/evil.strata" \
   >"$WORK/bad-pid.strata"
"$STRATA" report "$WORK/bad-pid.strata" >/dev/null 2>"$WORK/bad-pid.err"
expect_eq "bad pid: exit status" "$?" 1
raw_free "bad pid: the error" "$WORK/bad-pid.err"
expect_eq "bad pid: one line" "$(wc -l <"$WORK/bad-pid.err")" 1
expect_text "bad pid: the field shown escaped" "$WORK/bad-pid.err" \
   "bad-pid.strata:3: bad pid '$shown': expected a number"
sed $'s/^pid\t42$/pid\t42\r/' "$WORK/evil.strata" >"$WORK/cr.strata"
"$STRATA" report "$WORK/cr.strata" >/dev/null 2>"$WORK/cr.err"
raw_free "a bare CR in an error" "$WORK/cr.err"
expect_text "a bare CR shown as \\r" "$WORK/cr.err" "bad pid '42\\r': expected a number"

# The file's own name, from the command line, in an error.
cp "$WORK/bad-pid.strata" "$WORK/name$evil"
"$STRATA" report "$WORK/name$evil" >/dev/null 2>"$WORK/name.err"
raw_free "a file name in an error" "$WORK/name.err"

# The graph: its title is the command, shown escaped.
"$STRATA" plot "$WORK/evil.strata" -o "$WORK/evil.svg" >"$WORK/plot.out" 2>"$WORK/plot.err"
expect_eq "plot: exit status" "$?" 0
"$PYTHON" "$top_srcdir/tests/plot-check" svg "$WORK/evil.svg" >"$WORK/svg.texts"
expect_eq "plot: the SVG parses" "$?" 0
raw_free "plot: the SVG's texts" "$WORK/svg.texts"
expect_text "plot: the title shown escaped" "$WORK/svg.texts" "./evil $shown (evil.strata)"
expect_text "plot: the marker shown escaped" "$WORK/svg.texts" "mark$shown"
finish
