/* pids.h: for the test programs that fork (forker, supervisor). */
#ifndef PIDS_H
#define PIDS_H

#include <fcntl.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

/* Writes "PARENT_PID CHILD_PID\n" to `path`; 0 on success. */
static inline int write_pids(const char *path, pid_t child)
{
   char line[64];
   int n = snprintf(line, sizeof line, "%d %d\n", (int)getpid(), (int)child);
   int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (fd < 0)
      return -1;
   int wrote = write(fd, line, (size_t)n) == n;
   return close(fd) == 0 && wrote ? 0 : -1;
}

#endif
