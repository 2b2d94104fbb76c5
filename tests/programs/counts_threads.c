/* counts_threads: two threads allocate at the same time, each at its own
 * site: thread_a_alloc 1000 blocks of 24 bytes, thread_b_alloc 1500 of 40,
 * each keeping its blocks until it has made them all, then freeing them,
 * the first made first (so none is temporary, whatever the order in which
 * the threads run).
 *   thread_a_alloc: 1000 calls, 24000 bytes, 0 temporary
 *   thread_b_alloc: 1500 calls, 60000 bytes, 0 temporary */
#include <pthread.h>
#include "prog.h"

enum { A_BLOCKS = 1000, B_BLOCKS = 1500 };

static pthread_barrier_t start;
static void *volatile a_blocks[A_BLOCKS];
static void *volatile b_blocks[B_BLOCKS];

NOINLINE static void *thread_a_alloc(void) { return AFTER_CALL(malloc(24)); }
NOINLINE static void *thread_b_alloc(void) { return AFTER_CALL(malloc(40)); }

static void *thread_a(void *arg)
{
   pthread_barrier_wait(&start);
   for (int i = 0; i < A_BLOCKS; i++)
      a_blocks[i] = thread_a_alloc();
   for (int i = 0; i < A_BLOCKS; i++)
      free(a_blocks[i]);
   return arg;
}

static void *thread_b(void *arg)
{
   pthread_barrier_wait(&start);
   for (int i = 0; i < B_BLOCKS; i++)
      b_blocks[i] = thread_b_alloc();
   for (int i = 0; i < B_BLOCKS; i++)
      free(b_blocks[i]);
   return arg;
}

int main(void)
{
   pthread_t a, b;
   pthread_barrier_init(&start, NULL, 2);
   if (pthread_create(&a, NULL, thread_a, NULL) != 0
       || pthread_create(&b, NULL, thread_b, NULL) != 0)
      return 2;
   pthread_join(a, NULL);
   pthread_join(b, NULL);
   STRATA_SNAPSHOT();
   return 0;
}
