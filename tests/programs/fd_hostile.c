/* fd_hostile: a daemon-style program that takes every file descriptor.
 * It closes all descriptors from 3 up (one by one to 65535, then with
 * close_range), dup2()s stderr over every descriptor it may have, closes
 * them again, opens its own file (ARGV[1]) and writes 200 lines to it with
 * heap operations in between; meanwhile stderr sits dup2()ed over every
 * other descriptor, so that anything written to one reaches stderr.
 * Natively and under strata alike, the file must hold exactly its lines:
 * "line N" for N from 0 to 199.
 * With a second argument PREFIX, it then looks in /proc/self/fd for the
 * descriptors above stderr open on files named PREFIX followed by digits
 * (the profile, PREFIX%p), tries to dup2() stderr over each and to close it, and
 * prints "FOUND TAKEN": how many there were and how many it took.
 *   user snapshot 1: use_lines holds 200 blocks of 100 bytes
 *   final: all freed
 * Exit status 0, or 1 if its file does not hold what it wrote. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "prog.h"

#define LINES 200

static void *volatile kept[LINES];

static int fd_limit(void)
{
   struct rlimit rl;
   if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur > 65536)
      return 65536;
   return (int)rl.rlim_cur;
}

static void take_every_descriptor(int limit)
{
   for (int fd = 3; fd < 65536; fd++)
      close(fd);
   close_range(3, ~0u, 0);
   for (int fd = 3; fd < limit; fd++)
      dup2(2, fd);
   close_range(3, ~0u, 0);
}

NOINLINE static void *use_lines(void) { return AFTER_CALL(malloc(100)); }

static int file_holds_its_lines(const char *path)
{
   static char got[LINES * 16], want[LINES * 16];
   size_t n = 0;
   int fd = open(path, O_RDONLY);
   ssize_t r;
   for (int i = 0; i < LINES; i++)
      n += (size_t)snprintf(want + n, sizeof want - n, "line %d\n", i);
   if (fd < 0)
      return 0;
   r = read(fd, got, sizeof got);
   close(fd);
   return r == (ssize_t)n && memcmp(got, want, n) == 0;
}

static int is_profile(const char *target, const char *prefix)
{
   size_t n = strlen(prefix);
   if (strncmp(target, prefix, n) != 0 || target[n] == '\0')
      return 0;
   return strspn(target + n, "0123456789") == strlen(target + n);
}

/* The descriptors open on files named PREFIX%p: dup2 over them, close them. */
static void attack_profile(const char *prefix)
{
   char line[64], path[300], target[4096];
   int found = 0, taken = 0, n;
   DIR *dir = opendir("/proc/self/fd");
   struct dirent *entry;
   while (dir != NULL && (entry = readdir(dir)) != NULL) {
      int fd = atoi(entry->d_name);
      ssize_t len;
      snprintf(path, sizeof path, "/proc/self/fd/%s", entry->d_name);
      len = readlink(path, target, sizeof target - 1);
      if (len <= 0 || entry->d_name[0] == '.')
         continue;
      target[len] = '\0';
      if (fd < 3 || fd == dirfd(dir) || !is_profile(target, prefix))
         continue;
      found++;
      if (dup2(2, fd) == fd || close(fd) == 0)
         taken++;
   }
   if (dir != NULL)
      closedir(dir);
   n = snprintf(line, sizeof line, "%d %d\n", found, taken);
   if (write(1, line, (size_t)n) != n)
      exit(1);
}

int main(int argc, char **argv)
{
   int limit = fd_limit(), fd;
   if (argc != 2 && argc != 3)
      return 2;
   take_every_descriptor(limit);
   fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (fd < 0)
      return 1;
   for (int other = fd + 1; other < limit; other++)
      dup2(2, other);
   for (int i = 0; i < LINES; i++) {
      char line[32];
      int len = snprintf(line, sizeof line, "line %d\n", i);
      kept[i] = use_lines();
      if (write(fd, line, (size_t)len) != len)
         return 1;
   }
   STRATA_SNAPSHOT();
   for (int i = 0; i < LINES; i++)
      free(kept[i]);
   close(fd);
   if (argc == 3)
      attack_profile(argv[2]);
   return file_holds_its_lines(argv[1]) ? 0 : 1;
}
