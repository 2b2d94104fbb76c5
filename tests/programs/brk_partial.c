/* brk_partial: for --pages-as-heap=yes, a break moved into the middle of a
 * page.  From a page boundary B, grow_brk sets the break to B + 2 pages + 100
 * bytes: 3 pages hold data (user snapshot 1: 12288 bytes).  The break goes
 * down to B + 2 pages + 50: the third page still holds 50 bytes (snapshot 2:
 * 12288).  Down to B + 1 page + 1: 2 pages (snapshot 3: 8192).  Down to B:
 * none (snapshot 4: 0). */
#include <stdint.h>
#include <unistd.h>
#include "prog.h"

enum { PAGE = 4096 };

static char *base;
static volatile int result;

NOINLINE static int grow_brk(void)
{
   result = brk(base + 2 * PAGE + 100);
   return result;
}

int main(void)
{
   if (sysconf(_SC_PAGESIZE) != PAGE)
      return 2;
   base = sbrk(0);
   uintptr_t into_page = (uintptr_t)base % PAGE;
   if (into_page != 0)
      base += PAGE - into_page;
   if (brk(base) != 0 || grow_brk() != 0)
      return 3;
   STRATA_SNAPSHOT();
   brk(base + 2 * PAGE + 50);
   STRATA_SNAPSHOT();
   brk(base + PAGE + 1);
   STRATA_SNAPSHOT();
   brk(base);
   STRATA_SNAPSHOT();
   return 0;
}
