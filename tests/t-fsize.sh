#!/bin/bash
# A program's own file-size limit (issue 10, defect 4): natively,
# fsize_limit sets RLIMIT_FSIZE to 2000 bytes, finds its file full and exits
# 5; under strata it used to die of SIGXFSZ, the profile's writes being
# counted against its limit.  The program must run as it does natively;
# the profile is complete when the hard limit lets strata lift the limit,
# and otherwise stops before the limit with a Q record saying why.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

"$PROGS/fsize_limit" "$WORK/native" hard
expect_eq "natively: exit status 5" "$?" 5

# has_cap_sys_resource: whether this process may raise a hard limit.
has_cap_sys_resource() {
   local eff
   eff=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
   [ -n "$eff" ] && (( (16#$eff >> 24) & 1 ))
}

# The soft limit only: strata lifts it to the hard limit for its writes.
record soft --heap-admin=0 "$PROGS/fsize_limit" "$WORK/soft.data" soft
expect_eq "soft limit: exit status 5, as natively" "$status" 5
ask "$profile" "get stopped" "bytes use_blocks user:1" "get heap final"
expect_eq "soft limit: the program's file is at its limit" "$(stat -c %s "$WORK/soft.data")" 2000
expect_eq "soft limit: the profile is complete" "$(answer "$profile" get stopped)" none
expect_le "soft limit: the profile is larger than the limit" 2001 "$(stat -c %s "$profile")"
expect_eq "soft limit: use_blocks at user 1" "$(answer "$profile" bytes use_blocks user:1)" 1000
expect_eq "soft limit: final heap" "$(answer "$profile" get heap final)" 0

# The hard limit too: beyond it only with CAP_SYS_RESOURCE.
rm -f "$WORK"/hard.[0-9]*
(cd "$WORK" && exec "$STRATA" record -o "$WORK/hard.%p" --heap-admin=0 \
   "$PROGS/fsize_limit" "$WORK/hard.data" hard) >"$WORK/hard.stdout" 2>"$WORK/hard.stderr"
expect_eq "hard limit: exit status 5, as natively" "$?" 5
expect_eq "hard limit: the program's file is at its limit" "$(stat -c %s "$WORK/hard.data")" 2000
p=$(ls "$WORK"/hard.[0-9]* 2>/dev/null | head -1)
if has_cap_sys_resource; then
   check_profile "$p"
   expect_eq "hard limit, lifted: final heap" "$(q get "$p" heap final)" 0
else
   check_profile "$p" --truncated-ok
   expect_eq "hard limit: the profile says why it stops" "$(q get "$p" stopped)" \
      "the file-size limit (RLIMIT_FSIZE) of 2000 bytes, which strata cannot lift"
   expect_le "hard limit: the profile stops within the limit" "$(stat -c %s "$p")" 2000
   expect_in "hard limit: strata record says the profile is incomplete, and why" \
      "$WORK/hard.stderr" "hard\.[0-9]+ is incomplete: strata stopped writing it: the file-size limit"
   "$STRATA" report "$p" >"$WORK/hard.report" 2>&1
   expect_in "hard limit: strata report says why it stops" "$WORK/hard.report" \
      "^end: +cut short, strata stopped writing it: the file-size limit"
fi
finish
