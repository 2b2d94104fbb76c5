#!/bin/bash
# --alloc-fn makes a wrapper part of the allocator; --ignore-fn drops the
# allocations a function makes directly.  Both take * and ? wildcards.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

innermost() {   # innermost FILE FUNC: the first frame of FUNC's site (asked: frames FUNC)
   answer "$1" frames "$2" | sed -n 2p | cut -f1
}

record_ok plain --heap-admin=0 "$PROGS/wrappers"
p=$profile
ask "$p" "get heap final" "bytes xmalloc" "frames load_config" "get opt:alloc_fn"
expect_eq "final heap" "$(answer "$p" get heap final)" 10016
expect_eq "xmalloc's sites" "$(answer "$p" bytes xmalloc)" 4016
expect_eq "innermost frame for load_config, no --alloc-fn" "$(innermost "$p" load_config)" xmalloc
expect_eq "no opt alloc_fn line" "$(answer "$p" get opt:alloc_fn)" ""

record_ok alloc --heap-admin=0 --alloc-fn=xmalloc "$PROGS/wrappers"
ask "$profile" "get opt:alloc_fn" "get heap final" "frames xmalloc" "frames load_config" \
   "bytes load_config" "frames noisy_via_wrapper" "frames load_index"
expect_eq "header opt alloc_fn" "$(answer "$profile" get opt:alloc_fn)" xmalloc
expect_eq "final heap unchanged" "$(answer "$profile" get heap final)" 10016
expect_eq "no site has xmalloc" "$(answer "$profile" frames xmalloc)" ""
expect_eq "load_config is the site" "$(innermost "$profile" load_config)" load_config
expect_eq "load_config" "$(answer "$profile" bytes load_config)" 1008
expect_eq "noisy_via_wrapper is the site" "$(innermost "$profile" noisy_via_wrapper)" noisy_via_wrapper
expect_eq "xcalloc still is" "$(innermost "$profile" load_index)" xcalloc

record_ok star --heap-admin=0 '--alloc-fn=x*alloc' "$PROGS/wrappers"
ask "$profile" "frames load_index" "frames load_config"
expect_eq "x*alloc: load_index is the site" "$(innermost "$profile" load_index)" load_index
expect_eq "x*alloc: load_config is the site" "$(innermost "$profile" load_config)" load_config

record_ok two --heap-admin=0 --alloc-fn=xmalloc --alloc-fn=xcalloc "$PROGS/wrappers"
ask "$profile" "get opt:alloc_fn" "frames load_index"
expect_eq "two --alloc-fn in the header" "$(answer "$profile" get opt:alloc_fn)" "xmalloc,xcalloc"
expect_eq "two --alloc-fn: load_index is the site" "$(innermost "$profile" load_index)" load_index

record_ok ignore --heap-admin=0 --ignore-fn=noisy_logger "$PROGS/wrappers"
ask "$profile" "get opt:ignore_fn" "get heap final" "frames noisy_logger"
expect_eq "header opt ignore_fn" "$(answer "$profile" get opt:ignore_fn)" noisy_logger
expect_eq "--ignore-fn=noisy_logger: final heap" "$(answer "$profile" get heap final)" 6016
expect_eq "no site has noisy_logger" "$(answer "$profile" frames noisy_logger)" ""

record_ok ignore_q --heap-admin=0 '--ignore-fn=noisy_logge?' "$PROGS/wrappers"
expect_eq "--ignore-fn=noisy_logge?: final heap" "$(q get "$profile" heap final)" 6016

# noisy_via_wrapper calls xmalloc: it allocates directly only when xmalloc
# belongs to the allocator.
record_ok ignore_indirect --heap-admin=0 --ignore-fn=noisy_via_wrapper "$PROGS/wrappers"
expect_eq "--ignore-fn=noisy_via_wrapper alone ignores nothing" "$(q get "$profile" heap final)" 10016
record_ok ignore_wrapped --heap-admin=0 --alloc-fn=xmalloc --ignore-fn=noisy_via_wrapper "$PROGS/wrappers"
ask "$profile" "get heap final" "frames noisy_via_wrapper"
expect_eq "with --alloc-fn=xmalloc it does: final heap" "$(answer "$profile" get heap final)" 7008
expect_eq "no site has noisy_via_wrapper" "$(answer "$profile" frames noisy_via_wrapper)" ""
finish
