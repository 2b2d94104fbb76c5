/* idle_free IDLE: allocates one 1 MiB block, computes for IDLE loop
 * iterations without touching the heap, frees the block, and computes as
 * long again.  The heap is a plateau, a drop, and a flat zero. */
#include "prog.h"

static void *volatile block;

NOINLINE static void *hold_buffer(void)
{
   return AFTER_CALL(malloc(1 << 20));
}

int main(int argc, char **argv)
{
   long idle = argc > 1 ? atol(argv[1]) : 3000000;
   block = hold_buffer();
   idle_loop(idle);
   free(block);
   idle_loop(idle);
   return 0;
}
