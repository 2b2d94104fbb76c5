/* corpus.h: shared by the generators of the leak-detection corpus.
 *
 * Every generator takes its parameters as NAME=VALUE words on its command
 * line (`seed=3 run=400 work=2000 teardown=20`); arg_long and arg_str read
 * them, and args_done fails (exit 2) on a word that no call asked for, so a
 * typo in tests/leaks/variants.txt cannot pass unnoticed.
 *
 * Time is spent in idle_work, a loop with no heap operation: its iterations
 * are the unit of the `work` and `idle` parameters, and what makes the idle
 * stretches between heap operations.  teardown() frees, at exit, everything
 * the program kept, spread over a share of the run (`teardown=PCT`: the
 * teardown lasts PCT percent of the whole run).
 *
 * The background decoys (corpus.c) are named functions whose memory must
 * never be flagged: bg_step runs a few of them beside the leak of every
 * leaking generator, and beside the main decoy of tests/leaks/decoys.c.  The programs write nothing to stdout. */
#ifndef CORPUS_H
#define CORPUS_H

#include <stddef.h>
#include <stdlib.h>

#include "strata.h"

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ---- */
void args_init(int argc, char **argv);
long arg_long(const char *name, long fallback);
const char *arg_str(const char *name, const char *fallback);
void args_done(void);

/* ---- time and randomness ---- */
void idle_work(long iterations);
long idle_total(void);            /* iterations of idle_work so far */
void rng_seed(unsigned long seed);
unsigned long rng_next(void);
long rng_range(long lo, long hi); /* uniform in [lo, hi] */
void *use(void *p);               /* touches p, keeps the malloc alive */
/* The size a buffer of `size` bytes (0: none yet, then `first`) reaches when
   it grows by `pct` percent at a time until it holds `need`. */
size_t grown_by(size_t size, size_t first, size_t need, long pct);

/* ---- what is kept until exit ---- */
struct kept {
   struct kept *next;
};
void keep(struct kept *k);               /* freed by teardown() */
void at_teardown(void (*release)(void)); /* called by teardown() */
void teardown(long pct);

/* ---- decoys ---- */
void bg_init(void);  /* reads bg=0|1, bg_temp=BYTES */
void bg_step(void);  /* temporary buffer, session walk, pool: one request */
void *scratch_take(size_t bytes);        /* temporary buffer */
void session_walk_step(int cap);         /* session_open / session_close */
void pool_burst(int most, size_t bytes); /* pool_refill keeps its high water */
void config_load(size_t bytes);          /* start-up allocation */

#ifdef __cplusplus
}
#endif

#endif
