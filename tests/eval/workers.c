/* workers: a thumbnail service with four worker threads, one of which leaks.
 *
 * The main thread queues `rounds` rounds of `jobs` jobs (images of random
 * size, from `seed`); the jobs are dealt to four workers in turn, who scale
 * each image into a thumbnail and hand it back; the main thread frees the
 * thumbnails at the end of each round.  Worker 3 also audits its jobs:
 * audit_note keeps a record a job on the worker's own list, which nobody
 * ever frees (fixed=1: the worker frees its list at the end of each round).
 *
 *   workers rounds=N jobs=N seed=N fixed=0|1 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

#define WORKERS 4

struct job {
   struct job *next;
   unsigned id;
   unsigned width, height;
   unsigned char *pixels;
   unsigned char *thumb;
};

struct audit {
   struct audit *next;
   unsigned job;
   unsigned histogram[256];
   char note[200];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t work_done = PTHREAD_COND_INITIALIZER;
static struct job *todo[WORKERS]; /* each worker's own queue */
static struct job *done;
static long pending;
static int stopping;
static int fixed;
static long round_number;
static long audited;

static struct job *take_job(long self)
{
   pthread_mutex_lock(&lock);
   while (todo[self] == NULL && !stopping)
      pthread_cond_wait(&work_ready, &lock);
   struct job *j = todo[self];
   if (j != NULL)
      todo[self] = j->next;
   pthread_mutex_unlock(&lock);
   return j;
}

static void finish_job(struct job *j)
{
   pthread_mutex_lock(&lock);
   j->next = done;
   done = j;
   if (--pending == 0)
      pthread_cond_signal(&work_done);
   pthread_mutex_unlock(&lock);
}

static void scale_down(struct job *j)
{
   unsigned tw = j->width / 4, th = j->height / 4;
   j->thumb = malloc((size_t)tw * th);
   for (unsigned y = 0; y < th; y++)
      for (unsigned x = 0; x < tw; x++)
         j->thumb[y * tw + x] = j->pixels[(y * 4) * j->width + x * 4];
}

/* The leak: worker 3 keeps a note of every job it does. */
static struct audit *audit_note(struct audit *list, const struct job *j)
{
   struct audit *a = malloc(sizeof *a);
   a->job = j->id;
   memset(a->histogram, 0, sizeof a->histogram);
   for (unsigned i = 0; i < (j->width / 4) * (j->height / 4); i++)
      a->histogram[j->thumb[i]]++;
   snprintf(a->note, sizeof a->note, "job %u scaled %ux%u in round %ld", j->id, j->width,
            j->height, round_number);
   a->next = list;
   return a;
}

static void *worker_main(void *arg)
{
   long self = (long)(intptr_t)arg;
   struct audit *trail = NULL;
   long seen_round = 0;
   for (;;) {
      struct job *j = take_job(self);
      if (j == NULL)
         break;
      if (fixed && self == 3 && seen_round != round_number) {
         while (trail != NULL) {
            struct audit *next = trail->next;
            free(trail);
            trail = next;
         }
         seen_round = round_number;
      }
      scale_down(j);
      if (self == 3) {
         trail = audit_note(trail, j);
         __atomic_add_fetch(&audited, 1, __ATOMIC_RELAXED);
      }
      finish_job(j);
   }
   if (fixed)
      while (trail != NULL) {
         struct audit *next = trail->next;
         free(trail);
         trail = next;
      }
   return NULL;
}

static void queue_round(long jobs)
{
   pthread_mutex_lock(&lock);
   for (long i = 0; i < jobs; i++) {
      struct job *j = calloc(1, sizeof *j);
      j->id = (unsigned)(round_number * 1000 + i);
      j->width = 64 + 16 * (next_random() % 8);
      j->height = 64 + 16 * (next_random() % 8);
      j->pixels = malloc((size_t)j->width * j->height);
      memset(j->pixels, (int)i, (size_t)j->width * j->height);
      j->next = todo[i % WORKERS];
      todo[i % WORKERS] = j;
      pending++;
   }
   pthread_cond_broadcast(&work_ready);
   while (pending > 0)
      pthread_cond_wait(&work_done, &lock);
   pthread_mutex_unlock(&lock);
}

static unsigned long collect_round(void)
{
   unsigned long sum = 0;
   pthread_mutex_lock(&lock);
   while (done != NULL) {
      struct job *j = done;
      done = j->next;
      sum += j->thumb[0];
      free(j->thumb);
      free(j->pixels);
      free(j);
   }
   pthread_mutex_unlock(&lock);
   return sum;
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"rounds", "jobs", "seed", "fixed", NULL};
   opt_check(argc, argv, known);
   long rounds = opt_long(argc, argv, "rounds", 12);
   long jobs = opt_long(argc, argv, "jobs", 40);
   seed_random(argc, argv, 7);
   fixed = (int)opt_long(argc, argv, "fixed", 0);

   pthread_t threads[WORKERS];
   for (long i = 0; i < WORKERS; i++)
      pthread_create(&threads[i], NULL, worker_main, (void *)(intptr_t)i);
   unsigned long sum = 0;
   for (round_number = 1; round_number <= rounds; round_number++) {
      queue_round(jobs);
      sum += collect_round();
   }
   pthread_mutex_lock(&lock);
   stopping = 1;
   pthread_cond_broadcast(&work_ready);
   pthread_mutex_unlock(&lock);
   for (int i = 0; i < WORKERS; i++)
      pthread_join(threads[i], NULL);
   fprintf(stderr, "workers: %ld rounds, %ld audited, sum %lu\n", rounds, audited, sum);
   return 0;
}
