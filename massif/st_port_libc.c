/*--------------------------------------------------------------------*/
/*--- strata: the recorder core's host calls on the C library.     ---*/
/*---                                               st_port_libc.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* st_port.h's calls for a recorder linked with the C library (built with
   ST_PORT_LIBC): each does what Valgrind's core function of the same name
   does for the tool.  The containers are the smallest that serve the
   core: a chained hash table that doubles when it holds two nodes a
   chain, a growable array, and a pool of fixed-size elements carved from
   blocks with a free list.

   Built with ST_PORT_ARENA too, the memory is not the C library's but an
   arena of the recorder's own (arena_malloc, arena_realloc, arena_free):
   the native recorder (native/) replaces malloc, and its own memory must
   never come from the program's allocator.  Messages are formatted on the
   stack and written with write(2), never through stdio, which allocates. */

#define _GNU_SOURCE
#include "st_port.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/futex.h>

#ifdef ST_PORT_ARENA
void* arena_malloc(SizeT n);
void* arena_realloc(void* p, SizeT n);
void  arena_free(void* p);
#define host_malloc  arena_malloc
#define host_realloc arena_realloc
#define host_free    arena_free
#else
#define host_malloc  malloc
#define host_realloc realloc
#define host_free    free
#endif

/* A message on stderr, formatted on the stack: no allocation. */
static void message(const HChar* format, va_list ap)
{
   HChar   text[1024];
   Int     n = vsnprintf(text, sizeof(text), format, ap);
   ssize_t w;
   if (n < 0)
      return;
   if (n >= (Int)sizeof(text))
      n = sizeof(text) - 1;
   w = write(2, text, n);
   (void)w;
}

static void message_of(const HChar* format, ...)
   __attribute__((format(printf, 1, 2)));
static void message_of(const HChar* format, ...)
{
   va_list ap;
   va_start(ap, format);
   message(format, ap);
   va_end(ap);
}

/*------------------------------------------------------------*/
/*--- assert                                               ---*/
/*------------------------------------------------------------*/

void VG_(assert_fail)(const HChar* expr, const HChar* file, Int line,
                      const HChar* fmt, ...)
{
   message_of("strata: %s:%d: assertion '%s' failed%s", file, line, expr,
              fmt != NULL ? ": " : "\n");
   if (fmt != NULL) {
      va_list ap;
      va_start(ap, fmt);
      message(fmt, ap);
      va_end(ap);
      message_of("\n");
   }
   abort();
}

/*------------------------------------------------------------*/
/*--- memory                                               ---*/
/*------------------------------------------------------------*/

/* Like Valgrind's: the core never gets NULL. */
static void* checked(void* p, SizeT n)
{
   if (p == NULL && n > 0) {
      message_of("strata: out of memory (%lu bytes)\n", n);
      abort();
   }
   return p;
}

void* VG_(malloc)(const HChar* cc, SizeT n)
{
   (void)cc;
   return checked(host_malloc(n), n);
}

void* VG_(calloc)(const HChar* cc, SizeT n, SizeT size)
{
   void* p;
   (void)cc;
   if (size != 0 && n > (SizeT)-1 / size)
      return checked(NULL, (SizeT)-1);
   p = checked(host_malloc(n * size), n * size);
   return memset(p, 0, n * size);
}

void* VG_(realloc)(const HChar* cc, void* p, SizeT n)
{
   (void)cc;
   return checked(host_realloc(p, n), n);
}

void VG_(free)(void* p)
{
   host_free(p);
}

void* VG_(memcpy)(void* d, const void* s, SizeT n)  { return memcpy(d, s, n); }
void* VG_(memmove)(void* d, const void* s, SizeT n) { return memmove(d, s, n); }
void* VG_(memset)(void* d, Int c, SizeT n)          { return memset(d, c, n); }
SizeT VG_(strlen)(const HChar* s)                   { return strlen(s); }
HChar* VG_(strncpy)(HChar* d, const HChar* s, SizeT n) { return strncpy(d, s, n); }

/* Valgrind's wildcards: '*' any string, '?' any one character, '\\' the
   next character as itself. */
Bool VG_(string_match)(const HChar* p, const HChar* s)
{
   for (;; p++, s++) {
      switch (*p) {
      case '\0':
         return *s == '\0';
      case '*':
         while (p[1] == '*')
            p++;
         if (p[1] == '\0')
            return True;
         for (; *s != '\0'; s++)
            if (VG_(string_match)(p + 1, s))
               return True;
         return False;
      case '?':
         if (*s == '\0')
            return False;
         break;
      case '\\':
         if (p[1] != '\0')
            p++;
         /* fall through */
      default:
         if (*p != *s)
            return False;
      }
   }
}

/* The hash table: chains of nodes, 'n_chains' a power of two. */
struct _VgHashTable {
   VgHashNode** chains;
   UWord        n_chains;
   UWord        n_nodes;
   UWord        iter_chain;     // the iterator: the chain and node next
   VgHashNode*  iter_node;
};

static UWord chain_of(const VgHashTable* t, UWord key)
{
   return (key ^ (key >> 17)) & (t->n_chains - 1);
}

VgHashTable* VG_(HT_construct)(const HChar* name)
{
   VgHashTable* t = VG_(calloc)(name, 1, sizeof(VgHashTable));
   t->n_chains = 64;
   t->chains   = VG_(calloc)(name, t->n_chains, sizeof(VgHashNode*));
   return t;
}

Int VG_(HT_count_nodes)(const VgHashTable* t)
{
   return (Int)t->n_nodes;
}

static void grow_table(VgHashTable* t)
{
   VgHashNode** old   = t->chains;
   UWord        old_n = t->n_chains, i;
   t->n_chains *= 2;
   t->chains = VG_(calloc)("st.ht", t->n_chains, sizeof(VgHashNode*));
   for (i = 0; i < old_n; i++) {
      VgHashNode* n = old[i];
      while (n != NULL) {
         VgHashNode* next = n->next;
         UWord c = chain_of(t, n->key);
         n->next = t->chains[c];
         t->chains[c] = n;
         n = next;
      }
   }
   VG_(free)(old);
}

void VG_(HT_add_node)(VgHashTable* t, void* node)
{
   VgHashNode* n = node;
   UWord c = chain_of(t, n->key);
   n->next = t->chains[c];
   t->chains[c] = n;
   if (++t->n_nodes > 2 * t->n_chains)
      grow_table(t);
}

void* VG_(HT_lookup)(const VgHashTable* t, UWord key)
{
   VgHashNode* n;
   for (n = t->chains[chain_of(t, key)]; n != NULL; n = n->next)
      if (n->key == key)
         return n;
   return NULL;
}

void* VG_(HT_gen_lookup)(const VgHashTable* t, const void* node, HT_Cmp_t cmp)
{
   UWord key = ((const VgHashNode*)node)->key;
   VgHashNode* n;
   for (n = t->chains[chain_of(t, key)]; n != NULL; n = n->next)
      if (n->key == key && cmp(node, n) == 0)
         return n;
   return NULL;
}

void* VG_(HT_remove)(VgHashTable* t, UWord key)
{
   VgHashNode** p;
   for (p = &t->chains[chain_of(t, key)]; *p != NULL; p = &(*p)->next)
      if ((*p)->key == key) {
         VgHashNode* n = *p;
         *p = n->next;
         t->n_nodes--;
         return n;
      }
   return NULL;
}

void VG_(HT_ResetIter)(VgHashTable* t)
{
   t->iter_chain = 0;
   t->iter_node  = NULL;
}

void* VG_(HT_Next)(VgHashTable* t)
{
   VgHashNode* n = t->iter_node;
   while (n == NULL && t->iter_chain < t->n_chains)
      n = t->chains[t->iter_chain++];
   if (n != NULL)
      t->iter_node = n->next;
   return n;
}

void VG_(HT_destruct)(VgHashTable* t, void (*freenode_fn)(void*))
{
   UWord i;
   for (i = 0; i < t->n_chains; i++) {
      VgHashNode* n = t->chains[i];
      while (n != NULL) {
         VgHashNode* next = n->next;
         freenode_fn(n);
         n = next;
      }
   }
   VG_(free)(t->chains);
   VG_(free)(t);
}

/* The growable array. */
struct _XArray {
   UChar* elems;
   Word   n, cap, elem_szB;
};

XArray* VG_(newXA)(void* (*alloc_fn)(const HChar*, SizeT), const HChar* cc,
                   void (*free_fn)(void*), Word elem_szB)
{
   XArray* xa = alloc_fn(cc, sizeof(XArray));
   (void)free_fn;
   memset(xa, 0, sizeof(XArray));
   xa->elem_szB = elem_szB;
   return xa;
}

Word VG_(addToXA)(XArray* xa, const void* elem)
{
   if (xa->n == xa->cap) {
      xa->cap   = xa->cap == 0 ? 16 : 2 * xa->cap;
      xa->elems = VG_(realloc)("st.xa", xa->elems, xa->cap * xa->elem_szB);
   }
   memcpy(xa->elems + xa->n * xa->elem_szB, elem, xa->elem_szB);
   return xa->n++;
}

void* VG_(indexXA)(const XArray* xa, Word n)
{
   tl_assert(n >= 0 && n < xa->n);
   return xa->elems + n * xa->elem_szB;
}

Word VG_(sizeXA)(const XArray* xa)
{
   return xa->n;
}

/* The pool: blocks of 'per_block' elements, freed elements on a list. */
struct _PoolAlloc {
   UWord  elem_szB, per_block, used;   // 'used' of the newest block
   UChar* block;
   void*  free_list;
};

PoolAlloc* VG_(newPA)(UWord elem_szB, UWord n_elems_per_pool,
                      void* (*alloc_fn)(const HChar*, SizeT), const HChar* cc,
                      void (*free_fn)(void*))
{
   PoolAlloc* pa = alloc_fn(cc, sizeof(PoolAlloc));
   (void)free_fn;
   memset(pa, 0, sizeof(PoolAlloc));
   pa->elem_szB  = elem_szB < sizeof(void*) ? sizeof(void*) : elem_szB;
   pa->per_block = n_elems_per_pool;
   pa->used      = n_elems_per_pool;
   return pa;
}

void* VG_(allocEltPA)(PoolAlloc* pa)
{
   void* p = pa->free_list;
   if (p != NULL) {
      pa->free_list = *(void**)p;
      return p;
   }
   if (pa->used == pa->per_block) {
      pa->block = VG_(malloc)("st.pa", pa->elem_szB * pa->per_block);
      pa->used  = 0;
   }
   return pa->block + pa->elem_szB * pa->used++;
}

void VG_(freeEltPA)(PoolAlloc* pa, void* p)
{
   *(void**)p    = pa->free_list;
   pa->free_list = p;
}

/*------------------------------------------------------------*/
/*--- output                                               ---*/
/*------------------------------------------------------------*/

static SysRes result(long r)
{
   SysRes s;
   s.isError = r < 0;
   s.val     = r < 0 ? (UWord)errno : (UWord)r;
   return s;
}

SysRes VG_(open)(const HChar* path, Int flags, Int mode)
{
   return result(open(path, flags, mode));
}

Int VG_(write)(Int fd, const void* buf, Int count)
{
   ssize_t r = write(fd, buf, count);
   return r < 0 ? -errno : (Int)r;
}

Long VG_(lseek)(Int fd, Long offset, Int whence)
{
   return lseek(fd, offset, whence);
}

void VG_(close)(Int fd)
{
   close(fd);
}

/* Above the descriptors a program uses (as Valgrind's own files are),
   closed at exec. */
#define SAFE_FD_MIN 1000

Int VG_(safe_fd)(Int oldfd)
{
   Int fd = fcntl(oldfd, F_DUPFD_CLOEXEC, SAFE_FD_MIN);
   if (fd < 0)
      return oldfd;
   close(oldfd);
   return fd;
}

Int VG_(fcntl)(Int fd, Int cmd, Addr arg)
{
   return fcntl(fd, cmd, arg);
}

Int VG_(getrlimit)(Int resource, struct vki_rlimit* rlim)
{
   return getrlimit(resource, rlim);
}

Int VG_(setrlimit)(Int resource, const struct vki_rlimit* rlim)
{
   return setrlimit(resource, rlim);
}

SysRes VG_(do_syscall)(UWord sysno, RegWord a1, RegWord a2, RegWord a3,
                       RegWord a4, RegWord a5, RegWord a6, RegWord a7,
                       RegWord a8)
{
   (void)a7; (void)a8;
   return result(syscall(sysno, a1, a2, a3, a4, a5, a6));
}

UInt VG_(snprintf)(HChar* buf, Int size, const HChar* format, ...)
{
   va_list ap;
   Int     n;
   va_start(ap, format);
   n = vsnprintf(buf, size, format, ap);
   va_end(ap);
   return n < 0 ? 0 : (UInt)n;
}

UInt VG_(umsg)(const HChar* format, ...)
{
   va_list ap;
   va_start(ap, format);
   message(format, ap);
   va_end(ap);
   return 0;
}

/*------------------------------------------------------------*/
/*--- time                                                 ---*/
/*------------------------------------------------------------*/

/* Milliseconds since the first call, as Valgrind's timer counts from
   its start. */
UInt VG_(read_millisecond_timer)(void)
{
   static struct timespec t0;
   struct timespec now;
   clock_gettime(CLOCK_MONOTONIC, &now);
   if (t0.tv_sec == 0 && t0.tv_nsec == 0)
      t0 = now;
   return (UInt)((now.tv_sec - t0.tv_sec) * 1000
                 + (now.tv_nsec - t0.tv_nsec) / 1000000);
}

/*------------------------------------------------------------*/
/*--- Waiting                                              ---*/
/*------------------------------------------------------------*/

void st_port_wait_while(Int* word, Int value)
{
   while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == value)
      syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

Bool st_port_wait_while_for(Int* word, Int value, UInt ms)
{
   struct timespec wait = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
   if (__atomic_load_n(word, __ATOMIC_ACQUIRE) == value)
      syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, &wait, NULL, 0);
   return __atomic_load_n(word, __ATOMIC_ACQUIRE) == value;
}

void st_port_wake_all(Int* word)
{
   syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}

/*--------------------------------------------------------------------*/
/*--- end                                            st_port_libc.c ---*/
/*--------------------------------------------------------------------*/
