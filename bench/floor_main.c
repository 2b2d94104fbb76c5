/* The floor: a Valgrind tool that replaces malloc and does nothing else.
   No profiler built on Valgrind's malloc replacement can cost less; the
   benchmarks compare strata with it.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_tooliface.h"

static void* fl_malloc(ThreadId tid, SizeT n)
{
   return VG_(cli_malloc)(VG_(clo_alignment), n);
}

static void* fl_malloc_aligned(ThreadId tid, SizeT n, SizeT align)
{
   return VG_(cli_malloc)(align, n);
}

static void* fl_memalign(ThreadId tid, SizeT align, SizeT n)
{
   return VG_(cli_malloc)(align, n);
}

static void* fl_calloc(ThreadId tid, SizeT m, SizeT size)
{
   void* p;
   if (size != 0 && m > ((SizeT)-1) / size)
      return NULL;
   p = VG_(cli_malloc)(VG_(clo_alignment), m * size);
   if (p)
      VG_(memset)(p, 0, m * size);
   return p;
}

static void fl_free(ThreadId tid, void* p)
{
   if (p)
      VG_(cli_free)(p);
}

static void fl_free_aligned(ThreadId tid, void* p, SizeT align)
{
   fl_free(tid, p);
}

static void* fl_realloc(ThreadId tid, void* p, SizeT n)
{
   void* q;
   SizeT old;
   if (p == NULL)
      return fl_malloc(tid, n);
   old = VG_(cli_malloc_usable_size)(p);
   q = VG_(cli_malloc)(VG_(clo_alignment), n);
   if (q == NULL)
      return NULL;
   VG_(memcpy)(q, p, old < n ? old : n);
   VG_(cli_free)(p);
   return q;
}

static SizeT fl_usable_size(ThreadId tid, void* p)
{
   return VG_(cli_malloc_usable_size)(p);
}

static void fl_post_clo_init(void) {}

static IRSB* fl_instrument(VgCallbackClosure* closure, IRSB* sb,
                           const VexGuestLayout* layout,
                           const VexGuestExtents* vge,
                           const VexArchInfo* archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   return sb;
}

static void fl_fini(Int exitcode) {}

static void fl_pre_clo_init(void)
{
   VG_(details_name)("floor");
   VG_(details_version)(NULL);
   VG_(details_description)("malloc replacement and nothing else");
   VG_(details_copyright_author)("the strata developers");
   VG_(details_bug_reports_to)("the strata issue tracker");
   VG_(basic_tool_funcs)(fl_post_clo_init, fl_instrument, fl_fini);
   VG_(needs_malloc_replacement)(fl_malloc, fl_malloc, fl_malloc_aligned,
                                 fl_malloc, fl_malloc_aligned, fl_memalign,
                                 fl_calloc, fl_free, fl_free, fl_free_aligned,
                                 fl_free, fl_free_aligned, fl_realloc,
                                 fl_usable_size, 0);
}

VG_DETERMINE_INTERFACE_VERSION(fl_pre_clo_init)
