/* counts_phases [wait]: phase 1 makes 50 malloc(32)/free pairs at
 * phase_alloc and takes a user snapshot; with "wait" it then waits to be
 * killed (ten minutes at most); phase 2 makes 70 more pairs and a user
 * snapshot.  phase_alloc: 50 calls, 1600 bytes, 50 temporary at the first
 * user snapshot; 120, 3840, 120 at the end of a whole run. */
#include <string.h>
#include <unistd.h>
#include "prog.h"

NOINLINE static void *phase_alloc(void) { return AFTER_CALL(malloc(32)); }

static void phase(int pairs)
{
   for (int i = 0; i < pairs; i++)
      free(phase_alloc());
   STRATA_SNAPSHOT();
}

int main(int argc, char **argv)
{
   phase(50);
   if (argc > 1 && strcmp(argv[1], "wait") == 0)
      for (int i = 0; i < 600; i++)
         sleep(1);
   phase(70);
   return 0;
}
