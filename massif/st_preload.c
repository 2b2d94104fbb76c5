/*--------------------------------------------------------------------*/
/*--- strata: replacements of its own in the preload library.      ---*/
/*---                                                st_preload.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The preload library (vgpreload_strata-PLATFORM.so) is Valgrind's
   libreplacemalloc_toolpreload, whose replacements of malloc and friends
   hand each call to the tool (st_main.c, Malloc wrappers), and this file.
   It runs in the client, on the simulated CPU, and calls nothing of the C
   library but what Valgrind's replacements call.

   pvalloc: Valgrind's library replaces glibc's with one that aborts the
   program ("Program aborting because of call to pvalloc", equivalence
   tag 10190: class 1019, priority 0).  The replacement below has the same
   class and priority 1, so Valgrind's redirector prefers it
   (pub_tool_redir.h, "prioritised behavioural equivalence tags"), and
   serves pvalloc as glibc 2.36 does: memalign(page size, n rounded up to
   a multiple of the page size), 0 staying 0 (glibc's pvalloc(0) is a
   page-aligned block of malloc(0)'s size), NULL and ENOMEM if the
   rounding overflows.  It calls the library's own memalign replacement,
   as Valgrind's valloc does, so the block is the tool's, counted at the
   caller of pvalloc: this library's frames are allocator frames. */

#include "pub_tool_basics.h"
#include "pub_tool_redir.h"
#include "pub_tool_vki.h"           // VKI_ENOMEM

extern int  getpagesize(void);
extern int* __errno_location(void) __attribute__((weak));

/* libreplacemalloc_toolpreload's memalign (vg_replace_malloc.c). */
void* VG_REPLACE_FUNCTION_EZU(10110, VG_Z_LIBC_SONAME, memalign)
         (SizeT alignment, SizeT n);

void* VG_REPLACE_FUNCTION_EZU(10191, VG_Z_LIBC_SONAME, pvalloc)(SizeT n);
void* VG_REPLACE_FUNCTION_EZU(10191, VG_Z_LIBC_SONAME, pvalloc)(SizeT n)
{
   SizeT page = (SizeT)getpagesize();
   if (n > (SizeT)-1 - (page - 1)) {
      if (__errno_location)
         *__errno_location() = VKI_ENOMEM;
      return NULL;
   }
   return VG_REPLACE_FUNCTION_EZU(10110, VG_Z_LIBC_SONAME, memalign)
             (page, (n + page - 1) & ~(page - 1));
}

/*--------------------------------------------------------------------*/
/*--- end                                              st_preload.c ---*/
/*--------------------------------------------------------------------*/
