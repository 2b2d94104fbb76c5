/* no_frame_pointer: a program built without frame pointers (-O2
 * -fomit-frame-pointer, tests/Makefile.inc), whatever the other test
 * programs are built with: strata record --native --unwind=fp says in one
 * line that its main keeps none and unwinds it with libunwind
 * (t-native.sh).  It allocates a little through a function of its own. */
#include <stdio.h>
#include <stdlib.h>

static void *volatile kept[16];

__attribute__((noinline)) static void *make(size_t n)
{
   return malloc(n);
}

int main(void)
{
   for (int i = 0; i < 16; i++)
      kept[i] = make(64 + (size_t)i);
   for (int i = 0; i < 16; i += 2)
      free(kept[i]);
   puts("no_frame_pointer: done");
   return 0;
}
