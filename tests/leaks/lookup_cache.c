/* lookup_cache: a bounded cache of lookups, filled and then turned over.
 *
 * A resolver answers `run` requests; a request whose name is not cached
 * (a miss) computes its answer and stores it in a cache of `cap` entries of
 * 256 to `size` bytes (cache_store).  Misses come at an even pace: the cache
 * is full at `fill` percent of the run, and from then on each miss replaces
 * an entry, `turnover` percent of `cap` replacements in the rest of the run
 * (turnover=100: one turnover, every entry replaced once on average).
 * evict=oldest replaces the oldest entry, evict=random one at random.  With
 * lines=2 cache_store allocates a filling entry on one line and a
 * replacement on another (the bytes move from the first to the second as the
 * cache turns over); with lines=1 both take the same line.  leak=1: a
 * replaced entry is unlinked but never freed (the cache's bug), so every
 * replacement leaves an entry behind.  Background decoys run beside it.
 *
 *   lookup_cache seed=N run=N work=N cap=N size=BYTES fill=PCT turnover=PCT
 *                evict=oldest|random lines=1|2 leak=0|1 teardown=PCT bg=0|1
 *                bg_temp=BYTES */
#include <string.h>

#include "corpus.h"

enum { MAX_CAP = 8192 };

struct answer {
   struct kept link; /* leak=1: a forgotten entry, freed at exit */
   long name;
   char text[];
};

static struct answer *cache[MAX_CAP];
static long cache_len, cache_cap, cache_oldest;
static size_t entry_size;
static int random_evict, two_lines, leak;

static size_t answer_size(void)
{
   return sizeof(struct answer) + (size_t)rng_range(256, (long)entry_size);
}

/* Stores the answer for `name`, in a free slot while the cache fills, else
 * in place of an evicted entry. */
NOINLINE static struct answer *cache_store(long name)
{
   struct answer *a = NULL;
   long slot;
   if (cache_len < cache_cap) {
      slot = cache_len++;
      if (two_lines)
         a = use(malloc(answer_size())); /* lines=2: the fill */
   } else {
      slot = random_evict ? rng_range(0, cache_cap - 1) : cache_oldest;
      cache_oldest = (cache_oldest + 1) % cache_cap;
      if (leak)
         keep(&cache[slot]->link);
      else
         free(cache[slot]);
      if (two_lines)
         a = use(malloc(answer_size())); /* lines=2: the replacement */
   }
   if (!two_lines)
      a = use(malloc(answer_size())); /* lines=1: both */
   a->name = name;
   strcpy(a->text, "answer");
   cache[slot] = a;
   return a;
}

static void cache_release(void)
{
   for (long i = 0; i < cache_len; i++)
      free(cache[i]);
   cache_len = 0;
}

/* The misses due by request r: cap by `fill` percent of the run, then
 * cap * turnover / 100 more by its end. */
static long misses_due(long r, long run, long fill, long turnover)
{
   long full = run * fill / 100;
   if (r < full)
      return cache_cap * (r + 1) / (full > 0 ? full : 1);
   return cache_cap + cache_cap * turnover / 100 * (r + 1 - full) / (run - full);
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 2000), work = arg_long("work", 1500);
   cache_cap = arg_long("cap", 400);
   entry_size = (size_t)arg_long("size", 1024);
   long fill = arg_long("fill", 30), turnover = arg_long("turnover", 100);
   const char *evict = arg_str("evict", "random");
   two_lines = arg_long("lines", 1) == 2;
   leak = (int)arg_long("leak", 0);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   random_evict = strcmp(evict, "random") == 0;
   if ((!random_evict && strcmp(evict, "oldest") != 0) || cache_cap < 1 ||
       cache_cap > MAX_CAP || entry_size < 256 || fill < 1 || fill >= 100)
      return 2;
   at_teardown(cache_release);

   long misses = 0;
   for (long r = 0; r < run; r++) {
      bg_step();
      for (long due = misses_due(r, run, fill, turnover); misses < due; misses++)
         cache_store(r);
      idle_work(work);
   }
   teardown(tear);
   return 0;
}
