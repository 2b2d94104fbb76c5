/* records: a leak of structures of many objects.
 *
 * A store loads `run` updates, with `work` iterations of idle work each.  An
 * update parses a record: a header (record_parse), its name, copied by
 * name_copy, an array of 8 to `items` items of 32 bytes each (items_parse)
 * and a list of up to 4 tags of 24 to 64 bytes (tag_add): four allocating
 * functions, one structure.  The record replaces the one of its key (one of
 * `keys`); the bug, leak=1: the replaced record is unlinked from the store
 * but never freed (store_put: it is only listed, for the teardown at exit),
 * so each update leaves a whole structure behind.  leak=0 frees it.
 * Background decoys run beside it.
 *
 *   records seed=N run=N work=N keys=N items=N leak=0|1 teardown=PCT bg=0|1
 *           bg_temp=BYTES */
#include <stdio.h>
#include <string.h>

#include "corpus.h"

struct item {
   long value;
   char unit[24];
};

struct tag {
   struct tag *next;
   char text[];
};

struct record {
   struct record *forgotten; /* leak=1: the records replaced before it */
   long key;
   char *name;
   struct item *items;
   long n_items;
   struct tag *tags;
};

enum { MAX_KEYS = 4096 };
static struct record *store[MAX_KEYS];
static long n_keys;
static struct record *forgotten; /* leak=1: every replaced record */

NOINLINE static char *name_copy(const char *name)
{
   size_t len = strlen(name) + 1;
   return memcpy(use(malloc(len)), name, len);
}

NOINLINE static struct item *items_parse(long n)
{
   struct item *items = use(malloc((size_t)n * sizeof *items));
   for (long i = 0; i < n; i++) {
      items[i].value = rng_range(0, 1000);
      strcpy(items[i].unit, "ms");
   }
   return items;
}

NOINLINE static void tag_add(struct record *r, long number)
{
   struct tag *t = use(malloc(sizeof *t + (size_t)rng_range(16, 56)));
   snprintf(t->text, 16, "tag%ld", number);
   t->next = r->tags;
   r->tags = t;
}

NOINLINE static struct record *record_parse(long key, long most_items)
{
   char name[64];
   struct record *r = use(malloc(sizeof *r));
   r->key = key;
   snprintf(name, sizeof name, "record-%ld-%ld", key, rng_range(0, 1L << 30));
   r->name = name_copy(name);
   r->n_items = rng_range(8, most_items);
   r->items = items_parse(r->n_items);
   r->tags = NULL;
   for (long t = rng_range(1, 4); t > 0; t--)
      tag_add(r, t);
   return r;
}

static void record_free(struct record *r)
{
   while (r->tags != NULL) {
      struct tag *next = r->tags->next;
      free(r->tags);
      r->tags = next;
   }
   free(r->items);
   free(r->name);
   free(r);
}

/* Puts the record in place of the one with its key: a forgotten structure
 * with the bug. */
static void store_put(struct record *r, int leak)
{
   struct record *old = store[r->key];
   store[r->key] = r;
   if (old == NULL)
      return;
   if (leak) {
      old->forgotten = forgotten;
      forgotten = old;
   } else {
      record_free(old);
   }
}

static void store_release(void)
{
   for (long k = 0; k < n_keys; k++) {
      if (store[k] != NULL)
         record_free(store[k]);
      store[k] = NULL;
   }
   while (forgotten != NULL) {
      struct record *next = forgotten->forgotten;
      record_free(forgotten);
      forgotten = next;
   }
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 1200), work = arg_long("work", 2500);
   n_keys = arg_long("keys", 50);
   long items = arg_long("items", 40);
   int leak = (int)arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   if (n_keys < 1 || n_keys > MAX_KEYS || items < 8)
      return 2;
   at_teardown(store_release);

   for (long u = 0; u < run; u++) {
      bg_step();
      store_put(record_parse(rng_range(0, n_keys - 1), items), leak);
      idle_work(work);
   }
   teardown(tear);
   return 0;
}
