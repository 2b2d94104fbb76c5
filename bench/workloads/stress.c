/* Allocation stress, the shape of the second seed's test: N blocks live at
   once, then OPS random free/malloc pairs.  Usage: stress N OPS
   SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng_state = 88172645463325252ULL;

static unsigned long long next_random(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 7;
   rng_state ^= rng_state << 17;
   return rng_state;
}

static size_t random_size(void)
{
   return 16 + next_random() % 112;
}

int main(int argc, char** argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: stress N OPS\n");
      return 1;
   }
   long n = atol(argv[1]), ops = atol(argv[2]);
   void** live = malloc(n * sizeof(void*));
   for (long i = 0; i < n; i++)
      live[i] = malloc(random_size());
   for (long k = 0; k < ops; k++) {
      long i = next_random() % n;
      free(live[i]);
      live[i] = malloc(random_size());
   }
   for (long i = 0; i < n; i++)
      free(live[i]);
   free(live);
   return 0;
}
