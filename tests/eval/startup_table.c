/* startup_table: a spelling checker that loads its dictionary at start.
 *
 * load_dictionary builds a hash table of `words` words (made up from
 * `seed`) before any work is done, and keeps it until exit; then `texts`
 * texts are checked, each in buffers freed when it is done.  The table is
 * freed at exit when free_at_exit=1 (the default), left to the system when
 * 0.  No leak.
 *
 *   startup_table words=N texts=N seed=N free_at_exit=0|1 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

struct word {
   struct word *next;
   unsigned hits;
   char text[];
};

struct dictionary {
   size_t buckets;
   struct word **table;
   size_t count;
};

static unsigned long hash(const char *s)
{
   unsigned long h = 5381;
   while (*s)
      h = h * 33 + (unsigned char)*s++;
   return h;
}

static void make_word(char *out, unsigned length)
{
   for (unsigned i = 0; i < length; i++)
      out[i] = (char)('a' + next_random() % 6);
   out[length] = '\0';
}

static struct dictionary *load_dictionary(long words)
{
   struct dictionary *d = malloc(sizeof *d);
   d->buckets = (size_t)words / 2 + 1;
   d->table = calloc(d->buckets, sizeof *d->table);
   d->count = 0;
   char buffer[32];
   for (long i = 0; i < words; i++) {
      make_word(buffer, 3 + next_random() % 8);
      size_t n = strlen(buffer);
      struct word *w = malloc(sizeof *w + n + 1);
      memcpy(w->text, buffer, n + 1);
      w->hits = 0;
      unsigned long b = hash(buffer) % d->buckets;
      w->next = d->table[b];
      d->table[b] = w;
      d->count++;
   }
   return d;
}

static void free_dictionary(struct dictionary *d)
{
   for (size_t b = 0; b < d->buckets; b++)
      while (d->table[b] != NULL) {
         struct word *w = d->table[b];
         d->table[b] = w->next;
         free(w);
      }
   free(d->table);
   free(d);
}

static int known_word(struct dictionary *d, const char *s)
{
   for (struct word *w = d->table[hash(s) % d->buckets]; w != NULL; w = w->next)
      if (strcmp(w->text, s) == 0) {
         w->hits++;
         return 1;
      }
   return 0;
}

static long check_text(struct dictionary *d, unsigned length)
{
   char *text = malloc(length + 1);
   char **misspelt = malloc(sizeof *misspelt * length);
   long wrong = 0;
   unsigned at = 0;
   while (at + 12 < length) {
      unsigned n = 3 + next_random() % 8;
      make_word(text + at, n);
      if (!known_word(d, text + at))
         misspelt[wrong++] = strdup(text + at);
      at += n + 1;
   }
   for (long i = 0; i < wrong; i++)
      free(misspelt[i]);
   free(misspelt);
   free(text);
   return wrong;
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"words", "texts", "seed", "free_at_exit", NULL};
   opt_check(argc, argv, known);
   long words = opt_long(argc, argv, "words", 20000);
   long texts = opt_long(argc, argv, "texts", 400);
   seed_random(argc, argv, 3);
   int free_at_exit = (int)opt_long(argc, argv, "free_at_exit", 1);

   struct dictionary *d = load_dictionary(words);
   long wrong = 0;
   for (long t = 0; t < texts; t++)
      wrong += check_text(d, 500 + next_random() % 4000);
   fprintf(stderr, "startup_table: %zu words, %ld misspelt\n", d->count, wrong);
   if (free_at_exit)
      free_dictionary(d);
   return 0;
}
