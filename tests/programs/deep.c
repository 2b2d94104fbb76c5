/* deep: recursion 50 deep, then one malloc of 1008 bytes.  The stack of the
 * allocation is leaf_alloc, 51 recurse frames (n = 0..50), then main. */
#include "prog.h"

static void *volatile kept;
static volatile int depth_sink;

NOINLINE static void *leaf_alloc(void)
{
   return AFTER_CALL(malloc(1008)); /* ALLOC-LINE */
}

NOINLINE static void *recurse(int n)
{
   void *p = n == 0 ? leaf_alloc() : recurse(n - 1); /* RECURSE-LINE */
   depth_sink = depth_sink + n;   /* after the call: no tail call */
   return p;
}

int main(void)
{
   kept = recurse(50); /* MAIN-LINE */
   STRATA_SNAPSHOT();
   free(kept);
   return 0;
}
