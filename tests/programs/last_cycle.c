// SPDX-License-Identifier: GPL-2.0-or-later
// A textbook leak whose work runs to the end of its last cycle (issue 32,
// item 15): 8 cycles marked "video", each decodes 48 frames through a queue
// of 6 and keeps 4 of them on a list that is freed at exit; nothing is
// allocated after the last cycle, so the horizon falls inside it and its
// frames in flight count as kept.  Exit status 0.
#include <stdlib.h>
#include <string.h>

#include "strata.h"

#define CYCLES 8
#define FRAMES 48
#define QUEUE 6
#define FRAME_BYTES (96 * 1024)

struct frame {
  struct frame *next;
  char pixels[FRAME_BYTES];
};

static struct frame *kept;

__attribute__((noinline)) static struct frame *frame_alloc(int n) {
  struct frame *f = malloc(sizeof *f);  /* the leak */
  if (!f) exit(1);
  memset(f->pixels, n, sizeof f->pixels);
  f->next = NULL;
  return f;
}

__attribute__((noinline)) static void play(void) {
  struct frame *queue[QUEUE] = {0};
  for (int n = 0; n < FRAMES; n++) {
    struct frame *f = frame_alloc(n);
    struct frame *out = queue[n % QUEUE];
    queue[n % QUEUE] = f;
    if (!out) continue;
    if (n % 12 == 0) {  /* 4 of the 48 frames go on the list nothing trims */
      out->next = kept;
      kept = out;
    } else {
      free(out);
    }
  }
  for (int i = 0; i < QUEUE; i++) free(queue[i]);
}

int main(void) {
  for (int c = 0; c < CYCLES; c++) {
    STRATA_MARK("video");
    play();
  }
  while (kept) {  /* the release at exit */
    struct frame *next = kept->next;
    free(kept);
    kept = next;
  }
  return 0;
}
