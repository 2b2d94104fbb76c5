/* logger: a service that keeps every log message in memory until exit.
 *
 * The service handles `requests` requests (from `seed`), each with a
 * temporary buffer, and logs a line or two about each through log_message,
 * which appends the formatted line to an in-memory history that is meant to
 * be a ring of the last 100 lines but never drops the oldest (fixed=1 drops
 * it).  log_shutdown frees the whole history at exit: memcheck and
 * heaptrack see no leak, but the memory is left behind all through the run.
 *
 *   logger requests=N seed=N fixed=0|1 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

struct line {
   struct line *next;
   size_t length;
   char text[];
};

static struct {
   struct line *oldest, *newest;
   long count;
   long limit;
   int fixed;
} history;

static void drop_oldest(void)
{
   struct line *l = history.oldest;
   history.oldest = l->next;
   if (history.oldest == NULL)
      history.newest = NULL;
   history.count--;
   free(l);
}

void log_message(const char *level, unsigned request, const char *what)
{
   char buffer[512];
   int n = snprintf(buffer, sizeof buffer, "[%s] request %u: %s", level, request, what);
   struct line *l = malloc(sizeof *l + (size_t)n + 1);
   memcpy(l->text, buffer, (size_t)n + 1);
   l->length = (size_t)n;
   l->next = NULL;
   if (history.newest != NULL)
      history.newest->next = l;
   else
      history.oldest = l;
   history.newest = l;
   history.count++;
   if (history.fixed && history.count > history.limit)
      drop_oldest();
}

void log_shutdown(void)
{
   while (history.oldest != NULL)
      drop_oldest();
}

static unsigned long handle(unsigned request)
{
   size_t size = 1024 + next_random() % 8192;
   unsigned char *work = malloc(size);
   unsigned long sum = 0;
   for (size_t i = 0; i < size; i++) {
      work[i] = (unsigned char)(request + i);
      sum += work[i];
   }
   free(work);
   log_message("info", request, "handled");
   if (sum % 3 == 0)
      log_message("debug", request, "checksum divisible by three, a rare and noteworthy event");
   return sum;
}

int main(int argc, char **argv)
{
   static const char *const known[] = {"requests", "seed", "fixed", NULL};
   opt_check(argc, argv, known);
   long requests = opt_long(argc, argv, "requests", 8000);
   seed_random(argc, argv, 13);
   history.fixed = (int)opt_long(argc, argv, "fixed", 0);
   history.limit = 100;

   unsigned long sum = 0;
   for (long i = 0; i < requests; i++)
      sum += handle((unsigned)i);
   fprintf(stderr, "logger: %ld requests, %ld lines kept, sum %lu\n", requests, history.count,
           sum);
   log_shutdown();
   return 0;
}
