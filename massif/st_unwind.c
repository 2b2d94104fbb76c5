/*--------------------------------------------------------------------*/
/*--- strata: from an allocating thread to its site.   st_unwind.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/*------------------------------------------------------------*/
/*--- Overview of operation                                ---*/
/*------------------------------------------------------------*/

/* Every allocation needs its site: the allocation's call stack, with the
   allocator's frames taken off the top and cut to --depth frames.
   Unwinding a stack is most of the cost of an allocation, so get_Unwound
   avoids it in three steps, each taken only when the one before fails:

   - the stack cache.  Most allocations come from a call site seen before,
     at the same depth of the stack.  An entry is keyed by the code address
     and stack pointer of frame 0 (the malloc replacement, read from the
     registers: nothing is unwound) and holds the stack slots where the
     return addresses of frames 1 .. n were found, those return addresses,
     and the site they made, frame n being the deepest frame that decided
     the site.  While every slot still holds its return address, the frames
     are the same, and so is the site;

   - the unwind cache.  Only the top SHALLOW_IPS frames are unwound; the
     frames below are taken from an entry keyed by the code address and
     stack pointer of the last of them, after the same return-address
     check.  The entry also remembers, for the last few sets of top frames
     seen over its deep frames, the site of the whole stack;

   - a full unwind, of --depth + FAST_SLACK frames, which is enough to take
     the allocator's frames off almost every stack; a stack that needs more
     is unwound again to --depth + DEEP_SLACK.  The caches learn what it
     found.

   What frames make which site is not decided here: the tool's rule
   (site_of_stack in UnwindRules, st_main.c) says it, and says how deep
   the frames that decided it go; the caches only check that those frames
   are still where they were.  A chain that differs anywhere, however deep,
   fails the check and is unwound in full.  --check-unwind-cache=yes
   unwinds in full at every hit too, and counts the hits that differ.

   The return-address rule: the return address of the frame above a frame
   found at stack pointer sp, with code address ip (one before the return
   address), is in the stack slot just below sp.  Both caches check it,
   only on the thread's own stack (not on a stack the program made for
   itself: a coroutine's, an alternate signal stack), where the words from
   sp to the top of the stack are mapped.  The caches are of fixed size, in
   pages that are not resident until used: the cost of an allocation does
   not grow with the number of sites or of live blocks. */

#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"

#include "st_unwind.h"

/*------------------------------------------------------------*/
/*--- Rules and statistics                                 ---*/
/*------------------------------------------------------------*/

#define FAST_SLACK         4    // extra frames unwound to strip allocators
#define DEEP_SLACK        24    // ... when the first unwind was not enough
#define MAX_IPS  (MAX_DEPTH + DEEP_SLACK)

/* An unwinder: its rules, its counts and its two caches.  There are two:
   the allocations' (sites) and the frees' (free stacks). */
struct _Unwinder {
   UnwindRules  rules;
   UnwindStats  stats;
   struct _UnwindEntry* ucache;     /* [UCACHE_ENTRIES] */
   UInt         ucache_max_ips;     // the most frames a fast unwind asks
   Addr*        ucache_words;       // [UCACHE_ENTRIES][2][deep frames]
   struct _StackEntry* scache;      /* [SCACHE_ENTRIES] */
   UInt         scache_ways;        // rules.scache_ways
   UInt         scache_sets;        // SCACHE_ENTRIES / scache_ways
   UInt         scache_max_frames;
   Addr*        scache_words;       // [SCACHE_ENTRIES][max_frames][2]
};

const UnwindStats* stats_Unwind(const Unwinder* u)
{
   return &u->stats;
}

/*------------------------------------------------------------*/
/*--- What both caches share                               ---*/
/*------------------------------------------------------------*/

/* Memory for a cache: fresh pages, zero, and not resident until written,
   so that the entries a run never uses cost it nothing. */
static void* alloc_cache_memory(SizeT szB)
{
   void* p = VG_(am_shadow_alloc)(VG_PGROUNDUP(szB));
   if (p == NULL)
      VG_(out_of_memory_NORETURN)("st.cache", szB);
   return p;
}

/* The set that a frame's code address and stack pointer select among
   'n_sets' (a power of two).  Several ways per set: chains that differ
   only deep down (the same function reached from two callers) share a key,
   and often alternate; so do, in the stack cache, the calls of malloc or
   free from several places of one frame (inlined code: a destructor that
   frees a node, its string and its vector). */
static UInt set_of(Addr ip, Addr sp, UInt n_sets)
{
   UWord h = (ip ^ (sp >> 3) ^ (ip >> 17)) * GOLDEN_MULT;
   return (UInt)(h >> 32) & (n_sets - 1);
}

/* The first entry of the unwind cache's set: two ways. */
static UInt set_index(Addr ip, Addr sp, UInt n_entries)
{
   return set_of(ip, sp, n_entries / 2) * 2;
}

/* The way after 'way' in a set of 'ways'. */
static UInt next_way(UInt way, UInt ways)
{
   return way + 1 < ways ? way + 1 : 0;
}

/* Whether 'sp' is in the stack Valgrind knows for 'tid', not in a stack
   the program made for itself (a coroutine's, an alternate signal stack):
   the caches read the words from 'sp' to the top of that stack, which are
   mapped; elsewhere they do not know how far the stack goes. */
static Bool on_thread_stack(ThreadId tid, Addr sp, Addr stack_max)
{
   return sp <= stack_max
          && stack_max - sp < VG_(thread_get_stack_size)(tid);
}

/* The rule both caches check: the return address of the frame above a
   frame found at stack pointer 'sp' with code address 'ip' (one before the
   return address) is in the stack slot just below 'sp'. */
static Bool return_address_at(Addr sp, Addr ip)
{
   return *(const Addr*)(sp - sizeof(Addr)) == ip + 1;
}

/*------------------------------------------------------------*/
/*--- The unwind cache                                     ---*/
/*------------------------------------------------------------*/

/* The unwind cache.  Unwinding is most of the cost of an allocation, and
   the deep part of a stack (the frames of main, of an interpreter's eval
   loop, ...) is the same from one allocation to the next.  So only the top
   SHALLOW_IPS frames are unwound each time; the frames below are taken
   from a cache keyed by the code address and stack pointer of the last
   shallow frame, after checking, frame by frame, that each return address
   is still in the stack slot it was read from (the return address of the
   frame above frame j sits just below sps[j], and ips[j] is that address
   minus 1).  If any differs, the stack is unwound in full. */

#define SHALLOW_IPS     4
#define UCACHE_ENTRIES  1024
#define TOP_WAYS        4

typedef struct _UnwindEntry {
   Addr  key_ip, key_sp;  // ips[SHALLOW_IPS-1] and sps[SHALLOW_IPS-1]
   UInt  n;               // frames below, in ips[] and sps[]
   UInt  n_check;         // how many of them the return-address rule holds
   Bool  victim;          // in the set's first entry: the way to replace
   /* The site of a whole stack is a function of its frames: the shallow
      frames seen last with this entry's deep frames, and their sites. */
   UInt  n_tops;
   UInt  top_victim;
   Addr  tops[TOP_WAYS][SHALLOW_IPS];
   Unwound* top_sites[TOP_WAYS];
   UInt  top_ends[TOP_WAYS];     // the first frame their site did not use
   Addr* ips;
   Addr* sps;
} UnwindEntry;


/* --check-unwind-cache=yes: unwind in full on every hit too, and count the
   hits that differ from it (the tests use it). */
static void check_unwind_hit(Unwinder* u, ThreadId tid, const Addr* ips,
                             UInt n, UInt max_ips)
{
   Addr full[MAX_IPS];
   UInt m = VG_(get_StackTrace)(tid, full, max_ips, NULL, NULL, 0);
   if (m != n || !same_words(full, ips, n))
      u->stats.wrong++;
}


static void init_unwind_cache(Unwinder* u, UInt max_ips)
{
   u->ucache_max_ips = max_ips;
   u->ucache = alloc_cache_memory(UCACHE_ENTRIES * sizeof(UnwindEntry));
   u->ucache_words = alloc_cache_memory(2 * UCACHE_ENTRIES
                                     * (max_ips - SHALLOW_IPS) * sizeof(Addr));
}

static UnwindEntry* ucache_set(Unwinder* u, Addr ip, Addr sp)
{
   return &u->ucache[set_index(ip, sp, UCACHE_ENTRIES)];
}

static Bool return_address_holds(const UnwindEntry* e, UInt j)
{
   return return_address_at(e->sps[j], e->ips[j]);
}

static Bool ucache_entry_holds(const UnwindEntry* e, ThreadId tid)
{
   UInt j;
   Addr max = VG_(thread_get_stack_max)(tid);
   if (!on_thread_stack(tid, e->key_sp, max)
       || (e->n > 0 && e->sps[e->n - 1] > max))
      return False;
   for (j = 0; j < e->n_check; j++)
      if (!return_address_holds(e, j))
         return False;
   return True;
}

/* At the bottom of every stack the unwinder reads a few words that are not
   frames (below _start or a thread's clone): the rule cannot hold there,
   and those words do not change.  How many frames can be checked, or
   UNCHECKABLE if the rule fails on a frame that has a name. */
#define UNCHECKABLE ((UInt)-1)
static UInt checkable_frames(const Unwinder* u, const UnwindEntry* e)
{
   UInt j, first_bad;
   for (j = 0; j < e->n && return_address_holds(e, j); j++)
      ;
   first_bad = j;
   for (; j < e->n; j++)
      if (u->rules.named_frame(e->ips[j]))
         return UNCHECKABLE;
   return first_bad;
}

/* Unwinds the stack of 'tid' into ips[0 .. max_ips-1], like
   VG_(get_StackTrace), using the unwind cache; '*used' is the cache entry
   that holds the deep frames now, if any. */
static UInt unwind_cached(Unwinder* u, ThreadId tid, Addr* ips, Addr* sps,
                          UInt max_ips, UnwindEntry** used)
{
   UInt         n, k = SHALLOW_IPS - 1;
   UnwindEntry* set;
   UnwindEntry* e;
   UInt         way;

   *used = NULL;
   n = VG_(get_StackTrace)(tid, ips, SHALLOW_IPS, sps, NULL, 0);
   if (n < SHALLOW_IPS)
      return n;                              // the whole stack
   set = ucache_set(u, ips[k], sps[k]);
   for (way = 0; way < 2; way++) {
      e = &set[way];
      if (e->key_ip == ips[k] && e->key_sp == sps[k]
          && ucache_entry_holds(e, tid)) {
         copy_words(ips + SHALLOW_IPS, e->ips, e->n);
         copy_words(sps + SHALLOW_IPS, e->sps, e->n);
         u->stats.ucache_hits++;
         set[0].victim = way == 0;           // replace the other one next
         if (u->rules.check)
            check_unwind_hit(u, tid, ips, SHALLOW_IPS + e->n, max_ips);
         *used = e;
         return SHALLOW_IPS + e->n;
      }
   }
   u->stats.ucache_misses++;
   n = VG_(get_StackTrace)(tid, ips, max_ips, sps, NULL, 0);
   if (n < SHALLOW_IPS)
      return n;
   e = &set[set[0].victim];
   set[0].victim = !set[0].victim;
   e->ips    = u->ucache_words
               + 2 * (e - u->ucache) * (u->ucache_max_ips - SHALLOW_IPS);
   e->sps    = e->ips + (u->ucache_max_ips - SHALLOW_IPS);
   e->key_ip = ips[k];
   e->key_sp = sps[k];
   e->n      = n - SHALLOW_IPS;
   VG_(memcpy)(e->ips, ips + SHALLOW_IPS, e->n * sizeof(Addr));
   VG_(memcpy)(e->sps, sps + SHALLOW_IPS, e->n * sizeof(Addr));
   e->n_check = checkable_frames(u, e);
   e->n_tops  = 0;
   if (e->n_check == UNCHECKABLE)
      e->key_ip = 0;                         // a stack the rule misses
   else
      *used = e;
   return n;
}

/* The site remembered for these shallow frames over e's deep frames. */
static Bool lookup_top_site(const UnwindEntry* e, const Addr* ips,
                            Unwound** site, UInt* end)
{
   UInt w;
   for (w = 0; w < e->n_tops; w++)
      if (same_words(e->tops[w], ips, SHALLOW_IPS)) {
         *site = e->top_sites[w];
         *end  = e->top_ends[w];
         return True;
      }
   return False;
}

static void remember_top_site(UnwindEntry* e, const Addr* ips,
                              Unwound* site, UInt end)
{
   UInt w = e->n_tops < TOP_WAYS ? e->n_tops++
                                 : e->top_victim++ % TOP_WAYS;
   copy_words(e->tops[w], ips, SHALLOW_IPS);
   e->top_sites[w] = site;
   e->top_ends[w]  = end;
}

/*------------------------------------------------------------*/
/*--- The stack cache                                      ---*/
/*------------------------------------------------------------*/

/* The stack cache, in front of the unwind cache.  Most allocations are made
   from a call site seen before, at the same depth of the stack: with the
   same code address and stack pointer in the allocator's frame (frame 0),
   and the same return addresses above it.  Keyed by that code address and
   stack pointer, read from the registers, an entry holds the stack slots
   where the return addresses of frames 1 .. n were found, those return
   addresses, and the site they made, frame n being the last frame that
   decided it (the first frame cut by --depth or below main, or the frame
   with a name that --ignore-fn looked at, whichever is deeper).  While
   every slot holds its return address, the site is the
   same, and no frame is unwound.  The check is the unwind cache's, applied
   from frame 1. */
#define SCACHE_ENTRIES 2048

/* 32 bytes: a set of two ways is one cache line, of four two.  Its words,
   at the same index in scache_words, are pairs: where the return address
   of frame i+1 is, and that return address. */
typedef struct _StackEntry {
   Addr  ip, sp;          // frame 0; ip 0: an empty entry
   UInt  n;               // frames 1 .. n checked
   UInt  victim;          // in the set's first entry: the way to replace
   Unwound* site;            // NULL: the allocation is ignored
} StackEntry;

static Addr* words_of(const Unwinder* u, const StackEntry* e)
{
   return u->scache_words + 2 * (e - u->scache) * u->scache_max_frames;
}



static void init_stack_cache(Unwinder* u, UInt max_frames)
{
   u->scache_max_frames = max_frames;
   u->scache = alloc_cache_memory(SCACHE_ENTRIES * sizeof(StackEntry));
   u->scache_words = alloc_cache_memory(2 * SCACHE_ENTRIES * max_frames
                                     * sizeof(Addr));
}

static StackEntry* scache_set(Unwinder* u, Addr ip, Addr sp)
{
   return &u->scache[set_of(ip, sp, u->scache_sets) * u->scache_ways];
}

// ('stack_max': the top of the thread's stack.)
static Bool scache_entry_holds(const Unwinder* u, const StackEntry* e,
                               Addr stack_max)
{
   const Addr* w = words_of(u, e);
   UInt        i;
   if (e->n > 0 && w[2 * (e->n - 1)] >= stack_max)
      return False;
   for (i = 0; i < e->n; i++)
      if (*(const Addr*)w[2 * i] != w[2 * i + 1])
         return False;
   return True;
}

/* The site of an allocation made now by 'tid', if the stack cache knows
   it. */
static Bool lookup_stack_cache(Unwinder* u, ThreadId tid, Unwound** site)
{
   Addr        ip = VG_(get_IP)(tid), sp = VG_(get_SP)(tid);
   Addr        max;
   StackEntry* set;
   UInt        way;
   if (u->scache == NULL)
      return False;
   max = VG_(thread_get_stack_max)(tid);
   if (!on_thread_stack(tid, sp, max))
      return False;
   set = scache_set(u, ip, sp);
   for (way = 0; way < u->scache_ways; way++) {
      StackEntry* e = &set[way];
      if (e->ip == ip && e->sp == sp && scache_entry_holds(u, e, max)) {
         if (set[0].victim == way)   // not the one used last
            set[0].victim = next_way(way, u->scache_ways);
         u->stats.scache_hits++;
         *site = e->site;
         return True;
      }
   }
   return False;
}

/* Remembers 'site', made by the frames 'ips' found at stack pointers
   'sps' up to frame 'end' (the last that decided it), in the stack cache,
   if the return addresses of those frames can be checked.  (A stack that
   ends before the frame after its site either was cut by --depth there,
   or ended where the unwinder found no caller: the same frames in the same
   slots end it again.) */
static void remember_stack(Unwinder* u, const Addr* ips, const Addr* sps,
                           UInt n_ips, UInt end, Unwound* site)
{
   UInt        last, i;
   StackEntry* set;
   StackEntry* e;
   Addr*       w;
   if (u->scache == NULL || site == u->rules.need_deeper)
      return;
   last = end < n_ips ? end : n_ips - 1;
   if (last > u->scache_max_frames)
      return;
   for (i = 1; i <= last; i++)
      if (!return_address_at(sps[i], ips[i]))
         return;
   set = scache_set(u, ips[0], sps[0]);
   e = &set[set[0].victim];
   set[0].victim = next_way(set[0].victim, u->scache_ways);
   e->ip    = ips[0];
   e->sp    = sps[0];
   e->n     = last;
   e->site  = site;
   w = words_of(u, e);
   for (i = 1; i <= last; i++) {
      w[2 * (i - 1)]     = sps[i] - sizeof(Addr);
      w[2 * (i - 1) + 1] = ips[i] + 1;
   }
}

/*------------------------------------------------------------*/
/*--- Finding the site                                     ---*/
/*------------------------------------------------------------*/

/* The site of the stack of 'tid' unwound to at most 'max_ips' frames;
   u->rules.need_deeper if that is not enough (and 'last_try' is False).  The
   stack cache learns it if 'learn'. */
static Unwound* get_Unwound_unwinding(Unwinder* u, ThreadId tid, UInt max_ips,
                                Bool last_try, Bool learn)
{
   Addr         ips[MAX_IPS];
   Addr         sps[MAX_IPS];
   UInt         n_ips, end, cached_end = 0;
   UnwindEntry* entry = NULL;
   Unwound*        site;
   Unwound*        cached = NULL;
   Bool         known = False;

   if (max_ips == u->ucache_max_ips)
      n_ips = unwind_cached(u, tid, ips, sps, max_ips, &entry);
   else
      n_ips = VG_(get_StackTrace)(tid, ips, max_ips, sps, NULL, 0);
   u->stats.unwound++;
   if (n_ips == 0)
      return u->rules.no_stack;
   if (entry != NULL
       && (known = lookup_top_site(entry, ips, &cached, &cached_end))) {
      u->stats.top_hits++;
      if (!u->rules.check) {
         if (learn)
            remember_stack(u, ips, sps, n_ips, cached_end, cached);
         return cached;
      }
   }
   site = u->rules.site_of_stack(ips, n_ips, !last_try && n_ips == max_ips,
                                 &end);
   if (known && cached != site)
      u->stats.wrong++;
   if (entry != NULL && !known)
      remember_top_site(entry, ips, site, end);
   if (learn)
      remember_stack(u, ips, sps, n_ips, end, site);
   return site;
}

/* Most stacks need only a few frames beyond --depth: the allocator's. */
Unwound* get_Unwound(Unwinder* u, ThreadId tid)
{
   Unwound* site;
   Unwound* hit = NULL;
   Bool  found = lookup_stack_cache(u, tid, &hit);
   if (found && !u->rules.check)
      return hit;
   site = get_Unwound_unwinding(u, tid, u->rules.depth + FAST_SLACK, False,
                             !found);
   if (site == u->rules.need_deeper)
      site = get_Unwound_unwinding(u, tid, u->rules.depth + DEEP_SLACK, True,
                                !found);
   if (found && hit != site)
      u->stats.wrong++;
   return site;
}

/*------------------------------------------------------------*/
/*--- Sanity check                                         ---*/
/*------------------------------------------------------------*/

/* Every entry in use has its frames in its own words, no more of them
   than the words hold, and checks no more than it has. */
void check_Unwind(const Unwinder* u)
{
   UInt i, deep = u->ucache_max_ips - SHALLOW_IPS;
   for (i = 0; u->ucache != NULL && i < UCACHE_ENTRIES; i++) {
      const UnwindEntry* e = &u->ucache[i];
      if (e->key_ip == 0)
         continue;
      tl_assert(e->ips == u->ucache_words + 2 * i * deep);
      tl_assert(e->sps == e->ips + deep);
      tl_assert(e->n <= deep && e->n_check <= e->n);
      tl_assert(e->n_tops <= TOP_WAYS);
   }
   for (i = 0; u->scache != NULL && i < SCACHE_ENTRIES; i++) {
      const StackEntry* e = &u->scache[i];
      if (i % u->scache_ways == 0)
         tl_assert(u->scache[i].victim < u->scache_ways);
      if (e->ip == 0)
         continue;
      tl_assert(e->n <= u->scache_max_frames);
   }
}

/*------------------------------------------------------------*/
/*--- Initialisation                                       ---*/
/*------------------------------------------------------------*/

Unwinder* new_Unwinder(const UnwindRules* r)
{
   Unwinder* u = VG_(calloc)("st.unwinder", 1, sizeof(Unwinder));
   tl_assert(r->depth >= 1 && r->depth <= MAX_DEPTH);
   tl_assert(r->site_of_stack != NULL && r->named_frame != NULL);
   tl_assert(r->need_deeper != NULL && r->no_stack != r->need_deeper);
   tl_assert(r->scache_ways == 2 || r->scache_ways == 4);
   tl_assert(sizeof(StackEntry) == 32);
   u->rules = *r;
   u->scache_ways = r->scache_ways;
   u->scache_sets = SCACHE_ENTRIES / r->scache_ways;
   if (u->rules.depth + FAST_SLACK > SHALLOW_IPS)
      init_unwind_cache(u, u->rules.depth + FAST_SLACK);
   init_stack_cache(u, u->rules.depth + FAST_SLACK);
   return u;
}

/*--------------------------------------------------------------------*/
/*--- end                                               st_unwind.c ---*/
/*--------------------------------------------------------------------*/
