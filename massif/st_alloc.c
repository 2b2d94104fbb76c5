/*--------------------------------------------------------------------*/
/*--- strata: the allocator for the client's heap blocks.          ---*/
/*---                                                  st_alloc.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Why an allocator of our own: Valgrind's client allocator keeps free lists
   that it searches and coalesces, so its cost grows with the number of live
   blocks (the second seed); and a profiler on top of it needs a table of
   live blocks to find a block's size and site at free.  Here both costs are
   constant: size classes with LIFO free lists, and each chunk's record
   found from its address by arithmetic and two array look-ups.

   Layout of a chunk, in the client's memory:

      [ gap (16 bytes, unused) ][ client bytes ... ]

   The client pointer is 16 bytes past the chunk's start and is 16-aligned.
   Nothing of the tool's is in the client's memory: the chunk's record (a
   Chunk: site, size, birth, magic, class) and the free lists' links are
   in the tool's memory, where no write of the program reaches them.  (The
   16 bytes once held the record, in band: a one-byte overflow of the
   block before, natively harmless, then killed the tool or moved bytes to
   another site.)  The gap and the smallest class, 32 bytes, are kept so
   that the chunks, their usable sizes and the extra heap, and so the
   profiles, are those of the in-band allocator byte for byte.

   Small chunks (up to 64 KiB, gap included): a slab is client memory
   from Valgrind's client allocator (256 KiB, or eight chunks if more),
   carved into the chunks of one class; its records are an array in the
   tool's memory, indexed by (address - slab base) / class size.  The page
   map takes an address to its slab in two array look-ups (tcmalloc's
   pagemap), by its 64 KiB unit:

      address bits  46 ....... 32 31 ....... 16 15 ....... 0
                     root index    leaf index    within the unit
      page_map[root][leaf] = { over, from }: the slab that holds the
         unit's first byte, and the slab that starts after that byte,
         within the unit; each its index in 'slabs' + 1, 0 for none

   A slab is at least four units long, so no more than two slabs share a
   unit.  A leaf (512 KiB, 65536 units: 4 GiB of address space) is made
   the first time a slab falls in its range.  The slabs are not aligned to
   the unit: they are the very blocks of Valgrind's client allocator that
   the in-band allocator took, in the same order, so that the client's
   addresses are the same as they were (the C library's string functions
   take a number of instructions that depends on an address's alignment,
   and the profile in instructions with it) and so are the usable sizes
   of the big chunks (Valgrind's allocator's).

   A free chunk is on its class's LIFO free list, linked through its
   record (Chunk.next_free), and its word keeps its client address, so
   that the allocation that takes it needs no other look-up.

   Big chunks (above 64 KiB, or aligned beyond 16 bytes) come from
   Valgrind's client allocator, the gap (or the alignment's offset) before
   the client pointer as before; their records are in 'big_chunks', a hash
   table keyed by the client address.

   A free of an address that is not a live chunk's (a double free, a
   pointer into a block, into the gap, the stack, anything) finds no live
   record: the address is checked against the tables only, never read. */

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_replacemalloc.h"

#include "st_alloc.h"

#define GAP_SZB          CHUNK_GAP_SZB
#define MIN_CHUNK_SZB    32             // the gap and 16 client bytes
#define FINE_MAX_SZB     1024           // classes 16 bytes apart up to here
#define N_FINE ((FINE_MAX_SZB - MIN_CHUNK_SZB) / 16 + 1)   // 63
#define SMALL_MAX_SZB    65536          // largest class, gap included
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

#define UNIT_SHIFT       16                         // a page map unit
#define UNIT_SZB         (1ul << UNIT_SHIFT)        // 64 KiB
#define ADDR_BITS        47                         // amd64 user space
#define LEAF_BITS        16
#define ROOT_BITS        (ADDR_BITS - UNIT_SHIFT - LEAF_BITS)   // 15
#define LEAF_MASK        ((1ul << LEAF_BITS) - 1)

/* A slab: 'n_chunks' chunks of one class from 'base' on, the first
   'n_carved' of them carved; their records. */
typedef struct {
   Addr   base;          // 16-aligned
   SizeT  szB;           // at least MIN_SLAB_SZB
   UInt   cls;
   UInt   chunk_szB;     // class_szB[cls]
   ULong  recip;         // ceil(2^32 / chunk_szB): see record_of_small
   UInt   n_chunks;
   UInt   n_carved;
   Chunk* chunks;        // n_chunks records, zeroed until carved
} Slab;

/* A big chunk's record, in 'big_chunks'.  The first two fields are those
   of VgHashNode. */
typedef struct _BigChunk {
   struct _BigChunk* next;
   UWord  addr;          // key: the client address
   Chunk  chunk;
} BigChunk;

static UInt   class_szB[N_CLASSES];     // chunk size of each class
static Chunk* free_heads[N_CLASSES];    // records, linked by next_free
static UInt   carving[N_CLASSES];       // the slab being carved, + 1; 0: none
static ULong  n_carved[N_CLASSES];      // chunks carved from slabs
static ULong  n_free[N_CLASSES];        // chunks on the free list
static ULong  n_big = 0;                // live chunks of Valgrind's allocator

/* A unit's entry in the page map. */
typedef struct {
   UInt over;            // the slab that holds the unit's first byte, + 1
   UInt from;            // the slab that starts within the unit, + 1
} UnitSlabs;

static Slab*      slabs    = NULL;      // every slab, by index
static UInt       n_slabs  = 0, cap_slabs = 0;
static UnitSlabs* page_map[1ul << ROOT_BITS];   /* unit -> UnitSlabs */
static ULong      slab_szB   = 0;       // client memory in slabs
static ULong      record_szB = 0;       // tool memory: records, leaves

static VgHashTable* big_chunks = NULL;  /* client address -> BigChunk* */
static PoolAlloc*   big_pool   = NULL;  // of BigChunk

/* The class of a chunk of 'szB' bytes, gap included. */
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

/* The size of a new slab for class 'c': eight chunks, or MIN_SLAB_SZB if
   that is more. */
static SizeT slab_szB_of_class(UInt c)
{
   SizeT sz = 8 * (SizeT)class_szB[c];
   return sz < MIN_SLAB_SZB ? MIN_SLAB_SZB : sz;
}

void init_Chunks(void)
{
   UInt c;
   tl_assert(MIN_CHUNK_SZB >= GAP_SZB + 16);
   tl_assert(MIN_CHUNK_SZB % GAP_SZB == 0);
   tl_assert(N_CLASSES <= CLASS_BIG && CLASS_BIG + 24 < (1u << CLASS_BITS));
   tl_assert(MAGIC_SHIFT == CLASS_BITS && sizeof(Chunk) == 16);
   tl_assert(MAX_ALIGN_SZB == 1 << 24);
   tl_assert(SIZE_SHIFT + 36 == 64 && MAX_CHUNK_REQ_SZB == 1ull << 36);
   // A free chunk's word holds its address's bits 4 to 46 above bit 15.
   tl_assert(ADDR_BITS - 4 + TAG_SHIFT <= 64);
   // A slab is longer than a unit, so at most two slabs share one.
   tl_assert(SMALL_MAX_SZB <= UNIT_SZB && MIN_SLAB_SZB > UNIT_SZB);
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
   big_chunks = VG_(HT_construct)("st.big_chunks");
   big_pool   = VG_(newPA)(sizeof(BigChunk), 1000, VG_(malloc),
                           "st.big_chunks", VG_(free));
}

/*------------------------------------------------------------*/
/*--- The records                                          ---*/
/*------------------------------------------------------------*/

static ULong live_word(SizeT req_szB, UInt tag, UInt cls)
{
   tl_assert(req_szB < MAX_CHUNK_REQ_SZB && tag <= TAG_MASK);
   return ((ULong)req_szB << SIZE_SHIFT) | ((ULong)tag << TAG_SHIFT)
          | (MAGIC_LIVE << MAGIC_SHIFT) | cls;
}

/* A free chunk's word: its client address 'a' (16-aligned, below
   2^ADDR_BITS) where a live chunk has its size and tag.  Chunk at
   0x4a5f3c0 of class 6: ((0x4a5f3c0 >> 4) << 15) | (0x5A << 7) | 6
   = 0x252f9e2d06. */
static ULong free_word(Addr a, UInt cls)
{
   return ((ULong)(a >> 4) << TAG_SHIFT) | (MAGIC_FREE << MAGIC_SHIFT) | cls;
}

static Addr addr_of_free(const Chunk* h)
{
   return (Addr)(h->word >> TAG_SHIFT) << 4;
}

static UInt class_of_Chunk(const Chunk* h)
{
   return h->word & ((1u << CLASS_BITS) - 1);
}

static Bool is_big_class(UInt cls) { return cls >= CLASS_BIG; }

static BigChunk* BigChunk_of(const Chunk* h)
{
   return (BigChunk*)((HChar*)h - __builtin_offsetof(BigChunk, chunk));
}

/*------------------------------------------------------------*/
/*--- The page map and the slabs                           ---*/
/*------------------------------------------------------------*/

/* The slab that holds address 'a', or NULL.  Of the two slabs of a unit,
   'over' holds 'a' if 'a' is below its end, 'from' if 'a' is at or above
   its base; an address between the two (Valgrind's allocator's own
   words, a big chunk) is neither's. */
static inline Slab* slab_of_addr(Addr a)
{
   UWord            unit = a >> UNIT_SHIFT;
   const UnitSlabs* leaf;
   const UnitSlabs* u;
   if (unit >> (ROOT_BITS + LEAF_BITS) != 0)
      return NULL;
   leaf = page_map[unit >> LEAF_BITS];
   if (leaf == NULL)
      return NULL;
   u = &leaf[unit & LEAF_MASK];
   if (u->over != 0 && a < slabs[u->over - 1].base + slabs[u->over - 1].szB)
      return &slabs[u->over - 1];
   if (u->from != 0 && a >= slabs[u->from - 1].base)
      return &slabs[u->from - 1];
   return NULL;
}

/* The record of the carved chunk whose client address is 'a' in slab
   's', or NULL if 'a' is no carved chunk's client address.  The index is
   (a - base - gap) / chunk size without a division: with recip =
   ceil(2^32 / c) = (2^32 + e) / c, 0 <= e < c, an offset k * c gives
   k * c * recip = k * 2^32 + k * e, and k * e < k * c < 2^32 (the offset
   is within a slab), so the top half is k; an offset that is not a
   multiple of c fails the product's check, whatever its quotient. */
static inline Chunk* record_of_small(const Slab* s, Addr a)
{
   ULong off, idx;
   if (a < s->base + GAP_SZB)
      return NULL;
   off = a - s->base - GAP_SZB;
   idx = (off * s->recip) >> 32;
   if (idx >= s->n_carved || idx * s->chunk_szB != off)
      return NULL;
   return &s->chunks[idx];
}

/* The entry of unit 'u' in the page map (its leaf made if there is
   none). */
static UnitSlabs* UnitSlabs_of(UWord u)
{
   UnitSlabs** leaf = &page_map[u >> LEAF_BITS];
   if (*leaf == NULL) {
      *leaf = VG_(calloc)("st.page_map", 1ul << LEAF_BITS, sizeof(UnitSlabs));
      record_szB += (1ul << LEAF_BITS) * sizeof(UnitSlabs);
   }
   return &(*leaf)[u & LEAF_MASK];
}

/* The page map's entries for the units of slab 'idx': its first unit's
   'over' if it starts at the unit's first byte, else its 'from'; the
   'over' of the others.  No slab had the place. */
static void map_Slab(UInt idx)
{
   const Slab* s = &slabs[idx];
   UWord       u = s->base >> UNIT_SHIFT;
   UnitSlabs*  e;
   tl_assert(((s->base + s->szB - 1) >> ADDR_BITS) == 0);
   e = UnitSlabs_of(u);
   if (s->base % UNIT_SZB == 0) {
      tl_assert(e->over == 0);
      e->over = idx + 1;
   } else {
      tl_assert(e->from == 0);
      e->from = idx + 1;
   }
   for (u++; u <= (s->base + s->szB - 1) >> UNIT_SHIFT; u++) {
      e = UnitSlabs_of(u);
      tl_assert(e->over == 0);
      e->over = idx + 1;
   }
}

/* A new slab for class 'c', the one it carves from now on. */
static Bool new_slab(UInt c)
{
   Slab* s;
   SizeT szB  = slab_szB_of_class(c);
   Addr  base = (Addr)VG_(cli_malloc)(16, szB);
   if (base == 0)
      return False;
   slab_szB += szB;
   if (n_slabs == cap_slabs) {
      cap_slabs = cap_slabs == 0 ? 64 : 2 * cap_slabs;
      slabs = VG_(realloc)("st.slabs", slabs, cap_slabs * sizeof(Slab));
   }
   s = &slabs[n_slabs];
   s->base      = base;
   s->szB       = szB;
   s->cls       = c;
   s->chunk_szB = class_szB[c];
   s->recip     = ((1ull << 32) + class_szB[c] - 1) / class_szB[c];
   s->n_chunks  = (UInt)(szB / class_szB[c]);
   s->n_carved  = 0;
   tl_assert(s->n_chunks >= 1);
   s->chunks    = VG_(calloc)("st.chunks", s->n_chunks, sizeof(Chunk));
   record_szB  += (ULong)s->n_chunks * sizeof(Chunk);
   map_Slab(n_slabs);
   carving[c] = ++n_slabs;
   return True;
}

/*------------------------------------------------------------*/
/*--- Allocation and free                                  ---*/
/*------------------------------------------------------------*/

/* A chunk of class 'c': the last freed, or a new one carved.  NULL if
   there is no memory. */
static Chunk* alloc_small(UInt c, Addr* a)
{
   Chunk* h = free_heads[c];
   Slab*  s;
   if (h != NULL) {
      tl_assert(n_free[c] > 0 && magic_of_Chunk(h) == MAGIC_FREE);
      n_free[c]--;
      free_heads[c] = h->next_free;
      *a = addr_of_free(h);
      return h;
   }
   if (carving[c] == 0 || slabs[carving[c] - 1].n_carved
                          == slabs[carving[c] - 1].n_chunks) {
      if (!new_slab(c))
         return NULL;
   }
   s  = &slabs[carving[c] - 1];
   *a = s->base + (Addr)s->n_carved * s->chunk_szB + GAP_SZB;
   n_carved[c]++;
   return &s->chunks[s->n_carved++];
}

/* Big or over-aligned: from Valgrind's client allocator, the client
   pointer 'off' bytes past the base (the gap, or the alignment). */
static Chunk* alloc_big(SizeT req_szB, SizeT align, Addr* a)
{
   SizeT     off = align > GAP_SZB ? align : GAP_SZB;
   UInt      lg  = 63 - __builtin_clzll((ULong)off);
   Addr      base;
   BigChunk* b;
   tl_assert((1ull << lg) == off);
   if (req_szB >= MAX_CHUNK_REQ_SZB)
      return NULL;
   base = (Addr)VG_(cli_malloc)(off, req_szB + off);
   if (base == 0)
      return NULL;
   b = VG_(allocEltPA)(big_pool);
   b->addr       = base + off;
   b->chunk.word = live_word(req_szB, 0, CLASS_BIG + lg);
   VG_(HT_add_node)(big_chunks, b);
   n_big++;
   *a = b->addr;
   return &b->chunk;
}

void* alloc_Chunk(SizeT req_szB, SizeT align, Chunk** hp)
{
   Chunk* h;
   Addr   a;
   if (align <= GAP_SZB && req_szB <= SMALL_MAX_SZB - GAP_SZB) {
      UInt cls = class_of_szB(req_szB + GAP_SZB);
      h = alloc_small(cls, &a);
      if (h == NULL)
         return NULL;
      h->word = live_word(req_szB, 0, cls);
   } else {
      if ((align & (align - 1)) || align > MAX_ALIGN_SZB)
         return NULL;                 // not a power of two, or too large
      h = alloc_big(req_szB, align, &a);
      if (h == NULL)
         return NULL;
   }
   h->site = NULL;
   *hp = h;
   return (void*)a;
}

Chunk* live_Chunk(const void* p)
{
   Addr   a = (Addr)p;
   Slab*  s;
   Chunk* h;
   if (a == 0 || (a & (GAP_SZB - 1)) != 0)
      return NULL;
   s = slab_of_addr(a);
   if (s != NULL) {
      h = record_of_small(s, a);
   } else {
      BigChunk* b = VG_(HT_lookup)(big_chunks, a);
      h = b != NULL ? &b->chunk : NULL;
   }
   return h != NULL && magic_of_Chunk(h) == MAGIC_LIVE ? h : NULL;
}

void free_Chunk(Chunk* h, void* p)
{
   UInt cls = class_of_Chunk(h);
   tl_assert(magic_of_Chunk(h) == MAGIC_LIVE);
   if (is_big_class(cls)) {
      BigChunk* b = VG_(HT_remove)(big_chunks, (UWord)p);
      tl_assert(b != NULL && &b->chunk == h && n_big > 0);
      n_big--;
      VG_(cli_free)((HChar*)p - (1ull << (cls - CLASS_BIG)));
      VG_(freeEltPA)(big_pool, b);
      return;
   }
   tl_assert(cls < N_CLASSES && n_free[cls] < n_carved[cls]);
   h->word      = free_word((Addr)p, cls);
   h->next_free = free_heads[cls];
   free_heads[cls] = h;
   n_free[cls]++;
}

SizeT usable_szB_of_Chunk(const Chunk* h)
{
   UInt cls = class_of_Chunk(h);
   if (is_big_class(cls)) {
      SizeT off = 1ull << (cls - CLASS_BIG);
      return VG_(cli_malloc_usable_size)((HChar*)BigChunk_of(h)->addr - off)
             - off;
   }
   return class_szB[cls] - GAP_SZB;
}

Bool resize_Chunk_in_place(Chunk* h, SizeT req_szB)
{
   UInt cls = class_of_Chunk(h);
   if (is_big_class(cls) || req_szB > SMALL_MAX_SZB - GAP_SZB
       || class_of_szB(req_szB + GAP_SZB) != cls)
      return False;
   h->word = live_word(req_szB, tag_of_Chunk(h), cls);
   return True;
}

ULong slab_szB_Chunks(void)
{
   return slab_szB;
}

ULong record_szB_Chunks(void)
{
   return record_szB + (ULong)cap_slabs * sizeof(Slab)
          + n_big * sizeof(BigChunk);
}

ULong live_Chunks(void)
{
   ULong n = n_big;
   UInt  c;
   for (c = 0; c < N_CLASSES; c++)
      n += n_carved[c] - n_free[c];
   return n;
}

/*------------------------------------------------------------*/
/*--- Sanity check                                         ---*/
/*------------------------------------------------------------*/

/* Each slab is in the page map, and its carved
   records are live or free chunks of its class, as many live as counted;
   each free list holds as many chunks as counted, free ones of its class,
   each found again from its address; each big chunk is live, of a big
   class, found at its address. */
static void check_Slabs(ULong* carved, ULong* live)
{
   UInt i, j;
   for (i = 0; i < n_slabs; i++) {
      const Slab* s = &slabs[i];
      tl_assert(s->cls < N_CLASSES && s->chunk_szB == class_szB[s->cls]);
      tl_assert(s->n_carved <= s->n_chunks
                && (ULong)s->n_chunks * s->chunk_szB <= s->szB);
      tl_assert(slab_of_addr(s->base) == s
                && slab_of_addr(s->base + s->szB - 1) == s);
      tl_assert(carving[s->cls] != 0);
      carved[s->cls] += s->n_carved;
      for (j = 0; j < s->n_carved; j++) {
         const Chunk* h = &s->chunks[j];
         tl_assert(class_of_Chunk(h) == s->cls);
         if (magic_of_Chunk(h) == MAGIC_LIVE)
            live[s->cls]++;
         else
            tl_assert(magic_of_Chunk(h) == MAGIC_FREE);
      }
      for (; j < s->n_chunks; j++)
         tl_assert(s->chunks[j].word == 0 && s->chunks[j].site == NULL);
   }
}

static void check_free_list(UInt c)
{
   ULong  n = 0;
   Chunk* h;
   for (h = free_heads[c]; h != NULL; h = h->next_free) {
      Addr  a = addr_of_free(h);
      Slab* s = slab_of_addr(a);
      tl_assert(n < n_free[c]);
      tl_assert(magic_of_Chunk(h) == MAGIC_FREE && class_of_Chunk(h) == c);
      tl_assert(s != NULL && s->cls == c && record_of_small(s, a) == h);
      tl_assert(live_Chunk((void*)a) == NULL);
      n++;
   }
   tl_assert(n == n_free[c]);
}

static void check_big_chunks(void)
{
   ULong     n = 0;
   BigChunk* b;
   VG_(HT_ResetIter)(big_chunks);
   while ((b = VG_(HT_Next)(big_chunks)) != NULL) {
      tl_assert(magic_of_Chunk(&b->chunk) == MAGIC_LIVE);
      tl_assert(is_big_class(class_of_Chunk(&b->chunk)));
      tl_assert(slab_of_addr(b->addr) == NULL);
      n++;
   }
   tl_assert(n == n_big);
}

void check_Chunks(void)
{
   ULong carved[N_CLASSES], live[N_CLASSES];
   UInt  c;
   VG_(memset)(carved, 0, sizeof(carved));
   VG_(memset)(live, 0, sizeof(live));
   check_Slabs(carved, live);
   for (c = 0; c < N_CLASSES; c++) {
      tl_assert(carved[c] == n_carved[c] && n_free[c] <= n_carved[c]);
      tl_assert(live[c] == n_carved[c] - n_free[c]);
      check_free_list(c);
   }
   check_big_chunks();
}
