/* player: a video player on GStreamer whose render queue forgets its frames.
 *
 * The story of the project's seed, for real.  The player opens `opens`
 * videos in turn from a playlist of 8 (videotestsrc into an appsink: 8
 * patterns, 8 lengths and 3 frame sizes; alike=1 makes all 8 the same),
 * plays each to its end and closes it.  Frames pulled from the appsink go
 * into the player's own render queue, which the render step drains down to 3
 * frames.  At close the queue is cleared:
 *
 *   mode=leak   without unreffing its frames: each video leaves its last
 *               frames behind, and they keep the video's buffer pool alive;
 *   mode=exit   the frames are moved to a list of retired frames that only
 *               player_free unrefs, at exit (memcheck and heaptrack see no
 *               leak);
 *   mode=fixed  the frames are unreffed.
 *
 * mark=1 puts STRATA_MARK("open") at each open.  Run it as the seed did:
 * G_SLICE=always-malloc, --depth=30.
 *
 *   player opens=N mode=leak|exit|fixed mark=0|1 alike=0|1 */
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "strata.h"

struct video {
   int pattern;
   int frames;
   int width, height;
};

struct player {
   GQueue render_queue; /* GstBuffer*, oldest first */
   GQueue retired;      /* mode=exit: frames set aside at close */
   GstElement *pipeline;
   GstAppSink *sink;
   guint64 drawn;
   guint checksum;
};

enum close_mode { CLOSE_LEAK, CLOSE_AT_EXIT, CLOSE_FIXED };

static const struct video playlist[8] = {
   {0, 40, 320, 240},  {1, 24, 320, 240}, {18, 56, 256, 192}, {8, 32, 320, 240},
   {12, 48, 352, 288}, {4, 28, 256, 192}, {13, 64, 320, 240}, {10, 36, 352, 288},
};

static struct player *player_new(void)
{
   struct player *p = g_new0(struct player, 1);
   g_queue_init(&p->render_queue);
   g_queue_init(&p->retired);
   return p;
}

static gboolean player_open(struct player *p, const struct video *v)
{
   char *description = g_strdup_printf(
      "videotestsrc pattern=%d num-buffers=%d ! "
      "video/x-raw,format=RGBx,width=%d,height=%d,framerate=30/1 ! "
      "appsink name=sink sync=false max-buffers=4",
      v->pattern, v->frames, v->width, v->height);
   GError *error = NULL;
   p->pipeline = gst_parse_launch(description, &error);
   g_free(description);
   if (p->pipeline == NULL) {
      fprintf(stderr, "player: %s\n", error->message);
      g_error_free(error);
      return FALSE;
   }
   p->sink = GST_APP_SINK(gst_bin_get_by_name(GST_BIN(p->pipeline), "sink"));
   gst_element_set_state(p->pipeline, GST_STATE_PLAYING);
   return TRUE;
}

/* The renderer: draws the oldest frames until 3 are left queued. */
static void render_step(struct player *p)
{
   while (g_queue_get_length(&p->render_queue) > 3) {
      GstBuffer *frame = g_queue_pop_head(&p->render_queue);
      GstMapInfo map;
      if (gst_buffer_map(frame, &map, GST_MAP_READ)) {
         p->checksum += map.data[map.size / 2];
         gst_buffer_unmap(frame, &map);
      }
      p->drawn++;
      gst_buffer_unref(frame);
   }
}

static void player_play(struct player *p)
{
   GstSample *sample;
   while ((sample = gst_app_sink_pull_sample(p->sink)) != NULL) {
      g_queue_push_tail(&p->render_queue, gst_buffer_ref(gst_sample_get_buffer(sample)));
      gst_sample_unref(sample);
      render_step(p);
   }
}

static void player_close(struct player *p, enum close_mode mode)
{
   gst_element_set_state(p->pipeline, GST_STATE_NULL);
   gst_object_unref(p->sink);
   gst_object_unref(p->pipeline);
   p->pipeline = NULL;
   GstBuffer *frame;
   switch (mode) {
   case CLOSE_LEAK: /* the bug: the frames are forgotten */
      g_queue_clear(&p->render_queue);
      break;
   case CLOSE_AT_EXIT:
      while ((frame = g_queue_pop_head(&p->render_queue)) != NULL)
         g_queue_push_tail(&p->retired, frame);
      break;
   case CLOSE_FIXED:
      while ((frame = g_queue_pop_head(&p->render_queue)) != NULL)
         gst_buffer_unref(frame);
      break;
   }
}

static void player_free(struct player *p)
{
   GstBuffer *frame;
   while ((frame = g_queue_pop_head(&p->retired)) != NULL)
      gst_buffer_unref(frame);
   g_free(p);
}

static enum close_mode mode_named(const char *name)
{
   if (strcmp(name, "leak") == 0)
      return CLOSE_LEAK;
   if (strcmp(name, "exit") == 0)
      return CLOSE_AT_EXIT;
   if (strcmp(name, "fixed") == 0)
      return CLOSE_FIXED;
   fprintf(stderr, "player: mode is leak, exit or fixed, not %s\n", name);
   exit(2);
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"opens", "mode", "mark", "alike", NULL};
   opt_check(argc, argv, known);
   long opens = opt_long(argc, argv, "opens", 16);
   const char *mode_word = "leak";
   for (int i = 1; i < argc; i++)
      if (strncmp(argv[i], "mode=", 5) == 0)
         mode_word = argv[i] + 5;
   enum close_mode mode = mode_named(mode_word);
   int mark = (int)opt_long(argc, argv, "mark", 0);
   int alike = (int)opt_long(argc, argv, "alike", 0);

   gst_init(NULL, NULL);
   struct player *p = player_new();
   for (long n = 0; n < opens; n++) {
      const struct video *v = &playlist[alike ? 0 : n % 8];
      if (mark)
         STRATA_MARK("open");
      if (!player_open(p, v))
         return 1;
      player_play(p);
      player_close(p, mode);
   }
   fprintf(stderr, "player: %ld videos, %" G_GUINT64_FORMAT " frames drawn, %u retired\n",
           opens, p->drawn, g_queue_get_length(&p->retired));
   player_free(p);
   gst_deinit();
   return 0;
}
