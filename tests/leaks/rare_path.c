/* rare_path: a leak on a rare random error path, through the program's own
 * allocation wrapper.
 *
 * A gateway handles `run` requests with `work` iterations of idle work each.
 * Every allocation of the program goes through xalloc(size, tag), which
 * counts the bytes of each tag and fails the program when memory runs out:
 * the request's header buffer (header_read), its body (body_read, 1 to
 * `body` bytes), its reply (reply_format), all freed with the request, and a
 * route table entry (route_learn, one of 64 routes, kept and replaced).  A
 * request fails its checks with odds 1 in `odds`; then fault_report
 * describes the fault in a record of 200 to `size` bytes for the error log.
 * The bug, leak=1: the record is linked into the log but never freed when
 * the log is flushed, so the rare error path leaves random amounts behind,
 * at uneven times.  leak=0 frees it at the flush.  Background decoys run
 * beside it.
 *
 *   rare_path seed=N run=N work=N odds=N size=BYTES body=BYTES leak=0|1
 *             teardown=PCT bg=0|1 bg_temp=BYTES */
#include <stdio.h>
#include <string.h>

#include "corpus.h"

enum tag { TAG_HEADER, TAG_BODY, TAG_REPLY, TAG_ROUTE, TAG_FAULT, N_TAGS };

static size_t tag_bytes[N_TAGS];

/* The program's allocator: every allocation of it, from many places. */
NOINLINE static void *xalloc(size_t size, enum tag tag)
{
   void *p = malloc(size);
   if (p == NULL) {
      fprintf(stderr, "rare_path: out of memory (%zu bytes, tag %d)\n", size, tag);
      exit(3);
   }
   tag_bytes[tag] += size;
   return use(p);
}

struct fault {
   struct kept link; /* leak=1: a fault never freed, until the teardown */
   struct fault *next;
   long request;
   char text[];
};

static struct fault *fault_log;
static long faults_logged;
static char *routes[64];

NOINLINE static char *header_read(void)
{
   return xalloc(512, TAG_HEADER);
}

NOINLINE static char *body_read(size_t most)
{
   return xalloc((size_t)rng_range(1, (long)most), TAG_BODY);
}

NOINLINE static char *reply_format(long request)
{
   char *reply = xalloc(1024, TAG_REPLY);
   snprintf(reply, 1024, "200 OK %ld", request);
   return reply;
}

NOINLINE static void route_learn(void)
{
   long r = rng_range(0, 63);
   free(routes[r]);
   routes[r] = xalloc((size_t)rng_range(64, 256), TAG_ROUTE);
}

/* The error path: a record of the fault for the log. */
NOINLINE static void fault_report(long request, size_t most)
{
   struct fault *f = xalloc(sizeof *f + (size_t)rng_range(200, (long)most), TAG_FAULT);
   f->request = request;
   strcpy(f->text, "bad request");
   f->next = fault_log;
   fault_log = f;
   faults_logged++;
}

/* Writes the log out; the bug forgets to free what it wrote. */
static void fault_log_flush(int leak)
{
   while (fault_log != NULL) {
      struct fault *next = fault_log->next;
      if (leak)
         keep(&fault_log->link);
      else
         free(fault_log);
      fault_log = next;
   }
}

static void routes_release(void)
{
   for (int r = 0; r < 64; r++)
      free(routes[r]);
}

static void request_handle(long request, long odds, size_t size, size_t body)
{
   char *header = header_read(), *data = body_read(body);
   if (rng_range(1, odds) == 1) {
      fault_report(request, size);
   } else {
      free(reply_format(request));
      if (rng_range(1, 8) == 1)
         route_learn();
   }
   free(data);
   free(header);
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 3000), work = arg_long("work", 1000);
   long odds = arg_long("odds", 40);
   size_t size = (size_t)arg_long("size", 4096), body = (size_t)arg_long("body", 8192);
   int leak = (int)arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   if (odds < 1 || size < 200 || body < 1)
      return 2;
   at_teardown(routes_release);

   for (long r = 0; r < run; r++) {
      bg_step();
      request_handle(r, odds, size, body);
      if (r % 16 == 15)
         fault_log_flush(leak);
      idle_work(work);
   }
   fault_log_flush(leak);
   teardown(tear);
   return 0;
}
