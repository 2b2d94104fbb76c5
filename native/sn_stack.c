/*--------------------------------------------------------------------*/
/*--- strata native: stacks, modules and frames.         sn_stack.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Stacks are unwound with libunwind (unw_backtrace: the DWARF CFI of each
   object, with libunwind's own cache of what it read per code address),
   outside the recorder's lock.  Which frames make a site follows the
   tool's rule (docs/design.md, "What is a site"):

     - the frames of this library (the malloc wrappers) and those of the
       allocator's functions are taken off the top.  Natively the C++
       operators are libstdc++'s, which call malloc: a frame whose dynamic
       symbol is operator new or new[] (_Znw*, _Zna*), or one of the C
       allocation functions, is an allocator frame; operator delete
       (_Zdl*, _Zda*) and free are taken off free stacks too.  These are
       looked up with dladdr once per code address, only for the frames at
       the top, and kept in 'top_classes';
     - the stack is cut after main (its extent from its unwind
       information), and to --depth code addresses.

   The frames are written as code addresses with their object and offset
   in it, and no names: `strata record --native` names them from the
   objects' DWARF when the run ends (plot/record/native_names.cpp).  The
   objects are the modules of dl_iterate_phdr, listed at the start and
   again after each dlopen and dlclose, and when a new site has a frame in
   none of them (a library the C library loaded by itself); a list only
   added to, newest first, read under the lock and added to outside it. */

#define _GNU_SOURCE
#include "sn_native.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

/*------------------------------------------------------------*/
/*--- Modules                                              ---*/
/*------------------------------------------------------------*/

typedef struct _Module {
   struct _Module* next;        // older
   Addr   lo, hi;               // its PT_LOAD segments' extent
   Addr   bias;                 // its load bias (dlpi_addr)
   HChar* path;
} Module;

static Module* modules = NULL;  // newest first; read with __atomic_load
static pthread_mutex_t modules_lock = PTHREAD_MUTEX_INITIALIZER;
static HChar exe_path[4096];    // the program, for its unnamed module
static Addr  own_lo, own_hi;    // this library

static const Module* module_of(Addr ip)
{
   const Module* m = __atomic_load_n(&modules, __ATOMIC_ACQUIRE);
   for (; m != NULL; m = m->next)
      if (ip >= m->lo && ip < m->hi)
         return m;
   return NULL;
}

static Bool is_known(Addr lo, Addr hi, const HChar* path)
{
   const Module* m;
   for (m = modules; m != NULL; m = m->next)
      if (m->lo == lo && m->hi == hi && VG_(strlen)(m->path) == strlen(path)
          && strcmp(m->path, path) == 0)
         return True;
   return False;
}

static int add_module(struct dl_phdr_info* info, size_t size, void* data)
{
   static HChar real_path[4096];   // (under modules_lock)
   Addr    lo = (Addr)-1, hi = 0;
   Int     i;
   const HChar* path = info->dlpi_name;
   Module* m;
   (void)size; (void)data;
   for (i = 0; i < info->dlpi_phnum; i++) {
      const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_LOAD)
         continue;
      if (info->dlpi_addr + ph->p_vaddr < lo)
         lo = info->dlpi_addr + ph->p_vaddr;
      if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
         hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
   }
   if (hi == 0)
      return 0;
   if (path == NULL || path[0] == '\0')
      path = exe_path;
   else if (realpath(path, real_path) != NULL)   // as Valgrind names it
      path = real_path;
   if ((Addr)&add_module >= lo && (Addr)&add_module < hi) {
      own_lo = lo;
      own_hi = hi;
   }
   if (is_known(lo, hi, path))
      return 0;
   m = arena_malloc(sizeof(Module));
   m->lo   = lo;
   m->hi   = hi;
   m->bias = info->dlpi_addr;
   m->path = arena_malloc(strlen(path) + 1);
   strcpy(m->path, path);
   m->next = modules;
   __atomic_store_n(&modules, m, __ATOMIC_RELEASE);
   return 0;
}

void refresh_Modules(void)
{
   pthread_mutex_lock(&modules_lock);
   dl_iterate_phdr(add_module, NULL);
   pthread_mutex_unlock(&modules_lock);
}

Bool in_known_Modules(const Addr* ips, UInt n_ips)
{
   UInt i;
   for (i = 0; i < n_ips; i++)
      if (module_of(ips[i]) == NULL)
         return False;
   return True;
}

/*------------------------------------------------------------*/
/*--- Which frames make a site                             ---*/
/*------------------------------------------------------------*/

typedef enum { TopOther = 1, TopAlloc = 2, TopFree = 4 } TopClass;

/* Code address -> TopClass of the frames seen at the top of stacks:
   open addressing, linear probing, lock-free (the table of the
   first version took a mutex at every look-up); a full table classifies
   afresh.  A slot is one word, written at once, so that a reader never
   sees one address with another's class:

      63    56 55                       0
     [ class  |        code address      ]   0: empty

   (user-space code addresses are below 2^47). */
#define TOP_SLOTS  (1 << 16)
#define TOP_SHIFT  56
static UWord top_classes[TOP_SLOTS];

static Addr main_lo = 0, main_hi = 0;   // main's code, once known

static const HChar* alloc_names[] = {
   "malloc", "calloc", "realloc", "reallocarray", "memalign",
   "posix_memalign", "aligned_alloc", "valloc", "pvalloc",
   "__libc_malloc", "__libc_calloc", "__libc_realloc", "__libc_memalign",
};
static const HChar* free_names[] = { "free", "cfree", "__libc_free" };

static Bool in_names(const HChar* name, const HChar** names, UInt n)
{
   UInt i;
   for (i = 0; i < n; i++)
      if (strcmp(name, names[i]) == 0)
         return True;
   return False;
}

/* The class of the function at 'ip' by its dynamic symbol (dladdr, with
   the symbol's size, so that a static function after it is not taken
   for it). */
static UInt classify_top(Addr ip)
{
   Dl_info           info;
   const ElfW(Sym)*  sym = NULL;
   const HChar*      name;
   if (!dladdr1((void*)ip, &info, (void**)&sym, RTLD_DL_SYMENT)
       || info.dli_sname == NULL || sym == NULL
       || ip >= (Addr)info.dli_saddr + sym->st_size)
      return TopOther;
   name = info.dli_sname;
   if (strncmp(name, "_Znw", 4) == 0 || strncmp(name, "_Zna", 4) == 0
       || in_names(name, alloc_names,
                   sizeof(alloc_names) / sizeof(alloc_names[0])))
      return TopAlloc;
   if (strncmp(name, "_Zdl", 4) == 0 || strncmp(name, "_Zda", 4) == 0
       || in_names(name, free_names, sizeof(free_names) / sizeof(free_names[0])))
      return TopFree;
   return TopOther;
}

static UInt top_class(Addr ip)
{
   UWord i = (UWord)((ip * GOLDEN_MULT) >> 48) & (TOP_SLOTS - 1);
   UWord k, w;
   UInt  cls;
   if (ip >= own_lo && ip < own_hi)
      return TopAlloc;
   for (k = 0; k < 16; k++, i = (i + 1) & (TOP_SLOTS - 1)) {
      w = __atomic_load_n(&top_classes[i], __ATOMIC_RELAXED);
      if (w == 0)
         break;
      if ((w & ((1UL << TOP_SHIFT) - 1)) == ip)
         return (UInt)(w >> TOP_SHIFT);
   }
   cls = classify_top(ip);     // dladdr: never under a lock of ours
   tl_assert(ip < (1UL << TOP_SHIFT));
   w = ip | ((UWord)cls << TOP_SHIFT);
   i = (UWord)((ip * GOLDEN_MULT) >> 48) & (TOP_SLOTS - 1);
   for (k = 0; k < 16; k++, i = (i + 1) & (TOP_SLOTS - 1)) {
      UWord empty = 0;
      if (__atomic_compare_exchange_n(&top_classes[i], &empty, w, False,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)
          || (empty & ((1UL << TOP_SHIFT) - 1)) == ip)
         break;
   }
   return cls;
}

void set_main_fn(Addr main_fn)
{
   unw_proc_info_t pi;
   if (main_fn == 0)
      return;
   if (unw_get_proc_info_by_ip(unw_local_addr_space, main_fn, &pi, NULL) == 0
       && pi.start_ip <= main_fn && main_fn < pi.end_ip) {
      main_lo = pi.start_ip;
      main_hi = pi.end_ip;
   } else {
      main_lo = main_fn;
      main_hi = main_fn + 1;
   }
}

/* From frame 'i' on, at most 'depth' frames, cut after main. */
static UInt cut(const RawStack* st, UInt i, UInt depth)
{
   UInt j;
   for (j = i; j < st->n && j - i < depth; j++)
      if (st->ips[j] >= main_lo && st->ips[j] < main_hi) {
         j++;
         break;
      }
   return j;
}

/* The frames unwound past those the rules take off the top. */
#define SLACK_FRAMES 8

/* The stack cache, one per thread: the raw stacks seen last (direct
   mapped by the hash of their return addresses) -> the bounds of their
   site and free stack, and their site once the core has found it.  A
   stack seen before costs a comparison of its return addresses instead
   of the classes of its top frames, and the site's look-up under the lock
   (site_of in sn_main.c).  Sites live as long as the process, so an entry
   stays right after a fork; what makes a site is fixed once main is
   known (set_main_fn), and a stack unwound before cannot hold main. */
#define SCACHE_ENTRIES  512
#define SCACHE_IPS       40    // deeper stacks are not cached
typedef struct {
   UWord hash;                 // 0: empty
   UInt  n, depth;
   UInt  site_first, site_end, free_first, free_end;
   Site* site;                 // NULL until the core found it
   Addr  ips[SCACHE_IPS];
} StackEntry;

static __thread StackEntry* scache __attribute__((tls_model("initial-exec")));
static pthread_key_t scache_key;   // frees a thread's cache at its exit

static void free_scache(void* c)
{
   arena_free(c);
}

static UWord hash_ips(const Addr* ips, UInt n, UInt depth)
{
   UWord h = depth * GOLDEN_MULT + n;
   UInt  i;
   for (i = 0; i < n; i++)
      h = (h ^ ips[i]) * GOLDEN_MULT;
   return (h ^ (h >> 29)) | 1;
}

/* The thread's entry for 'st' unwound to 'depth': a hit fills in the
   bounds and the site; NULL if the stack is too deep to be cached. */
static StackEntry* cached_stack(RawStack* st, UInt depth, UWord hash)
{
   StackEntry* e;
   if (st->n > SCACHE_IPS)
      return NULL;
   if (scache == NULL) {
      scache = arena_malloc(SCACHE_ENTRIES * sizeof(StackEntry));
      if (scache == NULL)
         return NULL;
      memset(scache, 0, SCACHE_ENTRIES * sizeof(StackEntry));
      pthread_setspecific(scache_key, scache);
   }
   e = &scache[(hash >> 7) & (SCACHE_ENTRIES - 1)];
   if (e->hash == hash && e->n == st->n && e->depth == depth
       && memcmp(e->ips, st->ips, st->n * sizeof(Addr)) == 0) {
      st->site_first = e->site_first;
      st->site_end   = e->site_end;
      st->free_first = e->free_first;
      st->free_end   = e->free_end;
      st->site       = e->site;
      st->site_slot  = &e->site;
      return e;
   }
   e->hash  = 0;
   e->n     = st->n;
   e->depth = depth;
   e->site  = NULL;
   memcpy(e->ips, st->ips, st->n * sizeof(Addr));
   st->site_slot = &e->site;
   return NULL;
}

void unwind_RawStack(RawStack* st, UInt depth)
{
   void* ras[MAX_RAW_FRAMES];
   Int   n, i;
   UInt  cls;
   UWord hash;
   StackEntry* e;
   if (depth + SLACK_FRAMES > MAX_RAW_FRAMES)
      depth = MAX_RAW_FRAMES - SLACK_FRAMES;
   n = unw_backtrace(ras, (Int)(depth + SLACK_FRAMES));
   st->n = 0;
   st->site = NULL;
   st->site_slot = NULL;
   for (i = 0; i < n; i++)      // a return address, less 1: in its call
      st->ips[st->n++] = (Addr)ras[i] - (i > 0 ? 1 : 0);
   hash = hash_ips(st->ips, st->n, depth);
   if (cached_stack(st, depth, hash) != NULL)
      return;
   for (i = 0; i < (Int)st->n && ((cls = top_class(st->ips[i])) & TopAlloc); i++)
      ;
   st->site_first = i;
   for (; i < (Int)st->n && (top_class(st->ips[i]) & TopFree); i++)
      ;
   st->free_first = i;
   st->site_end = cut(st, st->site_first, clo_depth);
   st->free_end = cut(st, st->free_first, clo_free_depth);
   if (st->site_slot != NULL) {   // the entry cached_stack began
      e = (StackEntry*)((UChar*)st->site_slot - offsetof(StackEntry, site));
      e->site_first = st->site_first;
      e->site_end   = st->site_end;
      e->free_first = st->free_first;
      e->free_end   = st->free_end;
      e->hash       = hash;
   }
}

void init_stacks(void)
{
   ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
   exe_path[n > 0 ? n : 0] = '\0';
   pthread_key_create(&scache_key, free_scache);
   refresh_Modules();
}

/*------------------------------------------------------------*/
/*--- Frames written                                       ---*/
/*------------------------------------------------------------*/

typedef struct _FrameNode {
   struct _FrameNode* next;
   UWord  ip;                   // key
   UInt   id;
} FrameNode;

static VgHashTable* frames_written = NULL;   /* Addr -> FrameNode* */
static UInt         next_frame_id  = 1;

/* F id address 0 <no function> <no file> 0 object offset: the names come
   at the end of the run (`strata record --native`). */
static UInt frame_id(Addr ip)
{
   FrameNode*    f;
   const Module* m;
   if (frames_written == NULL)
      frames_written = VG_(HT_construct)("sn.frames");
   f = VG_(HT_lookup)(frames_written, ip);
   if (f != NULL)
      return f->id;
   f = VG_(malloc)("sn.frame", sizeof(FrameNode));
   f->ip = ip;
   f->id = next_frame_id++;
   VG_(HT_add_node)(frames_written, f);
   m = module_of(ip);
   put_str("F");
   put_field_u64(f->id);
   put_tab(); put_hex(ip);
   put_str("\t0\t\t\t0");
   put_field_text(m != NULL ? m->path : "");
   put_tab();
   if (m != NULL)
      put_hex(ip - m->bias);
   put_nl();
   return f->id;
}

void put_stack_record(const HChar* rec, UInt id, const Addr* ips,
                      UInt n_ips)
{
   UInt  i;
   UInt  ids[MAX_RAW_FRAMES];
   tl_assert(n_ips <= MAX_RAW_FRAMES);
   for (i = 0; i < n_ips; i++)
      ids[i] = frame_id(ips[i]);
   put_str(rec);
   put_field_u64(id);
   for (i = 0; i < n_ips; i++)
      put_field_u64(ids[i]);
   put_nl();
}

static void free_node(void* p)
{
   VG_(free)(p);
}

void forget_written_Frames(void)
{
   if (frames_written != NULL)
      VG_(HT_destruct)(frames_written, free_node);
   frames_written = NULL;
   next_frame_id  = 1;
}

/*--------------------------------------------------------------------*/
/*--- end                                                sn_stack.c ---*/
/*--------------------------------------------------------------------*/
