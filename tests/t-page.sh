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
# pinned moment is the report's; a 100 MB profile makes a page of at most 10 MB;
# on each page the findings and contexts shown are the report's; 200 sites
# with 4 KB names make a page no larger than its profile, each name written once.
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

# shown_as_report NAME REPORT: what the page NAME shows of the findings and
# contexts is what REPORT (strata report --json --top=10, as the page's
# report) says: each finding's headline, why, words, stack, parts and frees,
# each context's stack, as page.js writes a frame ("name (file:line)");
# prints each difference, nothing when they agree.
shown_as_report() {
   "$PYTHON" - "$WORK/$1.json" "$2" <<'PY'
import json, sys
facts, report = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def frame(f):
    if not f:
        return "(no stack)"
    return (f["name"] or "???") + (" (%s:%s)" % (f["file"], f["line"]) if f["file"] else "")
def stack(frames):
    return " <- ".join(frame(f) for f in frames)
def after_share(item, text):  # "12.5% TEXT" or "12.5% TEXT (...)"
    rest = item.split("% ", 1)[-1]
    return rest == text or rest.startswith(text + " (")
leaks = report["leaks"] + report["small_leaks"]
shown = facts["findings"]
if len(leaks) != len(shown):
    print("%d findings shown, %d in the report" % (len(shown), len(leaks)))
for n, (leak, card) in enumerate(zip(leaks, shown), 1):
    lists = {box["title"]: box["items"] for box in card["lists"]}
    head = " at " + frame(leak["headline"]) + (", context #" if leak["context"] else " (confidence")
    parts = lists.get("parts", [])
    freed = lists.get("freed by", [])
    wrong = {
        "headline": head not in card["title"],
        "why": card["why"] != leak["why"],
        "words": card["words"] != leak["words"],
        "stack": lists.get("stack") != [frame(f) for f in leak["frames"]],
        "parts": len(parts) != len(leak["parts"]) or not all(
            after_share(i, stack(p["frames"]) if p["frames"] else "its own sites")
            for i, p in zip(parts, leak["parts"])),
        "freed by": len(freed) != len(leak["freed_by"] or []) or not all(
            after_share(i, stack(f["frames"])) for i, f in zip(freed, leak["freed_by"] or [])),
        "freed at exit by": "freed at exit by" in lists and not leak["freed_by"] and
            lists["freed at exit by"] != [frame(leak["freed_at_exit_by"])],
    }
    for what in (w for w, bad in wrong.items() if bad):
        print("finding %d: its %s differs" % (n, what))
names = {c["rank"]: c["name"] for c in facts["contexts"]}
for c in report["contexts"]:
    name = ("{:,} other places".format(c["other_places"]) if c["other_places"]
            else stack(c["frames"]) if c["frames"] else "(no stack)")
    if names.get(c["rank"]) != name:
        print("context #%d: %r shown, %r in the report"
              % (c["rank"], (names.get(c["rank"]) or "")[:80], name[:80]))
if len(names) != len(report["contexts"]):
    print("%d contexts shown, %d in the report" % (len(names), len(report["contexts"])))
PY
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
expect_eq "its findings and contexts are the report's: headlines, words, stacks, parts, frees" \
   "$(shown_as_report leaky "$WORK/report.json")" ""
expect_le "... of a finding or more" 1 "$(fact leaky 'len(f["findings"])')"

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
"$STRATA" report --json --top=10 "$hostile" >"$WORK/hostile-report.json"
expect_eq "hostile: the findings and contexts shown are the report's, as text" \
   "$(shown_as_report hostile "$WORK/hostile-report.json")" ""

# ---- long names ------------------------------------------------------------------------
# 200 sites that keep what they make, named by 4 KB names: the page shows a
# name many times (the contexts; each finding's headline, stack, parts and
# words; the bands' stacks and details; the tree) and writes it once, in
# its table of strings (page_texts.hpp), which the report's frames and the
# other texts point into; written at each place, the page was 4.1 MB, five
# times its profile.  What it shows is still the report's.
awk -v n=200 -v len=4000 'BEGIN {
   pad = ""; for (k = 0; k < len; k++) pad = pad "x"
   printf "strata-profile\t3\ncmd\t./long\npid\t1\nppid\t0\ntime_unit\tB\n"
   printf "opt\tlifetimes\tyes\nopt\tfree_stacks\tyes\nF\t1\t0x1000\t0\tmain\tm.c\t1\t/m\t0x1000\n"
   for (i = 1; i <= n; i++) {
      printf "F\t%d\t0x%x\t0\tkeep_%d_%s\tk.c\t%d\t/m\t0x%x\n", i + 1, 4096 + 16 * i, i, pad, i, 4096 + 16 * i
      printf "S\t%d\t%d\t1\n", i, i + 1
   }
   # each epoch, each site makes 32 bytes and keeps them 1 time in 2, at
   # random: 200 leaks, each born at its own times (none joined to another)
   srand(7); for (e = 0; e < 64; e++) for (i = 1; i <= n; i++) keep[e, i] = rand() < 0.5
   for (e = 0; e < 64; e++) {
      printf "T\tregular\t%d\t%d\t0\t0\n", e * 1024 + 512, heap
      for (i = 1; i <= n; i++) if (keep[e, i]) { held[i] += 32; heap += 32; calls[i]++ }
      printf "E\nT\tregular\t%d\t%d\t0\t0\n", e * 1024 + 513, heap
      for (i = 1; i <= n; i++) if (keep[e, i]) printf "s\t%d\t%d\t%d\t%d\t%d\n", i, held[i], calls[i], held[i] - 32, held[i]
      for (i = 1; i <= n; i++) if (keep[e, i]) printf "c\t%d\t%d\t%d\t0\n", i, calls[i], held[i]
      printf "E\nL\t%d\t%d\t1024\n", e, e * 1024
      for (i = 1; i <= n; i++) if (keep[e, i]) printf "b\t%d\t%d\t32\t1\n", i, e
      if (e == 63) for (i = 1; i <= n; i++) for (k = 0; k < 64; k++) if (keep[k, i]) printf "a\t%d\t%d\t32\t1\n", i, k
      printf "E\n"
   }
   printf "T\tfinal\t65535\t%d\t0\t0\nE\nX\t65535\n", heap
}' >"$WORK/long.strata"
"$STRATA" plot "$WORK/long.strata" -o "$WORK/long.html" >"$WORK/long.out" 2>&1
expect_eq "long names: strata plot -o long.html" "$?" 0
profile_size=$(stat -c %s "$WORK/long.strata") size=$(stat -c %s "$WORK/long.html")
expect_le "long names: the page ($size bytes) is no larger than its profile ($profile_size)" \
   "$size" "$profile_size"
# names_written PAGE: how many of the names the page writes once, and more than once.
names_written() {
   "$PYTHON" - "$1" <<'PY'
import sys
page = open(sys.argv[1]).read()
counts = [page.count("keep_%d_%s" % (i, "x" * 4000)) for i in range(1, 201)]
print("%d once, %d more" % (counts.count(1), sum(c > 1 for c in counts)))
PY
}
expect_in "long names: the page writes each name it shows once" \
   <(names_written "$WORK/long.html") '^(1[5-9][0-9]|200) once, 0 more$'
# At --threshold=0.2 the tree shows each site too: every name, in the tree,
# the findings, the contexts, the bands.
"$STRATA" plot "$WORK/long.strata" --threshold=0.2 -o "$WORK/long02.html" >"$WORK/long02.out" 2>&1
expect_eq "long names: strata plot --threshold=0.2 -o long02.html" "$?" 0
expect_eq "long names, --threshold=0.2: each name written once" \
   "$(names_written "$WORK/long02.html")" "200 once, 0 more"
"$PYTHON" "$top_srcdir/tests/plot-check" html "$WORK/long02.html" >"$WORK/long.check" 2>&1
checked=$?
expect_eq "long names: the page's data holds together ($(tail -1 "$WORK/long.check"))" "$checked" 0
drive "$WORK/long02.html" long keep_17_
expect_eq "long names: it loads without an error" "$(fact long 'f["errors"]')" "[]"
"$STRATA" report --json --top=10 --threshold=0.2 "$WORK/long.strata" >"$WORK/long-report.json"
expect_eq "long names: the findings and contexts shown are the report's" \
   "$(shown_as_report long "$WORK/long-report.json")" ""
expect_le "... of many findings" 10 "$(fact long 'len(f["findings"])')"
expect_eq "long names: the pinned band's stack and words, whole" "$("$PYTHON" - "$WORK/long.json" \
   "$WORK/long-report.json" <<'PY'
import json, re, sys
pinned = (json.load(open(sys.argv[1]))["pinned"] or "").split("\n")
words = [l["words"] for l in json.load(open(sys.argv[2]))["leaks"]]
stack = [l for l in pinned if re.fullmatch(r"keep_[0-9]+_x{4000} \(k\.c:[0-9]+\)", l)]
print(len(stack) == 1 and any(w in pinned[2] for w in words))
PY
)" True
at=$(fact long 'f["tree_at"][2]')
"$STRATA" report --tree --at="$at" --threshold=0.2 "$WORK/long.strata" >"$WORK/long-at.txt" 2>&1
tree_lines "$WORK/long-at.txt" >"$WORK/long-report.tree"
fact long '"\n".join(f["tree"])' >"$WORK/long-page.tree"
expect_le "long names: the report's tree at $at has nodes named whole" 10 \
   "$(grep -c 'keep_[0-9]*_x\{4000\} (k.c:' "$WORK/long-report.tree")"
expect "long names: the pinned tree is the report's, line for line" \
   diff -q "$WORK/long-report.tree" "$WORK/long-page.tree"
rm -f "$WORK/long.strata"

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
   checked=$?
   expect_eq "cc1plus: the page's data holds together ($(tail -1 "$WORK/cc1plus.check"))" "$checked" 0
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
   "$STRATA" report --json --top=10 "$c" >"$WORK/cc1plus-report.json"
   expect_eq "cc1plus: the findings and contexts shown are the report's" \
      "$(shown_as_report cc1plus "$WORK/cc1plus-report.json")" ""
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
