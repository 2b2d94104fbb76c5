#!/bin/bash
# The page of `strata plot -o FILE.html`, driven in Debian's Chromium,
# headless, by tests/page-driver.js (puppeteer-core, the DevTools protocol,
# installed with `npm ci` from tests/package-lock.json; no browser of its
# own): on the leaky player's profile it loads without a script error and
# fetches nothing, a drag zooms and the reset comes back, a click pins a
# moment and the tree there is the one `strata report --tree --at=T` prints,
# the search marks frames, a finding's click highlights its band, the table
# sorts; hostile names stay text; GCC's compiler proper, a real program with
# many sites, makes a page of at most a tenth of its profile, whose tree at a
# pinned moment is the report's; a 100 MB profile makes a page of at most 10 MB.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

for tool in node npm chromium; do
   command -v "$tool" >/dev/null ||
      { fail "$tool is not installed (scripts/common.sh's install_deps installs it)"; finish; }
done

# The driver's packages, in the build tree (the sources may be read-only),
# installed again when the lock file changes.
driver=$top_builddir/tests/page-driver
if ! cmp -s "$top_srcdir/tests/package-lock.json" "$driver/package-lock.json" ||
   [ ! -d "$driver/node_modules/puppeteer-core" ]; then
   mkdir -p "$driver"
   cp "$top_srcdir/tests/package.json" "$top_srcdir/tests/package-lock.json" "$driver/"
   (cd "$driver" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund) >"$WORK/npm.log" 2>&1 ||
      { fail "npm ci in $driver failed:"; sed 's/^/   | /' "$WORK/npm.log" | tail -5; finish; }
fi

# drive PAGE NAME [SEARCH]: the driver's facts in $WORK/NAME.json.
drive() {
   NODE_PATH=$driver/node_modules node "$top_srcdir/tests/page-driver.js" "$1" "$WORK/$2.json" \
      ${3:+"$3"} >"$WORK/$2.driver" 2>&1
   expect_eq "$2: the driver ran ($(tail -1 "$WORK/$2.driver"))" "$?" 0
}

# fact NAME EXPRESSION: a Python expression on the facts `f` of NAME.
fact() {
   "$PYTHON" -c 'import json, sys
f = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(v if isinstance(v, str) else json.dumps(v))' "$WORK/$1.json" "$2"
}

# tree_lines FILE: the lines of a `strata report --tree --at` tree, from its root.
tree_lines() {
   sed -n '/^[0-9.]*% ([0-9,]* bytes) all the heap$/,/^$/p' "$1" | sed '/^$/d'
}

# ---- the leaky player -----------------------------------------------------------------
record_ok leaky --depth=30 "$EXAMPLES/leaky-player" --cycles 4 --frames 24
p=$profile
"$STRATA" plot "$p" -o "$WORK/leaky.html" >"$WORK/plot.out" 2>"$WORK/plot.err"
expect_eq "strata plot -o leaky.html" "$?" 0
expect_not "the page fetches nothing: no src or href" grep -Eq '(src|href)=' "$WORK/leaky.html"
drive "$WORK/leaky.html" leaky decoder_decode
expect_eq "it loads without an error, a dialog or a request" "$(fact leaky 'f["errors"]')" "[]"
load=$(fact leaky 'f["load_ms"]')
expect_le "it opens in about a second ($load ms)" "$load" 3000
expect_eq "a band drawn for each band of the data" "$(fact leaky 'f["bands"]')" \
   "$("$PYTHON" "$top_srcdir/tests/plot-check" html "$WORK/leaky.html" | grep -c '^band ')"

fact leaky '"\n".join("\n".join(t) for t in f["texts"]["tips"])' >"$WORK/tips.txt"
leak_line=$(line_of "$top_srcdir/examples/leaky-player.c" 'struct frame \*f = malloc')
expect_in "pointing at the leak's band: the tip names it" "$WORK/tips.txt" \
   "^LEAK: frame_alloc \\(leaky-player.c:$leak_line\\) ← decoder_decode ← player_play"
expect_in "... gives its bytes, time and share" "$WORK/tips.txt" \
   '^[0-9.]+ [KM]iB at time [0-9.]+ Mi instructions, [0-9.]+% of the heap then$'
expect_in "... and its stack" "$WORK/tips.txt" '^player_play \(leaky-player.c:[0-9]+\)$'
expect_in "at first the whole run" <(fact leaky 'f["range"][0]') '^time 0\.00 Mi instructions to [0-9.]+ Mi'
expect_eq "a drag zooms: another range" "$(fact leaky 'f["range"][1] != f["range"][0]')" true
expect_in "... 30% to 60% of the run" <(fact leaky 'f["range"][1]') '^time 1[0-9.]+ Mi instructions to 2[0-9.]+ Mi'
expect_eq "... and the tree is of the range's peak" "$(fact leaky 'f["tree_at"][1] != f["tree_at"][0]')" true
expect_eq "the reset shows the whole run again" "$(fact leaky 'f["range"][2] == f["range"][0]')" true
expect_in "a click pins what the tip says, to select and copy" <(fact leaky 'f["pinned"]') \
   '^[0-9.]+ [KM]iB at time [0-9.]+ Mi instructions'
expect_eq "... and hides the floating tip" "$(fact leaky 'f["tip_after_pin"]')" none
at=$(fact leaky 'f["tree_at"][2]')
expect_eq "a pin changes the tree's moment (to $at)" "$(fact leaky 'f["tree_at"][2] != f["tree_at"][0]')" true

"$STRATA" report --tree --at="$at" "$p" >"$WORK/at.txt" 2>"$WORK/at.err"
expect_eq "strata report --tree --at=$at" "$?" 0
tree_lines "$WORK/at.txt" >"$WORK/report.tree"
expect_in "report --tree --at: says the snapshot's time" "$WORK/at.txt" "^The snapshot at time $at; "
# at_fails NAME PATTERN ARGS...: strata report ARGS exits 1 with one line matching PATTERN.
at_fails() {
   local name=$1 pattern=$2
   shift 2
   "$STRATA" report "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
   expect_eq "$name: exit status 1, one line" "$?:$(wc -l <"$WORK/$name.err")" 1:1
   expect_in "$name: the message" "$WORK/$name.err" "$pattern"
}
at_fails at-alone '^strata report: --at=5: is for --tree$' --at=5 "$p"
at_fails at-word "^strata report: --at=x: must be a time, a whole number in the profile's unit$" \
   --tree --at=x "$p"
at_fails at-early 'no snapshot at or before time 0 \(the first is at 1\)$' --tree --at=0 "$p"
fact leaky '"\n".join(f["tree"])' >"$WORK/page.tree"
expect_le "the report's tree has nodes" 5 "$(wc -l <"$WORK/report.tree")"
expect "the pinned tree is the report's, line for line" diff -u "$WORK/report.tree" "$WORK/page.tree"
if ! diff -q "$WORK/report.tree" "$WORK/page.tree" >/dev/null; then
   diff -u "$WORK/report.tree" "$WORK/page.tree" | sed 's/^/   | /' | head -20
fi
expect_in "... which names the leak" "$WORK/page.tree" '^->[0-9.]+% \([0-9,]+ bytes\) frame_alloc \(leaky-player.c:[0-9]+\)$'

expect_eq "search: the nodes of decoder_decode, counted" "$(fact leaky 'f["search"]["matches"]')" \
   "$(grep -c 'bytes) decoder_decode ' "$WORK/report.tree") nodes match"
expect_eq "search: every marked row names it" \
   "$(fact leaky 'all("decoder_decode" in r for r in f["search"]["rows"]) and len(f["search"]["rows"]) > 0')" true
expect_eq "search: the flame graph marks the same frames" \
   "$(fact leaky 'sorted(f["search"]["boxes"]) == sorted(f["search"]["rows"])')" true
expect_eq "the flame graph is shown" "$(fact leaky 'f["search"]["flame_hidden"]')" false

expect_in "the first finding is the leak" <(fact leaky 'f["finding"]["title"]') '^Leak at frame_alloc \(leaky-player.c:[0-9]+\)'
expect_eq "a click on it highlights its band, the bottom one" "$(fact leaky 'f["finding"]["band"]')" 0
expect_eq "... and its line of the legend" "$(fact leaky 'f["finding"]["legend"]')" 0
expect_eq "... and opens its stack and parts" "$(fact leaky 'f["finding"]["open"]')" true
expect_in "... its stack" <(fact leaky '"\n".join(f["finding"]["stack"])') '^decoder_decode \(leaky-player.c:[0-9]+\)$'
expect_in "... who frees it" <(fact leaky '"\n".join(f["finding"]["stack"])') 'frame_free \(leaky-player.c:[0-9]+\) <- shutdown'
expect_eq "a click on the legend's second line highlights the second band" \
   "$(fact leaky 'f["legend_click"]')" 1

expect_eq "the heap by age: its toggle draws its layers" \
   "$(fact leaky 'f["age"]["bands"] > 1 and all(l.startswith("born in") for l in f["age"]["legend"])')" true
expect_eq "... and back to the call sites" "$(fact leaky 'f["age"]["back"] == f["bands"]')" true
"$STRATA" plot "$p" --by=age -o "$WORK/age.html" >"$WORK/age.out" 2>&1
expect_eq "--by=age -o age.html: the page starts by age" "$("$PYTHON" - "$WORK/age.html" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'id="strata-data">([\s\S]*?)</script>', page).group(1))
print(data["by_age_first"] and len(data["by_age"]["bands"]) > 1)
PY
)" True
"$STRATA" report --json "$p" --top=10 >"$WORK/report.json"
for key in peak spacetime allocations temporary allocated end; do
   expect_eq "the table sorts by $key, the most first" \
      "$(fact leaky "[float(v) for v in f['sorted']['$key'] if v] == sorted([float(v) for v in f['sorted']['$key'] if v], reverse=True) and len(f['sorted']['$key']) > 3")" true
done
expect_eq "the table's numbers are strata report --json's (peak)" \
   "$(fact leaky 'sorted(int(v) for v in f["sorted"]["peak"])')" \
   "$("$PYTHON" -c 'import json, sys
print(json.dumps(sorted(c["peak_bytes"] for c in json.load(open(sys.argv[1]))["contexts"])))' "$WORK/report.json")"
expect_eq "the table's numbers are strata report --json's (temporary allocations)" \
   "$(fact leaky 'sorted(int(v) for v in f["sorted"]["temporary"])')" \
   "$("$PYTHON" -c 'import json, sys
print(json.dumps(sorted(c["allocations"]["temporary"] for c in json.load(open(sys.argv[1]))["contexts"])))' "$WORK/report.json")"
expect_eq "no element but the page's own" "$(fact leaky 'f["elements"]')" \
   '{"script": 2, "b": 0, "img": 0, "iframe": 0}'

# ---- hostile names --------------------------------------------------------------------
rm -f /tmp/strata-PWNED-*
hostile=$top_srcdir/tests/data/hostile.strata
"$STRATA" plot "$hostile" -o "$WORK/hostile.html" >"$WORK/hostile.out" 2>"$WORK/hostile.err"
expect_eq "strata plot hostile.strata -o hostile.html" "$?" 0
drive "$WORK/hostile.html" hostile PWNED
expect_eq "hostile: no error, no dialog, no request" "$(fact hostile 'f["errors"]')" "[]"
expect_eq "hostile: no element injected" "$(fact hostile 'f["elements"]')" \
   '{"script": 2, "b": 0, "img": 0, "iframe": 0}'
expect_eq "hostile: nothing ran" "$(ls /tmp/strata-PWNED-* 2>/dev/null)" ""
"$PYTHON" "$top_srcdir/tests/plot-check" html "$WORK/hostile.html" | sed -n 's/^band [a-z]* //p' \
   >"$WORK/hostile.legends"
fact hostile '"\n".join(i["title"] for i in f["texts"]["legend"])' >"$WORK/hostile.titles"
expect "hostile: the legend's whole names are the bands' names, as text" \
   diff -u "$WORK/hostile.legends" "$WORK/hostile.titles"
expect_text "hostile: a name with <script> shown as it is" "$WORK/hostile.titles" '<script>x</script>'
expect_in "hostile: the title shown as it is" <(fact hostile 'f["texts"]["title"]') \
   '^\./hostile "\$\(touch /tmp/strata-PWNED-cmd\)" `touch /tmp/strata-PWNED-cmd2` <script>alert\(0\)</script>'
at=$(fact hostile 'f["tree_at"][2]')
"$STRATA" report --tree --at="$at" "$hostile" >"$WORK/hostile-at.txt" 2>&1
tree_lines "$WORK/hostile-at.txt" >"$WORK/hostile-report.tree"
fact hostile '"\n".join(f["tree"])' >"$WORK/hostile-page.tree"
expect "hostile: the tree's names are the report's" \
   diff -u "$WORK/hostile-report.tree" "$WORK/hostile-page.tree"
expect_in "hostile: search finds a hostile frame" <(fact hostile 'f["search"]["matches"]') '^[1-9][0-9]* nodes? match'

# ---- a real program with many sites: GCC's compiler proper ---------------------------
# cc1plus on a small C++ file: 20,000 sites and more, a profile of about 10 MB
# whose tree folds most of its nodes; its page holds only the nodes shown at
# one of its moments, so it is at most a tenth of the profile, and its tree
# at a pinned moment is still the report's, folded lines and all.
CC1PLUS=$(ls /usr/lib/gcc/x86_64-linux-gnu/*/cc1plus 2>/dev/null | sort -V | tail -1)
if [ -z "$CC1PLUS" ]; then
   fail "no cc1plus (scripts/common.sh's install_deps installs g++)"
else
   cat >"$WORK/small.cpp" <<'CPP'
#include <map>
#include <string>
#include <vector>
int f() { std::map<std::string, std::vector<int>> m; m["a"].push_back(1); return m.size(); }
CPP
   record_ok cc1plus --depth=30 -- "$CC1PLUS" -quiet -imultiarch x86_64-linux-gnu -D_GNU_SOURCE \
      "$WORK/small.cpp" -O1 -o "$WORK/small.s"
   c=$profile
   sites=$("$STRATA" report "$c" | sed -n 's/^snapshots:.*(\([0-9,]*\) sites.*/\1/p' | tr -d ,)
   expect_le "cc1plus: many sites ($sites)" 10000 "${sites:-0}"
   "$STRATA" plot "$c" -o "$WORK/cc1plus.html" >"$WORK/cc1plus.out" 2>&1
   expect_eq "strata plot cc1plus -o cc1plus.html" "$?" 0
   profile_size=$(stat -c %s "$c") size=$(stat -c %s "$WORK/cc1plus.html")
   expect_le "cc1plus: its page ($size bytes) is at most a tenth of its profile ($profile_size)" \
      $((size * 10)) "$profile_size"
   "$PYTHON" "$top_srcdir/tests/plot-check" html "$WORK/cc1plus.html" >"$WORK/cc1plus.check" 2>&1
   expect_eq "cc1plus: the page's data holds together ($(tail -1 "$WORK/cc1plus.check"))" "$?" 0
   drive "$WORK/cc1plus.html" cc1plus ggc_internal_alloc
   expect_eq "cc1plus: it loads without an error" "$(fact cc1plus 'f["errors"]')" "[]"
   at=$(fact cc1plus 'f["tree_at"][2]')
   "$STRATA" report --tree --at="$at" "$c" >"$WORK/cc1plus-at.txt" 2>&1
   tree_lines "$WORK/cc1plus-at.txt" >"$WORK/cc1plus-report.tree"
   fact cc1plus '"\n".join(f["tree"])' >"$WORK/cc1plus-page.tree"
   expect_in "cc1plus: the report's tree at $at folds callers" "$WORK/cc1plus-report.tree" \
      '^(\| )*->[0-9.]+% \([0-9,]+ bytes\) in [0-9,]+ other (callers|call sites), each under 1\.0%$'
   expect "cc1plus: the pinned tree is the report's, line for line" \
      diff -u "$WORK/cc1plus-report.tree" "$WORK/cc1plus-page.tree"
   if ! diff -q "$WORK/cc1plus-report.tree" "$WORK/cc1plus-page.tree" >/dev/null; then
      diff -u "$WORK/cc1plus-report.tree" "$WORK/cc1plus-page.tree" | sed 's/^/   | /' | head -20
   fi
   expect_eq "cc1plus: search finds the nodes that name ggc_internal_alloc" \
      "$(fact cc1plus 'f["search"]["matches"]')" \
      "$(grep -ci 'bytes) .*ggc_internal_alloc' "$WORK/cc1plus-report.tree") nodes match"
fi

# ---- the size bound ----------------------------------------------------------------------
"$PYTHON" "$top_srcdir/bench/gen-profile" 100 >"$WORK/big.strata"
"$STRATA" plot "$WORK/big.strata" -o "$WORK/big.html" >"$WORK/big.out" 2>"$WORK/big.err"
expect_eq "strata plot of a 100 MB profile -o big.html" "$?" 0
size=$(stat -c %s "$WORK/big.html")
expect_le "its page is at most 10 MB ($size bytes)" "$size" 10000000
rm -f "$WORK/big.strata"
drive "$WORK/big.html" big function_17
expect_eq "big: it loads without an error" "$(fact big 'f["errors"]')" "[]"
load=$(fact big 'f["load_ms"]')
expect_le "big: it opens in about a second ($load ms)" "$load" 5000
finish
