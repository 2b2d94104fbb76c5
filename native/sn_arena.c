/*--------------------------------------------------------------------*/
/*--- strata native: the recorder's own memory.          sn_arena.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The native recorder replaces malloc, so its own memory (the core's sites,
   tables and buffers, its block table) must come from elsewhere: from
   mmap, here.  Blocks of up to 64 KiB are carved from 1 MiB regions in
   size classes (16 bytes apart up to 512, then powers of two), each class
   a LIFO free list; larger blocks are mappings of their own.  Every block
   has a 16-byte header before it:

      [ class: 8 bytes | size: 8 bytes ][ the block ... ]
        class 0..N_CLASSES-1, or BIG_CLASS for a mapping of its own, whose
        size is the mapping's length.

   One lock: the core calls in under the recorder's lock, the caches of the
   stack unwinder from outside it. */

#define _GNU_SOURCE
#include "sn_native.h"

#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#define HEADER_SZB   16
#define REGION_SZB   (1UL << 20)
#define N_SMALL      32                    // 16, 32, ... 512
#define N_CLASSES    (N_SMALL + 7)         // then 1 KiB .. 64 KiB
#define BIG_CLASS    0xB16B16UL

typedef struct { UWord cls; UWord szB; } Header;

static void*  free_lists[N_CLASSES];       /* class -> first free block */
static UChar* region_next = NULL;          // the bump pointer of the region
static UChar* region_end  = NULL;
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;

static ULong stats_mapped_szB = 0;

static UWord class_of(SizeT n)
{
   UWord c = 0;
   SizeT size;
   if (n <= 16 * N_SMALL)
      return n == 0 ? 0 : (n - 1) / 16;
   for (c = N_SMALL, size = 1024; size < n; c++, size *= 2)
      ;
   return c;
}

static SizeT size_of_class(UWord c)
{
   return c < N_SMALL ? 16 * (c + 1) : (SizeT)1024 << (c - N_SMALL);
}

static void* map(SizeT n)
{
   void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                  -1, 0);
   if (p == MAP_FAILED)
      return NULL;
   stats_mapped_szB += n;
   return p;
}

static void* carve(UWord c)
{
   SizeT  n = HEADER_SZB + size_of_class(c);
   UChar* p;
   if (region_next == NULL || region_end - region_next < (long)n) {
      region_next = map(REGION_SZB);
      if (region_next == NULL)
         return NULL;
      region_end = region_next + REGION_SZB;
   }
   p = region_next;
   region_next += n;
   return p;
}

void* arena_malloc(SizeT n)
{
   Header* h;
   UWord   c;
   if (n > ((SizeT)64 << 10)) {
      SizeT len = (n + HEADER_SZB + 4095) & ~(SizeT)4095;
      if (len < n)
         return NULL;
      h = map(len);
      if (h == NULL)
         return NULL;
      h->cls = BIG_CLASS;
      h->szB = len;
      return (UChar*)h + HEADER_SZB;
   }
   c = class_of(n);
   pthread_mutex_lock(&arena_lock);
   h = free_lists[c];
   if (h != NULL)
      free_lists[c] = *(void**)h;
   else
      h = carve(c);
   pthread_mutex_unlock(&arena_lock);
   if (h == NULL)
      return NULL;
   h->cls = c;
   h->szB = size_of_class(c);
   return (UChar*)h + HEADER_SZB;
}

/* Around a fork (sn_main.c's handlers, last and first): the arena's lock
   is held across it, so that no other thread (the recorder thread reading
   the modules, a thread freeing its stack cache) leaves it taken in the
   child. */
void arena_atfork_prepare(void) { pthread_mutex_lock(&arena_lock); }
void arena_atfork_parent(void)  { pthread_mutex_unlock(&arena_lock); }
void arena_atfork_child(void)   { pthread_mutex_init(&arena_lock, NULL); }

void arena_free(void* p)
{
   Header* h;
   if (p == NULL)
      return;
   h = (Header*)((UChar*)p - HEADER_SZB);
   if (h->cls == BIG_CLASS) {
      munmap(h, h->szB);
      return;
   }
   tl_assert(h->cls < N_CLASSES);
   pthread_mutex_lock(&arena_lock);
   *(void**)h = free_lists[h->cls];
   free_lists[h->cls] = h;
   pthread_mutex_unlock(&arena_lock);
}

void* arena_realloc(void* p, SizeT n)
{
   Header* h;
   SizeT   room;
   void*   q;
   if (p == NULL)
      return arena_malloc(n);
   h    = (Header*)((UChar*)p - HEADER_SZB);
   room = h->cls == BIG_CLASS ? h->szB - HEADER_SZB : h->szB;
   if (n <= room)
      return p;
   q = arena_malloc(n);
   if (q == NULL)
      return NULL;
   memcpy(q, p, room);
   arena_free(p);
   return q;
}

ULong arena_mapped_szB(void)
{
   return stats_mapped_szB;
}

/*--------------------------------------------------------------------*/
/*--- end                                                sn_arena.c ---*/
/*--------------------------------------------------------------------*/
