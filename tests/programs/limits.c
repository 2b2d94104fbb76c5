/* limits: allocations no allocator can serve, and one Valgrind cannot.
 *   malloc(SIZE_MAX), calloc and reallocarray that overflow, sizes beyond
 *   any memory, realloc to them (the block stays as it was): NULL, nothing
 *   recorded.  Alignments above 16 MiB, which Valgrind's allocator cannot
 *   serve (it panicked): NULL under strata, with a message naming the
 *   limit; natively glibc may serve them, and they are freed.
 *   user snapshot 1: kept 100 (use_kept) and a block of 1 aligned to 16 MiB
 *                    (use_max_align): 101 bytes in 2 blocks
 * Exit status 0, or 1 with a message if a call gave what it must not. */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "prog.h"

static void *volatile kept, *volatile aligned;
/* Read at run time: the compiler neither warns of nor folds the calls. */
static volatile size_t size_max = SIZE_MAX;

static void check(int ok, const char *what)
{
   if (!ok) {
      ssize_t n = write(2, what, strlen(what));
      (void)n;
      _exit(1);
   }
}

NOINLINE static void *use_kept(void) { return AFTER_CALL(malloc(100)); }
NOINLINE static void *use_max_align(void) { return AFTER_CALL(memalign(1 << 24, 1)); }

static void impossible_sizes(void)
{
   void *p;
   check(malloc(size_max) == NULL, "malloc(size_max) gave a block\n");
   check(malloc(size_max / 2) == NULL, "malloc(size_max / 2) gave a block\n");
   check(malloc(size_max / 4) == NULL, "malloc(size_max / 4) gave a block\n");
   check(calloc(size_max / 2, 3) == NULL, "calloc overflowing gave a block\n");
   check(calloc(size_max, size_max) == NULL, "calloc(size_max, size_max) gave a block\n");
   check(reallocarray(NULL, size_max / 2, 3) == NULL, "reallocarray overflowing gave a block\n");
   check(memalign(4096, size_max / 4) == NULL, "memalign of size_max / 4 gave a block\n");
   check(posix_memalign(&p, 64, size_max) == ENOMEM, "posix_memalign(size_max) did not fail\n");
   check(realloc(kept, size_max) == NULL, "realloc(p, size_max) gave a block\n");
   check(realloc(kept, size_max / 4) == NULL, "realloc(p, size_max / 4) gave a block\n");
   memset(kept, 1, 100);   // still the program's
}

/* Served natively; not under Valgrind (16 MiB at most). */
static void large_alignments(void)
{
   void *p = NULL;
   free(memalign((size_t)1 << 25, 1));
   free(memalign((size_t)1 << 40, 1));
   free(memalign((size_t)1 << 63, 1));
   if (posix_memalign(&p, (size_t)1 << 30, 16) == 0)
      free(p);
   free(aligned_alloc((size_t)1 << 26, (size_t)1 << 26));
}

int main(void)
{
   kept = use_kept();
   aligned = use_max_align();
   check(kept != NULL && aligned != NULL, "no block\n");
   check((uintptr_t)aligned % (1 << 24) == 0, "misaligned\n");
   impossible_sizes();
   large_alignments();
   STRATA_SNAPSHOT();
   free(kept);
   free(aligned);
   return 0;
}
