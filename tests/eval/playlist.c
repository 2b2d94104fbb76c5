/* playlist: a music player that forgets each track's tags at close.
 *
 * The player plays `tracks` tracks of random length (from `seed`: 20 to 200
 * chunks each, so the cycles are of uneven length).  open_track reads the
 * track's tags (read_tags: a GHashTable of strings and the cover art) and
 * starts a decoder; play_chunk decodes into a ring of buffers; close_track
 * frees the decoder but not the tags (fixed=1 frees them).  mark=1 puts
 * STRATA_MARK("track") at each open.
 *
 *   playlist tracks=N seed=N fixed=0|1 mark=0|1 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "strata.h"

struct track {
   GHashTable *tags;
   guchar *cover;
   gsize cover_size;
   GPtrArray *ring;
   guint chunk;
   guint length;
};

static guint32 rng_state;
static guint32 next_random32(void)
{
   rng_state = rng_state * 1103515245u + 12345u;
   return rng_state >> 8;
}

static void read_tags(struct track *t, guint number)
{
   static const char *const keys[] = {"title", "artist", "album", "genre", "date", "comment"};
   t->tags = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
   for (guint i = 0; i < G_N_ELEMENTS(keys); i++)
      g_hash_table_insert(t->tags, g_strdup(keys[i]),
                          g_strdup_printf("%s of track %u, %u", keys[i], number, next_random32()));
   t->cover_size = 4096 + next_random32() % 12288;
   t->cover = g_malloc(t->cover_size);
   memset(t->cover, (int)number, t->cover_size);
}

static struct track *open_track(guint number)
{
   struct track *t = g_new0(struct track, 1);
   read_tags(t, number);
   t->length = 20 + next_random32() % 181;
   t->ring = g_ptr_array_new_with_free_func(g_free);
   return t;
}

static guint play_chunk(struct track *t)
{
   gsize size = 4608;
   guchar *pcm = g_malloc(size);
   for (gsize i = 0; i < size; i++)
      pcm[i] = (guchar)(t->chunk * 7 + i);
   g_ptr_array_add(t->ring, pcm);
   if (t->ring->len > 8)
      g_ptr_array_remove_index(t->ring, 0);
   t->chunk++;
   return pcm[size / 2];
}

static void free_tags(struct track *t)
{
   g_hash_table_destroy(t->tags);
   g_free(t->cover);
}

static void close_track(struct track *t, int fixed)
{
   g_ptr_array_free(t->ring, TRUE);
   if (fixed)
      free_tags(t);
   g_free(t);
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"tracks", "seed", "fixed", "mark", NULL};
   opt_check(argc, argv, known);
   long tracks = opt_long(argc, argv, "tracks", 30);
   rng_state = (guint32)opt_long(argc, argv, "seed", 1) * 2654435761u;
   int fixed = (int)opt_long(argc, argv, "fixed", 0);
   int mark = (int)opt_long(argc, argv, "mark", 0);

   guint sum = 0;
   for (long n = 0; n < tracks; n++) {
      if (mark)
         STRATA_MARK("track");
      struct track *t = open_track((guint)n);
      while (t->chunk < t->length)
         sum += play_chunk(t);
      close_track(t, fixed);
   }
   fprintf(stderr, "playlist: %ld tracks, sum %u\n", tracks, sum);
   return 0;
}
