#!/bin/bash
# Allocation counts (format version 3): each site's calls, bytes asked for
# and temporary blocks over the run, exact, read back from the c lines.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# expect_counts FILE FUNC "CALLS ALLOCATED TEMPORARY" [AT]
expect_counts() {
   expect_eq "$(basename "$1"): counts of $2${4:+ at $4}" "$(q counts "$1" "$2" ${4:+"$4"})" "$3"
}

# reads FILE: strata report reads the profile.
reads() {
   "$STRATA" report "$1" >"$1.report" 2>&1
}

record_ok counts "$PROGS/counts"
p=$profile
expect_eq "the format version" "$(q get "$p" header:strata-profile)" 3
expect "strata report reads it" reads "$p"
while read -r func want; do
   expect_counts "$p" "$func" "$want"
done <<'END'
pair_alloc 100 6400 100
first_alloc 1 300 0
second_alloc 1 400 0
calloc_kept 1 336 0
calloc_pair 1 480 1
grow_realloc 6 2100 1
null_realloc 1 64 0
move_start 1 50 0
move_realloc 1 5000 0
zero_start 1 80 1
zero_realloc 0 0 0
memalign_pair 1 1000 1
posix_kept 1 2000 0
aligned_kept 1 4096 0
failed_alloc 0 0 0
before_failure 1 16 1
pool_pair 10 240 10
pool_kept 2 160 0
zero_alloc 1 0 1
END
expect_eq "the user snapshot has the final counts" \
   "$(q allcounts "$p" user:1)" "$(q allcounts "$p" final)"
# The calls of all sites add up to those the tool counted (--stats=yes).
record_ok stats --stats=yes "$PROGS/counts"
calls=$(q allcounts "$profile" | awk '{ n += $1 } END { print n }')
expect_in "--stats=yes counts the same calls" "$WORK/stats.stderr" \
   "allocation calls: +$calls counted"

# The same program with the sanity checks of level 3: the same counts.
record_ok checked --sanity-level=3 "$PROGS/counts"
expect_eq "--sanity-level=3: the same counts" "$(q allcounts "$profile")" "$(q allcounts "$p")"

# Without fast client calls (the scheduler's path): the same counts.
record_valgrind slow --fast-client-calls=no "$PROGS/counts"
expect_eq "--fast-client-calls=no: the same counts" "$(q allcounts "$profile")" "$(q allcounts "$p")"

# C++: new, new[], aligned new and their deletes.
record_ok cxx "$PROGS/counts_cxx"
expect "strata report reads it" reads "$profile"
expect_counts "$profile" array_pair "10 4000 10"
expect_counts "$profile" object_kept "1 48 0"
expect_counts "$profile" aligned_pair "1 256 1"
expect_counts "$profile" vec_kept "1 96 0"
record_ok cxx_new "$PROGS/cxx_new"
expect_counts "$profile" make_counted "1 48 0"
expect_counts "$profile" make_explicit_aligned "1 1000 0"

# A custom allocator (MALLOCLIKE_BLOCK; RESIZEINPLACE_BLOCK is no call).
record_ok custom "$PROGS/custom_alloc"
expect_counts "$profile" make_node "2 608 0"
expect_counts "$profile" make_table "1 1200 0"
expect_counts "$profile" pool_create "1 65536 0"

# Two threads at once, each at its own site.
record_ok threads "$PROGS/counts_threads"
expect "strata report reads it" reads "$profile"
expect_counts "$profile" thread_a_alloc "1000 24000 0"
expect_counts "$profile" thread_b_alloc "1500 60000 0"

# Pages: a mapping is one call of its site, its new pages the bytes.
record_ok pages --pages-as-heap=yes "$PROGS/pages"
expect_counts "$profile" map_pages "1 40960 0"
brk=$(q bytes "$profile" grow_brk user:1)
expect_counts "$profile" grow_brk "1 $brk 0"

# A fork: the child's profile counts the child's calls, from 0.
record_ok fork "$PROGS/forker" "$WORK/pids"
read -r parent child <"$WORK/pids" || fail "forker wrote no pids"
expect_counts "$WORK/fork.$parent" before_fork "1 512 0"
expect_counts "$WORK/fork.$parent" parent_alloc "10 10080 0"
expect_counts "$WORK/fork.$parent" child_alloc "0 0 0"
expect_counts "$WORK/fork.$child" child_alloc "3 6000 0"
expect_counts "$WORK/fork.$child" child_alloc "3 6000 0" user:1
expect_counts "$WORK/fork.$child" before_fork "0 0 0"
expect_counts "$WORK/fork.$child" parent_alloc "0 0 0"
expect "strata report reads the child's profile" reads "$WORK/fork.$child"

# SIGKILL after the first phase: the counts of the last complete snapshot,
# at most those of a whole run and more than none.
record_ok whole "$PROGS/counts_phases"
whole=$(q counts "$profile" phase_alloc)
expect_eq "a whole run" "$whole" "120 3840 120"
out=$WORK/killed
(cd "$WORK" && exec "$STRATA" record -o "$out" "$PROGS/counts_phases" wait) \
   >"$WORK/killed.stdout" 2>"$WORK/killed.stderr" &
launcher=$!
expect_eq "the first phase's snapshot is written" "$(user_snapshots "$out" 1)" 1
kill_recorded "$out" "$launcher"
check_profile "$out" --truncated-ok
expect_eq "no X after SIGKILL" "$(q get "$out" end)" none
killed=$(q counts "$out" phase_alloc last)
expect_eq "killed: the counts of the last complete snapshot" "$killed" "50 1600 50"
read -r kc ka kt <<<"$killed"
read -r wc wa wt <<<"$whole"
expect_le "killed: calls at most a whole run's" "$kc" "$wc"
expect_le "killed: bytes at most a whole run's" "$ka" "$wa"
expect_le "killed: temporary at most a whole run's" "$kt" "$wt"
expect_le "killed: some calls" 1 "$kc"
expect "strata report reads the killed profile" reads "$out"
finish
