/* corpus.c: parameters, idle work, the teardown at exit and the background
 * decoys shared by the generators of tests/leaks (see corpus.h). */
#include <stdio.h>
#include <string.h>

#include "corpus.h"

/* ---- parameters ------------------------------------------------------- */

enum { MAX_ARGS = 32 };

static int n_args;
static char **args;
static int arg_used[MAX_ARGS];

void args_init(int argc, char **argv)
{
   n_args = argc - 1;
   args = argv + 1;
   if (n_args > MAX_ARGS) {
      fprintf(stderr, "%s: at most %d parameters\n", argv[0], MAX_ARGS);
      exit(2);
   }
}

/* The value of NAME=VALUE, or NULL. */
static const char *find_arg(const char *name)
{
   size_t len = strlen(name);
   for (int i = 0; i < n_args; i++) {
      if (strncmp(args[i], name, len) == 0 && args[i][len] == '=') {
         arg_used[i] = 1;
         return args[i] + len + 1;
      }
   }
   return NULL;
}

long arg_long(const char *name, long fallback)
{
   const char *value = find_arg(name);
   char *end;
   if (value == NULL)
      return fallback;
   long n = strtol(value, &end, 10);
   if (*value == '\0' || *end != '\0') {
      fprintf(stderr, "parameter %s: not a number: %s\n", name, value);
      exit(2);
   }
   return n;
}

const char *arg_str(const char *name, const char *fallback)
{
   const char *value = find_arg(name);
   return value == NULL ? fallback : value;
}

void args_done(void)
{
   for (int i = 0; i < n_args; i++) {
      if (!arg_used[i]) {
         fprintf(stderr, "unknown parameter: %s\n", args[i]);
         exit(2);
      }
   }
}

/* ---- time and randomness ---------------------------------------------- */

static volatile unsigned long idle_sink;
static long idle_iterations;
static unsigned long rng_state = 88172645463325252UL;

void idle_work(long iterations)
{
   unsigned long acc = idle_sink;
   for (long i = 0; i < iterations; i++)
      acc = acc * 6364136223846793005UL + 1442695040888963407UL;
   idle_sink = acc;
   idle_iterations += iterations > 0 ? iterations : 0;
}

long idle_total(void)
{
   return idle_iterations;
}

void rng_seed(unsigned long seed)
{
   rng_state = seed * 2654435761UL + 88172645463325252UL;
   if (rng_state == 0)
      rng_state = 1;
}

unsigned long rng_next(void) /* xorshift64* */
{
   rng_state ^= rng_state >> 12;
   rng_state ^= rng_state << 25;
   rng_state ^= rng_state >> 27;
   return rng_state * 2685821657736338717UL;
}

long rng_range(long lo, long hi)
{
   return lo + (long)((rng_next() >> 11) % (unsigned long)(hi - lo + 1));
}

size_t grown_by(size_t size, size_t first, size_t need, long pct)
{
   size_t n = size == 0 ? first : size;
   while (n < need)
      n += n * (size_t)pct / 100 + 1;
   return n;
}

static void *volatile use_sink;

void *use(void *p)
{
   if (p == NULL) {
      fprintf(stderr, "out of memory\n");
      exit(3);
   }
   *(volatile char *)p = 1;
   use_sink = p;
   return p;
}

/* ---- what is kept until exit ------------------------------------------ */

enum { MAX_RELEASES = 16 };

static struct kept *kept_list; /* every kept block, newest first */
static long kept_count;
static void (*releases[MAX_RELEASES])(void);
static int n_releases;

void keep(struct kept *k)
{
   k->next = kept_list;
   kept_list = k;
   kept_count++;
}

void at_teardown(void (*release)(void))
{
   if (n_releases == MAX_RELEASES)
      abort();
   releases[n_releases++] = release;
}

/* Frees everything kept, spending on it PCT percent of the whole run: the
 * idle work so far is (100 - PCT) percent of it. */
void teardown(long pct)
{
   long total = pct <= 0 || pct >= 100 ? 0 : idle_total() * pct / (100 - pct);
   long slice = total / (kept_count + n_releases + 1);
   while (kept_list != NULL) {
      struct kept *next = kept_list->next;
      free(kept_list);
      kept_list = next;
      idle_work(slice);
   }
   for (int i = 0; i < n_releases; i++) {
      releases[i]();
      idle_work(slice);
   }
   idle_work(slice);
}

/* ---- background decoys ------------------------------------------------ */

/* Temporary buffers: taken and given back within one request. */
NOINLINE void *scratch_take(size_t bytes)
{
   return use(malloc(bytes));
}

/* Sessions opened and closed with equal odds, at most `cap` open: a
 * bounded random walk. */
enum { SESSION_SLOTS = 256 };
static char *sessions[SESSION_SLOTS];
static int n_sessions;

NOINLINE static char *session_open(void)
{
   return use(malloc((size_t)rng_range(512, 2048)));
}

NOINLINE static void session_close(int i)
{
   free(sessions[i]);
   sessions[i] = sessions[--n_sessions];
}

void session_walk_step(int cap)
{
   if (cap > SESSION_SLOTS)
      cap = SESSION_SLOTS;
   if ((rng_next() & 1) ? n_sessions < cap : n_sessions == 0)
      sessions[n_sessions++] = session_open();
   else
      session_close((int)rng_range(0, n_sessions - 1));
}

static void sessions_release(void)
{
   while (n_sessions > 0)
      session_close(n_sessions - 1);
}

/* A pool of chunks that keeps its high-water mark: a burst takes up to
 * `most` chunks and gives them all back; the pool mallocs only when its
 * free list is empty, and never gives memory back before exit. */
struct chunk {
   struct chunk *next;
};
static struct chunk *pool_free;

NOINLINE static struct chunk *pool_refill(size_t bytes)
{
   return use(malloc(bytes < sizeof(struct chunk) ? sizeof(struct chunk) : bytes));
}

void pool_burst(int most, size_t bytes)
{
   struct chunk *taken = NULL;
   for (long k = rng_range(1, most); k > 0; k--) {
      struct chunk *c = pool_free != NULL ? pool_free : pool_refill(bytes);
      if (c == pool_free)
         pool_free = c->next;
      c->next = taken;
      taken = c;
   }
   while (taken != NULL) {
      struct chunk *next = taken->next;
      taken->next = pool_free;
      pool_free = taken;
      taken = next;
   }
}

static void pool_release(void)
{
   while (pool_free != NULL) {
      struct chunk *next = pool_free->next;
      free(pool_free);
      pool_free = next;
   }
}

/* A table read once at start-up and held to the end. */
static char *config;

NOINLINE void config_load(size_t bytes)
{
   config = use(malloc(bytes));
}

static void config_release(void)
{
   free(config);
}

static int bg_on;
static long bg_temp;

void bg_init(void)
{
   bg_on = (int)arg_long("bg", 1);
   bg_temp = arg_long("bg_temp", 16384);
   if (!bg_on)
      return;
   config_load(64 * 1024);
   at_teardown(config_release);
   at_teardown(sessions_release);
   at_teardown(pool_release);
}

void bg_step(void)
{
   if (!bg_on)
      return;
   free(scratch_take((size_t)rng_range(1024, bg_temp)));
   session_walk_step(32);
   pool_burst(16, 512);
}
