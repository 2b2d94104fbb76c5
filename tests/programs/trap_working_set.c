/* trap_working_set: working sets built up and released: not a leak.
 *
 * Two long phases each build a working set of 300 entries of 512 bytes
 * (ws_add) step by step, with short-lived scratch buffers, then release it
 * all; between and after them, other work with scratch buffers only.  The
 * set's floor goes back to nothing after each phase, long before exit. */
#include <string.h>

#include "prog.h"

enum { PHASES = 2, ENTRIES = 300, ENTRY_BYTES = 512 };

struct entry {
   struct entry *next;
   char data[ENTRY_BYTES - sizeof(struct entry *)];
};

NOINLINE static struct entry *ws_add(struct entry *set)
{
   struct entry *e = AFTER_CALL(malloc(sizeof *e));
   e->next = set;
   return e;
}

NOINLINE static char *scratch_alloc(size_t size)
{
   return AFTER_CALL(malloc(size));
}

static void scratch_work(int steps)
{
   for (int i = 0; i < steps; i++) {
      size_t size = 1024 + (size_t)(i % 7) * 512;
      char *s = scratch_alloc(size);
      memset(s, i, size);
      free(s);
   }
}

static void phase(void)
{
   struct entry *set = NULL;
   for (int i = 0; i < ENTRIES; i++) {
      set = ws_add(set);
      set->data[0] = (char)i;
      scratch_work(1);
   }
   while (set != NULL) {
      struct entry *next = set->next;
      free(set);
      set = next;
   }
}

int main(void)
{
   for (int p = 0; p < PHASES; p++) {
      phase();
      scratch_work(150);
   }
   return 0;
}
