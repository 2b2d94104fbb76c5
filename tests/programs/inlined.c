/* inlined: malloc called from two always_inline functions, inlined into
 * api() (GCC inlines always_inline functions even at -O0).  The recorded
 * stack has three frames for one code address: inner and outer (inlined)
 * and api. */
#include "prog.h"

static inline __attribute__((always_inline)) void *inner(size_t n)
{
   return malloc(n);
}

static inline __attribute__((always_inline)) void *outer(size_t n)
{
   return inner(n * 2);
}

NOINLINE static void *api(size_t n)
{
   char *p = outer(n);
   p[0] = 1;
   return p;
}

int main(void)
{
   char *volatile p = api(50);
   free(p);
   return 0;
}
