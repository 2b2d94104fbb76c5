// SPDX-License-Identifier: GPL-2.0-or-later
// Frame names: object+0xOFFSET for frames without a symbol, and the short
// C++ names of the graph's legends.
#include "model/frame_names.hpp"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

const std::string kEllipsis = "\xE2\x80\xA6";

Frame frame(std::string function, std::string object, std::uint64_t address,
            std::optional<std::uint64_t> offset = std::nullopt) {
  Frame f;
  f.function = std::move(function);
  f.object = std::move(object);
  f.address = address;
  f.offset = offset;
  return f;
}

TEST(FrameName, FunctionWhenKnown) {
  EXPECT_EQ(frame_name(frame("htab_find_slot_with_hash", "/usr/bin/cc1plus", 0x1b6a600)),
            "htab_find_slot_with_hash");
}

TEST(FrameName, ObjectPlusOffsetWithoutASymbol) {
  // The offset the profile gives, else the address (a non-PIE executable's).
  EXPECT_EQ(frame_name(frame("", "/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus", 0x1b6a652)),
            "cc1plus+0x1b6a652");
  EXPECT_EQ(frame_name(frame("", "/usr/lib/libz.so.1", 0x4a0123, 0x3123)), "libz.so.1+0x3123");
  EXPECT_EQ(object_offset(frame("", "/usr/lib/libz.so.1", 0x4a0123, 0x3123)), 0x3123u);
  // Without an object, the address alone.
  EXPECT_EQ(frame_name(frame("", "", 0x4005d2)), "0x4005d2");
  EXPECT_EQ(object_offset(frame("", "", 0x4005d2)), std::nullopt);
  EXPECT_EQ(frame_name(frame("", "prog", 0x10)), "prog+0x10");
}

TEST(FrameName, ClonesByTheirFunction) {
  // GCC's clones, alone and together, in C and in demangled C++.
  for (const char* symbol :
       {"foo.isra.0", "foo.constprop.0", "foo.part.12", "foo.cold", "foo.cold.3", "foo.isra.0.cold",
        "foo.constprop.0.isra.0", "foo.part.0.constprop.1", "foo.lto_priv.0"}) {
    EXPECT_EQ(function_of_clone(symbol), "foo") << symbol;
  }
  EXPECT_EQ(function_of_clone("ns::f(int) [clone .isra.0]"), "ns::f(int)");
  EXPECT_EQ(function_of_clone("f(int) [clone .constprop.0] [clone .isra.0]"), "f(int)");
  EXPECT_EQ(function_of_clone("f() [clone .cold]"), "f()");
  EXPECT_EQ(function_of_clone("_Z3fooi.isra.0"), "_Z3fooi");
  // Not clones: kept whole.
  for (const char* name : {"foo", "foo.bar", "foo.isra", "foo.part.x", ".cold", "x.0", "a.b.1",
                           "f() [clone .other.0]", "f() [note]", "foo.5"}) {
    EXPECT_EQ(function_of_clone(name), name) << name;
  }
}

TEST(FrameName, WordsNameTheFunctionStacksTheSymbol) {
  Frame f = frame("log_append.constprop.0", "/home/u/app", 0x1250, 0x1250);
  f.file = "log.c";
  f.line = 37;
  EXPECT_EQ(frame_name(f), "log_append");
  EXPECT_EQ(frame_text(f), "log_append (log.c:37)");
  EXPECT_EQ(frame_symbol(f), "log_append.constprop.0");
  EXPECT_EQ(stack_frame_text(f), "log_append.constprop.0 (log.c:37)");
  f.inlined = true;
  EXPECT_EQ(stack_frame_text(f), "log_append.constprop.0 (log.c:37) [inlined]");
  // Without a symbol both are the object and offset.
  EXPECT_EQ(frame_symbol(frame("", "/home/u/app", 0x10, 0x10)), "app+0x10");
}

TEST(ShortFunction, ArgumentListsDropped) {
  EXPECT_EQ(short_function("frame_alloc"), "frame_alloc");
  EXPECT_EQ(short_function("Foo::bar(int, char const*)"), "Foo::bar");
  EXPECT_EQ(short_function("Player::decode_next_frame(Decoder&, std::vector<int> const&) const"),
            "Player::decode_next_frame");
  EXPECT_EQ(short_function("(anonymous namespace)::parse(char const*)"),
            "(anonymous namespace)::parse");
  EXPECT_EQ(short_function("Stream& operator<<(Stream&, std::basic_string<char> const&, long)"),
            "Stream& operator<<");
  EXPECT_EQ(short_function("operator new(unsigned long)"), "operator new");
  // Not C++ parameters: names from a profile are data.
  EXPECT_EQ(short_function("system(\"touch x\")"), "system(\"touch x\")");
  EXPECT_EQ(short_function("$(touch x)"), "$(touch x)");
}

TEST(ShortFunction, LongTemplateArgumentsAbbreviated) {
  EXPECT_EQ(short_function("std::vector<int, std::allocator<int> >::push_back(int const&)"),
            "std::vector<" + kEllipsis + ">::push_back");
  EXPECT_EQ(short_function("std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>("
                           "__gnu_cxx::__normal_iterator<int*>, int const&)"),
            "std::vector<" + kEllipsis + ">::_M_realloc_insert<int const&>");
  // Short template arguments stay.
  EXPECT_EQ(short_function("Pool<Node>::alloc()"), "Pool<Node>::alloc");
  // Unbalanced brackets: left as they are.
  EXPECT_EQ(short_function("odd<name"), "odd<name");
}

}  // namespace
}  // namespace strata::test
