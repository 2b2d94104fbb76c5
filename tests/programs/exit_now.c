/* exit_now: keeps 1008 bytes from leave_it, then leaves with _exit(3),
 * which runs no atexit handler. */
#include <unistd.h>
#include "prog.h"

static void *volatile kept;

NOINLINE static void *leave_it(void)
{
   return AFTER_CALL(malloc(1008));
}

int main(void)
{
   kept = leave_it();
   STRATA_SNAPSHOT();
   _exit(3);
}
