/* bad_labels: STRATA_MARK with labels the program cannot read (issue 32,
 * 2), between labels it can.  Natively the requests do nothing; under
 * strata a label that cannot be read is no marker, and the run goes on.
 * The markers, in order:
 *   "before"
 *   (none: a page given back with munmap)
 *   "edge"        its NUL the last byte of a page followed by no page
 *   (none: a label whose bytes run into that missing page)
 *   (none: a page mapped PROT_NONE)
 *   (none: the address 1, and one 8 bytes below the top of the space)
 *   255 'x'       a label of 300 bytes cut at 255, the bytes after unread
 *   "after"
 * Exit status 0. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "prog.h"

int main(void)
{
   long  page = sysconf(_SC_PAGESIZE);
   char *two  = mmap(0, 2 * page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   char *gone = mmap(0, page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   char *none = mmap(0, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   char *end;
   static char long_label[301];
   if (two == MAP_FAILED || gone == MAP_FAILED || none == MAP_FAILED)
      return 1;
   munmap(two + page, page);          // the second page is no more
   end = two + page;
   strcpy(gone, "request");
   munmap(gone, page);
   memset(long_label, 'x', 300);

   STRATA_MARK("before");
   STRATA_MARK(gone);
   strcpy(end - 5, "edge");
   STRATA_MARK(end - 5);
   memset(end - 8, 'y', 8);
   STRATA_MARK(end - 8);
   STRATA_MARK(none);
   STRATA_MARK((const char *)1);
   STRATA_MARK((const char *)-8);
   STRATA_MARK(long_label);
   STRATA_MARK("after");
   return 0;
}
