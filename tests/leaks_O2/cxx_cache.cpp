// cxx_cache built as programs usually are, with -O2: the C++ standard
// library's functions are inlined into the program's, named without their
// scope (tests/leaks/cxx_cache.cpp says what the generator does).  Its own
// directory keeps it out of the corpus's -O0 -fno-inline pattern rule.
#include "../leaks/cxx_cache.cpp"
