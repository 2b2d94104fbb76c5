/* strata.h: client requests for programs profiled by strata.
 *
 *   #include <strata.h>
 *
 *   STRATA_MARK("video opened");   puts a labelled marker on the time line
 *   STRATA_SNAPSHOT();             takes a snapshot now
 *
 * Both do nothing when the program is not recorded by strata.  Under
 * Valgrind (`strata record`) they are client requests, a few no-op
 * instructions natively.  With `strata record --native` they call
 * strata_native_request, which the program does not link against: it is a
 * weak symbol, null unless strata's preloaded library defines it (so the
 * program links nothing new; in an executable built without -fPIE, whose
 * weak symbols the linker resolves to null for good, the requests do
 * nothing natively).  The label is copied when the request is made, its
 * first 255 bytes; it is data, never interpreted.  A label the program
 * cannot read makes no marker (the first such request is reported).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef STRATA_H
#define STRATA_H

#include <valgrind/valgrind.h>

typedef enum {
   VG_USERREQ__STRATA_MARK = VG_USERREQ_TOOL_BASE('S', 'T'),
   VG_USERREQ__STRATA_SNAPSHOT
} Vg_StrataClientRequest;

#ifdef __cplusplus
extern "C"
#endif
void strata_native_request(unsigned long request, const char* label)
   __attribute__((weak));

/* The native recorder's hook, when it is loaded (never under Valgrind,
   whose client request comes first). */
#define STRATA_NATIVE_REQUEST_(request, label)                            \
   do {                                                                   \
      if (strata_native_request)                                          \
         strata_native_request((unsigned long)(request), (label));        \
   } while (0)

#define STRATA_MARK(label)                                                \
   do {                                                                   \
      VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__STRATA_MARK, (label), 0, \
                                      0, 0, 0);                           \
      STRATA_NATIVE_REQUEST_(VG_USERREQ__STRATA_MARK, (label));           \
   } while (0)

#define STRATA_SNAPSHOT()                                                 \
   do {                                                                   \
      VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__STRATA_SNAPSHOT, 0, 0, 0, \
                                      0, 0);                              \
      STRATA_NATIVE_REQUEST_(VG_USERREQ__STRATA_SNAPSHOT, 0);             \
   } while (0)

#endif /* STRATA_H */
