/* exec_forms [N]: keeps (N + 1) * 1000 bytes from forms_alloc, takes a user
 * snapshot, then, if N > 0, execs itself (ARGV[0], a path) with N - 1
 * without forking, through the variadic forms of exec: execle when N is 3,
 * execlp when 2, execl when 1.  So exec_forms 3 is four programs in one
 * process: 4000, 3000, 2000, then 1000 bytes.  (The C library's variadic
 * forms call execve inside the library, not through its exported symbol.) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "prog.h"

extern char **environ;
static void *volatile kept;

NOINLINE static void *forms_alloc(size_t n)
{
   return AFTER_CALL(malloc(n));
}

int main(int argc, char **argv)
{
   long n = argc > 1 ? atol(argv[1]) : 0;
   char next[24];
   kept = forms_alloc((size_t)(n + 1) * 1000);
   STRATA_SNAPSHOT();
   if (n == 0)
      return 0;
   snprintf(next, sizeof next, "%ld", n - 1);
   if (n == 3)
      execle(argv[0], argv[0], next, (char *)NULL, environ);
   else if (n == 2)
      execlp(argv[0], argv[0], next, (char *)NULL);
   else
      execl(argv[0], argv[0], next, (char *)NULL);
   return 1;
}
