/* main_alloc: main allocates 1000 bytes itself and 200 through helper();
 * nothing is freed (final heap 1200).  --ignore-fn=main ignores the 1000;
 * --alloc-fn=main makes main part of the allocator, so its 1000 bytes
 * belong to the one frame below it (massif's "(below main)"). */
#include "prog.h"

static void *volatile kept[2];

NOINLINE static void *helper(void)
{
   return AFTER_CALL(malloc(200));
}

int main(void)
{
   kept[0] = malloc(1000);
   kept[1] = helper();
   return 0;
}
