/* clones: steady growth at a function that GCC clones, built at -O2
 * whatever CFLAGS say (tests/Makefile.inc).  log_append is always given
 * the same size, which constant propagation folds into a clone of its own:
 * log_append.constprop.0.  The report calls it log_append in its headline,
 * its words and the graph's legends, and gives its symbol in the full stack
 * (tests/t-clones.sh).  The stream is leak_steady's: 600 items of irregular
 * sizes, each held for a few items, each logging a record never freed. */
#include <stdlib.h>
#include <string.h>

enum { ITEMS = 600, HELD = 4 };

struct entry {
   size_t size;
   int id;
   char name[40];
};

struct record {
   struct record *prev;
   int id;
   char text[36];
};

static struct record *volatile log_tail;
static char *volatile held[HELD];
static unsigned seed = 12345;

static unsigned next_random(void)
{
   seed = seed * 1103515245u + 12345u;
   return (seed >> 16) & 0x7fff;
}

static __attribute__((noinline)) void log_append(const struct entry *e, size_t bytes)
{
   struct record *r = malloc(bytes); /* the leak */
   __asm__ volatile("" : : "r"(r) : "memory");
   r->id = e->id;
   r->text[0] = (char)e->size;
   r->prev = log_tail;
   log_tail = r;
}

int main(void)
{
   struct entry e;
   memset(&e, 0, sizeof e);
   for (int i = 0; i < ITEMS; i++) {
      int slot = (int)(next_random() % HELD);
      free(held[slot]);
      e.size = 256 + next_random() % 8192;
      e.id = i;
      held[slot] = malloc(e.size);
      memset(held[slot], i, e.size);
      log_append(&e, sizeof(struct record));
   }
   for (int s = 0; s < HELD; s++)
      free(held[s]);
   return 0;
}
