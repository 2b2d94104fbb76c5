/* ignore_realloc: realloc across --ignore-fn='logger_*'.  Whether a block is
 * recorded is decided once, by the allocation that made it (massif's rule):
 *
 *   make(1000), then logger_resize to 2000: the block stays recorded, at
 *       make's site, with its new size                      user 1: heap 2000
 *   logger_make(500), then resize to 3000: the block stays
 *       ignored                                             user 2: heap 2000
 *   logger_resize of the first block to 400: still make's    user 3: heap 400
 *   resize of it to 800: it moves to resize's site           user 4: heap 800
 *   both freed                                               final:  heap 0
 * The peak is 2000 (from user 1 to the shrink to 400). */
#include "prog.h"

NOINLINE static void *make(size_t n)
{
   return AFTER_CALL(malloc(n));
}

NOINLINE static void *resize(void *p, size_t n)
{
   return AFTER_CALL(realloc(p, n));
}

NOINLINE static void *logger_make(size_t n)
{
   return AFTER_CALL(malloc(n));
}

NOINLINE static void *logger_resize(void *p, size_t n)
{
   return AFTER_CALL(realloc(p, n));
}

int main(void)
{
   void *kept = make(1000);
   kept = logger_resize(kept, 2000);
   STRATA_SNAPSHOT();
   void *noise = logger_make(500);
   noise = resize(noise, 3000);
   STRATA_SNAPSHOT();
   kept = logger_resize(kept, 400);
   STRATA_SNAPSHOT();
   kept = resize(kept, 800);
   STRATA_SNAPSHOT();
   free(noise);
   free(kept);
   return 0;
}
