/* lifetimes: runs a script of heap operations, for tests/t-lifetimes.sh.
 *
 *    lifetimes SCRIPT [wait]
 *
 * SCRIPT has one operation per line (tests/lifetimes-sim reads the same
 * file and says what the profile must hold): a slot number names a block.
 *
 *    malloc S N | mallocb S N | calloc S M N | memalign S A N |
 *    posix S A N | aligned S A N | new S N     make block S (new: new[])
 *    grow S N        realloc(S, N) in grow_h (S may be none yet)
 *    move S N        realloc(S, N) in move_i
 *    free S | freelate S | delete S            free it (delete: delete[])
 *    pool S N | poolresize S N | poolfree S    MALLOCLIKE, RESIZEINPLACE,
 *                                              FREELIKE in a static pool
 *    fork            fork: the lines after it that start with "c " are
 *                    the child's, "p " the parent's, the others both's
 *    @T OP           OP run by worker thread T (1 or 2), the main thread
 *                    waiting for it
 *
 * Each operation is made by a function of its own (the site, or the free
 * stack's first frame, that the test looks for).  The script is read, and
 * the workers started, before STRATA_MARK("script"): in --time-unit=B the
 * script's operations are then the only ones to move the clock until it
 * ends.  With "wait", the program waits after the script (for a SIGKILL). */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <valgrind/valgrind.h>

#include "prog.h"

#define MAX_SLOTS 256
#define MAX_LINES 4096
#define POOL_STRIDE 65536

static void* slots[MAX_SLOTS];   // global: no malloc is optimised away
static size_t sizes[MAX_SLOTS];   // of the pool's blocks
static char pool[64 * POOL_STRIDE];
static size_t pool_used = 0;

NOINLINE static void* alloc_a(size_t n) { return AFTER_CALL(malloc(n)); }
NOINLINE static void* alloc_b(size_t n) { return AFTER_CALL(malloc(n)); }
NOINLINE static void* calloc_c(size_t m, size_t n) { return AFTER_CALL(calloc(m, n)); }
NOINLINE static void* memalign_d(size_t a, size_t n) { return AFTER_CALL(memalign(a, n)); }
NOINLINE static void* posix_e(size_t a, size_t n)
{
   void* p = NULL;
   return posix_memalign(&p, a, n) == 0 ? AFTER_CALL(p) : NULL;
}
NOINLINE static void* aligned_f(size_t a, size_t n) { return AFTER_CALL(aligned_alloc(a, n)); }
NOINLINE static void* new_g(size_t n) { return AFTER_CALL(new char[n]); }
NOINLINE static void* grow_h(void* p, size_t n) { return AFTER_CALL(realloc(p, n)); }
NOINLINE static void* move_i(void* p, size_t n) { return AFTER_CALL(realloc(p, n)); }
/* (The barrier after a free keeps it from being a tail call.) */
static inline void barrier() { __asm__ volatile("" : : : "memory"); }
NOINLINE static void free_j(void* p) { free(p); barrier(); }
NOINLINE static void free_late(void* p) { free(p); barrier(); }
NOINLINE static void delete_k(void* p) { delete[] (char*)p; barrier(); }

NOINLINE static void* pool_alloc(size_t n)
{
   char* p = pool + pool_used;
   if (pool_used + POOL_STRIDE > sizeof(pool) || n > POOL_STRIDE)
      abort();
   pool_used += POOL_STRIDE;
   VALGRIND_MALLOCLIKE_BLOCK(p, n, 0, 0);
   return AFTER_CALL((void*)p);
}

NOINLINE static void pool_resize(void* p, size_t old_n, size_t n)
{
   if (n > POOL_STRIDE)
      abort();
   VALGRIND_RESIZEINPLACE_BLOCK(p, old_n, n, 0);
   barrier();
}

NOINLINE static void pool_free(void* p)
{
   VALGRIND_FREELIKE_BLOCK(p, 0);
   barrier();
}

static size_t num(const char* s) { return (size_t)strtoull(s, NULL, 10); }

/* One operation: its words. */
static void run_op(char** w, int n)
{
   size_t s = n > 1 ? num(w[1]) : 0;
   const char* op = w[0];
   if (s >= MAX_SLOTS)
      abort();
   if (!strcmp(op, "malloc")) slots[s] = alloc_a(num(w[2]));
   else if (!strcmp(op, "mallocb")) slots[s] = alloc_b(num(w[2]));
   else if (!strcmp(op, "calloc")) slots[s] = calloc_c(num(w[2]), num(w[3]));
   else if (!strcmp(op, "memalign")) slots[s] = memalign_d(num(w[2]), num(w[3]));
   else if (!strcmp(op, "posix")) slots[s] = posix_e(num(w[2]), num(w[3]));
   else if (!strcmp(op, "aligned")) slots[s] = aligned_f(num(w[2]), num(w[3]));
   else if (!strcmp(op, "new")) slots[s] = new_g(num(w[2]));
   else if (!strcmp(op, "grow")) slots[s] = grow_h(slots[s], num(w[2]));
   else if (!strcmp(op, "move")) slots[s] = move_i(slots[s], num(w[2]));
   else if (!strcmp(op, "free")) free_j(slots[s]), slots[s] = NULL;
   else if (!strcmp(op, "freelate")) free_late(slots[s]), slots[s] = NULL;
   else if (!strcmp(op, "delete")) delete_k(slots[s]), slots[s] = NULL;
   else if (!strcmp(op, "pool")) slots[s] = pool_alloc(sizes[s] = num(w[2]));
   else if (!strcmp(op, "poolresize")) pool_resize(slots[s], sizes[s], num(w[2])), sizes[s] = num(w[2]);
   else if (!strcmp(op, "poolfree")) pool_free(slots[s]), slots[s] = NULL;
   else abort();
}

/* The workers: each runs the operation it is given, then says so. */
struct Worker {
   pthread_t thread;
   sem_t go, done;
   char** words;
   int n;
};
static Worker workers[3];

NOINLINE static void* worker_main(void* arg)
{
   Worker* w = (Worker*)arg;
   for (;;) {
      sem_wait(&w->go);
      if (w->n == 0)
         return NULL;
      run_op(w->words, w->n);
      sem_post(&w->done);
   }
}

static char text[MAX_LINES][128];
static char* words[MAX_LINES][8];
static int n_words[MAX_LINES];

static int read_script(const char* path)
{
   FILE* f = fopen(path, "r");
   int n = 0;
   if (f == NULL)
      abort();
   while (n < MAX_LINES && fgets(text[n], sizeof(text[n]), f)) {
      char* save = NULL;
      int k = 0;
      for (char* t = strtok_r(text[n], " \t\n", &save); t && k < 8; t = strtok_r(NULL, " \t\n", &save))
         words[n][k++] = t;
      n_words[n] = k;
      if (k > 0)
         n++;
   }
   fclose(f);
   return n;
}

NOINLINE static void run_script(int n_lines)
{
   int role = 0;   // 0 before a fork, 'p' in the parent, 'c' in the child
   pid_t child = -1;
   for (int i = 0; i < n_lines; i++) {
      char** w = words[i];
      int n = n_words[i];
      if ((w[0][0] == 'c' || w[0][0] == 'p') && w[0][1] == '\0') {
         if (role != w[0][0])
            continue;
         w++, n--;
      }
      if (!strcmp(w[0], "fork")) {
         child = fork();
         role = child == 0 ? 'c' : 'p';
         continue;
      }
      if (w[0][0] == '@') {
         Worker* k = &workers[w[0][1] - '0'];
         k->words = w + 1;
         k->n = n - 1;
         sem_post(&k->go);
         sem_wait(&k->done);
         continue;
      }
      run_op(w, n);
   }
   if (child > 0)
      waitpid(child, NULL, 0);
   if (child == 0)
      exit(0);
}

int main(int argc, char** argv)
{
   if (argc < 2)
      return 2;
   int n_lines = read_script(argv[1]);
   bool threads = false;
   for (int i = 0; i < n_lines; i++)
      threads |= words[i][0][0] == '@';
   for (int t = 1; threads && t <= 2; t++) {
      sem_init(&workers[t].go, 0, 0);
      sem_init(&workers[t].done, 0, 0);
      pthread_create(&workers[t].thread, NULL, worker_main, &workers[t]);
   }
   STRATA_MARK("script");
   run_script(n_lines);
   STRATA_MARK("done");
   for (int t = 1; threads && t <= 2; t++) {
      workers[t].n = 0;
      sem_post(&workers[t].go);
      pthread_join(workers[t].thread, NULL);
   }
   if (argc > 2 && !strcmp(argv[2], "wait"))
      for (;;)
         pause();
   return 0;
}
