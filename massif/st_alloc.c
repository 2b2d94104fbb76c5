/*--------------------------------------------------------------------*/
/*--- strata: the allocator for the client's heap blocks.          ---*/
/*---                                                  st_alloc.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Why an allocator of our own: Valgrind's client allocator keeps free lists
   that it searches and coalesces, so its cost grows with the number of live
   blocks (the second seed); and a profiler on top of it needs a table of
   live blocks to find a block's size and site at free.  Here both costs are
   constant: size classes with LIFO free lists, and the site and size in a
   header in front of the block.

   Layout of a chunk:  [ ChunkHdr (16 bytes) ][ client bytes ... ]
   The client pointer is 16 bytes past the chunk's start and is 16-aligned.
   A free chunk keeps its header (magic FREE) and links the free list
   through its first client word, so the smallest chunk, the one of
   malloc(0), has room for that word: a chunk that were all header would
   have the link written over the next chunk's header. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_replacemalloc.h"

#include "st_alloc.h"

#define HDR_SZB          CHUNK_HDR_SZB
#define MIN_CHUNK_SZB    32             // a header and a free-list link
#define FINE_MAX_SZB     1024           // classes 16 bytes apart up to here
#define N_FINE ((FINE_MAX_SZB - MIN_CHUNK_SZB) / 16 + 1)   // 63
#define SMALL_MAX_SZB    65536          // largest class, header included
#define N_CLASSES        (N_FINE + 24)  // then 4 per octave, 6 octaves
#define MIN_SLAB_SZB     (256 * 1024)
#define MAGIC_LIVE       CHUNK_MAGIC_LIVE
#define MAGIC_FREE       0x5A
#define CLASS_BITS       7
#define CLASS_BIG        0x60           // + log2 of the offset to the base
#define MAGIC_SHIFT      CHUNK_MAGIC_SHIFT
#define TAG_SHIFT        CHUNK_TAG_SHIFT
#define SIZE_SHIFT       CHUNK_SIZE_SHIFT
#define TAG_MASK         CHUNK_TAG_MASK

static UInt  class_szB[N_CLASSES];      // chunk size of each class
static void* free_heads[N_CLASSES];     // client pointers, linked
static Addr  bump_next[N_CLASSES];      // next unused chunk in the slab
static Addr  bump_end[N_CLASSES];
static ULong slab_szB = 0;
static ULong n_carved[N_CLASSES];       // chunks carved from slabs
static ULong n_free[N_CLASSES];         // chunks on the free list
static ULong n_big = 0;                 // live chunks of Valgrind's allocator

/* The class of a chunk of 'szB' bytes, header included. */
static UInt class_of_szB(SizeT szB)
{
   UInt p, step, idx;
   if (szB <= FINE_MAX_SZB)
      return szB <= MIN_CHUNK_SZB
                ? 0 : (UInt)((szB - MIN_CHUNK_SZB + 15) / 16);
   p    = 63 - __builtin_clzll((ULong)(szB - 1));   // 1025..2048 -> 10
   step = 1u << (p - 2);
   idx  = (UInt)((szB - 1 - (1ull << p)) / step);
   return N_FINE + (p - 10) * 4 + idx;
}

void init_Chunks(void)
{
   UInt c;
   tl_assert(MIN_CHUNK_SZB >= HDR_SZB + sizeof(void*));
   tl_assert(MIN_CHUNK_SZB % HDR_SZB == 0);
   tl_assert(N_CLASSES <= CLASS_BIG && CLASS_BIG + 24 < (1u << CLASS_BITS));
   tl_assert(MAGIC_SHIFT == CLASS_BITS && sizeof(ChunkHdr) == HDR_SZB);
   tl_assert(MAX_ALIGN_SZB == 1 << 24);
   tl_assert(SIZE_SHIFT + 36 == 64 && MAX_CHUNK_REQ_SZB == 1ull << 36);
   for (c = 0; c < N_FINE; c++)
      class_szB[c] = MIN_CHUNK_SZB + c * 16;
   tl_assert(class_szB[N_FINE - 1] == FINE_MAX_SZB);
   for (c = N_FINE; c < N_CLASSES; c++) {
      UInt p = 10 + (c - N_FINE) / 4, idx = (c - N_FINE) % 4;
      class_szB[c] = (1u << p) + (idx + 1) * (1u << (p - 2));
   }
   tl_assert(class_szB[N_CLASSES - 1] == SMALL_MAX_SZB);
   for (c = 0; c < N_CLASSES; c++) {
      tl_assert(class_of_szB(class_szB[c]) == c);
      tl_assert(class_of_szB(class_szB[c] - 15) == c);
   }
}

static ULong make_word(SizeT req_szB, UInt tag, UInt magic, UInt cls)
{
   tl_assert(req_szB < MAX_CHUNK_REQ_SZB && tag <= TAG_MASK);
   return ((ULong)req_szB << SIZE_SHIFT) | ((ULong)tag << TAG_SHIFT)
          | (magic << MAGIC_SHIFT) | cls;
}

static UInt class_of_Chunk(const ChunkHdr* h)
{
   return h->word & ((1u << CLASS_BITS) - 1);
}

static Bool is_big_class(UInt cls) { return cls >= CLASS_BIG; }

static void new_slab(UInt c)
{
   SizeT sz = 8 * (SizeT)class_szB[c];
   void* slab;
   if (sz < MIN_SLAB_SZB)
      sz = MIN_SLAB_SZB;
   slab = VG_(cli_malloc)(16, sz);
   tl_assert2(slab != NULL, "out of memory for the client's heap");
   bump_next[c] = (Addr)slab;
   bump_end[c]  = (Addr)slab + sz;
   slab_szB += sz;
}

static ChunkHdr* alloc_small(UInt c)
{
   void* p = free_heads[c];
   if (p != NULL) {
      tl_assert(n_free[c] > 0);
      n_free[c]--;
      free_heads[c] = *(void**)p;
      return (ChunkHdr*)p - 1;
   }
   if (bump_next[c] + class_szB[c] > bump_end[c])
      new_slab(c);
   bump_next[c] += class_szB[c];
   n_carved[c]++;
   return (ChunkHdr*)(bump_next[c] - class_szB[c]);
}

/* Big or over-aligned: from Valgrind's client allocator, with the header
   right before the client pointer, 'off' bytes past the base. */
static ChunkHdr* alloc_big(SizeT req_szB, SizeT align, UInt* cls)
{
   SizeT off = align > HDR_SZB ? align : HDR_SZB;
   UInt  lg  = 63 - __builtin_clzll((ULong)off);
   Addr  base;
   tl_assert((1ull << lg) == off);
   if (req_szB >= MAX_CHUNK_REQ_SZB)
      return NULL;
   base = (Addr)VG_(cli_malloc)(off, req_szB + off);
   if (base == 0)
      return NULL;
   *cls = CLASS_BIG + lg;
   n_big++;
   return (ChunkHdr*)(base + off) - 1;
}

void* alloc_Chunk(SizeT req_szB, SizeT align)
{
   ChunkHdr* h;
   UInt      cls;
   if (align <= HDR_SZB && req_szB <= SMALL_MAX_SZB - HDR_SZB) {
      cls = class_of_szB(req_szB + HDR_SZB);
      h   = alloc_small(cls);
   } else {
      if ((align & (align - 1)) || align > MAX_ALIGN_SZB)
         return NULL;                 // not a power of two, or too large
      h = alloc_big(req_szB, align, &cls);
      if (h == NULL)
         return NULL;
   }
   h->site = NULL;
   h->word = make_word(req_szB, 0, MAGIC_LIVE, cls);
   return h + 1;
}

void free_Chunk(void* p)
{
   ChunkHdr* h   = (ChunkHdr*)p - 1;
   UInt      cls = class_of_Chunk(h);
   tl_assert(magic_of_Chunk(h) == MAGIC_LIVE);
   if (is_big_class(cls)) {
      tl_assert(n_big > 0);
      n_big--;
      h->word = 0;
      VG_(cli_free)((HChar*)p - (1ull << (cls - CLASS_BIG)));
      return;
   }
   tl_assert(cls < N_CLASSES && n_free[cls] < n_carved[cls]);
   h->word       = make_word(0, 0, MAGIC_FREE, cls);
   h->site       = NULL;
   *(void**)p    = free_heads[cls];
   free_heads[cls] = p;
   n_free[cls]++;
}

SizeT usable_szB_of_Chunk(const ChunkHdr* h)
{
   UInt cls = class_of_Chunk(h);
   if (is_big_class(cls)) {
      SizeT off = 1ull << (cls - CLASS_BIG);
      return VG_(cli_malloc_usable_size)((HChar*)(h + 1) - off) - off;
   }
   return class_szB[cls] - HDR_SZB;
}

Bool resize_Chunk_in_place(ChunkHdr* h, SizeT req_szB)
{
   UInt cls = class_of_Chunk(h);
   if (is_big_class(cls) || req_szB > SMALL_MAX_SZB - HDR_SZB
       || class_of_szB(req_szB + HDR_SZB) != cls)
      return False;
   h->word = make_word(req_szB, tag_of_Chunk(h), MAGIC_LIVE, cls);
   return True;
}

ULong slab_szB_Chunks(void)
{
   return slab_szB;
}

ULong live_Chunks(void)
{
   ULong n = n_big;
   UInt  c;
   for (c = 0; c < N_CLASSES; c++)
      n += n_carved[c] - n_free[c];
   return n;
}

/* Each free list holds as many chunks as counted, free ones of its class,
   within the chunks carved; each bump pointer is within its slab. */
void check_Chunks(void)
{
   UInt c;
   for (c = 0; c < N_CLASSES; c++) {
      ULong n = 0;
      void* p;
      tl_assert(n_free[c] <= n_carved[c]);
      tl_assert(bump_next[c] <= bump_end[c]);
      for (p = free_heads[c]; p != NULL; p = *(void**)p) {
         const ChunkHdr* h = (const ChunkHdr*)p - 1;
         tl_assert(n < n_free[c]);
         tl_assert(magic_of_Chunk(h) == MAGIC_FREE && class_of_Chunk(h) == c);
         tl_assert(h->site == NULL && req_szB_of_Chunk(h) == 0
                   && tag_of_Chunk(h) == 0);
         n++;
      }
      tl_assert(n == n_free[c]);
   }
}
