/* timed: a user snapshot, 300 ms asleep, another user snapshot. */
#include <time.h>
#include "prog.h"

static void *volatile kept[2];

NOINLINE static void *timed_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

int main(void)
{
   struct timespec pause = { 0, 300 * 1000 * 1000 };
   kept[0] = timed_alloc();
   STRATA_SNAPSHOT();
   while (nanosleep(&pause, &pause) != 0)
      ;
   kept[1] = timed_alloc();
   STRATA_SNAPSHOT();
   free(kept[0]);
   free(kept[1]);
   return 0;
}
