/* leak_at_exit: steady growth that is freed at exit, so that a "not freed
 * at exit" checker finds nothing.
 *
 * A stream of 600 requests of irregular sizes (a fixed pseudo-random
 * sequence).  Each request's body is freed when done, but its metadata
 * (meta_alloc, 64 bytes) stays on a registry of every request ever seen,
 * which is only emptied when the program exits. */
#include <string.h>

#include "prog.h"

enum { REQUESTS = 600, META_BYTES = 64 };

struct meta {
   struct meta *next;
   char text[META_BYTES - sizeof(struct meta *)];
};

static struct meta *registry;
static unsigned seed = 777;

static unsigned next_random(void)
{
   seed = seed * 1103515245u + 12345u;
   return (seed >> 16) & 0x7fff;
}

NOINLINE static char *body_alloc(size_t size)
{
   return AFTER_CALL(malloc(size));
}

NOINLINE static void meta_alloc(int request)
{
   struct meta *m = AFTER_CALL(malloc(sizeof *m)); /* the leak */
   m->text[0] = (char)request;
   m->next = registry;
   registry = m;
}

int main(void)
{
   for (int r = 0; r < REQUESTS; r++) {
      size_t size = 512 + next_random() % 6000;
      char *body = body_alloc(size);
      memset(body, r, size);
      meta_alloc(r);
      if (next_random() % 3 != 0)
         free(body);
      else
         free(AFTER_CALL(realloc(body, size / 2)));
   }
   while (registry != NULL) {
      struct meta *next = registry->next;
      free(registry);
      registry = next;
   }
   return 0;
}
