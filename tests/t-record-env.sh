#!/bin/bash
# strata record sets VALGRIND_LIB for Valgrind only: the program does not
# find it in its environment (a program that runs valgrind itself would find
# strata's tool directory there instead of its own Valgrind's).  The tool
# takes it out of the client's environment before the client starts, in
# every mode (with the malloc replacement, without it, a static program),
# and the traced program after an exec is rid of it again.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# run NAME [RECORD-OPTIONS] PROGRAM [ARGS]: strata record, the program's
# stdout in $WORK/NAME.out.
run() {
   local name=$1
   shift
   (cd "$WORK" && STRATA_TEST_KEPT=kept exec "$STRATA" record -o "$WORK/$name.%p" "$@") \
      >"$WORK/$name.out" 2>"$WORK/$name.stderr"
}

run plain /usr/bin/printenv VALGRIND_LIB
expect_eq "printenv VALGRIND_LIB: unset (its exit status 1 is record's)" "$?" 1
expect_eq "printenv VALGRIND_LIB: prints nothing" "$(cat "$WORK/plain.out")" ""
run kept /usr/bin/printenv STRATA_TEST_KEPT
expect_eq "the rest of the environment is the program's" "$(cat "$WORK/kept.out")" kept
run pages --pages-as-heap=yes /usr/bin/printenv VALGRIND_LIB
expect_eq "--pages-as-heap=yes (no malloc replacement): unset" "$?" 1
run traced --trace-children=yes /bin/sh -c \
   'printenv VALGRIND_LIB; echo "sh: $?"; /usr/bin/printenv VALGRIND_LIB; echo "printenv: $?"'
expect_eq "traced: neither the shell nor what it runs sees it" "$(cat "$WORK/traced.out")" \
   "$(printf 'sh: 1\nprintenv: 1')"
expect_eq "traced: the shell, and each printenv as a child and as the program it became" \
   "$(grep -o '[0-9]* profiles written' "$WORK/traced.stderr")" "5 profiles written"
# A program that walks its environment to the auxiliary vector, as the
# dynamic loader does, and one linked statically (no loader, no preload).
cat >"$WORK/auxv.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>
extern char **environ;
int main(void)
{
   char **p = environ;
   while (*p)
      p++;
   unsigned long *auxv = (unsigned long *)(p + 1);
   unsigned long pagesz = 0;
   for (; auxv[0] != AT_NULL; auxv += 2)
      if (auxv[0] == AT_PAGESZ)
         pagesz = auxv[1];
   printf("%s %d\n", getenv("VALGRIND_LIB") ? "set" : "unset",
          pagesz == (unsigned long)sysconf(_SC_PAGESIZE) && getauxval(AT_RANDOM) != 0);
   return 0;
}
C
for kind in dynamic static; do
   flags=; [ $kind = static ] && flags=-static
   if ${CC:-cc} $flags -o "$WORK/auxv-$kind" "$WORK/auxv.c" 2>/dev/null; then
      run "auxv-$kind" "$WORK/auxv-$kind"
      expect_eq "$kind: VALGRIND_LIB unset, the auxiliary vector intact" \
         "$(cat "$WORK/auxv-$kind.out")" "unset 1"
   else
      echo "skipped the $kind program: it does not link here"
   fi
done
finish
