#!/bin/bash
# memalign, posix_memalign, aligned_alloc and valloc count the bytes asked for.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

record_ok memalign --heap-admin=0 "$PROGS/memalign"
p=$profile
ask "$p" "bytes use_"{memalign,posix_memalign,aligned_alloc,valloc}" user:1" \
   "get "{heap,blocks}" user:1" "get heap "{user:2,final}
expect_eq "use_memalign at user 1" "$(answer "$p" bytes use_memalign user:1)" 1000
expect_eq "use_posix_memalign at user 1" "$(answer "$p" bytes use_posix_memalign user:1)" 2000
expect_eq "use_aligned_alloc at user 1" "$(answer "$p" bytes use_aligned_alloc user:1)" 4096
expect_eq "use_valloc at user 1" "$(answer "$p" bytes use_valloc user:1)" 5000
expect_eq "heap at user 1" "$(answer "$p" get heap user:1)" 12096
expect_eq "blocks at user 1" "$(answer "$p" get blocks user:1)" 4
expect_eq "heap at user 2, all freed" "$(answer "$p" get heap user:2)" 0
expect_eq "final heap" "$(answer "$p" get heap final)" 0
finish
