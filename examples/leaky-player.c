/* leaky-player: a simulated video player with a leak that leak checkers miss.
 *
 * The player opens a video, decodes and shows its frames, closes it, idles a
 * while in its menu, and does it all again, --cycles times.  A decoded frame
 * waits in a queue until the renderer shows it.  When a video is closed, the
 * frames still waiting in that queue are forgotten: the teardown frees the
 * decoder and the audio buffers but not the queue.  Each cycle leaves
 * QUEUE_DEPTH more frames behind, so the memory held by frame_alloc never
 * drops back to where it was: its trough rises every cycle.
 *
 * Every frame is also on a registry of live frames, and the registry is
 * emptied when the program exits.  A checker that reports what is not freed
 * at exit (valgrind --leak-check=full) finds nothing; a heap profile over
 * time shows the rising trough at once:
 *
 *     ./strata record --depth=30 examples/leaky-player
 *     ./strata report strata.out.<pid>
 *
 * --fixed closes videos properly, for comparison.  The program is
 * deterministic: no clock, no random numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata.h"

enum {
   WIDTH = 320, HEIGHT = 240, BYTES_PER_PIXEL = 2,
   FRAME_BYTES = WIDTH * HEIGHT * BYTES_PER_PIXEL,
   QUEUE_DEPTH = 4,            /* frames decoded ahead of the renderer */
   DECODER_STATE_BYTES = 64 * 1024,
   AUDIO_BUFFERS = 8, AUDIO_BUFFER_BYTES = 4096,
   THUMBNAIL_SLOTS = 16, THUMBNAIL_BYTES = 2048,
   SCRATCH_BYTES = 32 * 1024,
   MENU_REDRAWS = 100, CANVAS_BYTES = 64 * 1024,
};

/* A decoded frame.  `queue_next` links the player's queue, `prev` and `next`
 * the registry of every frame alive. */
struct frame {
   struct frame *queue_next;
   struct frame *prev, *next;
   int number;
   unsigned char pixels[FRAME_BYTES];
};

struct frame_queue {
   struct frame *head, *tail;
   int length;
};

struct decoder {
   unsigned char *state;       /* reference frames and tables */
   unsigned checksum;
};

struct player {
   struct decoder *decoder;
   struct frame_queue queue;
   short *audio[AUDIO_BUFFERS];
   int fixed;                  /* 1: close() also empties the queue */
};

static struct frame *registry;                     /* every live frame */
static unsigned char *thumbnails[THUMBNAIL_SLOTS]; /* a cache that plateaus */
static unsigned long shown;                        /* a sum of pixels shown */

/* ---- frames ------------------------------------------------------------- */

/* Kept out of line so that the profile names it in any build. */
__attribute__((noinline)) static struct frame *frame_alloc(int number)
{
   struct frame *f = malloc(sizeof *f);
   if (f == NULL)
      abort();
   f->number = number;
   f->queue_next = NULL;
   f->prev = NULL;
   f->next = registry;
   if (registry != NULL)
      registry->prev = f;
   registry = f;
   return f;
}

static void frame_free(struct frame *f)
{
   if (f->prev != NULL)
      f->prev->next = f->next;
   else
      registry = f->next;
   if (f->next != NULL)
      f->next->prev = f->prev;
   free(f);
}

static void queue_push(struct frame_queue *q, struct frame *f)
{
   if (q->tail != NULL)
      q->tail->queue_next = f;
   else
      q->head = f;
   q->tail = f;
   q->length++;
}

static struct frame *queue_pop(struct frame_queue *q)
{
   struct frame *f = q->head;
   q->head = f->queue_next;
   if (q->head == NULL)
      q->tail = NULL;
   q->length--;
   return f;
}

/* ---- decoding, audio, rendering ----------------------------------------- */

static struct decoder *decoder_open(void)
{
   struct decoder *d = calloc(1, sizeof *d);
   d->state = calloc(1, DECODER_STATE_BYTES);
   return d;
}

static void decoder_close(struct decoder *d)
{
   free(d->state);
   free(d);
}

/* Decodes frame `number`, using a scratch buffer for the bitstream. */
static struct frame *decoder_decode(struct decoder *d, int number)
{
   unsigned char *scratch = malloc(SCRATCH_BYTES);
   memset(scratch, number & 0xff, SCRATCH_BYTES);
   struct frame *f = frame_alloc(number);
   memcpy(f->pixels, scratch, SCRATCH_BYTES);
   memset(f->pixels + SCRATCH_BYTES, d->state[number % 64], FRAME_BYTES - SCRATCH_BYTES);
   d->checksum += scratch[number % SCRATCH_BYTES];
   free(scratch);
   return f;
}

/* Keeps a small thumbnail of some frames; the cache stops growing once its
 * slots are all taken. */
static void thumbnail_cache(const struct frame *f)
{
   int slot = f->number % THUMBNAIL_SLOTS;
   if (thumbnails[slot] == NULL)
      thumbnails[slot] = malloc(THUMBNAIL_BYTES);
   memcpy(thumbnails[slot], f->pixels, THUMBNAIL_BYTES);
}

static void audio_mix(struct player *p, int number)
{
   short *buffer = p->audio[number % AUDIO_BUFFERS];
   for (int i = 0; i < AUDIO_BUFFER_BYTES / (int)sizeof(short); i++)
      buffer[i] = (short)(i * number);
}

static void render(struct frame *f)
{
   shown += f->pixels[f->number % FRAME_BYTES];
}

/* ---- the player ---------------------------------------------------------- */

static void player_open(struct player *p)
{
   STRATA_MARK("video opened");
   p->decoder = decoder_open();
   for (int i = 0; i < AUDIO_BUFFERS; i++)
      p->audio[i] = malloc(AUDIO_BUFFER_BYTES);
}

/* Decodes `frames` frames; the renderer shows a frame once QUEUE_DEPTH newer
 * ones are waiting behind it. */
static void player_play(struct player *p, int first, int frames)
{
   for (int n = first; n < first + frames; n++) {
      struct frame *f = decoder_decode(p->decoder, n);
      thumbnail_cache(f);
      audio_mix(p, n);
      queue_push(&p->queue, f);
      if (p->queue.length > QUEUE_DEPTH) {
         struct frame *done = queue_pop(&p->queue);
         render(done);
         frame_free(done);
      }
   }
}

static void player_close(struct player *p)
{
   decoder_close(p->decoder);
   for (int i = 0; i < AUDIO_BUFFERS; i++)
      free(p->audio[i]);
   /* THE BUG: the frames still queued are forgotten.  The fix is --fixed. */
   if (p->fixed)
      while (p->queue.length > 0)
         frame_free(queue_pop(&p->queue));
   p->queue = (struct frame_queue){ NULL, NULL, 0 };
   STRATA_MARK("video closed");
}

/* The menu between two videos, drawn again and again on short-lived
 * canvases: the time between two videos. */
static void menu_idle(void)
{
   for (int i = 0; i < MENU_REDRAWS; i++) {
      char *canvas = malloc(CANVAS_BYTES + (size_t)(i % 8) * 1024);
      memset(canvas, i, CANVAS_BYTES);
      free(canvas);
   }
}

static void shutdown(void)
{
   while (registry != NULL)
      frame_free(registry);
   for (int i = 0; i < THUMBNAIL_SLOTS; i++)
      free(thumbnails[i]);
}

static int number_after(int argc, char **argv, int i)
{
   if (i + 1 >= argc || atoi(argv[i + 1]) < 1) {
      fprintf(stderr, "leaky-player: %s needs a number of 1 or more\n", argv[i]);
      exit(2);
   }
   return atoi(argv[i + 1]);
}

int main(int argc, char **argv)
{
   int cycles = 8, frames = 48;
   struct player player = { 0 };
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--cycles") == 0)
         cycles = number_after(argc, argv, i++);
      else if (strcmp(argv[i], "--frames") == 0)
         frames = number_after(argc, argv, i++);
      else if (strcmp(argv[i], "--fixed") == 0)
         player.fixed = 1;
      else {
         fprintf(stderr, "usage: leaky-player [--cycles N] [--frames N] [--fixed]\n");
         return 2;
      }
   }
   for (int c = 0; c < cycles; c++) {
      player_open(&player);
      player_play(&player, c * frames, frames);
      player_close(&player);
      menu_idle();
   }
   STRATA_MARK("exit");
   shutdown();
   printf("leaky-player: %d videos of %d frames played\n", cycles, frames);
   return 0;
}
