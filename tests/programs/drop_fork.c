/* drop_fork DIR STATUSFILE: a program that gives up its right to write in
 * DIR, then forks.  Run as root it gives up root (setuid to nobody, 65534),
 * otherwise it makes DIR read-only; then it forks a child that keeps 1000
 * bytes from child_alloc and exits 7.  The parent waits for it, puts DIR's
 * mode back, and writes the child's exit status to STATUSFILE (opened before
 * it gave up anything), then exits 0. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "prog.h"

static void *volatile kept;

NOINLINE static void *child_alloc(void)
{
   return AFTER_CALL(malloc(1000));
}

int main(int argc, char **argv)
{
   if (argc != 3)
      return 2;
   int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (out < 0)
      return 2;
   int root = geteuid() == 0;
   if (root ? setuid(65534) != 0 : chmod(argv[1], 0555) != 0)
      return 2;
   pid_t child = fork();
   if (child < 0)
      return 2;
   if (child == 0) {
      kept = child_alloc();
      _exit(7);
   }
   int status;
   if (waitpid(child, &status, 0) != child)
      return 3;
   if (!root)
      chmod(argv[1], 0755);
   char line[32];
   int n = snprintf(line, sizeof line, "%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
   return write(out, line, (size_t)n) == n ? 0 : 4;
}
