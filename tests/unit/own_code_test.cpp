// SPDX-License-Identifier: GPL-2.0-or-later
// The program's own code: the headline of a leak suspect skips the C
// library, libstdc++ (its objects, its namespaces, its inline functions)
// and the objects or functions named by --library.
#include "analyze/own_code.hpp"

#include "analyze/headlines.hpp"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

Frame frame(std::string function, std::string object, bool inlined = false) {
  return {.address = 0x10,
          .inlined = inlined,
          .function = std::move(function),
          .file = "x.h",
          .line = 1,
          .object = std::move(object),
          .offset = std::nullopt};
}

Model with_main(const std::string& object) {
  Model model;
  model.frames.push_back(frame("main", object));
  return model;
}

TEST(OwnCode, TheHeadlineSkipsLibstdcxx) {
  OwnCode own(with_main("/home/u/cache"), {});
  std::vector<Frame> stack{
      frame("std::__new_allocator<char>::allocate(unsigned long, void const*)", "/home/u/cache"),
      frame("allocate", "/home/u/cache", true),  // inlined into the next, in std::
      frame("std::allocator_traits<std::allocator<char> >::allocate(...)", "/home/u/cache"),
      frame("remember_result(long)", "/home/u/cache"), frame("main", "/home/u/cache")};
  EXPECT_EQ(own.headline(stack), 3u);
  // A template function's name starts with its return type.
  std::vector<Frame> vector{
      frame("void std::vector<R, std::allocator<R> >::_M_realloc_insert<R const&>(...)", "/x"),
      frame("std::_Hash_node<int>* std::_Hashtable_alloc<A>::_M_allocate_node<int>(int)", "/x"),
      frame("keep(int)", "/x")};
  EXPECT_EQ(own.headline(vector), 2u);
}

// A header-only library's templates compiled into the program (nlohmann's
// json_sax.hpp, Boost.Serialization's iserializer.hpp): Valgrind writes the
// file without its directory, the DWARF puts it under /usr/include
// (read/name_frames.hpp, mark_system_sources).  The headline is the
// program's own caller, though the header also holds functions of their own.
TEST(OwnCode, HeadersUnderASystemIncludeDirectoryAreALibrarys) {
  auto sax = [](std::string function, bool inlined) {
    Frame f = frame(std::move(function), "/srv/gateway", inlined);
    f.file = "json_sax.hpp";
    f.system_source = true;
    return f;
  };
  Model model = with_main("/srv/gateway");
  model.frames.push_back(sax("nlohmann::detail::json_sax_dom_parser<J>::key(std::string&)", false));
  OwnCode own(model, {});
  std::vector<Frame> stack{sax("key", true),
                           sax("bool nlohmann::detail::parser<J>::sax_parse_internal(...)", false),
                           frame("parse_request", "/srv/gateway", true),
                           frame("Gateway::handle(std::string const&)", "/srv/gateway"),
                           frame("main", "/srv/gateway")};
  EXPECT_EQ(own.headline(stack), 2u);
  // Unmarked (no DWARF to tell), the header is the program's, as before.
  model.frames.back().system_source = stack[0].system_source = stack[1].system_source = false;
  EXPECT_EQ(OwnCode(model, {}).headline(stack), 0u);
}

TEST(OwnCode, SystemObjectsAreLibrariesButTheProgramIsNot) {
  OwnCode own(with_main("/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus"), {});
  std::vector<Frame> stack{frame("xmalloc", "/usr/lib/x86_64-linux-gnu/libiberty.so"),
                           frame("", "/usr/lib/x86_64-linux-gnu/libc.so.6"),
                           frame("ggc_internal_alloc", "/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus")};
  EXPECT_EQ(own.headline(stack), 2u);
  EXPECT_TRUE(own.library(stack, 0));
  EXPECT_FALSE(own.library(stack, 2));
}

TEST(OwnCode, LibraryPatternsNameMore) {
  std::vector<Frame> stack{frame("vendor_alloc", "/opt/vendor/libvendor.so.1"),
                           frame("vendor_strdup", "/opt/vendor/libvendor.so.1"),
                           frame("load_config", "/home/u/app")};
  EXPECT_EQ(OwnCode(with_main("/home/u/app"), {}).headline(stack), 0u);
  EXPECT_EQ(OwnCode(with_main("/home/u/app"), {"libvendor.*"}).headline(stack), 2u);
  EXPECT_EQ(OwnCode(with_main("/home/u/app"), {"vendor_*"}).headline(stack), 2u);
}

// A static library linked into the program without debug information
// (lp_solve's make_lp in a planner built with -g): its functions have no
// source file where the program's own have theirs, so the headline is the
// program's caller.  A program built without -g names no source file at
// all: its functions stay its own.
TEST(OwnCode, AStaticLibraryWithoutDebugInformationIsALibrarys) {
  auto with_file = [](std::string function, const char* file) {
    Frame f = frame(std::move(function), "/srv/planner");
    f.file = file;
    return f;
  };
  std::vector<Frame> stack{with_file("make_lp", ""), with_file("build_model", "planner.cpp"),
                           with_file("main", "planner.cpp")};
  Model model;
  model.frames = stack;
  OwnCode own(model, {});
  EXPECT_EQ(own.headline(stack), 1u);
  EXPECT_TRUE(own.library(stack, 0));
  for (Frame& f : stack) f.file.clear();
  model.frames = stack;
  EXPECT_EQ(OwnCode(model, {}).headline(stack), 0u);
}

// Optimized C++: the standard library's functions are inlined into the
// program's, named without their scope; their files tell them.
TEST(OwnCode, InlinedStandardHeadersAreLibraryCode) {
  OwnCode own(with_main("/home/u/app"), {});
  auto at = [](std::string function, std::string file, bool inlined) {
    Frame f = frame(std::move(function), "/home/u/app", inlined);
    f.file = std::move(file);
    return f;
  };
  std::vector<Frame> stack{
      at("operator new(unsigned long)", "new_op.cc", false),
      at("allocate", "new_allocator.h", true), at("basic_string<>", "basic_string.h", true),
      at("operator[]", "stl_map.h", true), at("handle(int)", "server.cpp", false)};
  EXPECT_EQ(own.headline(stack), 4u);
}

// A program's own allocation wrapper of a well-known name (xmalloc) passes
// the allocation on: the headline is its caller.
TEST(OwnCode, WellKnownWrappersAreSkipped) {
  OwnCode own(with_main("/home/u/app"), {});
  std::vector<Frame> stack{frame("xmalloc", "/home/u/app"), frame("register_ctx", "/home/u/app")};
  EXPECT_EQ(own.headline(stack), 1u);
  EXPECT_TRUE(allocator_wrapper("g_malloc0"));
  EXPECT_FALSE(allocator_wrapper("frame_alloc"));
  // A clone of GCC's is its function.
  std::vector<Frame> cloned{frame("xmalloc.part.0", "/home/u/app"),
                            frame("register_ctx.constprop.0", "/home/u/app")};
  EXPECT_EQ(own.headline(cloned), 1u);
  EXPECT_TRUE(library_function("std::vector<int>::push_back(int const&) [clone .isra.0]"));
}

// Boost's header-only libraries compile into the program, out of line too:
// a coroutine's stack, allocated by a template instantiated in the
// program, is headed by the program's own function that makes it.
TEST(OwnCode, BoostCompiledIntoTheProgramIsALibrary) {
  OwnCode own(with_main("/home/u/npc"), {});
  std::vector<Frame> stack{
      frame("boost::context::basic_fixedsize_stack<boost::context::stack_traits>::allocate()",
            "/home/u/npc"),
      frame("boost::coroutines2::detail::pull_coroutine<int>::control_block* "
            "boost::coroutines2::detail::create_control_block<C, S, F>(S&&, F&&)",
            "/home/u/npc"),
      frame("Zone::spawn()", "/home/u/npc")};
  EXPECT_EQ(own.headline(stack), 2u);
  EXPECT_FALSE(library_function("Zone::boost::spawn()"));
}

TEST(OwnCode, AllLibraryFallsBackToTheFirstNamedFrame) {
  OwnCode own(with_main("/home/u/app"), {});
  std::vector<Frame> stack{frame("", "/usr/lib/x86_64-linux-gnu/libc.so.6"),
                           frame("malloc", "/usr/lib/x86_64-linux-gnu/libc.so.6")};
  EXPECT_EQ(own.headline(stack), 1u);
}

// A model of the frames `frames` and one site of each stack of `stacks`
// (indices into the frames, innermost first).
Model model_of(std::vector<Frame> frames, const std::vector<std::vector<std::uint32_t>>& stacks) {
  Model model;
  model.frames = std::move(frames);
  for (const auto& ids : stacks) {
    Site site;
    for (std::uint32_t id : ids) site.frames.push_back(FrameId{id});
    model.sites.push_back(std::move(site));
  }
  return model;
}

Frame at(std::string function, std::string file, std::string object, bool inlined = false) {
  return {.address = 0x10,
          .inlined = inlined,
          .function = std::move(function),
          .file = std::move(file),
          .line = 1,
          .object = std::move(object),
          .offset = std::nullopt};
}

TEST(FindingHeadlines, AnAllocationHookIsHeadedByTheCodeThatCalledTheLibrary) {
  // ex_alloc, the allocator the program installed in libexif, is called by
  // the library: the leak is fixed in parse_exif, which called it.
  Model model = model_of({at("main", "scan.c", "/tmp/scan"), at("ex_alloc", "scan.c", "/tmp/scan"),
                          at("exif_data_load_data", "", "/usr/lib/x86_64-linux-gnu/libexif.so.12"),
                          at("parse_exif", "scan.c", "/tmp/scan"),
                          at("ingest_photo", "scan.c", "/tmp/scan")},
                         {{1, 2, 3, 4, 0}});
  OwnCode own(model, {});
  FindingHeadlines headlines(model, own);
  EXPECT_EQ(headlines.headline(model.sites[0].frames), 2u);
  // Called by the program itself, a hook not named as an allocator heads its stack.
  Model direct = model_of({at("main", "scan.c", "/tmp/scan"), at("ex_get_mem", "scan.c", "/tmp/scan"),
                           at("parse_exif", "scan.c", "/tmp/scan")},
                          {{1, 2, 0}});
  OwnCode own_direct(direct, {});
  EXPECT_EQ(FindingHeadlines(direct, own_direct).headline(direct.sites[0].frames), 0u);
}

// A recursive function is no caller of its own: render, called by itself,
// handle and query, is called from two functions, no wrapper, so the stack
// through it is headed by capture, the first own frame.
TEST(FindingHeadlines, ARecursiveCallIsNoCallerOfItsOwn) {
  Model model = model_of({at("main", "r.c", "/tmp/r"), at("capture", "r.c", "/tmp/r"),
                          at("render", "r.c", "/tmp/r"), at("handle", "r.c", "/tmp/r"),
                          at("query", "r.c", "/tmp/r"), at("note", "r.c", "/tmp/r")},
                         {{1, 2, 2, 3, 0}, {5, 2, 4, 0}});
  OwnCode own(model, {});
  EXPECT_EQ(FindingHeadlines(model, own).headline(model.sites[0].frames), 0u);
}

// The program's own allocator, called from one place or two: its name says
// what it is, and when it hands out blocks of more than one size or
// allocates for two functions, its caller, where what it hands out is lost,
// heads the stack.  A function that allocates what it builds (make_chunk)
// heads its own; so does one named as an allocator that builds blocks of
// one size for one caller (frame_alloc: a constructor); and an allocator
// called by main.
TEST(FindingHeadlines, AGeneralAllocatorNamedSoHandsTheHeadlineToItsCaller) {
  Model model = model_of({at("main", "d.c", "/tmp/d"),                                     // 0
                          at("spool_alloc", "d.c", "/tmp/d"),                              // 1
                          at("pack_chunk", "d.c", "/tmp/d"),                               // 2
                          at("RouteAllocator::allocate(unsigned long)", "d.c", "/tmp/d"),  // 3
                          at("RoutePlanner::plan()", "d.c", "/tmp/d"),                     // 4
                          at("make_chunk", "d.c", "/tmp/d"),                               // 5
                          at("grow_arena", "d.c", "/tmp/d"),                               // 6
                          at("arena_alloc", "d.c", "/tmp/d"),                              // 7
                          at("tmalloc", "d.c", "/tmp/d"),                                  // 8
                          at("frame_alloc", "d.c", "/tmp/d"),                              // 9
                          at("decode", "d.c", "/tmp/d")},                                  // 10
                         {{1, 2, 0}, {3, 4, 0}, {5, 2, 0}, {6, 7, 2, 0}, {8, 0}, {9, 10, 0},
                          {3, 2, 0}});
  // Blocks of 16 and 48 bytes at spool_alloc's, arena_alloc's and
  // tmalloc's sites; of 64 at frame_alloc's.
  for (std::size_t site : {0u, 3u, 4u}) {
    model.sites[site].cells = {{.birth = 0, .bytes = 16, .blocks = 1},
                               {.birth = 1, .bytes = 96, .blocks = 2}};
  }
  model.sites[5].cells = {{.birth = 0, .bytes = 64, .blocks = 1},
                          {.birth = 1, .bytes = 128, .blocks = 2}};
  OwnCode own(model, {});
  FindingHeadlines headlines(model, own);
  EXPECT_EQ(headlines.headline(model.sites[0].frames), 1u);  // pack_chunk
  // RouteAllocator::allocate allocates for two functions.
  EXPECT_EQ(headlines.headline(model.sites[1].frames), 1u);  // RoutePlanner::plan
  EXPECT_EQ(headlines.headline(model.sites[2].frames), 0u);  // make_chunk
  // grow_arena, called by arena_alloc alone, is part of it.
  EXPECT_EQ(headlines.headline(model.sites[3].frames), 2u);  // pack_chunk
  EXPECT_EQ(headlines.headline(model.sites[4].frames), 0u);  // tmalloc, main's
  EXPECT_EQ(headlines.headline(model.sites[5].frames), 0u);  // frame_alloc
  // Blocks of one size and one caller: spool_alloc's own; but a method of
  // a pool's class hands out memory whatever its blocks and callers.
  Model one = model_of({at("main", "d.c", "/tmp/d"), at("spool_alloc", "d.c", "/tmp/d"),
                        at("pack_chunk", "d.c", "/tmp/d"),
                        at("EntryPool::acquire()", "d.cpp", "/tmp/d"),
                        at("BlobCache::put(unsigned int)", "d.cpp", "/tmp/d")},
                       {{1, 2, 0}, {3, 4, 0}});
  OwnCode own_one(one, {});
  EXPECT_EQ(FindingHeadlines(one, own_one).headline(one.sites[0].frames), 0u);
  EXPECT_EQ(FindingHeadlines(one, own_one).headline(one.sites[1].frames), 1u);
}

// A C pool's get (pool_get, for two callers) and a constructor built for
// two callers (Route::Route, for makeOverride and addRoute) hand the
// headline to the caller, where what they made is lost; each for one
// caller, blocks of one size, heads its own stack (as frame_alloc does).
TEST(FindingHeadlines, APoolsGetAndAConstructorForTwoCallersHandTheHeadlineOn) {
  Model model = model_of({at("main", "d.cpp", "/tmp/d"),                                   // 0
                          at("pool_get", "d.cpp", "/tmp/d"),                               // 1
                          at("compress_chunk", "d.cpp", "/tmp/d"),                         // 2
                          at("read_chunk", "d.cpp", "/tmp/d"),                             // 3
                          at("Route::Route(std::string const&)", "d.cpp", "/tmp/d"),       // 4
                          at("Router::makeOverride(Request const&)", "d.cpp", "/tmp/d"),   // 5
                          at("Router::addRoute(std::string const&)", "d.cpp", "/tmp/d")},  // 6
                         {{1, 2, 0}, {1, 3, 0}, {4, 5, 0}, {4, 6, 0}});
  OwnCode own(model, {});
  FindingHeadlines headlines(model, own);
  EXPECT_EQ(headlines.headline(model.sites[0].frames), 1u);  // compress_chunk
  EXPECT_EQ(headlines.headline(model.sites[2].frames), 1u);  // Router::makeOverride
  Model one = model_of({at("main", "d.cpp", "/tmp/d"), at("pool_get", "d.cpp", "/tmp/d"),
                        at("compress_chunk", "d.cpp", "/tmp/d"),
                        at("Route::Route(std::string const&)", "d.cpp", "/tmp/d"),
                        at("Router::makeOverride(Request const&)", "d.cpp", "/tmp/d")},
                       {{1, 2, 0}, {3, 4, 0}});
  OwnCode own_one(one, {});
  EXPECT_EQ(FindingHeadlines(one, own_one).headline(one.sites[0].frames), 0u);
  EXPECT_EQ(FindingHeadlines(one, own_one).headline(one.sites[1].frames), 0u);
  EXPECT_TRUE(constructor("Table<Row>::Table(unsigned long)"));
  EXPECT_FALSE(constructor("Table<Row>::~Table()"));
  EXPECT_FALSE(constructor("route_new"));
}

// A worker's stack: make_segment, inlined into std::thread's _M_run (of
// std_thread.h, so counted as the library's), under snappy and libstdc++,
// above start_thread; the program's frames in `program`, start_thread's in
// `libc` (both empty, as massif.out names frames with a line).  Site 0 is
// the worker's allocation, site 1 a frame of main's.
Model worker_stack(const std::string& program, const std::string& libc) {
  return model_of(
      {at("main", "ship.cpp", program),
       at("std::string::_M_mutate(unsigned long)", "", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"),
       at("snappy::Compress(char const*, unsigned long, std::string*)", "",
          "/usr/lib/x86_64-linux-gnu/libsnappy.so.1"),
       at("make_segment", "ship.cpp", program, true),
       at("std::thread::_State_impl<F>::_M_run()", "std_thread.h", program),
       at("start_thread", "pthread_create.c", libc)},
      {{1, 2, 3, 4, 5}, {3, 0}});
}

TEST(FindingHeadlines, AWorkersCodeInlinedIntoStdThreadIsItsOwn) {
  // make_segment is the program's own source: it heads the stack, not
  // snappy::Compress.
  Model model = worker_stack("/tmp/ship", "/usr/lib/x86_64-linux-gnu/libc.so.6");
  OwnCode own(model, {});
  EXPECT_TRUE(own.own_source(model.frames[3]));
  EXPECT_FALSE(own.own_source(model.frames[4]));
  FindingHeadlines headlines(model, own);
  EXPECT_EQ(headlines.headline(model.sites[0].frames), 2u);
}

TEST(FindingHeadlines, InAMassifOutFileTheWorkersCodeInlinedIntoStdThreadIsItsOwn) {
  // The same stack as massif.out names it: no object beside a frame with a
  // line, so start_thread (pthread_create.c) is no library's by its object.
  // The program's own source is main's file: make_segment heads the stack.
  Model model = worker_stack("", "");
  OwnCode own(model, {});
  EXPECT_TRUE(own.own_source(model.frames[3]));
  EXPECT_FALSE(own.own_source(model.frames[5]));
  FindingHeadlines headlines(model, own);
  EXPECT_EQ(headlines.headline(model.sites[0].frames), 2u);
}

}  // namespace
}  // namespace strata::test
