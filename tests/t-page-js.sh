#!/bin/bash
# The script of the page of `strata plot -o FILE.html`, plot/render/page.js:
# node parses it without an error (node --check, which is known to work: a
# copy with a syntax error is refused), and a page holds it, and the style
# plot/render/page.css, byte for byte (scripts/embed-text made them strings).
# Skipped without node (scripts/common.sh's install_deps installs it).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if ! command -v node >/dev/null; then
   echo "node is not installed: skipped"
   exit 77
fi

js=$top_srcdir/plot/render/page.js
css=$top_srcdir/plot/render/page.css
node --check "$js" >"$WORK/check.out" 2>&1
expect_eq "node --check page.js" "$?" 0
sed 's/^/   | /' "$WORK/check.out"

# The same script without its last line, which closes the function.
sed '$d' "$js" >"$WORK/broken.js"
expect_not "... and node --check refuses it" node --check "$WORK/broken.js" 2>"$WORK/broken.err"
expect_in "... saying why" "$WORK/broken.err" 'SyntaxError'

# element PAGE TAG: the text of the last <TAG> element (no attribute) of PAGE.
element() {
   "$PYTHON" -c 'import re, sys
page = open(sys.argv[1], encoding="utf-8", newline="").read()
sys.stdout.write(re.findall("<%s>([\\s\\S]*?)</%s>" % (sys.argv[2], sys.argv[2]), page)[-1])' "$1" "$2"
}

plot page "$top_srcdir/tests/data/hostile.strata" -o "$WORK/page.html"
element "$WORK/page.html" script >"$WORK/script.js"
expect "the page's script is a newline, then page.js" cmp "$WORK/script.js" <(echo && cat "$js")
element "$WORK/page.html" style >"$WORK/style.css"
expect "its style is a newline, then page.css" cmp "$WORK/style.css" <(echo && cat "$css")
finish
