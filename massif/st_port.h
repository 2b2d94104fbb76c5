/*--------------------------------------------------------------------*/
/*--- strata: what the recorder's core takes from its host.        ---*/
/*---                                                   st_port.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The recorder's core (st_core.h: sites and their snapshot clock, the
   peak, allocation counts, the lifetimes' epochs; st_write.h: the profile
   writer) depends on its host only through this header.  It takes from it:

     types     Valgrind's basic types (Bool, UInt, ULong, SizeT, Addr, ...)
     memory    VG_(malloc), VG_(calloc), VG_(realloc), VG_(free),
               VG_(memcpy), VG_(memmove), VG_(memset), VG_(strlen),
               VG_(strncpy), VG_(string_match) (Valgrind's wildcards), and
               three containers: VgHashTable (nodes whose first two fields
               are 'next' and a key word), XArray (a growable array) and
               PoolAlloc (fixed-size elements)
     output    VG_(open), VG_(write), VG_(lseek), VG_(close),
               VG_(safe_fd), VG_(fcntl), VG_(getrlimit), VG_(setrlimit),
               VG_(do_syscall) (ftruncate, fallocate), VG_(snprintf),
               VG_(umsg)
     time      VG_(read_millisecond_timer)
     assert    tl_assert, tl_assert2

   Inside Valgrind (the tool, st_main.c) these are the core's own.  Built
   with ST_PORT_LIBC, they are the C library's, through st_port_libc.c, so
   that a recorder linked with the C library can use the same core
   (tests/unit/core_replay.c does). */

#ifndef ST_PORT_H
#define ST_PORT_H

#ifndef ST_PORT_LIBC

#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"
#include "st_vgcore.h"

#else /* ST_PORT_LIBC */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef unsigned char      UChar;
typedef char               HChar;
typedef unsigned short     UShort;
typedef unsigned int       UInt;
typedef int                Int;
typedef unsigned long long ULong;
typedef long long          Long;
typedef unsigned long      UWord;
typedef long               Word;
typedef unsigned long      Addr;
typedef unsigned long      SizeT;
typedef unsigned long      RegWord;
typedef double             Double;
typedef unsigned char      Bool;
typedef UInt               ThreadId;
#define True  ((Bool)1)
#define False ((Bool)0)
#define VG_INVALID_THREADID ((ThreadId)0)
#define LIKELY(x)   __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* The host's calls, under names of their own (st_port_libc.c). */
#define VG_(name) st_port_##name

/* assert */
__attribute__((noreturn))
void VG_(assert_fail)(const HChar* expr, const HChar* file, Int line,
                      const HChar* fmt, ...);
#define tl_assert(expr) \
   ((expr) ? (void)0 : VG_(assert_fail)(#expr, __FILE__, __LINE__, NULL))
#define tl_assert2(expr, ...) \
   ((expr) ? (void)0 : VG_(assert_fail)(#expr, __FILE__, __LINE__, __VA_ARGS__))

/* memory */
void*  VG_(malloc)(const HChar* cc, SizeT n);
void*  VG_(calloc)(const HChar* cc, SizeT n, SizeT size);
void*  VG_(realloc)(const HChar* cc, void* p, SizeT n);
void   VG_(free)(void* p);
void*  VG_(memcpy)(void* d, const void* s, SizeT n);
void*  VG_(memmove)(void* d, const void* s, SizeT n);
void*  VG_(memset)(void* d, Int c, SizeT n);
SizeT  VG_(strlen)(const HChar* s);
HChar* VG_(strncpy)(HChar* d, const HChar* s, SizeT n);
Bool   VG_(string_match)(const HChar* pattern, const HChar* s);

typedef struct _VgHashNode {
   struct _VgHashNode* next;
   UWord key;
} VgHashNode;
typedef struct _VgHashTable VgHashTable;
typedef Word (*HT_Cmp_t)(const void* node1, const void* node2);
VgHashTable* VG_(HT_construct)(const HChar* name);
Int   VG_(HT_count_nodes)(const VgHashTable* table);
void  VG_(HT_add_node)(VgHashTable* t, void* node);
void* VG_(HT_lookup)(const VgHashTable* table, UWord key);
void* VG_(HT_gen_lookup)(const VgHashTable* table, const void* node,
                         HT_Cmp_t cmp);
void* VG_(HT_remove)(VgHashTable* table, UWord key);
void  VG_(HT_ResetIter)(VgHashTable* table);
void* VG_(HT_Next)(VgHashTable* table);
void  VG_(HT_destruct)(VgHashTable* t, void (*freenode_fn)(void*));

typedef struct _XArray XArray;
XArray* VG_(newXA)(void* (*alloc_fn)(const HChar*, SizeT),
                   const HChar* cc, void (*free_fn)(void*), Word elem_szB);
Word  VG_(addToXA)(XArray* xa, const void* elem);
void* VG_(indexXA)(const XArray* xa, Word n);
Word  VG_(sizeXA)(const XArray* xa);

typedef struct _PoolAlloc PoolAlloc;
PoolAlloc* VG_(newPA)(UWord elem_szB, UWord n_elems_per_pool,
                      void* (*alloc_fn)(const HChar*, SizeT),
                      const HChar* cc, void (*free_fn)(void*));
void* VG_(allocEltPA)(PoolAlloc* pa);
void  VG_(freeEltPA)(PoolAlloc* pa, void* p);

/* output */
typedef struct {
   Bool  isError;
   UWord val;    // the result, or the errno
} SysRes;
static inline Bool  sr_isError(SysRes r) { return r.isError; }
static inline UWord sr_Res(SysRes r)     { return r.isError ? 0 : r.val; }
static inline UWord sr_Err(SysRes r)     { return r.isError ? r.val : 0; }
#define vki_rlimit rlimit
SysRes VG_(open)(const HChar* path, Int flags, Int mode);
Int    VG_(write)(Int fd, const void* buf, Int count);
Long   VG_(lseek)(Int fd, Long offset, Int whence);
void   VG_(close)(Int fd);
Int    VG_(safe_fd)(Int oldfd);
Int    VG_(fcntl)(Int fd, Int cmd, Addr arg);
Int    VG_(getrlimit)(Int resource, struct vki_rlimit* rlim);
Int    VG_(setrlimit)(Int resource, const struct vki_rlimit* rlim);
SysRes VG_(do_syscall)(UWord sysno, RegWord, RegWord, RegWord, RegWord,
                       RegWord, RegWord, RegWord, RegWord);
UInt   VG_(snprintf)(HChar* buf, Int size, const HChar* format, ...)
   __attribute__((format(printf, 3, 4)));
UInt   VG_(umsg)(const HChar* format, ...)
   __attribute__((format(printf, 1, 2)));
#define VKI_ENOSPC         ENOSPC
#define VKI_EFBIG          EFBIG
#define VKI_EIO            EIO
#define VKI_F_GETFD        F_GETFD
#define VKI_O_WRONLY       O_WRONLY
#define VKI_O_CREAT        O_CREAT
#define VKI_O_TRUNC        O_TRUNC
#define VKI_S_IRUSR        S_IRUSR
#define VKI_S_IWUSR        S_IWUSR
#define VKI_S_IRGRP        S_IRGRP
#define VKI_S_IROTH        S_IROTH
#define VKI_SEEK_SET       SEEK_SET
#define VKI_PATH_MAX       PATH_MAX
#define VKI_RLIM_INFINITY  RLIM_INFINITY

/* time */
UInt VG_(read_millisecond_timer)(void);

/* A word two threads wait on (the writer thread's, st_write.c): returns
   once '*word' is not 'value' (a futex: a signal handler may wait too);
   wake_all wakes every waiter after '*word' changed. */
void st_port_wait_while(Int* word, Int value);
void st_port_wake_all(Int* word);
/* The same wait, for 'ms' milliseconds at most: whether '*word' is still
   'value'. */
Bool st_port_wait_while_for(Int* word, Int value, UInt ms);

#endif /* ST_PORT_LIBC */

#endif /* ST_PORT_H */
