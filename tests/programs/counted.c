/* counted: the same loop of instructions run three times, each between two
 * user snapshots: by the main thread, in a signal handler, and by a second
 * thread.  With --time-unit=i the three spans must be about equal: an
 * instruction count that lost a signal handler's or a thread's instructions,
 * or counted them twice, would show here. */
#include <pthread.h>
#include <signal.h>
#include "prog.h"

enum { LOOPS = 1000000 };

static volatile int counter;

NOINLINE static void spin(void)
{
   for (int i = 0; i < LOOPS; i++)
      counter = counter + 1;
}

static void on_signal(int sig)
{
   (void)sig;
   spin();
}

static void *thread_main(void *arg)
{
   (void)arg;
   spin();
   return NULL;
}

int main(void)
{
   pthread_t thread;
   signal(SIGUSR1, on_signal);
   STRATA_SNAPSHOT();
   spin();
   STRATA_SNAPSHOT();
   raise(SIGUSR1);
   STRATA_SNAPSHOT();
   if (pthread_create(&thread, NULL, thread_main, NULL) != 0)
      return 2;
   pthread_join(thread, NULL);
   STRATA_SNAPSHOT();
   return 0;
}
