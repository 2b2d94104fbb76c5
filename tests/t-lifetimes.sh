#!/bin/bash
# Lifetimes (docs/format.md, "Lifetimes"): when each byte was born, when it
# died, and which stack freed the bytes that lived across an epoch's end.
# tests/programs/lifetimes runs a script of heap operations after a marker;
# with --time-unit=B the clock is the bytes allocated plus freed, so
# tests/lifetimes-sim knows the time of each operation and says, cell by
# cell, what the b, d and a lines of the script's own sites must be.  (Every
# profile of every test is also checked by profile-query: the records'
# grammar, and alive at the end = the final snapshot, site by site.)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

SIM=$top_srcdir/tests/lifetimes-sim

# gen SEED OPS THREADS: a script of OPS random operations (THREADS: yes to
# give some of them to the workers), between a block born first and freed
# last by free_late, and with slot 1 grown and shrunk all along (layers).
gen() {
   run_py lifetimes_script "$@"
}

# sim NAME SCRIPT PROFILE [OPTIONS]: lifetimes-sim agrees with PROFILE.
sim() {
   local what=$1
   shift
   checks=$((checks + 1))
   if out=$("$PYTHON" "$SIM" "$@" 2>&1); then
      pass "$what: the lifetimes are the script's ($out)"
   else
      fail "$what: the lifetimes are not the script's:"
      echo "$out" | sed 's/^/   | /'
   fi
}

# Malloc, calloc, memalign and friends, new[] and delete[], realloc up
# (layers in later epochs), down (the newest bytes die first) and to another
# site (the bytes move with their ages), MALLOCLIKE, RESIZEINPLACE and
# FREELIKE, through many doublings of the epoch length.
gen 1 600 no >"$WORK/mixed.script"
record_ok mixed --time-unit=B "$PROGS/lifetimes" "$WORK/mixed.script"
sim "mixed" "$WORK/mixed.script" "$profile"
mixed=$profile
ask "$mixed" "epochs" "freed-by alloc_a" "get opt:free_stacks" "get opt:free_depth" "get opt:lifetimes"
expect_eq "opt lifetimes" "$(answer "$mixed" get opt:lifetimes)" yes
expect_eq "opt free_stacks" "$(answer "$mixed" get opt:free_stacks)" yes
expect_eq "opt free_depth" "$(answer "$mixed" get opt:free_depth)" 12
read -r _ records _ t0 _ length _ first_index first_start first_length _ <<<"$(answer "$mixed" epochs)"
expect_le "the length doubled many times" 1024 "$length"
expect_eq "the first epoch: 0, at t0, of length 1" "$first_index $first_start $first_length" "0 $t0 1"
# The block born first, freed last by free_late: its free stack starts there.
expect_grep "the block born first is freed by free_late" <(answer "$mixed" freed-by alloc_a) -Fx "free_late 3000 1"

# Questions of time on the real recording: the bytes born in epochs [F, T)
# and alive across boundary Z (or at the end), site by site, as the script
# says, against strata report --json (times given at the boundaries).
question() {   # F T Z|end
   local born="--born=$((t0 + $1 * length))..$((t0 + $2 * length))" at=
   [ "$3" = end ] || at="--alive-at=$((t0 + $3 * length))"
   checks=$((checks + 1))
   if ! "$STRATA" report --json --depth=all --top=100000 --threshold=0 $born $at "$mixed" \
         >"$WORK/question.json" 2>"$WORK/question.err"; then
      fail "$born $at: strata report failed: $(cat "$WORK/question.err")"
   elif out=$("$PYTHON" "$SIM" "$WORK/mixed.script" "$mixed" --select="$1..$2@$3" \
         --json="$WORK/question.json" 2>&1); then
      pass "$born $at: the report keeps what the script says ($out)"
   else
      fail "$born $at: the report does not keep what the script says:"
      echo "$out" | sed 's/^/   | /'
   fi
}
question 0 16 16
question 8 24 30
question 10 20 end
question 0 64 end

# Alive at the end is what the final state holds, exactly: a 100,000-byte
# table and a 1000-byte buffer made and freed 2,000 times, the table freed
# last, then the release at exit.  Whatever the last epoch holds of them
# (buffers born and freed in it, deaths at exit), none is alive at the end:
# the bytes selected are the final snapshot's.  (Once, every byte freed in
# the last epoch counted as alive: the repro of issue 32 got 7,780,000 bytes
# "alive at the end" of a heap that never held more than 101,000.  Here the
# last epoch's place moves with the run; tests/t-lifetimes-read.sh and the
# unit tests hold the exact cases.)
{ echo "malloc 0 100000"
  for _ in $(seq 2000); do echo "malloc 2 1000"; echo "free 2"; done
  echo "freelate 0"; } >"$WORK/churn.script"
record_ok churn --time-unit=B "$PROGS/lifetimes" "$WORK/churn.script"
"$STRATA" report --json "$profile" >"$WORK/churn.json"
"$STRATA" report --json --born=.. "$profile" >"$WORK/churn-end.json"
expect_eq "--born=..: the bytes alive at the end are the final snapshot's heap" \
   "$(json "$WORK/churn-end.json" selection.bytes)" "$(json "$WORK/churn.json" final.heap_bytes)"
expect_le "... no more than the peak" "$(json "$WORK/churn-end.json" selection.bytes)" \
   "$(json "$WORK/churn.json" peak.heap_bytes)"

# The same with the expensive sanity checks (alive by birth adds up to each
# site's bytes and blocks, layers to each block's size) and --stats=yes.
record_ok checked --time-unit=B --sanity-level=3 --stats=yes "$PROGS/lifetimes" "$WORK/mixed.script"
sim "--sanity-level=3" "$WORK/mixed.script" "$profile"
expect_in "--stats=yes: the epoch records" "$WORK/checked.stderr" \
   "epoch records: +$(grep -c '^L' "$profile") "
expect_in "--stats=yes: the free stacks, from their cache" "$WORK/checked.stderr" \
   "free stacks: +[1-9][0-9]* \\([0-9,]+ looked up at frees: [1-9][0-9,]* stack cache hits"
expect_in "--stats=yes: the layered blocks" "$WORK/checked.stderr" "layered blocks: +[1-9]"

# Threads: the workers' operations in the script's order.
gen 2 400 yes >"$WORK/threads.script"
record_ok threads --time-unit=B "$PROGS/lifetimes" "$WORK/threads.script"
sim "threads" "$WORK/threads.script" "$profile"

# --stacks=yes: the stacks have no lifetimes, and the report says so (the
# heap's lifetimes are the script's all the same).
record_ok stacks --time-unit=B --stacks=yes "$PROGS/lifetimes" "$WORK/mixed.script"
sim "--stacks=yes" "$WORK/mixed.script" "$profile"
expect_grep "--stacks=yes: the report says the stacks have no lifetimes" \
   <("$STRATA" report "$profile") -F "; the stacks (--stacks=yes) have no lifetimes"

# --free-stacks=no: every free-stack id 0, no P record.
record_ok nofree --time-unit=B --free-stacks=no "$PROGS/lifetimes" "$WORK/mixed.script"
sim "--free-stacks=no" "$WORK/mixed.script" "$profile"
expect_eq "--free-stacks=no: opt free_stacks" "$(q get "$profile" opt:free_stacks)" no
expect_eq "--free-stacks=no: no P record" "$(grep -c '^P' "$profile")" 0

# --free-depth=1: free stacks of one code address (the freeing function,
# and the functions inlined there).
record_ok depth1 --time-unit=B --free-depth=1 "$PROGS/lifetimes" "$WORK/mixed.script"
sim "--free-depth=1" "$WORK/mixed.script" "$profile"
expect_eq "--free-depth=1: every P record has one code address" "$(awk -F'\t' '
   $1 == "F" { address[$2] = $3 }
   $1 == "P" { n = 0; delete seen
               for (i = 3; i <= NF; i++) if (!seen[address[$i]]++) n++
               if (n != 1) bad++ }
   END { print bad + 0 }' "$profile")" 0
expect_le "--free-depth=1: P records" 1 "$(grep -c '^P' "$profile")"

# Fork: the child's file gives the blocks it inherited as births, with their
# ages, and goes on with the parent's epochs.
cat >"$WORK/fork.script" <<'EOF'
malloc 1 4000
grow 2 100
grow 2 30000
new 3 500
pool 4 700
fork
c free 1
c grow 2 50
c malloc 5 9000
c delete 3
p freelate 1
p move 2 60000
p malloc 6 100
EOF
record_ok fork --time-unit=B "$PROGS/lifetimes" "$WORK/fork.script"
expect_eq "fork: two profiles" "${#profiles[@]}" 2
parent=$WORK/none child=$WORK/none
for f in "${profiles[@]}"; do
   if [ -n "$(q markers "$f")" ]; then parent=$f; else child=$f; fi
done
start=$(q markers "$parent" | awk -F'\t' '$2 == "script" { print $1 }')
sim "fork: the parent" "$WORK/fork.script" "$parent"
sim "fork: the child" "$WORK/fork.script" "$child" --child --start="$start"
read -r _ _ _ pt0 _ _ <<<"$(q epochs "$parent")"
read -r _ _ _ ct0 _ _ _ first_index _ <<<"$(q epochs "$child")"
expect_eq "fork: the child's t0 is its parent's" "$ct0" "$pt0"
expect_le "fork: the child's first epoch is not the first of the run" 1 "$first_index"

# SIGKILL after the script: every epoch closed by then is in the file, and
# no other; no a lines.
gen 3 300 no >"$WORK/killed.script"
out=$WORK/killed
(cd "$WORK" && exec "$STRATA" record --time-unit=B -o "$out" "$PROGS/lifetimes" "$WORK/killed.script" wait) \
   >"$WORK/killed.stdout" 2>"$WORK/killed.stderr" &
launcher=$!
for _ in $(seq 300); do
   grep -q $'^M\t[0-9]*\tdone$' "$out" 2>/dev/null && break
   sleep 0.1
done
kill_recorded "$out" "$launcher"
check_profile "$out" --truncated-ok
expect_eq "killed: no X" "$(q get "$out" end)" none
sim "killed" "$WORK/killed.script" "$out" --killed

# --pages-as-heap=yes: the pages are the blocks (alive at the end = the final
# snapshot, checked with every profile).
record_ok pages --pages-as-heap=yes "$PROGS/lifetimes" "$WORK/fork.script"
expect_le "--pages-as-heap=yes: epoch records" 1 "$(grep -c '^L' "$profile")"
expect_le "--pages-as-heap=yes: births" 1 "$(grep -c '^b' "$profile")"

# exec: each program's profile starts its lifetimes afresh (its first epoch
# 0, of length 1, at its own first heap operation); a failed execve's end is
# taken back, a lines included.
record_ok exec --trace-children=yes "$PROGS/fork_exec" "$PROGS/exec_child"
expect_eq "exec: three profiles" "${#profiles[@]}" 3
for f in "${profiles[@]}"; do
   read -r _ _ _ t0 _ _ _ first_index first_start first_length _ <<<"$(q epochs "$f")"
   expect_eq "$(basename "$f"): the first epoch" "$first_index $first_start $first_length" "0 $t0 1"
done
record_ok exec_fail "$PROGS/exec_fail"
expect_eq "a failed execve: one epoch record with a lines" \
   "$(awk -F'\t' '$1 == "L" { l = NR } $1 == "a" && !seen[l]++ { n++ } END { print n + 0 }' "$profile")" 1
finish
