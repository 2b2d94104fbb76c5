#!/bin/bash
# Frames Valgrind could not name, named by strata from the DWARF (issue 33;
# plot/read/name_frames.hpp, plot/util/symbolize.hpp).  lto_inline's
# make_record, inlined into fill_table of the other unit by link-time
# optimisation, is UnknownInlinedFun in the profile; strata report names it
# and the function it is in as `addr2line -f -i` does.  A frame whose symbol
# is gone is named too, and a frame Valgrind read no DWARF for becomes its
# inlined chain.  An object changed, stripped or removed after the recording
# names nothing, and neither does a massif.out file, which has no offsets.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

for tool in addr2line objcopy strip; do
   command -v $tool >/dev/null || { echo "SKIP: $tool (binutils) is missing"; exit 77; }
done

src=$top_srcdir/tests/programs
alloc_line=$(line_of "$src/lto_alloc.c" 'the allocation')
call_line=$(line_of "$src/lto_main.c" 'make_record(100')
named="make_record lto_alloc.c:$alloc_line inlined|fill_table lto_main.c:$call_line|"

# report_frames PROFILE: strata report --json's first context's frames, one a
# line, "FUNCTION FILE:LINE" and " inlined" after an inlined frame ("-"
# without a function, "-:" without a file), joined by "|" up to main.
report_frames() {
   "$STRATA" report --json "$1" | "$PYTHON" -c '
import json, sys
out = []
for f in json.load(sys.stdin)["contexts"][0]["frames"]:
    if f["function"] == "main":
        break
    out.append("%s %s:%s%s" % (f["function"] or "-", f["file"] or "-", f["line"] or "",
                               " inlined" if f["inlined"] else ""))
print("|".join(out) + "|")'
}

# ---- the LTO build, as recorded and as reported --------------------------------
record_ok lto "$PROGS/lto_inline" || { finish; exit; }
record=$(awk -F'\t' '$1 == "F" && $5 == "UnknownInlinedFun"' "$profile")
expect_eq "Valgrind leaves the inlined function unnamed" \
   "$(echo "$record" | cut -f4-7 | tr '\t' ' ')" "1 UnknownInlinedFun lto_alloc.c $alloc_line"
offset=$(echo "$record" | cut -f9)
addr2line=$(addr2line -f -i -e "$PROGS/lto_inline" "$offset" | sed -n 'p;n' | tr '\n' ' ')
expect_eq "addr2line names the inlined function and its caller" "$addr2line" "make_record fill_table "
expect_eq "strata report names them as addr2line does, with their lines" \
   "$(report_frames "$profile")" "$named"
"$STRATA" report "$profile" >"$WORK/lto.txt" 2>&1
expect_text "the text report too" "$WORK/lto.txt" "make_record (lto_alloc.c:$alloc_line) [inlined]"
expect_not "and no UnknownInlinedFun" grep -q UnknownInlinedFun "$WORK/lto.txt"

# ---- a frame without a symbol, with its lines ------------------------------------
objcopy --strip-symbol=fill_table "$PROGS/lto_inline" "$WORK/nosym"
record_ok nosym "$WORK/nosym"
expect_eq "without fill_table's symbol, Valgrind names neither frame" \
   "$(awk -F'\t' -v a="$alloc_line" -v c="$call_line" \
      '$1 == "F" && ($7 == a || $7 == c) { printf "[%s]", $5 }' "$profile")" "[UnknownInlinedFun][]"
expect_eq "strata report names both" "$(report_frames "$profile")" "$named"

# ---- recorded without DWARF: the frame becomes its chain -------------------------
objcopy --strip-debug --strip-symbol=fill_table "$PROGS/lto_inline" "$WORK/bare"
record_ok bare "$WORK/bare"
bare=$profile
expect_eq "without DWARF, one frame with neither name nor line" "$(report_frames "$bare")" "- -:|"
cp "$PROGS/lto_inline" "$WORK/bare"
expect_eq "with the DWARF back, the frame is the inlined function and its caller" \
   "$(report_frames "$bare")" "$named"

# ---- objects that are not what was recorded --------------------------------------
unknown="UnknownInlinedFun lto_alloc.c:$alloc_line inlined|fill_table lto_main.c:$call_line|"
cp "$PROGS/lto_inline" "$WORK/copy"
record_ok copy "$WORK/copy"
copy=$profile
cp "$PROGS/clones" "$WORK/copy"
expect_eq "another program in its place: nothing named" "$(report_frames "$copy")" "$unknown"
cp "$PROGS/lto_inline" "$WORK/copy"
strip "$WORK/copy"
expect_eq "stripped: nothing named" "$(report_frames "$copy")" "$unknown"
rm -f "$WORK/copy"
mkfifo "$WORK/copy"
expect_eq "a FIFO in its place: nothing named, nothing waits" \
   "$(timeout 20 bash -c "$(declare -f report_frames); STRATA='$STRATA' PYTHON='$PYTHON' report_frames '$copy'")" \
   "$unknown"
rm -f "$WORK/copy"
expect_eq "removed: nothing named" "$(report_frames "$copy")" "$unknown"

# ---- a massif.out file has no offsets ---------------------------------------------
valgrind --tool=massif --massif-out-file="$WORK/lto.massif" "$PROGS/lto_inline" \
   >"$WORK/massif.stdout" 2>&1
expect_eq "massif: the frame stays as massif wrote it" "$(report_frames "$WORK/lto.massif")" \
   "UnknownInlinedFun lto_alloc.c:$alloc_line inlined|fill_table lto_main.c:$call_line|"
finish
