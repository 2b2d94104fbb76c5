#!/bin/bash
# Deep stacks and deep trees on a 1 MiB call stack: a massif.out tree 3,000
# entries deep, a strata profile whose stacks are 10,000 frames deep (more
# than any --depth gives, a program recursing deeply), read, reported (text,
# JSON, the tree) and drawn.  Nothing recurses once per level, and the
# report's tree stays linear in size (its indentation stops at 64 levels).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

run_py read_deep_inputs "$WORK"

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
   run_py read_deep_json_depth "$1"
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
