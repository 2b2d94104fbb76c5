/* cyclic N: N steps; each frees the oldest of 64 live 1008-byte blocks and
 * allocates a new one from cycle_alloc, so 64 blocks stay live.  Every step
 * adds 2016 bytes to the run's length in bytes (--time-unit=B). */
#include "prog.h"

enum { LIVE = 64 };

static void *volatile ring[LIVE];

NOINLINE static void *cycle_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

int main(int argc, char **argv)
{
   long steps = argc > 1 ? atol(argv[1]) : 1000;
   for (long i = 0; i < steps; i++) {
      free(ring[i % LIVE]);
      ring[i % LIVE] = cycle_alloc();
   }
   for (int i = 0; i < LIVE; i++)
      free(ring[i]);
   return 0;
}
