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
