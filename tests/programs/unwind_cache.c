/* unwind_cache: the same leaf allocates at the bottom of two call chains
 * that differ only far from the top: via_a() and via_b() each recurse 20
 * frames deep through rec() before leaf() calls malloc.  The top frames and
 * stack pointers are the same in both chains; only the return addresses of
 * via_a and via_b tell them apart, so a cache of deep frames that did not
 * check them would give via_b's blocks to via_a.  via_a's site ends with
 * 16,000 bytes, via_b's with 32,000.
 *
 * via_c's chain allocates from shifted(), which moves the stack pointer by
 * a different amount each time (alloca), so that the cache keyed by the
 * allocator's own frame never sees the same stack pointer twice, and the
 * cache of deep frames, keyed further down, serves it.  via_c's site ends
 * with 48,000 bytes. */
#include <alloca.h>
#include "prog.h"

enum { ROUNDS = 1000, DEPTH = 20 };

static void *volatile kept[3 * ROUNDS];

NOINLINE static void *leaf(size_t n)
{
   void *p = malloc(n);
   kept[0] = kept[0];      /* no tail call */
   return p;
}

NOINLINE static void *rec(int depth, size_t n)
{
   void *p = depth == 0 ? leaf(n) : rec(depth - 1, n);
   kept[1] = kept[1];
   return p;
}

NOINLINE static void *shifted(size_t n, size_t shift)
{
   volatile char *pad = alloca(shift + 1);
   pad[0] = 0;
   void *p = malloc(n);
   kept[0] = kept[0];
   return p;
}

NOINLINE static void *rec_shifted(int depth, size_t n, size_t shift)
{
   void *p = depth == 0 ? shifted(n, shift) : rec_shifted(depth - 1, n, shift);
   kept[1] = kept[1];
   return p;
}

NOINLINE static void *via_c(size_t n, size_t shift)
{
   void *p = rec_shifted(DEPTH, n, shift);
   kept[4] = kept[4];
   return p;
}

NOINLINE static void *via_a(size_t n)
{
   void *p = rec(DEPTH, n);
   kept[2] = kept[2];
   return p;
}

NOINLINE static void *via_b(size_t n)
{
   void *p = rec(DEPTH, n);
   kept[3] = kept[3];
   return p;
}

int main(void)
{
   for (int i = 0; i < ROUNDS; i++) {
      kept[2 * i] = via_a(16);
      kept[2 * i + 1] = via_b(32);
   }
   for (int i = 0; i < ROUNDS; i++)
      kept[2 * ROUNDS + i] = via_c(48, 16 * (size_t)i);
   STRATA_SNAPSHOT();
   for (int i = 0; i < 3 * ROUNDS; i++)
      free(kept[i]);
   return 0;
}
