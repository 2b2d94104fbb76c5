/* fsize_limit: a program that limits the size of its own files.
 * It sets RLIMIT_FSIZE to 2000 bytes, the soft limit only (ARGV[2] "soft")
 * or the hard one too ("hard"), makes 600 heap operations (a profile far
 * larger than 2000 bytes), writes 1000 bytes to its file ARGV[1], then
 * 1500 more: the kernel cuts that write at the limit (1000 bytes, and no
 * SIGXFSZ, which would kill it), and the program exits 5, as it does
 * whenever its file is full.  Exit status 1 if the limit it reads back is
 * not the one it set.
 *   user snapshot 1: use_blocks holds 10 blocks of 100 bytes */
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "prog.h"

#define LIMIT 2000

static void *volatile kept[10];

NOINLINE static void *use_blocks(void) { return AFTER_CALL(malloc(100)); }

static int limit_is(rlim_t hard)
{
   struct rlimit rl;
   return getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur == LIMIT && rl.rlim_max == hard;
}

int main(int argc, char **argv)
{
   static char data[1500];
   struct rlimit rl;
   int fd;
   if (argc != 3)
      return 2;
   if (getrlimit(RLIMIT_FSIZE, &rl) != 0)
      return 1;
   rl.rlim_cur = LIMIT;
   if (strcmp(argv[2], "hard") == 0)
      rl.rlim_max = LIMIT;
   if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
      return 1;
   for (int i = 0; i < 600; i++)
      free(use_blocks());
   for (int i = 0; i < 10; i++)
      kept[i] = use_blocks();
   STRATA_SNAPSHOT();
   fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (fd < 0 || write(fd, data, 1000) != 1000)
      return 1;
   for (int i = 0; i < 600; i++)
      free(use_blocks());
   if (!limit_is(rl.rlim_max))
      return 1;
   if (write(fd, data, sizeof data) != LIMIT - 1000)
      return 1;
   for (int i = 0; i < 10; i++)
      free(kept[i]);
   return 5;   // the file is full
}
