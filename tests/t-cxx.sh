#!/bin/bash
# C++: new, new[], array cookies, aligned new, nothrow new, sized and aligned
# deletes, std::vector and std::string.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok cxx --heap-admin=0 "$PROGS/cxx_new"
p=$profile
made="make_widget 200
make_array 1000
make_counted 48
make_aligned 192
make_aligned_array 576
make_explicit_aligned 1000
make_nothrow 300
make_vector 4024
make_string 133"
questions=()
while read -r fn want; do
   questions+=("bytes $fn user:1" "bytes $fn user:2")
done <<<"$made"
ask "$p" "${questions[@]}" "blocks make_vector user:1" "get heap "{user:1,user:2} "frames make_widget"
while read -r fn want; do
   expect_eq "$fn at user 1" "$(answer "$p" bytes "$fn" user:1)" "$want"
   expect_eq "$fn at user 2 (deleted)" "$(answer "$p" bytes "$fn" user:2)" 0
done <<<"$made"
expect_eq "make_vector blocks at user 1" "$(answer "$p" blocks make_vector user:1)" 2
# all that main allocated is gone by user snapshot 2
expect_eq "heap dropped by exactly what main's functions held" \
   "$(( $(answer "$p" get heap user:1) - $(answer "$p" get heap user:2) ))" 7473
# operator new must not be a frame of any site: it is the allocator
checks=$((checks + 1))
if answer "$p" frames make_widget | grep -q "^operator new"; then
   fail "operator new appears in the site of make_widget"
   answer "$p" frames make_widget
else
   pass "the site of make_widget starts below operator new"
fi
expect_eq "innermost frame of make_widget's site" \
   "$(answer "$p" frames make_widget | sed -n 2p | cut -f1)" "make_widget()"
finish
