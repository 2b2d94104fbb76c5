/* playlist: a player's open/close loop with cycles of uneven length.
 *
 * A player plays `videos` videos in turn.  Each has a random length (`frames`
 * frames, give or take 70%), a random frame size (16 KiB to `size` bytes)
 * and a random render queue depth (2 to `depth` frames).  A video is opened
 * (stream_open: a demuxer context of 32 to 160 KiB), decoded frame by frame
 * (picture_decode) into the render queue, which the renderer drains down to
 * its depth (picture_show), and closed; between videos the player waits idly
 * for `idle` iterations, give or take 80%.  So its cycles differ in length,
 * in height and in the pause after them, and nothing marks them.  The bug,
 * leak=1: the close clears the render queue without freeing its pictures
 * (stream_close), so each video leaves its queue behind.  leak=0 frees it.
 * mark=1 puts STRATA_MARK("open") at each open.  Background decoys run
 * beside it.
 *
 *   playlist seed=N videos=N frames=N size=BYTES depth=N work=N idle=N
 *            mark=0|1 leak=0|1 teardown=PCT bg=0|1 bg_temp=BYTES */
#include "corpus.h"

struct picture {
   struct kept link; /* leak=1: a forgotten picture, freed at exit */
   struct picture *next; /* the render queue, oldest first */
   long number;
};

struct stream {
   char *demuxer;
   struct picture *head, *tail;
   long queued, depth;
   size_t frame_size;
};

NOINLINE static char *stream_open(struct stream *s, size_t frame_size, long depth)
{
   s->demuxer = use(malloc((size_t)rng_range(32, 160) << 10));
   s->head = s->tail = NULL;
   s->queued = 0;
   s->depth = depth;
   s->frame_size = frame_size;
   return s->demuxer;
}

NOINLINE static struct picture *picture_decode(struct stream *s, long number)
{
   struct picture *p = use(malloc(s->frame_size));
   p->number = number;
   p->next = NULL;
   if (s->tail != NULL)
      s->tail->next = p;
   else
      s->head = p;
   s->tail = p;
   s->queued++;
   return p;
}

NOINLINE static void picture_show(struct stream *s)
{
   struct picture *p = s->head;
   s->head = p->next;
   if (s->head == NULL)
      s->tail = NULL;
   s->queued--;
   free(p);
}

/* Closes the stream; the bug clears the queue without freeing it. */
NOINLINE static void stream_close(struct stream *s, int leak)
{
   free(s->demuxer);
   while (s->head != NULL) {
      if (leak) {
         struct picture *p = s->head;
         s->head = p->next;
         keep(&p->link);
      } else {
         picture_show(s);
      }
   }
   s->tail = NULL;
   s->queued = 0;
}

static void video_play(long frames, size_t frame_size, long depth, long work, int leak)
{
   struct stream s;
   stream_open(&s, frame_size, depth);
   for (long i = 0; i < frames; i++) {
      picture_decode(&s, i);
      while (s.queued > s.depth)
         picture_show(&s);
      bg_step();
      idle_work(work);
   }
   stream_close(&s, leak);
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long videos = arg_long("videos", 10), frames = arg_long("frames", 40);
   size_t size = (size_t)arg_long("size", 65536);
   long depth = arg_long("depth", 6), work = arg_long("work", 2000);
   long idle = arg_long("idle", 150000);
   int mark = (int)arg_long("mark", 0), leak = (int)arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   if (size < 16384 || depth < 2 || frames < 4)
      return 2;

   for (long v = 0; v < videos; v++) {
      if (mark)
         STRATA_MARK("open");
      long length = frames * rng_range(30, 170) / 100;
      size_t frame_size = (size_t)rng_range(16384, (long)size);
      video_play(length, frame_size, rng_range(2, depth), work, leak);
      idle_work(idle * rng_range(20, 180) / 100);
   }
   teardown(tear);
   return 0;
}
