/*--------------------------------------------------------------------*/
/*--- strata: the allocator for the client's heap blocks.          ---*/
/*---                                                  st_alloc.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef ST_ALLOC_H
#define ST_ALLOC_H

#include "pub_tool_basics.h"

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
UInt tag_of_Chunk(const ChunkHdr* h);
void set_tag_of_Chunk(ChunkHdr* h, UInt tag);

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
ChunkHdr* live_Chunk(const void* p);

/* Frees the live chunk at 'p'. */
void free_Chunk(void* p);

/* The bytes usable at 'p', and the bytes requested for it. */
SizeT usable_szB_of_Chunk(const ChunkHdr* h);
SizeT req_szB_of_Chunk(const ChunkHdr* h);

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
