/* wrappers: allocation wrappers for --alloc-fn and a noisy function for
 * --ignore-fn.  Nothing is freed: the final snapshot holds
 *   load_config 1008 (xmalloc), load_index 2000 (xcalloc),
 *   noisy_logger 4000 (malloc), noisy_via_wrapper 3008 (xmalloc)  = 10016. */
#include "prog.h"

static void *volatile kept[4];

NOINLINE void *xmalloc(size_t size)
{
   void *p = malloc(size);
   if (p == NULL)
      abort();
   return p;
}

NOINLINE void *xcalloc(size_t n, size_t size)
{
   void *p = calloc(n, size);
   if (p == NULL)
      abort();
   return p;
}

NOINLINE static void *load_config(void)
{
   return AFTER_CALL(xmalloc(1008));
}

NOINLINE static void *load_index(void)
{
   return AFTER_CALL(xcalloc(25, 80));
}

NOINLINE static void *noisy_logger(void)
{
   return AFTER_CALL(malloc(4000));
}

NOINLINE static void *noisy_via_wrapper(void)
{
   return AFTER_CALL(xmalloc(3008));
}

int main(void)
{
   kept[0] = load_config();
   kept[1] = load_index();
   kept[2] = noisy_logger();
   kept[3] = noisy_via_wrapper();
   return 0;
}
