/* exec_child: run by fork_exec; keeps 7008 bytes from exec_child_alloc. */
#include "prog.h"

static void *volatile kept;

NOINLINE static void *exec_child_alloc(void)
{
   return AFTER_CALL(malloc(7008));
}

int main(void)
{
   kept = exec_child_alloc();
   STRATA_SNAPSHOT();
   return 0;
}
