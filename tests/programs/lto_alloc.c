/* lto_alloc: the allocating half of lto_inline (lto_main.c has the rest).
 * Built with link-time optimisation (tests/Makefile.inc), make_record is
 * inlined into fill_table, in the other unit: Valgrind then names the
 * inlined frame UnknownInlinedFun, and strata report names it from the
 * DWARF (tests/t-symbolize.sh). */
#include <stdlib.h>

void *make_record(size_t n);

void *make_record(size_t n)
{
   char *p = malloc(n); /* the allocation */
   __asm__ volatile("" : : "r"(p) : "memory");
   p[0] = (char)n;
   return p;
}
