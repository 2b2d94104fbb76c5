/*--------------------------------------------------------------------*/
/*--- strata: the allocator for the client's heap blocks.          ---*/
/*---                                                  st_alloc.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef ST_ALLOC_H
#define ST_ALLOC_H

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"

/* Every block the client gets from malloc, new and the rest is a *chunk*:
   a 16-byte gap, then the client's bytes.  The gap holds nothing: the
   chunk's record (its site, size and birth) is in the tool's memory, out
   of the program's reach, and found from the client pointer in constant
   time (st_alloc.c).  A program that writes past its block (the classic
   malloc(strlen(s)) then strcpy) writes into the gap or the next block,
   as it would natively, never into the tool's bookkeeping.

   Chunks of up to 64 KiB (gap included) come from size classes: slabs
   carved by a bump pointer, and a free list per class (constant time, no
   search, no coalescing).  Larger chunks, and chunks aligned beyond 16
   bytes, come from Valgrind's client allocator. */

/* A chunk's record, in the tool's memory.  'site' while the chunk is live
   (st_main.c's record_Chunk sets it), 'next_free' while it is on its
   class's free list. */
typedef struct _Chunk {
   union {
      void*          site;       // the tool's Site*, NULL when the block
                                 // is not recorded
      struct _Chunk* next_free;  // the next free chunk of its class
   };
   ULong word;     // live: (requested size << 28) | (tag << 15)
                   //       | (magic << 7) | class
                   // free: (client address >> 4 << 15) | (magic << 7)
                   //       | class (st_alloc.c, free_word)
} Chunk;

/* The tag: CHUNK_TAG_BITS bits of the tool's own in a live chunk's word
   (the block's birth, st_lifetimes.c), 0 in a new chunk, kept by a resize
   in place.  The requested size has the bits left: a request of
   MAX_CHUNK_REQ_SZB bytes or more gets NULL (Valgrind cannot map that
   much anyway).

     bit  63 ........ 28 27 ..... 15 14 ..... 7 6 ..... 0
          requested size     tag        magic      class
     malloc(100) born in epoch 3, class 6 (a 128-byte chunk):
          (100 << 28) | (3 << 15) | (0xA5 << 7) | 6 = 0x64001D286 */
#define CHUNK_TAG_BITS     13
#define MAX_CHUNK_REQ_SZB  (1ull << 36)

/* The word's layout, for the accessors every heap operation calls
   (inline: the tool is linked without link-time optimisation). */
#define CHUNK_GAP_SZB      16      // before the client's bytes, unused
#define CHUNK_MAGIC_LIVE   0xA5
#define CHUNK_MAGIC_SHIFT  7
#define CHUNK_TAG_SHIFT    (CHUNK_MAGIC_SHIFT + 8)
#define CHUNK_SIZE_SHIFT   (CHUNK_TAG_SHIFT + CHUNK_TAG_BITS)
#define CHUNK_TAG_MASK     ((1u << CHUNK_TAG_BITS) - 1)

static inline UInt magic_of_Chunk(const Chunk* h)
{
   return (h->word >> CHUNK_MAGIC_SHIFT) & 0xff;
}

static inline UInt tag_of_Chunk(const Chunk* h)
{
   return (UInt)(h->word >> CHUNK_TAG_SHIFT) & CHUNK_TAG_MASK;
}

static inline void set_tag_of_Chunk(Chunk* h, UInt tag)
{
   tl_assert(magic_of_Chunk(h) == CHUNK_MAGIC_LIVE && tag <= CHUNK_TAG_MASK);
   h->word = (h->word & ~((ULong)CHUNK_TAG_MASK << CHUNK_TAG_SHIFT))
             | ((ULong)tag << CHUNK_TAG_SHIFT);
}

static inline SizeT req_szB_of_Chunk(const Chunk* h)
{
   return (SizeT)(h->word >> CHUNK_SIZE_SHIFT);
}

/* Sets up the size classes and the tables; before the first alloc_Chunk. */
void init_Chunks(void);

/* The largest alignment served: Valgrind's client allocator panics beyond
   it (VG_(arena_memalign), "bad alignment value"). */
#define MAX_ALIGN_SZB  (16 * 1024 * 1024)

/* A new chunk of 'req_szB' client bytes aligned to 'align': its client
   address, and its record in '*h' (site NULL, tag 0).  NULL if there is
   no memory, 'align' is not a power of two or is above MAX_ALIGN_SZB, or
   'req_szB' is not below MAX_CHUNK_REQ_SZB. */
void* alloc_Chunk(SizeT req_szB, SizeT align, Chunk** h);

/* The record of the live chunk at client address 'p'; NULL if 'p' is not
   a live chunk (already freed, not from this allocator, or not a block's
   start).  Reads the tool's tables only, never the client's memory. */
Chunk* live_Chunk(const void* p);

/* Frees the live chunk 'h', at client address 'p' (live_Chunk(p) == h). */
void free_Chunk(Chunk* h, void* p);

/* The bytes usable in the chunk (from its client address on). */
SizeT usable_szB_of_Chunk(const Chunk* h);

/* Can the chunk hold 'req_szB' bytes in place?  Then sets its size (its
   tag stays). */
Bool resize_Chunk_in_place(Chunk* h, SizeT req_szB);

/* Client memory held in slabs, and tool memory held for the chunks'
   records and the tables (for --stats=yes). */
ULong slab_szB_Chunks(void);
ULong record_szB_Chunks(void);

/* For the sanity check (--sanity-level=2 and more): how many chunks are
   live, and the allocator's own check, which walks every slab's records,
   every free list and the big chunks (tl_asserts what is wrong). */
ULong live_Chunks(void);
void  check_Chunks(void);

#endif /* ST_ALLOC_H */
