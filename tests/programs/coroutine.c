/* coroutine: allocations made alternately on the main stack and on a stack
 * the program made itself (makecontext/swapcontext).  The caches of stacks
 * must not read beyond a stack whose extent Valgrind does not know, and
 * must keep the two apart: co_alloc's site ends with 32,000 bytes,
 * main_alloc's with 64,000. */
#include <ucontext.h>
#include "prog.h"

enum { ROUNDS = 1000, STACK = 256 * 1024 };

static ucontext_t main_ctx, co_ctx;
static void *volatile kept[2 * ROUNDS];

NOINLINE static void *co_alloc(void)
{
   return AFTER_CALL(malloc(32));
}

static void co_main(void)
{
   for (int i = 0; i < ROUNDS; i++) {
      kept[i] = co_alloc();
      swapcontext(&co_ctx, &main_ctx);
   }
}

NOINLINE static void *main_alloc(void)
{
   return AFTER_CALL(malloc(64));
}

int main(void)
{
   static char stack[STACK];
   getcontext(&co_ctx);
   co_ctx.uc_stack.ss_sp = stack;
   co_ctx.uc_stack.ss_size = sizeof stack;
   co_ctx.uc_link = &main_ctx;
   makecontext(&co_ctx, co_main, 0);
   for (int i = 0; i < ROUNDS; i++) {
      swapcontext(&main_ctx, &co_ctx);
      kept[ROUNDS + i] = main_alloc();
   }
   STRATA_SNAPSHOT();
   for (int i = 0; i < 2 * ROUNDS; i++)
      free(kept[i]);
   return 0;
}
