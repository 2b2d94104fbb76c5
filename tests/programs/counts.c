/* counts: allocation calls with known counts, each kind from its own
 * function (site).  The counts of each site at the end, as
 * "calls allocated temporary" (temporary: freed by the next heap operation,
 * with no other allocation call or free between; a realloc is a call):
 *
 *   pair_alloc        100 6400 100  100 malloc(64)/free pairs
 *   first_alloc       1 300 0       malloc A, malloc B, free A, free B:
 *   second_alloc      1 400 0         B was allocated after A, A freed before B
 *   calloc_kept       1 336 0       calloc(7, 48), kept
 *   calloc_pair       1 480 1       calloc(10, 48), freed at once
 *   grow_realloc      6 2100 1      realloc(NULL, 100), then grown to 200, 300,
 *                                   ... 600 at the same call, then freed
 *   null_realloc      1 64 0        realloc(NULL, 64), kept
 *   move_start        1 50 0        malloc(50), moved by a realloc of another
 *   move_realloc      1 5000 0        site to 5000 (the realloc is a call there)
 *   zero_start        1 80 1        malloc(80) freed by realloc(p, 0)
 *   memalign_pair     1 1000 1      memalign(64, 1000), freed at once
 *   posix_kept        1 2000 0      posix_memalign(128, 2000), kept
 *   aligned_kept      1 4096 0      aligned_alloc(256, 4096), kept
 *   failed_alloc      0 0 0         malloc of more than can be: NULL, no call
 *   before_failure    1 16 1        malloc(16), the failed malloc, free: a
 *                                   failed call is no call
 *   pool_pair         10 240 10     MALLOCLIKE_BLOCK(24)/FREELIKE_BLOCK pairs
 *   pool_kept         2 160 0       MALLOCLIKE_BLOCK(80) twice, kept
 *   zero_alloc        1 0 1         malloc(0), freed at once
 */
#include <malloc.h>
#include <stdint.h>
#include <valgrind/valgrind.h>
#include "prog.h"

static void *volatile kept[16];
static char pool[4096];
static volatile size_t too_much = SIZE_MAX - 4096;

NOINLINE static void *pair_alloc(void) { return AFTER_CALL(malloc(64)); }
NOINLINE static void *first_alloc(void) { return AFTER_CALL(malloc(300)); }
NOINLINE static void *second_alloc(void) { return AFTER_CALL(malloc(400)); }
NOINLINE static void *calloc_kept(void) { return AFTER_CALL(calloc(7, 48)); }
NOINLINE static void *calloc_pair(void) { return AFTER_CALL(calloc(10, 48)); }
NOINLINE static void *grow_realloc(void *p, size_t n) { return AFTER_CALL(realloc(p, n)); }
NOINLINE static void *null_realloc(void) { return AFTER_CALL(realloc(NULL, 64)); }
NOINLINE static void *move_start(void) { return AFTER_CALL(malloc(50)); }
NOINLINE static void *move_realloc(void *p) { return AFTER_CALL(realloc(p, 5000)); }
NOINLINE static void *zero_start(void) { return AFTER_CALL(malloc(80)); }
NOINLINE static void *zero_realloc(void *p) { return AFTER_CALL(realloc(p, 0)); }
NOINLINE static void *memalign_pair(void) { return AFTER_CALL(memalign(64, 1000)); }
NOINLINE static void *aligned_kept(void) { return AFTER_CALL(aligned_alloc(256, 4096)); }
NOINLINE static void *failed_alloc(void) { return AFTER_CALL(malloc(too_much)); }
NOINLINE static void *before_failure(void) { return AFTER_CALL(malloc(16)); }
NOINLINE static void *zero_alloc(void) { return AFTER_CALL(malloc(0)); }

NOINLINE static void *posix_kept(void)
{
   void *p = NULL;
   if (posix_memalign(&p, 128, 2000) != 0)
      abort();
   return AFTER_CALL(p);
}

NOINLINE static void *pool_pair(void)
{
   VALGRIND_MALLOCLIKE_BLOCK(pool, 24, 0, 0);
   return AFTER_CALL(pool);
}

NOINLINE static void *pool_kept(size_t at)
{
   VALGRIND_MALLOCLIKE_BLOCK(pool + at, 80, 0, 0);
   return AFTER_CALL(pool + at);
}

int main(void)
{
   for (int i = 0; i < 100; i++)
      free(pair_alloc());

   void *a = first_alloc();
   void *b = second_alloc();
   free(a);
   free(b);

   kept[0] = calloc_kept();
   free(calloc_pair());

   void *g = NULL;
   for (size_t n = 100; n <= 600; n += 100)
      g = grow_realloc(g, n);
   free(g);

   kept[1] = null_realloc();
   kept[2] = move_realloc(move_start());
   if (zero_realloc(zero_start()) != NULL)
      abort();

   free(memalign_pair());
   kept[3] = posix_kept();
   kept[4] = aligned_kept();

   void *f = before_failure();
   if (failed_alloc() != NULL)
      abort();
   free(f);

   for (int i = 0; i < 10; i++)
      VALGRIND_FREELIKE_BLOCK(pool_pair(), 0);
   kept[5] = pool_kept(1024);
   kept[6] = pool_kept(2048);

   free(zero_alloc());
   STRATA_SNAPSHOT();
   return 0;
}
