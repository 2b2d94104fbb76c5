/* symbols: a metrics daemon whose GHashTable of series keeps growing.
 *
 * The daemon receives `events` metric samples (made up from `seed`), each
 * named by a host and a metric; intern_series looks the series up in a
 * GHashTable and adds it when it is new.  Most names repeat, but each sample
 * carries a request id in its name by mistake, so a new series is added for
 * almost every sample and the table never stops growing (fixed=1 strips the
 * id, so the table holds a few hundred series).  Nothing is removed until
 * exit, where the table is destroyed when free_at_exit=1.
 *
 *   symbols events=N seed=N fixed=0|1 free_at_exit=0|1 */
#include <glib.h>
#include <stdio.h>

#include "args.h"

struct series {
   char *name;
   double sum;
   unsigned long samples;
   double last[8];
};

static guint32 rng_state;
static guint32 next_random32(void)
{
   rng_state = rng_state * 1103515245u + 12345u;
   return rng_state >> 8;
}

static void series_free(gpointer p)
{
   struct series *s = p;
   g_free(s->name);
   g_free(s);
}

static struct series *intern_series(GHashTable *table, const char *name)
{
   struct series *s = g_hash_table_lookup(table, name);
   if (s == NULL) {
      s = g_new0(struct series, 1);
      s->name = g_strdup(name);
      g_hash_table_insert(table, s->name, s);
   }
   return s;
}

static void record_sample(GHashTable *table, guint32 request, int fixed)
{
   guint32 host = next_random32() % 20, metric = next_random32() % 16;
   char *name = fixed ? g_strdup_printf("host%u.metric%u", host, metric)
                      : g_strdup_printf("host%u.metric%u{req=%u}", host, metric, request);
   struct series *s = intern_series(table, name);
   double value = (double)(next_random32() % 1000) / 10.0;
   s->last[s->samples % 8] = value;
   s->sum += value;
   s->samples++;
   g_free(name);
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"events", "seed", "fixed", "free_at_exit", NULL};
   opt_check(argc, argv, known);
   long events = opt_long(argc, argv, "events", 20000);
   rng_state = (guint32)opt_long(argc, argv, "seed", 1) * 2654435761u;
   int fixed = (int)opt_long(argc, argv, "fixed", 0);
   int free_at_exit = (int)opt_long(argc, argv, "free_at_exit", 0);

   GHashTable *table = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, series_free);
   for (long i = 0; i < events; i++) {
      /* Requests repeat a little: a retried request reuses its id. */
      guint32 request = (guint32)(i - (long)(next_random32() % 4));
      record_sample(table, request, fixed);
   }
   fprintf(stderr, "symbols: %ld events, %u series\n", events, g_hash_table_size(table));
   if (free_at_exit)
      g_hash_table_destroy(table);
   return 0;
}
