/* leak_steady: steady growth, without cycles.
 *
 * A stream of 600 items of irregular sizes (a fixed pseudo-random
 * sequence): each is read into a buffer held for a few items, and each
 * appends a 48-byte record to a log (log_append) that is never trimmed
 * nor freed.  The log's floor climbs all run long. */
#include <string.h>

#include "prog.h"

enum { ITEMS = 600, HELD = 4, RECORD_BYTES = 48 };

struct record {
   struct record *prev;
   char text[RECORD_BYTES - sizeof(struct record *)];
};

static struct record *volatile log_tail;
static char *volatile held[HELD];
static unsigned seed = 12345;

static unsigned next_random(void)
{
   seed = seed * 1103515245u + 12345u;
   return (seed >> 16) & 0x7fff;
}

NOINLINE static char *item_read(size_t size)
{
   return AFTER_CALL(malloc(size));
}

NOINLINE static void log_append(int item)
{
   struct record *r = AFTER_CALL(malloc(sizeof *r)); /* the leak */
   r->text[0] = (char)item;
   r->prev = log_tail;
   log_tail = r;
}

int main(void)
{
   for (int i = 0; i < ITEMS; i++) {
      int slot = (int)(next_random() % HELD);
      free(held[slot]);
      size_t size = 256 + next_random() % 8192;
      held[slot] = item_read(size);
      memset(held[slot], i, size);
      log_append(i);
   }
   for (int s = 0; s < HELD; s++)
      free(held[s]);
   return 0;
}
