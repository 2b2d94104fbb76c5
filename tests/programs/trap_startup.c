/* trap_startup: allocations made once at start-up: not a leak.
 *
 * A table and a configuration are allocated at start-up (startup_table,
 * startup_config) and kept to the end without being freed; a lookup index
 * is built lazily during the first cycle (index_build).  Then 10 cycles
 * marked "tick" do work with buffers freed within the cycle. */
#include <string.h>

#include "prog.h"

enum { CYCLES = 10, STEPS = 20 };

NOINLINE static char *startup_table(void)
{
   return AFTER_CALL(calloc(1, 256 * 1024));
}

NOINLINE static char *startup_config(void)
{
   return AFTER_CALL(malloc(4096));
}

NOINLINE static char *index_build(void)
{
   return AFTER_CALL(malloc(20000));
}

NOINLINE static char *step_alloc(size_t size)
{
   return AFTER_CALL(malloc(size));
}

int main(void)
{
   char *volatile table = startup_table();
   char *volatile config = startup_config();
   char *volatile index = NULL;
   for (int c = 0; c < CYCLES; c++) {
      STRATA_MARK("tick");
      char *bufs[STEPS];
      for (int s = 0; s < STEPS; s++) {
         if (c == 0 && s == STEPS / 2)
            index = index_build();
         bufs[s] = step_alloc(3000 + (size_t)s * 100);
         memset(bufs[s], s, 3000);
         table[s] = bufs[s][0];
      }
      for (int s = 0; s < STEPS; s++)
         free(bufs[s]);
   }
   config[0] = index[0];
   return 0;
}
