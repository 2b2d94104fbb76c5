/* threads: a leak in worker threads, over a short run.
 *
 * `threads` workers run `rounds` rounds in step with the main thread (a
 * barrier between rounds).  In a round each worker takes `temps` temporary
 * buffers (worker_scratch) and keeps one `size`-byte result (worker_stash,
 * the leak), with `work` iterations of idle work; the main thread runs the
 * background decoys.  leak=0 frees the result at the end of the round.
 *
 *   threads seed=N threads=N rounds=N temps=N work=N size=BYTES leak=0|1
 *           teardown=PCT bg=0|1 bg_temp=BYTES */
#include <pthread.h>

#include "corpus.h"

enum { MAX_THREADS = 16 };

static pthread_barrier_t round_barrier;
static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;
static long rounds, temps, work;
static size_t size;
static int leak;

/* The leak. */
NOINLINE static struct kept *worker_stash(void)
{
   return use(malloc(size < sizeof(struct kept) ? sizeof(struct kept) : size));
}

NOINLINE static void worker_scratch(size_t bytes)
{
   free(use(malloc(bytes)));
}

static void *worker_main(void *arg)
{
   (void)arg;
   for (long r = 0; r < rounds; r++) {
      for (long t = 0; t < temps; t++) {
         worker_scratch(1024 + (size_t)t * 512);
         idle_work(work / (temps + 1));
      }
      struct kept *k = worker_stash();
      pthread_barrier_wait(&round_barrier);
      pthread_mutex_lock(&keep_lock);
      if (leak)
         keep(k);
      else
         free(k);
      pthread_mutex_unlock(&keep_lock);
   }
   return NULL;
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long n = arg_long("threads", 4);
   rounds = arg_long("rounds", 12);
   temps = arg_long("temps", 3);
   work = arg_long("work", 1500);
   size = (size_t)arg_long("size", 2048);
   leak = (int)arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   if (n < 1 || n > MAX_THREADS)
      return 2;

   pthread_t workers[MAX_THREADS];
   pthread_barrier_init(&round_barrier, NULL, (unsigned)n + 1);
   for (long k = 0; k < n; k++)
      if (pthread_create(&workers[k], NULL, worker_main, NULL) != 0)
         return 2;
   for (long r = 0; r < rounds; r++) {
      bg_step();
      idle_work(work);
      pthread_barrier_wait(&round_barrier);
   }
   for (long k = 0; k < n; k++)
      pthread_join(workers[k], NULL);
   teardown(tear);
   return 0;
}
