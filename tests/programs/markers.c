/* markers: markers and user snapshots around two allocations.
 * In file order: M begin, T user (first_alloc 1008), M "tab<TAB>and
 * back\slash", T user (second_alloc 1008 more), M end.  Run natively, the
 * requests do nothing and it exits 0. */
#include "prog.h"

static void *volatile kept[2];

NOINLINE static void *first_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

NOINLINE static void *second_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

int main(void)
{
   STRATA_MARK("begin");
   kept[0] = first_alloc();
   STRATA_SNAPSHOT();
   STRATA_MARK("tab\tand back\\slash");
   kept[1] = second_alloc();
   STRATA_SNAPSHOT();
   STRATA_MARK("end");
   free(kept[0]);
   free(kept[1]);
   return 0;
}
