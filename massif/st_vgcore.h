/*--------------------------------------------------------------------*/
/*--- strata: what the tool uses of Valgrind's core beyond the     ---*/
/*--- tool API.                                        st_vgcore.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Every symbol of Valgrind's core that the tool uses and the tool API
   (the pub_tool_*.h headers) does not declare, once, with Valgrind 3.19's
   signatures.  The core this tool links with (libcoregrind) defines them;
   a Valgrind whose signatures differ is caught by configure's version
   check, not here. */

#ifndef ST_VGCORE_H
#define ST_VGCORE_H

#include "pub_tool_basics.h"

/* Options of the core: --trace-children, --sanity-level, and whether
   inlined calls are read from the debug information (the tool sets it). */
extern Bool  VG_(clo_trace_children);
extern Int   VG_(clo_sanity_level);
extern Bool  VG_(clo_read_inline_info);

/* Whether the core would trace the program an execve starts (Exec). */
extern Bool  VG_(should_we_trace_this_child)(const HChar* child_exe_name,
                                             const HChar** child_argv);

/* The client's auxiliary vector (The client's environment). */
extern UWord* VG_(client_auxv);

/* errno's words. */
extern const HChar* VG_(strerror)(UWord errnum);

/* Files: VG_(safe_fd) moves a descriptor to the range the client cannot
   use and sets its close-on-exec flag (it exits if it cannot);
   VG_(do_syscall) makes the calls the API has no wrapper for (ftruncate,
   fallocate). */
extern Int    VG_(fcntl)(Int fd, Int cmd, Addr arg);
extern Int    VG_(safe_fd)(Int oldfd);
extern SysRes VG_(do_syscall)(UWord sysno, RegWord, RegWord, RegWord,
                              RegWord, RegWord, RegWord, RegWord, RegWord);

#endif /* ST_VGCORE_H */

/*--------------------------------------------------------------------*/
/*--- end                                               st_vgcore.h ---*/
/*--------------------------------------------------------------------*/
