/* exec_chain [N]: keeps (N + 1) * 1000 bytes from chain_alloc, takes a user
 * snapshot, then, if N > 0, execs itself (ARGV[0], a path) with N - 1
 * without forking (the same process, so the same pid), after an exec that
 * fails.  So exec_chain 2 is three programs in one process: 3000, 2000,
 * then 1000 bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "prog.h"

static void *volatile kept;

NOINLINE static void *chain_alloc(size_t n)
{
   return AFTER_CALL(malloc(n));
}

int main(int argc, char **argv)
{
   long n = argc > 1 ? atol(argv[1]) : 0;
   char next[24];
   char *args[] = { argv[0], next, NULL };
   kept = chain_alloc((size_t)(n + 1) * 1000);
   STRATA_SNAPSHOT();
   if (n == 0)
      return 0;
   snprintf(next, sizeof next, "%ld", n - 1);
   execv("/nonexistent/exec_chain", args);
   execv(argv[0], args);
   return 1;
}
