/*--------------------------------------------------------------------*/
/*--- strata native: stacks, modules and frames.         sn_stack.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Stacks are unwound with libunwind (unw_backtrace: the DWARF CFI of each
   object, with libunwind's own cache of what it read per code address,
   per thread, and each module's table of unwind information registered
   with it as the modules are listed, so that it need not list them),
   or with --unwind=fp by the chain of frame pointers, outside the
   recorder's lock.  Which frames make a site follows the tool's rule
   (docs/design.md, "What is a site"):

     - the frames of this library (the malloc wrappers) and those of the
       allocator's functions are taken off the top.  Natively the C++
       operators are libstdc++'s, which call malloc: a frame whose dynamic
       symbol is operator new or new[] (_Znw*, _Zna*), or one of the C
       allocation functions, is an allocator frame; operator delete
       (_Zdl*, _Zda*) and free are taken off free stacks too.  The symbol
       is the one dladdr would give, found in the module's dynamic symbols
       read once (not dladdr, which scans them all at every call), once
       per code address, only for the frames at the top, and kept in
       'top_classes';
     - the stack is cut after main (its extent from its unwind
       information), and to --depth code addresses.

   The frames are written as code addresses with their object and offset
   in it, and no names: `strata record --native` names them from the
   objects' DWARF when the run ends (plot/record/native_names.cpp).  The
   objects are the modules of dl_iterate_phdr, listed at the start, after
   each dlclose, and when a top frame or a new site has a frame in none of
   them (a library dlopen'd, or loaded by the C library itself); a list
   only added to, newest first, read under the lock and added to outside
   it.  A module no longer loaded is kept, dead. */

#define _GNU_SOURCE
#include "sn_native.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

/*------------------------------------------------------------*/
/*--- Modules                                              ---*/
/*------------------------------------------------------------*/

typedef struct _ClassMap ClassMap;

/* A module: an object of dl_iterate_phdr's.  'dead' and 'classes' are
   written under modules_lock and read without it (atomics). */
typedef struct _Module {
   struct _Module* next;        // older
   Addr   lo, hi;               // its PT_LOAD segments' extent
   Addr   bias;                 // its load bias (dlpi_addr)
   HChar* path;
   Bool   dead;                 // dlclosed (and not loaded again)
   UInt   seen;                 // the last listing that saw it loaded
   const ClassMap* classes;     // its allocator functions; NULL: not read yet
   unw_dyn_info_t* unwind;      // its unwind table, registered; NULL: none
} Module;

static Module* modules = NULL;  // newest first; read with __atomic_load
static pthread_mutex_t modules_lock = PTHREAD_MUTEX_INITIALIZER;
static HChar exe_path[4096];    // the program, for its unnamed module
static Addr  own_lo, own_hi;    // this library
static Addr  exe_lo, exe_hi;    // the program
static unsigned long long modules_adds = 0;   // dlpi_adds when last listed
static UInt  modules_gen = 0;   // + 1 at each dlclose that unloaded one

static const Module* module_of(Addr ip)
{
   const Module* m = __atomic_load_n(&modules, __ATOMIC_ACQUIRE);
   for (; m != NULL; m = m->next)
      if (ip >= m->lo && ip < m->hi
          && !__atomic_load_n(&m->dead, __ATOMIC_RELAXED))
         return m;
   return NULL;
}

/* The module that names the frame at 'ip': the loaded one, else the
   newest dead one (a frame written after its object's dlclose). */
static const Module* module_naming(Addr ip)
{
   const Module* m = module_of(ip);
   if (m != NULL)
      return m;
   for (m = __atomic_load_n(&modules, __ATOMIC_ACQUIRE); m != NULL; m = m->next)
      if (ip >= m->lo && ip < m->hi)
         return m;
   return NULL;
}

/* The module listed as 'lo'..'hi', 'path' (dead or not), or NULL. */
static Module* known_Module(Addr lo, Addr hi, const HChar* path)
{
   Module* m;
   for (m = modules; m != NULL; m = m->next)
      if (m->lo == lo && m->hi == hi && VG_(strlen)(m->path) == strlen(path)
          && strcmp(m->path, path) == 0)
         return m;
   return NULL;
}

/* The extent of an object's PT_LOAD segments; False if it has none. */
static Bool extent_of(const struct dl_phdr_info* info, Addr* lo, Addr* hi)
{
   Int i;
   *lo = (Addr)-1;
   *hi = 0;
   for (i = 0; i < info->dlpi_phnum; i++) {
      const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_LOAD)
         continue;
      if (info->dlpi_addr + ph->p_vaddr < *lo)
         *lo = info->dlpi_addr + ph->p_vaddr;
      if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > *hi)
         *hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
   }
   return *hi != 0;
}

/* An object's path, as Valgrind names it (the real path; the program's
   for the unnamed one).  Under modules_lock: the buffer is static. */
static const HChar* path_of(const struct dl_phdr_info* info)
{
   static HChar real_path[4096];
   const HChar* path = info->dlpi_name;
   if (path == NULL || path[0] == '\0')
      return exe_path;
   if (realpath(path, real_path) != NULL)
      return real_path;
   return path;
}

/* A listing of the modules (dl_iterate_phdr's callbacks' data). */
typedef struct {
   Bool  first;                 // no object seen yet
   Bool  all;                   // list them even if nothing was loaded
   UInt  listing;               // its number, in Module.seen
} Listing;

/* The module's table of its functions' unwind information (its
   PT_GNU_EH_FRAME segment, .eh_frame_hdr: a sorted table of the functions'
   starts and their FDEs), registered with libunwind as the table of
   [lo, hi): libunwind looks an address up in the tables registered before
   it lists the objects with dl_iterate_phdr, which it does with the
   signals masked, two system calls each time.  It is the table
   libunwind's own listing would find; NULL when the object has none in
   the form it reads (version 1, a table of 4-byte offsets from the
   header).  Only the modules of the first listing, loaded with the
   program, have their table registered: they are never unloaded, while
   what is loaded later can be unloaded without a dlclose of the
   program's (the C library loads and unloads its iconv and NSS modules
   itself), and another object then mapped where it was would be
   unwound by its table (blind round 74's converter crashed in
   libunwind at a malloc in a UTF-7 module's gconv_init).  The others
   libunwind finds by dl_iterate_phdr, which sees every unload. */
static unw_dyn_info_t* unwind_table_of(const struct dl_phdr_info* info, Addr lo, Addr hi,
                                       const Listing* l)
{
   const UChar* hdr = NULL;
   Int i;
   if (l->listing != 1)
      return NULL;
   for (i = 0; i < info->dlpi_phnum; i++)
      if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
         hdr = (const UChar*)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
   if (hdr == NULL || hdr[0] != 1 || hdr[3] != 0x3b)  // DW_EH_PE_datarel | sdata4
      return NULL;
   // The pointer to .eh_frame, then the count: 4 bytes each in the forms
   // the linkers write (udata4, sdata4, pcrel or datarel of them).
   if ((hdr[1] & 0x0f) != 0x03 && (hdr[1] & 0x0f) != 0x0b)
      return NULL;
   if (hdr[2] != 0x03 && hdr[2] != 0x0b)
      return NULL;
   UInt count;
   memcpy(&count, hdr + 8, sizeof count);
   if (count == 0)
      return NULL;
   unw_dyn_info_t* di = arena_malloc(sizeof(unw_dyn_info_t));
   tl_assert(di != NULL);
   memset(di, 0, sizeof *di);
   di->start_ip = lo;
   di->end_ip   = hi;
   di->format   = UNW_INFO_FORMAT_REMOTE_TABLE;
   di->u.rti.segbase    = (unw_word_t)hdr;
   di->u.rti.table_len  = (unw_word_t)count * 8 / sizeof(unw_word_t);
   di->u.rti.table_data = (unw_word_t)(hdr + 12);
   _U_dyn_register(di);
   return di;
}

static UInt listings = 0;

static int add_module(struct dl_phdr_info* info, size_t size, void* data)
{
   Listing* l = data;
   Addr     lo, hi;
   const HChar* path;
   Module*  m;
   if (l->first && size >= offsetof(struct dl_phdr_info, dlpi_subs)) {
      l->first = False;
      if (info->dlpi_adds == modules_adds && !l->all)
         return 1;              // nothing loaded since the last listing
      modules_adds = info->dlpi_adds;
   }
   if (!extent_of(info, &lo, &hi))
      return 0;
   path = path_of(info);
   if ((Addr)&add_module >= lo && (Addr)&add_module < hi) {
      own_lo = lo;
      own_hi = hi;
   }
   if (path == exe_path) {
      exe_lo = lo;
      exe_hi = hi;
   }
   m = known_Module(lo, hi, path);
   if (m != NULL) {
      m->seen = l->listing;
      if (m->dead) {            // loaded again: its functions read anew
         __atomic_store_n(&m->classes, NULL, __ATOMIC_RELEASE);
         __atomic_store_n(&m->dead, False, __ATOMIC_RELEASE);
         m->unwind = unwind_table_of(info, lo, hi, l);
      }
      return 0;
   }
   m = arena_malloc(sizeof(Module));
   tl_assert(m != NULL);
   m->lo   = lo;
   m->hi   = hi;
   m->bias = info->dlpi_addr;
   m->path = arena_malloc(strlen(path) + 1);
   strcpy(m->path, path);
   m->dead = False;
   m->seen = l->listing;
   m->classes = NULL;
   m->unwind = unwind_table_of(info, lo, hi, l);
   m->next = modules;
   __atomic_store_n(&modules, m, __ATOMIC_RELEASE);
   return 0;
}

/* The modules listed again, if anything was loaded since the last time
   (dlpi_adds counts the objects ever loaded): a new object found, or one
   loaded again where it was before. */
void refresh_Modules(void)
{
   Listing l = { True, False, 0 };
   pthread_mutex_lock(&modules_lock);
   l.listing = ++listings;
   dl_iterate_phdr(add_module, &l);
   pthread_mutex_unlock(&modules_lock);
}

static void clear_top_classes(void);

/* After a dlclose: the modules no longer loaded are dead (kept, for the
   frames that name them, but no code address is theirs any more), and
   what was known of code addresses is forgotten (the classes of the top
   frames, the threads' stack caches), since another object may be
   loaded where a dead one was. */
void forget_closed_Modules(void)
{
   Listing l = { True, True, 0 };
   Module* m;
   Bool    closed = False;
   pthread_mutex_lock(&modules_lock);
   l.listing = ++listings;
   dl_iterate_phdr(add_module, &l);
   for (m = modules; m != NULL; m = m->next)
      if (m->seen != l.listing && !m->dead) {
         __atomic_store_n(&m->dead, True, __ATOMIC_RELEASE);
         if (m->unwind != NULL)
            _U_dyn_cancel(m->unwind);   // its memory is the arena's: kept
         m->unwind = NULL;
         closed = True;
      }
   if (closed) {
      clear_top_classes();
      __atomic_add_fetch(&modules_gen, 1, __ATOMIC_RELEASE);
   }
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
/*--- The classes of a module's functions                  ---*/
/*------------------------------------------------------------*/

/* A frame's class is its function's, by the dynamic symbol that dladdr
   would give for it: of the object's dynamic symbols (those of its hash
   table, or with DT_HASH alone the global and weak ones that are not
   hidden), not TLS nor absolute, whose extent holds the address (or,
   of size 0 or undefined, which begin at it), the one that begins last,
   and of those the first in the hash table's order; then the name gives
   the class, and a symbol of size 0 is TopOther.

   A module's symbols are read once, from its dynamic section in memory,
   when a frame of it is first classified: under modules_lock, inside
   dl_iterate_phdr (so that no dlclose unmaps it meanwhile).  All are
   sorted by where they begin, and what the rule above makes of them kept
   as the few ranges of allocator and deallocator functions, sorted,
   looked up by binary search; an address in none is TopOther.  The
   memory is the arena's. */

typedef enum { TopOther = 1, TopAlloc = 2, TopFree = 4, TopIgnore = 8 } TopClass;

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

static UInt class_of_name(const HChar* name)
{
   if (strncmp(name, "_Znw", 4) == 0 || strncmp(name, "_Zna", 4) == 0
       || in_names(name, alloc_names,
                   sizeof(alloc_names) / sizeof(alloc_names[0])))
      return TopAlloc;
   if (strncmp(name, "_Zdl", 4) == 0 || strncmp(name, "_Zda", 4) == 0
       || in_names(name, free_names, sizeof(free_names) / sizeof(free_names[0])))
      return TopFree;
   return TopOther;
}

/*------------------------------------------------------------*/
/*--- --alloc-fn and --ignore-fn                           ---*/
/*------------------------------------------------------------*/

/* The patterns match a function's name as Valgrind's symbol table gives
   it: the symbol, demangled with its parameters if it is C++'s (with the
   C++ library's __cxa_demangle, when the program has it loaded; its own
   memory is the C library's, as libunwind's is: a call from inside the
   recorder).  A function matching an --alloc-fn pattern is an allocator's
   (TopAlloc), one matching --ignore-fn is TopIgnore.  The names are those
   of the object's symbol table (.symtab), read from its file, or of its
   dynamic symbols if it has none (a stripped object): a function
   inlined into its caller, or without a symbol, matches nothing. */
#define MAX_FN_PATTERNS 512   // strata record allows 256 of each
static struct {
   const HChar* pattern;
   Bool         ignore;
} fn_patterns[MAX_FN_PATTERNS];
static UInt n_patterns = 0;

Bool add_fn_pattern(const HChar* pattern, Bool ignore)
{
   if (n_patterns == MAX_FN_PATTERNS)
      return False;
   fn_patterns[n_patterns].pattern = pattern;
   fn_patterns[n_patterns].ignore  = ignore;
   n_patterns++;
   return True;
}

UInt n_fn_patterns(void)
{
   return n_patterns;
}

const HChar* fn_pattern(UInt i, Bool* ignore)
{
   *ignore = fn_patterns[i].ignore;
   return fn_patterns[i].pattern;
}

typedef char* (*Demangler)(const char*, char*, size_t*, int*);

/* TopAlloc and TopIgnore, as the patterns say of the function 'name'; 0
   if none matches. */
static UInt class_of_patterns(const HChar* name)
{
   static Demangler demangle = NULL;
   static Bool      looked   = False;
   HChar* plain = NULL;
   UInt   i, cls = 0;
   Int    status;
   if (name[0] == '_' && name[1] == 'Z') {
      if (!looked) {
         demangle = (Demangler)dlsym(RTLD_DEFAULT, "__cxa_demangle");
         looked   = True;
      }
      if (demangle != NULL && (plain = demangle(name, NULL, NULL, &status)) != NULL
          && status != 0) {
         free(plain);
         plain = NULL;
      }
   }
   for (i = 0; i < n_patterns; i++)
      if (VG_(string_match)(fn_patterns[i].pattern, plain != NULL ? plain : name))
         cls |= fn_patterns[i].ignore ? TopIgnore : TopAlloc;
   free(plain);
   return cls;
}

/* A dynamic symbol, as read: [lo, hi), its class, its place in the hash
   table's order. */
typedef struct {
   Addr lo, hi;
   UInt cls;
   UInt seq;
} Sym;

/* Code range -> TopAlloc or TopFree, sorted, disjoint. */
typedef struct {
   Addr lo, hi;
   UWord cls;
} ClassRange;

/* ranges[0 .. n) by the dynamic symbols, then ranges[n .. n + n_fns) by
   the patterns (TopAlloc, TopIgnore or both). */
struct _ClassMap {
   UInt       n, n_fns;
   ClassRange ranges[];
};

static const ClassMap no_classes = { 0, 0 };

/* What a module's dynamic section says where its symbols are. */
typedef struct {
   const ElfW(Sym)*  symtab;
   const HChar*      strtab;
   SizeT             strsz;
   const Elf32_Word* gnu_hash;  // DT_GNU_HASH, or NULL
   const Elf32_Word* hash;      // DT_HASH, or NULL
} DynInfo;

/* An address of the dynamic section: relocated by the dynamic linker,
   except where it could not write (the vDSO's). */
static const void* dyn_ptr(const Module* m, Addr v)
{
   return (const void*)(v >= m->lo ? v : v + m->bias);
}

static Bool read_DynInfo(const Module* m, const struct dl_phdr_info* info,
                         DynInfo* d)
{
   const ElfW(Dyn)* dyn = NULL;
   Int i;
   memset(d, 0, sizeof(*d));
   for (i = 0; i < info->dlpi_phnum; i++)
      if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
         dyn = (const ElfW(Dyn)*)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
   if (dyn == NULL)
      return False;
   for (; dyn->d_tag != DT_NULL; dyn++) {
      switch (dyn->d_tag) {
      case DT_SYMTAB:   d->symtab   = dyn_ptr(m, dyn->d_un.d_ptr); break;
      case DT_STRTAB:   d->strtab   = dyn_ptr(m, dyn->d_un.d_ptr); break;
      case DT_STRSZ:    d->strsz    = dyn->d_un.d_val; break;
      case DT_GNU_HASH: d->gnu_hash = dyn_ptr(m, dyn->d_un.d_ptr); break;
      case DT_HASH:     d->hash     = dyn_ptr(m, dyn->d_un.d_ptr); break;
      }
   }
   return d->symtab != NULL && d->strtab != NULL;
}

/* Whether dladdr considers 'sym' (from_hash: referenced by the GNU hash
   table, which holds no local symbol). */
static Bool is_candidate(const DynInfo* d, const ElfW(Sym)* sym, Bool from_hash)
{
   UInt bind = ELF64_ST_BIND(sym->st_info);
   UInt vis  = ELF64_ST_VISIBILITY(sym->st_other);
   if (!from_hash && ((bind != STB_GLOBAL && bind != STB_WEAK)
                      || vis == STV_HIDDEN || vis == STV_INTERNAL))
      return False;
   return ELF64_ST_TYPE(sym->st_info) != STT_TLS
          && (sym->st_shndx != SHN_UNDEF || sym->st_value != 0)
          && sym->st_shndx != SHN_ABS && sym->st_name < d->strsz;
}

/* Symbol 'sym' as the seq'th of the order, into 'out' if not NULL. */
static void take_Sym(const Module* m, const DynInfo* d, const ElfW(Sym)* sym,
                     Sym* out, UInt seq)
{
   if (out == NULL)
      return;
   out->lo  = m->bias + sym->st_value;
   out->hi  = sym->st_shndx == SHN_UNDEF || sym->st_size == 0
                 ? out->lo + 1 : out->lo + sym->st_size;
   out->cls = sym->st_size == 0 ? TopOther
                                : class_of_name(d->strtab + sym->st_name);
   out->seq = seq;
}

/* The candidates in dladdr's order, into 'out' (if not NULL); how many. */
static UInt walk_Syms(const Module* m, const DynInfo* d, Sym* out)
{
   UInt n = 0, b, k;
   if (d->gnu_hash != NULL) {
      UInt nbuckets = d->gnu_hash[0], symbias = d->gnu_hash[1];
      UInt bloom_words = d->gnu_hash[2] * (sizeof(ElfW(Addr)) / 4);
      const Elf32_Word* buckets = d->gnu_hash + 4 + bloom_words;
      const Elf32_Word* chain0  = buckets + nbuckets - symbias;
      for (b = 0; b < nbuckets; b++) {
         if (buckets[b] == 0)
            continue;
         for (k = buckets[b]; ; k++) {
            if (is_candidate(d, &d->symtab[k], True))
               take_Sym(m, d, &d->symtab[k], out ? &out[n] : NULL, n), n++;
            if (chain0[k] & 1)
               break;
         }
      }
      return n;
   }
   // DT_HASH gives the number of symbols; without it, the string table
   // follows the symbol table (as dladdr assumes)
   {
      UInt total = d->hash != NULL
                      ? d->hash[1]
                      : (UInt)(((Addr)d->strtab - (Addr)d->symtab)
                               / sizeof(ElfW(Sym)));
      for (k = 0; k < total; k++)
         if (is_candidate(d, &d->symtab[k], False))
            take_Sym(m, d, &d->symtab[k], out ? &out[n] : NULL, n), n++;
   }
   return n;
}

static Bool sym_before(const Sym* a, const Sym* b)
{
   return a->lo < b->lo || (a->lo == b->lo && a->seq < b->seq);
}

/* Heapsort (the C library's qsort may call malloc). */
static void sift_down(Sym* s, UInt i, UInt n)
{
   Sym t;
   for (;;) {
      UInt c = 2 * i + 1;
      if (c >= n)
         return;
      if (c + 1 < n && sym_before(&s[c], &s[c + 1]))
         c++;
      if (!sym_before(&s[i], &s[c]))
         return;
      t = s[i]; s[i] = s[c]; s[c] = t;
      i = c;
   }
}

static void sort_Syms(Sym* s, UInt n)
{
   UInt i;
   Sym  t;
   for (i = n / 2; i-- > 0; )
      sift_down(s, i, n);
   for (i = n; i-- > 1; ) {
      t = s[0]; s[0] = s[i]; s[i] = t;
      sift_down(s, 0, i);
   }
}

/* Where s[e] is the symbol dladdr gives (e's extent less the extents of
   those that begin after it, or at it but before it in the hash table's
   order), appended to 'out' (if not NULL) from out[n]; the new count. */
static UInt add_ranges_of(const Sym* s, UInt n_syms, UInt e,
                          ClassRange* out, UInt n)
{
   Addr cur = s[e].lo, end = s[e].hi;
   UInt j;
   for (j = e; j-- > 0 && s[j].lo == s[e].lo; )
      if (s[j].hi > cur)
         cur = s[j].hi;
   for (j = e + 1; j < n_syms && s[j].lo == s[e].lo; j++)
      ;                         // after it in the order: e wins at lo
   for (; j < n_syms && s[j].lo < end && cur < end; j++) {
      if (s[j].lo > cur) {
         if (out != NULL)
            out[n] = (ClassRange){ cur, s[j].lo, s[e].cls };
         n++;
      }
      if (s[j].hi > cur)
         cur = s[j].hi;
   }
   if (cur < end) {
      if (out != NULL)
         out[n] = (ClassRange){ cur, end, s[e].cls };
      n++;
   }
   return n;
}

static UInt ranges_of(const Sym* s, UInt n_syms, ClassRange* out)
{
   UInt e, n = 0;
   for (e = 0; e < n_syms; e++)
      if (s[e].cls != TopOther)
         n = add_ranges_of(s, n_syms, e, out, n);
   return n;
}

/* The functions of the object file 'path' (loaded with 'bias') whose names
   match a pattern, into 'out' (if not NULL): how many.  Its .symtab, or its
   .dynsym if it has none; the file mapped while it is read. */
static UInt walk_fn_Syms(const HChar* path, Addr bias, Sym* out)
{
   struct stat       st;
   const UChar*      img;
   const ElfW(Ehdr)* eh;
   const ElfW(Shdr)* sh;
   const ElfW(Shdr)* tab = NULL;
   const ElfW(Sym)*  sym;
   const HChar*      strs;
   UWord             i, n_syms, strsz;
   UInt              n = 0, cls;
   Int               fd = open(path, O_RDONLY | O_CLOEXEC);
   if (fd < 0)
      return 0;
   if (fstat(fd, &st) != 0 || (UWord)st.st_size < sizeof(ElfW(Ehdr))) {
      close(fd);
      return 0;
   }
   img = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
   close(fd);
   if (img == MAP_FAILED)
      return 0;
   eh = (const ElfW(Ehdr)*)img;
   if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64
       || eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff == 0
       || eh->e_shoff + (UWord)eh->e_shnum * sizeof(ElfW(Shdr)) > (UWord)st.st_size)
      goto done;
   sh = (const ElfW(Shdr)*)(img + eh->e_shoff);
   for (i = 0; i < eh->e_shnum; i++)
      if (sh[i].sh_type == SHT_SYMTAB || (sh[i].sh_type == SHT_DYNSYM && tab == NULL))
         tab = &sh[i];
   if (tab == NULL || tab->sh_link >= eh->e_shnum
       || tab->sh_offset + tab->sh_size > (UWord)st.st_size
       || sh[tab->sh_link].sh_offset + sh[tab->sh_link].sh_size > (UWord)st.st_size
       || sh[tab->sh_link].sh_size == 0)
      goto done;
   sym    = (const ElfW(Sym)*)(img + tab->sh_offset);
   n_syms = tab->sh_size / sizeof(ElfW(Sym));
   strs   = (const HChar*)img + sh[tab->sh_link].sh_offset;
   strsz  = sh[tab->sh_link].sh_size;
   if (strs[strsz - 1] != '\0')
      goto done;
   for (i = 0; i < n_syms; i++, sym++) {
      UInt type = ELF64_ST_TYPE(sym->st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym->st_shndx == SHN_UNDEF
          || sym->st_size == 0 || sym->st_name >= strsz
          || (cls = class_of_patterns(strs + sym->st_name)) == 0)
         continue;
      if (out != NULL)
         out[n] = (Sym){ bias + sym->st_value, bias + sym->st_value + sym->st_size, cls, n };
      n++;
   }
done:
   munmap((void*)img, st.st_size);
   return n;
}

/* The ranges of sorted functions 's' (one function under two names: the
   classes of both), into 'out' (if not NULL): disjoint, sorted.  How many. */
static UInt fn_ranges_of(const Sym* s, UInt n_syms, ClassRange* out)
{
   UInt  e, n = 0;
   Addr  last_lo = 0, last_hi = 0, lo;
   UWord last_cls = 0;
   for (e = 0; e < n_syms; e++) {
      lo = s[e].lo;
      if (n > 0 && lo < last_hi) {
         if (lo == last_lo && s[e].hi == last_hi) {
            last_cls |= s[e].cls;
            if (out != NULL)
               out[n - 1].cls = last_cls;
            continue;
         }
         lo = last_hi;
         if (s[e].hi <= lo)
            continue;
      }
      last_lo = lo;
      last_hi = s[e].hi;
      last_cls = s[e].cls;
      if (out != NULL)
         out[n] = (ClassRange){ lo, last_hi, last_cls };
      n++;
   }
   return n;
}

/* The class map of 'm', loaded as 'info' says: by its dynamic symbols, and
   by the patterns (its functions read from its file, once: two passes,
   the second into the arena). */
static const ClassMap* build_ClassMap(const Module* m,
                                      const struct dl_phdr_info* info)
{
   DynInfo   d;
   Sym*      syms = NULL;
   Sym*      fns  = NULL;
   ClassMap* map;
   UInt      n_syms = 0, n_fn_syms = 0, n = 0, n_fns = 0;
   if (read_DynInfo(m, info, &d) && (n_syms = walk_Syms(m, &d, NULL)) > 0
       && (syms = arena_malloc(n_syms * sizeof(Sym))) != NULL) {
      walk_Syms(m, &d, syms);
      sort_Syms(syms, n_syms);
      n = ranges_of(syms, n_syms, NULL);
   }
   if (n_patterns > 0 && (n_fn_syms = walk_fn_Syms(m->path, m->bias, NULL)) > 0
       && (fns = arena_malloc(n_fn_syms * sizeof(Sym))) != NULL) {
      n_fn_syms = walk_fn_Syms(m->path, m->bias, fns);
      sort_Syms(fns, n_fn_syms);
      n_fns = fn_ranges_of(fns, n_fn_syms, NULL);
   }
   map = n + n_fns == 0 ? NULL
                        : arena_malloc(sizeof(ClassMap) + (n + n_fns) * sizeof(ClassRange));
   if (map != NULL) {
      map->n     = syms != NULL ? ranges_of(syms, n_syms, map->ranges) : 0;
      map->n_fns = fns != NULL ? fn_ranges_of(fns, n_fn_syms, map->ranges + map->n) : 0;
   }
   arena_free(syms);
   arena_free(fns);
   return map != NULL ? map : &no_classes;
}

/* dl_iterate_phdr's callback: the class map of the module in 'data', if
   it is still loaded. */
static int read_classes(struct dl_phdr_info* info, size_t size, void* data)
{
   Module* m = data;
   Addr    lo, hi;
   (void)size;
   if (info->dlpi_addr != m->bias || !extent_of(info, &lo, &hi)
       || lo != m->lo || hi != m->hi || strcmp(path_of(info), m->path) != 0)
      return 0;
   __atomic_store_n(&m->classes, build_ClassMap(m, info), __ATOMIC_RELEASE);
   return 1;
}

static const ClassMap* classes_of(Module* m)
{
   const ClassMap* map = __atomic_load_n(&m->classes, __ATOMIC_ACQUIRE);
   if (map != NULL)
      return map;
   pthread_mutex_lock(&modules_lock);
   if (m->classes == NULL)
      dl_iterate_phdr(read_classes, m);
   if (m->classes == NULL)      // no longer loaded
      __atomic_store_n(&m->classes, &no_classes, __ATOMIC_RELEASE);
   map = m->classes;
   pthread_mutex_unlock(&modules_lock);
   return map;
}

/* The class of the range of 'r[0 .. n)' holding 'ip', or 'none'. */
static UInt class_of_range(const ClassRange* r, UInt n, Addr ip, UInt none)
{
   UInt lo = 0, hi = n;        // the range holding ip is in [lo, hi)
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (ip < r[mid].lo)
         hi = mid;
      else if (ip >= r[mid].hi)
         lo = mid + 1;
      else
         return (UInt)r[mid].cls;
   }
   return none;
}

static UInt class_in(const ClassMap* map, Addr ip)
{
   UInt cls = class_of_range(map->ranges, map->n, ip, TopOther);
   UInt fns = class_of_range(map->ranges + map->n, map->n_fns, ip, 0);
   return fns == 0 ? cls : (cls & ~(UInt)TopOther) | fns;
}

/* The class of the function at 'ip': its module's map, the modules listed
   again if it is in none (an object loaded since). */
static UInt classify_top(Addr ip)
{
   Module* m = (Module*)module_of(ip);
   if (m == NULL) {
      refresh_Modules();
      m = (Module*)module_of(ip);
      if (m == NULL)
         return TopOther;
   }
   return class_in(classes_of(m), ip);
}

/*------------------------------------------------------------*/
/*--- Which frames make a site                             ---*/
/*------------------------------------------------------------*/

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

/* Every class forgotten (after a dlclose). */
static void clear_top_classes(void)
{
   UWord i;
   for (i = 0; i < TOP_SLOTS; i++)
      __atomic_store_n(&top_classes[i], 0, __ATOMIC_RELAXED);
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
   cls = classify_top(ip);     // never under the core's lock
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

/* Whether the function at 'fn' (of 'len' bytes) sets up a frame pointer:
   push %rbp; mov %rsp,%rbp (55 48 89 e5) in its first 16 bytes (after
   endbr64, or an instruction scheduled before).  No: built without frame
   pointers, or not recognised. */
static Bool keeps_frame_pointer(Addr fn, Addr len)
{
   static const UChar prologue[4] = { 0x55, 0x48, 0x89, 0xe5 };
   Addr i;
   for (i = 0; i < 16 && i + 4 <= len; i++)
      if (memcmp((const UChar*)fn + i, prologue, 4) == 0)
         return True;
   return False;
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
   if (clo_unwind == UnwindFP && !keeps_frame_pointer(main_fn, main_hi - main_fn)) {
      clo_unwind = UnwindLibunwind;
      VG_(umsg)("strata: --unwind=fp: the program's main keeps no frame pointer "
                "(built without -fno-omit-frame-pointer?): its stacks are "
                "unwound with libunwind\n");
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
   known (set_main_fn), and a stack unwound before cannot hold main.  A
   dlclose empties every thread's cache (modules_gen), since another
   object may be loaded where the closed one was. */
#define SCACHE_ENTRIES  512
#define SCACHE_IPS       40    // deeper stacks are not cached
typedef struct {
   UWord hash;                 // 0: empty
   UInt  n, depth;
   UInt  site_first, site_end, free_first, free_end;
   Bool  ignored;
   Site* site;                 // NULL until the core found it
   UInt  id;                   // 0 until interned (id_of_RawStack)
   Addr  ips[SCACHE_IPS];
} StackEntry;

static __thread StackEntry* scache __attribute__((tls_model("initial-exec")));
static __thread UInt scache_gen __attribute__((tls_model("initial-exec")));
static pthread_key_t scache_key;   // frees a thread's cache at its exit

/* At the thread's exit, among the destructors of its thread-specific data:
   a destructor run after this one (the program's, freeing its own data)
   still frees through us, and unwinds without a cache from then on. */
static __thread Bool scache_gone __attribute__((tls_model("initial-exec")));

static void free_scache(void* c)
{
   scache = NULL;
   scache_gone = True;
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
   if (st->n > SCACHE_IPS || scache_gone)
      return NULL;
   if (scache == NULL) {
      scache = arena_malloc(SCACHE_ENTRIES * sizeof(StackEntry));
      if (scache == NULL)
         return NULL;
      memset(scache, 0, SCACHE_ENTRIES * sizeof(StackEntry));
      pthread_setspecific(scache_key, scache);
      scache_gen = __atomic_load_n(&modules_gen, __ATOMIC_ACQUIRE);
   }
   if (UNLIKELY(scache_gen != __atomic_load_n(&modules_gen, __ATOMIC_ACQUIRE))) {
      memset(scache, 0, SCACHE_ENTRIES * sizeof(StackEntry));   // a dlclose
      scache_gen = __atomic_load_n(&modules_gen, __ATOMIC_ACQUIRE);
   }
   e = &scache[(hash >> 7) & (SCACHE_ENTRIES - 1)];
   if (e->hash == hash && e->n == st->n && e->depth == depth
       && memcmp(e->ips, st->ips, st->n * sizeof(Addr)) == 0) {
      st->site_first = e->site_first;
      st->site_end   = e->site_end;
      st->free_first = e->free_first;
      st->free_end   = e->free_end;
      st->ignored    = e->ignored;
      st->site       = e->site;
      st->site_slot  = &e->site;
      st->id         = e->id;
      st->id_slot    = &e->id;
      return e;
   }
   e->hash  = 0;
   e->n     = st->n;
   e->depth = depth;
   e->site  = NULL;
   e->id    = 0;
   memcpy(e->ips, st->ips, st->n * sizeof(Addr));
   st->site_slot = &e->site;
   st->id_slot   = &e->id;
   return NULL;
}

/* --unwind=fp: the chain of frame pointers.  Each frame that keeps one
   holds, at its frame pointer, the caller's frame pointer and then its
   return address:

      fp -> [ the caller's fp | the return address ]    (x86-64, rbp)

   A frame read is always within the thread's stack (pthread_getattr_np:
   mapped from the frame of fp_backtrace to its top), 8-byte aligned and
   above the frame read before, so a frame without a frame pointer (rbp
   then holds anything) ends the chain or hides its caller, and never
   makes a fault.  A program whose main keeps no frame pointer is
   unwound with libunwind throughout (set_main_fn says so on stderr);
   libunwind unwinds instead, too, on another stack (an
   alternate signal stack, a context of the program's own), and when the
   allocation function was called from outside the program (C++'s
   operator new in libstdc++, strdup in the C library): a library built
   without frame pointers would hide the frame that called it. */
static __thread Addr thread_stack_lo __attribute__((tls_model("initial-exec")));
static __thread Addr thread_stack_hi __attribute__((tls_model("initial-exec")));

static Bool get_thread_stack(void)
{
   pthread_attr_t attr;
   void*  addr;
   size_t size;
   if (thread_stack_hi != 0)
      return thread_stack_hi != 1;
   thread_stack_hi = 1;         // unknown, unless found
   if (pthread_getattr_np(pthread_self(), &attr) != 0)
      return False;
   if (pthread_attr_getstack(&attr, &addr, &size) == 0 && size >= 16) {
      thread_stack_lo = (Addr)addr;
      thread_stack_hi = (Addr)addr + size;
   }
   pthread_attr_destroy(&attr);
   return thread_stack_hi != 1;
}

/* The return addresses of the frames above this one, at most 'max'; -1
   if this is not the thread's stack, or the first frame past the
   recorder's is not the program's. */
static __attribute__((noinline)) Int fp_backtrace(void** ras, Int max)
{
   Addr fp = (Addr)__builtin_frame_address(0);
   Addr lo = fp, hi, next, ra;
   Int  n = 0;
   Bool own = True;             // still in the recorder's frames
   if (!get_thread_stack() || fp < thread_stack_lo || fp >= thread_stack_hi)
      return -1;
   hi = thread_stack_hi;
   while (n < max && (fp & 7) == 0 && fp >= lo && fp <= hi - 16) {
      next = ((const Addr*)fp)[0];
      ra   = ((const Addr*)fp)[1];
      if (ra < 4096)
         break;
      if (own && (ra < own_lo || ra >= own_hi)) {
         if (ra < exe_lo || ra >= exe_hi)
            return -1;
         own = False;
      }
      ras[n++] = (void*)ra;
      lo = fp + 16;
      fp = next;
   }
   return own ? -1 : n;
}

/* The raw stack: 'want' return addresses at most. */
/* The raw stack of the 'n' addresses 'ras' as unwound: each a return
   address less 1 (in its call), but the first, where the walk began. */
static void take_RawStack(RawStack* st, void* const* ras, Int n)
{
   Int i;
   st->n = 0;
   for (i = 0; i < n; i++)
      st->ips[st->n++] = (Addr)ras[i] - (i > 0 ? 1 : 0);
}

static void backtrace_RawStack(RawStack* st, UInt want)
{
   void* ras[MAX_RAW_FRAMES];
   Int   n = clo_unwind == UnwindFP ? fp_backtrace(ras, (Int)want) : -1;
   if (n < 0)
      n = unw_backtrace(ras, (Int)want);
   take_RawStack(st, ras, n);
}

/* The bounds of the site and the free stack, and whether the allocation
   is ignored (its first frame past the allocator's is an --ignore-fn
   function's). */
static void bound_RawStack(RawStack* st)
{
   UInt i;
   Bool main_stripped = False;  // --alloc-fn=main
   for (i = 0; i < st->n && (top_class(st->ips[i]) & TopAlloc); i++)
      main_stripped |= st->ips[i] >= main_lo && st->ips[i] < main_hi;
   st->site_first = i;
   st->ignored = i < st->n && (top_class(st->ips[i]) & TopIgnore) != 0;
   for (; i < st->n && (top_class(st->ips[i]) & TopFree); i++)
      ;
   st->free_first = i;
   // main stripped: the site is the one frame below it, as in massif
   st->site_end = main_stripped ? (st->site_first < st->n ? st->site_first + 1 : st->n)
                                : cut(st, st->site_first, clo_depth);
   st->free_end = cut(st, st->free_first, clo_free_depth);
}

UInt unwind_want(UInt depth)
{
   if (depth + SLACK_FRAMES > MAX_RAW_FRAMES)
      depth = MAX_RAW_FRAMES - SLACK_FRAMES;
   return depth + SLACK_FRAMES;
}

void unwind_RawStack(RawStack* st, UInt depth)
{
   unwind_RawStack_from(st, depth, NULL, -1);
}

void unwind_RawStack_from(RawStack* st, UInt depth, void* const* ras, Int n)
{
   UInt  want = unwind_want(depth);
   UWord hash;
   StackEntry* e;
   depth = want - SLACK_FRAMES;   // as unwind_want bounds it
   if (n < 0)
      backtrace_RawStack(st, want);
   else
      take_RawStack(st, ras, n);
   st->site = NULL;
   st->site_slot = NULL;
   st->depth = depth;
   st->id = 0;
   st->id_slot = NULL;
   hash = hash_ips(st->ips, st->n, depth);
   if (cached_stack(st, depth, hash) != NULL)
      return;
   bound_RawStack(st);
   if (st->n == want && want < MAX_RAW_FRAMES
       && ((depth >= clo_depth && st->site_end - st->site_first < clo_depth
            && st->site_end == st->n)
           || (depth >= clo_free_depth && st->free_end - st->free_first < clo_free_depth
               && st->free_end == st->n))) {
      /* More frames were taken off the top than the slack (--alloc-fn
         wrappers): unwound again, as deep as it goes, and not cached. */
      backtrace_RawStack(st, MAX_RAW_FRAMES);
      bound_RawStack(st);
      st->site_slot = NULL;
      st->id_slot = NULL;
      st->depth = MAX_RAW_FRAMES;
      return;
   }
   if (st->site_slot != NULL) {   // the entry cached_stack began
      e = (StackEntry*)((UChar*)st->site_slot - offsetof(StackEntry, site));
      e->site_first = st->site_first;
      e->site_end   = st->site_end;
      e->free_first = st->free_first;
      e->free_end   = st->free_end;
      e->ignored    = st->ignored;
      e->hash       = hash;
   }
}

/*------------------------------------------------------------*/
/*--- Stacks interned, for the recorder thread             ---*/
/*------------------------------------------------------------*/

/* The stacks the program's threads pass to the recorder thread by id: a
   table of the records, in chunks that never move (the recorder thread
   reads them without the lock), and a hash table of their ids (open
   addressing, at most half full).  A thread's stack cache keeps the id of
   each stack it knows, so the lock is taken for a stack the thread has not
   seen lately only. */
#define ID_CHUNK   4096
#define ID_CHUNKS  4096          // up to 16M stacks
static StackRec** id_chunks[ID_CHUNKS];
static UInt       n_ids = 0;     // ids 1 .. n_ids
static UInt*      id_hash = NULL;
static UWord      id_hash_cap = 0;
static pthread_mutex_t id_lock = PTHREAD_MUTEX_INITIALIZER;

StackRec* stack_of_id(UInt id)
{
   UInt i = id - 1;
   return id == 0 ? NULL : id_chunks[i / ID_CHUNK][i % ID_CHUNK];
}

static Bool same_stack(const StackRec* r, UWord hash, const RawStack* st)
{
   return r->hash == hash && r->n == st->n && r->depth == st->depth
          && memcmp(r->ips, st->ips, st->n * sizeof(Addr)) == 0;
}

static void grow_id_hash(void)
{
   UWord cap = id_hash_cap == 0 ? 1 << 12 : 2 * id_hash_cap, j;
   UInt* t = arena_malloc(cap * sizeof(UInt));
   UInt  id;
   if (t == NULL)
      return;
   memset(t, 0, cap * sizeof(UInt));
   for (id = 1; id <= n_ids; id++) {
      for (j = stack_of_id(id)->hash & (cap - 1); t[j] != 0; j = (j + 1) & (cap - 1))
         ;
      t[j] = id;
   }
   if (id_hash != NULL)
      arena_free(id_hash);
   id_hash = t;
   id_hash_cap = cap;
}

static UInt intern_stack(const RawStack* st, UWord hash)
{
   UWord     j;
   UInt      id = 0, i;
   StackRec* r;
   pthread_mutex_lock(&id_lock);
   if (2 * (n_ids + 1) > id_hash_cap)
      grow_id_hash();
   if (id_hash == NULL)
      goto out;
   for (j = hash & (id_hash_cap - 1); id_hash[j] != 0; j = (j + 1) & (id_hash_cap - 1))
      if (same_stack(stack_of_id(id_hash[j]), hash, st)) {
         id = id_hash[j];
         goto out;
      }
   i = n_ids;
   if (i / ID_CHUNK >= ID_CHUNKS)
      goto out;
   if (id_chunks[i / ID_CHUNK] == NULL
       && (id_chunks[i / ID_CHUNK] = arena_malloc(ID_CHUNK * sizeof(StackRec*))) == NULL)
      goto out;
   r = arena_malloc(sizeof(StackRec) + st->n * sizeof(Addr));
   if (r == NULL)
      goto out;
   r->hash       = hash;
   r->n          = st->n;
   r->depth      = st->depth;
   r->site_first = (UShort)st->site_first;
   r->site_end   = (UShort)st->site_end;
   r->free_first = (UShort)st->free_first;
   r->free_end   = (UShort)st->free_end;
   r->ignored    = st->ignored;
   r->site       = NULL;
   r->free_stack = NULL;
   memcpy(r->ips, st->ips, st->n * sizeof(Addr));
   id_chunks[i / ID_CHUNK][i % ID_CHUNK] = r;
   __atomic_store_n(&n_ids, i + 1, __ATOMIC_RELEASE);
   id = i + 1;
   id_hash[j] = id;
out:
   pthread_mutex_unlock(&id_lock);
   return id;
}

UInt id_of_RawStack(RawStack* st)
{
   if (st->id == 0) {
      st->id = intern_stack(st, hash_ips(st->ips, st->n, st->depth));
      if (st->id_slot != NULL)
         *st->id_slot = st->id;
   }
   return st->id;
}

void for_each_StackRec(void (*fn)(StackRec* r))
{
   UInt id, n = __atomic_load_n(&n_ids, __ATOMIC_ACQUIRE);
   for (id = 1; id <= n; id++)
      fn(stack_of_id(id));
}

void stacks_atfork_prepare(void) { pthread_mutex_lock(&id_lock); }
void stacks_atfork_parent(void)  { pthread_mutex_unlock(&id_lock); }
void stacks_atfork_child(void)   { pthread_mutex_init(&id_lock, NULL); }

void init_stacks(void)
{
   ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
   exe_path[n > 0 ? n : 0] = '\0';
   pthread_key_create(&scache_key, free_scache);
   // Each thread its own cache of what libunwind read per address, where
   // libunwind is built with it (--enable-per-thread-cache); Debian's is
   // not, and takes its global cache instead, under a lock with the
   // signals masked.  Either way the walks themselves come from the
   // per-thread cache of unw_backtrace's frames, which needs a step of
   // libunwind's (and its locks) once per new code address: in cc1plus's
   // run, 57,000 system calls that mask and unmask the signals, about 2%
   // of its time; UNW_CACHE_NONE took a quarter of them away, and nothing
   // measurable of the time.
   unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
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
   m = module_naming(ip);
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
