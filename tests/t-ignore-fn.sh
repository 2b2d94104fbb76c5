#!/bin/bash
# --ignore-fn and --alloc-fn as massif applies them (issue 11): a realloc
# keeps the decision the block's allocation made; an allocating frame
# without a name is judged by the first frame that has one; main can be
# named.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

opts="--time-unit=B --heap-admin=0 --peak-inaccuracy=0"

# ---- realloc across --ignore-fn (tests/programs/ignore_realloc.c) ----------
record_ok realloc $opts '--ignore-fn=logger_*' "$PROGS/ignore_realloc"
p=$profile
ask "$p" "get heap "{user:1,user:2,user:3,final,peak} "bytes make "{user:1,user:3,user:4} \
   "blocks make user:1" "bytes resize "{user:2,user:4} "frames logger_resize" "frames logger_make"
expect_eq "a recorded block realloc'd by an ignored function stays: heap at user 1" \
   "$(answer "$p" get heap user:1)" 2000
expect_eq "... at its site, with its new size" "$(answer "$p" bytes make user:1)" 2000
expect_eq "... one block" "$(answer "$p" blocks make user:1)" 1
expect_eq "an ignored block realloc'd by main stays ignored: heap at user 2" \
   "$(answer "$p" get heap user:2)" 2000
expect_eq "... resize holds nothing" "$(answer "$p" bytes resize user:2)" 0
expect_eq "shrunk by an ignored function: heap at user 3" "$(answer "$p" get heap user:3)" 400
expect_eq "... still at make's site" "$(answer "$p" bytes make user:3)" 400
expect_eq "realloc'd by a recorded function: it moves to its site" \
   "$(answer "$p" bytes resize user:4)" 800
expect_eq "... and leaves make's" "$(answer "$p" bytes make user:4)" 0
expect_eq "all freed: final heap" "$(answer "$p" get heap final)" 0
expect_eq "peak" "$(answer "$p" get heap peak)" 2000
expect_eq "no site has a logger function" "$(answer "$p" frames logger_resize)$(answer "$p" frames logger_make)" ""

# ---- an allocating frame without a name (tests/programs/unnamed_frame.c) ---
# Natively a frame's name, when the patterns are matched, is its function's
# symbol: the stub has none, and neither has the loader's call_init (its
# name comes from DWARF, when the run ends), so both are Valgrind's only.
if [ "$(uname -m)" = x86_64 ] && [ "$RECORDER" = valgrind ]; then
   record_ok unnamed $opts "$PROGS/unnamed_frame"
   ask "$profile" "get heap final" "frames from_stub"
   expect_eq "without options: final heap" "$(answer "$profile" get heap final)" 1300
   expect_eq "the innermost frame has no name" \
      "$(answer "$profile" frames from_stub | sed -n 2p | cut -f1)" ""
   record_ok unnamed_ignored $opts --ignore-fn=from_stub "$PROGS/unnamed_frame"
   ask "$profile" "get heap final" "bytes other" "frames from_stub"
   expect_eq "--ignore-fn=from_stub, the first frame with a name: final heap" \
      "$(answer "$profile" get heap final)" 300
   expect_eq "... other's 300 bytes are kept" "$(answer "$profile" bytes other)" 300
   expect_eq "... no site has from_stub" "$(answer "$profile" frames from_stub)" ""
   # The stack cache checks the frames up to the one --ignore-fn judged.
   record_valgrind unnamed_cache --time-unit=B --heap-admin=0 --ignore-fn=from_stub \
      --check-unwind-cache=yes --stats=yes "$PROGS/unnamed_frame"
   expect_in "the stack cache serves the loops" "$WORK/unnamed_cache.stderr" \
      'stack cache hits: *[1-9]'
   expect_in "... every hit as a full unwind" "$WORK/unnamed_cache.stderr" 'wrong cache hits: *0$'
   expect_in "... 10 blocks ignored" "$WORK/unnamed_cache.stderr" 'blocks ignored: *10$'
   # --alloc-fn strips named frames only, from the top: as in massif, a
   # frame without a name ends the allocator's frames.
   record_ok unnamed_alloc $opts --alloc-fn=from_stub "$PROGS/unnamed_frame"
   expect_eq "--alloc-fn=from_stub below an unnamed frame strips nothing" \
      "$(q frames "$profile" from_stub | sed -n 3p | cut -f1)" from_stub
fi

# libstdc++'s emergency pool for exceptions is allocated at start-up by a
# function without a symbol, called by the loader's call_init: massif's own
# C++ tests leave it out with --ignore-fn=call_init.
if [ "$RECORDER" = valgrind ]; then
record_ok cxx $opts "$PROGS/cxx_new"
ask "$profile" "bytes call_init peak" "get heap peak"
pool=$(answer "$profile" bytes call_init peak)
expect_le "a start-up allocation under call_init (libstdc++'s pool)" 1 "$pool"
peak=$(answer "$profile" get heap peak)
record_ok cxx_ignored $opts --ignore-fn=call_init "$PROGS/cxx_new"
ask "$profile" "frames call_init" "get heap peak"
expect_eq "--ignore-fn=call_init leaves it out" "$(answer "$profile" frames call_init)" ""
expect_eq "... and the peak is less by its bytes" "$(answer "$profile" get heap peak)" \
   "$((peak - pool))"
fi

# ---- main (tests/programs/main_alloc.c) ------------------------------------
record_ok main $opts "$PROGS/main_alloc"
expect_eq "without options: main's own 1000 bytes" "$(q get "$profile" heap final)" 1200
record_ok main_ignored $opts --ignore-fn=main "$PROGS/main_alloc"
ask "$profile" "get heap final" "bytes helper"
expect_eq "--ignore-fn=main ignores what main allocates itself" \
   "$(answer "$profile" get heap final)" 200
expect_eq "... not what helper allocates" "$(answer "$profile" bytes helper)" 200
record_ok main_alloc $opts --alloc-fn=main "$PROGS/main_alloc"
ask "$profile" "get heap final" sites "frames helper"
expect_eq "--alloc-fn=main: nothing is lost" "$(answer "$profile" get heap final)" 1200
below='(below main) ([^<]*)'            # Valgrind's name for the C library's frame
[ "$RECORDER" = native ] && below='__libc_start_call_main (.*)'   # its DWARF name
expect_eq "... main's 1000 bytes go to the one frame below main, as in massif" \
   "$(answer "$profile" sites | grep -c "^1000 1: $below\$")" 1
expect_eq "... helper's site keeps main" "$(answer "$profile" frames helper | sed -n 3p | cut -f1)" main
finish
