/* decoys: heaps that grow without leaking; nothing here may be flagged.
 *
 * `run` requests with `work` iterations of idle work each; `shape` is a
 * comma-separated list of what the requests do beside the background decoys:
 *
 *   cache        cache_insert fills a cache of `cap` entries of `size` bytes
 *                between `start` and `fill` percent of the run, then evicts
 *                the oldest entry for each new one: it plateaus (late when
 *                start and fill are late).
 *   walk         ticket_open and ticket_close with equal odds, at most `cap`
 *                tickets of about `size` bytes: a bounded random walk.  With
 *                slots=1 the tickets are listed in an array that
 *                ticket_slots_grow doubles by realloc when it is full and
 *                never shrinks: it follows the walk's high-water mark.
 *   working_set  working_set_add builds `cap` items of `size` bytes between
 *                30% and 50% of the run; they are all freed at 60%.
 *   waves        wave_item_alloc builds waves of 1 to `cap` items of `size`
 *                bytes, each freed whole before the next.
 *   startup      startup_table_load allocates `cap` x `size` bytes once, at
 *                the start, held to the end.
 *   temp         temp_buffer: `size` x 16 bytes (give or take half) taken
 *                and freed in each request.
 *   batch        batch_buffer_grow grows a buffer by realloc (by 25%) for a
 *                batch of `cap` requests, freed at the end of each batch.
 *   table        table_grow doubles an array by realloc as `cap` entries of
 *                `size` bytes are added between `start` and `fill` percent
 *                of the run; then it is full and kept to the end.
 *   pool         pool_burst takes up to `cap` chunks of `size` bytes from a
 *                pool (pool_refill) that keeps its high-water mark.
 *
 *   decoys shape=LIST seed=N run=N work=N size=BYTES cap=N start=PCT
 *          fill=PCT slots=0|1 teardown=PCT bg=0|1 bg_temp=BYTES */
#include <stdio.h>
#include <string.h>

#include "corpus.h"

static long run, cap, start_pct, fill_pct;
static size_t size;

/* ---- cache: fills, then plateaus ---- */

enum { MAX_CAP = 4096 };
static char *cache[MAX_CAP];
static long cache_len, cache_oldest;

NOINLINE static char *cache_insert(void)
{
   return use(malloc(size));
}

static void cache_step(long r)
{
   long first = run * start_pct / 100, full = run * fill_pct / 100;
   if (r < first)
      return;
   /* Entries due by now: cap spread evenly over [first, full). */
   long due = full <= first ? cap : cap * (r - first + 1) / (full - first);
   if (cache_len < cap && cache_len < due) {
      while (cache_len < cap && cache_len < due)
         cache[cache_len++] = cache_insert();
   } else if (cache_len == cap && r >= full) {
      free(cache[cache_oldest]);
      cache[cache_oldest] = cache_insert();
      cache_oldest = (cache_oldest + 1) % cap;
   }
}

static void cache_release(void)
{
   for (long i = 0; i < cache_len; i++)
      free(cache[i]);
}

/* ---- walk: a bounded random walk ---- */

static char *ticket_array[MAX_CAP];
static char **tickets = ticket_array;
static long n_tickets, n_slots = MAX_CAP, slots;

/* slots=1: the list of tickets doubles when it is full. */
NOINLINE static char **ticket_slots_grow(void)
{
   n_slots = n_slots < 8 ? 8 : 2 * n_slots;
   char **grown = realloc(tickets == ticket_array ? NULL : tickets, (size_t)n_slots * sizeof *grown);
   if (grown == NULL)
      abort();
   return grown;  /* not use(): its touch would overwrite the first ticket's pointer */
}

NOINLINE static char *ticket_open(void)
{
   return use(malloc((size_t)rng_range((long)size / 2, (long)size * 3 / 2)));
}

NOINLINE static void ticket_close(long i)
{
   free(tickets[i]);
   tickets[i] = tickets[--n_tickets];
}

static void walk_step(void)
{
   if ((rng_next() & 1) ? n_tickets < cap : n_tickets == 0) {
      if (n_tickets == n_slots)
         tickets = ticket_slots_grow();
      tickets[n_tickets++] = ticket_open();
   }
   else
      ticket_close(rng_range(0, n_tickets - 1));
}

static void walk_release(void)
{
   while (n_tickets > 0)
      ticket_close(n_tickets - 1);
   if (tickets != ticket_array)
      free(tickets);
   tickets = ticket_array;
}

/* ---- working set: built up and released mid-run ---- */

static char *working[MAX_CAP];
static long n_working;

NOINLINE static char *working_set_add(void)
{
   return use(malloc(size));
}

static void working_set_step(long r)
{
   long from = run * 30 / 100, to = run * 50 / 100, drop = run * 60 / 100;
   if (r >= from && r < to && n_working < cap) {
      long due = cap * (r - from + 1) / (to - from);
      while (n_working < due && n_working < cap)
         working[n_working++] = working_set_add();
   }
   if (r == drop)
      while (n_working > 0)
         free(working[--n_working]);
}

static void working_set_release(void)
{
   while (n_working > 0)
      free(working[--n_working]);
}

/* ---- waves of different heights ---- */

static char *wave[MAX_CAP];
static long wave_len, wave_height;

NOINLINE static char *wave_item_alloc(void)
{
   return use(malloc(size));
}

static void waves_step(void)
{
   if (wave_height == 0)
      wave_height = rng_range(1, cap);
   wave[wave_len++] = wave_item_alloc();
   if (wave_len >= wave_height) {
      while (wave_len > 0)
         free(wave[--wave_len]);
      wave_height = 0;
   }
}

static void waves_release(void)
{
   while (wave_len > 0)
      free(wave[--wave_len]);
}

/* ---- start-up allocation ---- */

static char *startup_table;

NOINLINE static char *startup_table_load(void)
{
   return use(malloc((size_t)cap * size));
}

static void startup_release(void)
{
   free(startup_table);
}

/* ---- temporary buffers ---- */

NOINLINE static char *temp_buffer(void)
{
   return use(malloc((size_t)rng_range((long)size * 8, (long)size * 24)));
}

/* ---- per-batch buffer grown by realloc ---- */

static char *batch_buf;
static size_t batch_used, batch_cap;

NOINLINE static void batch_buffer_grow(size_t need)
{
   size_t n = grown_by(batch_cap, 1024, need, 25);
   batch_buf = use(realloc(batch_buf, n));
   batch_cap = n;
}

static void batch_step(long r)
{
   batch_used += size / 2 + (size_t)rng_range(0, (long)size);
   if (batch_used > batch_cap)
      batch_buffer_grow(batch_used);
   if ((r + 1) % cap == 0) {
      free(batch_buf);
      batch_buf = NULL;
      batch_used = batch_cap = 0;
   }
}

/* ---- table: grown by doubling, then full ---- */

static char *table;
static long table_len, table_cap;

NOINLINE static void table_grow(void)
{
   table_cap = table_cap == 0 ? 4 : 2 * table_cap;
   table = use(realloc(table, (size_t)table_cap * size));
}

static void table_step(long r)
{
   long first = run * start_pct / 100, full = run * fill_pct / 100;
   long due = full <= first ? cap : cap * (r - first + 1) / (full - first);
   for (; r >= first && table_len < cap && table_len < due; table_len++) {
      if (table_len == table_cap)
         table_grow();
      memset(table + table_len * size, 1, 1);
   }
}

static void table_release(void)
{
   free(table);
}

static void batch_release(void)
{
   free(batch_buf);
}

/* ---- the requests ---- */

static const char *const shapes[] = {"cache", "walk", "working_set", "waves",
                                     "startup", "temp", "batch", "table", "pool"};

static int has_shape(const char *list, const char *name)
{
   size_t len = strlen(name);
   for (const char *p = list; (p = strstr(p, name)) != NULL; p += len) {
      if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
         return 1;
   }
   return 0;
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   const char *shape = arg_str("shape", "cache");
   run = arg_long("run", 600);
   long work = arg_long("work", 2000);
   size = (size_t)arg_long("size", 1024);
   cap = arg_long("cap", 200);
   start_pct = arg_long("start", 0);
   fill_pct = arg_long("fill", 30);
   long tear = arg_long("teardown", 5);
   slots = arg_long("slots", 0);
   if (slots)
      n_slots = 0;
   bg_init();
   args_done();
   if (cap < 1 || cap > MAX_CAP || size < 16)
      return 2;
   for (const char *p = shape; *p != '\0'; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
      size_t len = strcspn(p, ",");
      int known = 0;
      for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
         known |= strlen(shapes[i]) == len && strncmp(p, shapes[i], len) == 0;
      if (!known) {
         fprintf(stderr, "unknown shape in %s\n", shape);
         return 2;
      }
   }
   at_teardown(cache_release);
   at_teardown(walk_release);
   at_teardown(working_set_release);
   at_teardown(waves_release);
   at_teardown(startup_release);
   at_teardown(batch_release);
   at_teardown(table_release);

   if (has_shape(shape, "startup"))
      startup_table = startup_table_load();
   for (long r = 0; r < run; r++) {
      bg_step();
      if (has_shape(shape, "cache"))
         cache_step(r);
      if (has_shape(shape, "walk"))
         walk_step();
      if (has_shape(shape, "working_set"))
         working_set_step(r);
      if (has_shape(shape, "waves"))
         waves_step();
      if (has_shape(shape, "temp"))
         free(temp_buffer());
      if (has_shape(shape, "batch"))
         batch_step(r);
      if (has_shape(shape, "table"))
         table_step(r);
      if (has_shape(shape, "pool"))
         pool_burst((int)cap, size);
      idle_work(work);
   }
   teardown(tear);
   return 0;
}
