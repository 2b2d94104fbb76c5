/* malloc_basic: malloc, calloc, realloc and free with exact sizes.
 *
 *   user snapshot 1: use_malloc 1008 + use_calloc 480 + use_realloc 2000 = 3488
 *   user snapshot 2: use_malloc freed                                   = 2480
 *   final:           the same 2480, in 2 blocks (left for the exit)
 * use_realloc's block moves to the site of each realloc: at snapshot 1 the
 * malloc(112) site holds 0 (max 112) and the realloc(3008) site 0 (max 3008). */
#include "prog.h"

static void *volatile kept[3];

NOINLINE static void *use_malloc(void)
{
   return AFTER_CALL(malloc(1008));
}

NOINLINE static void *use_calloc(void)
{
   return AFTER_CALL(calloc(10, 48));
}

NOINLINE static void *use_realloc(void)
{
   void *p = malloc(112);
   p = realloc(p, 3008);       /* grows */
   return AFTER_CALL(realloc(p, 2000));    /* shrinks */
}

int main(void)
{
   kept[0] = use_malloc();
   kept[1] = use_calloc();
   kept[2] = use_realloc();
   STRATA_SNAPSHOT();
   free(kept[0]);
   kept[0] = NULL;
   free(NULL);
   STRATA_SNAPSHOT();
   return 0;
}
