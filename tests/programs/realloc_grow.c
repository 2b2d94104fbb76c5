/* realloc_grow: one log buffer grown by realloc by 25% at a time, 40 times,
 * never truncated (the buffer moves as it grows), then freed. */
#include "prog.h"

static char *volatile log_buffer;

NOINLINE static void log_grow(size_t size)
{
   char *p = realloc(log_buffer, size);
   if (p == NULL)
      abort();
   p[size - 1] = 1;
   log_buffer = p;
}

int main(void)
{
   size_t size = 1000;
   for (int i = 0; i < 40; i++) {
      log_grow(size);
      size += size / 4;
   }
   free(log_buffer);
   return 0;
}
