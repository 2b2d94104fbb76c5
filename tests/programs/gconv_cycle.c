/* gconv_cycle: a cache of three iconv converters over twelve character
 * sets, one replaced at random 3,000 times.  The C library loads the
 * converters' modules (gconv) and unloads them itself, without a dlclose
 * of the program's, and maps others where they were: the native recorder
 * once unwound a malloc in a freshly loaded module by the unwind table of
 * the one unloaded there, and crashed in libunwind.  It writes nothing. */
#include <iconv.h>
#include <string.h>
#include "prog.h"

static const char *const sets[] = {"UTF-7",      "UTF-16", "ISO-8859-2", "CP1252",
                                   "KOI8-R",     "SHIFT_JIS", "EUC-JP",  "ISO-8859-7",
                                   "CP1251",     "BIG5",   "UTF-32",     "GB18030"};
static void *volatile sink;

NOINLINE static void scratch(int round)
{
   void *p = AFTER_CALL(malloc(32 + (size_t)(round % 100)));
   sink = p;
   free(p);
}

int main(void)
{
   iconv_t cache[3] = {(iconv_t)-1, (iconv_t)-1, (iconv_t)-1};
   unsigned x = 1;
   for (int round = 0; round < 3000; round++) {
      x = x * 1103515245u + 12345u;
      unsigned slot = (x >> 16) % 3, cs = (x >> 8) % 12, reverse = (x >> 4) & 1;
      if (cache[slot] != (iconv_t)-1)
         iconv_close(cache[slot]);
      cache[slot] = reverse ? iconv_open("UTF-8", sets[cs]) : iconv_open(sets[cs], "UTF-8");
      if (cache[slot] == (iconv_t)-1)
         return 1;
      char in[] = "plain text", out[64];
      char *ip = in, *op = out;
      size_t il = strlen(in), ol = sizeof out;
      iconv(cache[slot], &ip, &il, &op, &ol);
      scratch(round);
   }
   for (int i = 0; i < 3; i++)
      iconv_close(cache[i]);
   return 0;
}
