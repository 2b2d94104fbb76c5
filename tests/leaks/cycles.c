/* cycles: a rising trough in cycles of batches, with or without markers.
 *
 * Each of `cycles` batches runs a random number of jobs (between jobs/2 and
 * jobs, from `seed`): each job allocates a result of `res_size` bytes
 * (result_alloc) and appends to a batch buffer grown by realloc
 * (batch_buf_grow); at the end of the batch the results and the buffer are
 * freed, and a `size`-byte summary of the batch is kept (summary_keep, the
 * leak).  So the heap rises and falls in waves of different heights, and only
 * summary_keep's trough rises.  Between batches, `idle` iterations of idle
 * work.  mark=1 puts STRATA_MARK("batch") at the start of each batch.
 * leak=0 frees the summary with the batch.  Background decoys run beside it.
 *
 *   cycles seed=N cycles=N jobs=N res_size=BYTES size=BYTES work=N idle=N
 *          mark=0|1 leak=0|1 teardown=PCT bg=0|1 bg_temp=BYTES */
#include "corpus.h"

struct result {
   struct result *next;
};

static char *batch_buf;
static size_t batch_size;

NOINLINE static struct result *result_alloc(size_t size, struct result *next)
{
   struct result *r = use(malloc(size < sizeof *r ? sizeof *r : size));
   r->next = next;
   return r;
}

NOINLINE static void batch_buf_grow(size_t need)
{
   size_t size = batch_size == 0 ? 1024 : batch_size;
   while (size < need)
      size += size / 4;
   batch_buf = use(realloc(batch_buf, size));
   batch_size = size;
}

/* The leak. */
NOINLINE static struct kept *summary_keep(size_t size)
{
   return use(malloc(size < sizeof(struct kept) ? sizeof(struct kept) : size));
}

static void batch_run(long jobs, size_t res_size, size_t size, long work, int leak)
{
   struct result *results = NULL;
   for (long j = 0; j < jobs; j++) {
      results = result_alloc(res_size, results);
      batch_buf_grow((size_t)(j + 1) * 300);
      bg_step();
      idle_work(work);
   }
   while (results != NULL) {
      struct result *next = results->next;
      free(results);
      results = next;
   }
   free(batch_buf);
   batch_buf = NULL;
   batch_size = 0;
   struct kept *s = summary_keep(size);
   if (leak)
      keep(s);
   else
      free(s);
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long cycles = arg_long("cycles", 10), jobs = arg_long("jobs", 60);
   size_t res_size = (size_t)arg_long("res_size", 4096);
   size_t size = (size_t)arg_long("size", 8192);
   long work = arg_long("work", 1500), idle = arg_long("idle", 100000);
   int mark = (int)arg_long("mark", 0), leak = (int)arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();

   for (long c = 0; c < cycles; c++) {
      if (mark)
         STRATA_MARK("batch");
      batch_run(rng_range(jobs / 2, jobs), res_size, size, work, leak);
      idle_work(idle);
   }
   teardown(tear);
   return 0;
}
