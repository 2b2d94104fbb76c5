/* pages: for --pages-as-heap=yes.  map_pages maps 10 pages (40960 bytes) and
 * grow_brk moves the break by 3 pages; user snapshot 1; then both are given
 * back; user snapshot 2. */
#include <sys/mman.h>
#include <unistd.h>
#include "prog.h"

enum { PAGE = 4096 };

NOINLINE static void *map_pages(void)
{
   void *p = mmap(NULL, 10 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   return p == MAP_FAILED ? NULL : p;
}

NOINLINE static void *grow_brk(void)
{
   void *p = sbrk(3 * PAGE);
   return p == (void *)-1 ? NULL : p;
}

int main(void)
{
   if (sysconf(_SC_PAGESIZE) != PAGE)
      return 2;
   void *pages = map_pages();
   void *brk_start = grow_brk();
   if (pages == NULL || brk_start == NULL)
      return 3;
   STRATA_SNAPSHOT();
   munmap(pages, 10 * PAGE);
   sbrk(-3 * PAGE);
   STRATA_SNAPSHOT();
   return 0;
}
