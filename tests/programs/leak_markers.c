/* leak_markers: a rising trough in cycles marked with STRATA_MARK.
 *
 * Each cycle ("batch") opens a session, handles 20 requests and closes the
 * session.  A request's reply buffer is freed once sent, but every fourth
 * request's header is put on a list that nothing empties: header_keep
 * leaks 5 x 512 bytes a cycle, never freed.  The session and the replies
 * come back down to nothing at every cycle's end. */
#include <string.h>

#include "prog.h"

enum { CYCLES = 8, REQUESTS = 20, SESSION_BYTES = 32 * 1024, HEADER_BYTES = 512 };

struct header {
   struct header *next;
   char text[HEADER_BYTES - sizeof(struct header *)];
};

static struct header *volatile kept;

NOINLINE static char *session_open(void)
{
   return AFTER_CALL(calloc(1, SESSION_BYTES));
}

NOINLINE static char *reply_alloc(size_t size)
{
   return AFTER_CALL(malloc(size));
}

NOINLINE static void header_keep(int request)
{
   struct header *h = AFTER_CALL(malloc(sizeof *h)); /* the leak */
   h->text[0] = (char)request;
   h->next = kept;
   kept = h;
}

static void handle(char *session, int request)
{
   char *reply = reply_alloc(4096 + (size_t)request * 64);
   memset(reply, request, 4096);
   session[request] = reply[request];
   if (request % 4 == 0)
      header_keep(request);
   free(reply);
}

int main(void)
{
   for (int c = 0; c < CYCLES; c++) {
      STRATA_MARK("batch");
      char *session = session_open();
      for (int r = 0; r < REQUESTS; r++)
         handle(session, r);
      free(session);
   }
   return 0;
}
