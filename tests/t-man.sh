#!/bin/bash
# The manual pages, made by help2man from each command's --help (man/):
# each renders without a warning from groff or man, fits 80 columns, has the
# sections a page needs, lists the options of --help with the same
# descriptions (tests/man-check), and gives the exit statuses the commands
# really return; make install puts them in share/man/man1, where man finds
# them, and make uninstall takes them away.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

commands=(record report plot convert diff)
pages=(strata "${commands[@]/#/strata-}")
version=$("$STRATA" --version)

# section PAGE NAME: the text of section NAME of the rendered PAGE.
section() {
   sed -n "/^$2\$/,/^[A-Z]/p" "$WORK/$1.txt" | sed '1d;$d'
}

for page in "${pages[@]}"; do
   file=$top_builddir/man/$page.1
   if [ ! -f "$file" ]; then
      fail "man/$page.1 was not made"
      continue
   fi
   groff -ww -z -man "$file" >"$WORK/$page.groff" 2>&1
   expect_eq "$page.1: groff -ww -z -man exits 0" "$?" 0
   expect_eq "$page.1: groff -ww warns of nothing" "$(cat "$WORK/$page.groff")" ""
   LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$file" >"$WORK/$page.txt" 2>"$WORK/$page.man"
   expect_eq "$page.1: man -l exits 0" "$?" 0
   expect_eq "$page.1: man -l warns of nothing" "$(cat "$WORK/$page.man")" ""
   expect_eq "$page.1: no line is wider than 80 columns" "$(awk 'length > 80' "$WORK/$page.txt")" ""
   for name in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" EXAMPLES "SEE ALSO"; do
      expect_in "$page(1) has $name" "$WORK/$page.txt" "^$name\$"
   done
   expect_in "$page(1): its footer has the version" "$WORK/$page.txt" "^$version  "
   command=${page#strata}
   command=${command#-}
   # shellcheck disable=SC2086 # no command: strata --help
   "$STRATA" $command --help >"$WORK/$page.help"
   checks=$((checks + 1))
   if out=$("$PYTHON" "$top_srcdir/tests/man-check" "$WORK/$page.help" "$file"); then
      pass "$out"
   else
      fail "$page(1) is not --help:"
      echo "$out" | sed 's/^/   | /'
   fi
done

# A command's page is named after it, with its line of strata --help.
for command in "${commands[@]}"; do
   summary=$("$STRATA" --help | sed -n "s/^  $command  *//p")
   name=$(sed -n '/^\.SH NAME$/{n;s/\\-/-/g;p;}' "$top_builddir/man/strata-$command.1")
   expect_eq "strata-$command(1): NAME" "$name" "strata-$command - $summary"
   expect_in "strata-$command(1): SYNOPSIS" "$WORK/strata-$command.txt" "^       strata $command "
done

# The exit statuses the pages give are those the commands return.
"$STRATA" report "$WORK/no-such-profile" >/dev/null 2>&1
error=$?
expect_eq "an error's exit status" "$error" 1
"$STRATA" report --fail-on=any "$top_srcdir/tests/data/hostile.strata" >/dev/null 2>&1
gate=$?
expect_eq "the exit status of report --fail-on with a suspect" "$gate" 3
section strata-report "EXIT STATUS" >"$WORK/report.status"
section strata "EXIT STATUS" >"$WORK/strata.status"
for status in 0 "$error" "$gate"; do
   expect_in "strata-report(1) gives exit status $status" "$WORK/report.status" "^       $status  "
   expect_in "strata(1) gives exit status $status" "$WORK/strata.status" "^       $status  "
done
expect_in "strata-report(1): status $gate is --fail-on's" "$WORK/report.status" \
   "^       $gate +with +--fail-on, +a +leak +suspect"
for command in record plot convert diff; do
   section "strata-$command" "EXIT STATUS" >"$WORK/$command.status"
   expect_in "strata-$command(1) gives exit status $error" "$WORK/$command.status" \
      "(^| )$error +(on|if) "
done
expect_in "strata-record(1): the program's exit status" "$WORK/record.status" \
   "^ +The +program's +exit +status, +or +128 +\+ +N "

# make install puts the pages in share/man/man1, where man finds them.
inst=$WORK/inst
unset MAKEFLAGS MFLAGS
if ! ${MAKE:-make} -C "$top_builddir" install DESTDIR="$inst" >"$WORK/install.log" 2>&1; then
   fail "make install DESTDIR=$inst failed:"
   tail -20 "$WORK/install.log"
   finish
fi
man1=$(dirname "$(find "$inst" -path '*/share/man/man1/strata.1' | head -1)")
expect "strata.1 is installed under share/man/man1" test -f "$man1/strata.1"
for page in "${pages[@]}"; do
   expect "$page.1 is installed as made" cmp -s "$top_builddir/man/$page.1" "$man1/$page.1"
   expect_eq "man finds $page(1)" "$(MANPATH=$(dirname "$man1") man -w "$page" 2>&1)" "$man1/$page.1"
done
${MAKE:-make} -C "$top_builddir" uninstall DESTDIR="$inst" >"$WORK/uninstall.log" 2>&1
expect_eq "make uninstall exits 0" "$?" 0
expect_eq "make uninstall takes the pages away" "$(find "$inst" -name 'strata*.1')" ""
finish
