/* custom_alloc: a pool allocator that describes its blocks to Valgrind with
 * MALLOCLIKE, RESIZEINPLACE and FREELIKE.  As with massif, the pool's own
 * malloc counts too (65536 bytes, in pool_create).
 *   user 1: pool 65536 + make_node 2 x 304 + make_table 1200 = 67344
 *   user 2: the table shrunk in place to 800                  = 66944
 *   user 3: the table grown in place to 2000                  = 68144
 *   user 4: one node and the table freed                      = 65840
 *   final:  everything freed                                   = 0 */
#include <stddef.h>
#include <valgrind/valgrind.h>
#include "prog.h"

enum { POOL_BYTES = 65536 };

static char *pool;
static size_t pool_used;

NOINLINE static void pool_create(void)
{
   pool = malloc(POOL_BYTES);
   if (pool == NULL)
      abort();
}

/* Hands out `reserve` bytes of the pool, of which the caller uses `size`. */
NOINLINE static void *pool_alloc(size_t size, size_t reserve)
{
   char *p = pool + pool_used;
   pool_used += reserve;
   VALGRIND_MALLOCLIKE_BLOCK(p, size, 0, 0);
   return p;
}

NOINLINE static void pool_resize(void *p, size_t old_size, size_t new_size)
{
   VALGRIND_RESIZEINPLACE_BLOCK(p, old_size, new_size, 0);
}

NOINLINE static void pool_free(void *p)
{
   VALGRIND_FREELIKE_BLOCK(p, 0);
}

NOINLINE static void *make_node(void)
{
   return AFTER_CALL(pool_alloc(304, 304));
}

NOINLINE static void *make_table(void)
{
   return AFTER_CALL(pool_alloc(1200, 2048));
}

NOINLINE static void resize_table(void *table, size_t old_size, size_t new_size)
{
   pool_resize(table, old_size, new_size);
}

int main(void)
{
   pool_create();
   void *a = make_node();
   void *b = make_node();
   void *table = make_table();
   STRATA_SNAPSHOT();
   resize_table(table, 1200, 800);
   STRATA_SNAPSHOT();
   resize_table(table, 800, 2000);
   STRATA_SNAPSHOT();
   pool_free(a);
   pool_free(table);
   STRATA_SNAPSHOT();
   pool_free(b);
   free(pool);
   return 0;
}
