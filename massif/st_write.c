/*--------------------------------------------------------------------*/
/*--- strata: writing the profile.                      st_write.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The profile is written as the program runs, through a buffer flushed
   after each complete snapshot and whenever it fills.  The file must
   neither disturb the program nor be disturbed by it, and when it cannot
   be written it must say why.  So:

   - Its descriptor sits above the client's range (VG_(safe_fd)), where
     Valgrind keeps its own files: the client can neither close it nor
     dup2 over it, and never gets it from open.

   - The client's file-size limit does not apply to it.  The kernel applies
     RLIMIT_FSIZE, a limit of the whole process, to every write to a
     regular file, and a write that starts at the limit gets SIGXFSZ, which
     kills a program that does not expect it.  Valgrind virtualises
     RLIMIT_NOFILE, RLIMIT_DATA and RLIMIT_STACK, not this one.  So while
     the client has a finite limit, the writer lifts it around each of its
     writes (to unlimited when the process may, with CAP_SYS_RESOURCE, else
     to the hard limit) and puts the client's back at once.  (A write that
     another thread of the client makes in those instants is not limited.)
     Beyond a hard limit it cannot lift, output stops before the limit is
     reached, with room left for the Q record that says why: the writer
     never gets a SIGXFSZ.

   - The file always ends at the end of a line: a flush of a full buffer
     writes up to its last newline and keeps the rest; a write cut short
     is cut back.  And before each write, the disk blocks for it and
     RESERVE_SZB more are allocated (fallocate, keeping the file's size;
     AHEAD_SZB further at a time, so that most writes need no call, and
     only what the write needs when the disk has no room for more): on a
     full disk the allocation fails rather than the write, and the
     reserve takes the Q record that says why the profile stops
     (docs/format.md).  Where fallocate is not supported (a pipe, a device,
     some file systems) the Q record is written if the disk takes it.

   - Output then stops for good, with a message on stderr; what the tool
     puts afterwards is dropped. */

#include "st_port.h"
#include "st_write.h"

#define BUF_SZB            (1 << 16)
#define RESERVE_SZB        4096      // allocated past the end, for a Q record
#define AHEAD_SZB          (1 << 18) // allocated past the reserve at a time
#define Q_MAX_SZB          256       // the longest Q record
#define ST_RLIMIT_FSIZE    1         // (not in Valgrind's vki headers)
#define ST_EDQUOT          122
#define FALLOC_KEEP_SIZE   0x01
#define FALLOC_PUNCH_HOLE  0x02

static Int   fd = -1;
static HChar buf[BUF_SZB];
static UInt  used = 0;              // bytes in buf
static ULong size = 0;              // bytes in the file
static ULong put_out = 0;           // bytes flushed out of buf (to the file,
                                    // or to the writer thread)
static Bool  at_line_end = True;    // the file ends with a newline
static Bool  reserving = False;     // fallocate works on the file
static ULong reserved = 0;          // the file's blocks are allocated up to here
static Bool  fsize_limited = False; // the client's RLIMIT_FSIZE is finite
static ULong (*time_now)(void) = NULL;   // for a Q record

static ULong stats_bytes = 0, stats_writes = 0;

/*------------------------------------------------------------*/
/*--- The client's file-size limit                         ---*/
/*------------------------------------------------------------*/

static void drain(void);

void check_limit_Writer(void)
{
   struct vki_rlimit rl;
   drain();   // the writer thread reads it
   fsize_limited = VG_(getrlimit)(ST_RLIMIT_FSIZE, &rl) == 0
                   && rl.rlim_cur != VKI_RLIM_INFINITY;
}

typedef struct {
   Bool lifted;
   struct vki_rlimit client;   // the client's limit, to put back
} Lift;

/* Lifts the client's limit as far as the process may; returns how large
   the file may grow now. */
static ULong lift_limit(Lift* lift)
{
   struct vki_rlimit up = { VKI_RLIM_INFINITY, VKI_RLIM_INFINITY };
   lift->lifted = False;
   if (!fsize_limited || VG_(getrlimit)(ST_RLIMIT_FSIZE, &lift->client) != 0)
      return VKI_RLIM_INFINITY;
   lift->lifted = True;
   if (VG_(setrlimit)(ST_RLIMIT_FSIZE, &up) == 0)
      return VKI_RLIM_INFINITY;
   up.rlim_cur = up.rlim_max = lift->client.rlim_max;
   if (VG_(setrlimit)(ST_RLIMIT_FSIZE, &up) == 0)
      return up.rlim_max;
   return lift->client.rlim_cur;
}

static void put_back_limit(const Lift* lift)
{
   if (lift->lifted)
      VG_(setrlimit)(ST_RLIMIT_FSIZE, &lift->client);
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

static const HChar* reason_of_errno(UWord err)
{
   static HChar other[64];
   switch (err) {
   case VKI_ENOSPC: return "the disk is full (ENOSPC)";
   case ST_EDQUOT:  return "the disk quota is used up (EDQUOT)";
   case VKI_EFBIG:  return "the file is as large as its file system allows "
                           "(EFBIG)";
   case VKI_EIO:    return "an input/output error (EIO)";
   default:
      VG_(snprintf)(other, sizeof(other), "a write error (errno %lu)", err);
      return other;
   }
}

static const HChar* reason_of_limit(ULong limit)
{
   static HChar reason[128];
   VG_(snprintf)(reason, sizeof(reason), "the file-size limit "
                 "(RLIMIT_FSIZE) of %llu bytes, which strata cannot lift",
                 limit);
   return reason;
}

static void cut_back(ULong to)
{
   VG_(do_syscall)(__NR_ftruncate, fd, to, 0, 0, 0, 0, 0, 0);
   VG_(lseek)(fd, to, VKI_SEEK_SET);
   size     = to;
   reserved = to;       // a truncation frees the blocks past the end
}

/* Allocates the blocks for 'n' more bytes and the reserve past them; the
   errno if the disk has no room for them, else 0.  The blocks are
   allocated AHEAD_SZB further at a time, a call for many writes; when
   the disk has no room for that, only for what this write needs. */
static UWord allocate(ULong length)
{
   SysRes r = VG_(do_syscall)(__NR_fallocate, fd, FALLOC_KEEP_SIZE, size,
                              length, 0, 0, 0, 0);
   if (!sr_isError(r)) {
      reserved = size + length;
      return 0;
   }
   return sr_Err(r);
}

static UWord reserve(UInt n)
{
   UWord err;
   if (!reserving || size + n + RESERVE_SZB <= reserved)
      return 0;
   err = allocate(n + RESERVE_SZB + AHEAD_SZB);
   if (err == VKI_ENOSPC || err == ST_EDQUOT)
      err = allocate(n + RESERVE_SZB);
   if (err == 0 || err == VKI_ENOSPC || err == ST_EDQUOT)
      return err;
   reserving = False;    // not here: EOPNOTSUPP, ENODEV, ESPIPE, ...
   return 0;
}

/* Writes 'n' bytes at the end of the file, all or none; NULL, or why
   not. */
static const HChar* write_bytes(const HChar* p, UInt n)
{
   UInt done = 0;
   while (done < n) {
      Int r = VG_(write)(fd, p + done, n - done);
      if (r <= 0) {
         if (done > 0)
            cut_back(size);
         return reason_of_errno(r < 0 ? (UWord)-r : VKI_ENOSPC);
      }
      done += r;
   }
   size += n;
   at_line_end = p[n - 1] == '\n';
   stats_bytes += n;
   stats_writes++;
   return NULL;
}

/* Sample of the end of a profile that stopped: the last lines of a real
   one, of tests/programs/edge_sizes written to a disk of 32 KiB (fields
   are separated by one TAB, shown here as two spaces or more; the profile
   is read up to its last E):

      T  regular  45708580  2662330  13662  0
      E
      Q  46298509  the disk is full (ENOSPC)
*/

/* Output stops: a Q record says why, if the file takes it (at 'time',
   or TIME_NOW);
   stderr too.  What is put afterwards is dropped (the flushes find the
   file closed). */
#define TIME_NOW  (~0ULL)    // stop's time: time_now()'s

static void stop(const HChar* why, ULong limit, ULong time)
{
   HChar rec[Q_MAX_SZB];
   UInt  n = VG_(snprintf)(rec, sizeof(rec), "Q\t%llu\t%s\n",
                           time == TIME_NOW ? time_now() : time, why);
   Bool  said = size > 0 && at_line_end && size + n <= limit
                && write_bytes(rec, n) == NULL;
   VG_(umsg)("strata: output stopped: %s; the profile ends at its last "
             "complete snapshot%s\n", why,
             said ? " and says why" : " (the reason could not be written "
                                      "in it)");
   VG_(close)(fd);
   __atomic_store_n(&fd, -1, __ATOMIC_RELEASE);
}

/* Writes the 'n' bytes at 'p' (complete lines, but for a last flush),
   or stops the output, with a Q record of 'time' that says why. */
static void write_out(const HChar* p, UInt n, ULong time)
{
   Lift         lift;
   ULong        limit;
   UWord        err;
   const HChar* why;
   if (fd < 0 || n == 0)
      return;
   limit = lift_limit(&lift);
   err   = reserve(n);
   if (err != 0)
      why = reason_of_errno(err);
   else if (size + n + Q_MAX_SZB > limit)   // room left for a Q record
      why = reason_of_limit(limit);
   else
      why = write_bytes(p, n);
   if (why != NULL)
      stop(why, limit, time);
   put_back_limit(&lift);
}

#if defined(ST_PORT_LIBC)
/* The writer thread (st_write.h): the native recorder, once the program
   has threads of its own, gives its writes to a thread of its own, so
   that no thread of the program writes to the file holding the core's
   lock, which the program's other threads wait for.  A flush copies its
   bytes into 'out' and goes on; the writer thread writes them.  One
   buffer is in flight: a flush that finds it not yet written waits (a
   futex, which a signal handler ending the profile may wait on too).
   Who waits for what: 'out_full' is 1 while 'out' holds bytes not yet
   written. */
#define IDLE_MS  200

static Bool  async = False;
static HChar out[BUF_SZB];
static UInt  out_n = 0;
static ULong out_time = 0;       // the time of the flush, for a Q record
static Int   out_full = 0;

static void wake_all(void)
{
   st_port_wake_all(&out_full);
}

static void wait_while(Int value)
{
   st_port_wait_while(&out_full, value);
}

/* The buffer in flight written. */
static void drain(void)
{
   if (async)
      wait_while(1);
}

static void hand(const HChar* p, UInt n)
{
   wait_while(1);
   if (__atomic_load_n(&fd, __ATOMIC_ACQUIRE) < 0 || n == 0)
      return;
   VG_(memcpy)(out, p, n);
   out_n    = n;
   out_time = time_now();
   __atomic_store_n(&out_full, 1, __ATOMIC_RELEASE);
   wake_all();
}

void run_Writer(void (*idle)(void))
{
   for (;;) {
      // Each IDLE_MS with nothing handed over, 'idle' is asked to hand over
      // what is buffered (it takes the core's lock if it is free, and
      // calls flush_idle_Writer): the file lags by that much at most.
      while (st_port_wait_while_for(&out_full, 0, IDLE_MS))
         idle();
      write_out(out, out_n, out_time);
      __atomic_store_n(&out_full, 0, __ATOMIC_RELEASE);
      wake_all();
   }
}

void flush_idle_Writer(void)
{
   if (async && used > 0 && __atomic_load_n(&out_full, __ATOMIC_ACQUIRE) == 0)
      flush_now_Writer();
}

void start_async_Writer(void)
{
   async = True;
}

void forget_async_Writer(void)
{
   async    = False;
   out_full = 0;
}
#else
static void drain(void) {}
#endif

/* The first 'n' bytes of the buffer out. */
static void write_buffer(UInt n)
{
   put_out += n;
#if defined(ST_PORT_LIBC)
   if (async) {
      hand(buf, n);
      return;
   }
#endif
   if (fd >= 0 && n > 0)
      write_out(buf, n, TIME_NOW);
}

void flush_Writer(void)
{
#if defined(ST_PORT_LIBC)
   // To the writer thread a buffer half full at least, not each snapshot:
   // each hand-off wakes it, and on two processors a thread woken 3,500
   // times in a run of 0.7 s took 15% from 4 busy threads of the program.
   // The file then lags by at most half a buffer, or IDLE_MS (what a
   // SIGKILL loses).
   if (async && used < BUF_SZB / 2)
      return;
#endif
   flush_now_Writer();
}

void flush_now_Writer(void)
{
   write_buffer(used);
   used = 0;
}

/* What is buffered, out to the file now, and written: before its size is
   read or its end written. */
static void flush_all(void)
{
   flush_now_Writer();
   drain();
}

/* The buffer is full: writes its complete lines (all of it if it holds
   one line only). */
static void flush_full(void)
{
   UInt n = used;
   while (n > 0 && buf[n - 1] != '\n')
      n--;
   if (n == 0)
      n = used;
   write_buffer(n);
   if (!is_open_Writer()) {
      used = 0;
      return;
   }
   VG_(memmove)(buf, buf + n, used - n);
   used -= n;
}

/*------------------------------------------------------------*/
/*--- Putting records                                      ---*/
/*------------------------------------------------------------*/

void put_char(HChar c)
{
   if (used == BUF_SZB)
      flush_full();
   buf[used++] = c;
}

void put_str(const HChar* s)
{
   for (; *s; s++)
      put_char(*s);
}

void put_text(const HChar* s)
{
   for (; s && *s; s++) {
      switch (*s) {
      case '\\': put_str("\\\\"); break;
      case '\t': put_str("\\t");  break;
      case '\n': put_str("\\n");  break;
      case '\r': put_str("\\r");  break;
      default:   put_char(*s);
      }
   }
}

void put_u64(ULong n)
{
   HChar tmp[24];
   Int   i = 0;
   do {
      tmp[i++] = '0' + (HChar)(n % 10);
      n /= 10;
   } while (n > 0);
   if (used + (UInt)i > BUF_SZB) {    // rare: through put_char's flush
      while (i > 0)
         put_char(tmp[--i]);
      return;
   }
   while (i > 0)                      // most numbers: straight in
      buf[used++] = tmp[--i];
}

void put_hex(Addr a)
{
   HChar tmp[24];
   Int   i = 0;
   do {
      tmp[i++] = "0123456789abcdef"[a & 0xf];
      a >>= 4;
   } while (a > 0);
   put_str("0x");
   while (i > 0)
      put_char(tmp[--i]);
}

void put_tab(void) { put_char('\t'); }
void put_nl(void)  { put_char('\n'); }

void put_field_u64(ULong n) { put_tab(); put_u64(n); }
void put_field_text(const HChar* s) { put_tab(); put_text(s); }

/*------------------------------------------------------------*/
/*--- Opening and closing                                  ---*/
/*------------------------------------------------------------*/

UWord open_Writer(const HChar* name, ULong (*now)(void))
{
   SysRes sres = VG_(open)(name, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                           VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP
                           | VKI_S_IROTH);
   if (sr_isError(sres))
      return sr_Err(sres);
   fd          = VG_(safe_fd)(sr_Res(sres));
   time_now    = now;
   used        = 0;
   size        = 0;
   put_out     = 0;
   at_line_end = True;
   reserving   = True;
   reserved    = 0;
   check_limit_Writer();
   return 0;
}

Bool is_open_Writer(void)
{
   return __atomic_load_n(&fd, __ATOMIC_ACQUIRE) >= 0;
}

ULong written_Writer(void)
{
   return put_out + used;
}

ULong size_Writer(void)
{
   flush_all();
   return size;
}

void cut_Writer(ULong to)
{
   flush_all();
   tl_assert(to <= size);
   if (fd >= 0)
      cut_back(to);
   at_line_end = True;
   put_out     = to;
}

/* The blocks allocated past the end: ext4 frees them on a truncation to
   the same size, tmpfs on a hole punched there. */
void finish_Writer(void)
{
   flush_all();
   if (fd < 0 || !reserving || reserved <= size)
      return;
   VG_(do_syscall)(__NR_ftruncate, fd, size, 0, 0, 0, 0, 0, 0);
   VG_(do_syscall)(__NR_fallocate, fd, FALLOC_KEEP_SIZE | FALLOC_PUNCH_HOLE,
                   size, reserved - size, 0, 0, 0, 0);
   reserved = size;
}

void close_Writer(void)
{
   finish_Writer();
   if (fd >= 0)
      VG_(close)(fd);
   fd = -1;
}

void drop_Writer(void)
{
   used = 0;
   if (fd >= 0)
      VG_(close)(fd);
   fd = -1;
}

/*------------------------------------------------------------*/
/*--- The ledger: what strata record is told               ---*/
/*------------------------------------------------------------*/

/* strata record gives the tool a file of its own, --record-fd (a memfd,
   opened for appending), which every strata of the run inherits: forked
   children with the process, programs started by a traced exec through
   the exec.  Each says there what strata record cannot find out from the
   files: the profile it created, the one it could not create and why, the
   program an exec left unprofiled.  A note is fields ended by NUL (a file
   name may hold any other byte), the first a letter (docs/design.md), and
   is appended by one write, so that notes of processes writing at once do
   not mix.  The file-size limit is lifted around it, as for the profile. */

static Int ledger = -1;

void open_Ledger(Int given)
{
   if (given < 0 || VG_(fcntl)(given, VKI_F_GETFD, 0) < 0)
      return;   // not given, or not open: strata record is not listening
   ledger = VG_(safe_fd)(given);
}

Int fd_Ledger(void)
{
   return ledger;
}

void note_Ledger(const HChar* kind, const HChar* a, const HChar* b,
                 const HChar* c)
{
   const HChar* fields[4] = { kind, a, b, c };
   HChar note[2 * VKI_PATH_MAX];
   UInt  n = 0, i;
   Lift  lift;
   if (ledger < 0)
      return;
   check_limit_Writer();   // the client's limit, even before a profile
   for (i = 0; i < 4 && fields[i] != NULL; i++) {
      UInt len = VG_(strlen)(fields[i]);
      if (n + len + 1 > sizeof(note))
         return;   // longer than a path and a reason: not noted
      VG_(memcpy)(note + n, fields[i], len + 1);
      n += len + 1;
   }
   lift_limit(&lift);
   VG_(write)(ledger, note, n);
   put_back_limit(&lift);
}

ULong bytes_written_Writer(void) { return stats_bytes; }
ULong writes_Writer(void)        { return stats_writes; }
