/* peak: 100 blocks of 1008 bytes from grow (the peak, 100800 bytes), all
 * freed, then 50 again (50400 bytes, left for the exit). */
#include "prog.h"

enum { BLOCKS = 100 };

static void *volatile kept[BLOCKS];

NOINLINE static void *grow(void)
{
   return AFTER_CALL(malloc(1008));
}

int main(void)
{
   for (int i = 0; i < BLOCKS; i++)
      kept[i] = grow();
   for (int i = 0; i < BLOCKS; i++)
      free(kept[i]);
   for (int i = 0; i < BLOCKS / 2; i++)
      kept[i] = grow();
   return 0;
}
