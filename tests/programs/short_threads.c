/* short_threads ROUNDS: a short run in threads.  Four workers each run
 * ROUNDS rounds; a round allocates a few small buffers, frees most of them,
 * and keeps one 64-byte record on its worker's list (a slow leak).  The
 * whole run is a few hundred thousand instructions, most of them the C
 * library starting up. */
#include <pthread.h>
#include "prog.h"

enum { WORKERS = 4, MAX_ROUNDS = 64, TEMPS = 6 };

static void *volatile kept[WORKERS][MAX_ROUNDS];
static int rounds = 12;

NOINLINE static void *keep_record(void)
{
   return AFTER_CALL(malloc(64));
}

NOINLINE static void *temp_buffer(int i)
{
   return AFTER_CALL(malloc(128 + 32 * i));
}

NOINLINE static void *worker(void *arg)
{
   int w = (int)(long)arg;
   for (int r = 0; r < rounds; r++) {
      void *volatile temps[TEMPS];
      for (int i = 0; i < TEMPS; i++)
         temps[i] = temp_buffer(i);
      for (int i = 0; i < TEMPS; i++)
         free(temps[i]);
      kept[w][r] = keep_record();
   }
   return NULL;
}

int main(int argc, char **argv)
{
   pthread_t threads[WORKERS];
   rounds = argc > 1 ? atoi(argv[1]) : 12;
   if (rounds > MAX_ROUNDS)
      rounds = MAX_ROUNDS;
   for (long w = 0; w < WORKERS; w++)
      pthread_create(&threads[w], NULL, worker, (void *)w);
   for (int w = 0; w < WORKERS; w++)
      pthread_join(threads[w], NULL);
   for (int w = 0; w < WORKERS; w++)
      for (int r = 0; r < rounds; r++)
         free(kept[w][r]);
   return 0;
}
