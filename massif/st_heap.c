/*--------------------------------------------------------------------*/
/*--- strata: sites, the snapshot clock, the peak and the heap's   ---*/
/*--- totals, written as a profile.                     st_heap.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The recorder's core (st_core.h says what it is and what it needs): it
   is told of the blocks born, dead and resized at their sites, and writes
   the heap's snapshots, its peak and the sites' allocation counts (st_main.c
   says when snapshots are taken, and the output's sample is below). */

#include "st_core.h"

/*------------------------------------------------------------*/
/*--- Settings and statistics                              ---*/
/*------------------------------------------------------------*/

TimeUnit clo_time_unit       = TimeI;
Double   clo_peak_inaccuracy = 1.0;   // percent
Bool     clo_heap            = True;
Bool     clo_free_stacks     = True;
TimeUnit clo_ms_epochs = TimeI;

ULong stats_allocs          = 0;
ULong stats_frees           = 0;
ULong stats_sites           = 0;
ULong stats_snapshots[4]    = { 0, 0, 0, 0 };
ULong stats_ignored_calls   = 0;

/*------------------------------------------------------------*/
/*--- Globals                                              ---*/
/*------------------------------------------------------------*/

// Current sizes, in bytes.
SizeT heap_szB       = 0;   // useful heap: what the client asked for
SizeT heap_extra_szB = 0;   // --heap-admin per block, plus slop
SizeT stacks_szB     = 0;   // with --stacks=yes

// The clocks behind --time-unit=i and --time-unit=B.
ULong guest_instrs_executed     = 0;
ULong total_allocs_deallocs_szB = 0;

// --time-unit=ms: reading the timer is a system call, too dear for every
// heap operation; the clock reads it every CLOCK_READ_EVERY operations, and
// snapshots, markers and the end read it afresh (refresh_ms_clock).
#define CLOCK_READ_EVERY 16
ULong ms_clock = 0;

VgHashTable* sites         = NULL;
XArray*      all_sites     = NULL;
Site*        no_stack_site = NULL;
static Site* dirty_sites   = NULL;   // list through Site.next_dirty
static UInt  next_site_id  = 1;

/*------------------------------------------------------------*/
/*--- The peak                                             ---*/
/*------------------------------------------------------------*/

ULong peak_gen       = 0;     // bumped at each new peak
ULong peak_time      = 0;
SizeT peak_heap_szB  = 0;
static SizeT peak_extra_szB = 0;
static SizeT peak_stacks_szB = 0;
Bool  peak_written   = True;  // the current peak is in the file

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

SizeT peak_szB_of_Site(const Site* s)
{
   return s->peak_gen == peak_gen ? s->peak_szB : s->szB;
}

static SizeT peak_blocks_of_Site(const Site* s)
{
   return s->peak_gen == peak_gen ? s->peak_blocks : s->n_blocks;
}

/* Whether 'total' is no new peak: not more than --peak-inaccuracy percent
   above the recorded one (0: not above it). */
Bool within_peak(SizeT total)
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
void update_peak(void)
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

void ensure_Site_written(Site* s)
{
   if (s->id != 0)
      return;
   s->id = next_site_id++;
   put_stack_record("S", s->id, s->ips, s->n_ips);
}


/*------------------------------------------------------------*/
/*--- Snapshots                                            ---*/
/*------------------------------------------------------------*/


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

ULong snapshot_interval   = 1;
static ULong next_snapshot_time  = 0;
static ULong last_op_time        = 0;   // the clock after the last operation
ULong last_stamp          = 0;   // the latest time written in the file
static UInt  ticks_found         = 0;   // checks that found a tick passed

/* The largest measure of the peak (heap + stacks) in a snapshot written,
   peaks left out: the last peak written must be within --peak-inaccuracy
   of it (end_profile checks). */
SizeT largest_written_szB = 0;

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

/* Where the last peak snapshot ended in the output, and its bytes
   (peak_is_due). */
static ULong peak_snapshot_end = 0;
static ULong peak_snapshot_szB = 0;

/* The peak snapshot: every site that held bytes at the peak. */
static void write_peak_snapshot(void)
{
   Word  i, n = VG_(sizeXA)(all_sites);
   ULong start;
   for (i = 0; i < n; i++) {
      Site* s = *(Site**)VG_(indexXA)(all_sites, i);
      if (peak_szB_of_Site(s) > 0 || peak_blocks_of_Site(s) > 0)
         ensure_Site_written(s);
   }
   start = written_Writer();
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
   peak_written      = True;
   peak_snapshot_end = written_Writer();
   peak_snapshot_szB = peak_snapshot_end - start;
}

/* Where the end written before an execve starts in the file, -1 if none:
   should the execve fail, the file is cut back to there (Exec). */
Long provisional_end = -1;

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
   if (kind == SnapUser)
      flush_now_Writer();
}

/* Whether the peak is to be written before a snapshot of 'kind' now: it
   is not in the file yet, and the run ends, or the heap has fallen from it
   and the output has doubled since the last peak snapshot ended.  A peak
   snapshot lists every site that holds bytes (3,000 of a compiler's), and
   a heap that climbs with dips has a new peak at nearly every snapshot:
   written at each, cc1plus's peaks were a quarter of its profile (51 of
   them, 2.8 of 10.9 MB).  So a profile holds a peak snapshot a doubling of
   its size, and the last at the end (one cut short may lack its last
   peaks: its readers take the largest snapshot then). */
static Bool peak_is_due(SnapshotKind kind)
{
   ULong written;
   if (peak_written)
      return False;
   if (kind == SnapFinal)
      return True;
   written = written_Writer();
   return peak_measure_szB() < recorded_peak_szB()
          && written >= 2 * peak_snapshot_end
          && written >= peak_snapshot_end + peak_snapshot_szB;
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

void take_snapshot_as(SnapshotKind kind, Bool provisional)
{
   refresh_ms_clock();
   take_snapshot_at(kind, get_time(), provisional);
}

void take_snapshot(SnapshotKind kind)
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

/* The clock: called before each heap operation ('heap_op'), marker and
   snapshot.  It closes the lifetimes' epochs passed, then takes the
   snapshots of the ticks passed. */
void check_clock(Bool heap_op)
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

void clock_before_op(void)
{
   check_clock(True);
}

/* The clock: called after each heap operation. */
void clock_after_op(void)
{
   last_op_time = get_time();
}

void init_snapshot_clock(void)
{
   refresh_ms_clock();
   last_op_time       = get_time();
   next_snapshot_time = last_op_time + snapshot_interval;
}

/*------------------------------------------------------------*/
/*--- Sites                                                ---*/
/*------------------------------------------------------------*/

Site* new_Site(const Addr* ips, UInt n_ips)
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

UWord hash_stack(const Addr* ips, UInt n_ips)
{
   UWord h = n_ips;
   UInt  i;
   for (i = 0; i < n_ips; i++)
      h = (h ^ ips[i]) * GOLDEN_MULT;
   return h ^ (h >> 29);
}


// 0 if the two nodes have the same stack (their hashes are equal).
static Word cmp_stacks(const void* a, const void* b)
{
   const StackNode* x = a;
   const StackNode* y = b;
   return !(x->n_ips == y->n_ips && same_words(x->ips, y->ips, x->n_ips));
}

/* The node of 'table' (a Site or a FreeStack) whose stack is 'ips', or
   NULL; '*hash' is that stack's hash. */
void* lookup_stack(VgHashTable* table, const Addr* ips, UInt n_ips,
                   UWord* hash)
{
   StackNode key;
   key.hash  = *hash = hash_stack(ips, n_ips);
   key.n_ips = n_ips;
   key.ips   = (Addr*)ips;
   return VG_(HT_gen_lookup)(table, &key, cmp_stacks);
}

/* The site of a stripped stack, made the first time the stack is seen. */
Site* get_Site_of_stack(const Addr* ips, UInt n_ips)
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

/* Every change to a site's bytes goes through here: 'add_szB' more bytes,
   'sub_szB' fewer, and one block more, none or one fewer.  Neither count
   may go below 0 or wrap, and a site with bytes has blocks. */
void change_Site(Site* s, SizeT add_szB, SizeT sub_szB, Int d_blocks)
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
void add_to_totals(SizeT req_szB, SizeT extra_szB)
{
   tl_assert(heap_szB + req_szB >= heap_szB);
   tl_assert(heap_extra_szB + extra_szB >= heap_extra_szB);
   tl_assert(total_allocs_deallocs_szB + req_szB >= total_allocs_deallocs_szB);
   heap_szB       += req_szB;
   heap_extra_szB += extra_szB;
   total_allocs_deallocs_szB += req_szB;
   stats_allocs++;
}

void take_from_totals(SizeT req_szB, SizeT extra_szB)
{
   tl_assert(heap_szB >= req_szB && heap_extra_szB >= extra_szB);
   tl_assert(stats_frees < stats_allocs);
   tl_assert(total_allocs_deallocs_szB + req_szB >= total_allocs_deallocs_szB);
   heap_szB       -= req_szB;
   heap_extra_szB -= extra_szB;
   total_allocs_deallocs_szB += req_szB;
   stats_frees++;
}

void count_alloc(Site* site, SizeT req_szB, SizeT extra_szB)
{
   change_Site(site, req_szB, 0, +1);
   add_to_totals(req_szB, extra_szB);
}

void count_free(Site* site, SizeT req_szB, SizeT extra_szB)
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

/* The block (Chunk* or Block*) of the latest allocation call, until
   the next free; NULL after a free, or if that call was not recorded
   (--ignore-fn). */
static const void* last_alloc = NULL;

// The sums over all sites of their calls and temporary blocks.
ULong total_calls     = 0;
ULong total_temporary = 0;

/* An allocation call made 'block', of 'req_szB' bytes, at 's'. */
void count_call(Site* s, SizeT req_szB, const void* block)
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
void count_ignored_call(void)
{
   last_alloc = NULL;
   stats_ignored_calls++;
}

/* 'block', of site 's' (NULL: not recorded), is about to be freed, by a
   free that may free other blocks too (pages unmapped). */
void count_free_of(Site* s, const void* block)
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
void count_free_call(void)
{
   last_alloc = NULL;
}


/*------------------------------------------------------------*/
/*--- Births, deaths and the end                           ---*/
/*------------------------------------------------------------*/

UInt record_birth(Site* s, SizeT req_szB, SizeT extra_szB)
{
   UInt tag = born_Block(s, req_szB);
   count_alloc(s, req_szB, extra_szB);
   return tag;
}

void record_death(ThreadId tid, Site* s, const void* block, UInt tag,
                  SizeT req_szB, SizeT extra_szB)
{
   died_Block(tid, s, (UWord)block, tag, req_szB);
   count_free_of(s, block);
   count_free(s, req_szB, extra_szB);
}

void write_profile_end(Bool provisional)
{
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

/* A marker's or a fork's record is at the time now: the ticks passed come
   first in the file, and the time is the latest written. */
static void stamp_event(void)
{
   check_clock(False);
   refresh_ms_clock();
   if (get_time() > last_stamp)
      last_stamp = get_time();
}

void write_marker(const HChar* label)
{
   HChar copy[MARKER_LABEL_MAX + 1];
   if (!is_open_Writer())
      return;
   stamp_event();
   VG_(strncpy)(copy, label ? label : "", sizeof(copy) - 1);
   copy[sizeof(copy) - 1] = '\0';
   put_str("M");
   put_field_u64(get_time());
   put_field_text(copy);
   put_nl();
}

/* The process forked: a K record at the time, in the parent's profile (the
   child's starts with the heap it inherited).  What the parent held then,
   its children inherit. */
void write_fork(void)
{
   if (!is_open_Writer())
      return;
   stamp_event();
   put_str("K");
   put_field_u64(get_time());
   put_nl();
}

/*------------------------------------------------------------*/
/*--- Start and fork                                       ---*/
/*------------------------------------------------------------*/

void init_heap(void)
{
   sites         = VG_(HT_construct)("st.sites");
   all_sites     = VG_(newXA)(VG_(malloc), "st.all_sites", VG_(free),
                              sizeof(Site*));
   no_stack_site = new_Site(NULL, 0);
}

void restart_heap_in_child(void)
{
   Word i;
   next_site_id = 1;
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
   peak_snapshot_end = peak_snapshot_szB = 0;
}

/*------------------------------------------------------------*/
/*--- Sanity checks                                        ---*/
/*------------------------------------------------------------*/

void check_heap_cheaply(void)
{
   tl_assert(last_stamp <= get_time() && peak_time <= get_time());
   tl_assert(snapshot_interval > 0
             && (snapshot_interval & (snapshot_interval - 1)) == 0);
   tl_assert(dirty_sites == NULL || dirty_sites->dirty);
   tl_assert(total_temporary <= total_calls);
}

/* Whether 's' is a site of the tool: the site of no stack, or the one the
   table of sites gives for its stack. */
Bool is_known_Site(Site* s)
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
ULong check_all_Sites(void)
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

/*--------------------------------------------------------------------*/
/*--- end                                                 st_heap.c ---*/
/*--------------------------------------------------------------------*/
