// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/own_code.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/contexts.hpp"
#include "model/frame_names.hpp"

namespace strata {

namespace {

constexpr std::array<std::string_view, 5> kLibraryNamespaces = {
    "std::", "__gnu_cxx::", "__cxxabiv1::", "__cxx11::", "boost::"};
constexpr std::array<std::string_view, 10> kAllocators = {
    "malloc",         "calloc", "realloc",       "free",         "memalign",
    "posix_memalign", "valloc", "aligned_alloc", "reallocarray", "__libc_memalign"};

// Functions that only pass an allocation on: libiberty and gnulib, GLib, the
// C library's string copies, and the C++ standard library's allocators.
constexpr std::array kWrappers = {
    "xmalloc",
    "xcalloc",
    "xzalloc",
    "xrealloc",
    "xstrdup",
    "xstrndup",
    "xmemdup*",
    "strdup",
    "strndup",
    "__strdup",
    "__strndup",
    "g_malloc*",
    "g_try_malloc*",
    "g_realloc*",
    "g_try_realloc*",
    "g_slice_alloc*",
    "g_strdup*",
    "g_strndup",
    "g_memdup*",
    "std::allocator<*",
    "std::__new_allocator<*",
    "__gnu_cxx::new_allocator<*",
    "std::allocator_traits<*",
    "std::_Vector_base<*",
};

// The C++ standard library's headers, by their names: libstdc++'s (bits/
// and the standard headers, which have no extension) and libc++'s internal
// ones.  Inlined from them, a function is named without its scope
// (`basic_string<>`, `operator[]`, `resize`), and a profile names a source
// file without its directory.
constexpr std::array kStandardHeaders = {"stl_*.h",
                                         "*.tcc",
                                         "basic_string.h",
                                         "cow_string.h",
                                         "new_allocator.h",
                                         "alloc_traits.h",
                                         "allocator.h",
                                         "allocated_ptr.h",
                                         "hashtable.h",
                                         "hashtable_policy.h",
                                         "shared_ptr.h",
                                         "shared_ptr_base.h",
                                         "unique_ptr.h",
                                         "unordered_map.h",
                                         "unordered_set.h",
                                         "char_traits.h",
                                         "std_function.h",
                                         "functional_hash.h",
                                         "ptr_traits.h",
                                         "move.h",
                                         "invoke.h",
                                         "refwrap.h",
                                         "node_handle.h",
                                         "std_thread.h",
                                         "std_mutex.h",
                                         "ios_base.h",
                                         "locale_facets*.h",
                                         "basic_ios.h",
                                         "regex*.h",
                                         "__*",
                                         "vector",
                                         "string",
                                         "map",
                                         "set",
                                         "list",
                                         "deque",
                                         "memory",
                                         "functional",
                                         "unordered_map",
                                         "unordered_set",
                                         "sstream",
                                         "iostream",
                                         "ostream",
                                         "istream",
                                         "fstream",
                                         "regex",
                                         "any",
                                         "optional",
                                         "variant",
                                         "new",
                                         "thread",
                                         "future",
                                         "mutex",
                                         "bitset",
                                         "array",
                                         "queue",
                                         "stack",
                                         "algorithm",
                                         "tuple",
                                         "utility",
                                         "string_view",
                                         "format",
                                         "span",
                                         "valarray",
                                         "forward_list",
                                         "locale"};

bool standard_header(std::string_view file) {
  std::string_view name =
      file.substr(file.rfind('/') == std::string_view::npos ? 0 : file.rfind('/') + 1);
  return !name.empty() &&
         std::any_of(kStandardHeaders.begin(), kStandardHeaders.end(),
                     [&](const char* pattern) { return wildcard_match(pattern, name); });
}

bool starts_with_any(std::string_view text, std::span<const std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view prefix) { return text.starts_with(prefix); });
}

std::string_view basename(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}


bool path_matches(std::string_view pattern, std::string_view path) {
  return !path.empty() &&
         (wildcard_match(pattern, path) || wildcard_match(pattern, basename(path)));
}

// The function's qualified name, without the return type that a demangled
// template function starts with ("void std::vector<T>::_M_realloc_insert<...>
// (...)" is std::vector<T>::_M_realloc_insert<...>) nor its argument list.
std::string_view qualified_name(std::string_view function) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < function.size(); ++i) {
    char c = function[i];
    if (c == '<') ++depth;
    if (c == '>' && depth > 0) --depth;
    if (depth > 0) continue;
    if (c == '(' && i > 0) return function.substr(start, i - start);
    if (c == ' ' && !function.substr(i + 1).starts_with("const")) start = i + 1;
  }
  return function.substr(start);
}

}  // namespace

bool library_function(std::string_view symbol) {
  std::string_view function = function_of_clone(symbol);
  if (allocator_wrapper(function)) return true;
  if (starts_with_any(qualified_name(function), kLibraryNamespaces)) return true;
  if (function.starts_with("operator new") || function.starts_with("operator delete")) return true;
  return std::find(kAllocators.begin(), kAllocators.end(), function) != kAllocators.end();
}

namespace {

// The last two components of a function's name (at template depth 0): its
// class's, if any, and its own.
std::vector<std::string_view> class_and_function(std::string_view symbol) {
  std::string_view name = qualified_name(function_of_clone(symbol));
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<') ++depth;
    if (c == '>' && depth > 0) --depth;
    if (depth == 0 && name.substr(i).starts_with("::")) {
      parts.push_back(name.substr(start, i - start));
      start = i + 2;
      ++i;
    }
  }
  parts.push_back(name.substr(start));
  if (parts.size() > 2) parts.erase(parts.begin(), parts.end() - 2);
  return parts;
}

// Whether `text` starts with `word` (lower case), in any case.
bool starts_with_word(std::string_view text, std::string_view word) {
  return text.size() >= word.size() &&
         std::equal(word.begin(), word.end(), text.begin(), [](char w, char c) {
           return w == static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
         });
}

// Whether `part` (a name without its template arguments) has `word` in it,
// in any case; with `word_start`, only where a word starts (after an
// underscore, at a capital, or at its start).
bool has_word(std::string_view part, std::string_view word, bool word_start) {
  part = part.substr(0, part.find('<'));
  for (std::size_t i = 0; i + word.size() <= part.size(); ++i) {
    bool starts = i == 0 || part[i - 1] == '_' || std::isupper(static_cast<unsigned char>(part[i]));
    if (word_start && !starts) continue;
    if (starts_with_word(part.substr(i), word)) return true;
  }
  return false;
}

}  // namespace

bool allocator_class(std::string_view symbol) {
  std::vector<std::string_view> parts = class_and_function(symbol);
  if (parts.size() < 2) return false;
  std::string_view owner = parts.front();
  return has_word(owner, "alloc", false) || has_word(owner, "pool", true) ||
         has_word(owner, "arena", true);
}

namespace {

// The words of a C function's name, cut at its underscores, a trailing
// number left out (gen_pool_get_2: gen, pool, get).
std::vector<std::string_view> name_words(std::string_view name) {
  std::vector<std::string_view> words;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i == name.size() || name[i] == '_') {
      if (i > start) words.push_back(name.substr(start, i - start));
      start = i + 1;
    }
  }
  while (!words.empty() &&
         std::all_of(words.back().begin(), words.back().end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
    words.pop_back();
  }
  return words;
}

// A C function named as an object's method, OBJECT_VERB, that takes an
// object from a pool or an arena: a word before the last starting with
// "pool" or "arena", the last a verb of taking (pool_get, buf_pool_acquire,
// arena_take; not parse_arena_step, the code that uses one, nor pool_new,
// which makes the pool).
bool takes_from_pool(std::string_view name) {
  static constexpr std::array<std::string_view, 6> kTake = {"get",    "acquire", "take",
                                                            "obtain", "borrow",  "grab"};
  std::vector<std::string_view> words = name_words(name);
  if (words.size() < 2) return false;
  std::string_view verb = words.back();
  bool takes = std::any_of(kTake.begin(), kTake.end(), [&](std::string_view t) {
    return verb.size() == t.size() && starts_with_word(verb, t);
  });
  return takes && std::any_of(words.begin(), words.end() - 1, [](std::string_view w) {
           return starts_with_word(w, "pool") || starts_with_word(w, "arena");
         });
}

}  // namespace

bool constructor(std::string_view symbol) {
  std::vector<std::string_view> parts = class_and_function(symbol);
  if (parts.size() < 2) return false;
  std::string_view owner = parts.front().substr(0, parts.front().find('<'));
  std::string_view function = parts.back().substr(0, parts.back().find('<'));
  return !owner.empty() && owner == function;
}

bool allocator_named(std::string_view symbol) {
  std::vector<std::string_view> parts = class_and_function(symbol);
  return has_word(parts.back(), "alloc", false) || allocator_class(symbol) ||
         (parts.size() == 1 && takes_from_pool(parts.back()));
}

bool allocator_wrapper(std::string_view symbol) {
  std::string_view function = function_of_clone(symbol);
  return std::any_of(kWrappers.begin(), kWrappers.end(),
                     [&](const char* pattern) { return wildcard_match(pattern, function); });
}

OwnCode::OwnCode(const Model& model, std::vector<std::string> libraries)
    : libraries_(std::move(libraries)) {
  for (const Frame& frame : model.frames) {
    if (frame.function == "main" && !frame.object.empty()) {
      program_ = frame.object;
      break;
    }
  }
  for (const Frame& frame : model.frames) {
    if (!frame.inlined && !frame.file.empty() && !program_.empty() && frame.object == program_ &&
        !frame.system_source) {
      own_files_.push_back(frame.file);
    }
  }
  // A massif.out file names no object beside a frame with a line: the
  // program's own source is then the file of main (an own function
  // inlined into std::thread's _M_run is in it, as a one-file program's is).
  for (const Frame& frame : model.frames) {
    if (program_.empty() && frame.function == "main" && frame.object.empty() &&
        !frame.file.empty() && !frame.system_source && !header_file(frame.file)) {
      own_files_.push_back(frame.file);
    }
  }
  std::sort(own_files_.begin(), own_files_.end());
  own_files_.erase(std::unique(own_files_.begin(), own_files_.end()), own_files_.end());
}

bool OwnCode::library(const Frame& frame) const {
  bool system = system_object(frame.object) || basename(frame.object).starts_with("vgpreload_");
  if (system && frame.object != program_) return true;
  if (library_function(frame.function) || standard_header(frame.file) || frame.system_source) {
    return true;
  }
  if (frame.inlined && !program_.empty() && frame.object == program_ && header_file(frame.file) &&
      !std::binary_search(own_files_.begin(), own_files_.end(), frame.file)) {
    return true;
  }
  // A named function of the program's object with no source file, when its
  // other frames name theirs: a static library linked in without debug
  // information (lp_solve's make_lp in a planner built with -g).
  if (!program_.empty() && frame.object == program_ && frame.file.empty() &&
      !frame.function.empty() && !own_files_.empty()) {
    return true;
  }
  return std::any_of(libraries_.begin(), libraries_.end(), [&](const std::string& pattern) {
    return path_matches(pattern, frame.object) || path_matches(pattern, frame.file) ||
           (!frame.function.empty() && wildcard_match(pattern, frame.function));
  });
}

bool OwnCode::own_source(const Frame& frame) const {
  // Without a program object, own_files_ holds main's file only if main
  // named none (massif.out).
  return frame.object == program_ && !frame.file.empty() &&
         !header_file(frame.file) && !standard_header(frame.file) &&
         std::binary_search(own_files_.begin(), own_files_.end(), frame.file);
}

bool OwnCode::library(std::span<const Frame> frames, std::size_t i) const {
  for (; i < frames.size(); ++i) {
    if (library(frames[i])) return true;
    if (!frames[i].inlined) return false;
  }
  return false;
}

std::size_t OwnCode::headline(std::span<const Frame> frames) const {
  for (std::size_t i = 0; i < frames.size(); ++i) {
    bool known = !frames[i].function.empty() || !frames[i].object.empty();
    if (known && !library(frames, i)) return i;
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (!frames[i].function.empty()) return i;
  }
  return 0;
}

}  // namespace strata
