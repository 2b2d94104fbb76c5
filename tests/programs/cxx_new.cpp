// cxx_new: C++ allocation, each kind from its own function.
//
//   user snapshot 1 (bytes by function):
//     make_widget 200          new Widget
//     make_array 1000          new int[250]
//     make_counted 48          new Counted[10]: 40 + an 8-byte array cookie
//     make_aligned 192         new of an alignas(64) type
//     make_aligned_array 576   new[] of it
//     make_explicit_aligned 1000  operator new(1000, align_val_t(128))
//     make_nothrow 300         new (std::nothrow) char[300]
//     make_vector 4024         the vector object (24) and reserve(1000) ints
//     make_string 133          the string object (32) and 101 chars
//   user snapshot 2: everything deleted (sized, aligned and array deletes).
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>
#include "prog.h"

struct Widget {
   char data[200];
};

struct alignas(64) Aligned {
   char data[192];
};

static volatile int destroyed;

struct Counted {
   int value;
   ~Counted() { destroyed = destroyed + 1; }
};

NOINLINE static Widget *make_widget() { return AFTER_CALL(new Widget); }
NOINLINE static int *make_array() { return AFTER_CALL(new int[250]); }
NOINLINE static Counted *make_counted() { return AFTER_CALL(new Counted[10]); }
NOINLINE static Aligned *make_aligned() { return AFTER_CALL(new Aligned); }
NOINLINE static Aligned *make_aligned_array() { return AFTER_CALL(new Aligned[3]); }

NOINLINE static void *make_explicit_aligned()
{
   return AFTER_CALL(::operator new(1000, std::align_val_t(128)));
}

NOINLINE static char *make_nothrow() { return AFTER_CALL(new (std::nothrow) char[300]); }

NOINLINE static std::vector<int> *make_vector()
{
   auto *v = new std::vector<int>;
   v->reserve(1000);
   return v;
}

NOINLINE static std::string *make_string() { return AFTER_CALL(new std::string(100, 'x')); }

static void check_aligned(const void *p, std::uintptr_t alignment)
{
   if (p == nullptr || reinterpret_cast<std::uintptr_t>(p) % alignment != 0)
      std::abort();
}

int main()
{
   Widget *widget = make_widget();
   int *array = make_array();
   Counted *counted = make_counted();
   Aligned *aligned = make_aligned();
   Aligned *aligned_array = make_aligned_array();
   void *explicit_aligned = make_explicit_aligned();
   char *nothrow = make_nothrow();
   std::vector<int> *vector = make_vector();
   std::string *string = make_string();
   check_aligned(aligned, 64);
   check_aligned(aligned_array, 64);
   check_aligned(explicit_aligned, 128);
   STRATA_SNAPSHOT();

   delete widget;                      // sized delete: operator delete(void*, size_t)
   delete[] array;
   delete[] counted;                   // sized array delete, with the cookie
   delete aligned;                     // operator delete(void*, size_t, align_val_t)
   delete[] aligned_array;
   ::operator delete(explicit_aligned, 1000, std::align_val_t(128));
   delete[] nothrow;
   delete vector;
   delete string;
   STRATA_SNAPSHOT();
   return destroyed == 10 ? 0 : 1;
}
