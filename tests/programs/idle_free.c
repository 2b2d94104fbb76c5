/* idle_free IDLE: allocates one 1 MiB block, computes for IDLE loop
 * iterations without touching the heap, frees the block, and computes as
 * long again.  The heap is a plateau, a drop, and a flat zero. */
#include "prog.h"

static void *volatile block;
static volatile unsigned long sink;

NOINLINE static void *hold_buffer(void)
{
   return AFTER_CALL(malloc(1 << 20));
}

NOINLINE static void compute(long iterations)
{
   unsigned long x = sink;
   for (long i = 0; i < iterations; i++)
      x = x * 6364136223846793005UL + 1442695040888963407UL;
   sink = x;
}

int main(int argc, char **argv)
{
   long idle = argc > 1 ? atol(argv[1]) : 3000000;
   block = hold_buffer();
   compute(idle);
   free(block);
   compute(idle);
   return 0;
}
