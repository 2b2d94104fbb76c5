#!/bin/bash
# --depth bounds the frames of a site, allocator frames not counted.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

src=$top_srcdir/tests/programs/deep.c
alloc_line=$(line_of "$src" ALLOC-LINE)
recurse_line=$(line_of "$src" RECURSE-LINE)
main_line=$(line_of "$src" MAIN-LINE)

# frames_of FILE: "function file line" of leaf_alloc's site, one per line
# (asked: frames leaf_alloc)
frames_of() {
   answer "$1" frames leaf_alloc | tail -n +2
}

record_ok d10 --depth=10 "$PROGS/deep"
ask "$profile" "frames leaf_alloc" "get opt:depth"
frames_of "$profile" >"$WORK/d10.frames"
expect_eq "--depth=10: sites with leaf_alloc" "$(answer "$profile" frames leaf_alloc | grep -c '^site ')" 1
expect_eq "--depth=10: frames" "$(wc -l <"$WORK/d10.frames")" 10
expect_eq "--depth=10: innermost frame" "$(head -1 "$WORK/d10.frames")" "$(printf 'leaf_alloc\tdeep.c\t%s' "$alloc_line")"
expect_eq "--depth=10: recurse frames at the call line" \
   "$(grep -c "^recurse	deep.c	$recurse_line\$" "$WORK/d10.frames")" 9
expect_eq "--depth=10 in the header" "$(answer "$profile" get opt:depth)" 10

record_ok d200 --depth=200 "$PROGS/deep"
ask "$profile" "frames leaf_alloc"
frames_of "$profile" >"$WORK/d200.frames"
expect_eq "--depth=200: recurse frames" "$(grep -c "^recurse	deep.c	$recurse_line\$" "$WORK/d200.frames")" 51
expect_eq "--depth=200: main after them" \
   "$(sed -n 53p "$WORK/d200.frames")" "$(printf 'main\tdeep.c\t%s' "$main_line")"

record_ok d1 --depth=1 "$PROGS/deep"
ask "$profile" "frames leaf_alloc"
expect_eq "--depth=1: one frame" "$(frames_of "$profile")" "$(printf 'leaf_alloc\tdeep.c\t%s' "$alloc_line")"

record_ok ddefault "$PROGS/deep"
ask "$profile" "get opt:depth" "frames leaf_alloc" "bytes leaf_alloc user:1"
expect_eq "default depth in the header" "$(answer "$profile" get opt:depth)" 30
expect_eq "default depth: 30 frames" "$(frames_of "$profile" | wc -l)" 30
expect_eq "1008 bytes at user 1" "$(answer "$profile" bytes leaf_alloc user:1)" 1008
finish
