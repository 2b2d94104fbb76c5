/*--------------------------------------------------------------------*/
/*--- strata: the tool's internal header, shared by its files.     ---*/
/*---                                                st_include.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The tool's files: st_main.c (the glue: options, the malloc wrappers,
   frames and sites, client requests, instrumentation, sanity checks,
   start and end), st_process.c (the profile's name, fork, exec, the
   ledger, the client's environment), and the recorder's core, which does
   not see Valgrind but through st_port.h (st_core.h: st_heap.c,
   st_lifetimes.c, st_write.c).  st_alloc.c is the client's allocator,
   st_unwind.c the unwinder. */

#ifndef ST_INCLUDE_H
#define ST_INCLUDE_H

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
#include "st_vgcore.h"
#include "st_core.h"
#include "st_alloc.h"
#include "st_unwind.h"
#include "st_write.h"

/*------------------------------------------------------------*/
/*--- Blocks, code addresses and frames (st_main.c)        ---*/
/*------------------------------------------------------------*/

/* A live heap block of the table: a custom allocator's (MALLOCLIKE_BLOCK)
   or pages (--pages-as-heap).  The first two fields are those of
   VgHashNode.  (The malloc family's blocks carry this in their Chunk,
   st_alloc.h.) */
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

extern VgHashTable* blocks;       /* Addr -> Block* (live blocks) */
extern VgHashTable* frame_runs;   /* Addr -> FrameRun* (written) */
extern UInt         next_frame_id;

/* Options of the tool's own that st_process.c reads (st_main.c, Options). */
extern const HChar* clo_out_file;
extern UInt         clo_after_exec;
extern Int          clo_record_fd;

/* The profile's header (st_main.c) and its end: 'provisional' for the end
   written before an execve, which the execve may take back (Exec). */
void write_header(void);
void end_profile(Bool provisional);

/*------------------------------------------------------------*/
/*--- The process (st_process.c)                           ---*/
/*------------------------------------------------------------*/

/* Opens the profile file, named by --out-file (and .execN after an exec),
   and writes its header. */
void open_Output(void);
/* Takes VALGRIND_LIB out of the client's environment. */
void hide_valgrind_lib(void);
/* Callbacks registered with the core (VG_(atfork), VG_(needs_syscall_wrapper)). */
void st_atfork_parent(ThreadId tid);
void st_atfork_child(ThreadId tid);
void st_pre_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs);
void st_post_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs,
                     SysRes res);

#endif /* ST_INCLUDE_H */

/*--------------------------------------------------------------------*/
/*--- end                                              st_include.h ---*/
/*--------------------------------------------------------------------*/
