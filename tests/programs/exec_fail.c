/* exec_fail: keeps 1008 bytes from before_exec, tries to exec a program that
 * does not exist, three times (as execvp does along the PATH), then keeps
 * 2008 bytes from after_exec, takes a user snapshot and exits.  The profile
 * must go on after the failed execs as if they had not been tried. */
#include <unistd.h>
#include "prog.h"

static void *volatile kept[2];

NOINLINE static void *before_exec(void)
{
   return AFTER_CALL(malloc(1008));
}

NOINLINE static void *after_exec(void)
{
   return AFTER_CALL(malloc(2008));
}

int main(void)
{
   char *args[] = { "strata-no-such-program", NULL };
   kept[0] = before_exec();
   for (int i = 0; i < 3; i++)
      execv("/nonexistent/strata-no-such-program", args);
   kept[1] = after_exec();
   STRATA_SNAPSHOT();
   return 0;
}
