/* steady: a leak that climbs steadily, or starts late.
 *
 * A server handles `run` requests, with `work` iterations of idle work each.
 * From request run * late / 100 on (late=0: from the start), every request
 * keeps a `size`-byte entry in a history that is never trimmed
 * (history_add).  With leak=0 the history keeps only its last 64 entries: a
 * cache that fills and plateaus.  With churn=1, before the leak starts the
 * history is a working window trimmed each request to 32 to 96 entries at
 * random (the same site holds a wandering amount, then leaks).  With beat=N,
 * every N requests a 256 KiB frame_buffer is taken, and freed halfway to the
 * next: the total heap has a rhythm that the history does not follow.
 * Background decoys run beside it.
 *
 *   steady seed=N run=N work=N size=BYTES late=PCT leak=0|1 churn=0|1
 *          beat=N teardown=PCT bg=0|1 bg_temp=BYTES */
#include "corpus.h"

struct entry {
   struct kept link;
   struct entry *older; /* the history, newest first */
   long request;
};

static struct entry *history;
static long history_length;

/* The leak: one entry per request, never trimmed. */
NOINLINE static struct entry *history_add(long request, size_t size)
{
   struct entry *e = use(malloc(size < sizeof *e ? sizeof *e : size));
   e->request = request;
   e->older = history;
   history = e;
   history_length++;
   return e;
}

/* leak=0: frees what is past the last `most` entries. */
static void history_trim(long most)
{
   struct entry *e = history;
   for (long i = 1; e != NULL && i < most; i++)
      e = e->older;
   while (e != NULL && e->older != NULL) {
      struct entry *gone = e->older;
      e->older = gone->older;
      free(gone);
      history_length--;
   }
}

static void history_release(void)
{
   while (history != NULL) {
      struct entry *older = history->older;
      free(history);
      history = older;
   }
}

NOINLINE static void handle_request(long request, int record, size_t size)
{
   bg_step();
   if (record)
      history_add(request, size);
}

NOINLINE static void *frame_buffer(void)
{
   return use(malloc(256 << 10));
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 400), work = arg_long("work", 2000);
   size_t size = (size_t)arg_long("size", 256);
   long late = arg_long("late", 0), leak = arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   long churn = arg_long("churn", 0), beat = arg_long("beat", 0);
   bg_init();
   args_done();
   at_teardown(history_release);

   void *frame = NULL;
   for (long r = 0; r < run; r++) {
      if (beat > 0 && r % beat == 0)
         frame = frame_buffer();
      if (beat > 0 && r % beat == beat / 2) {
         free(frame);
         frame = NULL;
      }
      int leaking = r >= run * late / 100;
      handle_request(r, leaking || churn, size);
      if (!leak)
         history_trim(64);
      else if (churn && !leaking)
         history_trim(rng_range(32, 96));
      idle_work(work);
   }
   free(frame);
   teardown(tear);
   return 0;
}
