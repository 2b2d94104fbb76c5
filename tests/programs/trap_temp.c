/* trap_temp: temporary buffers, larger as the run goes on: not a leak.
 *
 * 10 cycles marked "frame"; each decodes 16 packets, each into a buffer
 * (temp_alloc) that is freed as soon as the packet is decoded.  The packets
 * grow through the run, so the buffers' crests rise, but they always come
 * back to nothing.  A decoder state allocated in each cycle is freed at
 * its end. */
#include <string.h>

#include "prog.h"

enum { CYCLES = 10, PACKETS = 16 };

NOINLINE static char *temp_alloc(size_t size)
{
   return AFTER_CALL(malloc(size));
}

NOINLINE static char *state_alloc(void)
{
   return AFTER_CALL(calloc(1, 8192));
}

int main(void)
{
   for (int c = 0; c < CYCLES; c++) {
      STRATA_MARK("frame");
      char *state = state_alloc();
      for (int p = 0; p < PACKETS; p++) {
         size_t size = 2048 + (size_t)(c * PACKETS + p) * 96;
         char *packet = temp_alloc(size);
         memset(packet, p, size);
         state[p] = packet[size / 2];
         free(packet);
      }
      free(state);
   }
   return 0;
}
