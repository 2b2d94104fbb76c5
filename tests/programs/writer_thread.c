/* writer_thread: a worker thread makes and frees 200,000 blocks (10,000
 * live at once, from worker_alloc) and ends; main joins it, frees what it
 * kept and prints the process's threads ("threads N"): natively, the
 * recorder's writer thread, started once the program has a thread of its
 * own, is the one left beside main.  With "idle", it sleeps 2 s before it
 * prints (while it idles, its profile is written out). */
#include <pthread.h>
#include "prog.h"
#include "thread_count.h"
#include <string.h>
#include <unistd.h>

enum { LIVE = 10000, TURNS = 200000 };

static void* volatile kept[LIVE];

NOINLINE static void* worker_alloc(unsigned k)
{
   return AFTER_CALL(malloc(32 + k % 97));
}

static void* worker(void* arg)
{
   (void)arg;
   for (unsigned k = 0; k < TURNS; k++) {
      unsigned i = (k * 7919u) % LIVE;
      free(kept[i]);
      kept[i] = worker_alloc(k);
   }
   return NULL;
}

int main(int argc, char** argv)
{
   pthread_t t;
   if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
      return 1;
   for (unsigned i = 0; i < LIVE; i++)
      free(kept[i]);
   if (argc > 1 && strcmp(argv[1], "idle") == 0)
      sleep(2);
   return print_threads();
}
