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
   allocator (st_alloc.c), which keeps in each block's record (in the
   tool's memory, found from the block's address in constant time) its
   size and its allocation *site*: its call stack with the allocator's
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

#include "st_include.h"

/*------------------------------------------------------------*/
/*--- Statistics                                           ---*/
/*------------------------------------------------------------*/

static ULong stats_ignored_allocs  = 0;   // blocks not recorded: --ignore-fn
static ULong stats_bad_frees       = 0;   // frees of no live block
static ULong stats_reallocs        = 0;
static ULong stats_ignored_reallocs = 0;  // kept at their site: --ignore-fn
static ULong stats_frames_written  = 0;
static ULong stats_fast_calls      = 0;   // malloc calls made from JIT code
static ULong stats_aligns_refused  = 0;   // alignments above MAX_ALIGN_SZB
static ULong stats_bad_labels      = 0;   // STRATA_MARK labels not readable
static ULong stats_cheap_checks    = 0;   // sanity checks (Sanity checks)
static ULong stats_expensive_checks = 0;
/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

static UInt     clo_depth            = 30;
static SizeT    clo_heap_admin       = 8;
static Bool     clo_stacks           = False;
static Bool     clo_pages_as_heap    = False;
static UInt     clo_free_depth       = 12;
const HChar* clo_out_file     = "strata.out.%p";
static Double   clo_threshold        = -1.0;  // for the report; -1: not given
static UInt     clo_detailed_freq    = 10;    // massif's; no effect
static UInt     clo_max_snapshots    = 100;   // massif's; no effect
static Bool     clo_check_unwind_cache = False;   // a debugging option
static Bool     clo_fast_client_calls  = True;    // a debugging option
UInt     clo_after_exec = 0;   // set by strata itself: see Exec
Int      clo_record_fd  = -1;  // set by strata record: the ledger

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
/*--- Tables                                               ---*/
/*------------------------------------------------------------*/

VgHashTable*      blocks      = NULL;  /* Addr -> Block* (live blocks) */
static VgHashTable* ip_classes  = NULL;  /* Addr -> IpNode* */
VgHashTable*      frame_runs  = NULL;  /* Addr -> FrameRun* (written) */
static PoolAlloc* block_pool  = NULL;  /* where Blocks live */

static Unwinder* site_unwinder = NULL;   // allocations -> their sites
static Unwinder* free_unwinder = NULL;   // frees -> their free stacks,
                                         // with --free-stacks=yes
UInt next_frame_id = 1;

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
void put_stack_record(const HChar* rec, UInt id, const Addr* ips,
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
void write_header(void)
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

/*------------------------------------------------------------*/
/*--- Sites: which frames make one                         ---*/
/*------------------------------------------------------------*/

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


/* The unwinder (st_unwind.c) finds the frames of an allocation, from its
   caches or by unwinding; the rule below says which of them make the site.
   The unwinder remembers what it said, and the frames that decided it. */

/* The unwinder keeps what the rules make of a stack, a Site (of
   site_unwinder) or a FreeStack (of free_unwinder), as an opaque Unwound*:
   these are the only conversions. */
static inline Unwound* Unwound_of_Site(Site* s)
{
   return (Unwound*)s;
}

static inline Unwound* Unwound_of_FreeStack(FreeStack* fs)
{
   return (Unwound*)fs;
}

/* The site of an allocation made now by thread 'tid'; NULL if it is
   ignored. */
static Site* get_Site(ThreadId tid)
{
   return (Site*)get_Unwound(site_unwinder, tid);
}

/* A stack that cannot be told from the frames unwound: unwind deeper. */
static Site deeper_site;
#define NEED_DEEPER Unwound_of_Site(&deeper_site)

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
static Unwound* site_of_raw_stack(const Addr* ips, UInt n_ips,
                                  Bool truncated, UInt* end)
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
   return Unwound_of_Site(get_Site_of_stack(ips + first, site_end - first));
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
   r.no_stack      = Unwound_of_Site(no_stack_site);
   r.need_deeper   = NEED_DEEPER;
   r.scache_ways   = 2;
   r.site_of_stack = site_of_raw_stack;
   r.named_frame   = is_named_frame;
   site_unwinder   = new_Unwinder(&r);
}

/*------------------------------------------------------------*/
/*--- Free stacks                                          ---*/
/*------------------------------------------------------------*/

/* The free stack that a raw stack makes, as unwound from the free (the
   unwinder's rule, like site_of_raw_stack): the frames of free (and
   realloc, and the --alloc-fn functions) taken off its top, cut below main
   and to --free-depth code addresses.  '*end' is the first frame cut. */
static Unwound* free_stack_of_raw_stack(const Addr* ips, UInt n_ips,
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
   return Unwound_of_FreeStack(get_FreeStack(ips + i, j - i));
}

FreeStack* unwind_FreeStack(ThreadId tid)
{
   stats_free_unwinds++;
   return (FreeStack*)get_Unwound(free_unwinder, tid);
}

static void init_free_stack_rules(void)
{
   UnwindRules r;
   if (!lt_on || !clo_free_stacks)
      return;
   r.depth         = clo_free_depth;
   r.check         = clo_check_unwind_cache;
   r.no_stack      = Unwound_of_FreeStack(get_FreeStack(NULL, 0));
   r.need_deeper   = NEED_DEEPER;
   r.scache_ways   = 4;   // a destructor's frees of a node, its key
                          // and its vector, inlined into one frame
   r.site_of_stack = free_stack_of_raw_stack;
   r.named_frame   = is_named_frame;
   free_unwinder   = new_Unwinder(&r);
}

/*------------------------------------------------------------*/
/*--- Blocks in the table: custom allocators, pages        ---*/
/*------------------------------------------------------------*/

/* Blocks of the malloc family carry their site in their chunk's record
   (st_alloc.h).
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
   b->tag       = record_birth(site, req_szB, extra_szB);
   VG_(HT_add_node)(blocks, b);
   return b;
}

/* Records a block allocated now by 'tid', unless it is ignored. */
static void record_Block(ThreadId tid, Addr p, SizeT req_szB, SizeT extra_szB)
{
   Site* site = get_Site(tid);
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
   record_death(tid, b->site, b, b->tag, b->req_szB, b->extra_szB);
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

static SizeT extra_szB_of_Chunk(const Chunk* h)
{
   return clo_heap_admin + usable_szB_of_Chunk(h) - req_szB_of_Chunk(h);
}

/* Chunks live and not recorded (--ignore-fn), for the sanity check: every
   other live chunk is a block of a site.  A realloc keeps a chunk ignored
   or recorded (realloc_Site). */
static ULong ignored_chunks = 0;

/* Gives the chunk its site (the stack of 'tid' now) and counts it. */
static void record_Chunk(ThreadId tid, Chunk* h)
{
   h->site = get_Site(tid);
   if (h->site == NULL) {
      stats_ignored_allocs++;
      ignored_chunks++;
      count_ignored_call();
   } else {
      set_tag_of_Chunk(h, record_birth(h->site, req_szB_of_Chunk(h),
                                       extra_szB_of_Chunk(h)));
      count_call(h->site, req_szB_of_Chunk(h), h);
   }
}

/* The chunk is freed by 'tid'. */
static void unrecord_Chunk(ThreadId tid, Chunk* h)
{
   if (h->site != NULL)
      record_death(tid, h->site, h, tag_of_Chunk(h), req_szB_of_Chunk(h),
                   extra_szB_of_Chunk(h));
   else {
      tl_assert(ignored_chunks > 0);
      ignored_chunks--;
   }
   count_free_call();
}

/* A realloc moves the block from its site to the realloc's (like massif)
   in one step: a site that keeps a block it reallocs never seems to drop
   to 0 bytes in between (its low would then be 0).  unrecord_Chunk_quietly
   takes the block's bytes out of the totals only; recount_Chunk counts the
   chunk 'to' (the same or a new one) at 'site', and the move from the old
   site, which held 'old_szB' for it. */
static void unrecord_Chunk_quietly(Chunk* h)
{
   if (h->site != NULL)
      take_from_totals(req_szB_of_Chunk(h), extra_szB_of_Chunk(h));
}

static void recount_Chunk(Chunk* to, Site* old_site, SizeT old_szB,
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
   void*  p;
   Chunk* h;
   if ((SSizeT)req_szB < 0)
      return NULL;
   if (align > MAX_ALIGN_SZB) {
      refuse_alignment(align, req_szB);
      return NULL;
   }
   clock_before_op();
   p = alloc_Chunk(req_szB, align, &h);
   if (p == NULL)
      return NULL;
   if (zeroed)
      VG_(memset)(p, 0, req_szB);
   record_Chunk(tid, h);
   clock_after_op();
   return p;
}

static void die_block(ThreadId tid, void* p)
{
   Chunk* h = live_Chunk(p);
   if (h == NULL) {
      if (p != NULL)
         stats_bad_frees++;
      return;
   }
   clock_before_op();
   unrecord_Chunk(tid, h);
   free_Chunk(h, p);
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
   site = get_Site(tid);
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
static void renew_lifetimes(ThreadId tid, Chunk* h, Chunk* old_h,
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
   Chunk* h     = live_Chunk(p_old);
   Chunk* new_h = h;
   SizeT  old_req_szB;
   Site*  old_site;
   Site*  site;
   UInt   tag;
   void*  p_new = p_old;

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
      p_new = alloc_Chunk(new_req_szB, VG_(clo_alignment), &new_h);
      if (p_new == NULL) {
         recount_Chunk(h, old_site, old_req_szB, old_site);
         return NULL;
      }
      VG_(memcpy)(p_new, p_old,
                  old_req_szB < new_req_szB ? old_req_szB : new_req_szB);
      free_Chunk(h, p_old);
   }
   site = realloc_Site(tid, old_site);
   recount_Chunk(new_h, old_site, old_req_szB, site);
   if (site != NULL) {
      renew_lifetimes(tid, new_h, h, tag, old_site, site, old_req_szB);
      count_call(site, new_req_szB, new_h);
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
   Chunk* h = live_Chunk(p);
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
   site = tid == VG_INVALID_THREADID ? no_stack_site : get_Site(tid);
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

/* Can the client read the label of a STRATA_MARK at 'label', up to its
   NUL or its first MARKER_LABEL_MAX bytes (all write_marker reads)?
   Checked against the address space manager a page at a time, before a
   byte of the page is read: a dangling pointer, natively harmless (the
   request does nothing outside the tool), must not kill the run. */
static Bool is_readable_label(const HChar* label)
{
   Addr a   = (Addr)label;
   Addr end = a + MARKER_LABEL_MAX;
   if (end < a)
      return False;                 // wraps around the address space
   while (a < end) {
      Addr page_end = VG_PGROUNDDN(a) + VKI_PAGE_SIZE;
      Addr stop     = page_end < end ? page_end : end;
      if (!VG_(am_is_valid_for_client)(a, stop - a, VKI_PROT_READ))
         return False;
      for (; a < stop; a++)
         if (*(const HChar*)a == '\0')
            return True;
   }
   return True;
}

/* STRATA_MARK: a marker, unless its label cannot be read; then none, and
   the first such request is reported. */
static void mark(const HChar* label)
{
   if (label != NULL && !is_readable_label(label)) {
      if (stats_bad_labels++ == 0)
         VG_(umsg)("strata: STRATA_MARK with a label at %p that cannot be "
                   "read: no marker; further ones are not reported\n",
                   label);
      return;
   }
   write_marker(label);
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
      mark((const HChar*)argv[1]);
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
/*--- Sanity checks                                        ---*/
/*------------------------------------------------------------*/

/* Valgrind calls these between time slices (VG_(needs_sanity_checks)):
   the cheap one at every --sanity-level from 1 (the default), the
   expensive one at level 2 and above, and now and again at level 1.  The
   cheap one is O(1); the expensive one walks every site, every block in
   the table, the allocator's free lists and the caches, so strata makes
   it only from level 2.  Each tl_asserts what it checks: the message
   says which assumption failed. */

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
   check_heap_cheaply();
   return True;
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

/* A layered block's size and tag, for check_Layers: 'key' is its Chunk
   if 'chunk', else its Block. */
static void size_and_tag_of_block(UWord key, Bool chunk, SizeT* szB,
                                  UInt* tag)
{
   if (chunk) {
      const Chunk* h = (const Chunk*)key;
      tl_assert(h->site != NULL);
      *szB = req_szB_of_Chunk(h);
      *tag = tag_of_Chunk(h);
   } else {
      const Block* b = (const Block*)key;
      *szB = b->req_szB;
      *tag = b->tag;
   }
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
      check_Layers(size_and_tag_of_block);
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
   VG_(umsg)("strata: markers not made:    %'llu (labels that cannot be "
             "read)\n", stats_bad_labels);
   VG_(umsg)("strata: sanity checks:       %'llu cheap, %'llu expensive\n",
             stats_cheap_checks, stats_expensive_checks);
   VG_(umsg)("strata: live blocks at end:  %'llu\n",
             stats_allocs - stats_frees);
   VG_(umsg)("strata: slabs for blocks:    %'llu bytes\n", slab_szB_Chunks());
   VG_(umsg)("strata: records of blocks:   %'llu bytes\n",
             record_szB_Chunks());
}

/* The final snapshot (with the peak, if not yet written) and the end. */
void end_profile(Bool provisional)
{
   if (is_open_Writer())
      write_profile_end(provisional);
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
   ip_classes  = VG_(HT_construct)("st.ip_classes");
   frame_runs  = VG_(HT_construct)("st.frame_runs");
   block_pool  = VG_(newPA)(sizeof(Block), 1000, VG_(malloc), "st.blocks",
                            VG_(free));
   init_heap();
   init_lifetimes();
   init_free_stack_rules();
   init_site_rules();
   init_Chunks();
   VG_(atfork)(NULL, st_atfork_parent, st_atfork_child);
   init_snapshot_clock();
   open_Ledger(clo_record_fd);
   open_Output();
}

static void st_pre_clo_init(void)
{
   // Valgrind reads inlined-call information by default only for the tools
   // it knows (memcheck, massif, ...); set before the command line is read,
   // so that --read-inline-info=no still wins.
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
   VG_(needs_sanity_checks)(st_cheap_sanity_check, st_expensive_sanity_check);
   // Like massif: at exit, let the C and C++ libraries free their own
   // buffers, so that the final heap shows what the program kept.
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
