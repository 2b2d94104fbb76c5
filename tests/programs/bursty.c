/* bursty CYCLES IDLE [sleep]: a player with long idle stretches, no markers.  Each
 * cycle opens a video: a burst of heap operations decodes 40 frames of 16 KiB
 * into a queue, with a 2 MiB scratch buffer freed at the end of the burst;
 * then it computes for IDLE loop iterations without touching the heap; then
 * it closes the video, freeing the queue but forgetting the last 4 frames
 * (a leak: its trough rises every cycle).  Then it idles again.  With
 * "sleep", an idle stretch sleeps IDLE microseconds instead: its length in
 * milliseconds then holds on a busy machine, where a loop's varies. */
#include <string.h>
#include <unistd.h>
#include "prog.h"

enum { FRAMES = 40, FRAME_SZB = 16384, KEPT = 4 };

static void *volatile queue[FRAMES];
static void *volatile scratch;
static void *volatile kept[64 * KEPT];

NOINLINE static void *decode_frame(void)
{
   return AFTER_CALL(malloc(FRAME_SZB));
}

NOINLINE static void *scratch_buffer(void)
{
   return AFTER_CALL(malloc(2 << 20));
}

static void idle_for(long idle, int sleeps)
{
   if (sleeps)
      usleep(idle);
   else
      idle_loop(idle);
}

int main(int argc, char **argv)
{
   int cycles = argc > 1 ? atoi(argv[1]) : 8;
   long idle = argc > 2 ? atol(argv[2]) : 2000000;
   int sleeps = argc > 3 && strcmp(argv[3], "sleep") == 0;
   int n_kept = 0;
   for (int c = 0; c < cycles && c < 64; c++) {
      scratch = scratch_buffer();
      for (int f = 0; f < FRAMES; f++)
         queue[f] = decode_frame();
      free(scratch);
      idle_for(idle, sleeps);
      for (int f = 0; f < FRAMES; f++) {
         if (f >= FRAMES - KEPT)
            kept[n_kept++] = queue[f];
         else
            free(queue[f]);
      }
      idle_for(idle, sleeps);
   }
   for (int i = 0; i < n_kept; i++)
      free(kept[i]);
   return 0;
}
