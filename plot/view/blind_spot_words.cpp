// SPDX-License-Identifier: GPL-2.0-or-later
#include "view/blind_spot_words.hpp"

#include <filesystem>

namespace strata {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

std::vector<std::string> blind_spot_lines(const BlindSpots& spots, std::optional<bool> pymalloc) {
  std::vector<std::string> lines;
  if (spots.no_heap) {
    lines.push_back(
        "no heap allocation was recorded: the program did not call malloc or new (memory it "
        "maps itself, or static buffers, is not heap; --pages-as-heap=yes profiles the pages "
        "it maps)");
  }
  if (!spots.python.empty() && pymalloc != false) {
    std::string name = std::filesystem::path(spots.python).filename().string();
    lines.push_back(name +
                    " keeps its small objects in arenas of its own (pymalloc), which strata "
                    "does not see" +
                    (pymalloc == true ? ": record with PYTHONMALLOC=malloc to see them"
                                      : " unless it was recorded with PYTHONMALLOC=malloc"));
  }
  if (!spots.unsymbolised.empty()) {
    lines.push_back("no symbols for most frames in " + joined(spots.unsymbolised) +
                    " (stripped?): they are named object+0xOFFSET; debug symbols, or a build "
                    "that is not stripped, name them");
  }
  return lines;
}

}  // namespace strata
