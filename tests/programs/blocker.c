/* blocker N: N steps of one 1008-byte block from step_alloc followed by a
 * user snapshot, then it waits to be killed. */
#include <unistd.h>
#include "prog.h"

static void *volatile kept[1000];

NOINLINE static void *step_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

int main(int argc, char **argv)
{
   int steps = argc > 1 ? atoi(argv[1]) : 5;
   if (steps < 1 || steps > 1000)
      return 2;
   for (int i = 0; i < steps; i++) {
      kept[i] = step_alloc();
      STRATA_SNAPSHOT();
   }
   for (int i = 0; i < 600; i++)   /* ten minutes at most */
      sleep(1);
   return 1;
}
