#!/bin/bash
# --sanity-level=3: Valgrind calls the tool's sanity checks between time
# slices (the expensive one walks every site, the block table, the
# allocator's free lists and the caches, and tl_asserts that the totals
# are the sums of the sites, that every live block belongs to a site, ...).
# Each program must run to its end under them, exit 0, and write the same
# profile as at the default level, 1.  strata record passes --sanity-level
# on to Valgrind, as a core option; both runs give it, with a value of the
# same length (the command line's size moves the instructions counted).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# stripped FILE...: a digest of each profile without its pid and ppid
# lines, sorted (a forked child's profile is the same whichever pid it has).
stripped() {
   local f
   for f in "$@"; do
      grep -v -E '^(pid|ppid)'$'\t' "$f" | md5sum | cut -d' ' -f1
   done | sort
}

# expensive_checks NAME: how many expensive sanity checks the tool made
# (--stats=yes), 0 if it did not say.
expensive_checks() {
   sed -n 's/.*strata: sanity checks: .* cheap, \([0-9,]*\) expensive.*/\1/p' \
      "$WORK/$1.stderr" | tr -d , | head -1 | grep . || echo 0
}

# under_sanity NAME [RECORD-OPTIONS] PROGRAM [ARGS]: records with
# --sanity-level=1 and 3; sets $plain and $checked to the profiles.
under_sanity() {
   local name=$1
   shift
   record_ok "$name" --sanity-level=1 --stats=yes "$@" || return 1
   plain=("${profiles[@]}")
   record_ok "$name-checked" --sanity-level=3 --stats=yes "$@" || return 1
   checked=("${profiles[@]}")
   expect_eq "$name: no expensive sanity check at level 1" "$(expensive_checks "$name")" 0
   expect_le "$name: expensive sanity checks at level 3" 1 "$(expensive_checks "$name-checked")"
   expect_not "$name: no assertion failed" grep -q 'Assertion' "$WORK/$name-checked.stderr"
}

# same_profile NAME ...: as under_sanity, and the profiles must be equal.
same_profile() {
   local name=$1
   under_sanity "$@" || return
   checks=$((checks + 1))
   if [ "$(stripped "${plain[@]}")" = "$(stripped "${checked[@]}")" ]; then
      pass "$name: the same profile with --sanity-level=3"
   else
      fail "$name: the profiles differ with --sanity-level=3:"
      diff <(grep -v -E '^(pid|ppid)'$'\t' "${plain[0]}") \
           <(grep -v -E '^(pid|ppid)'$'\t' "${checked[0]}") | head -10 | sed 's/^/   | /'
   fi
}

for unit in B i; do
   same_profile "malloc-$unit" --time-unit=$unit "$PROGS/malloc_basic"
   same_profile "realloc-$unit" --time-unit=$unit "$PROGS/realloc_heavy"
   same_profile "memalign-$unit" --time-unit=$unit "$PROGS/memalign"
   same_profile "custom-$unit" --time-unit=$unit "$PROGS/custom_alloc"
done
same_profile edge_sizes --time-unit=B "$PROGS/edge_sizes"
same_profile cxx_new --time-unit=B "$PROGS/cxx_new"
same_profile ignored --time-unit=B '--ignore-fn=logger_*' "$PROGS/ignore_realloc"
same_profile pages --time-unit=B --pages-as-heap=yes "$PROGS/pages"
same_profile stacks --stacks=yes "$PROGS/stacks"
same_profile fork --time-unit=B "$PROGS/forker" "$WORK/pids"
expect_eq "fork: two profiles with --sanity-level=3" "${#checked[@]}" 2

# Threads interleave differently from run to run: the heap after the joins
# (user 1) and after the frees (user 2) is the same.
under_sanity threads --time-unit=B "$PROGS/threads"
for at in user:1 user:2 final; do
   expect_eq "threads: the sites at $at with --sanity-level=3" \
      "$(q sites "${checked[0]}" $at)" "$(q sites "${plain[0]}" $at)"
done
expect_eq "threads: thread_alloc at user 1" "$(q bytes "${checked[0]}" thread_alloc user:1)" 10080
finish
