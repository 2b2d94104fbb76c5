/* two_leaks: two independent leaks at once, in different functions, with
 * the same timing.
 *
 * A server handles `run` requests with `work` iterations of idle work each.
 * Each request builds a reply in a temporary buffer and appends an entry of
 * `size` bytes (give or take a quarter) to an audit trail that is never
 * trimmed (audit_append, the first leak); every `every`-th request also
 * issues a session token of `token` bytes, pushed on a list of tokens that
 * are never revoked (token_issue, the second leak).  leak=0: the trail keeps
 * its last 64 entries and a token is revoked when the next one is issued.
 * The two leaks hold no pointer to each other: they are two structures.
 * Background decoys run beside them.
 *
 *   two_leaks seed=N run=N work=N size=BYTES token=BYTES every=N leak=0|1
 *             teardown=PCT bg=0|1 bg_temp=BYTES */
#include <stdio.h>
#include <string.h>

#include "corpus.h"

struct audit {
   struct audit *older;
   long request;
};

struct token {
   struct token *next;
   char text[];
};

static struct audit *trail;
static long trail_length;
static struct token *tokens;

/* The first leak: an entry a request, never trimmed. */
NOINLINE static struct audit *audit_append(long request, size_t size)
{
   size_t bytes = size - size / 4 + (size_t)rng_range(0, (long)size / 2);
   struct audit *a = use(malloc(bytes < sizeof *a ? sizeof *a : bytes));
   a->request = request;
   a->older = trail;
   trail = a;
   trail_length++;
   return a;
}

/* The second leak: a token every `every` requests, never revoked. */
NOINLINE static struct token *token_issue(long request, size_t size)
{
   struct token *t = use(malloc(sizeof *t + (size < 16 ? 16 : size)));
   snprintf(t->text, 16, "t%ld", request);
   t->next = tokens;
   tokens = t;
   return t;
}

NOINLINE static char *reply_build(long request)
{
   char *reply = use(malloc((size_t)rng_range(2048, 8192)));
   snprintf(reply, 32, "reply %ld", request);
   return reply;
}

static void audit_trim(long most)
{
   struct audit *a = trail;
   for (long i = 1; a != NULL && i < most; i++)
      a = a->older;
   while (a != NULL && a->older != NULL) {
      struct audit *gone = a->older;
      a->older = gone->older;
      free(gone);
      trail_length--;
   }
}

static void token_revoke_older(void)
{
   while (tokens != NULL && tokens->next != NULL) {
      struct token *gone = tokens->next;
      tokens->next = gone->next;
      free(gone);
   }
}

static void trail_release(void)
{
   audit_trim(1);
   free(trail);
   trail = NULL;
}

static void tokens_release(void)
{
   token_revoke_older();
   free(tokens);
   tokens = NULL;
}

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed((unsigned long)arg_long("seed", 1));
   long run = arg_long("run", 1000), work = arg_long("work", 2500);
   size_t size = (size_t)arg_long("size", 256), token = (size_t)arg_long("token", 96);
   long every = arg_long("every", 3), leak = arg_long("leak", 1);
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   if (every < 1)
      return 2;
   at_teardown(trail_release);
   at_teardown(tokens_release);

   for (long r = 0; r < run; r++) {
      bg_step();
      free(reply_build(r));
      audit_append(r, size);
      if (r % every == 0)
         token_issue(r, token);
      if (!leak) {
         audit_trim(64);
         token_revoke_older();
      }
      idle_work(work);
   }
   teardown(tear);
   return 0;
}
