/* batches: a log indexer that works in batches, with two threads.
 *
 * A reader thread fills a batch of records (a line buffer grown by realloc,
 * a record array), hands it to the indexer (the main thread), which builds
 * the batch's index in buffers of its own, writes a summary and frees the
 * whole batch before the next one.  `batches` batches of random sizes (from
 * `seed`).  No leak: nothing survives its batch.
 *
 *   batches batches=N seed=N */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

struct batch {
   char *text;
   size_t length, capacity;
   size_t *starts;
   long records;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct batch *ready;
static long wanted;

static void append_line(struct batch *b, const char *line)
{
   size_t n = strlen(line) + 1;
   if (b->length + n > b->capacity) {
      b->capacity = b->capacity ? b->capacity * 2 : 1024;
      b->text = realloc(b->text, b->capacity);
   }
   memcpy(b->text + b->length, line, n);
   b->length += n;
}

static struct batch *read_batch(void)
{
   struct batch *b = calloc(1, sizeof *b);
   b->records = 200 + next_random() % 1800;
   b->starts = malloc(sizeof *b->starts * (size_t)b->records);
   char line[128];
   for (long i = 0; i < b->records; i++) {
      b->starts[i] = b->length;
      snprintf(line, sizeof line, "%08x GET /item/%u status=%u bytes=%u", next_random(),
               next_random() % 5000, 200 + next_random() % 4, next_random() % 100000);
      append_line(b, line);
   }
   return b;
}

static void *reader_main(void *arg)
{
   (void)arg;
   for (;;) {
      pthread_mutex_lock(&lock);
      while (ready != NULL && wanted > 0)
         pthread_cond_wait(&changed, &lock);
      if (wanted == 0) {
         pthread_mutex_unlock(&lock);
         return NULL;
      }
      pthread_mutex_unlock(&lock);
      struct batch *b = read_batch();
      pthread_mutex_lock(&lock);
      ready = b;
      wanted--;
      pthread_cond_broadcast(&changed);
      pthread_mutex_unlock(&lock);
   }
}

static struct batch *next_batch(void)
{
   pthread_mutex_lock(&lock);
   while (ready == NULL)
      pthread_cond_wait(&changed, &lock);
   struct batch *b = ready;
   ready = NULL;
   pthread_cond_broadcast(&changed);
   pthread_mutex_unlock(&lock);
   return b;
}

static unsigned long index_batch(const struct batch *b)
{
   size_t buckets = (size_t)b->records * 2;
   long *heads = malloc(sizeof *heads * buckets);
   long *chain = malloc(sizeof *chain * (size_t)b->records);
   for (size_t i = 0; i < buckets; i++)
      heads[i] = -1;
   unsigned long collisions = 0;
   for (long i = 0; i < b->records; i++) {
      const char *item = strstr(b->text + b->starts[i], "/item/");
      size_t h = (size_t)strtoul(item + 6, NULL, 10) % buckets;
      collisions += heads[h] >= 0;
      chain[i] = heads[h];
      heads[h] = i;
   }
   free(chain);
   free(heads);
   return collisions;
}

static void free_batch(struct batch *b)
{
   free(b->text);
   free(b->starts);
   free(b);
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"batches", "seed", NULL};
   opt_check(argc, argv, known);
   long batches = opt_long(argc, argv, "batches", 60);
   seed_random(argc, argv, 11);
   wanted = batches;

   pthread_t reader;
   pthread_create(&reader, NULL, reader_main, NULL);
   unsigned long collisions = 0;
   for (long i = 0; i < batches; i++) {
      struct batch *b = next_batch();
      collisions += index_batch(b);
      free_batch(b);
   }
   pthread_join(reader, NULL);
   fprintf(stderr, "batches: %ld batches, %lu collisions\n", batches, collisions);
   return 0;
}
