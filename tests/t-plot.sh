#!/bin/bash
# strata plot on recorded programs: every format from the leaky player (the
# SVG names the leaking site, the PNG has its bands and the leak's red, the
# PDF opens, the HTML page holds the bands' data; t-page.sh runs the page), the options, the kept
# script, the stacks band, a file of stock massif, and the errors.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# ---- the leaky player, in every format ----------------------------------------
player=$EXAMPLES/leaky-player
record_ok leaky --depth=30 "$player" --cycles 4 --frames 24
p=$profile
leak_line=$(line_of "$top_srcdir/examples/leaky-player.c" 'struct frame \*f = malloc')
leak_legend="LEAK: frame_alloc \\(leaky-player.c:$leak_line\\) ← decoder_decode ← player_play"

plot svg "$p" -o "$WORK/leaky.svg"
pc svg "$WORK/leaky.svg" >"$WORK/svg.texts" 2>"$WORK/svg.check"
expect_eq "SVG: parses as XML" "$?" 0
expect_in "SVG: the legend names the leaking site, marked LEAK" "$WORK/svg.texts" "^$leak_legend"
# Judged from the lifetimes (the default), a finding draws no floor; judged
# from the curves, its floor is drawn.
expect_not "SVG: a finding from the lifetimes draws no floor" grep -q 'its floor' "$WORK/svg.texts"
plot curves "$p" -o "$WORK/curves.svg" --leaks-from=curves
pc svg "$WORK/curves.svg" >"$WORK/curves.texts"
expect_in "SVG, --leaks-from=curves: the finding's floor is drawn and rises" "$WORK/curves.texts" \
   '^LEAK: its floor, \+[0-9.]+ KiB per cycle$'
expect_in "SVG: another site has a band" "$WORK/svg.texts" '^thumbnail_cache \(leaky-player.c:[0-9]+\)'
expect_in "SVG: the extra heap has a band" "$WORK/svg.texts" '^extra heap'
expect_in "SVG: the peak is marked" "$WORK/svg.texts" '^peak: [0-9.]+ MiB at [0-9.]+ Mi instructions$'
expect_in "SVG: time axis in Mi instructions" "$WORK/svg.texts" '^time \(Mi instructions\)$'
expect_in "SVG: bytes axis in MiB" "$WORK/svg.texts" '^heap \(MiB\)$'
expect_eq "SVG: a labelled line per 'video opened' marker" \
   "$(grep -c '^video opened$' "$WORK/svg.texts")" 4
expect_in "SVG: the title is the command" "$WORK/svg.texts" "leaky-player --cycles 4 --frames 24"

plot png "$p" -o "$WORK/leaky.png"
pc png "$WORK/leaky.png" >"$WORK/png.facts" 2>"$WORK/png.check"
expect_eq "PNG: decodes" "$?" 0
expect_eq "PNG: 1200 x 800 by default" "$(sed -n 1p "$WORK/png.facts" | cut -d' ' -f1-2)" "1200 800"
expect_le "PNG: many colours (bands, text, lines)" 20 "$(sed -n 1p "$WORK/png.facts" | cut -d' ' -f3)"
red=$(sed -n 's/^red //p' "$WORK/png.facts")
expect_le "PNG: the leak's red covers over a tenth of the picture ($red%)" 10 "${red%.*}"
cool=$(sed -n 's/^cool //p' "$WORK/png.facts")
expect "PNG: the other bands are there in cool colours ($cool%)" \
   awk -v c="$cool" 'BEGIN { exit !(c > 0.1) }'

plot pdf "$p" -o "$WORK/leaky.pdf"
expect_eq "PDF: opens, one page" "$(pc pdf "$WORK/leaky.pdf")" "pages 1"

plot html "$p" -o "$WORK/leaky.html"
pc html "$WORK/leaky.html" >"$WORK/html.facts" 2>"$WORK/html.check"
expect_eq "HTML: its SVG and data parse" "$?" 0
expect_eq "HTML: the page's own two scripts only" "$(sed -n 1p "$WORK/html.facts")" "scripts 2"
expect_in "HTML: the leak is the bottom band" "$WORK/html.facts" "^band leak $leak_legend"
# (menu_idle's canvases are live while they are drawn: the clock sees them
# at its ticks, so they hold 2% of the spacetime; call sites holding 1% of
# the spacetime or of the peak have a band.)
expect_eq "HTML: bands (leak, 5 call sites of 1% of the spacetime or the peak, other places, extra heap)" \
   "$(grep -c '^band ' "$WORK/html.facts")" 8
expect_in "HTML: the graph's texts" "$WORK/html.facts" "^text $leak_legend"

# The page's script runs in Chromium in tests/t-page.sh.

# ---- options --------------------------------------------------------------------
plot size "$p" -o "$WORK/small.png" --width=640 --height=400 --title="A title"
expect_eq "--width and --height" "$(pc png "$WORK/small.png" | sed -n 1p | cut -d' ' -f1-2)" \
   "640 400"
plot title "$p" -o "$WORK/title.svg" --title="the player's heap"
expect_in "--title" <(pc svg "$WORK/title.svg") "^the player's heap$"
plot top "$p" -o "$WORK/top.svg" --top=1 --threshold=0
pc svg "$WORK/top.svg" >"$WORK/top.texts"
expect_in "--top=1: the leak stays" "$WORK/top.texts" "^$leak_legend"
expect_not "--top=1: not the third site" grep -q '^decoder_open' "$WORK/top.texts"
expect_in "--top=1: the rest folded" "$WORK/top.texts" '^[67] other places$'
plot default-top "$p" -o "$WORK/default-top.svg" --threshold=0
pc svg "$WORK/default-top.svg" >"$WORK/default-top.texts"
expect_eq "--threshold=0: a band for each of the 8 sites" \
   "$(grep -Ec '^(LEAK: )?[a-zA-Z_]+ \([a-z-]+\.c:[0-9]+\)' "$WORK/default-top.texts")" 8
expect_not "--threshold=0: no other places" grep -q 'other places' "$WORK/default-top.texts"
plot depth "$p" -o "$WORK/depth.svg" --depth=1 --alloc-fn=frame_alloc
pc svg "$WORK/depth.svg" >"$WORK/depth.texts"
expect_in "--alloc-fn=frame_alloc --depth=1: its caller is the leak" "$WORK/depth.texts" \
   '^LEAK: decoder_decode \(leaky-player.c:[0-9]+\)$'
plot upper "$p" -o "$WORK/UPPER.SVG"
expect "the extension in capitals" opens svg "$WORK/UPPER.SVG"

# ---- many findings: the legend below the plot, never over it ------------------
# tests/programs/many_leaks: 24 sites that leak, each a finding of its own.
# gnuplot's key took a row per band and pushed the plot off the picture (47
# rows with 22 findings), and --top did not bound it.  The kept script says
# where gnuplot put the key and the plot (strata-layout: pixels from the
# bottom); the SVG's key entries and the PNG's red keys are measured.
record_ok many "$PROGS/many_leaks" || finish
many=$profile
"$STRATA" report --json "$many" >"$WORK/many.json"
findings=$("$PYTHON" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["leaks"]))' "$WORK/many.json")
expect_le "many_leaks: 20 findings or more" 20 "$findings"
# layout NAME: the key's top and bottom, the plot's bottom and top.
layout() {
   (cd "$WORK/many" && gnuplot "$1.gp" 2>&1 >/dev/null) | sed -n 's/^strata-layout //p'
}
mkdir -p "$WORK/many"
for format in svg png; do
   plot "many-$format" "$many" -o "$WORK/many/graph.$format" --keep-script
   read -r key_top key_bottom plot_bottom plot_top <<<"$(layout graph)"
   expect "$format: the key below the plot ($key_top < $plot_bottom) and in the picture ($key_bottom)" \
      awk -v t="$key_top" -v b="$key_bottom" -v p="$plot_bottom" 'BEGIN { exit !(t + 0 < p + 0 && b + 0 >= 0) }'
   expect "$format: the plot keeps half the picture ($plot_bottom to $plot_top of 800)" \
      awk -v b="$plot_bottom" -v t="$plot_top" 'BEGIN { exit !(t - b >= 400) }'
   [ $format = svg ] && svg_plot_bottom=$plot_bottom
   [ $format = png ] && png_plot=("$plot_bottom" "$plot_top")
done
pc svg "$WORK/many/graph.svg" >"$WORK/many.texts"
pc svg-key "$WORK/many/graph.svg" >"$WORK/many.key"
read -r _ svg_key_top svg_key_bottom svg_rows <"$WORK/many.key"
expect "SVG, 24 findings: the key's texts below the plot ($svg_key_top < $svg_plot_bottom)" \
   awk -v t="$svg_key_top" -v p="$svg_plot_bottom" -v b="$svg_key_bottom" 'BEGIN { exit !(t + 0 < p + 0 && b + 0 >= 0) }'
expect_le "SVG, 24 findings: the key has at most 20 rows" "$svg_rows" 20
expect_in "SVG, 24 findings: the first finding named" "$WORK/many.texts" '^GROWTH 1: leak_[0-9]+ \(many_leaks\.c:[0-9]+\)'
expect_in "SVG, 24 findings: the others folded" "$WORK/many.texts" '^[0-9]+ other places \([0-9]+ leak suspects among them'
# One band per finding: the graph's first bands are the report's first findings.
expect_eq "one band per finding: the first five, in the report's order" \
   "$(grep -o '^GROWTH [1-5]: leak_[0-9]*' "$WORK/many.texts" | sed 's/.*: //' | tr '\n' ' ')" \
   "$("$PYTHON" -c 'import json, sys
for s in json.load(open(sys.argv[1]))["leaks"][:5]: print(s["headline"]["function"], end=" ")' "$WORK/many.json")"
# The PNG: the keys' red (x 5 to 50, left of the y axis' numbers) is below
# the plot, the leaks' red bands in it.
pc png-red "$WORK/many/graph.png" 5 50 >"$WORK/many.keyred"
pc png-red "$WORK/many/graph.png" 100 1100 >"$WORK/many.plotred"
expect "PNG: red keys, all below the plot's bottom (${png_plot[0]})" \
   awk -v p="${png_plot[0]}" 'BEGIN { n = 0 } { n++; if ($3 >= p) bad = 1 } END { exit !(n >= 5 && !bad) }' \
   "$WORK/many.keyred"
expect "PNG: the leaks' bands drawn red in the plot" \
   awk -v p="${png_plot[0]}" '$2 > p && $3 - $2 > 20 { found = 1 } END { exit !found }' "$WORK/many.plotred"
plot many-top3 "$many" -o "$WORK/many/top3.svg" --top=3
pc svg "$WORK/many/top3.svg" >"$WORK/many-top3.texts"
expect_eq "--top=3: three findings drawn" "$(grep -c '^GROWTH [0-9]*:' "$WORK/many-top3.texts")" 3
expect_in "--top=3: the others folded" "$WORK/many-top3.texts" '^2[0-9] other places \(2[0-9] leak suspects among them'
expect_le "--top=3: a shorter legend" "$(pc svg-key "$WORK/many/top3.svg" | cut -d' ' -f4)" 6
plot many-small "$many" -o "$WORK/many/small.svg" --height=300 --keep-script
read -r key_top key_bottom plot_bottom plot_top <<<"$(layout small)"
expect "--height=300: the key below the plot ($key_top < $plot_bottom)" \
   awk -v t="$key_top" -v p="$plot_bottom" -v b="$key_bottom" 'BEGIN { exit !(t + 0 < p + 0 && b + 0 >= 0) }'

# ---- --keep-script: the script draws the same graph again ---------------------
mkdir -p "$WORK/keep"
plot keep "$p" -o "$WORK/keep/graph.svg" --keep-script
expect "--keep-script: the script is kept" test -s "$WORK/keep/graph.gp"
expect "--keep-script: its data is kept" test -s "$WORK/keep/graph.dat"
expect_in "--keep-script: says where" "$WORK/keep.out" "keep/graph.gp"
mv "$WORK/keep/graph.svg" "$WORK/keep/first.svg"
(cd "$WORK/keep" && gnuplot graph.gp) >"$WORK/keep.gnuplot" 2>&1
expect_eq "gnuplot graph.gp: runs" "$?" 0
expect "gnuplot graph.gp: draws the same SVG" cmp "$WORK/keep/first.svg" "$WORK/keep/graph.svg"
plot keep-png "$p" -o "$WORK/keep/graph.png" --keep-script
rm -f "$WORK/keep/graph.png"
(cd "$WORK/keep" && gnuplot graph.gp) >"$WORK/keep.gnuplot" 2>&1
expect "gnuplot graph.gp: the PNG again" opens png "$WORK/keep/graph.png"
plot_fails keep-html '^strata plot: --keep-script: a page draws its graph with its own script, not gnuplot$' \
   "$p" -o "$WORK/keep/page.html" --keep-script
expect_not "--keep-script for HTML: no page written" test -e "$WORK/keep/page.html"
plot nokeep "$p" -o "$WORK/nokeep.svg"
expect_eq "without --keep-script: the output alone" "$(ls "$WORK" | grep -c '^nokeep\.')" 3

# ---- the stacks, when recorded --------------------------------------------------
record_ok stacks --stacks=yes "$PROGS/stacks"
plot stacks "$profile" -o "$WORK/stacks.svg"
expect_in "--stacks=yes: a band for the stacks" <(pc svg "$WORK/stacks.svg") '^stacks$'
plot nostacks "$p" -o "$WORK/nostacks.svg"
expect_not "no stacks recorded: no stacks band" grep -q '^stacks$' <(pc svg "$WORK/nostacks.svg")

# ---- a file of stock massif -------------------------------------------------------
valgrind --tool=massif --massif-out-file="$WORK/cyclic.massif" "$PROGS/cyclic" 3000 \
   >"$WORK/massif.stdout" 2>"$WORK/massif.stderr" || fail "massif failed"
plot massif "$WORK/cyclic.massif" -o "$WORK/massif.svg"
pc svg "$WORK/massif.svg" >"$WORK/massif.texts"
expect_in "massif.out: the site's band" "$WORK/massif.texts" '^cycle_alloc \(cyclic.c:[0-9]+\)'
expect_in "massif.out: the total of every snapshot" "$WORK/massif.texts" '^total at every snapshot'
plot massif-png "$WORK/cyclic.massif" -o "$WORK/massif.png"
expect "massif.out: PNG" opens png "$WORK/massif.png"

# ---- errors: one line, exit status 1 ---------------------------------------------
plot_fails extension 'leaky\.jpg: unknown graph format.*\.svg, \.png, \.pdf or \.html' \
   "$p" -o "$WORK/leaky.jpg"
plot_fails no-extension 'unknown graph format' "$p" -o "$WORK/leaky"
plot_fails missing "no-such-file: cannot read" "$WORK/no-such-file" -o "$WORK/x.svg"
printf 'not a profile\n' >"$WORK/garbage"
plot_fails garbage "garbage: not a strata profile" "$WORK/garbage" -o "$WORK/x.svg"
plot_fails width '--width=10: must be 200 to 20000 pixels' "$p" -o "$WORK/x.svg" --width=10
plot_fails threshold '--threshold=abc' "$p" -o "$WORK/x.svg" --threshold=abc
plot_fails no-output 'no output given' "$p"
plot_fails no-dir 'no-dir/x.svg: cannot write' "$p" -o "$WORK/no-dir/x.svg"
PATH=/nonexistent "$STRATA" plot "$p" -o "$WORK/x.svg" >"$WORK/no-gnuplot.out" 2>"$WORK/no-gnuplot.err"
expect_eq "gnuplot missing: exit status" "$?" 1
expect_eq "gnuplot missing: one line" "$(wc -l <"$WORK/no-gnuplot.err")" 1
expect_in "gnuplot missing: names the package" "$WORK/no-gnuplot.err" \
   'gnuplot is not installed: install the package gnuplot-nox'
expect_not "gnuplot missing: no output" test -e "$WORK/x.svg"
finish
