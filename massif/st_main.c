/*--------------------------------------------------------------------*/
/*--- strata: records the heap of a program over time, by call    ---*/
/*--- site, for stacked graphs and leak detection.      st_main.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later
   Part of strata.  This file links against Valgrind's core, which is
   GPL-2.0-or-later; so is this tool. */

/*------------------------------------------------------------*/
/*--- Overview of operation                                ---*/
/*------------------------------------------------------------*/

/* strata replaces the client's malloc family (malloc, calloc, realloc,
   memalign and friends, every operator new and delete) with its own client
   allocator (st_alloc.c), which keeps in a header in front of each block
   its size and its allocation *site*: its call stack with the allocator's
   own frames removed, cut to --depth frames.  Each site counts the bytes
   and blocks it holds now, and the lowest and highest bytes it held since
   the last snapshot.  It also counts, exactly and over the whole run, the
   allocation calls that made or resized one of its blocks, the bytes they
   asked for, and how many of those blocks were temporary: freed by the
   next heap operation, with no other allocation call or free between
   (heaptrack's rule; the block of the latest call is kept until then, so
   this is one comparison per free).

   The site must be known at every allocation.  The unwinder (st_unwind.c)
   finds it: a cache keyed by the allocator's own frame (code address and
   stack pointer) gives it when the return addresses above are still in
   the stack slots where they were found; failing that, a few frames are
   unwound and the deeper ones taken from a second cache, checked the same
   way; failing that, the stack is unwound in full, its frames classified
   (is this malloc? an --alloc-fn? an --ignore-fn? main?), which needs
   symbol look-ups once per code address and then a look-up in a hash
   table, and the frames that make the site looked up in the table of
   sites.  Every table used per operation is a hash table that grows with
   its contents or a cache of fixed size, so the cost of an operation does
   not grow with the number of live blocks.

   Snapshots are taken by a clock (instructions, milliseconds or bytes
   allocated+freed: --time-unit), checked before each heap operation, so a
   snapshot gives the heap at its tick; an idle stretch is written as two
   snapshots, at its first tick and its last.  A snapshot writes the totals
   and one line for each site that changed since the previous snapshot (a
   "dirty" list makes this independent of the number of sites), then a
   line with the counts since the start of the run of each of those sites
   whose counts changed (a site's counts change only with its blocks, so it
   is on that list): the final snapshot gives the exact counts.  The
   clock's interval is one unit for the first 500 checks that find a tick,
   then grows with the run (t/250), so output grows only with the
   logarithm of the run's length.

   The peak (the largest useful heap plus stacks) is checked where massif
   checks it: just before that total falls (a free, a realloc or resize
   that shrinks a block, pages unmapped, a stack that shrinks) and at the
   end, so a peak is the top of a climb.  Recording one copies nothing:
   each new peak bumps a generation number, and a site saves its bytes the
   first time it changes after a peak (copy on write).  A peak snapshot,
   listing every site's bytes at the peak, is written just before the first
   snapshot that finds the total below it, and at the end.

   Lifetimes (the section of that name): every block keeps its birth, the
   epoch it was born in, in its tag, and a block grown in a later epoch
   has layers of different ages.  Epochs are cut from the first heap
   operation, of length 1 at first, doubled whenever the run reaches 64;
   each site knows what it holds by birth epoch, and the open epoch counts
   its births and deaths, written as an L record when the clock closes it.
   A death of bytes born in an earlier epoch unwinds the freeing stack,
   the free stack, written once as a P record; a young death costs nothing
   more than a birth.

   The profile is written as the program runs, to one file per process
   (and one per program a process execs), in the line format of
   docs/format.md, and flushed after every complete snapshot: a program
   killed by SIGKILL leaves a profile readable up to its last snapshot.
   The writer (st_write.c) keeps the file out of the program's reach and
   its limits, and ends a profile it cannot finish with the reason. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"

#include "valgrind.h"
#include "strata.h"
#include "st_alloc.h"
#include "st_unwind.h"
#include "st_write.h"

/* Not in the tool API, but in the core this tool links with (Valgrind
   3.19's signatures): for --trace-children (Exec), the client's auxiliary
   vector (The client's environment), and errno's words. */
extern Bool         VG_(clo_trace_children);
extern Bool         VG_(should_we_trace_this_child)(const HChar* child_exe_name,
                                                    const HChar** child_argv);
extern Int          VG_(fcntl)(Int fd, Int cmd, Addr arg);
extern UWord*       VG_(client_auxv);
extern const HChar* VG_(strerror)(UWord errnum);

/* For the slow paths of the functions every heap operation calls: kept
   out of them, so that the fast path saves no registers it does not use. */
#define NOINLINE __attribute__((noinline))

/*------------------------------------------------------------*/
/*--- Statistics                                           ---*/
/*------------------------------------------------------------*/

static ULong stats_allocs          = 0;   // blocks recorded
static ULong stats_ignored_allocs  = 0;   // blocks not recorded: --ignore-fn
static ULong stats_frees           = 0;   // blocks unrecorded
static ULong stats_bad_frees       = 0;   // frees of no live block
static ULong stats_reallocs        = 0;
static ULong stats_ignored_reallocs = 0;  // kept at their site: --ignore-fn
static ULong stats_sites           = 0;
static ULong stats_frames_written  = 0;
static ULong stats_snapshots[4]    = { 0, 0, 0, 0 };  // by SnapshotKind
static ULong stats_fast_calls      = 0;   // malloc calls made from JIT code
static ULong stats_aligns_refused  = 0;   // alignments above MAX_ALIGN_SZB
static ULong stats_cheap_checks    = 0;   // sanity checks (Sanity checks)
static ULong stats_ignored_calls   = 0;   // allocation calls not counted
static ULong stats_expensive_checks = 0;

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

typedef enum { TimeI, TimeMS, TimeB } TimeUnit;

static UInt     clo_depth            = 30;
static SizeT    clo_heap_admin       = 8;
static TimeUnit clo_time_unit        = TimeI;
static Double   clo_peak_inaccuracy  = 1.0;   // percent
static Bool     clo_heap             = True;
static Bool     clo_stacks           = False;
static Bool     clo_pages_as_heap    = False;
static Bool     clo_free_stacks      = True;
static UInt     clo_free_depth       = 12;
static const HChar* clo_out_file     = "strata.out.%p";
static Double   clo_threshold        = -1.0;  // for the report; -1: not given
static UInt     clo_detailed_freq    = 10;    // massif's; no effect
static UInt     clo_max_snapshots    = 100;   // massif's; no effect
static Bool     clo_check_unwind_cache = False;   // a debugging option
static Bool     clo_fast_client_calls  = True;    // a debugging option
static UInt     clo_after_exec = 0;   // set by strata itself: see Exec
static Int      clo_record_fd  = -1;  // set by strata record: the ledger

static XArray* alloc_fns  = NULL;   /* XArray* of const HChar*: patterns */
static XArray* ignore_fns = NULL;   /* XArray* of const HChar*: patterns */
static XArray* user_alloc_fns  = NULL;  /* the --alloc-fn patterns given */

/* Functions that are part of the allocator whatever the options say.
   Frames in strata's own preload library are always allocator frames. */
static const HChar* default_alloc_fns[] = {
   "malloc", "calloc", "realloc", "reallocarray", "memalign",
   "posix_memalign", "aligned_alloc", "valloc", "pvalloc",
   "operator new(*", "operator new[](*", "__builtin_new",
   "__builtin_vec_new", "__libc_malloc", "__libc_calloc",
   "__libc_realloc", "__libc_memalign",
};

/* Functions that free, whatever the options say: their frames, like the
   allocator's, are left out of free stacks. */
static const HChar* default_free_fns[] = {
   "free", "cfree", "__libc_free", "operator delete(*",
   "operator delete[](*", "__builtin_delete", "__builtin_vec_delete",
};

static Bool is_free_fn(const HChar* fn)
{
   UInt i;
   for (i = 0; i < sizeof(default_free_fns) / sizeof(default_free_fns[0]); i++)
      if (VG_(string_match)(default_free_fns[i], fn))
         return True;
   return False;
}

static Bool st_process_cmd_line_option(const HChar* arg)
{
   const HChar* tmp_str;

   if      VG_BINT_CLO(arg, "--depth", clo_depth, 1, MAX_DEPTH) {}
   else if VG_BOOL_CLO(arg, "--heap", clo_heap) {}
   else if VG_BINT_CLO(arg, "--heap-admin", clo_heap_admin, 0, 1024) {}
   else if VG_BOOL_CLO(arg, "--stacks", clo_stacks) {}
   else if VG_BOOL_CLO(arg, "--pages-as-heap", clo_pages_as_heap) {}
   else if VG_BOOL_CLO(arg, "--free-stacks", clo_free_stacks) {}
   else if VG_BINT_CLO(arg, "--free-depth", clo_free_depth, 1, MAX_DEPTH) {}
   else if VG_DBL_CLO(arg, "--peak-inaccuracy", clo_peak_inaccuracy) {
      if (clo_peak_inaccuracy < 0.0)
         VG_(fmsg_bad_option)(arg, "must not be negative\n");
   }
   else if VG_XACT_CLO(arg, "--time-unit=i",  clo_time_unit, TimeI)  {}
   else if VG_XACT_CLO(arg, "--time-unit=ms", clo_time_unit, TimeMS) {}
   else if VG_XACT_CLO(arg, "--time-unit=B",  clo_time_unit, TimeB)  {}
   else if VG_STR_CLO(arg, "--time-unit", tmp_str)
      VG_(fmsg_bad_option)(arg, "must be i, ms or B\n");
   else if VG_STR_CLO(arg, "--alloc-fn", tmp_str) {
      VG_(addToXA)(alloc_fns, &tmp_str);
      VG_(addToXA)(user_alloc_fns, &tmp_str);
   }
   else if VG_STR_CLO(arg, "--ignore-fn", tmp_str)
      VG_(addToXA)(ignore_fns, &tmp_str);
   else if VG_STR_CLO(arg, "--out-file", clo_out_file) {}
   else if VG_STR_CLO(arg, "--massif-out-file", clo_out_file) {}
   else if VG_DBL_CLO(arg, "--threshold", clo_threshold) {
      if (clo_threshold < 0.0 || clo_threshold > 100.0)
         VG_(fmsg_bad_option)(arg, "must be a percentage, 0 to 100\n");
   }
   else if VG_BINT_CLO(arg, "--detailed-freq", clo_detailed_freq, 1, 1000000) {}
   else if VG_BINT_CLO(arg, "--max-snapshots", clo_max_snapshots, 10, 1000) {}
   else if VG_BOOL_CLO(arg, "--check-unwind-cache", clo_check_unwind_cache) {}
   else if VG_BOOL_CLO(arg, "--fast-client-calls", clo_fast_client_calls) {}
   else if VG_BINT_CLO(arg, "--after-exec", clo_after_exec, 0, 1000000) {}
   else if VG_BINT_CLO(arg, "--record-fd", clo_record_fd, 0, 1000000) {}
   else if VG_STR_CLO(arg, "-o", clo_out_file) {}
   else
      return VG_(replacement_malloc_process_cmd_line_option)(arg);
   return True;
}

static void st_print_usage(void)
{
   // The same words as `strata record --help` and docs/manual.md.
   VG_(printf)(
"    --depth=N                 record at most N code addresses of each\n"
"                              allocation stack (1 to 200) [30]\n"
"    --alloc-fn=PATTERN        treat functions matching PATTERN as\n"
"                              allocators: their frames are left out of\n"
"                              stacks (repeatable)\n"
"    --ignore-fn=PATTERN       ignore the allocations made directly by\n"
"                              functions matching PATTERN (repeatable)\n"
"    --heap=yes|no             profile the blocks of malloc and new (no: a\n"
"                              profile of the stacks alone) [yes]\n"
"    --heap-admin=N            count N bytes of allocator overhead per\n"
"                              block in the extra heap (0 to 1024) [8]\n"
"    --time-unit=U             the time axis: i (instructions executed),\n"
"                              ms (milliseconds) or B (bytes allocated\n"
"                              and freed) [i]\n"
"    --peak-inaccuracy=P       record a new peak only when it exceeds the\n"
"                              last one by more than P percent (0: the\n"
"                              exact peak) [1.0]\n"
"    --stacks=yes|no           profile the stacks too (slow) [no]\n"
"    --pages-as-heap=yes|no    profile pages mapped (mmap, brk) instead of\n"
"                              the blocks of malloc and new [no]\n"
"    --free-stacks=yes|no      record the stack that frees the bytes that\n"
"                              lived across the end of an epoch [yes]\n"
"    --free-depth=N            record at most N code addresses of each free\n"
"                              stack (1 to 200) [12]\n"
"    --out-file=FILE           write the profile to FILE; %%p is the\n"
"                              process id, %%q{VAR} the value of $VAR, %%n\n"
"                              a sequence number, %%%% a %%; a forked child\n"
"                              whose FILE would be its parent's writes\n"
"                              FILE.PID [strata.out.%%p]\n"
"    --massif-out-file=FILE    the same as --out-file\n"
"    --threshold=PCT           the significance threshold (0 to 100) that\n"
"                              strata report and strata plot take for this\n"
"                              profile when not given their own [1.0]\n"
"    --detailed-freq=N         massif's, accepted for its command lines: no\n"
"                              effect (every snapshot has the sites that\n"
"                              changed) [10]\n"
"    --max-snapshots=N         massif's, accepted for its command lines: no\n"
"                              effect (no snapshot is thrown away) [100]\n"
   );
}

static void st_print_debug_usage(void)
{
   VG_(printf)(
"    --check-unwind-cache=no|yes  unwind in full at every unwind-cache hit\n"
"                                 and count the hits that differ [no]\n"
"    --fast-client-calls=no|yes   call the malloc replacements from the\n"
"                                 generated code, not the scheduler [yes]\n"
"    --after-exec=N               (given by strata to the program a process\n"
"                                 execs) the process has exec'd N times: the\n"
"                                 profile's name gets .execN [0]\n"
"    --record-fd=N                (given by strata record) where to tell it\n"
"                                 which profiles were written [none]\n");
}

/*------------------------------------------------------------*/
/*--- Globals                                              ---*/
/*------------------------------------------------------------*/

// Current sizes, in bytes.
static SizeT heap_szB       = 0;   // useful heap: what the client asked for
static SizeT heap_extra_szB = 0;   // --heap-admin per block, plus slop
static SizeT stacks_szB     = 0;   // with --stacks=yes

// The clocks behind --time-unit=i and --time-unit=B.
static ULong guest_instrs_executed     = 0;
static ULong total_allocs_deallocs_szB = 0;

// --time-unit=ms: reading the timer is a system call, too dear for every
// heap operation; the clock reads it every CLOCK_READ_EVERY operations, and
// snapshots, markers and the end read it afresh (refresh_ms_clock).
#define CLOCK_READ_EVERY 16
static ULong ms_clock = 0;

static void refresh_ms_clock(void)
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

// The clock of the lifetimes' epochs: the time unit's, but instructions
// with --time-unit=ms ("opt epoch_unit i"; each L record gives the time of
// its epoch's first event too).  Under Valgrind the wall clock is mostly
// Valgrind's own (its start-up, translating new code, starting threads):
// a program's heap work can fit in one millisecond of ten, and the table
// would say little of when its bytes were born, and differ from one
// machine, or one recording, to the next.  Instructions are the work.
static inline ULong epoch_time(void)
{
   return clo_time_unit == TimeMS ? guest_instrs_executed : get_time();
}

/*------------------------------------------------------------*/
/*--- Data structures: sites and blocks                    ---*/
/*------------------------------------------------------------*/

/* A Site is one allocation stack, allocator frames removed.  It counts what
   its live blocks hold, the range its bytes covered since the last snapshot,
   and (copy on write) what it held at the last peak.  The first five fields
   are those of StackNode (the first two, VgHashNode's): sites are found by
   their stack in 'sites'.
   (Site is declared in st_unwind.h: the unwinder remembers sites.) */
struct _Site {
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
};
typedef struct _AliveCell AliveCell;

/* A live heap block.  The first two fields are those of VgHashNode. */
typedef struct _Block {
   struct _Block* next;
   UWord  addr;           // key
   SizeT  req_szB;        // bytes asked for
   SizeT  extra_szB;      // heap admin + slop, counted as extra heap
   Site*  site;
   UInt   tag;            // its birth (Lifetimes)
} Block;

/* What a code address is to the allocator, cached: a set of these flags.
   main and the frames below it may match --alloc-fn and --ignore-fn too. */
typedef UChar IpClass;
#define IpNamed      0x01   // it has a function name
#define IpAlloc      0x02   // an allocator frame: strata's preload library,
                            // a built-in allocator name or --alloc-fn
#define IpIgnore     0x04   // its name matches --ignore-fn
#define IpMain       0x08   // main
#define IpBelowMain  0x10   // below main: __libc_start_main, a thread's start
#define IpFree       0x20   // a deallocator: free, operator delete
typedef struct _IpNode {
   struct _IpNode* next;
   UWord  ip;             // key
   IpClass cls;
} IpNode;

/* The frames written for one code address: ids first_id .. first_id+n-1,
   innermost (most inlined) first. */
typedef struct _FrameRun {
   struct _FrameRun* next;
   UWord  ip;             // key
   UInt   first_id;
   UInt   n;
} FrameRun;

static VgHashTable* blocks      = NULL;  /* Addr -> Block* (live blocks) */
static VgHashTable* sites       = NULL;  /* stack (hash) -> Site* */
static VgHashTable* ip_classes  = NULL;  /* Addr -> IpNode* */
static VgHashTable* frame_runs  = NULL;  /* Addr -> FrameRun* (written) */
static XArray*      all_sites   = NULL;  /* XArray* of Site*, every site */
static PoolAlloc*   block_pool  = NULL;  /* where Blocks live */

static Site* no_stack_site = NULL;   // for allocations with no usable stack
static Unwinder* site_unwinder = NULL;   // allocations -> their sites
static Unwinder* free_unwinder = NULL;   // frees -> their free stacks (as
                                         // Site*), with --free-stacks=yes
static Site* dirty_sites   = NULL;   // list through Site.next_dirty

static UInt next_frame_id = 1;
static UInt next_site_id  = 1;

/*------------------------------------------------------------*/
/*--- The peak                                             ---*/
/*------------------------------------------------------------*/

static ULong peak_gen       = 0;     // bumped at each new peak
static ULong peak_time      = 0;
static SizeT peak_heap_szB  = 0;
static SizeT peak_extra_szB = 0;
static SizeT peak_stacks_szB = 0;
static Bool  peak_written   = True;  // the current peak is in the file

/* What the peak is the peak of: the bytes the program asked for, plus its
   stacks.  The extra heap is left out: it depends on the allocator (strata's
   size classes are not glibc's), so it must not decide when the peak was. */
static SizeT peak_measure_szB(void)
{
   return heap_szB + stacks_szB;
}

static SizeT recorded_peak_szB(void)
{
   return peak_heap_szB + peak_stacks_szB;
}

/* Before a site changes: if this is its first change since the last peak,
   keep what it held at the peak. */
static void save_peak_Site(Site* s)
{
   if (s->peak_gen != peak_gen) {
      s->peak_szB    = s->szB;
      s->peak_blocks = s->n_blocks;
      s->peak_gen    = peak_gen;
   }
}

static SizeT peak_szB_of_Site(const Site* s)
{
   return s->peak_gen == peak_gen ? s->peak_szB : s->szB;
}

static SizeT peak_blocks_of_Site(const Site* s)
{
   return s->peak_gen == peak_gen ? s->peak_blocks : s->n_blocks;
}

/* Whether 'total' is no new peak: not more than --peak-inaccuracy percent
   above the recorded one (0: not above it). */
static Bool within_peak(SizeT total)
{
   SizeT peak = recorded_peak_szB();
   return total <= peak
          || (clo_peak_inaccuracy > 0.0
              && (Double)total * 100.0
                 < (Double)peak * (100.0 + clo_peak_inaccuracy));
}

/* Records the measure now as the peak if it is a new one.  Called, as
   massif does, just before the measure falls: a free (and FREELIKE, and a
   page unmapped), a realloc or RESIZEINPLACE that shrinks a block, a stack
   that shrinks; and at the end (the final snapshot, also the one before an
   execve).  So the peak is the top of a climb, and a climb made on the
   stack alone counts. */
static void update_peak(void)
{
   SizeT total = peak_measure_szB();
   if (within_peak(total))
      return;
   tl_assert(peak_gen + 1 > peak_gen);
   tl_assert(get_time() >= peak_time);
   peak_gen++;
   peak_time       = get_time();
   peak_heap_szB   = heap_szB;
   peak_extra_szB  = heap_extra_szB;
   peak_stacks_szB = stacks_szB;
   peak_written    = False;
}

/*------------------------------------------------------------*/
/*--- Output                                               ---*/
/*------------------------------------------------------------*/

/* Sample of the output: the start and the end of a real profile, of
   examples/leaky-player --cycles 1 ('...' marks the lines left out; the
   grammar is in docs/format.md).  Fields are separated by one TAB, shown
   here as two spaces or more.  The functions below put the records, and
   st_write.c writes them, ending a profile it cannot finish with a Q
   record saying why (its sample is there).  tests/t-samples.sh checks
   both samples against profiles that the tool writes.  The L records are
   the lifetimes' epochs (Lifetimes): the first, of length 1, starts at the
   first heap operation; the bytes born in epoch 0 of site 4 die in epoch
   46 (of length 4096), freed by the stack of P record 1; the last
   record, written at the end, would give with a lines what is still
   alive (here nothing).

      strata-profile  3
      cmd             ./leaky-player --cycles 1
      pid             385
      ppid            384
      time_unit       i
      opt             depth            30
      opt             heap_admin       8
      opt             peak_inaccuracy  1.000
      opt             heap             yes
      opt             stacks           no
      opt             pages_as_heap    no
      opt             lifetimes        yes
      opt             free_stacks      yes
      opt             free_depth       12
      T  regular  1  0  0  0
      E
      T  regular  137293  0  0  0
      E
      M  137293  video opened
      ...
      F  1  0x1095b3  0  decoder_open  leaky-player.c  122  /tmp/leaky-player  0x15b3
      F  2  0x1098b5  0  player_open  leaky-player.c  173  /tmp/leaky-player  0x18b5
      F  3  0x109d94  0  main  leaky-player.c  253  /tmp/leaky-player  0x1d94
      S  1  1  2  3
      L  0  138007  1
      b  1  0  16  1
      E
      T  regular  138008  16  8  0
      s  1  16  1  0  16
      c  1  1  16  0
      E
      ...
      F  11  0x1096e8  0  decoder_decode  leaky-player.c  142  /tmp/leaky-player  0x16e8
      P  1  11  7  8
      ...
      L  46  326423  4096
      d  4  0  1  32768  1
      b  6  46  2048  1
      E
      ...
      T  peak  3376915  927920  23424  0
      s  1  16  1  16  16
      s  2  65536  1  65536  65536
      ...
      E
      T  regular  3376916  895152  15240  0
      s  4  0  0  0  32768
      E
      ...
      T  final  17166473  0  0  0
      E
      L  32  16915223  524288
      d  7  31  6  65536  1
      b  7  32  202752  3
      d  7  32  0  202752  3
      ...
      b  8  32  4096  1
      d  8  32  0  4096  1
      E
      X  17166473
*/

/*------------------------------------------------------------*/
/*--- Output: frames and sites                             ---*/
/*------------------------------------------------------------*/

/* VG_(describe_IP) gives "0xADDR: FUNCTION (FILE:LINE)", or
   "0xADDR: FUNCTION (in OBJECT)", or "0xADDR: ???".  Splits it; the pieces
   point into 'buf', which is modified. */
static void split_description(HChar* buf, const HChar** fn,
                              const HChar** file, UInt* line)
{
   HChar* s = VG_(strstr)(buf, ": ");
   HChar* open;
   HChar* colon;
   SizeT  len;

   *fn = ""; *file = ""; *line = 0;
   if (s == NULL)
      return;
   s += 2;
   len = VG_(strlen)(s);
   open = NULL;
   if (len > 0 && s[len - 1] == ')') {
      HChar* p;
      for (p = s + len - 1; p > s; p--)
         if (p[0] == '(' && p[-1] == ' ') { open = p; break; }
   }
   if (open != NULL) {
      open[-1] = '\0';
      s[len - 1] = '\0';
      colon = VG_(strrchr)(open + 1, ':');
      if (VG_(strncmp)(open + 1, "in ", 3) != 0 && colon != NULL) {
         *colon = '\0';
         *file = open + 1;
         *line = (UInt)VG_(strtoll10)(colon + 1, NULL);
      }
   }
   *fn = VG_STREQ(s, "???") ? "" : s;
}

/* Where 'ip' is in its object, as addr2line -e OBJECT takes it (the
   address less the object's load bias); False if no object is known. */
static Bool offset_in_object(Addr ip, Addr* offset)
{
   DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), ip);
   if (di == NULL)
      return False;
   *offset = ip - VG_(DebugInfo_get_text_bias)(di);
   return True;
}

static void write_Frame(UInt id, Addr ip, Bool inlined, const HChar* desc,
                        const HChar* obj)
{
   Addr offset;
   HChar* copy = VG_(strdup)("st.frame.desc", desc);
   const HChar* fn;
   const HChar* file;
   UInt line;
   split_description(copy, &fn, &file, &line);
   put_str("F");
   put_field_u64(id);
   put_tab(); put_hex(ip);
   put_field_u64(inlined ? 1 : 0);
   put_field_text(fn);
   put_field_text(file);
   put_field_u64(line);
   put_field_text(obj);
   put_tab();
   if (offset_in_object(ip, &offset))
      put_hex(offset);
   put_nl();
   VG_(free)(copy);
   stats_frames_written++;
}

/* The frames of one code address, written once; inlined calls included. */
static FrameRun* get_FrameRun(Addr ip)
{
   FrameRun*    run = VG_(HT_lookup)(frame_runs, ip);
   DiEpoch      ep  = VG_(current_DiEpoch)();
   InlIPCursor* iipc;
   const HChar* obj;
   HChar*       obj_copy;
   Bool         more;

   if (run != NULL)
      return run;
   run = VG_(malloc)("st.framerun", sizeof(FrameRun));
   run->ip       = ip;
   run->first_id = next_frame_id;
   run->n        = 0;
   if (!VG_(get_objname)(ep, ip, &obj))
      obj = "";
   obj_copy = VG_(strdup)("st.frame.obj", obj);
   iipc = VG_(new_IIPC)(ep, ip);
   do {
      HChar* desc = VG_(strdup)("st.frame.d", VG_(describe_IP)(ep, ip, iipc));
      more = VG_(next_IIPC)(iipc);
      write_Frame(next_frame_id++, ip, more, desc, obj_copy);
      run->n++;
      VG_(free)(desc);
   } while (more);
   VG_(delete_IIPC)(iipc);
   VG_(free)(obj_copy);
   VG_(HT_add_node)(frame_runs, run);
   return run;
}

/* Writes the frames of a stack not yet written, then its record 'rec'
   (S for a site, P for a free stack) with id 'id'. */
static void put_stack_record(const HChar* rec, UInt id, const Addr* ips,
                             UInt n_ips)
{
   UInt i, j;
   FrameRun** runs;

   runs = n_ips ? VG_(malloc)("st.stack.runs", n_ips * sizeof(FrameRun*))
                : NULL;
   for (i = 0; i < n_ips; i++)
      runs[i] = get_FrameRun(ips[i]);
   put_str(rec);
   put_field_u64(id);
   for (i = 0; i < n_ips; i++)
      for (j = 0; j < runs[i]->n; j++)
         put_field_u64(runs[i]->first_id + j);
   put_nl();
   if (runs)
      VG_(free)(runs);
}

/* Writes the site's frames and its S record, if not yet in the file. */
static void ensure_Site_written(Site* s)
{
   if (s->id != 0)
      return;
   s->id = next_site_id++;
   put_stack_record("S", s->id, s->ips, s->n_ips);
}

static void write_header(void)
{
   Word i;
   HChar num[64];

   put_str("strata-profile\t3\n");
   put_str("cmd");
   put_field_text(VG_(args_the_exename));
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      put_char(' ');
      put_text(*(HChar**)VG_(indexXA)(VG_(args_for_client), i));
   }
   put_nl();
   put_str("pid");  put_field_u64(VG_(getpid)());  put_nl();
   put_str("ppid"); put_field_u64(VG_(getppid)()); put_nl();
   put_str("time_unit\t");
   put_str(clo_time_unit == TimeI ? "i" : clo_time_unit == TimeMS ? "ms" : "B");
   put_nl();
   put_str("opt\tdepth");      put_field_u64(clo_depth);      put_nl();
   put_str("opt\theap_admin"); put_field_u64(clo_heap_admin); put_nl();
   VG_(sprintf)(num, "%.3f", clo_peak_inaccuracy);
   put_str("opt\tpeak_inaccuracy"); put_field_text(num); put_nl();
   put_str("opt\theap\t");     put_str(clo_heap ? "yes" : "no");   put_nl();
   put_str("opt\tstacks\t");   put_str(clo_stacks ? "yes" : "no"); put_nl();
   put_str("opt\tpages_as_heap\t");
   put_str(clo_pages_as_heap ? "yes" : "no");
   put_nl();
   if (clo_heap) {
      put_str("opt\tlifetimes\tyes\n");
      put_str("opt\tfree_stacks\t");
      put_str(clo_free_stacks ? "yes" : "no");
      put_nl();
      put_str("opt\tfree_depth"); put_field_u64(clo_free_depth); put_nl();
      if (clo_time_unit == TimeMS)
         put_str("opt\tepoch_unit\ti\n");
   }
   if (clo_threshold >= 0.0) {
      VG_(sprintf)(num, "%.3f", clo_threshold);
      put_str("opt\tthreshold"); put_field_text(num); put_nl();
   }
   for (i = 0; i < VG_(sizeXA)(user_alloc_fns); i++) {
      put_str("opt\talloc_fn");
      put_field_text(*(HChar**)VG_(indexXA)(user_alloc_fns, i));
      put_nl();
   }
   for (i = 0; i < VG_(sizeXA)(ignore_fns); i++) {
      put_str("opt\tignore_fn");
      put_field_text(*(HChar**)VG_(indexXA)(ignore_fns, i));
      put_nl();
   }
}

/* The file name: --out-file expanded (the base name), and after an exec
   (Exec) .execN.  The ledger is told which file was created, or which could
   not be and why.  The process strata record started stops when it cannot
   create its profile, before the program starts; any other process (a
   forked child, a program started by exec) runs on without a profile. */
static HChar* base_name = NULL;   // --out-file expanded, this process's
static Bool   forked    = False;  // this process is a forked child

static void open_Output(void)
{
   HChar  pid[16];
   HChar* full;
   UWord  err;
   if (base_name != NULL)
      VG_(free)(base_name);
   base_name = VG_(expand_file_name)("--out-file", clo_out_file);
   full = VG_(malloc)("st.out.name", VG_(strlen)(base_name) + 32);
   VG_(sprintf)(full, clo_after_exec > 0 ? "%s.exec%u" : "%s", base_name,
                clo_after_exec);
   VG_(sprintf)(pid, "%d", VG_(getpid)());
   err = open_Writer(full, get_time);
   if (err != 0) {
      note_Ledger("F", pid, full, VG_(strerror)(err));
      if (!forked && clo_after_exec == 0) {
         VG_(fmsg)("strata: cannot create the profile file '%s': %s\n",
                   full, VG_(strerror)(err));
         VG_(exit)(1);
      }
      VG_(umsg)("strata: cannot create the profile file '%s': %s; process "
                "%s runs on without a profile\n", full, VG_(strerror)(err),
                pid);
   } else {
      note_Ledger("P", pid, full, NULL);
      write_header();
      flush_Writer();
   }
   VG_(free)(full);
}

/*------------------------------------------------------------*/
/*--- Snapshots                                            ---*/
/*------------------------------------------------------------*/

typedef enum { SnapRegular = 0, SnapUser, SnapPeak, SnapFinal } SnapshotKind;

static const HChar* snapshot_kind_names[] = { "regular", "user", "peak",
                                              "final" };

/* The clock (docs/format.md, "How often snapshots are taken").  It ticks
   every 'snapshot_interval' time units, on the grid of multiples of the
   interval, and is checked before each heap operation: the heap has held
   its present state since the previous operation, so at every tick passed
   since then.  A check that finds ticks passed writes the heap at the
   first of them and, when the silence spanned more ticks, an empty
   snapshot at the last: the heap held from one to the other.  The first
   FIRST_CHECKS checks that find a tick come at an interval of one unit,
   so that a short run gets a snapshot per operation; after them, the
   interval is the largest power of two not above the time now divided by
   TICKS_PER_DOUBLING, so each doubling of the run's length adds at most
   that many ticks. */
#define FIRST_CHECKS        500
#define TICKS_PER_DOUBLING  250

static ULong snapshot_interval   = 1;
static ULong next_snapshot_time  = 0;
static ULong last_op_time        = 0;   // the clock after the last operation
static ULong last_stamp          = 0;   // the latest time written in the file
static UInt  ticks_found         = 0;   // checks that found a tick passed

/* The largest measure of the peak (heap + stacks) in a snapshot written,
   peaks left out: the last peak written must be within --peak-inaccuracy
   of it (end_profile checks). */
static SizeT largest_written_szB = 0;

static void put_snapshot_header(SnapshotKind kind, ULong time, SizeT heap,
                                SizeT extra, SizeT stacks)
{
   tl_assert(time <= get_time());
   if (time > last_stamp)
      last_stamp = time;
   if (kind != SnapPeak && heap + stacks > largest_written_szB)
      largest_written_szB = heap + stacks;
   put_str("T\t");
   put_str(snapshot_kind_names[kind]);
   put_field_u64(time);
   put_field_u64(heap);
   put_field_u64(extra);
   put_field_u64(stacks);
   put_nl();
   stats_snapshots[kind]++;
}

static void put_site_line(const Site* s, SizeT szB, SizeT n_blocks, SizeT min,
                          SizeT max)
{
   put_str("s");
   put_field_u64(s->id);
   put_field_u64(szB);
   put_field_u64(n_blocks);
   put_field_u64(min);
   put_field_u64(max);
   put_nl();
}

/* The site's allocation counts since the start of the run. */
static void put_counts_line(const Site* s)
{
   put_str("c");
   put_field_u64(s->id);
   put_field_u64(s->calls);
   put_field_u64(s->allocated_szB);
   put_field_u64(s->temporary);
   put_nl();
}

static void end_snapshot(void)
{
   put_str("E\n");
   flush_Writer();
}

/* The peak snapshot: every site that held bytes at the peak. */
static void write_peak_snapshot(void)
{
   Word i, n = VG_(sizeXA)(all_sites);
   for (i = 0; i < n; i++) {
      Site* s = *(Site**)VG_(indexXA)(all_sites, i);
      if (peak_szB_of_Site(s) > 0 || peak_blocks_of_Site(s) > 0)
         ensure_Site_written(s);
   }
   put_snapshot_header(SnapPeak, peak_time, peak_heap_szB, peak_extra_szB,
                       peak_stacks_szB);
   for (i = 0; i < n; i++) {
      Site* s  = *(Site**)VG_(indexXA)(all_sites, i);
      SizeT sz = peak_szB_of_Site(s);
      SizeT nb = peak_blocks_of_Site(s);
      if (sz > 0 || nb > 0)
         put_site_line(s, sz, nb, sz, sz);
   }
   end_snapshot();
   peak_written = True;
}

/* Where the end written before an execve starts in the file, -1 if none:
   should the execve fail, the file is cut back to there (Exec). */
static Long provisional_end = -1;

/* After a snapshot: no site has changed since. */
static void clean_dirty_Sites(void)
{
   Site* s;
   for (s = dirty_sites; s != NULL; s = s->next_dirty) {
      s->dirty          = False;
      s->counts_changed = False;
      s->min_szB        = s->max_szB = s->szB;
   }
   dirty_sites = NULL;
}

/* Regular, user and final snapshots: the sites changed since the last,
   then the counts of those whose counts changed (only a dirty site's
   can).  A 'provisional' snapshot, the end written before an execve,
   changes nothing but the file: the sites it lists stay changed. */
static void write_snapshot(SnapshotKind kind, ULong time, Bool provisional)
{
   Site* s;
   for (s = dirty_sites; s != NULL; s = s->next_dirty)
      ensure_Site_written(s);
   if (provisional) {
      flush_Writer();
      provisional_end = (Long)size_Writer();
   }
   put_snapshot_header(kind, time, heap_szB, heap_extra_szB, stacks_szB);
   for (s = dirty_sites; s != NULL; s = s->next_dirty)
      put_site_line(s, s->szB, s->n_blocks, s->min_szB, s->max_szB);
   for (s = dirty_sites; s != NULL; s = s->next_dirty)
      if (s->counts_changed)
         put_counts_line(s);
   if (!provisional)
      clean_dirty_Sites();
   end_snapshot();
}

/* Whether the peak is to be written before a snapshot of 'kind' now: it
   is not in the file yet, and the heap has fallen from it, or the run
   ends. */
static Bool peak_is_due(SnapshotKind kind)
{
   return !peak_written
          && (kind == SnapFinal || peak_measure_szB() < recorded_peak_szB());
}

/* A snapshot at 'time' of the heap now, with the peak snapshot before it
   if the heap has fallen from a peak not yet written.  'time' is not
   earlier than the peak's (take_tick_snapshots sees to it). */
static void take_snapshot_at(SnapshotKind kind, ULong time, Bool provisional)
{
   if (!is_open_Writer())
      return;
   if (kind == SnapFinal)
      update_peak();     // the end of the last climb
   if (peak_is_due(kind))
      write_peak_snapshot();
   write_snapshot(kind, time, provisional);
}

static void take_snapshot_as(SnapshotKind kind, Bool provisional)
{
   refresh_ms_clock();
   take_snapshot_at(kind, get_time(), provisional);
}

static void take_snapshot(SnapshotKind kind)
{
   take_snapshot_as(kind, False);
}

static ULong largest_power_of_2_upto(ULong n)
{
   ULong p = 1;
   while (p <= n / 2)
      p *= 2;
   return p;
}

/* Ticks passed by 'now' (next_snapshot_time <= now): the heap at the first,
   held until the last, then the interval for the ticks to come. */
static NOINLINE void take_tick_snapshots(ULong now)
{
   ULong first;
   // A peak due now goes first.  With --stacks=yes the peak is checked
   // between heap operations too (a stack that shrinks), so its time can
   // be later than the first tick: the snapshot comes after it.
   if (is_open_Writer() && peak_is_due(SnapRegular))
      write_peak_snapshot();
   // The first tick, unless the clock already stands later in the file: an
   // operation counted in bytes, a marker, a peak or a snapshot of another
   // kind.
   first = next_snapshot_time;
   if (first < last_op_time)
      first = last_op_time;
   if (first < last_stamp)
      first = last_stamp;
   ULong last  = next_snapshot_time
                 + (now - next_snapshot_time) / snapshot_interval
                   * snapshot_interval;
   take_snapshot_at(SnapRegular, first, False);
   if (last > first)
      write_snapshot(SnapRegular, last, False);   // no site changed since
   if (++ticks_found >= FIRST_CHECKS)
      snapshot_interval = largest_power_of_2_upto(now / TICKS_PER_DOUBLING);
   next_snapshot_time = (now / snapshot_interval + 1) * snapshot_interval;
}

/* --time-unit=ms: an operation after this many instructions without one
   reads the timer afresh, so that an idle stretch is seen at once. */
#define CLOCK_READ_AFTER_INSTRS 100000
static ULong instrs_at_read = 0;

static inline void advance_epochs(ULong now, Bool heap_op);

/* The clock: called before each heap operation ('heap_op'), marker and
   snapshot.  It closes the lifetimes' epochs passed, then takes the
   snapshots of the ticks passed. */
static void check_clock(Bool heap_op)
{
   static UInt calls = 0;
   ULong now;
   if (clo_time_unit == TimeMS
       && (++calls % CLOCK_READ_EVERY == 0
           || guest_instrs_executed - instrs_at_read
              >= CLOCK_READ_AFTER_INSTRS)) {
      refresh_ms_clock();
      instrs_at_read = guest_instrs_executed;
   }
   now = get_time();
   advance_epochs(epoch_time(), heap_op);
   if (now >= next_snapshot_time)
      take_tick_snapshots(now);
}

static void clock_before_op(void)
{
   check_clock(True);
}

/* The clock: called after each heap operation. */
static void clock_after_op(void)
{
   last_op_time = get_time();
}

static void init_snapshot_clock(void)
{
   refresh_ms_clock();
   last_op_time       = get_time();
   next_snapshot_time = last_op_time + snapshot_interval;
}

/*------------------------------------------------------------*/
/*--- Sites                                                ---*/
/*------------------------------------------------------------*/

static Site* new_Site(const Addr* ips, UInt n_ips)
{
   Site* s = VG_(calloc)("st.site", 1, sizeof(Site));
   s->n_ips = n_ips;
   if (n_ips > 0) {
      s->ips = VG_(malloc)("st.site.ips", n_ips * sizeof(Addr));
      copy_words(s->ips, ips, n_ips);
   }
   s->peak_gen = peak_gen;   // it held nothing at any peak so far
   VG_(addToXA)(all_sites, &s);
   stats_sites++;
   return s;
}

static Bool matches_any(XArray* patterns, const HChar* fn)
{
   Word i;
   for (i = 0; i < VG_(sizeXA)(patterns); i++)
      if (VG_(string_match)(*(HChar**)VG_(indexXA)(patterns, i), fn))
         return True;
   return False;
}

static IpClass classify_ip(Addr ip)
{
   DiEpoch      ep = VG_(current_DiEpoch)();
   const HChar* name;
   IpNode*      node = VG_(HT_lookup)(ip_classes, ip);

   if (node != NULL)
      return node->cls;
   node = VG_(malloc)("st.ipclass", sizeof(IpNode));
   node->ip  = ip;
   node->cls = 0;
   if (VG_(get_objname)(ep, ip, &name)
       && VG_(strstr)(name, "/vgpreload_strata-") != NULL)
      node->cls |= IpAlloc;
   if (VG_(get_fnname)(ep, ip, &name)) {
      Vg_FnNameKind kind = VG_(get_fnname_kind_from_IP)(ep, ip);
      node->cls |= IpNamed;
      if (kind == Vg_FnNameMain)
         node->cls |= IpMain;
      else if (kind == Vg_FnNameBelowMain)
         node->cls |= IpBelowMain;
      if (matches_any(alloc_fns, name))
         node->cls |= IpAlloc;
      if (matches_any(ignore_fns, name))
         node->cls |= IpIgnore;
      if (is_free_fn(name))
         node->cls |= IpFree;
   }
   VG_(HT_add_node)(ip_classes, node);
   return node->cls;
}

static UWord hash_stack(const Addr* ips, UInt n_ips)
{
   UWord h = n_ips;
   UInt  i;
   for (i = 0; i < n_ips; i++)
      h = (h ^ ips[i]) * 0x9E3779B97F4A7C15ULL;
   return h ^ (h >> 29);
}

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

// 0 if the two nodes have the same stack (their hashes are equal).
static Word cmp_stacks(const void* a, const void* b)
{
   const StackNode* x = a;
   const StackNode* y = b;
   return !(x->n_ips == y->n_ips && same_words(x->ips, y->ips, x->n_ips));
}

/* The node of 'table' (a Site or a FreeStack) whose stack is 'ips', or
   NULL; '*hash' is that stack's hash. */
static void* lookup_stack(VgHashTable* table, const Addr* ips, UInt n_ips,
                          UWord* hash)
{
   StackNode key;
   key.hash  = *hash = hash_stack(ips, n_ips);
   key.n_ips = n_ips;
   key.ips   = (Addr*)ips;
   return VG_(HT_gen_lookup)(table, &key, cmp_stacks);
}

/* The site of a stripped stack, made the first time the stack is seen. */
static Site* get_Site_of_stack(const Addr* ips, UInt n_ips)
{
   UWord hash;
   Site* s;

   if (n_ips == 0)
      return no_stack_site;
   s = lookup_stack(sites, ips, n_ips, &hash);
   if (s == NULL) {
      s = new_Site(ips, n_ips);
      s->hash = hash;
      VG_(HT_add_node)(sites, s);
   }
   return s;
}

/*------------------------------------------------------------*/
/*--- Sites: which frames make one                         ---*/
/*------------------------------------------------------------*/

/* The unwinder (st_unwind.c) finds the frames of an allocation, from its
   caches or by unwinding; the rule below says which of them make the site.
   The unwinder remembers what it said, and the frames that decided it. */

/* A site that cannot be told from the frames unwound: unwind deeper. */
static Site deeper_site;
#define NEED_DEEPER (&deeper_site)

/* The first frame from frame 'i' on that has a name; n_ips if none. */
static UInt first_named_frame(const Addr* ips, UInt n_ips, UInt i)
{
   while (i < n_ips && !(classify_ip(ips[i]) & IpNamed))
      i++;
   return i;
}

/* Which frames of a raw stack make its site, as massif chooses them: the
   allocator's frames are stripped from the top ('*first' is the first frame
   left), and the stack is cut below main (the frames under main or a
   thread's start function are the C library's, and beyond them the
   unwinder reads garbage) and to --depth ('*end' is the first frame cut).
   When main itself was stripped (--alloc-fn=main), the site is the one
   frame left below it.  False if the allocation is ignored: its first frame
   with a name (the first frame left, unless that has no symbol) matches
   --ignore-fn.  '*named' is that frame, n_ips if none has a name; without
   --ignore-fn it is not looked for ('*named' is '*first'). */
static Bool site_bounds(const Addr* ips, UInt n_ips, UInt* first,
                        UInt* end, UInt* named)
{
   UInt    i = 0, j;
   IpClass cls;
   Bool    main_stripped = False;

   while (i < n_ips && ((cls = classify_ip(ips[i])) & IpAlloc)) {
      main_stripped |= (cls & (IpMain | IpBelowMain)) != 0;
      i++;
   }
   *first = *end = *named = i;
   if (VG_(sizeXA)(ignore_fns) > 0) {
      *named = first_named_frame(ips, n_ips, i);
      if (*named < n_ips && (classify_ip(ips[*named]) & IpIgnore))
         return False;
   }
   if (main_stripped) {
      *end = i < n_ips ? i + 1 : i;
      return True;
   }
   for (j = i; j < n_ips && j - i < clo_depth; j++) {
      cls = classify_ip(ips[j]);
      if (cls & IpBelowMain)
         break;
      if (cls & IpMain) {
         j++;
         break;
      }
   }
   *end = j;
   return True;
}

/* The site of a raw stack (as unwound, allocator frames included), NULL if
   the allocation is ignored; frames 0 .. '*end' (or the last frame, if
   '*end' is n_ips) are those that decided it: the site's frames and the
   first frame cut, or the frame --ignore-fn looked at.  If the unwind was
   cut short ('truncated') before --depth frames were left, or before a
   frame with a name was found for --ignore-fn, says NEED_DEEPER.
   (Classifying a frame is a look-up in ip_classes.) */
static Site* site_of_raw_stack(const Addr* ips, UInt n_ips, Bool truncated,
                               UInt* end)
{
   UInt first, site_end, named;
   Bool recorded = site_bounds(ips, n_ips, &first, &site_end, &named);

   *end = site_end > named ? site_end : named;
   if (truncated && named == n_ips)
      return NEED_DEEPER;
   if (!recorded)
      return NULL;
   if (site_end == n_ips && site_end - first < clo_depth && truncated)
      return NEED_DEEPER;
   return get_Site_of_stack(ips + first, site_end - first);
}

/* A frame of the program, for the unwind cache's check: it has a name,
   and is not below main. */
static Bool is_named_frame(Addr ip)
{
   IpClass cls = classify_ip(ip);
   return (cls & IpNamed) && !(cls & IpBelowMain);
}

static void init_site_rules(void)
{
   UnwindRules r;
   r.depth         = clo_depth;
   r.check         = clo_check_unwind_cache;
   r.no_stack      = no_stack_site;
   r.need_deeper   = NEED_DEEPER;
   r.scache_ways   = 2;
   r.site_of_stack = site_of_raw_stack;
   r.named_frame   = is_named_frame;
   site_unwinder   = new_Unwinder(&r);
}

/* Every change to a site's bytes goes through here: 'add_szB' more bytes,
   'sub_szB' fewer, and one block more, none or one fewer.  Neither count
   may go below 0 or wrap, and a site with bytes has blocks. */
static void change_Site(Site* s, SizeT add_szB, SizeT sub_szB, Int d_blocks)
{
   save_peak_Site(s);
   if (!s->dirty) {
      s->dirty      = True;
      s->min_szB    = s->max_szB = s->szB;
      s->next_dirty = dirty_sites;
      dirty_sites   = s;
   }
   tl_assert(s->szB + add_szB >= s->szB);
   tl_assert(s->szB + add_szB >= sub_szB);
   tl_assert(d_blocks >= -1 && d_blocks <= 1);
   tl_assert(d_blocks >= 0 || s->n_blocks > 0);
   s->szB = s->szB + add_szB - sub_szB;
   s->n_blocks += d_blocks;
   tl_assert(s->szB == 0 || s->n_blocks > 0);
   if (s->szB < s->min_szB) s->min_szB = s->szB;
   if (s->szB > s->max_szB) s->max_szB = s->szB;
}

/*------------------------------------------------------------*/
/*--- Heap accounting                                      ---*/
/*------------------------------------------------------------*/

/* The totals, for a block allocated or freed; its site is counted apart. */
static void add_to_totals(SizeT req_szB, SizeT extra_szB)
{
   tl_assert(heap_szB + req_szB >= heap_szB);
   tl_assert(heap_extra_szB + extra_szB >= heap_extra_szB);
   tl_assert(total_allocs_deallocs_szB + req_szB >= total_allocs_deallocs_szB);
   heap_szB       += req_szB;
   heap_extra_szB += extra_szB;
   total_allocs_deallocs_szB += req_szB;
   stats_allocs++;
}

static void take_from_totals(SizeT req_szB, SizeT extra_szB)
{
   tl_assert(heap_szB >= req_szB && heap_extra_szB >= extra_szB);
   tl_assert(stats_frees < stats_allocs);
   tl_assert(total_allocs_deallocs_szB + req_szB >= total_allocs_deallocs_szB);
   heap_szB       -= req_szB;
   heap_extra_szB -= extra_szB;
   total_allocs_deallocs_szB += req_szB;
   stats_frees++;
}

static void count_alloc(Site* site, SizeT req_szB, SizeT extra_szB)
{
   change_Site(site, req_szB, 0, +1);
   add_to_totals(req_szB, extra_szB);
}

static void count_free(Site* site, SizeT req_szB, SizeT extra_szB)
{
   update_peak();
   change_Site(site, 0, req_szB, -1);
   take_from_totals(req_szB, extra_szB);
}

/*------------------------------------------------------------*/
/*--- Allocation counts                                    ---*/
/*------------------------------------------------------------*/

/* Each site counts, over the run, the allocation calls that made or
   resized one of its blocks (a malloc, calloc, memalign, operator new,
   MALLOCLIKE_BLOCK, a realloc that returns a block, counted at the site
   the block moves to; a mapping of new pages with --pages-as-heap), the
   bytes they asked for, and how many of those blocks were temporary:
   freed by the next heap operation of the program, by any thread, with no
   other allocation call and no other free between (heaptrack's counts; a
   realloc is an allocation call, not a free).  A call that fails is none.
   So only the block of the latest call can become temporary, and only
   until the next call or free: 'last_alloc' is that block.  A site's
   counts change only with its bytes or blocks, so a site whose counts
   changed is on the dirty list, and its c line is written with its s line
   (docs/format.md).  A forked child counts afresh (Fork). */

/* The block (ChunkHdr* or Block*) of the latest allocation call, until
   the next free; NULL after a free, or if that call was not recorded
   (--ignore-fn). */
static const void* last_alloc = NULL;

// The sums over all sites of their calls and temporary blocks.
static ULong total_calls     = 0;
static ULong total_temporary = 0;

/* An allocation call made 'block', of 'req_szB' bytes, at 's'. */
static void count_call(Site* s, SizeT req_szB, const void* block)
{
   tl_assert(s->calls + 1 > s->calls);
   tl_assert(s->allocated_szB + req_szB >= s->allocated_szB);
   s->calls++;
   s->allocated_szB += req_szB;
   s->counts_changed = True;
   tl_assert(s->dirty);
   last_alloc = block;
   total_calls++;
}

/* An allocation call whose block is not recorded. */
static void count_ignored_call(void)
{
   last_alloc = NULL;
   stats_ignored_calls++;
}

/* 'block', of site 's' (NULL: not recorded), is about to be freed, by a
   free that may free other blocks too (pages unmapped). */
static void count_free_of(Site* s, const void* block)
{
   if (block != last_alloc || s == NULL)
      return;
   tl_assert(s->temporary < s->calls);
   s->temporary++;
   s->counts_changed = True;
   total_temporary++;
}

/* A free freed one block or more: the latest call's block is not
   temporary if it was not one of them. */
static void count_free_call(void)
{
   last_alloc = NULL;
}

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
   length.  A block keeps its birth in its tag (the chunk header's tag
   bits, or Block.tag): a block grown in a later epoch than its newest
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

#define N_EPOCHS      64
#define BIRTH_MASK    0xfff     // of a tag: the Birth, (generation << 6) | index
#define LAYERED_TAG   0x1000    // of a tag: the block has an entry in 'layered'
#define FREE_SLACK    8         // frames unwound beyond --free-depth, for free's own
typedef UInt Birth;

static Bool  lt_on      = False;  // lifetimes are recorded (the heap is)
static Bool  lt_started = False;  // a heap operation came: lt_t0 is set
static ULong lt_t0      = 0;
static ULong lt_len     = 1;      // 2^lt_gen
static UInt  lt_gen     = 0;
static UInt  lt_index   = 0;      // the open epoch
static ULong lt_end     = 0;      // when it ends: t0 + (lt_index + 1) * lt_len
static ULong lt_open_time = 0;    // --time-unit=ms: the time of its first event
static UInt  lt_birth   = 0;      // a birth in it (birth_now)

static ULong stats_lt_records   = 0;   // L records written
static ULong stats_lt_doublings = 0;
static ULong stats_free_unwinds = 0;   // free stacks looked up
static ULong stats_free_stacks  = 0;   // distinct free stacks
static ULong stats_layered      = 0;   // blocks that got a second layer
static ULong stats_lt_cells     = 0;   // b and d lines written

static inline Birth birth_now(void)
{
   return lt_birth;
}

/* The epoch of a birth, at the length now.  Only a birth now is in the
   open epoch: the births of a shorter length are in the first half of
   the epochs of this length, and the open epoch is in the second. */
static inline UInt epoch_of_Birth(Birth b)
{
   UInt g = b >> 6;
   if (b == lt_birth)
      return lt_index;
   tl_assert(g <= lt_gen && (b & ~BIRTH_MASK) == 0);
   return lt_gen - g >= 6 ? 0 : (b & (N_EPOCHS - 1)) >> (lt_gen - g);
}

/* Alive cells: a site's live bytes and blocks born in 'epoch' (at the
   length of the site's alive_gen). */
struct _AliveCell {
   UInt  epoch;
   SizeT szB;
   SizeT n_blocks;
};

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
      c.epoch = shift >= 6 ? 0 : c.epoch >> shift;
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

/* Free stacks: the stacks that freed bytes born in an earlier epoch.  The
   fields are those of StackNode (the first two, VgHashNode's). */
typedef struct _FreeStack {
   struct _FreeStack* next;
   UWord  hash;           // key: hash_stack() of ips
   UInt   id;             // 1-based id of its P record; 0 = not written
   UInt   n_ips;
   Addr*  ips;            // innermost first
} FreeStack;

static VgHashTable* free_stacks = NULL;  /* stack (hash) -> FreeStack* */
static UInt next_free_stack_id = 1;

LIKE_StackNode(FreeStack, hash);
LIKE_StackNode(FreeStack, n_ips);
LIKE_StackNode(FreeStack, ips);

static FreeStack* get_FreeStack(const Addr* ips, UInt n_ips)
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

/* The free stack that a raw stack makes, as unwound from the free (the
   unwinder's rule, like site_of_raw_stack): the frames of free (and
   realloc, and the --alloc-fn functions) taken off its top, cut below main
   and to --free-depth code addresses.  '*end' is the first frame cut. */
static Site* free_stack_of_raw_stack(const Addr* ips, UInt n_ips,
                                     Bool truncated, UInt* end)
{
   UInt    i = 0, j;
   IpClass cls;
   while (i < n_ips && (classify_ip(ips[i]) & (IpAlloc | IpFree)))
      i++;
   for (j = i; j < n_ips && j - i < clo_free_depth; j++) {
      cls = classify_ip(ips[j]);
      if (cls & IpBelowMain)
         break;
      if (cls & IpMain) {
         j++;
         break;
      }
   }
   *end = j;
   if (truncated && j == n_ips && j - i < clo_free_depth)
      return NEED_DEEPER;
   return (Site*)get_FreeStack(ips + i, j - i);
}

static FreeStack* unwind_FreeStack(ThreadId tid)
{
   stats_free_unwinds++;
   return (FreeStack*)get_Site(free_unwinder, tid);
}

/* The free stack of the operation under way, unwound once for all its
   deaths (pages unmapped, a realloc's layers); reset by the clock before
   each heap operation.  NULL with --free-stacks=no. */
static Bool       op_free_stack_known = False;
static FreeStack* op_free_stack       = NULL;

static FreeStack* free_stack_of_op(ThreadId tid)
{
   if (free_unwinder == NULL || tid == VG_INVALID_THREADID)
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
   h *= 0x9E3779B97F4A7C15ULL;
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
   UWord  key;            // the block: its ChunkHdr* or its Block*
   Bool   chunk;          // which of the two
   UInt   n, cap;
   Layer* l;
} Layers;

static VgHashTable* layered = NULL;   /* ChunkHdr* or Block* -> Layers* */

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

/* What the clock does for lifetimes before a heap operation ('heap_op'),
   marker or snapshot at 'now': lt_t0 at the first heap operation, and the
   epochs passed closed (lt_end is 0 until that operation). */
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
   lt_birth = (lt_gen << 6) | lt_index;
}

static inline void advance_epochs(ULong now, Bool heap_op)
{
   if (heap_op)
      op_free_stack_known = False;
   if (lt_on && now >= lt_end)
      pass_epochs(now, heap_op);
}

/* A block of 'szB' bytes of 's' is born now: its tag. */
static UInt born_Block(Site* s, SizeT szB)
{
   if (!lt_on)
      return 0;
   tl_assert(lt_started);
   note_born_now(s, szB, 1);
   return birth_now();
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

static inline void died_Block(ThreadId tid, Site* s, UWord key, UInt tag,
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
static void move_Block(ThreadId tid, Site* from, Site* to, UWord key,
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
static UInt resize_lifetimes(ThreadId tid, Site* s, UWord key, Bool chunk,
                             UInt tag, SizeT old_szB, SizeT new_szB)
{
   if (!lt_on || new_szB == old_szB)
      return tag;
   if (new_szB > old_szB)
      return grow_Block(s, key, chunk, tag, old_szB, new_szB);
   return shrink_Block(tid, s, key, tag, old_szB, new_szB);
}

/* A layered chunk moved from 'old_key' to 'new_key' (a realloc). */
static void rekey_Block(UWord old_key, UWord new_key, UInt tag)
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
   if (clo_time_unit == TimeMS)
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
static void define_last_epoch(void)
{
   if (!lt_on || !is_open_Writer())
      return;
   if (!lt_started)
      start_epochs(epoch_time());   // no heap operation: one empty epoch
   define_epoch_record(True);
}

static void write_last_epoch(void)
{
   if (lt_on && is_open_Writer())
      write_epoch_record(True);
}

/* A forked child's first record gives the blocks it inherited as births
   with their ages, in the epoch open at the fork; its free stacks are
   written afresh in its own file. */
static void lifetimes_atfork_child(void)
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

static void init_lifetimes(void)
{
   lt_on           = clo_heap;
   free_stacks     = VG_(HT_construct)("st.free_stacks");
   grow_epoch_cells();
   layered         = VG_(HT_construct)("st.layered");
   epoch_cell_pool = VG_(newPA)(sizeof(EpochCell), 1000, VG_(malloc),
                                "st.epoch_cells", VG_(free));
   if (lt_on && clo_free_stacks) {
      UnwindRules r;
      r.depth         = clo_free_depth;
      r.check         = clo_check_unwind_cache;
      r.no_stack      = (Site*)get_FreeStack(NULL, 0);
      r.need_deeper   = NEED_DEEPER;
      r.scache_ways   = 4;   // a destructor's frees of a node, its key
                             // and its vector, inlined into one frame
      r.site_of_stack = free_stack_of_raw_stack;
      r.named_frame   = is_named_frame;
      free_unwinder   = new_Unwinder(&r);
   }
}

/* For the expensive sanity check: what a site is alive with by birth adds
   up to its bytes and blocks. */
static void check_alive_of_Site(const Site* s)
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
   its size, oldest first, the oldest with its own birth. */
static void check_Layers(void)
{
   Layers* ls;
   VG_(HT_ResetIter)(layered);
   while ((ls = VG_(HT_Next)(layered)) != NULL) {
      SizeT szB = 0, block_szB;
      UInt  tag, i;
      if (ls->chunk) {
         const ChunkHdr* h = (const ChunkHdr*)ls->key;
         tl_assert(h->site != NULL);
         block_szB = req_szB_of_Chunk(h);
         tag       = tag_of_Chunk(h);
      } else {
         const Block* b = (const Block*)ls->key;
         block_szB = b->req_szB;
         tag       = b->tag;
      }
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

/*------------------------------------------------------------*/
/*--- Blocks in the table: custom allocators, pages        ---*/
/*------------------------------------------------------------*/

/* Blocks of the malloc family carry their site in a header (st_alloc.h).
   Blocks the tool does not allocate itself, those announced with
   VALGRIND_MALLOCLIKE_BLOCK and the pages of --pages-as-heap=yes, live in
   the 'blocks' hash table instead. */

static Block* add_Block(Addr p, SizeT req_szB, SizeT extra_szB, Site* site)
{
   Block* b = VG_(allocEltPA)(block_pool);
   b->addr      = p;
   b->req_szB   = req_szB;
   b->extra_szB = extra_szB;
   b->site      = site;
   b->tag       = born_Block(site, req_szB);
   VG_(HT_add_node)(blocks, b);
   count_alloc(site, req_szB, extra_szB);
   return b;
}

/* Records a block allocated now by 'tid', unless it is ignored. */
static void record_Block(ThreadId tid, Addr p, SizeT req_szB, SizeT extra_szB)
{
   Site* site = get_Site(site_unwinder, tid);
   if (site == NULL) {
      stats_ignored_allocs++;
      count_ignored_call();
   } else
      count_call(site, req_szB, add_Block(p, req_szB, extra_szB, site));
}

/* Whether there was a block at 'p' for 'tid' to free. */
static Bool unrecord_Block(ThreadId tid, Addr p)
{
   Block* b = VG_(HT_remove)(blocks, p);
   if (b == NULL)
      return False;
   died_Block(tid, b->site, (UWord)b, b->tag, b->req_szB);
   count_free_of(b->site, b);
   count_free(b->site, b->req_szB, b->extra_szB);
   VG_(freeEltPA)(block_pool, b);
   return True;
}

static void resize_Block(ThreadId tid, Addr p, SizeT new_szB)
{
   Block* b = VG_(HT_lookup)(blocks, p);
   if (b == NULL)
      return;
   if (new_szB < b->req_szB)
      update_peak();
   b->tag = resize_lifetimes(tid, b->site, (UWord)b, False, b->tag,
                             b->req_szB, new_szB);
   change_Site(b->site, new_szB, b->req_szB, 0);
   tl_assert(heap_szB >= b->req_szB);
   tl_assert(heap_szB - b->req_szB + new_szB >= heap_szB - b->req_szB);
   tl_assert(total_allocs_deallocs_szB + b->req_szB + new_szB
             >= total_allocs_deallocs_szB);
   total_allocs_deallocs_szB += b->req_szB + new_szB;
   heap_szB   = heap_szB - b->req_szB + new_szB;
   b->req_szB = new_szB;
}

/*------------------------------------------------------------*/
/*--- Malloc wrappers                                      ---*/
/*------------------------------------------------------------*/

static SizeT extra_szB_of_Chunk(const ChunkHdr* h)
{
   return clo_heap_admin + usable_szB_of_Chunk(h) - req_szB_of_Chunk(h);
}

/* Chunks live and not recorded (--ignore-fn), for the sanity check: every
   other live chunk is a block of a site.  A realloc keeps a chunk ignored
   or recorded (realloc_Site). */
static ULong ignored_chunks = 0;

/* Gives the chunk its site (the stack of 'tid' now) and counts it. */
static void record_Chunk(ThreadId tid, ChunkHdr* h)
{
   h->site = get_Site(site_unwinder, tid);
   if (h->site == NULL) {
      stats_ignored_allocs++;
      ignored_chunks++;
      count_ignored_call();
   } else {
      set_tag_of_Chunk(h, born_Block(h->site, req_szB_of_Chunk(h)));
      count_alloc(h->site, req_szB_of_Chunk(h), extra_szB_of_Chunk(h));
      count_call(h->site, req_szB_of_Chunk(h), h);
   }
}

/* The chunk is freed by 'tid'. */
static void unrecord_Chunk(ThreadId tid, ChunkHdr* h)
{
   if (h->site != NULL)
      died_Block(tid, h->site, (UWord)h, tag_of_Chunk(h),
                 req_szB_of_Chunk(h));
   count_free_of(h->site, h);
   count_free_call();
   if (h->site != NULL)
      count_free(h->site, req_szB_of_Chunk(h), extra_szB_of_Chunk(h));
   else {
      tl_assert(ignored_chunks > 0);
      ignored_chunks--;
   }
}

/* A realloc moves the block from its site to the realloc's (like massif)
   in one step: a site that keeps a block it reallocs never seems to drop
   to 0 bytes in between (its low would then be 0).  unrecord_Chunk_quietly
   takes the block's bytes out of the totals only; recount_Chunk counts the
   chunk 'to' (the same or a new one) at 'site', and the move from the old
   site, which held 'old_szB' for it. */
static void unrecord_Chunk_quietly(ChunkHdr* h)
{
   if (h->site != NULL)
      take_from_totals(req_szB_of_Chunk(h), extra_szB_of_Chunk(h));
}

static void recount_Chunk(ChunkHdr* to, Site* old_site, SizeT old_szB,
                          Site* site)
{
   tl_assert((site == NULL) == (old_site == NULL));   // realloc_Site
   to->site = site;
   if (site == NULL)
      return;
   if (site != old_site) {
      change_Site(old_site, 0, old_szB, -1);
      count_alloc(site, req_szB_of_Chunk(to), extra_szB_of_Chunk(to));
      return;
   }
   change_Site(site, req_szB_of_Chunk(to), old_szB, 0);
   add_to_totals(req_szB_of_Chunk(to), extra_szB_of_Chunk(to));
}

/* An alignment above MAX_ALIGN_SZB gets NULL, as a block the allocator
   has no memory for; the first such call is reported. */
static void refuse_alignment(SizeT align, SizeT req_szB)
{
   if (stats_aligns_refused++ == 0)
      VG_(umsg)("strata: an allocation of %lu bytes aligned to %lu returns "
                "NULL: Valgrind's allocator aligns to at most %d bytes "
                "(16 MiB); further ones are not reported\n",
                req_szB, align, MAX_ALIGN_SZB);
}

static void* new_block(ThreadId tid, SizeT req_szB, SizeT align, Bool zeroed)
{
   void* p;
   if ((SSizeT)req_szB < 0)
      return NULL;
   if (align > MAX_ALIGN_SZB) {
      refuse_alignment(align, req_szB);
      return NULL;
   }
   clock_before_op();
   p = alloc_Chunk(req_szB, align);
   if (p == NULL)
      return NULL;
   if (zeroed)
      VG_(memset)(p, 0, req_szB);
   record_Chunk(tid, (ChunkHdr*)p - 1);
   clock_after_op();
   return p;
}

static void die_block(ThreadId tid, void* p)
{
   ChunkHdr* h = live_Chunk(p);
   if (h == NULL) {
      if (p != NULL)
         stats_bad_frees++;
      return;
   }
   clock_before_op();
   unrecord_Chunk(tid, h);
   free_Chunk(p);
   clock_after_op();
}

/* The site of a block that 'tid' reallocs now, as massif decides it:
   whether a block is recorded is decided once, by the allocation that made
   it.  A recorded block moves to the site of the realloc, unless the
   realloc is ignored (--ignore-fn): then it stays at its site, with its new
   size, and is never lost while it lives.  An ignored block stays ignored
   whoever reallocs it (no stack is unwound for it). */
static Site* realloc_Site(ThreadId tid, Site* old_site)
{
   Site* site;
   if (old_site == NULL)
      return NULL;
   site = get_Site(site_unwinder, tid);
   if (site == NULL) {
      stats_ignored_reallocs++;
      return old_site;
   }
   return site;
}

/* The lifetimes of a chunk that 'tid' realloc'd from 'old_h' (tag 'tag',
   'old_szB' bytes, site 'old_site') to 'h' (its new size, site 'site'): a
   shrink takes the newest bytes off at the old site, a move to another
   site takes what is left there with its ages, and a growth adds bytes
   born now at the new site.  'h' gets the tag. */
static void renew_lifetimes(ThreadId tid, ChunkHdr* h, ChunkHdr* old_h,
                            UInt tag, Site* old_site, Site* site,
                            SizeT old_szB)
{
   SizeT new_szB = req_szB_of_Chunk(h);
   SizeT kept    = new_szB < old_szB ? new_szB : old_szB;
   if (!lt_on)
      return;
   rekey_Block((UWord)old_h, (UWord)h, tag);
   tag = resize_lifetimes(tid, old_site, (UWord)h, True, tag, old_szB, kept);
   if (site != old_site)
      move_Block(tid, old_site, site, (UWord)h, tag, kept);
   tag = resize_lifetimes(tid, site, (UWord)h, True, tag, kept, new_szB);
   set_tag_of_Chunk(h, tag);
}

static void* renew_block(ThreadId tid, void* p_old, SizeT new_req_szB)
{
   ChunkHdr* h = live_Chunk(p_old);
   SizeT     old_req_szB;
   Site*     old_site;
   Site*     site;
   UInt      tag;
   void*     p_new = p_old;

   if (h == NULL || (SSizeT)new_req_szB < 0)
      return NULL;
   clock_before_op();
   old_req_szB = req_szB_of_Chunk(h);
   old_site    = h->site;
   tag         = tag_of_Chunk(h);
   if (new_req_szB < old_req_szB)
      update_peak();
   unrecord_Chunk_quietly(h);
   if (!resize_Chunk_in_place(h, new_req_szB)) {
      p_new = alloc_Chunk(new_req_szB, VG_(clo_alignment));
      if (p_new == NULL) {
         recount_Chunk(h, old_site, old_req_szB, old_site);
         return NULL;
      }
      VG_(memcpy)(p_new, p_old,
                  old_req_szB < new_req_szB ? old_req_szB : new_req_szB);
      free_Chunk(p_old);
   }
   site = realloc_Site(tid, old_site);
   recount_Chunk((ChunkHdr*)p_new - 1, old_site, old_req_szB, site);
   if (site != NULL) {
      renew_lifetimes(tid, (ChunkHdr*)p_new - 1, h, tag, old_site, site,
                      old_req_szB);
      count_call(site, new_req_szB, (ChunkHdr*)p_new - 1);
   } else
      count_ignored_call();
   stats_reallocs++;
   clock_after_op();
   return p_new;
}

static void* st_malloc(ThreadId tid, SizeT n)
{
   return new_block(tid, n, VG_(clo_alignment), False);
}

static void* st___builtin_new(ThreadId tid, SizeT n)
{
   return new_block(tid, n, VG_(clo_alignment), False);
}

static void* st___builtin_new_aligned(ThreadId tid, SizeT n, SizeT align)
{
   return new_block(tid, n, align, False);
}

static void* st___builtin_vec_new(ThreadId tid, SizeT n)
{
   return new_block(tid, n, VG_(clo_alignment), False);
}

static void* st___builtin_vec_new_aligned(ThreadId tid, SizeT n, SizeT align)
{
   return new_block(tid, n, align, False);
}

static void* st_calloc(ThreadId tid, SizeT m, SizeT size)
{
   if (size != 0 && m > ((SizeT)-1) / size)
      return NULL;
   return new_block(tid, m * size, VG_(clo_alignment), True);
}

static void* st_memalign(ThreadId tid, SizeT align, SizeT n)
{
   return new_block(tid, n, align, False);
}

static void st_free(ThreadId tid, void* p)
{
   die_block(tid, p);
}

static void st___builtin_delete(ThreadId tid, void* p)
{
   die_block(tid, p);
}

static void st___builtin_delete_aligned(ThreadId tid, void* p, SizeT align)
{
   die_block(tid, p);
}

static void st___builtin_vec_delete(ThreadId tid, void* p)
{
   die_block(tid, p);
}

static void st___builtin_vec_delete_aligned(ThreadId tid, void* p,
                                            SizeT align)
{
   die_block(tid, p);
}

static void* st_realloc(ThreadId tid, void* p_old, SizeT new_szB)
{
   if (p_old == NULL)
      return st_malloc(tid, new_szB);
   if (new_szB == 0) {
      die_block(tid, p_old);
      return NULL;
   }
   return renew_block(tid, p_old, new_szB);
}

static SizeT st_malloc_usable_size(ThreadId tid, void* p)
{
   ChunkHdr* h = live_Chunk(p);
   return h ? usable_szB_of_Chunk(h) : 0;
}

/* The malloc replacements, in the order VG_(needs_malloc_replacement) takes
   them; the fast client calls (Instrumentation) serve these. */
#define ST_MALLOC_FNS                                                    \
   st_malloc, st___builtin_new, st___builtin_new_aligned,                \
   st___builtin_vec_new, st___builtin_vec_new_aligned, st_memalign,      \
   st_calloc, st_free, st___builtin_delete, st___builtin_delete_aligned, \
   st___builtin_vec_delete, st___builtin_vec_delete_aligned, st_realloc, \
   st_malloc_usable_size

/*------------------------------------------------------------*/
/*--- Pages as heap                                        ---*/
/*------------------------------------------------------------*/

/* With --pages-as-heap=yes each mapped page is a block, allocated by the
   stack that mapped it.  Pages mapped before the client ran have no stack.
   A page of the data segment counts while any byte below the break is in
   it, as in massif: a break moved to the middle of a page keeps that page. */

static void record_pages(ThreadId tid, Addr a, SizeT len)
{
   Addr   p;
   Addr   start = VG_PGROUNDDN(a);
   Addr   end   = VG_PGROUNDUP(a + len);
   Site*  site;
   Block* first = NULL;   // of the pages new here
   SizeT  new_szB = 0;
   clock_before_op();
   site = tid == VG_INVALID_THREADID ? no_stack_site : get_Site(site_unwinder, tid);
   if (site == NULL) {
      count_ignored_call();
      return;
   }
   for (p = start; p < end; p += VKI_PAGE_SIZE)
      if (VG_(HT_lookup)(blocks, p) == NULL) {
         Block* b = add_Block(p, VKI_PAGE_SIZE, 0, site);
         if (first == NULL)
            first = b;
         new_szB += VKI_PAGE_SIZE;
      }
   if (first != NULL)
      count_call(site, new_szB, first);   // its first page stands for it
   clock_after_op();
}

static void unrecord_pages(Addr a, SizeT len)
{
   Addr p;
   Addr end = VG_PGROUNDUP(a + len);
   Bool freed = False;
   clock_before_op();
   for (p = VG_PGROUNDDN(a); p < end; p += VKI_PAGE_SIZE)
      freed |= unrecord_Block(VG_(get_running_tid)(), p);
   if (freed)
      count_free_call();
   clock_after_op();
}

static void st_new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                               ULong di_handle)
{
   record_pages(VG_INVALID_THREADID, a, len);
}

static void st_new_mem_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                            ULong di_handle)
{
   record_pages(VG_(get_running_tid)(), a, len);
}

static void st_new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
   record_pages(tid, a, len);
}

static void st_die_mem_munmap(Addr a, SizeT len)
{
   unrecord_pages(a, len);
}

/* The break moved down to a: the page that holds a still holds the bytes
   below it, so only the pages wholly above a are given back. */
static void st_die_mem_brk(Addr a, SizeT len)
{
   Addr first = VG_PGROUNDUP(a);
   if (first < a + len)
      unrecord_pages(first, a + len - first);
}

static void st_copy_mem_remap(Addr from, Addr to, SizeT len)
{
   unrecord_pages(from, len);
   record_pages(VG_(get_running_tid)(), to, len);
}

/* With --pages-as-heap=yes the client's own allocator must map its pages;
   with --heap=no its blocks are not recorded.  Either way the preload
   library must not replace malloc: blank its name out of LD_PRELOAD. */
static void disable_malloc_replacement(void)
{
   HChar** env;
   SizeT   name_len = VG_(strlen)(VG_(LD_PRELOAD_var_name));
   for (env = VG_(client_envp); env && *env; env++) {
      HChar* hit;
      HChar* end;
      if (VG_(strncmp)(*env, VG_(LD_PRELOAD_var_name), name_len) != 0
          || (*env)[name_len] != '=')
         continue;
      hit = VG_(strstr)(*env, "vgpreload_strata-");
      if (hit == NULL)
         continue;
      while (hit > *env + name_len + 1 && hit[-1] != ':')
         hit--;
      for (end = hit; *end && *end != ':'; end++)
         *end = ' ';
   }
}

/*------------------------------------------------------------*/
/*--- The client's environment                             ---*/
/*------------------------------------------------------------*/

/* Valgrind finds strata's tool through VALGRIND_LIB, and gives the client
   the environment it was given: a program that runs valgrind itself would
   find strata's directory instead of its own Valgrind's.  So the entry is
   taken out of the client's environment before the client starts.  It is
   on the client's initial stack, where the auxiliary vector comes right
   after the environment's NULL (the dynamic loader finds it there): the
   entries after it, the NULL and the vector move down one slot, the stack
   pointer (at argc) stays where it is, and VG_(client_auxv) follows the
   vector.  A traced exec gets VALGRIND_LIB again from the core, for the
   new Valgrind, and the new strata takes it out again. */
static Bool hide_one(HChar** env, const HChar* name_eq)
{
   SizeT   len = VG_(strlen)(name_eq);
   HChar** slot;
   HChar** null;
   UWord*  end;
   for (slot = env; *slot && VG_(strncmp)(*slot, name_eq, len) != 0; slot++)
      ;
   for (null = slot; *null; null++)
      ;
   if (*slot == NULL || (UWord*)(null + 1) != VG_(client_auxv))
      return False;   // not there, or not the layout of Valgrind 3.19
   for (end = VG_(client_auxv); end[0] != 0 /* AT_NULL */; end += 2)
      ;
   end += 2;
   VG_(memmove)(slot, slot + 1, (Addr)end - (Addr)(slot + 1));
   end[-1] = 0;
   VG_(client_auxv)--;
   return True;
}

static void hide_valgrind_lib(void)
{
   if (VG_(client_envp) == NULL || VG_(client_auxv) == NULL)
      return;
   while (hide_one(VG_(client_envp), "VALGRIND_LIB="))
      ;
}

/*------------------------------------------------------------*/
/*--- Stacks                                               ---*/
/*------------------------------------------------------------*/

static void st_new_mem_stack(Addr a, SizeT len)
{
   tl_assert(stacks_szB + len >= stacks_szB);
   stacks_szB += len;
}

/* The stack can shrink by more than was counted: at the start, the client
   pops what Valgrind put on its stack before the tool counted anything. */
static void st_die_mem_stack(Addr a, SizeT len)
{
   update_peak();
   stacks_szB = stacks_szB > len ? stacks_szB - len : 0;
}

static void st_new_mem_stack_signal(Addr a, SizeT len, ThreadId tid)
{
   st_new_mem_stack(a, len);
}

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

static void write_marker(const HChar* label)
{
   HChar copy[256];
   if (!is_open_Writer())
      return;
   check_clock(False);   // the ticks passed come first in the file
   refresh_ms_clock();
   VG_(strncpy)(copy, label ? label : "", sizeof(copy) - 1);
   copy[sizeof(copy) - 1] = '\0';
   if (get_time() > last_stamp)
      last_stamp = get_time();
   put_str("M");
   put_field_u64(get_time());
   put_field_text(copy);
   put_nl();
}

static Bool st_handle_client_request(ThreadId tid, UWord* argv, UWord* ret)
{
   switch (argv[0]) {
   case VG_USERREQ__MALLOCLIKE_BLOCK:
      if (!clo_heap)
         break;
      clock_before_op();
      record_Block(tid, argv[1], argv[2], clo_heap_admin);
      clock_after_op();
      break;
   case VG_USERREQ__FREELIKE_BLOCK:
      clock_before_op();
      if (unrecord_Block(tid, argv[1]))
         count_free_call();
      clock_after_op();
      break;
   case VG_USERREQ__RESIZEINPLACE_BLOCK:
      clock_before_op();
      resize_Block(tid, argv[1], argv[3]);
      clock_after_op();
      break;
   case VG_USERREQ__STRATA_MARK:
      write_marker((const HChar*)argv[1]);
      break;
   case VG_USERREQ__STRATA_SNAPSHOT:
      check_clock(False);
      take_snapshot(SnapUser);
      break;
   default:
      return False;
   }
   *ret = 0;
   return True;
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

/* With --time-unit=i (and ms, for the clock to see idle stretches), counts
   guest instructions: before each exit of a
   superblock, and at its end, adds the instructions executed since the
   previous update to guest_instrs_executed.  (A counter in each thread's
   shadow registers, updated like a register rather than through memory,
   was tried: reading it at every heap operation cost more than it saved.) */
static void add_counter_update(IRSB* sbOut, Int n)
{
   IRExpr* addr;
   IRTemp  t1, t2;
   if (n == 0)
      return;
   addr = mkIRExpr_HWord((HWord)&guest_instrs_executed);
   t1 = newIRTemp(sbOut->tyenv, Ity_I64);
   t2 = newIRTemp(sbOut->tyenv, Ity_I64);
   addStmtToIRSB(sbOut, IRStmt_WrTmp(t1, IRExpr_Load(Iend_LE, Ity_I64, addr)));
   addStmtToIRSB(sbOut, IRStmt_WrTmp(t2, IRExpr_Binop(
                           Iop_Add64, IRExpr_RdTmp(t1),
                           IRExpr_Const(IRConst_U64(n)))));
   addStmtToIRSB(sbOut, IRStmt_Store(Iend_LE, addr, IRExpr_RdTmp(t2)));
}

/* Fast client calls.  The malloc replacements in the preload library reach
   the tool through a client request (VALGRIND_NON_SIMD_CALLn): the
   generated code stops, returns to the scheduler, which calls the tool's
   function and enters the generated code again.  That round trip was a
   third of an allocation's cost.  So a superblock that ends in a client
   request ends instead in a call to st_fast_client_call, made from the
   generated code with the guest registers that unwinding needs written
   back: a call of one of strata's own malloc functions is made there, and
   its result put in the request's result register, as the scheduler would;
   any other request leaves the superblock as a client request after all.
   amd64 only (the one platform the tool is built for). */
#if defined(VGA_amd64)
#include "libvex_guest_amd64.h"

static const void* const malloc_fns[] = { ST_MALLOC_FNS };

static Bool is_malloc_fn(const void* f)
{
   UInt i;
   for (i = 0; i < sizeof(malloc_fns) / sizeof(malloc_fns[0]); i++)
      if (malloc_fns[i] == f)
         return True;
   return False;
}

/* Made from the generated code: 1 if done, 0 to leave the superblock with
   the client request. */
static UWord st_fast_client_call(VexGuestAMD64State* gst, UWord* args)
{
   ThreadId tid;
   if (args[0] < VG_USERREQ__CLIENT_CALL1
       || args[0] > VG_USERREQ__CLIENT_CALL3 || !is_malloc_fn((void*)args[1]))
      return 0;
   tid = VG_(get_running_tid)();
   stats_fast_calls++;
   switch (args[0]) {
   case VG_USERREQ__CLIENT_CALL1:
      gst->guest_RDX = ((UWord (*)(ThreadId, UWord))args[1])(tid, args[2]);
      break;
   case VG_USERREQ__CLIENT_CALL2:
      gst->guest_RDX = ((UWord (*)(ThreadId, UWord, UWord))args[1])
                          (tid, args[2], args[3]);
      break;
   default:
      gst->guest_RDX = ((UWord (*)(ThreadId, UWord, UWord, UWord))args[1])
                          (tid, args[2], args[3], args[4]);
      break;
   }
   return 1;
}

static void add_fx(IRDirty* d, IREffect fx, Int offset)
{
   d->fxState[d->nFxState].fx        = fx;
   d->fxState[d->nFxState].offset    = offset;
   d->fxState[d->nFxState].size      = 8;
   d->fxState[d->nFxState].nRepeats  = 0;
   d->fxState[d->nFxState].repeatLen = 0;
   d->nFxState++;
}

/* sbOut ends in a client request: call st_fast_client_call first. */
static void add_fast_client_call(IRSB* sbOut)
{
   Addr     next = (Addr)sbOut->next->Iex.Const.con->Ico.U64;
   IRTemp   args = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp   done = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp   slow = newIRTemp(sbOut->tyenv, Ity_I1);
   IRDirty* d;
   Int      o_rip = offsetof(VexGuestAMD64State, guest_RIP);

   addStmtToIRSB(sbOut, IRStmt_Put(o_rip, IRExpr_Const(IRConst_U64(next))));
   addStmtToIRSB(sbOut, IRStmt_WrTmp(args, IRExpr_Get(
      offsetof(VexGuestAMD64State, guest_RAX), Ity_I64)));
   d = unsafeIRDirty_1_N(done, 0, "st_fast_client_call",
                         VG_(fnptr_to_fnentry)(&st_fast_client_call),
                         mkIRExprVec_2(IRExpr_GSPTR(), IRExpr_RdTmp(args)));
   d->mFx   = Ifx_Modify;   // the request's arguments, and the heap
   d->mAddr = IRExpr_RdTmp(args);
   d->mSize = 6 * sizeof(UWord);
   add_fx(d, Ifx_Read, o_rip);
   add_fx(d, Ifx_Read, offsetof(VexGuestAMD64State, guest_RSP));
   add_fx(d, Ifx_Read, offsetof(VexGuestAMD64State, guest_RBP));
   add_fx(d, Ifx_Modify, offsetof(VexGuestAMD64State, guest_RDX));
   addStmtToIRSB(sbOut, IRStmt_Dirty(d));
   addStmtToIRSB(sbOut, IRStmt_WrTmp(slow, IRExpr_Binop(
      Iop_CmpEQ64, IRExpr_RdTmp(done), IRExpr_Const(IRConst_U64(0)))));
   addStmtToIRSB(sbOut, IRStmt_Exit(IRExpr_RdTmp(slow), Ijk_ClientReq,
                                    IRConst_U64(next), o_rip));
   sbOut->jumpkind = Ijk_Boring;
}

#endif

static Bool ends_in_client_request(const IRSB* sb)
{
#if defined(VGA_amd64)
   return clo_fast_client_calls && sb->jumpkind == Ijk_ClientReq
          && sb->next->tag == Iex_Const
          && sb->next->Iex.Const.con->tag == Ico_U64;
#else
   return False;
#endif
}

static IRSB* st_instrument(VgCallbackClosure* closure, IRSB* sbIn,
                           const VexGuestLayout* layout,
                           const VexGuestExtents* vge,
                           const VexArchInfo* archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   IRSB* sbOut;
   Int   i, n = 0;
   Bool  count = clo_time_unit != TimeB;   // ms: to see idle stretches

   if (!count && !ends_in_client_request(sbIn))
      return sbIn;
   sbOut = deepCopyIRSBExceptStmts(sbIn);
   for (i = 0; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark)
         n++;
      else if (st->tag == Ist_Exit && count) {
         add_counter_update(sbOut, n);
         n = 0;
      }
      addStmtToIRSB(sbOut, st);
   }
   if (count)
      add_counter_update(sbOut, n);
#if defined(VGA_amd64)
   if (ends_in_client_request(sbIn))
      add_fast_client_call(sbOut);
#endif
   return sbOut;
}

/*------------------------------------------------------------*/
/*--- Fork                                                 ---*/
/*------------------------------------------------------------*/

/* A forked child writes a profile of its own: a new file, frames and sites
   written anew, and a first snapshot of the heap it inherited.  Its
   allocation counts are its own: they start from 0 at the fork.  When
   --out-file names the same file for the child as for its parent (no %p in
   it), the child's name is its parent's followed by its own pid, as if the
   pattern ended in .%p; so is the name of anything it execs, and its
   children's are theirs: the pattern with .%p is passed on to the program
   a traced exec starts, as --out-file is. */
static Word  out_file_arg = -1;      // its index in VG_(args_for_valgrind)
static HChar* out_file_text = NULL;  // the option passed on

static void name_child_Output(void)
{
   HChar* name = VG_(expand_file_name)("--out-file", clo_out_file);
   Bool   same = base_name != NULL && VG_STREQ(name, base_name);
   HChar* pattern;
   VG_(free)(name);
   if (!same)
      return;
   pattern = VG_(malloc)("st.out.child", VG_(strlen)(clo_out_file) + 4);
   VG_(sprintf)(pattern, "%s.%%p", clo_out_file);
   clo_out_file = pattern;     // never freed: the options keep pointers to it
   out_file_text = VG_(malloc)("st.out.arg", VG_(strlen)(pattern) + 16);
   VG_(sprintf)(out_file_text, "--out-file=%s", pattern);
   if (out_file_arg < 0)
      out_file_arg = VG_(addToXA)(VG_(args_for_valgrind), &out_file_text);
   else
      *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), out_file_arg)
         = out_file_text;
}

static void st_atfork_child(ThreadId tid)
{
   Word i;
   if (!is_open_Writer())
      return;
   drop_Writer();                // the parent writes what it had buffered
   VG_(HT_destruct)(frame_runs, VG_(free));
   frame_runs    = VG_(HT_construct)("st.frame_runs");
   next_frame_id = 1;
   next_site_id  = 1;
   for (i = 0; i < VG_(sizeXA)(all_sites); i++) {
      Site* s = *(Site**)VG_(indexXA)(all_sites, i);
      s->id = 0;
      s->calls = s->allocated_szB = s->temporary = 0;   // counted afresh
      s->counts_changed = False;
      if (s->szB > 0 || s->n_blocks > 0)
         change_Site(s, 0, 0, 0);
   }
   lifetimes_atfork_child();
   last_alloc  = NULL;          // the child has made no call yet
   total_calls = total_temporary = 0;
   peak_gen++;
   peak_time = get_time();
   peak_heap_szB = heap_szB;
   peak_extra_szB = heap_extra_szB;
   peak_stacks_szB = stacks_szB;
   peak_written = False;      // the inherited heap is the child's first peak
   largest_written_szB = 0;   // nothing written in the child's file yet
   clo_after_exec = 0;        // a new process, named by its own pid
   forked = True;
   name_child_Output();
   open_Output();
   if (is_open_Writer())
      take_snapshot(SnapRegular);
}

/*------------------------------------------------------------*/
/*--- Exec                                                 ---*/
/*------------------------------------------------------------*/

static void end_profile(Bool provisional);

/* execve replaces the process and the tool with it, without finalisation:
   end the profile first.  An execve may fail, and programs try several
   (execvp walks the PATH; g++ does so for each of its passes): then the end
   is taken back, the file cut to where it began, and the profile goes on as
   if the execve had not been tried.  The end changed nothing but the file.

   With --trace-children=yes the new program is profiled anew by a new
   strata, with the options in VG_(args_for_valgrind).  Its --out-file name
   is this one's (the same pid for %p; %n counts afresh), so it would write
   over this profile: each execve adds --after-exec=N to those options, N
   counting the execs of the process, and the new strata writes to its
   name with .execN after it.  A failed execve puts the count back. */

static Word  after_exec_arg = -1;     // its index in VG_(args_for_valgrind)
static HChar after_exec_text[32];     // the option passed on

static void pass_exec_count(UInt n)
{
   VG_(sprintf)(after_exec_text, "--after-exec=%u", n);
   if (after_exec_arg < 0) {
      const HChar* text = after_exec_text;
      after_exec_arg = VG_(addToXA)(VG_(args_for_valgrind), &text);
   }
}

/* The ledger goes on across an exec that the core traces: its descriptor
   stays open for the new strata (--record-fd, passed on like
   --after-exec).  An exec the core does not trace is noted (E): the
   program it starts is not profiled, and strata record says so; an E is
   taken back (e) if the execve returns. */
static Word  record_fd_arg = -1;      // its index in VG_(args_for_valgrind)
static HChar record_fd_text[32];      // the option passed on
static Bool  exec_traced = False;     // of the execve under way

static Bool will_trace(UInt syscallno, UWord* args, const HChar** path)
{
   Addr name = syscallno == __NR_execve ? args[0] : args[1];
   *path = name != 0 && VG_(am_is_valid_for_client)(name, 1, VKI_PROT_READ)
              ? (const HChar*)name : "";
   return VG_(clo_trace_children)
          && VG_(should_we_trace_this_child)(**path ? *path : NULL, NULL);
}

static void pass_Ledger(UInt syscallno, UWord* args)
{
   const HChar* path;
   HChar pid[16];
   Int   fd = fd_Ledger();
   if (fd < 0)
      return;
   exec_traced = will_trace(syscallno, args, &path);
   if (!exec_traced) {
      VG_(sprintf)(pid, "%d", VG_(getpid)());
      note_Ledger("E", pid, path, NULL);
      return;
   }
   VG_(fcntl)(fd, VKI_F_SETFD, 0);
   VG_(sprintf)(record_fd_text, "--record-fd=%d", fd);
   if (record_fd_arg < 0) {
      const HChar* text = record_fd_text;
      record_fd_arg = VG_(addToXA)(VG_(args_for_valgrind), &text);
   }
}

static void take_back_Ledger(void)
{
   HChar pid[16];
   Int   fd = fd_Ledger();
   if (fd < 0)
      return;
   if (exec_traced) {
      VG_(fcntl)(fd, VKI_F_SETFD, VKI_FD_CLOEXEC);
   } else {
      VG_(sprintf)(pid, "%d", VG_(getpid)());
      note_Ledger("e", pid, NULL, NULL);
   }
}

static void st_pre_syscall(ThreadId tid, UInt syscallno, UWord* args,
                           UInt nArgs)
{
   if (syscallno == __NR_execve || syscallno == __NR_execveat) {
      end_profile(True);
      pass_exec_count(clo_after_exec + 1);
      pass_Ledger(syscallno, args);
   }
}

static void st_post_syscall(ThreadId tid, UInt syscallno, UWord* args,
                            UInt nArgs, SysRes res)
{
   if (syscallno == __NR_setrlimit || syscallno == __NR_prlimit64)
      check_limit_Writer();   // RLIMIT_FSIZE must not stop the profile
   if (syscallno != __NR_execve && syscallno != __NR_execveat)
      return;
   pass_exec_count(clo_after_exec);
   take_back_Ledger();
   if (provisional_end < 0 || !is_open_Writer())
      return;
   cut_Writer((ULong)provisional_end);
   provisional_end = -1;
   stats_snapshots[SnapFinal]--;
}

/*------------------------------------------------------------*/
/*--- Sanity checks                                        ---*/
/*------------------------------------------------------------*/

/* Valgrind calls these between time slices (VG_(needs_sanity_checks)):
   the cheap one at every --sanity-level from 1 (the default), the
   expensive one at level 2 and above, and now and again at level 1.  The
   cheap one is O(1); the expensive one walks every site, every block in
   the table, the allocator's free lists and the caches, so strata makes
   it only from level 2.  Each tl_asserts what it checks: the message
   says which assumption failed. */

/* Not in the tool API, but in the core this tool links with. */
extern Int VG_(clo_sanity_level);

/* The clocks as the last cheap check saw them: they never go back. */
static ULong checked_time[3] = { 0, 0, 0 };   // by TimeUnit

static Bool st_cheap_sanity_check(void)
{
   ULong live;
   stats_cheap_checks++;
   tl_assert(stats_frees <= stats_allocs);
   live = stats_allocs - stats_frees;
   tl_assert(live > 0 || (heap_szB == 0 && heap_extra_szB == 0));
   tl_assert(heap_extra_szB >= clo_heap_admin * live);
   tl_assert(guest_instrs_executed >= checked_time[TimeI]);
   tl_assert(ms_clock >= checked_time[TimeMS]);
   tl_assert(total_allocs_deallocs_szB >= checked_time[TimeB]);
   checked_time[TimeI]  = guest_instrs_executed;
   checked_time[TimeMS] = ms_clock;
   checked_time[TimeB]  = total_allocs_deallocs_szB;
   tl_assert(last_stamp <= get_time() && peak_time <= get_time());
   tl_assert(snapshot_interval > 0
             && (snapshot_interval & (snapshot_interval - 1)) == 0);
   tl_assert(dirty_sites == NULL || dirty_sites->dirty);
   tl_assert(total_temporary <= total_calls);
   return True;
}

/* Whether 's' is a site of the tool: the site of no stack, or the one the
   table of sites gives for its stack. */
static Bool is_known_Site(Site* s)
{
   return s == no_stack_site
          || (s != NULL && VG_(HT_gen_lookup)(sites, s, cmp_stacks) == s);
}

/* What a site's own fields must say.  A site that has not changed since
   the last snapshot has its bytes as its low and high. */
static void check_Site(Site* s)
{
   tl_assert(is_known_Site(s));
   tl_assert(s->id < next_site_id);
   tl_assert(s->min_szB <= s->szB && s->szB <= s->max_szB);
   tl_assert(s->dirty || (s->min_szB == s->szB && s->max_szB == s->szB));
   tl_assert(s->szB == 0 || s->n_blocks > 0);
   tl_assert(s->peak_gen <= peak_gen);
   tl_assert(s->temporary <= s->calls);
   tl_assert(s->calls > 0 || s->allocated_szB == 0);
   tl_assert(s->dirty || !s->counts_changed);   // its c line goes with its s
   check_alive_of_Site(s);
}

/* The totals are the sums of the sites, now and at the peak; the blocks
   of the sites are the blocks recorded; the dirty list is the sites
   marked dirty.  Returns the blocks of all sites. */
static ULong check_all_Sites(void)
{
   Word  i, n = VG_(sizeXA)(all_sites);
   ULong sum_szB = 0, sum_blocks = 0, sum_peak_szB = 0, dirty = 0, listed = 0;
   ULong sum_calls = 0, sum_temporary = 0;
   Site* s;
   for (i = 0; i < n; i++) {
      s = *(Site**)VG_(indexXA)(all_sites, i);
      check_Site(s);
      sum_szB      += s->szB;
      sum_blocks   += s->n_blocks;
      sum_peak_szB += peak_szB_of_Site(s);
      dirty        += s->dirty ? 1 : 0;
      sum_calls     += s->calls;
      sum_temporary += s->temporary;
   }
   for (s = dirty_sites; s != NULL; s = s->next_dirty) {
      tl_assert(s->dirty && listed < dirty);
      listed++;
   }
   tl_assert(listed == dirty);
   tl_assert(sum_szB == heap_szB);
   tl_assert(sum_blocks == stats_allocs - stats_frees);
   tl_assert(sum_peak_szB == peak_heap_szB);
   tl_assert(sum_calls == total_calls && sum_temporary == total_temporary);
   tl_assert(VG_(HT_count_nodes)(sites) + 1 == (UInt)n);   // + no_stack_site
   return sum_blocks;
}

/* The block table holds as many blocks as it counts, each a block of a
   known site that holds at least its bytes.  Returns how many. */
static ULong check_Block_table(void)
{
   ULong  n = 0, sum_szB = 0, sum_extra_szB = 0;
   Block* b;
   VG_(HT_ResetIter)(blocks);
   while ((b = VG_(HT_Next)(blocks)) != NULL) {
      tl_assert(is_known_Site(b->site));
      tl_assert(b->site->n_blocks > 0 && b->site->szB >= b->req_szB);
      sum_szB       += b->req_szB;
      sum_extra_szB += b->extra_szB;
      n++;
   }
   tl_assert(n == VG_(HT_count_nodes)(blocks));
   tl_assert(sum_szB <= heap_szB && sum_extra_szB <= heap_extra_szB);
   return n;
}

static Bool st_expensive_sanity_check(void)
{
   ULong site_blocks, table_blocks, chunks;
   if (VG_(clo_sanity_level) < 2 || all_sites == NULL)
      return True;
   stats_expensive_checks++;
   site_blocks  = check_all_Sites();
   table_blocks = check_Block_table();
   check_Chunks();
   if (lt_on)
      check_Layers();
   chunks = live_Chunks();
   // Every live block belongs to a site: a chunk not ignored, or a block
   // in the table.
   tl_assert(chunks >= ignored_chunks);
   tl_assert(site_blocks == chunks - ignored_chunks + table_blocks);
   check_Unwind(site_unwinder);
   if (free_unwinder != NULL)
      check_Unwind(free_unwinder);
   return True;
}

/*------------------------------------------------------------*/
/*--- Finalisation                                         ---*/
/*------------------------------------------------------------*/

static void st_print_stats(void)
{
   const UnwindStats* us = stats_Unwind(site_unwinder);
   VG_(umsg)("strata: blocks recorded:     %'llu\n", stats_allocs);
   VG_(umsg)("strata: blocks ignored:      %'llu\n", stats_ignored_allocs);
   VG_(umsg)("strata: blocks freed:        %'llu\n", stats_frees);
   VG_(umsg)("strata: reallocs:            %'llu (%'llu ignored: the block "
             "kept its site)\n", stats_reallocs, stats_ignored_reallocs);
   VG_(umsg)("strata: allocation calls:    %'llu counted (%'llu temporary), "
             "%'llu not\n", total_calls, total_temporary, stats_ignored_calls);
   VG_(umsg)("strata: stacks unwound:      %'llu\n", us->unwound);
   VG_(umsg)("strata: unwind cache:        %'llu hits, %'llu misses\n",
             us->ucache_hits, us->ucache_misses);
   VG_(umsg)("strata: site cache hits:     %'llu\n", us->top_hits);
   VG_(umsg)("strata: stack cache hits:    %'llu\n", us->scache_hits);
   VG_(umsg)("strata: fast client calls:   %'llu\n", stats_fast_calls);
   if (clo_check_unwind_cache)
      VG_(umsg)("strata: wrong cache hits:    %'llu\n", us->wrong);
   VG_(umsg)("strata: sites:               %'llu\n", stats_sites);
   VG_(umsg)("strata: frames written:      %'llu\n", stats_frames_written);
   VG_(umsg)("strata: snapshots:           %'llu regular, %'llu user, "
             "%'llu peak, %'llu final\n", stats_snapshots[SnapRegular],
             stats_snapshots[SnapUser], stats_snapshots[SnapPeak],
             stats_snapshots[SnapFinal]);
   VG_(umsg)("strata: bytes written:       %'llu in %'llu writes\n",
             bytes_written_Writer(), writes_Writer());
   VG_(umsg)("strata: epoch records:       %'llu (%'llu b and d lines, "
             "%'llu doublings)\n", stats_lt_records, stats_lt_cells,
             stats_lt_doublings);
   if (free_unwinder != NULL) {
      const UnwindStats* fs = stats_Unwind(free_unwinder);
      VG_(umsg)("strata: free stacks:         %'llu (%'llu looked up at "
                "frees: %'llu stack cache hits, %'llu unwound, %'llu of "
                "them from the unwind cache)\n",
                stats_free_stacks, stats_free_unwinds, fs->scache_hits,
                fs->unwound, fs->ucache_hits);
   }
   VG_(umsg)("strata: layered blocks:      %'llu (%'llu layered now)\n",
             stats_layered, layered ? (ULong)VG_(HT_count_nodes)(layered) : 0);
   VG_(umsg)("strata: frees of no block:   %'llu\n", stats_bad_frees);
   VG_(umsg)("strata: alignments refused:  %'llu\n", stats_aligns_refused);
   VG_(umsg)("strata: sanity checks:       %'llu cheap, %'llu expensive\n",
             stats_cheap_checks, stats_expensive_checks);
   VG_(umsg)("strata: live blocks at end:  %'llu\n",
             stats_allocs - stats_frees);
   VG_(umsg)("strata: slabs for blocks:    %'llu bytes\n", slab_szB_Chunks());
}

/* The final snapshot (with the peak, if not yet written) and the end. */
static void end_profile(Bool provisional)
{
   if (!is_open_Writer())
      return;
   check_clock(False);   // an idle stretch before the end is held
   refresh_ms_clock();
   define_last_epoch();
   take_snapshot_as(SnapFinal, provisional);
   write_last_epoch();
   // The peak is the largest total of the run (within --peak-inaccuracy),
   // unless output stopped (a full disk) before it could be written.
   tl_assert(!is_open_Writer()
             || (peak_written && within_peak(largest_written_szB)));
   put_str("X");
   put_field_u64(get_time());
   put_nl();
   finish_Writer();
}

static void st_fini(Int exitcode)
{
   end_profile(False);
   if (VG_(clo_stats))
      st_print_stats();
   close_Writer();
}

/*------------------------------------------------------------*/
/*--- Initialisation                                       ---*/
/*------------------------------------------------------------*/

static void add_patterns(XArray* xa, const HChar** names, Int n)
{
   Int i;
   for (i = 0; i < n; i++)
      VG_(addToXA)(xa, &names[i]);
}

static void st_post_clo_init(void)
{
   if (clo_pages_as_heap && clo_stacks) {
      // (VG_(fmsg_bad_option) does not stop the run after option parsing.)
      VG_(fmsg)("Bad option: --pages-as-heap=yes cannot be used together "
                "with --stacks=yes\n");
      VG_(exit)(1);
   }
   if (!clo_heap)
      clo_pages_as_heap = False;   // as in massif: no heap of either kind
   if (!clo_heap || clo_pages_as_heap)
      disable_malloc_replacement();
   hide_valgrind_lib();
   if (clo_pages_as_heap) {
      clo_heap_admin = 0;
      VG_(track_new_mem_startup)(st_new_mem_startup);
      VG_(track_new_mem_brk)(st_new_mem_brk);
      VG_(track_new_mem_mmap)(st_new_mem_mmap);
      VG_(track_copy_mem_remap)(st_copy_mem_remap);
      VG_(track_die_mem_brk)(st_die_mem_brk);
      VG_(track_die_mem_munmap)(st_die_mem_munmap);
   }
   if (clo_stacks) {
      VG_(track_new_mem_stack)(st_new_mem_stack);
      VG_(track_die_mem_stack)(st_die_mem_stack);
      VG_(track_new_mem_stack_signal)(st_new_mem_stack_signal);
      VG_(track_die_mem_stack_signal)(st_die_mem_stack);
   }
   blocks      = VG_(HT_construct)("st.blocks");
   sites       = VG_(HT_construct)("st.sites");
   ip_classes  = VG_(HT_construct)("st.ip_classes");
   frame_runs  = VG_(HT_construct)("st.frame_runs");
   all_sites   = VG_(newXA)(VG_(malloc), "st.all_sites", VG_(free),
                            sizeof(Site*));
   block_pool  = VG_(newPA)(sizeof(Block), 1000, VG_(malloc), "st.blocks",
                            VG_(free));
   no_stack_site = new_Site(NULL, 0);
   init_lifetimes();
   init_site_rules();
   init_Chunks();
   VG_(atfork)(NULL, NULL, st_atfork_child);
   init_snapshot_clock();
   open_Ledger(clo_record_fd);
   open_Output();
}

/* Valgrind reads inlined-call information by default only for the tools it
   knows (memcheck, massif, ...).  Not in the tool API, but in the core this
   tool links with; set before the command line is read, so that
   --read-inline-info=no still wins. */
extern Bool VG_(clo_read_inline_info);

static void st_pre_clo_init(void)
{
   VG_(clo_read_inline_info) = True;

   VG_(details_name)("Strata");
   VG_(details_version)("0.1.0");
   VG_(details_description)("a heap profiler over time, by call site");
   VG_(details_copyright_author)("Copyright (C) the strata developers.");
   VG_(details_bug_reports_to)("the strata issue tracker");
   VG_(details_avg_translation_sizeB)(330);
   // Like massif: the tool unwinds only at heap operations (client
   // requests and system calls, where every register is up to date, and
   // the fast client call, whose helper says it reads RIP, RSP and RBP), so
   // the generated code need not keep the unwind registers up to date at
   // every memory access (--vex-iropt-register-updates still overrides).
   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed) = VexRegUpdSpAtMemAccess;
   // A superblock ends at each unconditional jump and call rather than
   // chasing into its target (--vex-guest-chase=yes still overrides).
   // Chasing translates the code it chases into again, in every block that
   // reaches it: a program with much code and little reuse, a compiler
   // above all, spends most of its run under Valgrind translating.  Direct
   // jumps between translations are chained after their first use, so the
   // run costs about the same: cc1plus took a fifth less time without
   // chasing, and no workload of `make bench` longer (docs/benchmarks.md).
   // Nothing in strata depends on the blocks' shapes (a client request
   // never spans two blocks), and the instruction count is exact: chasing
   // also joins both arms of a short conditional branch into one block,
   // and counted the arm not taken.
   VG_(clo_vex_control).guest_chase = False;

   VG_(basic_tool_funcs)(st_post_clo_init, st_instrument, st_fini);
   VG_(needs_command_line_options)(st_process_cmd_line_option,
                                   st_print_usage, st_print_debug_usage);
   VG_(needs_client_requests)(st_handle_client_request);
   VG_(needs_syscall_wrapper)(st_pre_syscall, st_post_syscall);
   // Like massif: at exit, let the C and C++ libraries free their own
   // buffers, so that the final heap shows what the program kept.
   VG_(needs_sanity_checks)(st_cheap_sanity_check, st_expensive_sanity_check);
   VG_(needs_libc_freeres)();
   VG_(needs_cxx_freeres)();
   VG_(needs_malloc_replacement)(ST_MALLOC_FNS, 0);

   alloc_fns      = VG_(newXA)(VG_(malloc), "st.alloc_fns", VG_(free),
                               sizeof(HChar*));
   ignore_fns     = VG_(newXA)(VG_(malloc), "st.ignore_fns", VG_(free),
                               sizeof(HChar*));
   user_alloc_fns = VG_(newXA)(VG_(malloc), "st.user_alloc_fns", VG_(free),
                               sizeof(HChar*));
   add_patterns(alloc_fns, default_alloc_fns,
                sizeof(default_alloc_fns) / sizeof(default_alloc_fns[0]));
}

VG_DETERMINE_INTERFACE_VERSION(st_pre_clo_init)

/*--------------------------------------------------------------------*/
/*--- end                                                 st_main.c ---*/
/*--------------------------------------------------------------------*/
