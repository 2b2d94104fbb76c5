#!/bin/bash
# Deep stacks and deep trees on a 1 MiB call stack: a massif.out tree 3,000
# entries deep, a strata profile whose stacks are 10,000 frames deep (more
# than any --depth gives, a program recursing deeply), read, reported (text,
# JSON, the tree) and drawn.  Nothing recurses once per level, and the
# report's tree stays linear in size (its indentation stops at 64 levels).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

"$PYTHON" - "$WORK" <<'PY'
import sys
work = sys.argv[1]
depth = 3000
lines = ["desc: --depth=%d" % depth, "cmd: ./deep", "time_unit: i"]
for snapshot, leaf in ((0, 100), (1, 300)):
    lines += ["#-----------", "snapshot=%d" % snapshot, "#-----------",
              "time=%d" % (10 * snapshot), "mem_heap_B=%d" % (leaf + 50),
              "mem_heap_extra_B=0", "mem_stacks_B=0", "heap_tree=detailed",
              "n1: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc." % (leaf + 50)]
    for d in range(1, depth + 1):
        children = 2 if d == depth - 1 else 1 if d < depth else 0
        held = leaf + 50 if d < depth else leaf
        lines.append(" " * d + "n%d: %d 0x%x: f%d (deep.c:%d)" % (children, held, 0x400000 + d, d, d))
    lines.append(" " * depth + "n0: 50 0x500000: other (deep.c:1)")
open(work + "/deep.massif", "w").write("\n".join(lines) + "\n")

depth = 10000
lines = ["strata-profile\t2", "cmd\t./deep", "pid\t1", "ppid\t0", "time_unit\ti", "opt\tdepth\t%d" % depth]
for d in range(1, depth + 2):
    lines.append("F\t%d\t0x%x\t0\tf%d\tdeep.c\t%d\t/bin/deep\t" % (d, 0x400000 + d, d, d))
lines.append("S\t1\t" + "\t".join(str(i) for i in range(1, depth + 1)))
lines.append("S\t2\t" + "\t".join(str(i) for i in range(1, depth)) + "\t%d" % (depth + 1))
lines.append("S\t3\t" + "\t".join(str(i) for i in range(2, depth + 1)))
lines += ["T\tregular\t10\t600\t0\t0", "s\t1\t100\t1\t0\t100", "s\t2\t200\t1\t0\t200",
          "s\t3\t300\t1\t0\t300", "E", "T\tfinal\t20\t600\t0\t0", "E", "X\t20"]
open(work + "/deep.strata", "w").write("\n".join(lines) + "\n")
PY

# run NAME ARGS...: strata ARGS on a 1 MiB stack, stdout in $WORK/NAME.out.
run() {
   local name=$1
   shift
   local status
   (ulimit -s 1024 && exec "$STRATA" "$@") >"$WORK/$name.out" 2>"$WORK/$name.err"
   status=$?
   expect_eq "$name: exit status on a 1 MiB stack ($(head -c 200 "$WORK/$name.err"))" "$status" 0
}

# json_depth FILE: how deep the JSON report's tree goes (Python's parser
# recurses, so on a thread with a large stack).
json_depth() {
   "$PYTHON" - "$1" <<'PY'
import json, sys, threading
def depth():
    node, depth = json.load(open(sys.argv[1]))["tree"], 0
    while node["children"]:
        node, depth = node["children"][0], depth + 1
    print(depth)
sys.setrecursionlimit(1000000)
threading.stack_size(1 << 30)
thread = threading.Thread(target=depth)
thread.start()
thread.join()
PY
}

for file in deep.massif deep.strata; do
   run "$file-report" report "$WORK/$file"
   run "$file-tree" report --tree "$WORK/$file"
   run "$file-json" report --json --tree "$WORK/$file"
   run "$file-svg" plot "$WORK/$file" -o "$WORK/$file.svg"
   run "$file-html" plot "$WORK/$file" -o "$WORK/$file.html"
done

expect_eq "massif: the tree's depth in the JSON" "$(json_depth "$WORK/deep.massif-json.out")" 3000
expect_eq "strata: the tree's depth in the JSON" "$(json_depth "$WORK/deep.strata-json.out")" 10000
expect_in "massif: the deepest frame in the report" "$WORK/deep.massif-report.out" \
   '^     f3000 \(deep.c:3000\)$'
expect_in "strata: a tree line past 64 levels gives its depth" "$WORK/deep.strata-tree.out" \
   '^(\| ){64}\[9999\] ->'
expect_le "strata: the text tree is linear in size (bytes)" \
   "$(wc -c <"$WORK/deep.strata-tree.out")" 10000000
expect_le "strata: the JSON tree is linear in size (bytes)" \
   "$(wc -c <"$WORK/deep.strata-json.out")" 150000000
finish
