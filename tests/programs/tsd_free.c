/* tsd_free: 4 threads, each holding a block as thread-specific data whose
 * destructor frees it (and makes and frees a scratch block) when the thread
 * ends, as Kyoto Cabinet's per-thread error records are.  The destructors
 * run after those of keys created before (a recorder's own), and free
 * through it.  Everything is freed: the heap ends at 0. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"

static pthread_key_t key;

static void release(void *value)
{
   char *scratch = AFTER_CALL(malloc(64));
   memset(scratch, 1, 64);
   free(scratch);
   free(value);
}

static void *worker(void *arg)
{
   (void)arg;
   for (int i = 0; i < 100; i++) {
      char *temp = AFTER_CALL(malloc(32 + (size_t)i));
      memset(temp, 0, 32);
      free(temp);
   }
   pthread_setspecific(key, AFTER_CALL(malloc(100)));
   return NULL;
}

int main(void)
{
   pthread_t threads[4];
   pthread_key_create(&key, release);
   for (int i = 0; i < 4; i++)
      pthread_create(&threads[i], NULL, worker, NULL);
   for (int i = 0; i < 4; i++)
      pthread_join(threads[i], NULL);
   pthread_key_delete(key);
   return 0;
}
