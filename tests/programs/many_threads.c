/* many_threads: 200 threads, all alive at once.  Each keeps 100 bytes
 * from thread_alloc and waits at a barrier; main takes a user snapshot
 * (20000 bytes in 200 blocks), lets them free their blocks and end, joins
 * them and takes a second one (0 bytes). */
#include <pthread.h>
#include "prog.h"

#define THREADS 200

static pthread_barrier_t all_allocated, snapshot_taken;

NOINLINE static void *thread_alloc(void) { return AFTER_CALL(malloc(100)); }

static void *run(void *arg)
{
   void *p = thread_alloc();
   (void)arg;
   pthread_barrier_wait(&all_allocated);
   pthread_barrier_wait(&snapshot_taken);
   free(p);
   return NULL;
}

int main(void)
{
   static pthread_t threads[THREADS];
   pthread_attr_t attr;
   pthread_barrier_init(&all_allocated, NULL, THREADS + 1);
   pthread_barrier_init(&snapshot_taken, NULL, THREADS + 1);
   pthread_attr_init(&attr);
   pthread_attr_setstacksize(&attr, 64 * 1024);
   for (int i = 0; i < THREADS; i++)
      if (pthread_create(&threads[i], &attr, run, NULL) != 0)
         return 1;
   pthread_barrier_wait(&all_allocated);
   STRATA_SNAPSHOT();
   pthread_barrier_wait(&snapshot_taken);
   for (int i = 0; i < THREADS; i++)
      pthread_join(threads[i], NULL);
   STRATA_SNAPSHOT();
   return 0;
}
