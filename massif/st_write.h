/*--------------------------------------------------------------------*/
/*--- strata: writing the profile.                      st_write.h ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef ST_WRITE_H
#define ST_WRITE_H

#include "st_port.h"

/* The profile file, written through a buffer (st_write.c says what the
   writer guarantees).  Records are put field by field; flush_Writer writes
   what is buffered, after each complete snapshot.  When writing fails,
   output stops for good: the file ends with a Q record saying why, if it
   can take one, the reason is printed, and what is put later is dropped. */

/* Opens (creates, truncates) the file 'name'; 0, or the errno if it
   cannot.  'now' gives the time for a Q record. */
UWord open_Writer(const HChar* name, ULong (*now)(void));

/* Whether the file is open and output has not stopped. */
Bool is_open_Writer(void);

void put_char(HChar c);
void put_str(const HChar* s);
void put_text(const HChar* s);    // escapes \ TAB newline CR (docs/format.md)
void put_u64(ULong n);
void put_hex(Addr a);
void put_tab(void);
void put_nl(void);
void put_field_u64(ULong n);      // TAB, then n
void put_field_text(const HChar* s);

/* Writes what is buffered (natively, with the writer thread: once half a
   buffer is, st_write.c). */
void flush_Writer(void);
/* Writes what is buffered, however little (a user's snapshot, which the
   program may look for in the file). */
void flush_now_Writer(void);

/* The bytes in the file, all flushed. */
ULong size_Writer(void);
#if defined(ST_PORT_LIBC)
/* The writer thread (st_write.c): run_Writer is the loop of a thread the
   caller started, which, after start_async_Writer, writes what is flushed
   (one buffer in flight; a flush waits for the one before to be written),
   and calls 'idle' when nothing came for a while.
   In a forked child, where that thread is not, forget_async_Writer makes
   the writes the caller's again (what was in flight is the parent's). */
void run_Writer(void (*idle)(void));
void start_async_Writer(void);
void forget_async_Writer(void);
/* Under the core's lock, from run_Writer's 'idle': what is buffered handed
   over, when nothing is in flight (it waits for nothing). */
void flush_idle_Writer(void);
#endif

/* The bytes put so far: the file's size and what the buffer holds. */
ULong written_Writer(void);

/* Cuts the file back to 'size' bytes (a size_Writer() of before). */
void cut_Writer(ULong size);

/* Flushes, and gives back the disk space kept for a Q record; the file
   stays open. */
void finish_Writer(void);

/* finish_Writer, then closes the file. */
void close_Writer(void);

/* In a forked child: closes the file without writing what is buffered
   (the parent writes it). */
void drop_Writer(void);

/* To call after the client may have changed RLIMIT_FSIZE. */
void check_limit_Writer(void);

/* The ledger (st_write.c): notes for strata record.  open_Ledger takes
   the descriptor of --record-fd (-1: none) and moves it out of the
   client's reach; note_Ledger appends a note of up to three fields after
   its kind (NULL ends them early); fd_Ledger is its descriptor, or -1. */
void open_Ledger(Int given);
Int  fd_Ledger(void);
void note_Ledger(const HChar* kind, const HChar* a, const HChar* b,
                 const HChar* c);

/* For --stats=yes. */
ULong bytes_written_Writer(void);
ULong writes_Writer(void);

#endif /* ST_WRITE_H */
