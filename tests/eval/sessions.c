/* sessions: a chat server whose logged-in users come and go at random.
 *
 * Each of `steps` steps, a user logs in (login: a session, its name and a
 * message backlog) or a random logged-in user logs out (logout frees it
 * all), with odds that keep the number of sessions between 0 and `cap`: a
 * bounded random walk, from `seed`.  Everyone left logs out at exit.  No
 * leak.
 *
 *   sessions steps=N cap=N seed=N */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

struct session {
   unsigned user;
   char *name;
   char *backlog;
   size_t backlog_size;
};

static struct session **online;
static long count, cap;

static void login(unsigned user)
{
   struct session *s = malloc(sizeof *s);
   s->user = user;
   s->name = malloc(32);
   snprintf(s->name, 32, "user%u", user);
   s->backlog_size = 512 + next_random() % 3584;
   s->backlog = malloc(s->backlog_size);
   memset(s->backlog, 0, s->backlog_size);
   online[count++] = s;
}

static void logout(long which)
{
   struct session *s = online[which];
   online[which] = online[--count];
   free(s->backlog);
   free(s->name);
   free(s);
}

static void deliver(unsigned from)
{
   for (long i = 0; i < count; i++) {
      struct session *s = online[i];
      s->backlog[(from + i) % s->backlog_size]++;
   }
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"steps", "cap", "seed", NULL};
   opt_check(argc, argv, known);
   long steps = opt_long(argc, argv, "steps", 20000);
   cap = opt_long(argc, argv, "cap", 400);
   seed_random(argc, argv, 5);
   online = calloc((size_t)cap, sizeof *online);

   long most = 0;
   for (long t = 0; t < steps; t++) {
      /* Log in with odds falling from 1 (nobody online) to 0 (full). */
      if ((long)(next_random() % (unsigned)cap) >= count)
         login((unsigned)t);
      else
         logout((long)(next_random() % (unsigned)count));
      if (count > most)
         most = count;
      deliver((unsigned)t);
   }
   while (count > 0)
      logout(count - 1);
   free(online);
   fprintf(stderr, "sessions: %ld steps, at most %ld online\n", steps, most);
   return 0;
}
