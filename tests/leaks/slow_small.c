/* slow_small: a slow, small leak under a large, noisy heap.
 *
 * The server keeps `buffers` I/O buffers of `buf_size` bytes give or take
 * 50% (8 MB by default); every request frees one at random and allocates
 * another (buffer_recycle), so the heap's total wanders by hundreds of KB
 * from request to request.  Every request also keeps a `size`-byte record
 * (request_note, 24 bytes by default) that is never freed before exit.
 * leak=0 frees the record at the end of the request.  Background decoys run
 * beside it.
 *
 *   slow_small seed=N run=N work=N size=BYTES buffers=N buf_size=BYTES
 *              leak=0|1 teardown=PCT bg=0|1 bg_temp=BYTES */
#include "corpus.h"

enum { MAX_BUFFERS = 1024 };

static char *buffers[MAX_BUFFERS];
static long n_buffers;

NOINLINE static char *buffer_recycle(char *old, size_t size)
{
   free(old);
   return use(malloc(size));
}

static void buffers_release(void)
{
   for (long i = 0; i < n_buffers; i++)
      free(buffers[i]);
}

/* The leak: a small record per request. */
NOINLINE static struct kept *request_note(size_t size)
{
   return use(malloc(size < sizeof(struct kept) ? sizeof(struct kept) : size));
}

static size_t buffer_size(long mean)
{
   return (size_t)rng_range(mean / 2, mean + mean / 2);
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 2000), work = arg_long("work", 1000);
   size_t size = (size_t)arg_long("size", 24);
   n_buffers = arg_long("buffers", 32);
   long buf_size = arg_long("buf_size", 256 * 1024);
   long leak = arg_long("leak", 1), tear = arg_long("teardown", 12);
   bg_init();
   args_done();
   if (n_buffers < 1 || n_buffers > MAX_BUFFERS)
      return 2;
   at_teardown(buffers_release);

   for (long i = 0; i < n_buffers; i++)
      buffers[i] = buffer_recycle(NULL, buffer_size(buf_size));
   for (long r = 0; r < run; r++) {
      long i = rng_range(0, n_buffers - 1);
      buffers[i] = buffer_recycle(buffers[i], buffer_size(buf_size));
      struct kept *note = request_note(size);
      if (leak)
         keep(note);
      else
         free(note);
      bg_step();
      idle_work(work);
   }
   teardown(tear);
   return 0;
}
