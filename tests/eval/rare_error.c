/* rare_error: a request server whose error path leaks.
 *
 * The server reads `requests` requests (made up from `seed`), each with a
 * body of random size, and answers each one.  About one request in 40 fails
 * validation; reject_request then formats an error reply of random size and
 * sends it, but returns without freeing it (fixed=1 frees it).  Every
 * allocation goes through the server's own xalloc(size, tag).
 *
 *   rare_error requests=N seed=N fixed=0|1 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "xalloc.h"

struct request {
   unsigned id;
   unsigned session;
   size_t length;
   char *body;
};

struct session {
   unsigned id;
   unsigned long served;
   unsigned long bytes;
   char name[48];
};

static unsigned long sent_bytes;
static int fixed;

static struct session *sessions[64];

static void open_sessions(void)
{
   for (unsigned i = 0; i < 64; i++) {
      sessions[i] = xalloc(sizeof *sessions[i], X_SESSION);
      memset(sessions[i], 0, sizeof *sessions[i]);
      sessions[i]->id = i;
      snprintf(sessions[i]->name, sizeof sessions[i]->name, "client-%u", i);
   }
}

static void close_sessions(void)
{
   for (unsigned i = 0; i < 64; i++)
      xfree(sessions[i]);
}

static struct request *read_request(unsigned id)
{
   struct request *r = xalloc(sizeof *r, X_REQUEST);
   r->id = id;
   r->session = next_random() % 64;
   r->length = 256 + next_random() % 8192;
   r->body = xalloc(r->length, X_REQUEST);
   for (size_t i = 0; i < r->length; i++)
      r->body[i] = (char)('a' + (i * 7 + r->id) % 26);
   /* A corrupt request now and then. */
   if (next_random() % 40 == 0)
      r->body[0] = '\0';
   return r;
}

static void free_request(struct request *r)
{
   xfree(r->body);
   xfree(r);
}

static unsigned long checksum(const char *p, size_t n)
{
   unsigned long h = 5381;
   for (size_t i = 0; i < n; i++)
      h = h * 33 + (unsigned char)p[i];
   return h;
}

static void send_reply(struct session *s, const char *reply, size_t n)
{
   s->served++;
   s->bytes += n;
   sent_bytes += checksum(reply, n) & 0xff;
}

/* The leak: the error reply is sent, then forgotten. */
static int reject_request(struct request *r, const char *why)
{
   size_t n = 64 + next_random() % 4032;
   char *reply = xalloc(n, X_ERROR);
   int len = snprintf(reply, n, "HTTP/1.1 400 Bad Request\r\nX-Request: %u\r\n\r\n%s\n",
                      r->id, why);
   memset(reply + len, ' ', n - (size_t)len);
   send_reply(sessions[r->session], reply, n);
   if (fixed)
      xfree(reply);
   return -1;
}

static int answer_request(struct request *r)
{
   if (r->body[0] == '\0')
      return reject_request(r, "empty body");
   size_t n = 128 + r->length / 2;
   char *reply = xalloc(n, X_RESPONSE);
   unsigned long sum = checksum(r->body, r->length);
   int len = snprintf(reply, n, "HTTP/1.1 200 OK\r\nX-Sum: %lx\r\n\r\n", sum);
   memcpy(reply + len, r->body, n - (size_t)len);
   send_reply(sessions[r->session], reply, n);
   xfree(reply);
   return 0;
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"requests", "seed", "fixed", NULL};
   opt_check(argc, argv, known);
   long requests = opt_long(argc, argv, "requests", 4000);
   seed_random(argc, argv, 1);
   fixed = (int)opt_long(argc, argv, "fixed", 0);

   open_sessions();
   long failed = 0;
   for (long i = 0; i < requests; i++) {
      struct request *r = read_request((unsigned)i);
      if (answer_request(r) != 0)
         failed++;
      free_request(r);
   }
   long live[X_NTAGS];
   xalloc_stats(live);
   close_sessions();
   fprintf(stderr, "rare_error: %ld requests, %ld rejected, %ld error bytes live, sum %lu\n",
           requests, failed, live[X_ERROR], sent_bytes);
   return 0;
}
