/* threads: 4 threads; thread k (0..3) keeps k + 1 blocks of 1008 bytes from
 * thread_alloc and churns 1000 short-lived blocks in thread_churn.
 *   user 1 (after the joins): thread_alloc 10080 in 10 blocks, thread_churn 0
 *   user 2: everything freed. */
#include <pthread.h>
#include "prog.h"

enum { THREADS = 4, CHURN = 1000 };

static void *volatile kept[THREADS][THREADS];

NOINLINE static void *thread_alloc(void)
{
   return AFTER_CALL(malloc(1008));
}

NOINLINE static void thread_churn(int k)
{
   for (int i = 0; i < CHURN; i++) {
      void *volatile p = malloc(16 + (size_t)((i * 7 + k) % 64) * 16);
      free(p);
   }
}

static void *thread_main(void *arg)
{
   int k = (int)(long)arg;
   for (int i = 0; i <= k; i++)
      kept[k][i] = thread_alloc();
   thread_churn(k);
   return NULL;
}

int main(void)
{
   pthread_t threads[THREADS];
   for (long k = 0; k < THREADS; k++)
      if (pthread_create(&threads[k], NULL, thread_main, (void *)k) != 0)
         return 2;
   for (int k = 0; k < THREADS; k++)
      pthread_join(threads[k], NULL);
   STRATA_SNAPSHOT();
   for (int k = 0; k < THREADS; k++)
      for (int i = 0; i < THREADS; i++)
         free(kept[k][i]);
   STRATA_SNAPSHOT();
   return 0;
}
