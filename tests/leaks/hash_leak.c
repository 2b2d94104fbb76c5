/* hash_leak: a leaking hash table, its entries and its bucket arrays.
 *
 * An interpreter interns the names it meets in a chained hash table: an
 * entry of 48 bytes and the name's text (symbol_intern), in buckets kept in
 * an array that buckets_grow doubles by realloc (and rehashes in place) when
 * the table holds more entries than buckets.  It runs `run` statements of
 * `work` iterations of idle work; each interns a few of `vocab` keywords
 * (found after the first time) and `names` temporary names of its own
 * (`t<statement>.<k>`), which it releases at its end (symbol_release).  The
 * bug, leak=1: the last temporary name of a statement is never released, so
 * the table grows all through the run, and its bucket array doubles with
 * it.  leak=0: the table holds the keywords and the names of one statement.  Background decoys run
 * beside it.
 *
 *   hash_leak seed=N run=N work=N names=N vocab=N teardown=PCT leak=0|1
 *             bg=0|1 bg_temp=BYTES */
#include <stdio.h>
#include <string.h>

#include "corpus.h"

struct symbol {
   struct symbol *next; /* in its bucket */
   unsigned long hash;
   long uses;
   char name[];
};

static struct symbol **buckets;
static unsigned long n_buckets, n_symbols;

static unsigned long hash_name(const char *name)
{
   unsigned long h = 5381;
   for (; *name != '\0'; name++)
      h = h * 33 + (unsigned char)*name;
   return h;
}

/* Doubles the bucket array and moves every entry to its new bucket. */
NOINLINE static void buckets_grow(void)
{
   unsigned long old = n_buckets, grown = old == 0 ? 16 : 2 * old;
   struct symbol **array = realloc(buckets, grown * sizeof *buckets);
   if (array == NULL)
      abort();
   buckets = array;
   memset(buckets + old, 0, (grown - old) * sizeof *buckets);
   n_buckets = grown;
   for (unsigned long b = 0; b < old; b++) {
      struct symbol **link = &buckets[b];
      while (*link != NULL) {
         struct symbol *s = *link;
         if (s->hash % grown == b) {
            link = &s->next;
            continue;
         }
         *link = s->next;
         s->next = buckets[s->hash % grown];
         buckets[s->hash % grown] = s;
      }
   }
}

NOINLINE static struct symbol *symbol_intern(const char *name)
{
   unsigned long h = hash_name(name);
   if (n_buckets > 0) {
      for (struct symbol *s = buckets[h % n_buckets]; s != NULL; s = s->next) {
         if (s->hash == h && strcmp(s->name, name) == 0) {
            s->uses++;
            return s;
         }
      }
   }
   if (n_symbols >= n_buckets)
      buckets_grow();
   size_t len = strlen(name) + 1;
   struct symbol *s = use(malloc(sizeof *s + (len < 24 ? 24 : len)));
   memcpy(s->name, name, len);
   s->hash = h;
   s->uses = 1;
   s->next = buckets[h % n_buckets];
   buckets[h % n_buckets] = s;
   n_symbols++;
   return s;
}

/* Drops one use of the symbol; the last one takes it out of the table. */
static void symbol_release(struct symbol *gone)
{
   if (--gone->uses > 0)
      return;
   for (struct symbol **link = &buckets[gone->hash % n_buckets]; *link != NULL;
        link = &(*link)->next) {
      if (*link == gone) {
         *link = gone->next;
         free(gone);
         n_symbols--;
         return;
      }
   }
   abort();
}

static void table_release(void)
{
   for (unsigned long b = 0; b < n_buckets; b++) {
      while (buckets[b] != NULL) {
         struct symbol *next = buckets[b]->next;
         free(buckets[b]);
         buckets[b] = next;
      }
   }
   free(buckets);
   buckets = NULL;
   n_buckets = n_symbols = 0;
}

enum { MAX_NAMES = 16 };

/* Interns what a statement names, and releases its temporary names at its
 * end: all but the last with the bug (`leak`). */
static void statement_run(long statement, long names, long vocab, int leak)
{
   char name[48];
   struct symbol *temps[MAX_NAMES];
   for (long k = 0; k < 3; k++) {
      snprintf(name, sizeof name, "keyword_%ld", rng_range(0, vocab - 1));
      symbol_intern(name);
   }
   for (long k = 0; k < names; k++) {
      snprintf(name, sizeof name, "t%ld.%ld", statement, k);
      temps[k] = symbol_intern(name);
   }
   for (long k = 0; k < names - leak; k++)
      symbol_release(temps[k]);
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 1500), work = arg_long("work", 1500);
   long names = arg_long("names", 4), vocab = arg_long("vocab", 200);
   long leak = arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   if (names < 1 || names > MAX_NAMES || vocab < 1)
      return 2;
   at_teardown(table_release);

   for (long s = 0; s < run; s++) {
      bg_step();
      statement_run(s, names, vocab, leak != 0);
      idle_work(work);
   }
   teardown(tear);
   return 0;
}
