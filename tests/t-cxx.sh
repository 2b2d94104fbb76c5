#!/bin/bash
# C++: new, new[], array cookies, aligned new, nothrow new, sized and aligned
# deletes, std::vector and std::string.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok cxx --heap-admin=0 "$PROGS/cxx_new"
p=$profile
while read -r fn want; do
   expect_eq "$fn at user 1" "$(q bytes "$p" "$fn" user:1)" "$want"
   expect_eq "$fn at user 2 (deleted)" "$(q bytes "$p" "$fn" user:2)" 0
done <<'LIST'
make_widget 200
make_array 1000
make_counted 48
make_aligned 192
make_aligned_array 576
make_explicit_aligned 1000
make_nothrow 300
make_vector 4024
make_string 133
LIST
expect_eq "make_vector blocks at user 1" "$(q blocks "$p" make_vector user:1)" 2
# all that main allocated is gone by user snapshot 2
expect_eq "heap dropped by exactly what main's functions held" \
   "$(( $(q get "$p" heap user:1) - $(q get "$p" heap user:2) ))" 7473
# operator new must not be a frame of any site: it is the allocator
checks=$((checks + 1))
if q frames "$p" make_widget | grep -q "^operator new"; then
   fail "operator new appears in the site of make_widget"
   q frames "$p" make_widget
else
   pass "the site of make_widget starts below operator new"
fi
expect_eq "innermost frame of make_widget's site" \
   "$(q frames "$p" make_widget | sed -n 2p | cut -f1)" "make_widget()"
finish
