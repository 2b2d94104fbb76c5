/* leak_rhythm: a rising trough in cycles without markers.
 *
 * Each cycle builds a working set of 40 nodes of 1 KiB (node_alloc) and then
 * releases it, all but the last node, which the release forgets: the
 * working set comes back down each cycle, to one node more than before.
 * A scratch buffer comes and goes with every node.  Nothing is freed at
 * exit. */
#include <string.h>

#include "prog.h"

enum { CYCLES = 10, NODES = 40, NODE_BYTES = 1024 };

struct node {
   struct node *next;
   char data[NODE_BYTES - sizeof(struct node *)];
};

NOINLINE static struct node *node_alloc(struct node *next)
{
   struct node *n = AFTER_CALL(malloc(sizeof *n)); /* the leak */
   n->next = next;
   return n;
}

NOINLINE static char *scratch_alloc(void)
{
   return AFTER_CALL(malloc(2048));
}

/* Frees the set, but stops one node short (the bug). */
static void release(struct node *set)
{
   while (set != NULL && set->next != NULL) {
      struct node *next = set->next;
      free(set);
      set = next;
   }
}

int main(void)
{
   for (int c = 0; c < CYCLES; c++) {
      struct node *set = NULL;
      for (int i = 0; i < NODES; i++) {
         char *scratch = scratch_alloc();
         memset(scratch, i, 2048);
         set = node_alloc(set);
         set->data[0] = scratch[i];
         free(scratch);
      }
      release(set);
   }
   return 0;
}
