/* memalign: the aligned allocators, each from its own function.
 *   user snapshot 1: use_memalign 1000, use_posix_memalign 2000,
 *                    use_aligned_alloc 4096, use_valloc 5000 (12096 in all)
 *   user snapshot 2: all freed, 0. */
#include <malloc.h>
#include <stdint.h>
#include <unistd.h>
#include "prog.h"

static void *volatile kept[4];

NOINLINE static void *use_memalign(void)
{
   return AFTER_CALL(memalign(64, 1000));
}

NOINLINE static void *use_posix_memalign(void)
{
   void *p;
   if (posix_memalign(&p, 256, 2000) != 0)
      abort();
   return p;
}

NOINLINE static void *use_aligned_alloc(void)
{
   return AFTER_CALL(aligned_alloc(128, 4096));
}

NOINLINE static void *use_valloc(void)
{
   return AFTER_CALL(valloc(5000));
}

static void check_aligned(void *p, uintptr_t alignment)
{
   if (p == NULL || (uintptr_t)p % alignment != 0)
      abort();
}

int main(void)
{
   kept[0] = use_memalign();
   kept[1] = use_posix_memalign();
   kept[2] = use_aligned_alloc();
   kept[3] = use_valloc();
   check_aligned(kept[0], 64);
   check_aligned(kept[1], 256);
   check_aligned(kept[2], 128);
   check_aligned(kept[3], (uintptr_t)sysconf(_SC_PAGESIZE));
   STRATA_SNAPSHOT();
   for (int i = 0; i < 4; i++)
      free(kept[i]);
   STRATA_SNAPSHOT();
   return 0;
}
