/* trap_waves: waves of different heights: not a leak.
 *
 * 10 cycles without markers; each builds a wave of blocks (wave_alloc,
 * 2 KiB each) to a height that changes from cycle to cycle, and on the
 * whole rises, then frees the whole wave.  The crests rise; the troughs
 * stay at nothing.  A table allocated once at start-up stays. */
#include <string.h>

#include "prog.h"

enum { CYCLES = 10, BLOCK_BYTES = 2048, MAX_HEIGHT = 64 };

static const int heights[CYCLES] = { 12, 30, 18, 40, 24, 48, 36, 56, 44, 64 };

NOINLINE static char *wave_alloc(void)
{
   return AFTER_CALL(malloc(BLOCK_BYTES));
}

NOINLINE static char *table_alloc(void)
{
   return AFTER_CALL(calloc(1, 4096));
}

NOINLINE static char *pause_alloc(void)
{
   return AFTER_CALL(malloc(1536));
}

int main(void)
{
   char *volatile table = table_alloc();
   for (int c = 0; c < CYCLES; c++) {
      char *wave[MAX_HEIGHT];
      for (int i = 0; i < heights[c]; i++) {
         wave[i] = wave_alloc();
         memset(wave[i], i, BLOCK_BYTES);
      }
      for (int i = 0; i < heights[c]; i++)
         free(wave[i]);
      for (int i = 0; i < 24; i++) {
         char *p = pause_alloc();
         table[i] = p[0] = (char)i;
         free(p);
      }
   }
   return table[1] == 1 ? 0 : 1;
}
