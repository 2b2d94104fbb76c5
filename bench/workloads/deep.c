/* deep: allocations at the bottom of recursions 8 to 40 calls deep, for
 * the native recorder's unwinders (docs/benchmarks.md, "Frame pointers").
 * Build with frame pointers: gcc -O2 -fno-omit-frame-pointer.
 * Usage: deep CALLS: CALLS malloc/free pairs; 4,096 blocks live at most. */
#include <stdio.h>
#include <stdlib.h>

#define LIVE 4096

static void* live[LIVE];
static volatile unsigned sink;

__attribute__((noinline)) static void churn(unsigned r)
{
   unsigned i = r % LIVE;
   free(live[i]);
   live[i] = malloc(16 + r % 112);
}

/* Recursion 'n' deep, then one malloc/free pair; the depth and the code
 * address of each level vary with r, so stacks repeat but not always. */
__attribute__((noinline)) static void down(unsigned n, unsigned r)
{
   if (n == 0)
      churn(r);
   else if (r & (1u << (n % 16)))
      down(n - 1, r);
   else
      down(n - 1, r * 2654435761u);
   sink = sink + n;   /* after the call: no tail call */
}

int main(int argc, char** argv)
{
   unsigned long calls = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
   unsigned r = 12345;
   unsigned long i;
   for (i = 0; i < calls; i++) {
      r = r * 1103515245u + 12345u;
      down(8 + (r >> 16) % 33, r);
   }
   for (i = 0; i < LIVE; i++)
      free(live[i]);
   printf("%u\n", sink);
   return 0;
}
