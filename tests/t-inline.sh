#!/bin/bash
# Inlined calls are frames of their own: one code address, several F records,
# inlined=1 for all but the real function.  --read-inline-info=no turns that
# off.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok inl --heap-admin=0 "$PROGS/inlined"
ask "$profile" "bytes api peak" "frames api"
expect_eq "the peak holds api's 100 bytes" "$(answer "$profile" bytes api peak)" 100
expect_eq "api's site, innermost first" "$(answer "$profile" frames api | cut -f1 | tr '\n' ' ')" \
   "site 1 inner outer api main "
expect_eq "inner and outer are inlined, at api's address" \
   "$(awk -F'\t' '$1 == "F" && $5 ~ /^(inner|outer|api)$/ { print $5, $3 == prev ? "same" : "new", $4; prev = $3 }' "$profile" | tr '\n' ' ')" \
   "inner new 1 outer same 1 api same 0 "

record_ok noinl --heap-admin=0 --read-inline-info=no "$PROGS/inlined"
expect_eq "without inline info: api then main" "$(q frames "$profile" api | cut -f1 | tr '\n' ' ')" \
   "site 1 api main "
finish
