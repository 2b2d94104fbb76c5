/* xalloc.c: the wrapper itself (a translation unit of its own, as in most
 * programs, so that -O2 keeps it a function of its own). */
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>

struct header {
   size_t size;
   enum xtag tag;
};

static long live_bytes[X_NTAGS];

void *xalloc(size_t size, enum xtag tag)
{
   struct header *h = malloc(sizeof *h + size);
   if (h == NULL) {
      fprintf(stderr, "out of memory (%zu bytes)\n", size);
      abort();
   }
   h->size = size;
   h->tag = tag;
   live_bytes[tag] += (long)size;
   return h + 1;
}

void xfree(void *p)
{
   if (p == NULL)
      return;
   struct header *h = (struct header *)p - 1;
   live_bytes[h->tag] -= (long)h->size;
   free(h);
}

void xalloc_stats(long out[X_NTAGS])
{
   for (int i = 0; i < X_NTAGS; i++)
      out[i] = live_bytes[i];
}
