/* blocker N [threaded]: N steps of one 1008-byte block from step_alloc
 * followed by a user snapshot, then it waits to be killed.  With
 * "threaded", a thread that allocates and frees a block is started and
 * joined first: the program has had a thread of its own (natively, the
 * recorder's writer thread writes its profile from then on). */
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "prog.h"

static void *volatile kept[1000];

NOINLINE static void *step_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

static void *helper(void *arg)
{
   free(malloc(64));
   return arg;
}

int main(int argc, char **argv)
{
   int steps = argc > 1 ? atoi(argv[1]) : 5;
   pthread_t t;
   if (steps < 1 || steps > 1000)
      return 2;
   if (argc > 2 && strcmp(argv[2], "threaded") == 0
       && (pthread_create(&t, NULL, helper, NULL) != 0 || pthread_join(t, NULL) != 0))
      return 2;
   for (int i = 0; i < steps; i++) {
      kept[i] = step_alloc();
      STRATA_SNAPSHOT();
   }
   for (int i = 0; i < 600; i++)   /* ten minutes at most */
      sleep(1);
   return 1;
}
