// SPDX-License-Identifier: GPL-2.0-or-later
// The program's own code, as against its libraries: a leak suspect is
// headed by its first frame in the program's own code (the code that can be
// fixed), not by the allocator wrappers of the C library, libstdc++ or other
// system libraries that its stack starts with.
//
// A frame is in a library when any of:
//   - its object is a system library: under /lib, /lib64, /usr/lib,
//     /usr/lib64 or /usr/libexec, or Valgrind's preloaded objects, unless it
//     is the program itself (the object of `main`: cc1plus lives under
//     /usr/lib/gcc);
//   - its function is in the C++ standard library's namespaces (std::,
//     __gnu_cxx::, __cxxabiv1::) or Boost's (boost::, whose header-only
//     libraries compile into the program, out of line too), is operator
//     new, operator delete or a C
//     allocator (malloc, calloc, realloc, ...), or a well-known wrapper of
//     the allocator (allocator_wrapper: xmalloc, strdup, g_malloc, ...);
//   - its source file is a header of the C++ standard library, known by its
//     name (stl_vector.h, basic_string.h, *.tcc, vector, ...): inlined
//     from there, a function is named without its scope (`basic_string<>`,
//     `operator[]`, `resize`);
//   - its object, source file or function matches a --library pattern
//     (* and ? as in --alloc-fn; an object or file matches by its whole path
//     or its basename);
//   - it is inlined into the program from a header (.h, .hh, .hpp) that is
//     not one of the program's own source files (those of its frames that
//     are not inlined): a library's inline function, such as GStreamer's
//     gst_buffer_unref from gstbuffer.h;
//   - it is a named function of the program's object with no source file
//     while other frames of the program name theirs: a static library
//     linked in without debug information (lp_solve's make_lp);
//   - it is inlined into a frame in a library (the next frame of the stack):
//     the inline functions of libstdc++'s headers are named without their
//     scope (`allocate`, inlined into std::allocator_traits<...>::allocate).
// Profiles (and massif.out files) name source files without their
// directory, so a system header is known by its name or the functions in it.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.hpp"

namespace strata {

// Whether `function` is in a library by its name alone: an allocator,
// operator new or delete, a well-known wrapper (allocator_wrapper), or in the
// C++ standard library's namespaces.  A clone of GCC's is judged as its
// function (xmalloc.part.0 as xmalloc: frame_names.hpp, function_of_clone).
bool library_function(std::string_view function);

// Whether `function` is one of the well-known wrappers of the allocator,
// which only pass an allocation on: libiberty's and gnulib's xmalloc and
// kin, the C library's string copies, GLib's g_malloc and kin, and the C++
// standard library's allocators.
bool allocator_wrapper(std::string_view function);

// Whether a function's name says it allocates: its name or its class's has
// "alloc" in it, in any case (xalloc, pool_alloc, tmalloc, BlockPool::alloc,
// RouteAllocator::allocate), or its class's a word "pool" or "arena"
// (PartPool::acquire), or a C function's name says it takes from a pool or
// an arena (pool_get, buf_pool_acquire: a word before the last starting
// with "pool" or "arena", the last get, acquire, take, obtain, borrow or
// grab).  The program's own allocator, so named, hands the headline to its
// caller (headlines.hpp).
bool allocator_named(std::string_view function);

// Whether a function is a constructor of its class (Route::Route,
// Table<Row>::Table): the builder of its class's objects, for whoever
// makes one.
bool constructor(std::string_view function);

// Whether a function is a method of a class named for an allocator, a pool
// or an arena (the class part of allocator_named: PartPool::acquire,
// RouteAllocator::allocate): the class hands out memory, whatever the
// method's name.
bool allocator_class(std::string_view function);

class OwnCode {
 public:
  // `libraries`: the --library patterns.
  OwnCode(const Model& model, std::vector<std::string> libraries);

  // Whether frames[i] of a stack (innermost first) is in a library.
  bool library(std::span<const Frame> frames, std::size_t i) const;

  // The index in `frames` (innermost first) of the first frame in the
  // program's own code (with a function or an object); else of the first
  // with a function name; else 0.
  std::size_t headline(std::span<const Frame> frames) const;

  // Whether a frame is in a library by itself (not counting what it is inlined into).
  bool library(const Frame& frame) const;

  // Whether a frame is in one of the program's own source files (not a
  // header): its own code, though inlined into a library's (a worker's loop
  // inlined into std::thread's _M_run, which library() counts as the
  // library's).  In a file that names no objects (massif.out), the own
  // source is main's file.
  bool own_source(const Frame& frame) const;

 private:
  std::string program_;  // the object of `main`, if a frame names it
  // The program's own source files: those of its frames that are not
  // inlined; in a file that names no objects (massif.out), main's.
  std::vector<std::string> own_files_;  // sorted
  std::vector<std::string> libraries_;
};

}  // namespace strata
