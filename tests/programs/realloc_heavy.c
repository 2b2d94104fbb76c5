/* realloc_heavy: 8 buffers grown in turns by realloc, 40 bytes at a time, to
 * about 16 KiB each (so that blocks move), then shrunk to a quarter; half of
 * them are freed.  Sizes are not multiples of 16, so there is slop. */
#include "prog.h"

enum { BUFFERS = 8, STEPS = 400 };

static char *volatile buffers[BUFFERS];

NOINLINE static void grow_all(size_t size)
{
   for (int b = 0; b < BUFFERS; b++) {
      char *p = realloc(buffers[b], size + (size_t)b * 8);
      if (p == NULL)
         abort();
      p[0] = (char)b;
      buffers[b] = p;
   }
}

NOINLINE static void shrink_all(void)
{
   for (int b = 0; b < BUFFERS; b++) {
      char *p = realloc(buffers[b], (STEPS * 40) / 4 + 3);
      if (p == NULL)
         abort();
      buffers[b] = p;
   }
}

int main(void)
{
   for (int s = 1; s <= STEPS; s++)
      grow_all((size_t)s * 40 + 1);
   shrink_all();
   for (int b = 0; b < BUFFERS; b += 2) {
      free(buffers[b]);
      buffers[b] = NULL;
   }
   return 0;
}
