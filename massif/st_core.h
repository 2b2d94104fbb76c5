/*--------------------------------------------------------------------*/
/*--- strata: the recorder's core, shared by every recorder.        ---*/
/*---                                                   st_core.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The core of a recorder: what it keeps of the heap and how it writes it,
   whoever sees the heap operations.  Sites and their snapshot clock, the
   exact peak, the heap's totals, allocation counts (st_heap.c), the
   lifetimes' epochs (st_lifetimes.c) and the profile writer (st_write.c).
   It depends on its host only through st_port.h, so it compiles inside
   Valgrind (the tool, whose glue is st_main.c) and against the C library
   (tests/unit/core_replay.c).  A recorder gives the core three things of
   its own, declared at the end: how a stack's frames are written, how the
   stack of a free is found, and its settings (the clo_ variables below,
   which the tool sets from its options). */

#ifndef ST_CORE_H
#define ST_CORE_H

#include "st_port.h"
#include "st_write.h"

/* For the slow paths of the functions every heap operation calls: kept
   out of them, so that the fast path saves no registers it does not use. */
#define NOINLINE __attribute__((noinline))

/* hash_stack's and the epoch cells' multiplier: 2^64 divided by the golden
   ratio (Fibonacci hashing), which spreads nearby words far apart. */
#define GOLDEN_MULT  0x9E3779B97F4A7C15ULL

/* VG_(memcmp) and VG_(memcpy) go byte by byte: too slow for every
   allocation. */
static inline Bool same_words(const Addr* a, const Addr* b, UInt n)
{
   UInt i;
   for (i = 0; i < n; i++)
      if (a[i] != b[i])
         return False;
   return True;
}

static inline void copy_words(Addr* to, const Addr* from, UInt n)
{
   UInt i;
   for (i = 0; i < n; i++)
      to[i] = from[i];
}

/*------------------------------------------------------------*/
/*--- Settings, given by the recorder                      ---*/
/*------------------------------------------------------------*/

typedef enum { TimeI, TimeMS, TimeB } TimeUnit;

extern TimeUnit clo_time_unit;        // --time-unit
extern Double   clo_peak_inaccuracy;  // --peak-inaccuracy, percent
extern Bool     clo_heap;             // --heap: lifetimes are recorded
extern Bool     clo_free_stacks;      // --free-stacks
extern TimeUnit clo_ms_epochs;        // with --time-unit=ms, what the epochs
                                      // count: instructions (TimeI, the
                                      // tool), or bytes allocated and freed
                                      // (TimeB, a recorder without an
                                      // instruction counter: native/)

/*------------------------------------------------------------*/
/*--- Statistics, for --stats=yes                          ---*/
/*------------------------------------------------------------*/

extern ULong stats_allocs;           // blocks recorded
extern ULong stats_frees;            // blocks unrecorded
extern ULong stats_sites;
extern ULong stats_snapshots[4];     // by SnapshotKind
extern ULong stats_ignored_calls;    // allocation calls not counted
extern ULong stats_lt_records;       // L records written
extern ULong stats_lt_doublings;
extern ULong stats_free_unwinds;     // free stacks looked up
extern ULong stats_free_stacks;      // distinct free stacks
extern ULong stats_layered;          // blocks that got a second layer
extern ULong stats_lt_cells;         // b and d lines written

/*------------------------------------------------------------*/
/*--- Sites                                                ---*/
/*------------------------------------------------------------*/

/* A Site is one allocation stack, allocator frames removed.  It counts what
   its live blocks hold, the range its bytes covered since the last snapshot,
   and (copy on write) what it held at the last peak.  The first five fields
   are those of StackNode (the first two, VgHashNode's): sites are found by
   their stack in 'sites'. */
typedef struct _Site {
   struct _Site* next;
   UWord  hash;           // key: hash_stack() of ips
   UInt   id;             // 1-based id in the output file; 0 = not written
   UInt   n_ips;
   Addr*  ips;            // innermost first; NULL when n_ips == 0
   SizeT  szB;            // useful bytes of its live blocks
   SizeT  n_blocks;
   SizeT  min_szB;        // lowest szB since the last snapshot
   SizeT  max_szB;        // highest szB since the last snapshot
   Bool   dirty;          // changed since the last snapshot
   struct _Site* next_dirty;
   ULong  peak_gen;       // == peak_gen: peak_* hold the values at the peak
   SizeT  peak_szB;
   SizeT  peak_blocks;
   ULong  calls;          // allocation calls that made or resized a block
                          // of it, over the run (Allocation counts)
   ULong  allocated_szB;  // the bytes those calls asked for
   ULong  temporary;      // those blocks freed before another allocation
   Bool   counts_changed; // since the last snapshot (then it is dirty too)
   // Lifetimes: what its live blocks hold by birth epoch, sorted, epochs at
   // the length of generation alive_gen; its cells of the open epoch's own
   // births and young deaths, if it has them.
   struct _AliveCell* alive;
   ULong  alive_mask;     // bit e: alive has a cell of epoch e
   UShort n_alive, cap_alive;
   UChar  alive_gen;
   struct _EpochCell* born_now;
   struct _EpochCell* died_young;
} Site;

/* Free stacks: the stacks that freed bytes born in an earlier epoch.  The
   fields are those of StackNode (the first two, VgHashNode's). */
typedef struct _FreeStack {
   struct _FreeStack* next;
   UWord  hash;           // key: hash_stack() of ips
   UInt   id;             // 1-based id of its P record; 0 = not written
   UInt   n_ips;
   Addr*  ips;            // innermost first
} FreeStack;

/* What a Site and a FreeStack begin with, in this order: a node of a hash
   table of stacks (its first two fields are VgHashNode's), so that one
   comparison and one look-up serve both tables. */
typedef struct {
   void*  next;
   UWord  hash;           // hash_stack() of ips
   UInt   id;
   UInt   n_ips;
   Addr*  ips;
} StackNode;

// Type T's field F is where a StackNode has it.
#define LIKE_StackNode(T, F)                                        \
   _Static_assert(__builtin_offsetof(T, F)                          \
                  == __builtin_offsetof(StackNode, F),              \
                  #T "." #F " is not where StackNode has it")
LIKE_StackNode(Site, hash);
LIKE_StackNode(Site, n_ips);
LIKE_StackNode(Site, ips);
LIKE_StackNode(FreeStack, hash);
LIKE_StackNode(FreeStack, n_ips);
LIKE_StackNode(FreeStack, ips);

extern VgHashTable* sites;        /* stack (hash) -> Site* */
extern XArray*      all_sites;    /* XArray* of Site*, every site */
extern Site*        no_stack_site;   // for allocations with no usable stack

Site* new_Site(const Addr* ips, UInt n_ips);
/* The site of a stripped stack, made the first time the stack is seen. */
Site* get_Site_of_stack(const Addr* ips, UInt n_ips);
UWord hash_stack(const Addr* ips, UInt n_ips);
/* The node of 'table' (a Site or a FreeStack) whose stack is 'ips', or
   NULL; '*hash' is that stack's hash. */
void* lookup_stack(VgHashTable* table, const Addr* ips, UInt n_ips,
                   UWord* hash);
/* Every change to a site's bytes goes through here. */
void change_Site(Site* s, SizeT add_szB, SizeT sub_szB, Int d_blocks);
SizeT peak_szB_of_Site(const Site* s);
/* The sites, tables and clock of the core, made once (before any other
   call). */
void init_heap(void);

/*------------------------------------------------------------*/
/*--- The heap's totals and the clocks                     ---*/
/*------------------------------------------------------------*/

// Current sizes, in bytes.
extern SizeT heap_szB;         // useful heap: what the client asked for
extern SizeT heap_extra_szB;   // --heap-admin per block, plus slop
extern SizeT stacks_szB;       // with --stacks=yes

// The clocks behind --time-unit=i and --time-unit=B, and the last reading
// of the millisecond timer (refresh_ms_clock) for --time-unit=ms.
extern ULong guest_instrs_executed;
extern ULong total_allocs_deallocs_szB;
extern ULong ms_clock;

static inline void refresh_ms_clock(void)
{
   if (clo_time_unit == TimeMS)
      ms_clock = VG_(read_millisecond_timer)();
}

static inline ULong get_time(void)
{
   switch (clo_time_unit) {
   case TimeI:  return guest_instrs_executed;
   case TimeMS: return ms_clock;
   case TimeB:  return total_allocs_deallocs_szB;
   }
   tl_assert2(0, "bad time unit");
}

// The clock of the lifetimes' epochs: the time unit's, but the program's
// work with --time-unit=ms ("opt epoch_unit i" or "B"; each L record gives
// the time of its epoch's first event too): instructions under Valgrind,
// bytes allocated and freed natively.  Under Valgrind the wall clock is
// mostly Valgrind's own (its start-up, translating new code, starting
// threads), and natively in a short run the recorder's own (its first
// unwinds, reading symbols): a program's heap work can fit in one
// millisecond of ten, and the table would say little of when its bytes
// were born, and differ from one machine, or one recording, to the next.
static inline ULong epoch_time(void)
{
   if (clo_time_unit != TimeMS)
      return get_time();
   return clo_ms_epochs == TimeI ? guest_instrs_executed
        : clo_ms_epochs == TimeB ? total_allocs_deallocs_szB
        : get_time();
}

void add_to_totals(SizeT req_szB, SizeT extra_szB);
void take_from_totals(SizeT req_szB, SizeT extra_szB);
void count_alloc(Site* site, SizeT req_szB, SizeT extra_szB);
void count_free(Site* site, SizeT req_szB, SizeT extra_szB);

/*------------------------------------------------------------*/
/*--- The peak                                             ---*/
/*------------------------------------------------------------*/

extern ULong peak_gen;         // bumped at each new peak
extern ULong peak_time;
extern SizeT peak_heap_szB;
extern Bool  peak_written;     // the current peak is in the file

Bool within_peak(SizeT total);
void update_peak(void);

/*------------------------------------------------------------*/
/*--- Allocation counts                                    ---*/
/*------------------------------------------------------------*/

// The sums over all sites of their calls and temporary blocks.
extern ULong total_calls;
extern ULong total_temporary;

void count_call(Site* s, SizeT req_szB, const void* block);
void count_ignored_call(void);
void count_free_of(Site* s, const void* block);
void count_free_call(void);

/*------------------------------------------------------------*/
/*--- Snapshots                                            ---*/
/*------------------------------------------------------------*/

typedef enum { SnapRegular = 0, SnapUser, SnapPeak, SnapFinal } SnapshotKind;

extern ULong snapshot_interval;
extern ULong last_stamp;             // the latest time written in the file
extern SizeT largest_written_szB;    // of the snapshots written, peaks aside
extern Long  provisional_end;        // Exec: where the end before it starts

void ensure_Site_written(Site* s);
void take_snapshot(SnapshotKind kind);
void take_snapshot_as(SnapshotKind kind, Bool provisional);
void check_clock(Bool heap_op);
void clock_before_op(void);
void clock_after_op(void);
void init_snapshot_clock(void);

/* Sanity checks (--sanity-level): tl_asserts that the clock, the sites and
   the totals agree; check_all_Sites returns the blocks of all sites. */
void  check_heap_cheaply(void);
Bool  is_known_Site(Site* s);
ULong check_all_Sites(void);

/* A block of 'req_szB' bytes (and 'extra_szB' of the allocator's) is
   born at 's': its tag (its birth) for record_death.  The allocation call
   that made it is counted apart (count_call): a mapping of pages is one
   call for many blocks. */
UInt record_birth(Site* s, SizeT req_szB, SizeT extra_szB);
/* The block 'block' of 's', with its tag, dies: freed by 'tid'.  The free
   is counted apart (count_free_call), once for all the blocks it frees. */
void record_death(ThreadId tid, Site* s, const void* block, UInt tag,
                  SizeT req_szB, SizeT extra_szB);
/* The end of the profile: the epochs and the snapshots due, the final
   snapshot, the last epoch's record, and the X record ('provisional': the
   end written before an execve, which the execve may take back). */
void write_profile_end(Bool provisional);

/* A marker (an M record) with 'label' (NULL: none), at the time now; the
   label is cut at its first MARKER_LABEL_MAX bytes, so no more are read
   (the recorder checks that those it reads can be: st_main.c). */
#define MARKER_LABEL_MAX  255
void write_marker(const HChar* label);
/* A fork (a K record) at the time now, in the parent's profile. */
void write_fork(void);

/* A forked child starts its own profile: sites and frames unwritten, its
   counts from 0, the inherited heap its first peak (Fork). */
void restart_heap_in_child(void);

/*------------------------------------------------------------*/
/*--- Lifetimes                                            ---*/
/*------------------------------------------------------------*/

extern Bool         lt_on;        // lifetimes are recorded (the heap is)
extern VgHashTable* layered;      /* Chunk* or Block* -> Layers* */

void init_lifetimes(void);
/* The epochs passed by 'now' close (before each heap operation, marker
   and snapshot: 'heap_op' for a heap operation). */
void advance_epochs(ULong now, Bool heap_op);
UInt born_Block(Site* s, SizeT szB);
void died_Block(ThreadId tid, Site* s, UWord key, UInt tag, SizeT szB);
/* Whether the death now of a block with tag 'tag' would look up the free
   stack (unwind_FreeStack): its bytes were born in an earlier epoch, and
   free stacks are recorded.  After clock_before_op, for a recorder that
   must unwind before it takes its lock (native/). */
Bool death_needs_FreeStack(UInt tag);
void move_Block(ThreadId tid, Site* from, Site* to, UWord key, UInt tag,
                SizeT szB);
UInt resize_lifetimes(ThreadId tid, Site* s, UWord key, Bool chunk,
                      UInt tag, SizeT old_szB, SizeT new_szB);
void rekey_Block(UWord old_key, UWord new_key, UInt tag);
FreeStack* get_FreeStack(const Addr* ips, UInt n_ips);
void define_last_epoch(void);
void write_last_epoch(void);
void lifetimes_atfork_child(void);
void check_alive_of_Site(const Site* s);
void check_Layers(void (*block)(UWord key, Bool chunk, SizeT* szB,
                                UInt* tag));

/*------------------------------------------------------------*/
/*--- What the recorder gives the core                     ---*/
/*------------------------------------------------------------*/

/* Writes the frames of a stack not yet written, then its record 'rec'
   (S for a site, P for a free stack) with id 'id'. */
void put_stack_record(const HChar* rec, UInt id, const Addr* ips,
                      UInt n_ips);

/* The free stack of a free that thread 'tid' makes now. */
FreeStack* unwind_FreeStack(ThreadId tid);

#endif /* ST_CORE_H */

/*--------------------------------------------------------------------*/
/*--- end                                                 st_core.h ---*/
/*--------------------------------------------------------------------*/
