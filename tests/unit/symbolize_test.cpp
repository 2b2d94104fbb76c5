// SPDX-License-Identifier: GPL-2.0-or-later
// Names from DWARF (util/symbolize.hpp) and the frames Valgrind left
// unnamed, named from them (read/name_frames.hpp), on the test program
// tests/programs/inlined: malloc in inner, always inlined into outer, always
// inlined into api.  Skipped when the program is not built (make check
// builds it before the unit tests run).
#include "util/symbolize.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "read/name_frames.hpp"
#include "record/record.hpp"

namespace strata::test {
namespace {

const std::string kProgram = std::string(STRATA_UNIT_PROGRAMS) + "/inlined";
const std::string kSource = std::string(STRATA_UNIT_DATA) + "/../programs/inlined.c";

// The line of `text` in inlined.c.
std::uint32_t line_of(const std::string& text) {
  std::ifstream in(kSource);
  std::string line;
  for (std::uint32_t number = 1; std::getline(in, line); ++number) {
    if (line.find(text) != std::string::npos) return number;
  }
  return 0;
}

std::string basename(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// The first offset in the program's first 64 KiB whose chain has the
// functions `names`, innermost first.
std::optional<std::uint64_t> find_chain(Symbolizer& symbolizer,
                                        const std::vector<std::string>& names) {
  for (std::uint64_t offset = 0; offset < 0x10000; ++offset) {
    std::vector<SourceFrame> chain = symbolizer.frames(kProgram, offset);
    std::vector<std::string> found;
    for (const SourceFrame& frame : chain) found.push_back(frame.function);
    if (found == names) return offset;
  }
  return std::nullopt;
}

class Symbolize : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kProgram)) GTEST_SKIP() << kProgram << " is not built";
    std::optional<std::uint64_t> at = find_chain(symbolizer_, {"inner", "outer", "api"});
    ASSERT_TRUE(at.has_value()) << "no place in api with inner and outer inlined";
    api_ = *at;
    at = find_chain(symbolizer_, {"main"});
    ASSERT_TRUE(at.has_value());
    main_ = *at;
  }

  // A frame at `offset` of the program.
  Frame frame(std::uint64_t offset, bool inlined, std::string function, std::string file = "",
              std::uint32_t line = 0) const {
    return {.address = 0x100000 + offset,
            .inlined = inlined,
            .function = std::move(function),
            .file = std::move(file),
            .line = line,
            .object = kProgram,
            .offset = offset};
  }

  // A model of one site: `frames`, then main's frame `caller`.
  static Model model_of(std::vector<Frame> frames, Frame caller) {
    Model model;
    frames.push_back(std::move(caller));
    Site site;
    for (Frame& f : frames) {
      site.frames.push_back(static_cast<FrameId>(model.frames.size()));
      model.frames.push_back(std::move(f));
    }
    model.lifetimes.free_stacks_frames.push_back(site.frames);
    model.sites.push_back(std::move(site));
    return model;
  }

  // A model of the chain at api with its two inlined frames unnamed
  // (UnknownInlinedFun), the innermost at `file`:`line`, called from main.
  Model unnamed_chain(const std::string& file, std::uint32_t line) const {
    return model_of({frame(api_, true, "UnknownInlinedFun", file, line),
                     frame(api_, true, "UnknownInlinedFun", "inlined.c", line_of("inner(n")),
                     frame(api_, false, "api", "inlined.c", line_of("outer(n);"))},
                    frame(main_, false, "main", "inlined.c", 1));
  }

  static std::vector<std::string> functions(const Model& model, const std::vector<FrameId>& ids) {
    std::vector<std::string> out;
    for (FrameId id : ids) {
      const Frame& f = model.frame(id);
      out.push_back(f.function + (f.inlined ? " [inlined]" : "") + " " + f.file + ":" +
                    std::to_string(f.line));
    }
    return out;
  }

  Symbolizer symbolizer_;
  std::uint64_t api_ = 0;
  std::uint64_t main_ = 0;
};

TEST_F(Symbolize, TheInlinedChainAsAddr2lineGivesIt) {
  std::vector<SourceFrame> chain = symbolizer_.frames(kProgram, api_);
  ASSERT_EQ(chain.size(), 3u);
  // Each frame is where its function was when the next one called it.
  EXPECT_EQ(chain[0].line, line_of("return malloc(n);"));
  EXPECT_EQ(chain[1].line, line_of("return inner(n * 2);"));
  EXPECT_EQ(chain[2].line, line_of("char *p = outer(n);"));
  for (const SourceFrame& frame : chain) EXPECT_EQ(basename(frame.file), "inlined.c");
  // A position-independent executable: its addresses are not where it runs.
  EXPECT_FALSE(symbolizer_.fixed_addresses(kProgram));
}

TEST_F(Symbolize, WhatCannotBeReadGivesNothing) {
  std::string fifo = ::testing::TempDir() + "strata-symbolize-fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& object :
       {std::string("/nonexistent/object"), std::string(STRATA_UNIT_DATA),
        std::string(STRATA_UNIT_DATA) + "/prog.massif", fifo, std::string()}) {
    EXPECT_TRUE(symbolizer_.frames(object, api_).empty()) << object;
    EXPECT_FALSE(symbolizer_.fixed_addresses(object)) << object;
  }
  ::unlink(fifo.c_str());
  // Outside the code: nothing.
  EXPECT_TRUE(symbolizer_.frames(kProgram, 0xfffffff0).empty());
}

TEST_F(Symbolize, UnknownInlinedFunIsNamed) {
  Model model = unnamed_chain("inlined.c", line_of("malloc(n);"));
  NamingCounts counts = name_frames(model, symbolizer_);
  EXPECT_EQ(counts.named, 2u);
  EXPECT_EQ(counts.objects, 1u);
  EXPECT_EQ(model.frames[0].function, "inner");
  EXPECT_EQ(model.frames[1].function, "outer");
  EXPECT_EQ(model.sites[0].frames.size(), 4u);
}

TEST_F(Symbolize, AFrameWithoutASymbolIsNamed) {
  Model model = model_of({frame(api_, true, "inner", "inlined.c", line_of("malloc(n);")),
                          frame(api_, true, "outer", "inlined.c", line_of("inner(n")),
                          frame(api_, false, "", "inlined.c", line_of("outer(n);"))},
                         frame(main_, false, "main", "inlined.c", 1));
  EXPECT_EQ(name_frames(model, symbolizer_).named, 1u);
  EXPECT_EQ(model.frames[2].function, "api");
}

TEST_F(Symbolize, AnObjectThatDiffersFromTheProfileIsNotUsed) {
  // One line that is not what the DWARF says, and nothing is named.
  Model model = unnamed_chain("inlined.c", 999);
  NamingCounts counts = name_frames(model, symbolizer_);
  EXPECT_EQ(counts.named, 0u);
  EXPECT_EQ(counts.refused, 1u);
  EXPECT_EQ(model.frames[0].function, "UnknownInlinedFun");
  // Nor when another address of the object differs: main named otherwise.
  Model other = model_of({frame(api_, false, "")}, frame(main_, false, "not_main"));
  counts = name_frames(other, symbolizer_);
  EXPECT_EQ(counts.refused, 1u);
  EXPECT_EQ(other.frames[0].function, "");
}

TEST_F(Symbolize, AnInnermostFileThatDiffersAtTheSameLineIsNoEvidence) {
  // Valgrind can give an inlined chain's innermost frame the file of the
  // frame that calls it, at the right line (an LTO build's std::vector of
  // nlohmann::json: stl_uninitialized.h:119 for stl_construct.h:119).  The
  // lines vouch for the object; the frames are named.
  Model model = unnamed_chain("other.h", line_of("malloc(n);"));
  NamingCounts counts = name_frames(model, symbolizer_);
  EXPECT_EQ(counts.refused, 0u);
  EXPECT_EQ(counts.named, 2u);
  EXPECT_EQ(model.frames[0].function, "inner");
  EXPECT_EQ(model.frames[1].function, "outer");
}

TEST_F(Symbolize, AChainWithFewerInlineLevelsThanValgrindReadIsNoEvidence) {
  // Valgrind read two more inline levels at api's place than the DWARF gives
  // now, at the same innermost line (an LTO build's functions inlined from
  // another unit): no evidence that the object is another.  main, named by
  // its symbol, vouches for it; the frames of that place are left as they
  // are, since the chain cannot say which is which.
  std::uint32_t line = line_of("return malloc(n);");
  Model model = model_of({frame(api_, true, "UnknownInlinedFun", "inlined.c", line),
                          frame(api_, true, "UnknownInlinedFun", "vector.h", 10),
                          frame(api_, true, "UnknownInlinedFun", "vector.h", 20),
                          frame(api_, true, "UnknownInlinedFun", "inlined.c", line_of("inner(n")),
                          frame(api_, false, "api", "inlined.c", line_of("outer(n);"))},
                         frame(main_, false, "main"));
  NamingCounts counts = name_frames(model, symbolizer_);
  EXPECT_EQ(counts.refused, 0u);
  EXPECT_EQ(counts.named, 0u);
  EXPECT_EQ(model.frames[0].function, "UnknownInlinedFun");
  // At another innermost line, the same is a difference.
  Model other = model_of({frame(api_, true, "UnknownInlinedFun", "inlined.c", 999),
                          frame(api_, true, "UnknownInlinedFun", "vector.h", 10),
                          frame(api_, true, "UnknownInlinedFun", "vector.h", 20),
                          frame(api_, true, "UnknownInlinedFun", "inlined.c", line_of("inner(n")),
                          frame(api_, false, "api", "inlined.c", line_of("outer(n);"))},
                         frame(main_, false, "main"));
  EXPECT_EQ(name_frames(other, symbolizer_).refused, 1u);
}

TEST_F(Symbolize, AFrameValgrindReadNoDwarfForBecomesItsChain) {
  // main, named by its symbol, vouches for the object.
  Model model = model_of({frame(api_, false, "")}, frame(main_, false, "main"));
  NamingCounts counts = name_frames(model, symbolizer_);
  EXPECT_EQ(counts.named, 1u);
  EXPECT_EQ(counts.added, 2u);
  std::vector<std::string> expected = {
      "inner [inlined] inlined.c:" + std::to_string(line_of("return malloc(n);")),
      "outer [inlined] inlined.c:" + std::to_string(line_of("return inner(n * 2);")),
      "api inlined.c:" + std::to_string(line_of("char *p = outer(n);")), "main :0"};
  EXPECT_EQ(functions(model, model.sites[0].frames), expected);
  EXPECT_EQ(functions(model, model.lifetimes.free_stacks_frames[0]), expected);
  for (FrameId id : model.sites[0].frames) {
    EXPECT_EQ(model.frame(id).object, kProgram);
  }
  EXPECT_EQ(model.frame(model.sites[0].frames[0]).offset, api_);
}

TEST_F(Symbolize, NothingToCheckAgainstNamesNothing) {
  Model model = model_of({frame(api_, false, "")}, frame(main_, false, ""));
  NamingCounts counts = name_frames(model, symbolizer_);
  EXPECT_EQ(counts.named, 0u);
  EXPECT_EQ(counts.refused, 0u);
  EXPECT_EQ(model.sites[0].frames.size(), 2u);
}

TEST_F(Symbolize, WithoutAnOffsetAPositionIndependentObjectIsNotRead) {
  // A massif.out file gives addresses only: in a PIE they are not offsets.
  Frame unnamed = frame(api_, true, "UnknownInlinedFun", "inlined.c", line_of("malloc(n);"));
  unnamed.address = api_;
  unnamed.offset = std::nullopt;
  Frame holder = frame(api_, false, "api", "inlined.c", line_of("outer(n);"));
  holder.address = api_;
  holder.offset = std::nullopt;
  Model model = model_of({unnamed, holder}, frame(main_, false, "main", "inlined.c", 1));
  EXPECT_EQ(name_frames(model, symbolizer_).named, 0u);
  EXPECT_EQ(model.frames[0].function, "UnknownInlinedFun");
}

// A native profile's frames, named when the run ends: each F record of the
// recorder's becomes its chain, and each S record names every frame of each
// of its ids, also of an id far past those the recorder gives (a file not
// the recorder's).
TEST_F(Symbolize, ANativeProfilesStacksNameEveryFrameOfEachId) {
  std::string path = ::testing::TempDir() + "strata-native-names.strata";
  auto hex = [](std::uint64_t n) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(n));
    return std::string(text);
  };
  {
    std::ofstream out(path);
    out << "opt\tnative\tyes\n"
        << "F\t1\t0x1\t0\t\t\t0\t" << kProgram << "\t" << hex(api_) << "\n"
        << "F\t7000000\t0x2\t0\t\t\t0\t" << kProgram << "\t" << hex(main_) << "\n"
        << "S\t1\t1\t7000000\n"
        << "S\t2\t7000000\t5\n";
  }
  NativeNaming counts = name_native_frames(path, symbolizer_);
  EXPECT_EQ(counts.frames, 2u);
  EXPECT_EQ(counts.named, 2u);
  EXPECT_EQ(counts.added, 2u);  // outer and inner, inlined in api
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_TRUE(lines[1].starts_with("F\t1\t0x1\t1\tinner\tinlined.c\t")) << lines[1];
  EXPECT_TRUE(lines[3].starts_with("F\t3\t0x1\t0\tapi\tinlined.c\t")) << lines[3];
  EXPECT_TRUE(lines[4].starts_with("F\t4\t0x2\t0\tmain\tinlined.c\t")) << lines[4];
  EXPECT_EQ(lines[5], "S\t1\t1\t2\t3\t4");
  EXPECT_EQ(lines[6], "S\t2\t4\t5");  // 5 is no frame of the file: left for the reader
  std::filesystem::remove(path);
}

// A profile's lines, read back.
std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The ledger's note that the process `pid` opened the profile `path`.
void note_profile(const Ledger& ledger, const std::string& path) {
  std::string note = std::string("P") + '\0' + std::to_string(::getpid()) + '\0' + path + '\0';
  ASSERT_EQ(::write(ledger.fd(), note.data(), note.size()), static_cast<ssize_t>(note.size()));
}

// While a program runs, the namer names the lines written to the profiles
// the ledger lists, into PATH.naming; at the end it names what was written
// since, and puts the named file in the profile's place.
TEST_F(Symbolize, TheNamerNamesTheLinesWrittenWhileTheProgramRuns) {
  std::string profile = ::testing::TempDir() + "strata-namer.strata";
  std::string naming = profile + ".naming";
  std::filesystem::remove(naming);
  char api[32], main_at[32];
  std::snprintf(api, sizeof api, "0x%llx", static_cast<unsigned long long>(api_));
  std::snprintf(main_at, sizeof main_at, "0x%llx", static_cast<unsigned long long>(main_));
  std::ofstream(profile) << "opt\tnative\tyes\n"
                         << "F\t1\t0x1\t0\t\t\t0\t" << kProgram << "\t" << api << "\n"
                         << "S\t1\t1\n";
  Ledger ledger;
  note_profile(ledger, profile);
  bool named = false;
  NativeNamer namer(symbolizer_, ledger);
  namer.start();
  for (int i = 0; i < 3000 && !named; ++i) {  // at most 30 s, a bound for a failure only
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::vector<std::string> lines = lines_of(naming);
    named = lines.size() == 5 && lines[4] == "S\t1\t1\t2\t3";
  }
  namer.stop();
  EXPECT_TRUE(named) << "the namer did not name " << profile << " while it was written";
  std::ofstream(profile, std::ios::app) << "F\t2\t0x2\t0\t\t\t0\t" << kProgram << "\t"
                                        << main_at << "\n"
                                        << "S\t2\t2\t1\n"
                                        << "E";  // a last line cut short
  NativeNaming counts = namer.finish(profile);
  EXPECT_EQ(counts.frames, 2u);
  EXPECT_EQ(counts.named, 2u);
  EXPECT_FALSE(std::filesystem::exists(naming));
  std::vector<std::string> lines = lines_of(profile);
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_TRUE(lines[3].starts_with("F\t3\t0x1\t0\tapi\tinlined.c\t")) << lines[3];
  EXPECT_TRUE(lines[5].starts_with("F\t4\t0x2\t0\tmain\tinlined.c\t")) << lines[5];
  EXPECT_EQ(lines[6], "S\t2\t4\t1\t2\t3");
  EXPECT_EQ(lines[7], "E");
  std::filesystem::remove(profile);
}

// A profile the recorder cut back after the namer named part of it (an
// exec that failed after the profile's end was written) and wrote past
// again: the namer finds what it named no longer there and names the file
// from its start.
TEST_F(Symbolize, TheNamerNamesAgainAProfileCutBackAndWrittenPast) {
  std::string profile = ::testing::TempDir() + "strata-namer-cut.strata";
  char api[32];
  std::snprintf(api, sizeof api, "0x%llx", static_cast<unsigned long long>(api_));
  std::string head = std::string("opt\tnative\tyes\nF\t1\t0x1\t0\t\t\t0\t") + kProgram + "\t" +
                     api + "\nS\t1\t1\n";
  std::ofstream(profile) << head << "T\tfinal\t9\t0\t0\t0\nE\n";
  Ledger ledger;
  note_profile(ledger, profile);
  NativeNamer namer(symbolizer_, ledger);
  namer.start();
  bool named = false;
  for (int i = 0; i < 3000 && !named; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::vector<std::string> lines = lines_of(profile + ".naming");
    named = !lines.empty() && lines.back() == "E";
  }
  namer.stop();
  ASSERT_TRUE(named);
  // Cut back to the stacks and written past: as long as before, and more.
  std::ofstream(profile, std::ios::trunc) << head << "T\tregular\t7\t0\t0\t0\nE\nX\n";
  namer.finish(profile);
  std::vector<std::string> lines = lines_of(profile);
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines[5], "T\tregular\t7\t0\t0\t0");
  EXPECT_EQ(lines[7], "X");
  std::filesystem::remove(profile);
}

}  // namespace
}  // namespace strata::test

namespace strata::test {
namespace {

// std::min<int>, an instance in this test program of a template of
// libstdc++'s bits/stl_algobase.h (under /usr/include): its frame, as
// Valgrind writes it (the header's name, no directory), is a system
// source; the same place said to be in a header of the program's is not.
TEST(SystemSources, AFrameOfAHeaderUnderUsrInclude) {
  using Min = const int& (*)(const int&, const int&);
  Min min = &std::min<int>;
  Dl_info info;
  ASSERT_NE(dladdr(reinterpret_cast<void*>(min), &info), 0);
  std::uint64_t offset = reinterpret_cast<std::uintptr_t>(reinterpret_cast<void*>(min)) -
                         reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  std::string object = std::filesystem::canonical("/proc/self/exe").string();
  Symbolizer symbolizer;
  std::vector<SourceFrame> chain = symbolizer.frames(object, offset);
  ASSERT_FALSE(chain.empty());
  ASSERT_TRUE(chain.back().file.starts_with("/usr/include/")) << chain.back().file;
  Frame system{.address = offset,
               .inlined = false,
               .function = "std::min<int>",
               .file = basename(chain.back().file),
               .line = chain.back().line,
               .object = object,
               .offset = offset};
  Frame own = system;
  own.file = "minimum.h";
  Model model;
  model.frames = {system, own};
  mark_system_sources(model, symbolizer);
  EXPECT_TRUE(model.frames[0].system_source);
  EXPECT_FALSE(model.frames[1].system_source);
}

__attribute__((noinline)) int file_local_twice(int x) {
  asm volatile("" : "+r"(x));
  return x * 2 + 1;
}

// The object and offset of the code at `code`, as a native profile has them.
std::pair<std::string, std::uint64_t> place_of(void* code) {
  Dl_info info{};
  if (dladdr(code, &info) == 0 || info.dli_fname == nullptr) return {};
  return {std::filesystem::canonical(info.dli_fname).string(),
          reinterpret_cast<std::uintptr_t>(code) - reinterpret_cast<std::uintptr_t>(info.dli_fbase)};
}

// The function that holds the code is named as Valgrind names it, by the
// object's symbol table: GCC gives a function of an anonymous namespace no
// linkage name in its DWARF (its DW_AT_name is file_local_twice).
TEST(Symbols, AFileLocalFunctionIsNamedAsItsSymbolTableNamesIt) {
  EXPECT_EQ(file_local_twice(20), 41);
  auto [object, offset] = place_of(reinterpret_cast<void*>(&file_local_twice));
  ASSERT_FALSE(object.empty());
  Symbolizer symbolizer;
  std::vector<SourceFrame> chain = symbolizer.frames(object, offset);
  ASSERT_FALSE(chain.empty());
  EXPECT_EQ(chain.back().function, "strata::test::(anonymous namespace)::file_local_twice(int)");
  EXPECT_FALSE(chain.back().file.empty());  // and its place, from the DWARF
}

// Code of a library is named by its symbol, whether or not the library's
// DWARF is there (libstdc++'s debugging file is seldom installed).
TEST(Symbols, ALibrarysFunctionIsNamedByItsSymbol) {
  void (*terminate)() noexcept = &std::terminate;
  auto [object, offset] = place_of(reinterpret_cast<void*>(terminate));
  ASSERT_TRUE(object.find("libstdc++") != std::string::npos) << object;
  Symbolizer symbolizer;
  std::vector<SourceFrame> chain = symbolizer.frames(object, offset);
  ASSERT_FALSE(chain.empty());
  EXPECT_EQ(chain.back().function, "std::terminate()");
}

}  // namespace
}  // namespace strata::test
