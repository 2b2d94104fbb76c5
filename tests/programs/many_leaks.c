/* many_leaks: 24 call sites that leak, for the graph's legend (issue 22).
 *
 * Each of 24 functions (leak_00 ... leak_23) keeps a list of records that
 * grows every cycle and is never trimmed: a leak at each site, of sizes
 * that differ from site to site (site k keeps k + 1 records of 256 bytes a
 * cycle), so the findings rank by size.  A working set (work_alloc) comes
 * and goes each cycle beside them.  Nothing is freed at exit. */
#include <string.h>

#include "prog.h"

enum { SITES = 24, CYCLES = 24, RECORD_BYTES = 256, WORK = 64, WORK_BYTES = 4096 };

struct record {
   struct record *next;
   char data[RECORD_BYTES - sizeof(struct record *)];
};

static struct record *volatile kept[SITES];

#define LEAK_SITE(k)                                                   \
   NOINLINE static void leak_##k(int site)                            \
   {                                                                   \
      struct record *r = AFTER_CALL(malloc(sizeof *r)); /* the leak */ \
      r->next = kept[site];                                            \
      kept[site] = r;                                                  \
   }

LEAK_SITE(00) LEAK_SITE(01) LEAK_SITE(02) LEAK_SITE(03) LEAK_SITE(04) LEAK_SITE(05)
LEAK_SITE(06) LEAK_SITE(07) LEAK_SITE(08) LEAK_SITE(09) LEAK_SITE(10) LEAK_SITE(11)
LEAK_SITE(12) LEAK_SITE(13) LEAK_SITE(14) LEAK_SITE(15) LEAK_SITE(16) LEAK_SITE(17)
LEAK_SITE(18) LEAK_SITE(19) LEAK_SITE(20) LEAK_SITE(21) LEAK_SITE(22) LEAK_SITE(23)

static void (*const sites[SITES])(int) = {
   leak_00, leak_01, leak_02, leak_03, leak_04, leak_05, leak_06, leak_07,
   leak_08, leak_09, leak_10, leak_11, leak_12, leak_13, leak_14, leak_15,
   leak_16, leak_17, leak_18, leak_19, leak_20, leak_21, leak_22, leak_23,
};

NOINLINE static char *work_alloc(void)
{
   return AFTER_CALL(malloc(WORK_BYTES));
}

int main(void)
{
   static char *volatile work[WORK];
   for (int c = 0; c < CYCLES; c++) {
      for (int i = 0; i < WORK; i++) {
         work[i] = work_alloc();
         memset(work[i], i, WORK_BYTES);
      }
      for (int k = 0; k < SITES; k++)
         for (int n = 0; n < (k == c ? CYCLES : 1); n++)
            sites[k](k);
      for (int i = 0; i < WORK; i++)
         free(work[i]);
   }
   return 0;
}
