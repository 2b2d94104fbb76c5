/*--------------------------------------------------------------------*/
/*--- strata: the allocator for the client's heap blocks.          ---*/
/*---                                                  st_alloc.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef ST_ALLOC_H
#define ST_ALLOC_H

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"

/* Every block the client gets from malloc, new and the rest is a *chunk*: a
   16-byte header, then the client's bytes.  The header holds the block's
   site and size, so that a free finds them without any table look-up.

   Chunks of up to 64 KiB (header included) come from size classes: slabs
   carved by a bump pointer, and a free list per class (constant time, no
   search, no coalescing).  Larger chunks, and chunks aligned beyond 16
   bytes, come from Valgrind's client allocator. */

typedef struct {
   void* site;     // the tool's Site*, NULL when the block is not recorded
   ULong word;     // (requested size << 28) | (tag << 15) | (magic << 7)
                   // | class
} ChunkHdr;

/* The tag: CHUNK_TAG_BITS bits of the tool's own in the header word (the
   block's birth, st_main.c's Lifetimes), 0 in a new chunk, kept by a
   resize in place.  The requested size has the bits left: a request of
   MAX_CHUNK_REQ_SZB bytes or more gets NULL (Valgrind cannot map that
   much anyway). */
#define CHUNK_TAG_BITS     13
#define MAX_CHUNK_REQ_SZB  (1ull << 36)

/* The header word's layout, for the accessors every heap operation calls
   (inline: the tool is linked without link-time optimisation). */
#define CHUNK_HDR_SZB      16
#define CHUNK_MAGIC_LIVE   0xA5
#define CHUNK_MAGIC_SHIFT  7
#define CHUNK_TAG_SHIFT    (CHUNK_MAGIC_SHIFT + 8)
#define CHUNK_SIZE_SHIFT   (CHUNK_TAG_SHIFT + CHUNK_TAG_BITS)
#define CHUNK_TAG_MASK     ((1u << CHUNK_TAG_BITS) - 1)

static inline UInt magic_of_Chunk(const ChunkHdr* h)
{
   return (h->word >> CHUNK_MAGIC_SHIFT) & 0xff;
}

static inline UInt tag_of_Chunk(const ChunkHdr* h)
{
   return (UInt)(h->word >> CHUNK_TAG_SHIFT) & CHUNK_TAG_MASK;
}

static inline void set_tag_of_Chunk(ChunkHdr* h, UInt tag)
{
   tl_assert(magic_of_Chunk(h) == CHUNK_MAGIC_LIVE && tag <= CHUNK_TAG_MASK);
   h->word = (h->word & ~((ULong)CHUNK_TAG_MASK << CHUNK_TAG_SHIFT))
             | ((ULong)tag << CHUNK_TAG_SHIFT);
}

/* Sets up the size classes; before the first alloc_Chunk. */
void init_Chunks(void);

/* The largest alignment served: Valgrind's client allocator panics beyond
   it (VG_(arena_memalign), "bad alignment value"). */
#define MAX_ALIGN_SZB  (16 * 1024 * 1024)

/* A new chunk of 'req_szB' client bytes aligned to 'align', or NULL (no
   memory, 'align' is not a power of two or is above MAX_ALIGN_SZB, or
   'req_szB' is not below MAX_CHUNK_REQ_SZB). */
void* alloc_Chunk(SizeT req_szB, SizeT align);

/* The header of the live chunk at client address 'p'; NULL if 'p' is not
   a live chunk (already freed, or not from this allocator). */
static inline ChunkHdr* live_Chunk(const void* p)
{
   ChunkHdr* h;
   if (p == NULL || ((Addr)p & (CHUNK_HDR_SZB - 1)) != 0)
      return NULL;
   h = (ChunkHdr*)p - 1;
   return magic_of_Chunk(h) == CHUNK_MAGIC_LIVE ? h : NULL;
}

/* Frees the live chunk at 'p'. */
void free_Chunk(void* p);

/* The bytes usable at 'p', and the bytes requested for it. */
SizeT usable_szB_of_Chunk(const ChunkHdr* h);

static inline SizeT req_szB_of_Chunk(const ChunkHdr* h)
{
   return (SizeT)(h->word >> CHUNK_SIZE_SHIFT);
}

/* Can the chunk hold 'req_szB' bytes in place?  Then sets its size (its
   tag stays). */
Bool resize_Chunk_in_place(ChunkHdr* h, SizeT req_szB);

/* Memory held in slabs (for --stats=yes). */
ULong slab_szB_Chunks(void);

/* For the sanity check (--sanity-level=2 and more): how many chunks are
   live, and the allocator's own check, which walks every free list
   (tl_asserts what is wrong). */
ULong live_Chunks(void);
void  check_Chunks(void);

#endif /* ST_ALLOC_H */
