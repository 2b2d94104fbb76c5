/* trap_cache: a cache that grows and then plateaus: not a leak.
 *
 * 12 cycles without markers; each handles 24 lookups with a working buffer
 * of 16 KiB that is freed at the cycle's end.  A lookup that misses fills
 * one of 32 cache slots (cache_fill, 1 KiB) for good; the keys repeat, so
 * the slots are all taken during the first 3 cycles and the cache stays
 * at 32 KiB from then on, until the program exits without freeing it. */
#include <string.h>

#include "prog.h"

enum { CYCLES = 12, LOOKUPS = 24, SLOTS = 32, ENTRY_BYTES = 1024 };

static char *volatile cache[SLOTS];

NOINLINE static char *cache_fill(void)
{
   return AFTER_CALL(malloc(ENTRY_BYTES));
}

NOINLINE static char *work_alloc(void)
{
   return AFTER_CALL(malloc(16 * 1024));
}

NOINLINE static char *result_alloc(void)
{
   return AFTER_CALL(malloc(3000));
}

int main(void)
{
   int key = 0;
   for (int c = 0; c < CYCLES; c++) {
      char *work = work_alloc();
      char *results[LOOKUPS];
      for (int i = 0; i < LOOKUPS; i++) {
         int slot = key++ % (SLOTS + 40);
         if (slot < SLOTS && cache[slot] == NULL)
            cache[slot] = cache_fill();
         results[i] = result_alloc();
         memset(results[i], i, 3000);
         work[i] = results[i][0];
      }
      for (int i = 0; i < LOOKUPS; i++)
         free(results[i]);
      free(work);
   }
   return 0;
}
