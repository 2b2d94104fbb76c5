#!/bin/bash
# strata plot with names that would be code if they reached gnuplot's command
# line: tests/data/hostile.strata has functions, files, marker labels and a
# command made of quotes, backquotes, backslashes, $(...), system("..."), @,
# %, <script> and "]]>", and each would create a /tmp/strata-PWNED-* file if
# run.  In every format nothing runs, the texts are drawn as they are, and in
# SVG and HTML they are escaped.  So are a hostile --title and output name.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

hostile=$top_srcdir/tests/data/hostile.strata
title='title "$(touch /tmp/strata-PWNED-title)" `touch /tmp/strata-PWNED-title2` \ @x %s <b>'
odd="it's \"odd\" \\ \$(touch pwned-name) \`touch pwned-name2\` @x %s"

# nothing_ran WHAT: no marker file was created.
nothing_ran() {
   local made
   made=$(ls /tmp/strata-PWNED-* "$WORK"/pwned-* "$WORK"/out/pwned-* 2>/dev/null)
   expect_eq "$1: nothing ran" "$made" ""
}

# has_line WHAT FILE TEXT: FILE has a line that is exactly TEXT.
has_line() {
   expect_grep "$1" "$2" -Fx "$3"
}

# The texts as they must be drawn: as written, tabs and newlines as \t and
# \n (shown.hpp); by gnuplot "]]>" with a zero-width space before its ">"
# (gnuplot_text), on the page as it is.
zwsp=$(printf '\342\200\213')
legends=(
   "LEAK: evil\"quote'single\`touch /tmp/strata-PWNED-1\` (q\"uote.c:10) ← main"
   '$(touch /tmp/strata-PWNED-2) (<b>bold&amp;.c:20) ← main'
   'system("touch /tmp/strata-PWNED-3") (sys.c:30) ← back\slash\n\"\\ ← main'
   "@PWNED %s {x} ^_ &amp; <script>x</script> ]]$zwsp> y (amp&.c:50) ← main"
   'tab\there\nnewline\n!touch /tmp/strata-PWNED-4 ← main'
)
marker='close "; system("touch /tmp/strata-PWNED-6"); " <script>alert('"'m'"')</script> \'
command='./hostile "$(touch /tmp/strata-PWNED-cmd)" `touch /tmp/strata-PWNED-cmd2` <script>alert(0)</script> (hostile.strata)'

# check_texts WHAT FILE [PREFIX [page]]: every text above is a line of FILE;
# with "page", without gnuplot's zero-width spaces.
check_texts() {
   local legend prefix=${3:-}
   for legend in "${legends[@]}"; do
      [ "${4:-}" = page ] && legend=${legend//$zwsp/}
      has_line "$1: a legend drawn as it is: ${legend:0:24}..." "$2" "$prefix$legend"
   done
   has_line "$1: the marker label" "$2" "$prefix$marker"
   has_line "$1: the LEAK's floor" "$2" "${prefix}LEAK: its floor, +5.47 KiB per cycle"
}

rm -f /tmp/strata-PWNED-*
mkdir -p "$WORK/out"
for format in svg png pdf html; do
   "$STRATA" plot "$hostile" -o "$WORK/out/$odd.$format" >"$WORK/$format.out" 2>"$WORK/$format.err"
   expect_eq "$format: exit status" "$?" 0
   nothing_ran "$format"
done

pc svg "$WORK/out/$odd.svg" >"$WORK/svg.texts" 2>"$WORK/svg.check"
expect_eq "SVG: parses as XML, without a script element" "$?" 0
check_texts SVG "$WORK/svg.texts"
has_line "SVG: the command as the title" "$WORK/svg.texts" "$command"
expect_in "SVG: < is escaped" "$WORK/out/$odd.svg" '&lt;script>x&lt;/script>'
expect_in "SVG: & is escaped" "$WORK/out/$odd.svg" '\(amp&amp;\.c:50\)'
expect_not "SVG: no <script" grep -q '<script' "$WORK/out/$odd.svg"

pc html "$WORK/out/$odd.html" >"$WORK/html.facts" 2>"$WORK/html.check"
expect_eq "HTML: its data parses" "$?" 0
expect_eq "HTML: the page's own two scripts only" "$(sed -n 1p "$WORK/html.facts")" "scripts 2"
check_texts "HTML, the texts the page draws" "$WORK/html.facts" "text " page
has_line "HTML: the data names the leak as it is" "$WORK/html.facts" "band leak ${legends[0]}"
has_line "HTML: the data, another, ]]> as it is" "$WORK/html.facts" \
   "band context ${legends[3]//$zwsp/}"
expect_in "HTML: the title is escaped" "$WORK/out/$odd.html" \
   '<title>\./hostile &quot;\$\(touch /tmp/strata-PWNED-cmd\)&quot; `touch /tmp/strata-PWNED-cmd2` &lt;script&gt;'
expect_in "HTML: < in the data is \\u003c" "$WORK/out/$odd.html" '\\u003cscript\\u003ex\\u003c/script\\u003e'

expect "PNG: decodes" opens png "$WORK/out/$odd.png"
expect_eq "PDF: opens" "$(pc pdf "$WORK/out/$odd.pdf")" "pages 1"

# Names that XML 1.0 does not allow once gnuplot has drawn them: the text
# "&#x1b;" (gnuplot's SVG passes "&#x" on as a character reference) and
# U+FFFE and U+FFFF.  The SVG, and the SVG in the HTML page, must parse.
{
   printf 'strata-profile\t2\ncmd\t./xml &#x1b; &#X1B; &#0; \xef\xbf\xbe\ntime_unit\tB\n'
   printf 'F\t1\t0x401010\t0\tesc&#x1b;ape\tx&#x0;.c\t1\t/tmp/x\t\n'
   printf 'F\t2\t0x401020\t0\tnon\xef\xbf\xbechar\xef\xbf\xbf\tx.c\t2\t/tmp/x\t\n'
   printf 'F\t3\t0x401030\t0\tamp&&#x26;#x1b;\tx.c\t3\t/tmp/x\t\n'
   printf 'S\t1\t1\nS\t2\t2\nS\t3\t3\nM\t1\tlabel &#x1b;\xef\xbf\xbf\n'
   printf 'T\tregular\t10\t300\t0\t0\ns\t1\t100\t1\t0\t100\ns\t2\t100\t1\t0\t100\n'
   printf 's\t3\t100\t1\t0\t100\nE\nX\t20\n'
} | sed 's/^time_unit/pid\t1\nppid\t0\ntime_unit/' >"$WORK/xml.strata"
zwsp_amp="&${zwsp}#"
for format in svg html png pdf; do
   "$STRATA" plot "$WORK/xml.strata" -o "$WORK/out/xml.$format" >"$WORK/xml.out" 2>"$WORK/xml.err"
   expect_eq "XML names, $format: exit status" "$?" 0
done
pc svg "$WORK/out/xml.svg" >"$WORK/xml.texts" 2>"$WORK/xml.check"
parsed=$?
expect_eq "XML names: the SVG parses as XML ($(cat "$WORK/xml.check"))" "$parsed" 0
has_line "XML names: &#x1b; drawn as it is" "$WORK/xml.texts" \
   "esc${zwsp_amp}x1b;ape (x${zwsp_amp}x0;.c:1)"
has_line "XML names: & before &#" "$WORK/xml.texts" "amp&${zwsp_amp}x26;#x1b; (x.c:3)"
has_line "XML names: U+FFFE and U+FFFF shown escaped" "$WORK/xml.texts" \
   "non\ufffechar\uffff (x.c:2)"
has_line "XML names: the marker" "$WORK/xml.texts" "label ${zwsp_amp}x1b;\uffff"
pc html "$WORK/out/xml.html" >"$WORK/xml.facts" 2>"$WORK/xml-html.check"
parsed=$?
expect_eq "XML names: the HTML page's data parses ($(cat "$WORK/xml-html.check"))" "$parsed" 0
# The page holds the names as they are (issue 32, item 9): its script shows
# them as text, so gnuplot's zero-width spaces are gnuplot's alone; a name
# copied from the page is the function's name.
has_line "XML names, the page: its legend as it is" "$WORK/xml.facts" \
   'text esc&#x1b;ape (x&#x0;.c:1)'
has_line "XML names, the page: & before &#" "$WORK/xml.facts" 'text amp&&#x26;#x1b; (x.c:3)'
has_line "XML names, the page: the marker" "$WORK/xml.facts" 'text label &#x1b;\uffff'
expect_not "XML names, the page: no zero-width space in its data" \
   grep -q "$zwsp" "$WORK/out/xml.html"
expect "XML names: PNG decodes" opens png "$WORK/out/xml.png"
expect_eq "XML names: PDF opens" "$(pc pdf "$WORK/out/xml.pdf")" "pages 1"

# A hostile title, and the kept script, run by gnuplot itself (a page has
# no gnuplot script: its title only).
"$STRATA" plot "$hostile" -o "$WORK/out/$odd.html" --title="$title" >"$WORK/title.out" 2>&1
expect_eq "--title, html: exit status" "$?" 0
expect_in "--title, html: escaped" "$WORK/out/$odd.html" \
   '<title>title &quot;\$\(touch /tmp/strata-PWNED-title\)&quot; .* @x %s &lt;b&gt;'
nothing_ran "--title, html"
for format in svg png; do
   "$STRATA" plot "$hostile" -o "$WORK/out/$odd.$format" --title="$title" --keep-script \
      >"$WORK/keep.out" 2>"$WORK/keep.err"
   expect_eq "--keep-script --title, $format: exit status" "$?" 0
   nothing_ran "--keep-script --title, $format"
done
pc svg "$WORK/out/$odd.svg" >"$WORK/title.texts"
has_line "the title drawn as it is" "$WORK/title.texts" "$title"
check_texts "--keep-script" "$WORK/title.texts"
script=$(ls "$WORK"/out/*.gp)
expect_eq "one script, its name made of safe characters" "$(basename "$script")" \
   "it_s__odd______touch_pwned-name___touch_pwned-name2___x__s.gp"
grep -v "^DATA = '" "$script" >"$WORK/script-body"
expect_not "no name from the profile in the script" \
   grep -Eq 'PWNED|pwned|evil|odd|title "|script>' "$WORK/script-body"
rm -f "$WORK/out/$odd.png"
(cd "$WORK/out" && gnuplot "$(basename "$script")") >"$WORK/gnuplot.out" 2>&1
expect_eq "gnuplot SCRIPT: runs" "$?" 0
expect "gnuplot SCRIPT: draws the PNG again" opens png "$WORK/out/$odd.png"
nothing_ran "gnuplot SCRIPT"
finish
