/* Threads allocating at once: T threads, each with LIVE blocks of 16-215
   bytes live and OPS random free/malloc pairs, from two call sites.
   Usage: threads T LIVE OPS
   SPDX-License-Identifier: GPL-2.0-or-later */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static long live_blocks, ops;

static __attribute__((noinline)) void* make_near(size_t n) { return malloc(n); }
static __attribute__((noinline)) void* make_via(size_t n) { return make_near(n); }
static __attribute__((noinline)) void* make_far(size_t n) { return make_via(n); }

static void* churn(void* arg)
{
   uint64_t x = 88172645463325252ULL ^ (uintptr_t)arg;
   void**   slot = calloc((size_t)live_blocks, sizeof(void*));
   if (slot == NULL)
      return NULL;
   for (long i = 0; i < ops; i++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      long   k = (long)(x % (uint64_t)live_blocks);
      size_t n = 16 + (size_t)((x >> 32) % 200);
      free(slot[k]);
      slot[k] = (x & 1) ? make_far(n) : make_near(n);
   }
   for (long k = 0; k < live_blocks; k++)
      free(slot[k]);
   free(slot);
   return NULL;
}

int main(int argc, char** argv)
{
   if (argc != 4) {
      fprintf(stderr, "usage: threads T LIVE OPS\n");
      return 1;
   }
   int threads = atoi(argv[1]);
   live_blocks = atol(argv[2]);
   ops = atol(argv[3]);
   if (threads < 1 || threads > 64 || live_blocks < 1 || ops < 0) {
      fprintf(stderr, "threads: T from 1 to 64, LIVE from 1\n");
      return 1;
   }
   pthread_t t[64];
   for (int i = 0; i < threads; i++)
      if (pthread_create(&t[i], NULL, churn, (void*)(uintptr_t)(i + 1)) != 0)
         return 1;
   for (int i = 0; i < threads; i++)
      pthread_join(t[i], NULL);
   return 0;
}
