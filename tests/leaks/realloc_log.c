/* realloc_log: a leak that climbs in geometric steps.
 *
 * Every request appends a line of about `size` bytes to a log buffer that
 * logbuf_grow enlarges by realloc, by `factor` percent (25), when it is full.  The log is
 * never truncated, so the buffer's size climbs in steps that get longer as
 * it grows.  leak=0 flushes the log every `batch` lines (the buffer is freed
 * and starts again small): a per-batch buffer grown by realloc, which must
 * not be flagged.  Background decoys run beside it.
 *
 *   realloc_log seed=N run=N work=N size=BYTES factor=PCT batch=N leak=0|1
 *               teardown=PCT bg=0|1 bg_temp=BYTES */
#include <string.h>

#include "corpus.h"

static char *log_buf;
static size_t log_used, log_size;
static long factor;

/* The leak: the buffer grows by `factor` percent at a time and never shrinks. */
NOINLINE static void logbuf_grow(size_t need)
{
   size_t size = grown_by(log_size, 4096, need, factor);
   log_buf = use(realloc(log_buf, size));
   log_size = size;
}

NOINLINE static void log_line(long request, size_t size)
{
   size_t len = size / 2 + (size_t)rng_range(0, (long)size);
   if (log_used + len > log_size)
      logbuf_grow(log_used + len);
   memset(log_buf + log_used, 'a' + (int)(request % 26), 1);
   log_used += len;
}

static void log_flush(void)
{
   free(log_buf);
   log_buf = NULL;
   log_used = log_size = 0;
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 1000), work = arg_long("work", 1000);
   size_t size = (size_t)arg_long("size", 200);
   long batch = arg_long("batch", 50), leak = arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   factor = arg_long("factor", 25);
   bg_init();
   args_done();
   at_teardown(log_flush);

   for (long r = 0; r < run; r++) {
      bg_step();
      log_line(r, size);
      if (!leak && (r + 1) % batch == 0)
         log_flush();
      idle_work(work);
   }
   teardown(tear);
   return 0;
}
