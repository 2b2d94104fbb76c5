/*--------------------------------------------------------------------*/
/*--- strata: from an allocating thread to its site.   st_unwind.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef ST_UNWIND_H
#define ST_UNWIND_H

#include "pub_tool_basics.h"
#include "pub_tool_threadstate.h"
#include "st_core.h"   // same_words, copy_words

/* The unwinder (st_unwind.c says how it works): the site of an allocation
   made now by a thread, found through the stack cache, the unwind cache,
   or a full unwind.  What the frames of a stack make, the site, is the
   tool's rule (st_main.c), given to new_Unwinder; the unwinder only
   remembers which frames made which site, and checks that they are still
   there.  The tool has two unwinders: one for the sites of allocations,
   one for the stacks of frees (its "sites" are free stacks, which the
   unwinder keeps as opaque pointers as it keeps sites). */

#define MAX_DEPTH  200    // the largest --depth

/* What the rules make of a stack (a Site of the tool, or a FreeStack):
   opaque to the unwinder, which keeps pointers to them only. */
typedef struct _Unwound Unwound;

typedef struct {
   UInt  depth;           // --depth
   Bool  check;           // --check-unwind-cache=yes: unwind at every hit
                          // too, and count the hits that differ
   Unwound* no_stack;     // the site of a stack with no frame
   Unwound* need_deeper;  // what site_of_stack says when too few frames
                          // were unwound to tell
   UInt  scache_ways;     // ways per set of the stack cache, 2 or 4: more
                          // for stacks that call from several places of
                          // one frame (inlined code), fewer compares for
                          // the rest
   /* The site that the raw stack ips[0 .. n_ips-1] (allocator frames
      included) makes, NULL if the allocation is ignored, need_deeper if
      'truncated' (the unwind stopped at its limit) and that is not enough
      to tell; '*end' is the deepest frame that decided it (the first frame
      cut, or the frame --ignore-fn looked at). */
   Unwound* (*site_of_stack)(const Addr* ips, UInt n_ips, Bool truncated,
                          UInt* end);
   /* Whether the code address has a function name and is not below main
      (a frame of the program, not one of the words that the unwinder
      reads below the start of a thread). */
   Bool  (*named_frame)(Addr ip);
} UnwindRules;

typedef struct _Unwinder Unwinder;

/* A new unwinder with its caches.  The rules are copied. */
Unwinder* new_Unwinder(const UnwindRules* rules);

/* The site of an allocation made now by thread 'tid' (what the rules make
   of its stack); NULL if it is ignored. */
Unwound* get_Unwound(Unwinder* u, ThreadId tid);

/* For --stats=yes. */
typedef struct {
   ULong unwound;            // stacks unwound (in part or in full)
   ULong ucache_hits;        // unwind cache
   ULong ucache_misses;
   ULong top_hits;           // sites known from the unwind cache's tops
   ULong scache_hits;        // stack cache
   ULong wrong;              // --check-unwind-cache=yes: hits that differ
} UnwindStats;

const UnwindStats* stats_Unwind(const Unwinder* u);

/* For the sanity check (--sanity-level=2 and more): tl_asserts that the
   caches' entries are well formed. */
void check_Unwind(const Unwinder* u);

#endif /* ST_UNWIND_H */
