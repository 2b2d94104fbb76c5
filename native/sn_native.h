/*--------------------------------------------------------------------*/
/*--- strata native: the preload library's own header.  sn_native.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The native recorder is the recorder's core (massif/st_core.h) in a
   library preloaded into the program (LD_PRELOAD): sn_main.c (the malloc
   wrappers, the lock, options, the process: start, fork, exec, exit),
   sn_stack.c (stacks: libunwind, which frames make a site, the modules and
   the frames written), sn_arena.c (its own memory). */

#ifndef SN_NATIVE_H
#define SN_NATIVE_H

#include "st_core.h"

/* Settings of the stacks (sn_main.c reads them from the options). */
extern UInt clo_depth;        // --depth
extern UInt clo_free_depth;   // --free-depth
typedef enum { UnwindLibunwind, UnwindFP } Unwinder;
extern Unwinder clo_unwind;   // --unwind

/* The arena (sn_arena.c). */
void* arena_malloc(SizeT n);
void* arena_realloc(void* p, SizeT n);
void  arena_free(void* p);
ULong arena_mapped_szB(void);
void  arena_atfork_prepare(void);
void  arena_atfork_parent(void);
void  arena_atfork_child(void);

/* A raw stack: return addresses as unwound, innermost first, with the
   bounds of the frames that make a site and a free stack. */
#define MAX_RAW_FRAMES  (200 + 32)
typedef struct {
   Addr ips[MAX_RAW_FRAMES];   // code addresses (a return address less 1)
   UInt n;
   UInt site_first, site_end;  // ips[site_first .. site_end) make the site
   UInt free_first, free_end;  // and the free stack
   Bool   ignored;             // made directly by an --ignore-fn function
   Site*  site;                // its site, if the stack cache knew it
   Site** site_slot;           // where the stack cache keeps it, or NULL
   UInt   depth;               // as unwound (unwind_RawStack's)
   UInt   id;                  // its interned stack, if the stack cache knew it
   UInt*  id_slot;             // where the stack cache keeps it, or NULL
} RawStack;

/* A stack interned for the recorder thread (id_of_RawStack): its frames and
   bounds, never freed, and its site once the recorder thread found it. */
typedef struct {
   UWord  hash;
   UInt   n, depth;
   UShort site_first, site_end, free_first, free_end;
   Bool   ignored;
   Site*  site;                // under the core's lock
   struct _FreeStack* free_stack;   // its free stack, found once (the same)
   Addr   ips[0];
} StackRec;

/* The id of the stack 'st' (1 on), interned once for all threads (its own
   lock, taken when the thread's stack cache does not know it yet); 0 if
   there is no memory for it.  stack_of_id gives it back (any thread). */
UInt id_of_RawStack(RawStack* st);
StackRec* stack_of_id(UInt id);
/* For each stack interned (the recorder thread, under the core's lock). */
void for_each_StackRec(void (*fn)(StackRec* r));
/* Around a fork: the interning's lock taken, given back, made anew. */
void stacks_atfork_prepare(void);
void stacks_atfork_parent(void);
void stacks_atfork_child(void);

/* --alloc-fn (ignore False) and --ignore-fn (True): a pattern, kept (the
   options' buffer lives as long as the process); False if there are too
   many.  The patterns given, for the profile's header. */
Bool add_fn_pattern(const HChar* pattern, Bool ignore);
UInt n_fn_patterns(void);
const HChar* fn_pattern(UInt i, Bool* ignore);

/* Unwinds the caller's stack (outside the lock; libunwind, or the frame
   pointers with --unwind=fp), to 'depth' frames past the recorder's own
   and the allocator's, and finds the bounds. */
void unwind_RawStack(RawStack* st, UInt depth);

/* The same, from the return addresses 'ras' (n of them) that UNWIND_HERE
   took, or, with n < 0, unwinding here (--unwind=fp). */
void unwind_RawStack_from(RawStack* st, UInt depth, void* const* ras, Int n);
UInt unwind_want(UInt depth);   // the frames to unwind for 'depth'
int  unw_backtrace(void** buffer, int size);   // libunwind's

/* unwind_RawStack, the walk begun in the function where this is written
   (a macro: in a malloc wrapper, whose callees that would do it are
   inlined into it, it starts at the wrapper, not at the recorder's
   functions below it: three frames fewer to walk at each call). */
#define UNWIND_HERE(st, depth)                                                \
   do {                                                                     \
      void* ras_[MAX_RAW_FRAMES];                                           \
      UInt  depth_ = (depth);                                               \
      Int   n_     = clo_unwind == UnwindFP                                 \
                        ? -1 : unw_backtrace(ras_, (Int)unwind_want(depth_)); \
      unwind_RawStack_from((st), depth_, ras_, n_);                         \
   } while (0)

/* The stacks, made once before any unwind; 'main_fn' is the program's
   main, NULL if unknown.  The modules are listed again after a dlopen or a
   dlclose (refresh_Modules, outside the lock). */
void init_stacks(void);
void set_main_fn(Addr main_fn);
void refresh_Modules(void);
/* After a dlclose (outside the lock): the modules unloaded are forgotten. */
void forget_closed_Modules(void);
/* Whether a site's frames all lie in known modules (under the lock);
   False asks for refresh_Modules after the lock is released. */
Bool in_known_Modules(const Addr* ips, UInt n_ips);
/* A forked child writes its frames anew. */
void forget_written_Frames(void);

#endif /* SN_NATIVE_H */
