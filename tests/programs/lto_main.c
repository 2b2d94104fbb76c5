/* lto_inline: 8 records of 100 to 107 bytes made by make_record
 * (lto_alloc.c), inlined here by link-time optimisation; freed at the end.
 * fill_table stays a function of its own (noinline, noclone). */
#include <stdlib.h>

void *make_record(size_t n);

enum { RECORDS = 8 };

static void *volatile kept[RECORDS];

__attribute__((noinline, noclone)) void fill_table(int n)
{
   for (int i = 0; i < n; i++)
      kept[i] = make_record(100 + (size_t)i);
}

int main(void)
{
   fill_table(RECORDS);
   for (int i = 0; i < RECORDS; i++)
      free(kept[i]);
   return 0;
}
