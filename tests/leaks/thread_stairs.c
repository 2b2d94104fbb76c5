/* thread_stairs: a staircase in threads, one of the workers leaking each
 * round.
 *
 * A render farm: `threads` worker threads run `rounds` rounds in step with
 * the main thread (a barrier at the start and at the end of each round).  In
 * a round each worker renders a tile: `temps` temporary buffers
 * (tile_scratch) and a result of `size` bytes (tile_render), with `work`
 * iterations of idle work.  The main thread hands the round's tiles out and
 * takes them back; between rounds it serves 16 requests (the background
 * decoys) in `idle` iterations of idle work (give or take 30%) while the
 * workers wait.  The bug, leak=1: the tile of
 * the worker chosen at random each round to be the preview is never freed
 * (preview_keep forgets it), so each round leaves one tile behind, a step
 * of a staircase, made by a different thread each time.  leak=0 frees it.
 *
 *   thread_stairs seed=N threads=N rounds=N temps=N work=N idle=N
 *                 size=BYTES leak=0|1 teardown=PCT bg=0|1 bg_temp=BYTES */
#include <pthread.h>

#include "corpus.h"

enum { MAX_THREADS = 16 };

static pthread_barrier_t start_barrier, end_barrier;
static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;
static long rounds, temps, work;
static size_t size;
static int leak;
static long preview; /* the worker whose tile is the round's preview */

struct tile {
   struct kept link;
   long round;
};

NOINLINE static struct tile *tile_render(long round)
{
   struct tile *t = use(malloc(size < sizeof *t ? sizeof *t : size));
   t->round = round;
   return t;
}

NOINLINE static void tile_scratch(size_t bytes)
{
   free(use(malloc(bytes)));
}

/* The bug: the preview's tile is listed for the teardown, never freed. */
NOINLINE static void preview_keep(struct tile *t)
{
   pthread_mutex_lock(&keep_lock);
   if (leak)
      keep(&t->link);
   else
      free(t);
   pthread_mutex_unlock(&keep_lock);
}

static void *worker_main(void *arg)
{
   long self = (long)arg;
   for (long r = 0; r < rounds; r++) {
      pthread_barrier_wait(&start_barrier);
      for (long k = 0; k < temps; k++) {
         tile_scratch(2048 + (size_t)k * 1024);
         idle_work(work / (temps + 1));
      }
      struct tile *t = tile_render(r);
      idle_work(work / (temps + 1));
      if (self == preview)
         preview_keep(t);
      else
         free(t);
      pthread_barrier_wait(&end_barrier);
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
   work = arg_long("work", 20000);
   long idle = arg_long("idle", 150000);
   size = (size_t)arg_long("size", 65536);
   leak = (int)arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   if (n < 1 || n > MAX_THREADS)
      return 2;

   pthread_t workers[MAX_THREADS];
   pthread_barrier_init(&start_barrier, NULL, (unsigned)n + 1);
   pthread_barrier_init(&end_barrier, NULL, (unsigned)n + 1);
   for (long k = 0; k < n; k++)
      if (pthread_create(&workers[k], NULL, worker_main, (void *)k) != 0)
         return 2;
   for (long r = 0; r < rounds; r++) {
      preview = rng_range(0, n - 1);
      pthread_barrier_wait(&start_barrier);
      pthread_barrier_wait(&end_barrier);
      long pause = idle * rng_range(70, 130) / 100;
      for (int k = 0; k < 16; k++) {
         bg_step();
         idle_work(pause / 16);
      }
   }
   for (long k = 0; k < n; k++)
      pthread_join(workers[k], NULL);
   teardown(tear);
   return 0;
}
