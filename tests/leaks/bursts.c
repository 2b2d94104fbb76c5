/* bursts: a video player whose leak climbs in a few steps.
 *
 * The player opens a video (decoder_create), decodes `frames` frames of
 * `size` bytes (frame_decode) into a queue that the renderer drains down to
 * `depth` frames (frame_show), closes the video, and computes idly for
 * `idle` iterations (give or take 30%, from `seed`), `cycles` times.  At
 * close the frames still queued are forgotten (kept until exit): each cycle
 * leaves `depth` frames behind, so frame_decode's trough rises in steps
 * separated by idle stretches.  leak=0 closes properly.  mark=1 puts
 * STRATA_MARK("open") at each open.  Background decoys run beside it.
 *
 *   bursts seed=N cycles=N frames=N depth=N size=BYTES work=N idle=N mark=0|1
 *          leak=0|1 teardown=PCT bg=0|1 bg_temp=BYTES */
#include "corpus.h"

struct frame {
   struct kept link;
   struct frame *next; /* the queue, oldest first */
   long number;
};

struct queue {
   struct frame *head, *tail;
   long length;
};

/* The leak: the frames a close forgets. */
NOINLINE static struct frame *frame_decode(long number, size_t size)
{
   struct frame *f = use(malloc(size < sizeof *f ? sizeof *f : size));
   f->number = number;
   f->next = NULL;
   return f;
}

NOINLINE static char *decoder_create(void)
{
   return use(malloc(128 * 1024));
}

static void queue_push(struct queue *q, struct frame *f)
{
   if (q->tail != NULL)
      q->tail->next = f;
   else
      q->head = f;
   q->tail = f;
   q->length++;
}

NOINLINE static void frame_show(struct queue *q)
{
   struct frame *f = q->head;
   q->head = f->next;
   if (q->head == NULL)
      q->tail = NULL;
   q->length--;
   free(f);
}

/* Closes the video: the decoder is freed; the queue only when `fixed`. */
static void video_close(struct queue *q, char *decoder, int fixed)
{
   free(decoder);
   while (q->head != NULL) {
      if (fixed) {
         frame_show(q);
      } else {
         struct frame *f = q->head;
         q->head = f->next;
         keep(&f->link);
      }
   }
   q->tail = NULL;
   q->length = 0;
}

static void video_play(long frames, long depth, size_t size, long work, int fixed)
{
   struct queue q = {NULL, NULL, 0};
   char *decoder = decoder_create();
   for (long i = 0; i < frames; i++) {
      queue_push(&q, frame_decode(i, size));
      while (q.length > depth)
         frame_show(&q);
      bg_step();
      idle_work(work);
   }
   video_close(&q, decoder, fixed);
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long cycles = arg_long("cycles", 8), frames = arg_long("frames", 40);
   long depth = arg_long("depth", 4), work = arg_long("work", 2000);
   long idle = arg_long("idle", 200000);
   size_t size = (size_t)arg_long("size", 65536);
   int mark = (int)arg_long("mark", 0), leak = (int)arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();

   for (long c = 0; c < cycles; c++) {
      if (mark)
         STRATA_MARK("open");
      video_play(frames, depth, size, work, !leak);
      idle_work(idle * rng_range(70, 130) / 100);
   }
   teardown(tear);
   return 0;
}
