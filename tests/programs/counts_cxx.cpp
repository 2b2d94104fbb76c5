// counts_cxx: C++ allocation calls with known counts, each from its own
// function:
//   array_pair     10 4000 10   new int[100] / delete[] pairs
//   object_kept    1 48 0       new Object (48 bytes), kept
//   aligned_pair   1 256 1      new of an alignas(128) type, deleted at once
//   vec_kept       1 96 0       new Plain[3] (32 bytes each; no array cookie:
//                               Plain has no destructor), kept
#include <new>
#include "prog.h"

struct Object {
   char data[48];
};

struct alignas(128) Aligned {
   char data[256];
};

struct Plain {
   char data[32];
};

static Object *volatile kept_object;
static Plain *volatile kept_plain;

NOINLINE static int *array_pair() { return AFTER_CALL(new int[100]); }
NOINLINE static Object *object_kept() { return AFTER_CALL(new Object); }
NOINLINE static Aligned *aligned_pair() { return AFTER_CALL(new Aligned); }
NOINLINE static Plain *vec_kept() { return AFTER_CALL(new Plain[3]); }

int main()
{
   for (int i = 0; i < 10; i++)
      delete[] array_pair();
   kept_object = object_kept();
   delete aligned_pair();
   kept_plain = vec_kept();
   STRATA_SNAPSHOT();
   return 0;
}
