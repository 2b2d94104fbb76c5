/* forker PIDFILE: before_fork keeps 512 bytes, then the process forks.
 * The parent keeps 10 x 1008 from parent_alloc, the child 3 x 2000 from
 * child_alloc; both leave their blocks to the exit.  The parent writes
 * "PARENT_PID CHILD_PID" to PIDFILE. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pids.h"
#include "prog.h"

static void *volatile kept[16];

NOINLINE static void *before_fork(void)
{
   return AFTER_CALL(malloc(512));
}

NOINLINE static void *parent_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

NOINLINE static void *child_alloc(void)
{
   return AFTER_CALL(malloc(2000));
}

int main(int argc, char **argv)
{
   if (argc != 2)
      return 2;
   kept[0] = before_fork();
   pid_t child = fork();
   if (child < 0)
      return 2;
   if (child == 0) {
      for (int i = 1; i <= 3; i++)
         kept[i] = child_alloc();
      STRATA_SNAPSHOT();
      exit(0);
   }
   for (int i = 1; i <= 10; i++)
      kept[i] = parent_alloc();
   int status;
   if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
      return 3;
   if (write_pids(argv[1], child) != 0)
      return 4;
   return 0;
}
