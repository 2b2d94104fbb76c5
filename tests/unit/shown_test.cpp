// SPDX-License-Identifier: GPL-2.0-or-later
// shown(): texts from a file, safe to show on a terminal and in XML.
#include "util/shown.hpp"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

TEST(Shown, KeepsPrintableTextAndUtf8) {
  std::string plain = "a\"b'c`d\\e@f%g$(h) <x>&amp; caf\xC3\xA9 \xE2\x86\x90 \xF0\x9F\x98\x80";
  EXPECT_EQ(shown(plain), plain);
  EXPECT_EQ(shown(""), "");
}

TEST(Shown, EscapesControlCharacters) {
  EXPECT_EQ(shown("a\tb\nc\rd"), "a\\tb\\nc\\rd");
  EXPECT_EQ(shown("\x1b]0;owned\a\x1b[2J"), "\\x1b]0;owned\\x07\\x1b[2J");
  EXPECT_EQ(shown(std::string("a\0b\x7f", 4)), "a\\x00b\\x7f");
}

TEST(Shown, EscapesC1ControlsAndBidirectionalOverrides) {
  EXPECT_EQ(shown("\xC2\x9B"
                  "2J"),
            "\\u009b2J");  // CSI
  EXPECT_EQ(shown("\xC2\x80\xC2\x9F\xC2\xA0"), "\\u0080\\u009f\xC2\xA0");
  EXPECT_EQ(shown("a\xE2\x80\xAE"
                  "b\xE2\x81\xA6"),
            "a\\u202eb\\u2066");
}

TEST(Shown, EscapesWhatXmlDoesNotAllow) {
  EXPECT_EQ(shown("\xEF\xBF\xBE\xEF\xBF\xBF\xEF\xBF\xBD"), "\\ufffe\\uffff\xEF\xBF\xBD");
}

TEST(Shown, EscapesEachByteOfInvalidUtf8) {
  EXPECT_EQ(shown("a\xFF"
                  "b"),
            "a\\xffb");
  EXPECT_EQ(shown("\xC3"), "\\xc3");                             // cut short
  EXPECT_EQ(shown("\xC0\xAF"), "\\xc0\\xaf");                    // overlong
  EXPECT_EQ(shown("\xED\xA0\x80"), "\\xed\\xa0\\x80");           // surrogate
  EXPECT_EQ(shown("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
}

TEST(Shown, IsIdempotent) {
  std::string hostile = "\x1b[2J\r\xC2\x9B\xE2\x80\xAE\xEF\xBF\xBF\xFF\\x41";
  EXPECT_EQ(shown(shown(hostile)), shown(hostile));
}

}  // namespace
}  // namespace strata::test
