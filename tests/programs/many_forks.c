/* many_forks: forks 50 children, all alive at once.  Child i (0 to 49)
 * keeps (i + 1) * 100 bytes from child_alloc, takes a user snapshot, waits
 * for the parent's word that all are forked and exits; the parent keeps
 * 1000 bytes from parent_alloc, waits for all of them, takes a user
 * snapshot and exits 0 (1 if a child failed). */
#include <sys/wait.h>
#include <unistd.h>
#include "prog.h"

#define CHILDREN 50

static void *volatile kept;

NOINLINE static void *child_alloc(size_t n) { return AFTER_CALL(malloc(n)); }
NOINLINE static void *parent_alloc(void) { return AFTER_CALL(malloc(1000)); }

int main(void)
{
   int go[2];
   char byte;
   int failed = 0;
   if (pipe(go) != 0)
      return 1;
   for (int i = 0; i < CHILDREN; i++) {
      pid_t pid = fork();
      if (pid < 0)
         return 1;
      if (pid == 0) {
         close(go[1]);
         kept = child_alloc((size_t)(i + 1) * 100);
         STRATA_SNAPSHOT();
         _exit(read(go[0], &byte, 1) == 0 ? 0 : 1);   // EOF: all forked
      }
   }
   close(go[0]);
   close(go[1]);
   kept = parent_alloc();
   for (int i = 0; i < CHILDREN; i++) {
      int status;
      if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
         failed = 1;
   }
   STRATA_SNAPSHOT();
   return failed;
}
