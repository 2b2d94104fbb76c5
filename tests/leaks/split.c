/* split: a leak split across callers.
 *
 * session_create is reached from handle, which two loops call: warmup_serve
 * while a warm-up table (warmup_build, `warm_size` bytes) is held, and
 * main_serve after it is released.  Every request handled keeps a session of
 * `size` bytes (the leak), so the growth is split between two contexts: one
 * that rises only in the first `warm` percent of the run, one that rises
 * only after.  leak=0 closes each session.  Background decoys run beside it.
 *
 *   split seed=N run=N warm=PCT work=N size=BYTES warm_size=BYTES leak=0|1
 *         teardown=PCT bg=0|1 bg_temp=BYTES */
#include "corpus.h"

/* The leak. */
NOINLINE static struct kept *session_create(size_t size)
{
   return use(malloc(size < sizeof(struct kept) ? sizeof(struct kept) : size));
}

NOINLINE static void handle(size_t size, int leak)
{
   struct kept *s = session_create(size);
   bg_step();
   if (leak)
      keep(s);
   else
      free(s);
}

NOINLINE static char *warmup_build(size_t bytes)
{
   return use(malloc(bytes));
}

NOINLINE static void warmup_serve(long requests, long work, size_t size, int leak)
{
   for (long r = 0; r < requests; r++) {
      handle(size, leak);
      idle_work(work);
   }
}

NOINLINE static void main_serve(long requests, long work, size_t size, int leak)
{
   for (long r = 0; r < requests; r++) {
      handle(size, leak);
      idle_work(work);
   }
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 800), warm = arg_long("warm", 25);
   long work = arg_long("work", 2000);
   size_t size = (size_t)arg_long("size", 512);
   size_t warm_size = (size_t)arg_long("warm_size", 1024 * 1024);
   int leak = (int)arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();

   char *table = warmup_build(warm_size);
   warmup_serve(run * warm / 100, work, size, leak);
   free(table);
   main_serve(run - run * warm / 100, work, size, leak);
   teardown(tear);
   return 0;
}
