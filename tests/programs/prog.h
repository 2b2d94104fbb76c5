/* prog.h: shared by the test programs.
 *
 * The tests look allocations up by the name of the function that made them,
 * so those functions must survive whatever CFLAGS the build uses (the build
 * adds -O0, but `make CFLAGS=-O2` overrides it): NOINLINE keeps them out of
 * line and unclonable (a clone would be named "f.constprop.0"), AFTER_CALL
 * keeps `return malloc(n)` from becoming a tail call (which would take the
 * function's frame off the stack), and pointers go to volatile globals so
 * that the optimiser cannot drop a malloc whose result looks unused.  The
 * programs write nothing to stdout: stdio's buffer would be one more block. */
#ifndef PROG_H
#define PROG_H

#include <stdlib.h>
#include "strata.h"

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif

/* AFTER_CALL(f(...)): the value of f(...), used after f has returned. */
#define AFTER_CALL(value) after_call(value)
/* idle_loop(N): N iterations of arithmetic with no heap operation (an idle
   stretch for the clock). */
static inline void idle_loop(long iterations)
{
   static volatile unsigned long sink;
   unsigned long x = sink;
   for (long i = 0; i < iterations; i++)
      x = x * 6364136223846793005UL + 1442695040888963407UL;
   sink = x;
}

#ifdef __cplusplus
template <typename T> static inline T *after_call(T *p)
{
   __asm__ volatile("" : : "r"(p) : "memory");
   return p;
}
#else
static inline void *after_call(void *p)
{
   __asm__ volatile("" : : "r"(p) : "memory");
   return p;
}
#endif

#endif
