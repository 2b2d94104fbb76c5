/*--------------------------------------------------------------------*/
/*--- strata native: the heap of a program recorded from inside it, ---*/
/*--- by a preloaded library.                           sn_main.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/*------------------------------------------------------------*/
/*--- Overview of operation                                ---*/
/*------------------------------------------------------------*/

/* `strata record --native` runs the program with this library preloaded
   (LD_PRELOAD) and its options in STRATA_NATIVE_OPTIONS.  The library
   defines malloc, calloc, realloc, free, memalign, posix_memalign,
   aligned_alloc, valloc and pvalloc (the C++ operators of libstdc++ reach
   them), and serves each call with the C library's own function (found
   with dlsym(RTLD_NEXT)).  Each call is then recorded by the recorder's
   core (massif/st_core.h), the same that the Valgrind tool uses, with the
   same rules: sites, the snapshot clock, the exact peak, allocation
   counts, the lifetimes.  So the profile is the tool's (format version 3),
   with `opt native yes` in its header, the time in ms or B (there is no
   instruction counter), and frames written as code addresses with their
   object and offset; `strata record` names them when the run ends.

   Every call goes: unwind the stack (libunwind, sn_stack.c) without any
   lock of ours; then append the operation, its stack by id, to the ring
   of events that the recorder thread applies to the core and the block
   table (the live blocks: address -> site, size, tag), in order, under
   the core's lock ("The recorder thread", below), once the live blocks
   reach THREAD_AT_BLOCKS.  Until then, the calling thread does it
   itself, under the lock: find the site, record the birth or death,
   update the block table; a free then unwinds only when the core will
   want its stack (its bytes were born in an earlier epoch): it looks,
   releases the lock, unwinds and takes it again.  A realloc holds the lock
   (the ring's, or the core's) across the C library's realloc, so that no
   other thread gets the old address before the table forgets it.  A
   thread's calls made from inside
   the recorder (libunwind's, the C library's own) go straight to
   the C library: a per-thread guard.  The recorder's own memory is its
   arena's (sn_arena.c), never the program's allocator's.

   Before dlsym has found the C library's functions, the calls (dlsym's
   own calloc) are served from a static buffer; those blocks are recorded,
   without a stack, once the recorder starts, and never given to the C
   library's free.

   The process: the profile is opened at the first call (the C++ library's
   start-up allocations come before any constructor of ours), named as the
   tool names it; a forked child starts its own (pthread_atfork); an exec
   ends the profile provisionally, and takes the end back if it fails; with
   --trace-children=yes the new program is recorded too (its profile is
   the name .execN, as the tool's), otherwise this library is taken out of
   LD_PRELOAD at the start, so that nothing the program runs is recorded.
   The profile ends at exit (a destructor), at _exit, and not at all when
   the process is killed: the file then holds every complete record
   written before (the writer flushes whole snapshots).

   A dlclose is passed on, then the modules it unloaded are forgotten
   (sn_stack.c: another object may be loaded at their addresses).

   Markers: strata.h's STRATA_MARK and STRATA_SNAPSHOT call
   strata_native_request, a weak symbol in the program that this library
   defines (nothing when it is not loaded). */

#define _GNU_SOURCE
#include "sn_native.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

UInt clo_depth      = 30;
UInt clo_free_depth = 12;
Unwinder clo_unwind = UnwindLibunwind;
static SizeT  clo_heap_admin     = 8;
static Double clo_threshold      = -1.0;  // for the report; -1: not given
static Bool   clo_trace_children = False;
static Int    clo_record_fd      = -1;
static HChar  clo_out_file[4096] = "strata.out.%p";
static HChar  lib_path[4096];             // this library, as in LD_PRELOAD

/* The environment and command line as the process started, read from
   /proc (the C library's environ may not be set up at the first malloc). */
static HChar start_env[1 << 16];
static SizeT start_env_szB;
static HChar cmdline[1 << 14];
static SizeT cmdline_szB;

static SizeT read_file(const HChar* path, HChar* buf, SizeT size)
{
   Int   fd = open(path, O_RDONLY | O_CLOEXEC);
   SizeT n  = 0;
   if (fd < 0)
      return 0;
   while (n < size - 1) {
      ssize_t r = read(fd, buf + n, size - 1 - n);
      if (r <= 0)
         break;
      n += r;
   }
   close(fd);
   buf[n] = '\0';
   return n;
}

static const HChar* start_getenv(const HChar* name)
{
   SizeT len = strlen(name), i = 0;
   while (i < start_env_szB) {
      const HChar* e = start_env + i;
      if (strncmp(e, name, len) == 0 && e[len] == '=')
         return e + len + 1;
      i += strlen(e) + 1;
   }
   return NULL;
}

static Bool parse_yes(const HChar* v) { return strcmp(v, "yes") == 0; }

/* One option, "--NAME=VALUE", as strata record passes it. */
static void take_option(const HChar* arg)
{
   const HChar* v = strchr(arg, '=');
   if (v == NULL)
      return;
   v++;
#define IS(name) (strncmp(arg, name "=", sizeof(name)) == 0)
   if (IS("--depth"))                clo_depth = strtoul(v, NULL, 10);
   else if (IS("--free-depth"))      clo_free_depth = strtoul(v, NULL, 10);
   else if (IS("--heap-admin"))      clo_heap_admin = strtoul(v, NULL, 10);
   else if (IS("--peak-inaccuracy")) clo_peak_inaccuracy = strtod(v, NULL);
   else if (IS("--threshold"))       clo_threshold = strtod(v, NULL);
   else if (IS("--free-stacks"))     clo_free_stacks = parse_yes(v);
   else if (IS("--trace-children"))  clo_trace_children = parse_yes(v);
   else if (IS("--record-fd"))       clo_record_fd = (Int)strtol(v, NULL, 10);
   else if (IS("--library"))         VG_(strncpy)(lib_path, v, sizeof(lib_path) - 1);
   else if (IS("--out-file"))
      VG_(strncpy)(clo_out_file, v, sizeof(clo_out_file) - 1);
   else if (IS("--alloc-fn"))        add_fn_pattern(v, False);
   else if (IS("--ignore-fn"))       add_fn_pattern(v, True);
   else if (IS("--unwind"))
      clo_unwind = strcmp(v, "fp") == 0 ? UnwindFP : UnwindLibunwind;
   else if (IS("--time-unit"))
      clo_time_unit = strcmp(v, "B") == 0 ? TimeB : TimeMS;
#undef IS
   if (clo_depth < 1 || clo_depth > 200)
      clo_depth = 30;
   if (clo_free_depth < 1 || clo_free_depth > 200)
      clo_free_depth = 12;
}

/* STRATA_NATIVE_OPTIONS: the options, one a line.  False when it is not
   set: the library was preloaded by someone else than strata record. */
static Bool read_options(void)
{
   static HChar copy[1 << 14];
   const HChar* opts = start_getenv("STRATA_NATIVE_OPTIONS");
   HChar*       line;
   HChar*       save = NULL;
   if (opts == NULL)
      return False;
   clo_time_unit = TimeMS;
   VG_(strncpy)(copy, opts, sizeof(copy) - 1);
   for (line = strtok_r(copy, "\n", &save); line != NULL;
        line = strtok_r(NULL, "\n", &save))
      take_option(line);
   return True;
}

/*------------------------------------------------------------*/
/*--- The C library's allocator, and the start             ---*/
/*------------------------------------------------------------*/

static struct {
   void*  (*malloc)(size_t);
   void*  (*calloc)(size_t, size_t);
   void*  (*realloc)(void*, size_t);
   void   (*free)(void*);
   void*  (*memalign)(size_t, size_t);
   int    (*posix_memalign)(void**, size_t, size_t);
   void*  (*aligned_alloc)(size_t, size_t);
   void*  (*valloc)(size_t);
   void*  (*pvalloc)(size_t);
   size_t (*malloc_usable_size)(void*);
   int    (*execve)(const char*, char* const[], char* const[]);
   int    (*execvpe)(const char*, char* const[], char* const[]);
   int    (*dlclose)(void*);
   void   (*_exit)(int);
   int    (*libc_start_main)(int (*)(int, char**, char**), int, char**,
                             void (*)(void), void (*)(void),
                             void (*)(void), void*);
} real;

/* Unready: nothing found yet; Resolving: dlsym at work (its calls are
   served from the bootstrap buffer); Passing: every call goes to the C
   library (not started by strata record, or after the end); Recording. */
typedef enum { Unready = 0, Resolving, Passing, Recording } State;
static volatile State state = Unready;

/* The thread is inside the recorder: its calls go to the C library. */
static __thread Int in_strata __attribute__((tls_model("initial-exec")));

/* The bootstrap buffer, and the blocks carved from it (recorded when the
   recorder starts, without a stack). */
#define BOOT_SZB     (64 << 10)
#define BOOT_BLOCKS  64
static UChar boot_buf[BOOT_SZB] __attribute__((aligned(64)));
static SizeT boot_used = 0;
static struct { void* p; SizeT szB; } boot_blocks[BOOT_BLOCKS];
static UInt  n_boot_blocks = 0;

static Bool is_boot(const void* p)
{
   return (const UChar*)p >= boot_buf && (const UChar*)p < boot_buf + BOOT_SZB;
}

static void* boot_alloc(SizeT n, SizeT align)
{
   SizeT at;
   if (align < 16)
      align = 16;
   at = (boot_used + align - 1) & ~(align - 1);
   if (at + n > BOOT_SZB || n_boot_blocks == BOOT_BLOCKS)
      return NULL;
   boot_used = at + n;
   boot_blocks[n_boot_blocks].p   = boot_buf + at;
   boot_blocks[n_boot_blocks].szB = n;
   n_boot_blocks++;
   return boot_buf + at;   // zeroed: never handed out twice
}

static void* next_fn(const HChar* name)
{
   return dlsym(RTLD_NEXT, name);
}

static void resolve(void)
{
   real.malloc             = next_fn("malloc");
   real.calloc             = next_fn("calloc");
   real.realloc            = next_fn("realloc");
   real.free               = next_fn("free");
   real.memalign           = next_fn("memalign");
   real.posix_memalign     = next_fn("posix_memalign");
   real.aligned_alloc      = next_fn("aligned_alloc");
   real.valloc             = next_fn("valloc");
   real.pvalloc            = next_fn("pvalloc");
   real.malloc_usable_size = next_fn("malloc_usable_size");
   real.execve             = next_fn("execve");
   real.execvpe            = next_fn("execvpe");
   real.dlclose            = next_fn("dlclose");
   real._exit              = next_fn("_exit");
   real.libc_start_main    = next_fn("__libc_start_main");
}

static void start_recorder(void);

/* Called first by every entry point while not recording. */
static void ensure_started(void)
{
   if (state != Unready)
      return;
   state = Resolving;
   resolve();
   state = Passing;
   in_strata++;
   start_recorder();
   in_strata--;
}

/*------------------------------------------------------------*/
/*--- The lock and the block table                         ---*/
/*------------------------------------------------------------*/

static pthread_mutex_t core_lock = PTHREAD_MUTEX_INITIALIZER;

static inline void lock_core(void)   { pthread_mutex_lock(&core_lock); }
static inline void unlock_core(void) { pthread_mutex_unlock(&core_lock); }

/* The live blocks recorded: address -> site, requested size, tag, and the
   extra bytes counted for it (--heap-admin and the C library's slop).
   Open addressing, linear probing, any number of slots (a slot is the
   hash scaled to it), at most half full, doubled when it would be more
   (at 3/4 a look-up read 2.5 slots and a removal's shift 8.5 on average,
   at 1/2 1.5 and 2.5: stress-1e6 a tenth faster, for a table a third
   larger); a freed slot is filled by shifting back the run after it, so
   there are no tombstones.
   A slot is 24 bytes:

      key:   the block's address (0: the slot is empty)
      info:  63      48 47                          0
            [  extra   |           Site*            ]
      size:  the requested size (32 bits) | tag (32 bits)

   e.g. a 40-byte block of site 0x7f12345670, with 8 bytes of slop and
   --heap-admin=8, tag 3: info 0x00107f12345670, size 40, tag 3.  A block
   of 4 GiB or more, or with 64 KiB or more of extra, has size BIG_SZB and
   its size and extra in 'big_blocks' (rare: one hash look-up more). */
typedef struct {
   Addr  key;
   UWord info;
   UInt  szB;
   UInt  tag;
} BlockRec;

/* A live block, as find_Block decodes it. */
typedef struct {
   Site* site;
   SizeT szB;
   UInt  tag;
   UInt  extra;
} Block;

#define SITE_BITS  48
#define SITE_MASK  ((1UL << SITE_BITS) - 1)
#define BIG_SZB    0xFFFFFFFFU
#define BIG_EXTRA  0xFFFFU

typedef struct _BigBlock {
   struct _BigBlock* next;
   UWord  key;                  // the block's address
   SizeT  szB;
   UInt   extra;
} BigBlock;

static BlockRec*    btab  = NULL;
static UWord        bcap  = 0;          // slots
static UWord        blive = 0;          // live blocks
static VgHashTable* big_blocks = NULL;  /* Addr -> BigBlock* */

/* The home slot of 'key' in a table of 'cap' slots: its hash scaled to it. */
static inline UWord slot_in(Addr key, UWord cap)
{
   return (UWord)(((unsigned __int128)(key * GOLDEN_MULT) * cap) >> 64);
}

static inline UWord slot_of(Addr key)
{
   return slot_in(key, bcap);
}

static inline UWord next_slot(UWord j)
{
   return j + 1 == bcap ? 0 : j + 1;
}

static void put_in_table(const BlockRec* r)
{
   UWord j;
   for (j = slot_of(r->key); btab[j].key != 0; j = next_slot(j))
      tl_assert(btab[j].key != r->key);
   btab[j] = *r;
}

/* The table, rebuilt with 'cap' slots: more than the arena's largest
   class, so a mapping of its own, zeroed (empty). */
static void rebuild_table(UWord cap)
{
   BlockRec* old = btab;
   UWord     old_cap = bcap, i;
   tl_assert(cap * sizeof(BlockRec) > ((SizeT)64 << 10));   // a new map
   BlockRec* fresh = arena_malloc(cap * sizeof(BlockRec));
   tl_assert(fresh != NULL);
   // Looked up at random: a table of many MiB in 4 KiB pages misses the
   // TLB at each look-up; huge pages where the system gives them.
   if (cap * sizeof(BlockRec) >= ((SizeT)4 << 20)) {
      UWord start = ((UWord)fresh + 4095) & ~(UWord)4095;   // madvise takes whole pages
      madvise((void*)start, (UWord)(fresh + cap) - start, MADV_HUGEPAGE);
   }
   __atomic_store_n(&btab, fresh, __ATOMIC_RELAXED);   // prefetch_Block reads them unlocked
   __atomic_store_n(&bcap, cap, __ATOMIC_RELAXED);
   for (i = 0; i < old_cap; i++)
      if (old[i].key != 0)
         put_in_table(&old[i]);
   if (old != NULL)
      arena_free(old);
}

/* Asks the processor to bring in the slot of 'key' while other work goes
   on, without the lock: in a table of a million blocks each look-up is a
   miss of the cache, which then overlaps with the C library's own (the
   chunk's header) or with the unwinding.  A prefetch never faults, so a
   table rebuilt meanwhile only makes it useless. */
static inline void prefetch_Block(Addr key)
{
   BlockRec* t   = __atomic_load_n(&btab, __ATOMIC_RELAXED);
   UWord     cap = __atomic_load_n(&bcap, __ATOMIC_RELAXED);
   if (t != NULL)
      __builtin_prefetch(&t[slot_in(key, cap)], 1);
}

/* The slot of 'key', and its block in '*b'; -1 if it is no live block. */
static Word find_Block(Addr key, Block* b)
{
   UWord j;
   if (btab == NULL)
      return -1;
   for (j = slot_of(key); btab[j].key != 0; j = next_slot(j))
      if (btab[j].key == key) {
         b->site  = (Site*)(btab[j].info & SITE_MASK);
         b->tag   = btab[j].tag;
         b->szB   = btab[j].szB;
         b->extra = (UInt)(btab[j].info >> SITE_BITS);
         if (UNLIKELY(b->szB == BIG_SZB)) {
            const BigBlock* g = VG_(HT_lookup)(big_blocks, key);
            tl_assert(g != NULL);
            b->szB   = g->szB;
            b->extra = g->extra;
         }
         return (Word)j;
      }
   return -1;
}

static void add_Block(Addr key, Site* s, SizeT szB, UInt tag, UInt extra)
{
   BlockRec r;
   tl_assert(key != 0 && ((UWord)s & ~SITE_MASK) == 0);
   if (btab == NULL || 2 * (blive + 1) > bcap)
      rebuild_table(btab == NULL ? 1 << 14 : 2 * bcap);
   r.key  = key;
   r.tag  = tag;
   if (szB < BIG_SZB && extra < BIG_EXTRA) {
      r.info = (UWord)s | ((UWord)extra << SITE_BITS);
      r.szB  = (UInt)szB;
   } else {
      BigBlock* g = VG_(malloc)("sn.big", sizeof(BigBlock));
      if (big_blocks == NULL)
         big_blocks = VG_(HT_construct)("sn.big_blocks");
      g->key   = key;
      g->szB   = szB;
      g->extra = extra;
      VG_(HT_add_node)(big_blocks, g);
      r.info = (UWord)s;
      r.szB  = BIG_SZB;
   }
   put_in_table(&r);
   blive++;
}

/* How many slots forward from 'a' to 'b', around the end of the table. */
static inline UWord cyclic_distance(UWord a, UWord b)
{
   return b >= a ? b - a : b + bcap - a;
}

/* The block in slot 'i' is forgotten: the run of slots after it is
   shifted back over it, each block no further from its home slot. */
static void remove_Block(Word i)
{
   UWord j = (UWord)i, h;
   if (btab[i].szB == BIG_SZB)
      VG_(free)(VG_(HT_remove)(big_blocks, btab[i].key));
   for (;;) {
      btab[i].key = 0;
      for (;;) {
         j = next_slot(j);
         if (btab[j].key == 0) {
            blive--;
            return;
         }
         h = slot_of(btab[j].key);
         // j's block may move to i when i lies cyclically in [h, j)
         if (cyclic_distance(h, j) >= cyclic_distance((UWord)i, j))
            break;
      }
      btab[i] = btab[j];
      i = (Word)j;
   }
}

/*------------------------------------------------------------*/
/*--- Recording                                            ---*/
/*------------------------------------------------------------*/

/* The raw stack of the operation under way, for unwind_FreeStack (under
   the lock); NULL when it has none. */
static const RawStack* op_stack = NULL;

/* Or the interned stack of the event being applied (the recorder
   thread's), whose free stack is found once. */
static StackRec* op_rec = NULL;

FreeStack* unwind_FreeStack(ThreadId tid)
{
   (void)tid;
   stats_free_unwinds++;
   if (op_rec != NULL) {
      if (op_rec->free_stack == NULL)
         op_rec->free_stack = get_FreeStack(op_rec->ips + op_rec->free_first,
                                            op_rec->free_end - op_rec->free_first);
      return op_rec->free_stack;
   }
   if (op_stack == NULL)
      return NULL;
   return get_FreeStack(op_stack->ips + op_stack->free_first,
                        op_stack->free_end - op_stack->free_first);
}

static Bool modules_stale = False;   // a new site has a frame in no module

/* The site of a raw stack, under the lock. */
static Site* site_of(const RawStack* st)
{
   ULong before = stats_sites;
   Site* s;
   if (st->site != NULL)        // the stack cache's (sn_stack.c)
      return st->site;
   s = get_Site_of_stack(st->ips + st->site_first,
                         st->site_end - st->site_first);
   if (stats_sites != before && !in_known_Modules(s->ips, s->n_ips))
      modules_stale = True;
   if (st->site_slot != NULL)
      *st->site_slot = s;
   return s;
}

static void after_unlock(void)
{
   if (UNLIKELY(modules_stale)) {
      modules_stale = False;
      refresh_Modules();
   }
}

/* Whether the C library's allocator is GNU libc's, whose chunk header
   (the word before a block: its chunk's size, the low bits flags) gives a
   block's usable size as its malloc_usable_size does, without that
   function's look at the next chunk's header (a miss of the cache at
   every malloc in a large heap).  Set when the recorder starts. */
static Bool glibc_chunks = False;

static Bool from_libc(void* fn, Dl_info* info)
{
   const HChar* slash;
   if (fn == NULL || dladdr(fn, info) == 0 || info->dli_fname == NULL)
      return False;
   slash = strrchr(info->dli_fname, '/');
   return strncmp(slash != NULL ? slash + 1 : info->dli_fname, "libc.so", 7) == 0;
}

static void check_glibc_chunks(void)
{
   Dl_info a, b;
   glibc_chunks = from_libc((void*)real.malloc, &a) && from_libc((void*)real.malloc_usable_size, &b)
                  && a.dli_fbase == b.dli_fbase;
}

/* The usable size of the live block 'p' of GNU libc's: its chunk's size
   less the header it shares (8 bytes), or, for a chunk of its own mapping
   (IS_MMAPPED, bit 1), less its whole header (16). */
static inline SizeT glibc_usable(const void* p)
{
   SizeT head = ((const SizeT*)p)[-1];
   return (head & ~(SizeT)7) - ((head & 2) != 0 ? 2 : 1) * sizeof(SizeT);
}

static UInt extra_of(void* p, SizeT req)
{
   SizeT usable = is_boot(p) ? req
                  : glibc_chunks ? glibc_usable(p) : real.malloc_usable_size(p);
   return (UInt)(clo_heap_admin + usable - req);
}

/* The recorder thread's events (below). */
typedef enum { EvNew = 1, EvFree, EvRenew } EvKind;
static void push_Event(EvKind kind, void* p, SizeT req, UInt extra,
                       RawStack* st);
static volatile Bool threaded = False;   // the recorder thread applies the events

/* The recorder thread takes the events over when the live blocks reach
   THREAD_AT_BLOCKS (STRATA_NATIVE_RECORDER=thread: from the start;
   =inline: never): with fewer, the block table's look-ups hit the cache,
   and the program's threads are faster doing the core's work themselves
   than passing it on, since a free then unwinds only when the core wants
   its stack.  Once taken over, for the rest of the run. */
#define THREAD_AT_BLOCKS  ((UWord)1 << 19)
static UWord thread_at = ~(UWord)0;     // none before sn_init (recorder_at)
static Bool  thread_asked = False;      // a thread is starting it

/* The thread that found the live blocks enough starts it, after the lock. */
static __thread Bool start_thread_here __attribute__((tls_model("initial-exec")));

/* The writer thread (st_write.c): once the program has threads of its own
   (glibc's __libc_single_threaded false), the profile is written by a
   thread of the recorder's, so that no thread of the program writes to
   the file holding the core's lock that its other threads wait for.  A
   single-threaded program writes it itself (no other thread waits, and a
   second thread would cost the C library's allocator its single-threaded
   shortcuts: stress-1e3 0.34 -> 0.45 s with a thread merely asleep); the
   recorder thread writes it itself.  Started, once, by the thread that
   finds the program multi-threaded, after the lock. */
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define MULTI_THREADED()  (!__libc_single_threaded)
#else
#define MULTI_THREADED()  False
#endif
static Bool writer_asked = False;
static __thread Bool start_writer_here __attribute__((tls_model("initial-exec")));
static void start_writer_thread(void);

static void apply_all_events(void);
static void start_recorder_thread(void);

/* Under the core's lock, after a block is added: when the live blocks
   are enough, this thread starts the recorder thread once it has released
   the lock (record_new), and the events go to it from then on. */
static inline void take_to_thread(void)
{
   if (UNLIKELY(blive >= thread_at && !thread_asked)) {
      thread_asked      = True;
      start_thread_here = True;
   }
   if (UNLIKELY(!writer_asked && MULTI_THREADED() && !threaded)) {
      writer_asked      = True;
      start_writer_here = True;
   }
}

/* The core's lock, for a thread doing the core's work itself: a thread
   that found the events still its own as the recorder thread took them
   over applies those appended since first, so that the order holds. */
static inline void lock_core_inline(void)
{
   lock_core();
   if (UNLIKELY(threaded))
      apply_all_events();
}

/* A recorded block that the C library freed from inside the recorder (a
   setenv of the recorder's giving back the program's environment array),
   whose address comes back: it died then, without a free stack. */
static void forget_stale(void* p)
{
   Block b;
   Word  i = find_Block((Addr)p, &b);
   if (i < 0)
      return;
   record_death(VG_INVALID_THREADID, b.site, p, b.tag, b.szB, b.extra);
   count_free_call();
   remove_Block(i);
}

/* A block made at the site 's', under the lock. */
static void apply_new_at(void* p, SizeT req, UInt extra, Site* s)
{
   clock_before_op();
   forget_stale(p);
   add_Block((Addr)p, s, req, record_birth(s, req, extra), extra);
   count_call(s, req, p);
   clock_after_op();
}

/* A block made directly by an --ignore-fn function, under the lock: the
   call counts, the block is in no table. */
static void apply_ignored(void* p)
{
   clock_before_op();
   forget_stale(p);
   count_ignored_call();
   clock_after_op();
}

/* A block 'p' of 'req' bytes was just made, at the stack 'st', under the
   lock.  Made directly by an --ignore-fn function, the call counts but its
   block is in no table (its free and realloc go straight to the C
   library). */
static void apply_new(void* p, SizeT req, UInt extra, const RawStack* st)
{
   if (state != Recording)
      return;
   if (st != NULL && UNLIKELY(st->ignored))
      apply_ignored(p);
   else
      apply_new_at(p, req, extra, st != NULL ? site_of(st) : no_stack_site);
}

static void record_new(void* p, SizeT req, const RawStack* st)
{
   UInt extra = extra_of(p, req);
   lock_core_inline();
   apply_new(p, req, extra, st);
   take_to_thread();
   unlock_core();
   after_unlock();
   if (UNLIKELY(start_thread_here)) {
      start_thread_here = False;
      start_recorder_thread();
   }
   if (UNLIKELY(start_writer_here)) {
      start_writer_here = False;
      start_writer_thread();
   }
}

/* Inlined into each wrapper, so that the stack is unwound from the
   wrapper's frame (UNWIND_HERE). */
static inline __attribute__((always_inline)) void* recorded(void* p, SizeT req)
{
   RawStack st;
   if (p == NULL)
      return NULL;
   if (threaded) {
      UNWIND_HERE(&st, clo_depth);
      push_Event(EvNew, p, req, extra_of(p, req), &st);
      return p;
   }
   prefetch_Block((Addr)p);
   UNWIND_HERE(&st, clo_depth);
   record_new(p, req, &st);
   return p;
}

/* The lock taken, the slot of the live block 'p' and the block in '*b';
   -1, the lock not held, if 'p' is no block recorded. */
static Word locked_Block(const void* p, Block* b)
{
   Word i;
   lock_core_inline();
   i = state == Recording ? find_Block((Addr)p, b) : -1;
   if (i < 0)
      unlock_core();
   return i;
}

/* The thread's last frees in a row that needed a free stack, up to 4. */
static __thread UInt old_frees __attribute__((tls_model("initial-exec")));

/* The block 'p' is freed: recorded as dead, and forgotten, before the C
   library may give its address again. */
static inline __attribute__((always_inline)) void forget(void* p)
{
   RawStack st;
   Block    b;
   Bool     unwound = False, needs;
   Word     i;
   if (threaded) {
      UNWIND_HERE(&st, clo_free_depth);
      push_Event(EvFree, p, 0, 0, &st);
      return;
   }
   /* A thread whose last two frees or more needed their stacks (blocks
      born before the epoch under way) unwinds this one's first, before
      the lock, while the block's slot and chunk come in, and takes the
      lock once; else after the look-up, if it needs it (a temporary's
      free does not), taking the lock again. */
   if (old_frees >= 2) {
      UNWIND_HERE(&st, clo_free_depth);
      unwound = True;
   }
   i = locked_Block(p, &b);
   if (i < 0)
      return;
   clock_before_op();
   needs = death_needs_FreeStack(b.tag);
   old_frees = needs ? (old_frees < 4 ? old_frees + 1 : 4) : 0;
   if (needs && !unwound) {
      unlock_core();
      UNWIND_HERE(&st, clo_free_depth);
      i = locked_Block(p, &b);
      if (i < 0)
         return;
      clock_before_op();
   }
   if (needs)
      op_stack = &st;
   record_death(1, b.site, p, b.tag, b.szB, b.extra);
   count_free_call();
   remove_Block(i);
   clock_after_op();
   op_stack = NULL;
   unlock_core();
}

/* The block in slot 'i' ('*b'), 'old', is now 'p' of 'n' bytes ('extra'
   the allocator's), made by a realloc at 'st': the block moves to the
   realloc's site in one step, its lifetimes with it; a realloc made
   directly by an --ignore-fn function leaves it at its site, with its new
   size.  Under the lock, after clock_before_op. */
static void apply_renew(Word i, const Block* b, void* old, void* p, SizeT n,
                        UInt extra, const RawStack* st)
{
   Site* site;
   Site* old_site  = b->site;
   SizeT old_req   = b->szB, kept;
   UInt  tag       = b->tag;
   remove_Block(i);
   if (n < old_req)
      update_peak();
   take_from_totals(old_req, b->extra);
   site = st->ignored ? old_site : site_of(st);   // --ignore-fn: it stays
   if (site != old_site) {
      change_Site(old_site, 0, old_req, -1);
      count_alloc(site, n, extra);
   } else {
      change_Site(site, n, old_req, 0);
      add_to_totals(n, extra);
   }
   op_stack = st;
   if (lt_on) {
      kept = n < old_req ? n : old_req;
      rekey_Block((UWord)old, (UWord)p, tag);
      tag = resize_lifetimes(1, old_site, (UWord)p, True, tag, old_req, kept);
      if (site != old_site)
         move_Block(1, old_site, site, (UWord)p, tag, kept);
      tag = resize_lifetimes(1, site, (UWord)p, True, tag, kept, n);
   }
   count_call(site, n, p);
   add_Block((Addr)p, site, n, tag, extra);
   clock_after_op();
   op_stack = NULL;
}

/* realloc of a recorded block, as the tool's renew_block (apply_renew).
   A block not recorded stays so. */
static void* renew(void* old, SizeT n)
{
   RawStack  st;
   Block     b;
   Word      i;
   void*     p;
   unwind_RawStack(&st, clo_depth > clo_free_depth ? clo_depth : clo_free_depth);
   i = locked_Block(old, &b);
   if (i < 0)
      return real.realloc(old, n);
   clock_before_op();
   p = real.realloc(old, n);
   if (p == NULL) {
      unlock_core();
      return NULL;
   }
   apply_renew(i, &b, old, p, n, extra_of(p, n), &st);
   unlock_core();
   after_unlock();
   return p;
}

/*------------------------------------------------------------*/
/*--- The recorder thread                                  ---*/
/*------------------------------------------------------------*/

/* Once the live blocks reach THREAD_AT_BLOCKS (after the library's
   constructor, sn_init), the core's work moves to a thread of the
   recorder's own: a program's thread unwinds its stack,
   as before, and appends the operation to a ring (the events), which the
   recorder thread applies to the block table and the core, in order,
   under the core's lock, on the other processor.  The order of the ring
   is the order of the C library's: a malloc's event is appended after the
   C library returns its block, a free's before the C library gets it
   back, and a realloc holds the ring's lock across the C library's
   realloc, so that no thread's event for an address comes before the
   event that gave it back.  Without the block table at hand a free cannot
   tell whether its block was born in an earlier epoch, so it unwinds its
   stack always (--free-depth frames), and the recorder thread keeps it
   only when the core wants it.  A thread that finds the ring full applies
   events itself, under the lock.  The events are applied before anything
   else reads or ends the profile: a marker, an exec, a fork, a dlclose,
   the end. */

/* An event: an operation and its stack, by id (id_of_RawStack), so that
   little crosses from one processor to the other. */
typedef struct {
   Addr  p, old;
   SizeT req;
   UInt  stack;          // id_of_RawStack's, 0: none
   UInt  extra;
   UInt  kind;           // EvKind
   UInt  unused;
} Event;

#define RING_EVENTS  ((UWord)1 << 18)   // a power of 2; room for the recorder
                                        // thread's pauses while the table grows

/* Each on a cache line of its own: the recorder thread writes the head
   and reads the tail, the program's threads take the lock, read the head
   and write the tail. */
#define LINE __attribute__((aligned(64)))
static Event*          ring = NULL;
static UWord           ring_head LINE = 0;  // events applied (the recorder's)
static UWord           ring_tail LINE = 0;  // events appended (under ring_lock)
static UWord           seen_head = 0;       // the head as last read (under ring_lock)
static Int             ring_lock LINE = 0;   // ring_lock_take, ring_lock_give

/* The ring's lock: a spin lock, held for a few stores (and a realloc),
   whose release is a plain store, so that the thread goes on while the
   event's cache line comes over from the recorder thread's processor.
   A thread that spins long yields. */
static inline void ring_lock_take(void)
{
   UInt spins = 0;
   while (__atomic_exchange_n(&ring_lock, 1, __ATOMIC_ACQUIRE) != 0) {
      while (__atomic_load_n(&ring_lock, __ATOMIC_RELAXED) != 0) {
         if (++spins < 1000)
            __builtin_ia32_pause();
         else
            sched_yield();
      }
   }
}

static inline void ring_lock_give(void)
{
   __atomic_store_n(&ring_lock, 0, __ATOMIC_RELEASE);
}

static void apply_events(UWord max);

/* The ring full, its head at 'head': the recorder thread is given a
   moment to apply some (a spin); if it makes no progress (it may be
   waiting for a lock this thread holds: the dynamic linker's, inside a
   dlopen), this thread applies them itself, under the core's lock. */
static void wait_for_room(UWord head)
{
   UInt spins;
   for (spins = 0; spins < 20000; spins++) {
      if (__atomic_load_n(&ring_head, __ATOMIC_ACQUIRE) != head)
         return;
      __builtin_ia32_pause();
   }
   lock_core();
   apply_events(~(UWord)0);
   unlock_core();
}

/* The slot of the next event, under ring_lock; when the ring is full,
   wait_for_room. */
static Event* reserve_Event(void)
{
   while (ring_tail - seen_head >= RING_EVENTS) {
      seen_head = __atomic_load_n(&ring_head, __ATOMIC_ACQUIRE);
      if (ring_tail - seen_head >= RING_EVENTS)
         wait_for_room(seen_head);
   }
   return &ring[ring_tail & (RING_EVENTS - 1)];
}

static void commit_Event(void)
{
   __atomic_store_n(&ring_tail, ring_tail + 1, __ATOMIC_RELEASE);
   __builtin_prefetch(&ring[(ring_tail + 8) & (RING_EVENTS - 1)], 1);   // a few events ahead, to write
}

static void push_Event(EvKind kind, void* p, SizeT req, UInt extra,
                       RawStack* st)
{
   UInt   id = id_of_RawStack(st);
   Event* e;
   ring_lock_take();
   e = reserve_Event();
   e->kind  = kind;
   e->p     = (Addr)p;
   e->req   = req;
   e->extra = extra;
   e->stack = id;
   commit_Event();
   ring_lock_give();
}

/* The raw stack of an interned one (for its free stack, a realloc), under
   the lock. */
static const RawStack* raw_of_id(UInt id)
{
   static RawStack st;
   const StackRec* r = stack_of_id(id);
   if (r == NULL)
      return NULL;
   st.n          = r->n;
   st.site_first = r->site_first;
   st.site_end   = r->site_end;
   st.free_first = r->free_first;
   st.free_end   = r->free_end;
   st.ignored    = r->ignored;
   st.site       = r->site;
   st.site_slot  = NULL;
   memcpy(st.ips, r->ips, r->n * sizeof(Addr));
   return &st;
}

/* The site of an interned stack, found once. */
static Site* site_of_id(UInt id)
{
   StackRec* r = stack_of_id(id);
   if (r == NULL)
      return no_stack_site;
   if (r->site == NULL)
      r->site = site_of(raw_of_id(id));
   return r->site;
}

static void forget_site_of(StackRec* r)
{
   r->site       = NULL;
   r->free_stack = NULL;
}

static void apply_free(void* p, UInt stack)
{
   Block b;
   Word  i = find_Block((Addr)p, &b);
   if (i < 0)
      return;
   clock_before_op();
   op_rec = stack_of_id(stack);
   record_death(1, b.site, p, b.tag, b.szB, b.extra);
   count_free_call();
   remove_Block(i);
   clock_after_op();
   op_rec = NULL;
}

static void apply_Event(const Event* e)
{
   if (e->kind == EvNew) {
      const StackRec* r = stack_of_id(e->stack);
      if (r != NULL && r->ignored)
         apply_ignored((void*)e->p);
      else
         apply_new_at((void*)e->p, e->req, e->extra, site_of_id(e->stack));
   } else if (e->kind == EvFree) {
      apply_free((void*)e->p, e->stack);
   } else if (e->kind == EvRenew) {
      Block b;
      Word  i = find_Block(e->old, &b);
      const RawStack* st = raw_of_id(e->stack);
      if (i >= 0 && st != NULL) {
         clock_before_op();
         apply_renew(i, &b, (void*)e->old, (void*)e->p, e->req, e->extra, st);
      }
   }
}

#define PREFETCH_EVENTS 8

/* The table slot of the event 'at' asked for ahead. */
static inline void prefetch_Event(UWord at)
{
   const Event* e = &ring[at & (RING_EVENTS - 1)];
   prefetch_Block(e->kind == EvRenew ? e->old : e->p);
}

/* Applies the events appended, at most 'max', under the lock. */
static void apply_events(UWord max)
{
   UWord head = ring_head, ahead;
   UWord tail = __atomic_load_n(&ring_tail, __ATOMIC_ACQUIRE);
   // The block table's slots of the next events asked for ahead: each is
   // a miss of the cache in a large table, which then overlap.
   for (ahead = head; ahead != tail && ahead - head < PREFETCH_EVENTS; ahead++)
      prefetch_Event(ahead);
   for (; head != tail && max > 0; max--, head++) {
      if ((max & 31) == 0)     // the events before: room for the threads waiting
         __atomic_store_n(&ring_head, head, __ATOMIC_RELEASE);
      if (ahead != tail)
         prefetch_Event(ahead++);
      if (state == Recording)
         apply_Event(&ring[head & (RING_EVENTS - 1)]);
   }
   __atomic_store_n(&ring_head, head, __ATOMIC_RELEASE);
}

/* The events appended so far applied, under the lock: before anything
   else reads or ends the profile. */
static void apply_all_events(void)
{
   if (ring != NULL)
      apply_events(~(UWord)0);
}

#define BATCH_EVENTS  4096
#define NAP_LEAST_US  50
#define NAP_MOST_US   2000    // the ring fills in 80 ms at 3 million events a second

/* The recorder thread: batches of events under the lock, and between
   them a nap that grows while few events come (an idle program, or one
   that allocates seldom, costs it a wake-up every 2 ms at most) and
   shrinks when many do; none while a whole batch waits. */
static void* recorder_main(void* unused)
{
   UInt nap_us = 0;
   (void)unused;
   in_strata++;            // its own calls go to the C library
   for (;;) {
      UWord applied;
      lock_core();
      if (state != Recording) {
         unlock_core();
         return NULL;
      }
      applied = ring_head;
      apply_events(BATCH_EVENTS);
      applied = ring_head - applied;
      unlock_core();
      after_unlock();
      if (applied == BATCH_EVENTS)
         nap_us = 0;
      else if (applied < BATCH_EVENTS / 8)
         nap_us = nap_us == 0 ? NAP_LEAST_US : nap_us * 2 > NAP_MOST_US ? NAP_MOST_US : nap_us * 2;
      else
         nap_us = nap_us / 2 < NAP_LEAST_US ? NAP_LEAST_US : nap_us / 2;
      if (nap_us > 0) {
         struct timespec nap = { 0, (long)nap_us * 1000 };
         nanosleep(&nap, NULL);
      }
   }
}

/* A detached thread of the recorder's running 'main', with every signal
   blocked in it (the program's handlers never run there); whether it
   started.  Started from a malloc (take_to_thread): the thread's own
   memory comes from the C library (the guard), its stack from mmap. */
static Bool start_own_thread(void* (*main_fn)(void*))
{
   pthread_t      t;
   pthread_attr_t attr;
   sigset_t       all, old;
   Bool           started;
   sigfillset(&all);
   pthread_sigmask(SIG_SETMASK, &all, &old);
   pthread_attr_init(&attr);
   pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
   started = pthread_create(&t, &attr, main_fn, NULL) == 0;
   pthread_attr_destroy(&attr);
   pthread_sigmask(SIG_SETMASK, &old, NULL);
   return started;
}

/* The recorder thread started; the events go to it from now on. */
static void start_recorder_thread(void)
{
   if (state != Recording)
      return;
   if (ring == NULL)
      ring = arena_malloc(RING_EVENTS * sizeof(Event));
   if (ring == NULL || !start_own_thread(recorder_main))
      return;
   lock_core();
   __atomic_store_n(&threaded, True, __ATOMIC_RELEASE);
   unlock_core();
}

/* The writer thread's look when nothing came for a while: what is
   buffered goes to the file, unless another thread holds the core's lock
   (it flushes, or will). */
static void writer_idle(void)
{
   if (pthread_mutex_trylock(&core_lock) != 0)
      return;
   if (state == Recording && is_open_Writer())
      flush_idle_Writer();
   unlock_core();
}

static void* writer_main(void* unused)
{
   (void)unused;
   in_strata++;       // its own calls go straight to the C library
   run_Writer(writer_idle);
   return NULL;
}

/* The writer thread started; the flushes go to it from now on. */
static void start_writer_thread(void)
{
   if (state != Recording || !start_own_thread(writer_main))
      return;
   lock_core();
   start_async_Writer();
   unlock_core();
}

/* From the library's constructor on (and in a forked child), the recorder
   thread may take the events over: at THREAD_AT_BLOCKS live blocks, from
   the start with STRATA_NATIVE_RECORDER=thread, never with =inline. */
static void recorder_at(void)
{
   const HChar* mode = getenv("STRATA_NATIVE_RECORDER");
   thread_asked = False;
   if (mode != NULL && strcmp(mode, "inline") == 0)
      thread_at = ~(UWord)0;
   else if (mode != NULL && strcmp(mode, "thread") == 0)
      thread_at = 0;
   else
      thread_at = THREAD_AT_BLOCKS;
}

/* realloc, with the recorder thread: the C library's realloc under the
   ring's lock, its event appended before the lock is released. */
static void* renew_threaded(void* old, SizeT n)
{
   RawStack st;
   Event*   e;
   UInt     id;
   void*    p;
   unwind_RawStack(&st, clo_depth > clo_free_depth ? clo_depth : clo_free_depth);
   id = id_of_RawStack(&st);
   ring_lock_take();
   e = reserve_Event();
   p = real.realloc(old, n);
   if (p != NULL) {
      e->kind  = EvRenew;
      e->p     = (Addr)p;
      e->old   = (Addr)old;
      e->req   = n;
      e->extra = extra_of(p, n);
      e->stack = id;
      commit_Event();
   }
   ring_lock_give();
   return p;
}

/*------------------------------------------------------------*/
/*--- Malloc wrappers                                      ---*/
/*------------------------------------------------------------*/

/* Whether this call is recorded; if not, the caller serves it from the C
   library (or, while dlsym works, from the bootstrap buffer). */
static inline Bool recording(void)
{
   if (UNLIKELY(state != Recording))
      ensure_started();
   return state == Recording && in_strata == 0;
}

/* The block 'p' of 'req' bytes, just made by the C library (whose
   allocation functions never call these wrappers), recorded inside the
   recorder. */
static inline __attribute__((always_inline)) void* guarded(void* p, SizeT req)
{
   in_strata++;
   recorded(p, req);
   in_strata--;
   return p;
}

EXPORT void* malloc(size_t n)
{
   if (!recording())
      return state == Resolving ? boot_alloc(n, 16) : real.malloc(n);
   return guarded(real.malloc(n), n);
}

EXPORT void* calloc(size_t m, size_t size)
{
   if (!recording())
      return state == Resolving
                ? (size != 0 && m > (size_t)-1 / size ? NULL
                                                      : boot_alloc(m * size, 16))
                : real.calloc(m, size);
   return guarded(real.calloc(m, size), m * size);
}

EXPORT void free(void* p)
{
   if (p == NULL)
      return;
   if (!recording()) {
      if (!is_boot(p))
         real.free(p);
      return;
   }
   in_strata++;
   if (!threaded)
      prefetch_Block((Addr)p);
   __builtin_prefetch((const char*)p - sizeof(SizeT));   // the chunk's header, for free
   forget(p);
   if (!is_boot(p))
      real.free(p);
   in_strata--;
}

EXPORT void* realloc(void* old, size_t n)
{
   void* p;
   if (old != NULL && is_boot(old)) {    // out of the buffer, into the heap
      SizeT i, have = 0;
      for (i = 0; i < n_boot_blocks; i++)
         if (boot_blocks[i].p == old)
            have = boot_blocks[i].szB;
      p = malloc(n);
      if (p != NULL)
         memcpy(p, old, have < n ? have : n);
      free(old);
      return p;
   }
   if (!recording())
      return state == Resolving ? boot_alloc(n, 16) : real.realloc(old, n);
   if (old == NULL)
      return malloc(n);
   if (n == 0) {                         // glibc's: frees, returns NULL
      free(old);
      return NULL;
   }
   in_strata++;
   p = threaded ? renew_threaded(old, n) : renew(old, n);
   in_strata--;
   return p;
}

EXPORT void* memalign(size_t align, size_t n)
{
   if (!recording())
      return state == Resolving ? boot_alloc(n, align) : real.memalign(align, n);
   return guarded(real.memalign(align, n), n);
}

EXPORT void* aligned_alloc(size_t align, size_t n)
{
   if (!recording())
      return state == Resolving ? boot_alloc(n, align)
                                : real.aligned_alloc(align, n);
   return guarded(real.aligned_alloc(align, n), n);
}

EXPORT int posix_memalign(void** out, size_t align, size_t n)
{
   Int r;
   if (!recording()) {
      if (state != Resolving)
         return real.posix_memalign(out, align, n);
      *out = boot_alloc(n, align);
      return *out ? 0 : ENOMEM;
   }
   r = real.posix_memalign(out, align, n);
   if (r == 0)
      guarded(*out, n);
   return r;
}

EXPORT void* valloc(size_t n)
{
   if (!recording())
      return state == Resolving ? boot_alloc(n, 4096) : real.valloc(n);
   return guarded(real.valloc(n), n);
}

EXPORT void* pvalloc(size_t n)
{
   if (!recording())
      return state == Resolving ? boot_alloc((n + 4095) & ~4095UL, 4096)
                                : real.pvalloc(n);
   return guarded(real.pvalloc(n), (n + 4095) & ~4095UL);   // as the tool counts it
}

/* The C++ operators new with an alignment: libstdc++'s round the size up
   to the alignment before aligned_alloc, so they are recorded here, with
   the size asked for (as the tool records them).  The operator itself is
   libstdc++'s (found when first called), run inside the recorder; it may
   throw std::bad_alloc through this frame (built with -fexceptions), and
   the guard is released as it goes. */
typedef void* (*AlignedNew)(size_t, size_t);
typedef void* (*AlignedNewNothrow)(size_t, size_t, const void*);

static void leave_strata(Int* unused)
{
   (void)unused;
   in_strata--;
}

static void* aligned_new(const HChar* name, AlignedNew* fn, size_t n,
                         size_t align)
{
   Int   guard __attribute__((cleanup(leave_strata))) = 0;
   Bool  rec = recording();
   void* p;
   if (*fn == NULL)
      *fn = (AlignedNew)next_fn(name);
   in_strata++;
   p = (*fn)(n, align);
   return rec ? recorded(p, n) : p;
}

static void* aligned_new_nothrow(const HChar* name, AlignedNewNothrow* fn,
                                 size_t n, size_t align, const void* tag)
{
   Int   guard __attribute__((cleanup(leave_strata))) = 0;
   Bool  rec = recording();
   void* p;
   if (*fn == NULL)
      *fn = (AlignedNewNothrow)next_fn(name);
   in_strata++;
   p = (*fn)(n, align, tag);
   return rec ? recorded(p, n) : p;
}

#define ALIGNED_NEW(sym)                                                  \
   EXPORT void* sym(size_t n, size_t align);                              \
   EXPORT void* sym(size_t n, size_t align)                               \
   {                                                                      \
      static AlignedNew fn;                                               \
      return aligned_new(#sym, &fn, n, align);                            \
   }
#define ALIGNED_NEW_NOTHROW(sym)                                          \
   EXPORT void* sym(size_t n, size_t align, const void* tag);             \
   EXPORT void* sym(size_t n, size_t align, const void* tag)              \
   {                                                                      \
      static AlignedNewNothrow fn;                                        \
      return aligned_new_nothrow(#sym, &fn, n, align, tag);               \
   }

ALIGNED_NEW(_ZnwmSt11align_val_t)                        // new(n, align)
ALIGNED_NEW(_ZnamSt11align_val_t)                        // new[](n, align)
ALIGNED_NEW_NOTHROW(_ZnwmSt11align_val_tRKSt9nothrow_t)  // ... nothrow
ALIGNED_NEW_NOTHROW(_ZnamSt11align_val_tRKSt9nothrow_t)

/*------------------------------------------------------------*/
/*--- Client requests: markers                             ---*/
/*------------------------------------------------------------*/

/* strata.h's requests, natively (the numbers are the client requests'). */
#define REQ_MARK      0x53540000UL   // VG_USERREQ_TOOL_BASE('S', 'T')
#define REQ_SNAPSHOT  0x53540001UL

static ULong stats_bad_labels = 0;

/* The label copied, if the program can read it (process_vm_readv reads
   this process's memory without a fault): its first MARKER_LABEL_MAX
   bytes, a page at a time. */
static Bool copy_label(const HChar* label, HChar* copy)
{
   SizeT got = 0;
   while (got < MARKER_LABEL_MAX) {
      Addr  a    = (Addr)label + got;
      SizeT page = 4096 - (a & 4095);
      SizeT want = MARKER_LABEL_MAX - got < page ? MARKER_LABEL_MAX - got : page;
      struct iovec local  = { copy + got, want };
      struct iovec remote = { (void*)a, want };
      if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)want)
         return False;
      if (memchr(copy + got, '\0', want) != NULL)
         return True;
      got += want;
   }
   copy[MARKER_LABEL_MAX] = '\0';
   return True;
}

EXPORT void strata_native_request(unsigned long request, const char* label);
EXPORT void strata_native_request(unsigned long request, const char* label)
{
   HChar copy[MARKER_LABEL_MAX + 1];
   if (!recording())
      return;
   in_strata++;
   if (request == REQ_MARK && label != NULL && !copy_label(label, copy)) {
      if (stats_bad_labels++ == 0)
         VG_(umsg)("strata: STRATA_MARK with a label at %p that cannot be "
                   "read: no marker; further ones are not reported\n", label);
      in_strata--;
      return;
   }
   lock_core();
   apply_all_events();
   if (state == Recording && request == REQ_MARK)
      write_marker(label != NULL ? copy : NULL);
   else if (state == Recording && request == REQ_SNAPSHOT) {
      check_clock(False);
      take_snapshot(SnapUser);
   }
   unlock_core();
   in_strata--;
}

/*------------------------------------------------------------*/
/*--- Output                                               ---*/
/*------------------------------------------------------------*/

static ULong now(void)
{
   return get_time();
}

static void put_cmd(void)
{
   SizeT i;
   put_str("cmd\t");
   for (i = 0; i < cmdline_szB; i += strlen(cmdline + i) + 1) {
      if (i > 0)
         put_char(' ');
      put_text(cmdline + i);
   }
   put_nl();
}

static void write_header(void)
{
   HChar num[64];
   UInt  i;
   Bool  ignore;
   put_str("strata-profile\t3\n");
   put_cmd();
   put_str("pid");  put_field_u64(getpid());  put_nl();
   put_str("ppid"); put_field_u64(getppid()); put_nl();
   put_str("time_unit\t");
   put_str(clo_time_unit == TimeB ? "B" : "ms");
   put_nl();
   put_str("opt\tnative\tyes\n");
   put_str("opt\tdepth");      put_field_u64(clo_depth);      put_nl();
   put_str("opt\theap_admin"); put_field_u64(clo_heap_admin); put_nl();
   VG_(snprintf)(num, sizeof(num), "%.3f", clo_peak_inaccuracy);
   put_str("opt\tpeak_inaccuracy"); put_field_text(num); put_nl();
   put_str("opt\theap\tyes\nopt\tstacks\tno\nopt\tpages_as_heap\tno\n");
   for (i = 0; i < n_fn_patterns(); i++) {
      const HChar* pattern = fn_pattern(i, &ignore);
      put_str(ignore ? "opt\tignore_fn" : "opt\talloc_fn");
      put_field_text(pattern);
      put_nl();
   }
   put_str("opt\tlifetimes\tyes\n");
   put_str("opt\tfree_stacks\t");
   put_str(clo_free_stacks ? "yes" : "no");
   put_nl();
   put_str("opt\tfree_depth"); put_field_u64(clo_free_depth); put_nl();
   if (clo_time_unit == TimeMS)
      put_str("opt\tepoch_unit\tB\n");
   if (clo_threshold >= 0.0) {
      VG_(snprintf)(num, sizeof(num), "%.3f", clo_threshold);
      put_str("opt\tthreshold"); put_field_text(num); put_nl();
   }
}

/*------------------------------------------------------------*/
/*--- The profile's name                                   ---*/
/*------------------------------------------------------------*/

/* As the tool's: --out-file expanded (%p the pid, %n 1, %q{VAR} $VAR, %%
   a %), absolute; .execN after the Nth exec of the process (with
   --trace-children=yes).  STRATA_NATIVE_IMAGE ("PID EXECS LEDGER-FD
   BASE") says what the process had before its exec: the image that starts
   with the same pid is the next exec of that process. */
static HChar base_name[4096];
static UInt  exec_count = 0;

static void expand_name(const HChar* pattern, HChar* out, SizeT size)
{
   SizeT n = 0;
   const HChar* p;
   if (pattern[0] != '/' && getcwd(out, size - 2) != NULL) {
      n = strlen(out);
      out[n++] = '/';
   }
   for (p = pattern; *p && n < size - 32; p++) {
      if (p[0] != '%') {
         out[n++] = *p;
      } else if (p[1] == 'p') {
         n += VG_(snprintf)(out + n, size - n, "%d", (Int)getpid());
         p++;
      } else if (p[1] == 'n') {
         out[n++] = '1';
         p++;
      } else if (p[1] == '%') {
         out[n++] = '%';
         p++;
      } else if (p[1] == 'q' && p[2] == '{' && strchr(p, '}') != NULL) {
         const HChar* end = strchr(p, '}');
         HChar var[256];
         const HChar* v;
         SizeT len = end - (p + 3) < 255 ? end - (p + 3) : 255;
         memcpy(var, p + 3, len);
         var[len] = '\0';
         v = getenv(var) ? getenv(var) : start_getenv(var);
         for (; v && *v && n < size - 32; v++)
            out[n++] = *v;
         p = end;
      } else {
         out[n++] = *p;
      }
   }
   out[n] = '\0';
}

static void note_pid(const HChar* kind, const HChar* a, const HChar* b)
{
   HChar pid[16];
   VG_(snprintf)(pid, sizeof(pid), "%d", (Int)getpid());
   note_Ledger(kind, pid, a, b);
}

static void open_Output(void)
{
   HChar full[4200];
   UWord err;
   VG_(snprintf)(full, sizeof(full), exec_count > 0 ? "%s.exec%u" : "%s",
                 base_name, exec_count);
   err = open_Writer(full, now);
   if (err != 0) {
      note_pid("F", full, strerror(err));
      VG_(umsg)("strata: cannot create the profile file '%s': %s; process "
                "%d runs on without a profile\n", full, strerror(err),
                (Int)getpid());
      return;
   }
   note_pid("P", full, NULL);
   write_header();
   flush_Writer();
}

/* STRATA_NATIVE_IMAGE, for the next image of this process. */
static void pass_image(void)
{
   HChar text[4200];
   if (!clo_trace_children)
      return;
   VG_(snprintf)(text, sizeof(text), "%d %u %d %s", (Int)getpid(),
                 exec_count, fd_Ledger(), base_name);
   setenv("STRATA_NATIVE_IMAGE", text, 1);
}

static void take_image(void)
{
   const HChar* image = start_getenv("STRATA_NATIVE_IMAGE");
   Int   pid, fd, used = 0;
   UInt  count;
   if (image != NULL
       && sscanf(image, "%d %u %d %n", &pid, &count, &fd, &used) == 3
       && used > 0 && pid == getpid()) {
      exec_count = count + 1;
      VG_(strncpy)(base_name, image + used, sizeof(base_name) - 1);
      clo_record_fd = fd;
      return;
   }
   expand_name(clo_out_file, base_name, sizeof(base_name));
}

/* Takes this library out of LD_PRELOAD (without --trace-children=yes), so
   that no program the process runs is recorded. */
static void hide_library(void)
{
   const HChar* preload = getenv("LD_PRELOAD");
   HChar        rest[8192];
   SizeT        n = 0;
   HChar        copy[8192];
   HChar*       save = NULL;
   HChar*       item;
   if (clo_trace_children || preload == NULL || environ == NULL)
      return;
   VG_(strncpy)(copy, preload, sizeof(copy) - 1);
   rest[0] = '\0';
   for (item = strtok_r(copy, ": ", &save); item != NULL;
        item = strtok_r(NULL, ": ", &save)) {
      if (strcmp(item, lib_path) == 0 || n + strlen(item) + 2 > sizeof(rest))
         continue;
      n += VG_(snprintf)(rest + n, sizeof(rest) - n, "%s%s", n ? ":" : "", item);
   }
   if (n == 0)
      unsetenv("LD_PRELOAD");
   else
      setenv("LD_PRELOAD", rest, 1);
}

/*------------------------------------------------------------*/
/*--- dlclose                                              ---*/
/*------------------------------------------------------------*/

/* An object unloaded: its code addresses may be another's next (the
   modules, sn_stack.c).  dlopen is not wrapped: the C library's finds
   the object by its caller's search path, which a wrapper would change;
   a new object is found when a stack has a frame in no module. */
EXPORT int dlclose(void* handle)
{
   int r;
   ensure_started();
   if (state == Recording && threaded) {   // its frames named while it is there
      in_strata++;
      lock_core();
      apply_all_events();
      for_each_StackRec(forget_site_of);   // another object may come there
      unlock_core();
      in_strata--;
   }
   r = real.dlclose(handle);
   if (state == Recording) {
      in_strata++;
      forget_closed_Modules();
      in_strata--;
   }
   return r;
}

/*------------------------------------------------------------*/
/*--- Fork, exec, exit                                     ---*/
/*------------------------------------------------------------*/

/* A forked child writes a profile of its own, as the tool's: frames and
   sites anew, its counts from 0, the heap it inherited its first snapshot.
   When --out-file names the same file for the child as for its parent (no
   %p), the child's is its parent's name followed by .PID. */
static void atfork_prepare(void)
{
   stacks_atfork_prepare();
   ring_lock_take();
   lock_core();
   apply_all_events();
   arena_atfork_prepare();
}

static void atfork_parent(void)
{
   arena_atfork_parent();
   if (state == Recording) {
      in_strata++;
      write_fork();
      in_strata--;
   }
   unlock_core();
   ring_lock_give();
   stacks_atfork_parent();
}

static void atfork_child(void)
{
   HChar child[4096];
   pthread_mutex_init(&core_lock, NULL);
   ring_lock = 0;
   arena_atfork_child();
   stacks_atfork_child();
   ring_head = ring_tail = seen_head = 0;   // all applied before the fork
   threaded  = False;           // the recorder thread is the parent's
   forget_async_Writer();       // and the writer thread
   writer_asked = False;
   if (state != Recording || !is_open_Writer())
      return;
   in_strata++;
   drop_Writer();
   forget_written_Frames();
   restart_heap_in_child();
   expand_name(clo_out_file, child, sizeof(child));
   if (strcmp(child, base_name) == 0) {
      SizeT n = strlen(clo_out_file);
      if (n + 4 < sizeof(clo_out_file))
         strcpy(clo_out_file + n, ".%p");
      expand_name(clo_out_file, child, sizeof(child));
   }
   strcpy(base_name, child);
   exec_count = 0;
   open_Output();
   if (is_open_Writer())
      take_snapshot(SnapRegular);
   pass_image();
   recorder_at();
   in_strata--;
}

/* An exec ends the profile, provisionally: if it fails, the end is taken
   back (cut off the file) and the profile goes on, as the tool's. */
static Bool before_exec(const HChar* path)
{
   Bool ended = False;
   if (state != Recording)
      return False;
   in_strata++;
   lock_core();
   apply_all_events();
   if (is_open_Writer()) {
      write_profile_end(True);
      flush_Writer();
      ended = True;
   }
   if (!clo_trace_children)
      note_pid("E", path, NULL);
   else if (fd_Ledger() >= 0)
      fcntl(fd_Ledger(), F_SETFD, 0);
   unlock_core();
   in_strata--;
   return ended;
}

static void after_exec_failed(Bool ended)
{
   Int saved = errno;
   if (state != Recording)
      return;
   in_strata++;
   lock_core();
   if (!clo_trace_children)
      note_pid("e", NULL, NULL);
   else if (fd_Ledger() >= 0)
      fcntl(fd_Ledger(), F_SETFD, FD_CLOEXEC);
   if (ended && provisional_end >= 0 && is_open_Writer()) {
      cut_Writer((ULong)provisional_end);
      provisional_end = -1;
      stats_snapshots[SnapFinal]--;
   }
   unlock_core();
   in_strata--;
   errno = saved;
}

typedef int (*ExecFn)(const char*, char* const[], char* const[]);

/* An exec by 'fn' (execve, or execvpe, which searches PATH), the profile
   ended around it; it returns only if it failed. */
static int exec_ending(ExecFn* fn, const char* path, char* const argv[],
                       char* const envp[])
{
   Bool ended;
   ensure_started();
   ended = before_exec(path);
   (*fn)(path, argv, envp);
   after_exec_failed(ended);
   return -1;
}

EXPORT int execve(const char* path, char* const argv[], char* const envp[])
{
   return exec_ending(&real.execve, path, argv, envp);
}

EXPORT int execv(const char* path, char* const argv[])
{
   return exec_ending(&real.execve, path, argv, environ);
}

EXPORT int execvpe(const char* file, char* const argv[], char* const envp[])
{
   return exec_ending(&real.execvpe, file, argv, envp);
}

EXPORT int execvp(const char* file, char* const argv[])
{
   return exec_ending(&real.execvpe, file, argv, environ);
}

/* The variadic forms, which the C library runs through its own execve, not
   the exported one: their arguments gathered into an argv on the stack (no
   allocation: the exec may come after a fork of a threaded program), then
   as execv, execvp and execve.  'first' and the arguments after it up to
   the NULL are the argv; execle's envp follows the NULL. */
#define EXEC_LIST(first, argv, ap)                                   \
   SizeT n_args = 1;                                                 \
   va_start(ap, first);                                              \
   while (va_arg(ap, const char*) != NULL)                           \
      n_args++;                                                      \
   va_end(ap);                                                       \
   const char* argv[n_args + 1];                                     \
   argv[0] = first;                                                  \
   va_start(ap, first);                                              \
   for (SizeT i_arg = 1; i_arg <= n_args; i_arg++)                   \
      argv[i_arg] = va_arg(ap, const char*);   /* the last: NULL */

EXPORT int execl(const char* path, const char* arg, ...)
{
   va_list ap;
   EXEC_LIST(arg, argv, ap);
   va_end(ap);
   return exec_ending(&real.execve, path, (char* const*)argv, environ);
}

EXPORT int execlp(const char* file, const char* arg, ...)
{
   va_list ap;
   EXEC_LIST(arg, argv, ap);
   va_end(ap);
   return exec_ending(&real.execvpe, file, (char* const*)argv, environ);
}

EXPORT int execle(const char* path, const char* arg, ...)
{
   va_list ap;
   EXEC_LIST(arg, argv, ap);
   char* const* envp = va_arg(ap, char* const*);
   va_end(ap);
   return exec_ending(&real.execve, path, (char* const*)argv, envp);
}

/* The end of the profile, once, at exit or _exit.  From a signal handler
   that interrupted this thread inside the recorder, there is no end: the
   profile stays as a killed program's. */
static void end_profile(void)
{
   if (state != Recording || in_strata > 0)
      return;
   in_strata++;
   lock_core();
   apply_all_events();
   if (state == Recording) {
      if (is_open_Writer())
         write_profile_end(False);
      close_Writer();
      state = Passing;
   }
   unlock_core();
   in_strata--;
}

__attribute__((destructor)) static void sn_fini(void)
{
   end_profile();
}

EXPORT void _exit(int status)
{
   ensure_started();
   end_profile();
   real._exit(status);
   __builtin_unreachable();
}

EXPORT void _Exit(int status)
{
   _exit(status);
}

/* The program's main, for the rule that cuts stacks below it. */
EXPORT int __libc_start_main(int (*main_fn)(int, char**, char**), int argc,
                             char** argv, void (*init)(void),
                             void (*fini)(void), void (*rtld_fini)(void),
                             void* stack_end);
EXPORT int __libc_start_main(int (*main_fn)(int, char**, char**), int argc,
                             char** argv, void (*init)(void),
                             void (*fini)(void), void (*rtld_fini)(void),
                             void* stack_end)
{
   ensure_started();
   set_main_fn((Addr)main_fn);
   return real.libc_start_main(main_fn, argc, argv, init, fini, rtld_fini,
                               stack_end);
}

/*------------------------------------------------------------*/
/*--- Initialisation                                       ---*/
/*------------------------------------------------------------*/

/* The blocks served before the recorder started, recorded without a
   stack. */
static void record_boot_blocks(void)
{
   UInt i;
   for (i = 0; i < n_boot_blocks; i++)
      record_new(boot_blocks[i].p, boot_blocks[i].szB, NULL);
}

/* SIGINT, SIGTERM and SIGHUP (what strata record passes on to the program,
   a user's ^C) end the profile as an exit does, when the program leaves
   them at their default action: the handler writes the end, unless the
   thread it interrupts was inside the recorder or another thread holds the
   core's lock (then the profile stays as a killed program's: readable up
   to its last complete record), and the signal then takes its default
   action (SA_RESETHAND: raised again).  With the recorder thread, whose
   work never waits for the program's threads, the handler waits for the
   lock.  A handler the program installs takes this one's place. */
static void on_ending_signal(int sig)
{
   int saved = errno;
   if (in_strata == 0 && threaded) {
      end_profile();   // the recorder thread holds the lock for a batch at most
   } else if (in_strata == 0 && pthread_mutex_trylock(&core_lock) == 0) {
      pthread_mutex_unlock(&core_lock);
      end_profile();
   }
   errno = saved;
   raise(sig);
}

static void catch_ending_signals(void)
{
   static const int ending[] = { SIGINT, SIGTERM, SIGHUP };
   struct sigaction sa, old;
   UInt i;
   memset(&sa, 0, sizeof(sa));
   sa.sa_handler = on_ending_signal;
   sigemptyset(&sa.sa_mask);
   sa.sa_flags = SA_RESETHAND | SA_RESTART;
   for (i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
      if (sigaction(ending[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO)
          && old.sa_handler == SIG_DFL)
         sigaction(ending[i], &sa, NULL);
}

static void start_recorder(void)
{
   start_env_szB = read_file("/proc/self/environ", start_env, sizeof(start_env));
   if (!read_options())
      return;
   cmdline_szB = read_file("/proc/self/cmdline", cmdline, sizeof(cmdline));
   clo_ms_epochs = TimeB;   // no instruction counter: the heap work
   init_stacks();
   init_heap();
   init_lifetimes();
   init_snapshot_clock();
   take_image();
   open_Ledger(clo_record_fd);
   open_Output();
   pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
   check_glibc_chunks();
   state = Recording;
   record_boot_blocks();
   // The graph starts where the run does, as massif's and heaptrack's: a
   // snapshot now, before the program's own work (the clock's first tick
   // comes a millisecond into the run, when a short program may have made
   // much of its heap).
   take_snapshot(SnapRegular);
   catch_ending_signals();
}

/* After the C library has set up the environment. */
__attribute__((constructor)) static void sn_init(void)
{
   ensure_started();
   if (state != Recording)
      return;
   in_strata++;
   hide_library();
   pass_image();
   recorder_at();
   in_strata--;
}

/*--------------------------------------------------------------------*/
/*--- end                                                 sn_main.c ---*/
/*--------------------------------------------------------------------*/
