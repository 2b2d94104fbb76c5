/* fork_exec PROGRAM: keeps 3008 bytes from parent_alloc, then forks a child
 * that execs PROGRAM (exec_child), and waits for it.  Exits with the child's
 * exit status. */
#include <sys/wait.h>
#include <unistd.h>
#include "prog.h"

static void *volatile kept;

NOINLINE static void *parent_alloc(void)
{
   return AFTER_CALL(malloc(3008));
}

int main(int argc, char **argv)
{
   if (argc != 2)
      return 2;
   kept = parent_alloc();
   pid_t child = fork();
   if (child < 0)
      return 2;
   if (child == 0) {
      char *args[] = { argv[1], NULL };
      execv(argv[1], args);
      _exit(127);
   }
   int status;
   if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
      return 3;
   return WEXITSTATUS(status);
}
