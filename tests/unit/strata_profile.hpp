// SPDX-License-Identifier: GPL-2.0-or-later
// Helpers of the unit tests: hand-written profiles read from strings.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <sstream>
#include <string>

#include "model/model.hpp"
#include "read/read.hpp"
#include "util/error.hpp"

namespace strata::test {

inline const std::string kName = "test.prof";

// The lines, each with '|' between its fields, as records ending in newlines.
inline std::string records(std::initializer_list<std::string> lines) {
  std::string text;
  for (std::string line : lines) {
    for (char& c : line) c = c == '|' ? '\t' : c;
    text += line + "\n";
  }
  return text;
}

// The annotated example of docs/format.md.
inline std::string format_example() {
  return records({
      "strata-profile|2",
      "cmd|./leaky-player --cycles 3",
      "pid|4242",
      "ppid|4241",
      "time_unit|i",
      "opt|depth|30",
      "opt|heap_admin|8",
      "opt|peak_inaccuracy|1.0",
      "opt|stacks|no",
      "opt|pages_as_heap|no",
      "F|1|0x109204|0|frame_queue_push|player.c|57|/tmp/leaky-player|0x1204",
      "F|2|0x1093a1|1|decode_frame|player.c|88|/tmp/leaky-player|0x13a1",
      "F|3|0x1093a1|0|play_video|player.c|120|/tmp/leaky-player|0x13a1",
      "F|4|0x109511|0|main|player.c|201|/tmp/leaky-player|0x1511",
      "S|1|1|2|3|4",
      "M|120433|video opened",
      "T|regular|130000|40960|1320|0",
      "s|1|40960|10|0|40960",
      "E",
      "T|peak|135210|49152|1584|0",
      "s|1|49152|12|49152|49152",
      "E",
      "T|regular|140000|8192|264|0",
      "s|1|8192|2|8192|49152",
      "E",
      "X|152000",
  });
}

// The five header lines, then `body`.
inline std::string profile(const std::string& body) {
  return "strata-profile\t1\ncmd\t./prog a b\npid\t42\nppid\t41\ntime_unit\ti\n" + body;
}

inline Model read_text(const std::string& text) {
  std::istringstream in(text);
  return read_strata(in, kName);
}

inline Model read_massif_text(const std::string& text) {
  std::istringstream in(text);
  return read_massif(in, kName);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs `read`, which must throw an Error on line `line` whose message holds `part`.
template <typename Read>
void expect_error(Read read, std::uint64_t line, const std::string& part) {
  try {
    read();
    ADD_FAILURE() << "no error; expected line " << line << ": " << part;
  } catch (const Error& error) {
    EXPECT_EQ(error.file(), kName);
    EXPECT_EQ(error.line(), line) << error.what();
    EXPECT_TRUE(contains(error.what(), part)) << error.what() << "\n  does not hold: " << part;
  }
}

inline void expect_strata_error(const std::string& text, std::uint64_t line,
                                const std::string& part) {
  expect_error([&] { read_text(text); }, line, part);
}

// A deterministic pseudo-random number in [0, range).
struct Noise {
  std::uint32_t seed = 1;
  std::uint64_t operator()(std::uint64_t range) {
    seed = seed * 1103515245u + 12345u;
    return ((seed >> 8) & 0xffffff) % range;
  }
};

}  // namespace strata::test
