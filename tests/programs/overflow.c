/* overflow: writes past the end of its blocks where a program runs on
 * natively (glibc's malloc(16) and malloc(8) have 24 usable bytes), onto
 * the next block strata gives out (issue 32, 1): the classic off-by-one,
 * d = malloc(strlen(s)); strcpy(d, s), one NUL past a 16-byte block; and
 * 24 bytes written into malloc(8).  The 16 bytes in front of each of
 * strata's blocks once held its site and size: the tool died, or charged
 * bytes to another site.
 *   user snapshot 1: 1000 blocks of 16 bytes at keep_block, 1000 of 16 at
 *                    dup_bad and 1000 of 8 at small_block, each but the
 *                    last followed by a block that was overflowed into
 *   user snapshot 2: all freed
 * With the argument "bad-frees", then frees 5 addresses that are no live
 * block, each of which an allocator that reads the bytes in front of a
 * block would take for one (glibc aborts there: run under strata only): a
 * block freed twice, a pointer 16 bytes into a block whose first 16 bytes
 * are a copy of the 16 bytes in front of a live block, the start of a
 * block's 16 bytes in front, a pointer into the middle of a big block,
 * and one on the stack.  The program writes "total N" (the bytes of the
 * strings copied) and exits 0. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"

enum { N = 1000 };

static char *keep[N], *dups[N], *smalls[N];

NOINLINE static char *keep_block(void)
{
   return AFTER_CALL(malloc(16));
}

NOINLINE static char *dup_bad(const char *s)
{
   char *d = AFTER_CALL(malloc(strlen(s)));   // one byte short
   strcpy(d, s);
   return d;
}

NOINLINE static char *small_block(void)
{
   return AFTER_CALL(malloc(8));
}

NOINLINE static void bad_frees(void)
{
   char  local[32];
   char *twice = malloc(16);
   char *fake  = malloc(64);
   char *big   = malloc(100000);
   char *live  = malloc(16);
   free(twice);
   free(twice);
   memcpy(fake, live - 16, 16);
   free(fake + 16);
   free(live - 16);
   free(big + 4096);
   free(local + 16);
   free(fake);
   free(big);
   free(live);
}

int main(int argc, char **argv)
{
   long total = 0;
   int  i;
   // The freed blocks of keep_block's class are taken last in, first out:
   // each dup_bad block is followed by the keep_block block made before it.
   for (i = 0; i < N; i++)
      keep[i] = keep_block();
   for (i = 0; i < N; i++)
      free(keep[i]);
   for (i = 0; i < N; i++) {
      keep[i] = keep_block();
      dups[i] = dup_bad("0123456789abcdef");
      total += (long)strlen(dups[i]);
   }
   // Carved one after the other: each is followed by the next.
   for (i = 0; i < N; i++)
      smalls[i] = small_block();
   for (i = 0; i < N; i++)
      memset(smalls[i], 0xA5, 24);            // 16 bytes past its end
   STRATA_SNAPSHOT();
   for (i = 0; i < N; i++) {
      free(dups[i]);
      free(keep[i]);
      free(smalls[i]);
   }
   STRATA_SNAPSHOT();
   if (argc > 1 && strcmp(argv[1], "bad-frees") == 0)
      bad_frees();
   // Not printf: stdout's buffer would be one more block.
   char line[40];
   int  n = snprintf(line, sizeof line, "total %ld\n", total);
   return write(1, line, n) == n ? 0 : 1;
}
