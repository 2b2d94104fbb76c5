/* unnamed_frame: allocations made by code that has no symbol: a stub of
 * machine code copied into an anonymous executable mapping (as a JIT makes
 * code) calls malloc.  from_stub() calls the stub for 10 blocks of 100
 * bytes, other() for 3; nothing is freed (final heap 1300).
 * --ignore-fn=from_stub ignores the 1000 bytes: with no name on the
 * allocating frame, massif decides by the first frame that has one. */
#include <string.h>
#include <sys/mman.h>
#include "prog.h"

typedef void *(*Alloc)(size_t);
typedef void *(*Stub)(Alloc, size_t);

/* x86-64: push %rbp; mov %rsp,%rbp; mov %rdi,%rax; mov %rsi,%rdi;
   call *%rax; pop %rbp; ret.  A frame pointer, so that Valgrind can unwind
   through it without unwind information. */
static const unsigned char stub_code[] = {
   0x55, 0x48, 0x89, 0xe5, 0x48, 0x89, 0xf8, 0x48, 0x89, 0xf7,
   0xff, 0xd0, 0x5d, 0xc3,
};

static Stub stub;
static void *volatile kept[13];

NOINLINE static void *from_stub(size_t n)
{
   return AFTER_CALL(stub(malloc, n));
}

NOINLINE static void *other(size_t n)
{
   return AFTER_CALL(stub(malloc, n));
}

int main(void)
{
#if defined(__x86_64__)
   void *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (code == MAP_FAILED)
      return 2;
   memcpy(code, stub_code, sizeof stub_code);
   stub = (Stub)code;
   for (int i = 0; i < 10; i++)
      kept[i] = from_stub(100);
   for (int i = 10; i < 13; i++)
      kept[i] = other(100);
   return 0;
#else
   return 77;
#endif
}
