/* leak_requests [N]: a server's loop of N requests (300 by default), no
 * markers.  Each request reads into a 4 KiB buffer, parses it into a few
 * temporary tokens, answers, and frees all of it, but keeps a 256-byte
 * record of the request in a history that nothing trims (the leak,
 * history_keep).  At exit the history is freed: no check of what is not
 * freed at exit sees the leak; only the heap's rhythm (a request's rise and
 * fall) and the troughs that rise by 256 bytes a request show it. */
#include <string.h>

#include "prog.h"

enum { REQUEST_BYTES = 4096, TOKENS = 6, KEPT_BYTES = 256 };

struct record {
   struct record *next;
   char text[KEPT_BYTES - sizeof(struct record *)];
};

static struct record *history;

NOINLINE static char *request_read(long i)
{
   char *buffer = AFTER_CALL(malloc(REQUEST_BYTES));
   memset(buffer, 'a' + (int)(i % 26), REQUEST_BYTES);
   return buffer;
}

NOINLINE static char *token_alloc(size_t n)
{
   return AFTER_CALL(malloc(n));
}

NOINLINE static void history_keep(const char *request)
{
   struct record *r = AFTER_CALL(malloc(sizeof *r)); /* the leak */
   memcpy(r->text, request, sizeof r->text);
   r->next = history;
   history = r;
}

static void handle(long i)
{
   char *request = request_read(i);
   char *tokens[TOKENS];
   for (int t = 0; t < TOKENS; t++) {
      tokens[t] = token_alloc(64 + 32 * (size_t)t);
      memcpy(tokens[t], request + t, 16);
   }
   history_keep(request);
   for (int t = 0; t < TOKENS; t++)
      free(tokens[t]);
   free(request);
}

int main(int argc, char **argv)
{
   long requests = argc > 1 ? atol(argv[1]) : 300;
   for (long i = 0; i < requests; i++)
      handle(i);
   while (history != NULL) {
      struct record *next = history->next;
      free(history);
      history = next;
   }
   return 0;
}
