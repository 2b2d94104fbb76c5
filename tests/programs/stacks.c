/* stacks: dig(3) recurses through 4 frames of 64 KiB each and takes a user
 * snapshot at the bottom; main takes another once they have returned.  With
 * --stacks=yes the first has at least 4 x 65536 more stack than the second. */
#include "prog.h"

NOINLINE static int dig(int n)
{
   volatile char buf[65536];
   buf[0] = (char)n;
   buf[sizeof buf - 1] = (char)n;
   if (n == 0) {
      STRATA_SNAPSHOT();
      return buf[0];
   }
   int r = dig(n - 1);
   return r + buf[sizeof buf - 1];
}

int main(void)
{
   int r = dig(3);
   STRATA_SNAPSHOT();
   return r == 6 ? 0 : 1;
}
