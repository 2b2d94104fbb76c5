// SPDX-License-Identifier: GPL-2.0-or-later
// The texts of the page's data (page_html.cpp), each long name once.  A
// name is shown many times on the page: in the report's contexts, in each
// finding's headline, stack, parts, words and frees, in the bands' stacks
// and details, in the tree; written each time, a profile of 200 names of 4
// KB made a page of 4.1 MB, five times the profile.  So the data holds a
// table of strings ("strings"): the report's frames name their function,
// file, object and name by index in it (page_html.cpp), and any other text
// that holds one of the names offered (at least kPageSharedText bytes) is
// written as pieces that point into the table instead of repeating it.
//
// A text in the data is a JSON string, or the array of its pieces, each a
// string or the index of one in "strings" (page.js, `text`):
//
//   "strings": ["keep_1_xxxx…xxxx", "k.c", "/m", "main"]
//   "detail": ["8.0% of the heap's spacetime; ...; 8% at ", 0, " (k.c:1) <- main"]
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata {

// The shortest name that other texts point to rather than repeat: a
// pointer and the cut it makes cost about 10 bytes.
inline constexpr std::size_t kPageSharedText = 32;

// The most lengths of the names offered that start as the text does that
// are tried at a place of a text: a text is looked through in time linear
// in it, however many names share their start (a name past these is
// written again, never wrong).
inline constexpr std::size_t kPageLengthsTried = 64;

class PageTexts {
 public:
  // The index of `text` in the table, added if new; offered too.
  std::uint32_t index(std::string_view text);

  // Lets other texts point to `text` (when it is kPageSharedText bytes or
  // more, and shown as it is: shown.hpp); it goes into the table when one
  // does.
  void offer(std::string_view text);

  // `text` as the data holds it: a string, or its pieces when it holds texts
  // offered (the longest at the first place where one starts, then on after
  // it).  The places are found by hashes (Rabin-Karp): at each, a hash of
  // its first kPageSharedText bytes, then for each length of the names
  // offered that start so, a hash of that many.
  nlohmann::json text(std::string_view text);

  // The table, "strings".
  nlohmann::json strings() const;

 private:
  class Hashes;
  std::uint32_t known(std::string_view text);
  std::optional<std::uint32_t> longest_at(std::string_view text, const Hashes& hashes,
                                          std::size_t at) const;
  std::uint32_t table_index(std::uint32_t known);

  std::deque<std::string> known_;                                 // known id -> text (stable)
  std::unordered_map<std::string_view, std::uint32_t> known_id_;  // text -> known id
  std::vector<bool> offered_;                                     // known id -> offered
  // The hash of the first kPageSharedText bytes of texts offered -> their
  // lengths, the longest first.
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> lengths_;
  // The hash of a text offered, with its length (piece_key) -> its known id.
  std::unordered_map<std::uint64_t, std::uint32_t> offered_by_hash_;
  std::vector<std::int64_t> table_of_;  // known id -> its index in the table, -1: not in it
  std::vector<std::uint32_t> table_;    // the table: index -> known id
};

}  // namespace strata
