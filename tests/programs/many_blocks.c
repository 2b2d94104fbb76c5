/* many_blocks: 600,000 small blocks live at once (more than the native
 * recorder's threshold for its recorder thread, 2^19), built in two
 * functions, then 300,000 of them freed and made again at random, then all
 * freed: the recorder thread takes the events over midway.  Prints the
 * process's threads at the end ("threads N", from /proc/self/status). */
#include "prog.h"
#include "thread_count.h"

enum { LIVE = 600000, TURNS = 300000 };

static void* volatile* blocks;
static unsigned long long state = 88172645463325252ULL;

static unsigned long long next_random(void)
{
   state ^= state << 13;
   state ^= state >> 7;
   state ^= state << 17;
   return state;
}

NOINLINE static void* make_small(void)
{
   return malloc(16 + next_random() % 48);
}

NOINLINE static void* make_other(void)
{
   return malloc(64 + next_random() % 64);
}

int main(void)
{
   blocks = malloc(LIVE * sizeof(void*));
   if (blocks == NULL)
      return 1;
   for (long i = 0; i < LIVE; i++)
      blocks[i] = i % 3 == 0 ? make_other() : make_small();
   for (long k = 0; k < TURNS; k++) {
      long i = (long)(next_random() % LIVE);
      free(blocks[i]);
      blocks[i] = k % 2 == 0 ? make_small() : make_other();
   }
   for (long i = 0; i < LIVE; i++)
      free(blocks[i]);
   free((void*)blocks);
   return print_threads();
}
