/* stack_peak: a peak made by the stack alone.  main allocates 1000 bytes;
 * dig(3) recurses through 4 frames of 64 KiB each and returns, with no heap
 * operation in between; then main frees the block.  With --stacks=yes the
 * peak (heap + stacks) is at the bottom of dig: 1000 bytes of heap and at
 * least 4 x 65536 of stack. */
#include "prog.h"

static void *volatile kept;

NOINLINE static int dig(int n)
{
   volatile char buf[65536];
   buf[0] = (char)n;
   buf[sizeof buf - 1] = (char)n;
   if (n == 0)
      return buf[0];
   int r = dig(n - 1);
   return r + buf[sizeof buf - 1];
}

int main(void)
{
   kept = malloc(1000);
   int r = dig(3);
   free(kept);
   return r == 6 ? 0 : 1;
}
