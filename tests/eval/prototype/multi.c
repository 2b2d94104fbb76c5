/* multi: two independent leaks at once, and a cache whose two lines in one
 * function trade bytes (not a leak).
 *   multi requests=N mode=both|cache|none */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry { char *name; char *data; };
static int cap = 2500;
#define CAP cap
static struct entry cache[100000];
static int used, oldest, random_evict;
static unsigned long rng = 7;
static unsigned next(void) { rng = rng * 6364136223846793005UL + 1442695040888963407UL; return (unsigned)(rng >> 33); }

/* fills the cache at first; once full, evicts the oldest and replaces it:
 * the bytes move from the first line to the second */
static void store(int key)
{
   char *data;
   if (used < CAP) {
      data = malloc(300 + next() % 500);          /* line A: the fill */
      cache[used].data = data;
      used++;
   } else {
      if (random_evict) oldest = (int)(next() % CAP);
      free(cache[oldest].data);
      data = malloc(300 + next() % 500);          /* line B: the replacement */
      cache[oldest].data = data;
      if (!random_evict) oldest = (oldest + 1) % CAP;
   }
   snprintf(data, 16, "%d", key);
}

static void **audit; static size_t naudit, capaudit;
static void remember_request(int i)               /* leak 1: an audit trail never trimmed */
{
   if (naudit == capaudit) { capaudit = capaudit ? 2 * capaudit : 64; audit = realloc(audit, capaudit * sizeof *audit); }
   audit[naudit] = malloc(48 + i % 32);
   memset(audit[naudit], 1, 48);
   naudit++;
}

struct token { struct token *next; char text[40]; };
static struct token *tokens;
static void cache_session_token(int i)            /* leak 2: tokens pushed, never popped */
{
   struct token *t = malloc(sizeof *t);
   snprintf(t->text, sizeof t->text, "tok-%d", i);
   t->next = tokens;
   tokens = t;
}

static void handle(int i, int mode)
{
   char *tmp = malloc(2000);                      /* a temporary */
   memset(tmp, 0, 2000);
   if (mode != 2 && next() % 4 == 0) store(i);
   if (mode == 0) {
      remember_request(i);
      if (i % 3 == 0) cache_session_token(i);
   }
   free(tmp);
}

int main(int argc, char **argv)
{
   int requests = 20000, mode = 0;
   for (int a = 1; a < argc; a++) {
      if (!strncmp(argv[a], "requests=", 9)) requests = atoi(argv[a] + 9);
      if (!strcmp(argv[a], "mode=cache")) mode = 1;
      if (!strcmp(argv[a], "mode=none")) mode = 2;
      if (!strcmp(argv[a], "mode=random")) { mode = 1; random_evict = 1; }
      if (!strncmp(argv[a], "cap=", 4)) cap = atoi(argv[a] + 4);
   }
   for (int i = 0; i < requests; i++) handle(i, mode);
   fprintf(stderr, "multi: %zu audit, %d cached\n", naudit, used);
   return 0;
}
