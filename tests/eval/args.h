/* args.h: the evaluation programs take NAME=VALUE words on the command line
 * (`requests=4000 seed=3`); opt_long returns one, or the default.  A word
 * that is not NAME=VALUE, or an unknown name, stops the program (exit 2), so
 * that a typo in a truth file cannot pass unnoticed: each program passes the
 * names it knows. */
#ifndef EVAL_ARGS_H
#define EVAL_ARGS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void opt_check(int argc, char **argv, const char *const *known)
{
   for (int i = 1; i < argc; i++) {
      const char *eq = strchr(argv[i], '=');
      int ok = 0;
      for (const char *const *k = known; eq != NULL && *k != NULL; k++)
         if (strlen(*k) == (size_t)(eq - argv[i]) && strncmp(*k, argv[i], eq - argv[i]) == 0)
            ok = 1;
      if (!ok) {
         fprintf(stderr, "%s: unknown argument %s\n", argv[0], argv[i]);
         exit(2);
      }
   }
}

static inline long opt_long(int argc, char **argv, const char *name, long fallback)
{
   size_t n = strlen(name);
   for (int i = 1; i < argc; i++)
      if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
         return strtol(argv[i] + n + 1, NULL, 10);
   return fallback;
}

/* The programs' pseudo-random numbers: a 64-bit linear congruential
 * generator (Knuth's MMIX constants), the high bits.  seed_random starts it
 * from the word seed=N (default 1), times Knuth's multiplicative hash, plus
 * each program's own 'salt', so that two programs given one seed do not draw
 * the same numbers. */
static inline uint64_t *random_state(void)
{
   static uint64_t state = 1;
   return &state;
}

static inline void seed_random(int argc, char **argv, uint64_t salt)
{
   *random_state() = (uint64_t)opt_long(argc, argv, "seed", 1) * 2654435761u + salt;
}

static inline unsigned next_random(void)
{
   uint64_t *s = random_state();
   *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
   return (unsigned)(*s >> 33);
}

#endif
