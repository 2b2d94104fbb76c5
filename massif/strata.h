/* strata.h: client requests for programs profiled by strata.
 *
 *   #include <strata.h>
 *
 *   STRATA_MARK("video opened");   puts a labelled marker on the time line
 *   STRATA_SNAPSHOT();             takes a snapshot now
 *
 * Both compile to a few no-op instructions and do nothing when the program
 * does not run under `strata record` (valgrind --tool=strata).  The label is
 * copied when the request is made, its first 255 bytes; it is data, never
 * interpreted.  A label the program cannot read makes no marker (the first
 * such request is reported).
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

#define STRATA_MARK(label)                                                \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__STRATA_MARK, (label), 0, 0, \
                                   0, 0)

#define STRATA_SNAPSHOT()                                                    \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__STRATA_SNAPSHOT, 0, 0, 0, 0, 0)

#endif /* STRATA_H */
