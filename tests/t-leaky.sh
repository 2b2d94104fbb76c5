#!/bin/bash
# The story strata was written for (examples/leaky-player): a leak that a
# "not freed at exit" checker misses, found by its rising trough.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

player=$EXAMPLES/leaky-player
cycles=5

# troughs FILE FUNC: for each closed phase (from "video closed" to the next
# marker), "cycle bytes blocks snapshots" where bytes and blocks are FUNC's
# at the last snapshot of the phase and snapshots is how many fell in it
# (asked: timeline FUNC).
troughs() {
   answer "$1" timeline "$2" | awk -F'\t' '
      $1 == "M" && closed { print k, bytes, blocks, seen; closed = 0 }
      $1 == "M" && $3 == "video closed" { k++; closed = 1; seen = 0; bytes = "-"; blocks = "-" }
      $1 == "T" && closed { bytes = $4; blocks = $5; seen++ }'
}

# expect_rising FILE: frame_alloc's trough grows by 4 frames each cycle, and
# every closed phase has a snapshot.
expect_rising() {
   local k bytes blocks seen first=
   troughs "$1" frame_alloc >"$WORK/troughs"
   expect_eq "$(basename "$1"): closed phases" "$(wc -l <"$WORK/troughs")" $cycles
   while read -r k bytes blocks seen; do
      expect_le "cycle $k: snapshots while closed" 1 "$seen"
      expect_eq "cycle $k: frames left by frame_alloc" "$blocks" $((4 * k))
      first=${first:-$bytes}
      expect_eq "cycle $k: bytes left by frame_alloc" "$bytes" $((k * first))
   done <"$WORK/troughs"
   expect_le "a frame is 320 x 240 x 2 bytes or more" $((4 * 153600)) "$first"
}

record_ok bytes --time-unit=B --depth=30 "$player" --cycles $cycles --frames 24
p=$profile
ask "$p" markers "timeline "{frame_alloc,thumbnail_cache,player_open} "get heap final" \
   "frames frame_alloc"
expect_eq "markers: opened and closed in turns, then exit" \
   "$(answer "$p" markers | cut -f2 | tr '\n' ';')" \
   "$(for _ in $(seq $cycles); do printf 'video opened;video closed;'; done)exit;"
expect_rising "$p"
# the other sites come back down while closed: the cache plateaus, the
# decoder and the audio buffers are freed
troughs "$p" thumbnail_cache >"$WORK/cache"
expect_eq "thumbnail cache while closed: 16 x 2048 every cycle" \
   "$(awk '{ print $2 }' "$WORK/cache" | sort -u | tr '\n' ' ')" "32768 "
troughs "$p" player_open >"$WORK/open"
expect_eq "decoder and audio while closed: 0 every cycle" \
   "$(awk '{ print $2 }' "$WORK/open" | sort -u | tr '\n' ' ')" "0 "
expect_eq "everything is freed at exit" "$(answer "$p" get heap final)" 0
frames=$(answer "$p" frames frame_alloc | sed -n '2,4p' | cut -f1 | tr '\n' ' ')
expect_eq "the leaking site's stack" "$frames" "frame_alloc decoder_decode player_play "

# The same in the demo's time unit (instructions).
record_ok instr --depth=30 "$player" --cycles $cycles
ask "$profile" "timeline frame_alloc"
expect_rising "$profile"
"$STRATA" report "$profile" >"$WORK/report.txt" 2>"$WORK/report.err"
expect_eq "strata report exits 0" "$?" 0
expect "strata report prints something" test -s "$WORK/report.txt"

# With the fix, nothing is left behind.
record_ok fixed --time-unit=B "$player" --cycles 3 --frames 24 --fixed
ask "$profile" "timeline frame_alloc"
troughs "$profile" frame_alloc >"$WORK/fixed"
expect_eq "--fixed: frame_alloc holds nothing while closed" \
   "$(awk '{ print $2 }' "$WORK/fixed" | tr '\n' ' ')" "0 0 0 "

# Memcheck's leak check finds nothing: every block is freed at exit.
valgrind --tool=memcheck --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
   --error-exitcode=9 "$player" --cycles 3 --frames 24 >"$WORK/memcheck.out" 2>&1
expect_eq "memcheck --leak-check=full: no error" "$?" 0
expect_in "memcheck: all heap blocks were freed" "$WORK/memcheck.out" "All heap blocks were freed"
finish
