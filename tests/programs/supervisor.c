/* supervisor PIDFILE: a supervisor that builds a pool of 400 header values
 * (pool_value, one at a time, each with a scratch buffer freed at once),
 * runs /bin/true by posix_spawn (a spawn, not a fork of its own), then
 * forks a worker and waits on it, and frees the pool at exit.  The worker
 * serves 3,000 requests, each with a temporary (serve_request), and leaks
 * the reply of 1 request in 20 (reject_reply).  The parent writes
 * "PARENT_PID CHILD_PID" to PIDFILE. */
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pids.h"
#include "prog.h"

extern char **environ;

#define POOL 400
static char *volatile pool[POOL];
static void *volatile sink;

NOINLINE static char *pool_value(int i)
{
   char *v = AFTER_CALL(malloc(24 + (size_t)(i % 40)));
   memset(v, 'a' + i % 26, 23);
   v[23] = 0;
   return v;
}

NOINLINE static void *scratch(size_t n)
{
   return AFTER_CALL(malloc(n));
}

NOINLINE static void *reject_reply(int i)
{
   return AFTER_CALL(malloc(96 + (size_t)(i % 64)));
}

NOINLINE static void serve_request(int i)
{
   void *t = scratch(512);
   sink = t;
   free(t);
   if (i % 20 == 7)
      sink = reject_reply(i);   /* never freed */
}

static int worker(void)
{
   for (int i = 0; i < 3000; i++)
      serve_request(i);
   return 0;
}

int main(int argc, char **argv)
{
   if (argc != 2)
      return 2;
   for (int i = 0; i < POOL; i++) {
      void *t = scratch(256);
      sink = t;
      pool[i] = pool_value(i);
      free(t);
   }
   pid_t spawned;
   char *true_argv[] = {"true", NULL};
   if (posix_spawn(&spawned, "/bin/true", NULL, NULL, true_argv, environ) != 0 ||
       waitpid(spawned, NULL, 0) != spawned)
      return 3;
   pid_t child = fork();
   if (child < 0)
      return 2;
   if (child == 0)
      _exit(worker());
   int status;
   if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
      return 3;
   if (write_pids(argv[1], child) != 0)
      return 4;
   for (int i = 0; i < POOL; i++)
      free(pool[i]);
   return 0;
}
