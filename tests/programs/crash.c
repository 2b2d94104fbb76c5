/* crash: keeps 1008 bytes from crash_alloc, then dies of SIGSEGV. */
#include "prog.h"

static void *volatile kept;
static int *volatile nowhere;

NOINLINE static void *crash_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

int main(void)
{
   kept = crash_alloc();
   STRATA_SNAPSHOT();
   *nowhere = 1;
   return 0;
}
