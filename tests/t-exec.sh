#!/bin/bash
# fork + exec: with --trace-children=yes (a Valgrind core option, passed
# through) the exec'd child writes its own profile; without it, it does not.
# exec without fork: the program before the exec and the one after each
# have a profile.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# program FILE: the program a profile is of (the first word of its cmd;
# asked: get header:cmd)
program() {
   basename "$(answer "$1" get header:cmd | cut -d' ' -f1)"
}

# profile_of PROGRAM: the profile of that program
profile_of() {
   local f
   for f in "${profiles[@]}"; do
      if [ "$(program "$f")" = "$1" ]; then echo "$f"; return; fi
   done
   echo "$WORK/none"
}

# The forked child writes a profile until its exec, and the program it execs
# one of its own, named after the child's with .exec1 after it.
record_ok traced --heap-admin=0 --trace-children=yes "$PROGS/fork_exec" "$PROGS/exec_child"
expect_eq "profiles with --trace-children=yes" "${#profiles[@]}" 3
for f in "${profiles[@]}"; do
   ask "$f" "get header:"{cmd,pid,ppid}
done
child=$(profile_of exec_child)
forked=${child%.exec1}
parent=$WORK/none
for f in "${profiles[@]}"; do
   [ "$f" != "$forked" ] && [ "$(program "$f")" = fork_exec ] && parent=$f
done
ask "$parent" "bytes parent_alloc"
ask "$child" "bytes exec_child_alloc user:1" "get heap final"
expect_eq "the forked child before its exec" "$(program "$forked")" fork_exec
expect_eq "the forked child: its pid" "$(answer "$forked" get header:pid)" "$(answer "$child" get header:pid)"
expect_eq "parent: parent_alloc at the end" "$(answer "$parent" bytes parent_alloc)" 3008
expect_eq "child: exec_child_alloc at user 1" "$(answer "$child" bytes exec_child_alloc user:1)" 7008
expect_eq "child: final heap" "$(answer "$child" get heap final)" 7008
expect_eq "child: ppid is the parent's pid" "$(answer "$child" get header:ppid)" "$(answer "$parent" get header:pid)"
expect_eq "child: file name has its pid" "$(basename "$child")" "traced.$(answer "$child" get header:pid).exec1"

# Without --trace-children, exec_child runs natively: no profile of it.
rm -f "$WORK"/untraced.*
(cd "$WORK" && "$STRATA" record -o "$WORK/untraced.%p" --heap-admin=0 "$PROGS/fork_exec" "$PROGS/exec_child") \
   >"$WORK/untraced.stdout" 2>"$WORK/untraced.stderr"
expect_eq "exit status without --trace-children" "$?" 0
found=0
for f in "$WORK"/untraced.[0-9]*; do
   [ -e "$f" ] || continue
   check_profile "$f"
   ask "$f" "get header:cmd" "bytes parent_alloc last"
   [ "$(program "$f")" = exec_child ] && found=1
   expect_eq "untraced: parent_alloc in $(basename "$f")" "$(answer "$f" bytes parent_alloc last)" 3008
done
expect_eq "a profile of exec_child without --trace-children" "$found" 0

# exec_profiles LABEL FUNCTION PROGRAM N PROFILE...: PROGRAM N execs itself
# with N - 1 down to 0 in one process, each keeping (N + 1) * 1000 bytes
# from FUNCTION at its user snapshot; the PROFILEs, one a program in order,
# say so, each with its command.
exec_profiles() {
   local label=$1 function=$2 program=$3 n=$4 f
   shift 4
   for f in "$@"; do
      check_profile "$f"
      ask "$f" "bytes $function user:1" "get header:cmd"
      expect_eq "$label: $(basename "$f"): $function at user 1" \
         "$(answer "$f" bytes "$function" user:1)" $(((n + 1) * 1000))
      expect_eq "$label: $(basename "$f"): the command" "$(answer "$f" get header:cmd)" \
         "$PROGS/$program $n"
      n=$((n - 1))
   done
}

# exec without fork (issue 10, defect 5): the same pid, so the same name for
# the program after the exec; it writes to that name followed by .execN,
# and every profile survives, each complete.  With a name without %p too.
for pattern in 'chain.%p' 'chain'; do
   rm -f "$WORK"/chain*
   (cd "$WORK" && exec "$STRATA" record ${RECORD_ARGS[@]+"${RECORD_ARGS[@]}"} -o "$WORK/$pattern" \
      --heap-admin=0 --trace-children=yes \
      "$PROGS/exec_chain" 2) >"$WORK/chain.stdout" 2>"$WORK/chain.stderr"
   expect_eq "$pattern: exit status" "$?" 0
   first=$WORK/$(ls "$WORK" | grep -E '^chain(\.[0-9]+)?$')
   expect_eq "$pattern: three profiles" "$(ls "$WORK" | grep -Ec '^chain(\.[0-9]+)?(\.exec[0-9])?$')" 3
   exec_profiles "$pattern" chain_alloc exec_chain 2 "$first" "$first.exec1" "$first.exec2"
   expect_in "$pattern: strata record names all three" "$WORK/chain.stderr" \
      "3 profiles written: $first $first.exec1 $first.exec2\$"
done

# The variadic forms (execle, execlp, execl), which the C library runs
# through its own execve: each program after an exec is a profile of its own.
rm -f "$WORK"/forms*
(cd "$WORK" && exec "$STRATA" record ${RECORD_ARGS[@]+"${RECORD_ARGS[@]}"} -o "$WORK/forms" \
   --heap-admin=0 \
   --trace-children=yes "$PROGS/exec_forms" 3) >"$WORK/forms.stdout" 2>"$WORK/forms.stderr"
expect_eq "exec forms: exit status" "$?" 0
expect_eq "exec forms: four profiles" "$(ls "$WORK" | grep -Ec '^forms(\.exec[0-9])?$')" 4
exec_profiles "exec forms" forms_alloc exec_forms 3 \
   "$WORK/forms" "$WORK/forms.exec1" "$WORK/forms.exec2" "$WORK/forms.exec3"

# A failed exec takes back the end written before it: one end, and the
# profile goes on.
record_ok failed --heap-admin=0 "$PROGS/exec_fail"
ask "$profile" "bytes "{before,after}"_exec user:1" "get heap final"
expect_eq "failed execs: one final snapshot" "$(grep -c '^T	final' "$profile")" 1
expect_eq "failed execs: one end record" "$(grep -c '^X' "$profile")" 1
expect_eq "before_exec at the user snapshot" "$(answer "$profile" bytes before_exec user:1)" 1008
expect_eq "after_exec at the user snapshot" "$(answer "$profile" bytes after_exec user:1)" 2008
expect_eq "final heap" "$(answer "$profile" get heap final)" 3016
finish
