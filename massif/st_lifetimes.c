/*--------------------------------------------------------------------*/
/*--- strata: when each byte was born and died, and who freed it.  ---*/
/*---                                              st_lifetimes.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

#include "st_core.h"

/*------------------------------------------------------------*/
/*--- Lifetimes                                            ---*/
/*------------------------------------------------------------*/

/* When each byte was born, when it died, and who freed the bytes that
   lived across an epoch's end (docs/format.md, "Lifetimes").  Time zero,
   lt_t0, is the time of the first heap operation (epoch_time(): in
   instructions with --time-unit=ms); the run is cut into epochs of lt_len
   time units, 1 at first, doubled each time the run
   reaches N_EPOCHS epochs (epochs 2j and 2j+1 become epoch j), so a birth
   is a Birth: the epoch's index and the generation of the length it was
   counted in (length 2^generation), which says what it is at any later
   length.  A block keeps its birth in its tag (its Chunk's tag bits,
   or Block.tag): a block grown in a later epoch than its newest
   bytes is a pile of layers of different ages, kept in 'layered' (only
   such blocks have an entry there, and the LAYERED_TAG flag).

   The open epoch counts its births per (site, birth) and its deaths per
   (site, birth, free stack) in 'epoch_cells'; each site points at its two
   cells of the open epoch's own births and young deaths.  Each site counts
   what its live blocks hold by birth epoch: of the closed epochs in
   'alive' (a small sorted array, merged pairwise when it is next touched
   after a doubling), of the open epoch as those two cells' difference
   (open_alive), folded into 'alive' when the epoch closes.  So the common
   operation, a block born or dying young, adds to one cell: no hash, no
   search.
   The clock closes the epochs passed before each heap operation, marker
   and snapshot, writes the L record of an epoch in which something was
   born or died and flushes it, and forgets the cells.  A death of bytes
   born in an earlier epoch unwinds the freeing thread's stack once per
   operation (the free stack: free's frames removed, --free-depth frames),
   interned in 'free_stacks' and written as a P record before its first
   use; young deaths cost no unwind.  At the end of the run the open
   epoch's record gives what is alive by site and birth (a lines). */

#define N_EPOCHS_LOG2 6
#define N_EPOCHS      (1u << N_EPOCHS_LOG2)
#define BIRTH_MASK    0xfff     // of a tag: the Birth,
                                // (generation << N_EPOCHS_LOG2) | index
#define LAYERED_TAG   0x1000    // of a tag: the block has an entry in 'layered'
#define FREE_SLACK    8         // frames unwound beyond --free-depth, for free's own
typedef UInt Birth;

Bool  lt_on      = False;  // lifetimes are recorded (the heap is)
static Bool  lt_started = False;  // a heap operation came: lt_t0 is set
static ULong lt_t0      = 0;
static ULong lt_len     = 1;      // 2^lt_gen
static UInt  lt_gen     = 0;
static UInt  lt_index   = 0;      // the open epoch
static ULong lt_end     = 0;      // when it ends: t0 + (lt_index + 1) * lt_len
static ULong lt_open_time = 0;    // --time-unit=ms: the time of its first event
static UInt  lt_birth   = 0;      // a birth in it (birth_now)

ULong stats_lt_records   = 0;   // L records written
ULong stats_lt_doublings = 0;
ULong stats_free_unwinds = 0;   // free stacks looked up
ULong stats_free_stacks  = 0;   // distinct free stacks
ULong stats_layered      = 0;   // blocks that got a second layer
ULong stats_lt_cells     = 0;   // b and d lines written

static inline Birth birth_now(void)
{
   return lt_birth;
}

/* The epoch of a birth, at the length now.  Only a birth now is in the
   open epoch: the births of a shorter length are in the first half of
   the epochs of this length, and the open epoch is in the second. */
static inline UInt epoch_of_Birth(Birth b)
{
   UInt g = b >> N_EPOCHS_LOG2;
   if (b == lt_birth)
      return lt_index;
   tl_assert(g <= lt_gen && (b & ~BIRTH_MASK) == 0);
   return lt_gen - g >= N_EPOCHS_LOG2 ? 0 : (b & (N_EPOCHS - 1)) >> (lt_gen - g);
}

/* Alive cells: a site's live bytes and blocks born in 'epoch' (at the
   length of the site's alive_gen). */
typedef struct _AliveCell {
   UInt  epoch;
   SizeT szB;
   SizeT n_blocks;
} AliveCell;

/* The bits set in 'x' (the tool is built without -mpopcnt, and
   __builtin_popcountll would be a call to libgcc). */
static inline UInt popcount64(ULong x)
{
   x = x - ((x >> 1) & 0x5555555555555555ULL);
   x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
   x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
   return (UInt)((x * 0x0101010101010101ULL) >> 56);
}

/* The site's cells at the length now: after doublings, cells merge in
   pairs. */
static void normalise_alive(Site* s)
{
   UInt i, n = 0, shift;
   if (s->alive_gen == lt_gen)
      return;
   tl_assert(s->alive_gen < lt_gen);
   shift = lt_gen - s->alive_gen;
   s->alive_mask = 0;
   for (i = 0; i < s->n_alive; i++) {
      AliveCell c = s->alive[i];
      c.epoch = shift >= N_EPOCHS_LOG2 ? 0 : c.epoch >> shift;
      if (n > 0 && s->alive[n - 1].epoch == c.epoch) {
         s->alive[n - 1].szB      += c.szB;
         s->alive[n - 1].n_blocks += c.n_blocks;
      } else
         s->alive[n++] = c;
      s->alive_mask |= 1ULL << c.epoch;
   }
   s->n_alive   = n;
   s->alive_gen = lt_gen;
}

/* A new cell of 'epoch', at its place 'i' in the site's cells. */
static AliveCell* new_alive_cell(Site* s, UInt epoch, UInt i)
{
   ULong bit = 1ULL << epoch;
   if (s->n_alive == s->cap_alive) {
      s->cap_alive = s->cap_alive == 0 ? 2 : 2 * s->cap_alive;
      tl_assert(s->cap_alive <= 2 * N_EPOCHS);
      s->alive = VG_(realloc)("st.alive", s->alive,
                              s->cap_alive * sizeof(AliveCell));
   }
   VG_(memmove)(&s->alive[i + 1], &s->alive[i],
                (s->n_alive - i) * sizeof(AliveCell));
   s->n_alive++;
   s->alive_mask |= bit;
   tl_assert(s->n_alive <= N_EPOCHS);
   s->alive[i].epoch    = epoch;
   s->alive[i].szB      = 0;
   s->alive[i].n_blocks = 0;
   return &s->alive[i];
}

/* The site's cell of 'epoch' (at the length now), made if need be.  Most
   are the newest (a birth now). */
static inline AliveCell* alive_cell(Site* s, UInt epoch)
{
   ULong bit = 1ULL << epoch;
   UInt  i;
   tl_assert(epoch < N_EPOCHS);
   if (s->alive_gen != lt_gen)
      normalise_alive(s);
   if (s->n_alive > 0 && s->alive[s->n_alive - 1].epoch == epoch)
      return &s->alive[s->n_alive - 1];
   i = popcount64(s->alive_mask & (bit - 1));   // cells before
   if (s->alive_mask & bit)
      return &s->alive[i];
   return new_alive_cell(s, epoch, i);
}

static void add_alive(Site* s, UInt epoch, SizeT szB, SizeT n_blocks)
{
   AliveCell* c = alive_cell(s, epoch);
   tl_assert(c->szB + szB >= c->szB);
   c->szB      += szB;
   c->n_blocks += n_blocks;
}

static void sub_alive(Site* s, UInt epoch, SizeT szB, SizeT n_blocks)
{
   AliveCell* c = alive_cell(s, epoch);
   tl_assert2(c->szB >= szB && c->n_blocks >= n_blocks,
              "more deaths than births at a site in epoch %u", epoch);
   c->szB      -= szB;
   c->n_blocks -= n_blocks;
   if (c->szB == 0 && c->n_blocks == 0) {
      UInt i = c - s->alive;
      VG_(memmove)(c, c + 1, (s->n_alive - i - 1) * sizeof(AliveCell));
      s->n_alive--;
      s->alive_mask &= ~(1ULL << epoch);
   }
}

static VgHashTable* free_stacks = NULL;  /* stack (hash) -> FreeStack* */
static UInt next_free_stack_id = 1;


FreeStack* get_FreeStack(const Addr* ips, UInt n_ips)
{
   UWord      hash;
   FreeStack* fs = lookup_stack(free_stacks, ips, n_ips, &hash);
   if (fs != NULL)
      return fs;
   fs = VG_(malloc)("st.freestack", sizeof(FreeStack));
   fs->hash  = hash;
   fs->id    = 0;
   fs->n_ips = n_ips;
   fs->ips   = NULL;
   if (n_ips > 0) {
      fs->ips = VG_(malloc)("st.freestack.ips", n_ips * sizeof(Addr));
      copy_words(fs->ips, ips, n_ips);
   }
   VG_(HT_add_node)(free_stacks, fs);
   stats_free_stacks++;
   return fs;
}


/* The free stack of the operation under way, unwound once for all its
   deaths (pages unmapped, a realloc's layers); reset by the clock before
   each heap operation.  NULL with --free-stacks=no. */
static Bool       lt_free_stacks      = False;  // they are recorded
static Bool       op_free_stack_known = False;
static FreeStack* op_free_stack       = NULL;

static FreeStack* free_stack_of_op(ThreadId tid)
{
   if (!lt_free_stacks || tid == VG_INVALID_THREADID)
      return NULL;
   if (!op_free_stack_known) {
      op_free_stack       = unwind_FreeStack(tid);
      op_free_stack_known = True;
   }
   return op_free_stack;
}

static void ensure_FreeStack_written(FreeStack* fs)
{
   if (fs->id != 0)
      return;
   fs->id = next_free_stack_id++;
   put_stack_record("P", fs->id, fs->ips, fs->n_ips);
}

/* The open epoch's cells: births per (site, birth) and deaths per (site,
   birth, free stack), birth epochs at the length now (the epoch closes
   before the length doubles). */
typedef struct _EpochCell {
   Site*      site;
   UInt       epoch;          // the birth
   Bool       died;           // a d line, else a b line
   FreeStack* fs;             // of a d line; NULL: none (0)
   SizeT      szB;
   SizeT      n_blocks;
   struct _EpochCell* next_in_epoch;
} EpochCell;

/* (site, birth, kind, free stack) -> EpochCell*: open addressing, linear
   probing, a power of two of slots, at most half of them used. */
static EpochCell**  epoch_cells = NULL;
static UInt         epoch_cells_cap  = 0;
static UInt         epoch_cells_used = 0;
static EpochCell*   epoch_list  = NULL;  // its cells in the order made,
static EpochCell**  epoch_tail  = &epoch_list;  // through next_in_epoch
static PoolAlloc*   epoch_cell_pool = NULL;

static UWord hash_EpochCell(const Site* s, UInt epoch, Bool died,
                            const FreeStack* fs)
{
   UWord h = ((UWord)s >> 4) ^ (((UWord)fs >> 4) * 31) ^ (epoch * 2 + died);
   h *= GOLDEN_MULT;
   return h >> 32;
}

/* The slot of the cell (site, birth, kind, free stack): the cell's, or the
   empty one where it would go. */
static EpochCell** slot_of_EpochCell(Site* s, UInt epoch, Bool died,
                                     FreeStack* fs)
{
   UInt mask = epoch_cells_cap - 1;
   UInt i    = (UInt)hash_EpochCell(s, epoch, died, fs) & mask;
   for (;; i = (i + 1) & mask) {
      EpochCell* c = epoch_cells[i];
      if (c == NULL || (c->site == s && c->epoch == epoch && c->died == died
                        && c->fs == fs))
         return &epoch_cells[i];
   }
}

static void grow_epoch_cells(void)
{
   EpochCell* c;
   epoch_cells_cap = epoch_cells_cap == 0 ? 256 : 2 * epoch_cells_cap;
   if (epoch_cells != NULL)
      VG_(free)(epoch_cells);
   epoch_cells = VG_(calloc)("st.epoch_cells", epoch_cells_cap,
                             sizeof(EpochCell*));
   for (c = epoch_list; c != NULL; c = c->next_in_epoch)
      *slot_of_EpochCell(c->site, c->epoch, c->died, c->fs) = c;
}

static EpochCell* get_EpochCell(Site* s, UInt epoch, Bool died, FreeStack* fs)
{
   EpochCell** slot = slot_of_EpochCell(s, epoch, died, fs);
   EpochCell*  c    = *slot;
   if (c != NULL)
      return c;
   c = VG_(allocEltPA)(epoch_cell_pool);
   c->site     = s;
   c->epoch    = epoch;
   c->died     = died;
   c->fs       = fs;
   c->szB      = c->n_blocks = 0;
   c->next_in_epoch = NULL;
   *epoch_tail = c;
   epoch_tail  = &c->next_in_epoch;
   *slot       = c;
   if (++epoch_cells_used * 2 > epoch_cells_cap)
      grow_epoch_cells();
   return c;
}

static void add_to_EpochCell(EpochCell* c, SizeT szB, SizeT n_blocks)
{
   tl_assert(c->szB + szB >= c->szB);
   c->szB      += szB;
   c->n_blocks += n_blocks;
}

/* Bytes (and blocks) of 's' born now come to it: only its cell of the
   open epoch's births counts them (what 's' holds of the open epoch is
   that cell less its cell of young deaths, open_alive). */
static inline void note_born_now(Site* s, SizeT szB, SizeT n_blocks)
{
   if (UNLIKELY(s->born_now == NULL))
      s->born_now = get_EpochCell(s, lt_index, False, NULL);
   add_to_EpochCell(s->born_now, szB, n_blocks);
}

/* Bytes (and blocks) of 's' born now die now. */
static inline void note_died_young(Site* s, SizeT szB, SizeT n_blocks)
{
   EpochCell* b = s->born_now;
   if (UNLIKELY(s->died_young == NULL))
      s->died_young = get_EpochCell(s, lt_index, True, NULL);
   tl_assert2(b != NULL && b->szB - s->died_young->szB >= szB
              && b->n_blocks - s->died_young->n_blocks >= n_blocks,
              "more deaths than births at a site in epoch %u", lt_index);
   add_to_EpochCell(s->died_young, szB, n_blocks);
}

/* Bytes (and blocks) of 's' born in 'epoch' come to it now. */
static void note_born(Site* s, UInt epoch, SizeT szB, SizeT n_blocks)
{
   tl_assert(lt_started && epoch <= lt_index);
   if (epoch == lt_index) {
      note_born_now(s, szB, n_blocks);
      return;
   }
   add_to_EpochCell(get_EpochCell(s, epoch, False, NULL), szB, n_blocks);
   add_alive(s, epoch, szB, n_blocks);
}

/* Bytes (and blocks) of 's' born in 'epoch' die now, freed by 'tid'. */
static void note_died(ThreadId tid, Site* s, UInt epoch, SizeT szB,
                      SizeT n_blocks)
{
   tl_assert(lt_started && epoch <= lt_index);
   if (epoch == lt_index) {
      note_died_young(s, szB, n_blocks);
      return;
   }
   add_to_EpochCell(get_EpochCell(s, epoch, True, free_stack_of_op(tid)),
                    szB, n_blocks);
   sub_alive(s, epoch, szB, n_blocks);
}

/* What 's' holds of bytes and blocks born in the open epoch. */
static void open_alive(const Site* s, SizeT* szB, SizeT* n_blocks)
{
   const EpochCell* b = s->born_now;
   const EpochCell* d = s->died_young;
   tl_assert(d == NULL || b != NULL);
   *szB      = b == NULL ? 0 : b->szB - (d == NULL ? 0 : d->szB);
   *n_blocks = b == NULL ? 0 : b->n_blocks - (d == NULL ? 0 : d->n_blocks);
}

/* The open epoch ends (or a forked child starts): what each site holds of
   it becomes its alive cell of that epoch. */
static void fold_open_epoch(void)
{
   EpochCell* c;
   SizeT      szB, n_blocks;
   for (c = epoch_list; c != NULL; c = c->next_in_epoch) {
      if (c != c->site->born_now)
         continue;
      open_alive(c->site, &szB, &n_blocks);
      if (szB > 0 || n_blocks > 0)
         add_alive(c->site, lt_index, szB, n_blocks);
   }
}

/* The layers of a block grown in a later epoch than its newest bytes,
   oldest first; the oldest has the block's own birth (its tag's) and is
   never taken off (it may hold 0 bytes).  Layers whose epochs are the same
   at the length now merge.  The first two fields are those of
   VgHashNode. */
typedef struct {
   Birth birth;
   SizeT szB;
} Layer;

typedef struct _Layers {
   struct _Layers* next;
   UWord  key;            // the block: its Chunk* or its Block*
   Bool   chunk;          // which of the two
   UInt   n, cap;
   Layer* l;
} Layers;

VgHashTable* layered = NULL;   /* Chunk* or Block* -> Layers* */

static Layers* Layers_of(UWord key)
{
   Layers* ls = VG_(HT_lookup)(layered, key);
   tl_assert2(ls != NULL, "a layered block without its layers");
   return ls;
}

/* The block 'key' has one layer again, or is gone: its layers go. */
static void drop_Layers(UWord key)
{
   Layers* ls = VG_(HT_remove)(layered, key);
   tl_assert(ls != NULL);
   VG_(free)(ls->l);
   VG_(free)(ls);
}

static void compact_Layers(Layers* ls)
{
   UInt i, n = 1;
   for (i = 1; i < ls->n; i++) {
      if (epoch_of_Birth(ls->l[i].birth) == epoch_of_Birth(ls->l[n - 1].birth))
         ls->l[n - 1].szB += ls->l[i].szB;
      else
         ls->l[n++] = ls->l[i];
   }
   ls->n = n;
}

static void add_Layer(Layers* ls, Birth birth, SizeT szB)
{
   if (ls->n == ls->cap) {
      ls->cap = 2 * ls->cap;
      tl_assert(ls->cap <= 2 * N_EPOCHS);
      ls->l = VG_(realloc)("st.layers.l", ls->l, ls->cap * sizeof(Layer));
   }
   ls->l[ls->n].birth = birth;
   ls->l[ls->n].szB   = szB;
   ls->n++;
   tl_assert(ls->n <= N_EPOCHS);
}

static void close_epoch(void);

/* The open epoch's first event is now: its time, for its L record. */
static void note_epoch_opened(void)
{
   refresh_ms_clock();
   lt_open_time = get_time();
}

/* Time zero of the lifetimes is 'now' (epoch_time()): the first epoch opens. */
static void start_epochs(ULong now)
{
   lt_started = True;
   lt_t0      = now;
   lt_end     = now + 1;
   note_epoch_opened();
}

/* What the clock does for lifetimes before a heap operation ('heap_op'),
   marker or snapshot at 'now': lt_t0 at the first heap operation, and the
   epochs passed closed (lt_end is 0 until that operation). */
static NOINLINE void pass_epochs(ULong now, Bool heap_op)
{
   ULong idx;
   if (!lt_started) {
      if (heap_op)
         start_epochs(now);
      return;
   }
   tl_assert(now >= lt_t0);
   idx = (now - lt_t0) / lt_len;
   tl_assert(idx > lt_index);
   close_epoch();
   while (idx >= N_EPOCHS) {
      lt_len *= 2;
      lt_gen++;
      stats_lt_doublings++;
      idx = (now - lt_t0) / lt_len;
   }
   tl_assert(lt_gen < 64);
   lt_index = (UInt)idx;
   lt_end   = lt_t0 + (idx + 1) * lt_len;
   note_epoch_opened();
   lt_birth = (lt_gen << N_EPOCHS_LOG2) | lt_index;
}

void advance_epochs(ULong now, Bool heap_op)
{
   if (heap_op)
      op_free_stack_known = False;
   if (lt_on && now >= lt_end)
      pass_epochs(now, heap_op);
}

/* A block of 'szB' bytes of 's' is born now: its tag. */
UInt born_Block(Site* s, SizeT szB)
{
   if (!lt_on)
      return 0;
   tl_assert(lt_started);
   note_born_now(s, szB, 1);
   return birth_now();
}

Bool death_needs_FreeStack(UInt tag)
{
   return lt_free_stacks && tag != birth_now();
}

/* The block 'key' of 's', of 'szB' bytes, with tag 'tag', dies: freed by
   'tid' (died_Block, whose common case is a young death). */
static NOINLINE void died_old_Block(ThreadId tid, Site* s, UWord key,
                                    UInt tag, SizeT szB)
{
   Layers* ls;
   Int     i;
   if (!(tag & LAYERED_TAG)) {
      note_died(tid, s, epoch_of_Birth(tag & BIRTH_MASK), szB, 1);
      return;
   }
   ls = Layers_of(key);
   for (i = (Int)ls->n - 1; i >= 0; i--)
      note_died(tid, s, epoch_of_Birth(ls->l[i].birth), ls->l[i].szB,
                i == 0 ? 1 : 0);
   drop_Layers(key);
}

void died_Block(ThreadId tid, Site* s, UWord key, UInt tag,
                SizeT szB)
{
   if (!lt_on)
      return;
   if (tag == birth_now())      // one layer, born now
      note_died_young(s, szB, 1);
   else
      died_old_Block(tid, s, key, tag, szB);
}

/* The block 'key' of 'szB' bytes moves from site 'from' to site 'to' (a
   realloc by 'tid'): its bytes die at 'from' and are born at 'to', with
   their ages. */
void move_Block(ThreadId tid, Site* from, Site* to, UWord key,
                UInt tag, SizeT szB)
{
   Layers* ls;
   UInt    i, e;
   if (!lt_on)
      return;
   if (!(tag & LAYERED_TAG)) {
      e = epoch_of_Birth(tag & BIRTH_MASK);
      note_died(tid, from, e, szB, 1);
      note_born(to, e, szB, 1);
      return;
   }
   ls = Layers_of(key);
   compact_Layers(ls);
   for (i = 0; i < ls->n; i++) {
      e = epoch_of_Birth(ls->l[i].birth);
      note_died(tid, from, e, ls->l[i].szB, i == 0 ? 1 : 0);
      note_born(to, e, ls->l[i].szB, i == 0 ? 1 : 0);
   }
}

/* The block 'key' (tag 'tag', at 's') grows from 'old_szB' to 'new_szB':
   the bytes added are born now, a layer of their own unless the newest
   layer is of this epoch.  Its tag. */
static UInt grow_Block(Site* s, UWord key, Bool chunk, UInt tag,
                       SizeT old_szB, SizeT new_szB)
{
   Layers* ls;
   tl_assert(new_szB > old_szB);
   note_born(s, lt_index, new_szB - old_szB, 0);
   if (!(tag & LAYERED_TAG)) {
      if (epoch_of_Birth(tag & BIRTH_MASK) == lt_index)
         return tag;
      ls = VG_(malloc)("st.layers", sizeof(Layers));
      ls->key   = key;
      ls->chunk = chunk;
      ls->n     = 0;
      ls->cap   = 2;
      ls->l     = VG_(malloc)("st.layers.l", ls->cap * sizeof(Layer));
      add_Layer(ls, tag & BIRTH_MASK, old_szB);
      add_Layer(ls, birth_now(), new_szB - old_szB);
      VG_(HT_add_node)(layered, ls);
      stats_layered++;
      return tag | LAYERED_TAG;
   }
   ls = Layers_of(key);
   compact_Layers(ls);
   if (epoch_of_Birth(ls->l[ls->n - 1].birth) == lt_index)
      ls->l[ls->n - 1].szB += new_szB - old_szB;
   else
      add_Layer(ls, birth_now(), new_szB - old_szB);
   return tag;
}

/* The block shrinks from 'old_szB' to 'new_szB': its newest bytes die,
   freed by 'tid'.  Its tag. */
static UInt shrink_Block(ThreadId tid, Site* s, UWord key, UInt tag,
                         SizeT old_szB, SizeT new_szB)
{
   Layers* ls;
   SizeT   d = old_szB - new_szB;
   Int     i;
   tl_assert(new_szB < old_szB);
   if (!(tag & LAYERED_TAG)) {
      note_died(tid, s, epoch_of_Birth(tag & BIRTH_MASK), d, 0);
      return tag;
   }
   ls = Layers_of(key);
   compact_Layers(ls);
   for (i = (Int)ls->n - 1; i >= 0 && d > 0; i--) {
      SizeT take = ls->l[i].szB < d ? ls->l[i].szB : d;
      note_died(tid, s, epoch_of_Birth(ls->l[i].birth), take, 0);
      ls->l[i].szB -= take;
      d -= take;
      if (ls->l[i].szB == 0 && i > 0)
         ls->n--;
   }
   tl_assert(d == 0);
   if (ls->n > 1)
      return tag;
   drop_Layers(key);
   return tag & ~LAYERED_TAG;
}

/* The block 'key' of 's' is resized by 'tid'.  Its tag. */
UInt resize_lifetimes(ThreadId tid, Site* s, UWord key, Bool chunk,
                      UInt tag, SizeT old_szB, SizeT new_szB)
{
   if (!lt_on || new_szB == old_szB)
      return tag;
   if (new_szB > old_szB)
      return grow_Block(s, key, chunk, tag, old_szB, new_szB);
   return shrink_Block(tid, s, key, tag, old_szB, new_szB);
}

/* A layered chunk moved from 'old_key' to 'new_key' (a realloc). */
void rekey_Block(UWord old_key, UWord new_key, UInt tag)
{
   Layers* ls;
   if (!(tag & LAYERED_TAG) || old_key == new_key)
      return;
   ls = VG_(HT_remove)(layered, old_key);
   tl_assert(ls != NULL);
   ls->key = new_key;
   VG_(HT_add_node)(layered, ls);
}

/* The F, S and P records that the open epoch's record (and its a lines,
   'with_alive') use, before it. */
static void define_epoch_record(Bool with_alive)
{
   EpochCell* c;
   Word       i;
   for (c = epoch_list; c != NULL; c = c->next_in_epoch) {
      ensure_Site_written(c->site);
      if (c->fs != NULL)
         ensure_FreeStack_written(c->fs);
   }
   if (!with_alive)
      return;
   for (i = 0; i < VG_(sizeXA)(all_sites); i++) {
      Site* s = *(Site**)VG_(indexXA)(all_sites, i);
      if (s->n_alive > 0)
         ensure_Site_written(s);
   }
}

static void put_lifetime_line(const HChar* rec, const Site* s, UInt epoch,
                              const FreeStack* fs, Bool with_fs, SizeT szB,
                              SizeT n_blocks)
{
   put_str(rec);
   put_field_u64(s->id);
   put_field_u64(epoch);
   if (with_fs)
      put_field_u64(fs != NULL ? fs->id : 0);
   put_field_u64(szB);
   put_field_u64(n_blocks);
   put_nl();
}

/* The open epoch's record (docs/format.md): its L line, its births and
   deaths, with 'with_alive' what is alive (the end of the run), its E;
   flushed, so that a program killed later leaves it in the file. */
static void write_epoch_record(Bool with_alive)
{
   EpochCell* c;
   Word       i;
   UInt       j;
   if (!is_open_Writer())
      return;
   define_epoch_record(with_alive);
   put_str("L");
   put_field_u64(lt_index);
   put_field_u64(lt_t0 + lt_index * lt_len);
   put_field_u64(lt_len);
   if (clo_time_unit == TimeMS && clo_ms_epochs != TimeMS)
      put_field_u64(lt_open_time);
   put_nl();
   for (c = epoch_list; c != NULL; c = c->next_in_epoch) {
      if (c->szB == 0 && c->n_blocks == 0)
         continue;
      put_lifetime_line(c->died ? "d" : "b", c->site, c->epoch, c->fs,
                        c->died, c->szB, c->n_blocks);
      stats_lt_cells++;
   }
   for (i = 0; with_alive && i < VG_(sizeXA)(all_sites); i++) {
      Site* s = *(Site**)VG_(indexXA)(all_sites, i);
      SizeT szB, n_blocks;
      normalise_alive(s);
      for (j = 0; j < s->n_alive; j++)
         put_lifetime_line("a", s, s->alive[j].epoch, NULL, False,
                           s->alive[j].szB, s->alive[j].n_blocks);
      open_alive(s, &szB, &n_blocks);   // the newest epoch, last
      if (szB > 0 || n_blocks > 0)
         put_lifetime_line("a", s, lt_index, NULL, False, szB, n_blocks);
   }
   put_str("E\n");
   flush_Writer();
   stats_lt_records++;
}

/* Forgets the open epoch's cells, at a cost linear in their number: the
   table is emptied, or made anew when it is far larger than they needed. */
static void clear_epoch_cells(void)
{
   EpochCell* c;
   EpochCell* next;
   for (c = epoch_list; c != NULL; c = next) {
      next = c->next_in_epoch;
      c->site->born_now = c->site->died_young = NULL;
      VG_(freeEltPA)(epoch_cell_pool, c);
   }
   epoch_list = NULL;
   epoch_tail = &epoch_list;
   if (epoch_cells_cap > 256 && epoch_cells_used * 8 < epoch_cells_cap) {
      epoch_cells_cap = 128;
      grow_epoch_cells();    // 256 slots
   } else
      VG_(memset)(epoch_cells, 0, epoch_cells_cap * sizeof(EpochCell*));
   epoch_cells_used = 0;
}

/* The open epoch has ended: its record, if anything was born or died in
   it. */
static void close_epoch(void)
{
   if (epoch_list != NULL)
      write_epoch_record(False);
   fold_open_epoch();
   clear_epoch_cells();
}

/* The end of the run (also before an execve): the open epoch's record,
   with what is alive.  Its definitions come before the final snapshot
   (define_epoch_record), so that an execve that fails cuts the file back
   to a point where they are still written.  The cells stay: a failed
   execve's run goes on. */
void define_last_epoch(void)
{
   if (!lt_on || !is_open_Writer())
      return;
   if (!lt_started)
      start_epochs(epoch_time());   // no heap operation: one empty epoch
   define_epoch_record(True);
}

void write_last_epoch(void)
{
   if (lt_on && is_open_Writer())
      write_epoch_record(True);
}

/* A forked child's first record gives the blocks it inherited as births
   with their ages, in the epoch open at the fork; its free stacks are
   written afresh in its own file. */
void lifetimes_atfork_child(void)
{
   Word       i;
   UInt       j;
   FreeStack* fs;
   if (!lt_on)
      return;
   fold_open_epoch();
   clear_epoch_cells();      // the parent writes them
   VG_(HT_ResetIter)(free_stacks);
   while ((fs = VG_(HT_Next)(free_stacks)) != NULL)
      fs->id = 0;
   next_free_stack_id = 1;
   for (i = 0; lt_started && i < VG_(sizeXA)(all_sites); i++) {
      Site* s = *(Site**)VG_(indexXA)(all_sites, i);
      EpochCell* c = NULL;
      normalise_alive(s);
      for (j = 0; j < s->n_alive; j++) {
         c = get_EpochCell(s, s->alive[j].epoch, False, NULL);
         add_to_EpochCell(c, s->alive[j].szB, s->alive[j].n_blocks);
      }
      if (c != NULL && c->epoch == lt_index) {
         s->born_now = c;    // the open epoch's, out of 'alive' again
         s->n_alive--;
         s->alive_mask &= ~(1ULL << lt_index);
      }
   }
}

void init_lifetimes(void)
{
   lt_on           = clo_heap;
   free_stacks     = VG_(HT_construct)("st.free_stacks");
   grow_epoch_cells();
   layered         = VG_(HT_construct)("st.layered");
   epoch_cell_pool = VG_(newPA)(sizeof(EpochCell), 1000, VG_(malloc),
                                "st.epoch_cells", VG_(free));
   lt_free_stacks  = lt_on && clo_free_stacks;
}

/* For the expensive sanity check: what a site is alive with by birth adds
   up to its bytes and blocks. */
void check_alive_of_Site(const Site* s)
{
   UInt  i;
   SizeT szB = 0, n_blocks = 0, open_szB, open_blocks;
   if (!lt_on)
      return;
   tl_assert(s->n_alive <= s->cap_alive && s->n_alive <= N_EPOCHS);
   tl_assert(s->alive_gen <= lt_gen);
   tl_assert((UInt)popcount64(s->alive_mask) == s->n_alive);
   for (i = 0; i < s->n_alive; i++) {
      tl_assert(i == 0 || s->alive[i - 1].epoch < s->alive[i].epoch);
      tl_assert(s->alive_mask & (1ULL << s->alive[i].epoch));
      tl_assert(s->alive[i].szB > 0 || s->alive[i].n_blocks > 0);
      tl_assert(s->alive_gen < lt_gen || s->alive[i].epoch < lt_index);
      szB      += s->alive[i].szB;
      n_blocks += s->alive[i].n_blocks;
   }
   tl_assert(s->born_now == NULL || s->born_now->epoch == lt_index);
   tl_assert(s->died_young == NULL || s->died_young->epoch == lt_index);
   open_alive(s, &open_szB, &open_blocks);
   tl_assert(szB + open_szB == s->szB && n_blocks + open_blocks == s->n_blocks);
}

/* For the expensive sanity check: every layered block's layers add up to
   its size, oldest first, the oldest with its own birth.  'block' gives a
   block's size and tag from its key (a Chunk* or a Block*: 'chunk'). */
void check_Layers(void (*block)(UWord key, Bool chunk, SizeT* szB,
                                UInt* tag))
{
   Layers* ls;
   VG_(HT_ResetIter)(layered);
   while ((ls = VG_(HT_Next)(layered)) != NULL) {
      SizeT szB = 0, block_szB;
      UInt  tag, i;
      block(ls->key, ls->chunk, &block_szB, &tag);
      tl_assert(tag & LAYERED_TAG);
      tl_assert(ls->n >= 2 && ls->n <= ls->cap && ls->n <= N_EPOCHS);
      tl_assert(ls->l[0].birth == (tag & BIRTH_MASK));
      for (i = 0; i < ls->n; i++) {
         tl_assert(i == 0 || (ls->l[i].szB > 0
                              && epoch_of_Birth(ls->l[i - 1].birth)
                                 <= epoch_of_Birth(ls->l[i].birth)));
         szB += ls->l[i].szB;
      }
      tl_assert(szB == block_szB);
   }
}


/*--------------------------------------------------------------------*/
/*--- end                                            st_lifetimes.c ---*/
/*--------------------------------------------------------------------*/
