// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/page_texts.hpp"

#include <algorithm>

#include "util/shown.hpp"

namespace strata {

// The polynomial hashes (mod 2^64) of a text's beginnings, so that the hash
// of any piece of it is had at once.
class PageTexts::Hashes {
 public:
  explicit Hashes(std::string_view text) : prefix_(text.size() + 1, 0), power_(text.size() + 1, 1) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      prefix_[i + 1] = prefix_[i] * kBase + static_cast<unsigned char>(text[i]) + 1;
      power_[i + 1] = power_[i] * kBase;
    }
  }
  // The hash of the `length` bytes at `at`.
  std::uint64_t of(std::size_t at, std::size_t length) const {
    return prefix_[at + length] - prefix_[at] * power_[length];
  }

 private:
  static constexpr std::uint64_t kBase = 0x100000001b3;
  std::vector<std::uint64_t> prefix_;  // i -> the hash of the first i bytes
  std::vector<std::uint64_t> power_;   // i -> kBase^i
};

namespace {

// A hash and a length as one key.
std::uint64_t piece_key(std::uint64_t hash, std::size_t length) {
  return hash ^ (static_cast<std::uint64_t>(length) * 0x9e3779b97f4a7c15);
}

}  // namespace

std::uint32_t PageTexts::known(std::string_view text) {
  auto found = known_id_.find(text);
  if (found != known_id_.end()) return found->second;
  auto id = static_cast<std::uint32_t>(known_.size());
  const std::string& stored = known_.emplace_back(text);
  known_id_.emplace(stored, id);
  offered_.push_back(false);
  table_of_.push_back(-1);
  return id;
}

std::uint32_t PageTexts::table_index(std::uint32_t id) {
  if (table_of_[id] < 0) {
    table_of_[id] = static_cast<std::int64_t>(table_.size());
    table_.push_back(id);
  }
  return static_cast<std::uint32_t>(table_of_[id]);
}

std::uint32_t PageTexts::index(std::string_view text) {
  offer(text);
  return table_index(known(text));
}

void PageTexts::offer(std::string_view text) {
  if (text.size() < kPageSharedText || shown(text) != text) return;
  std::uint32_t id = known(text);
  if (offered_[id]) return;
  offered_[id] = true;
  Hashes hashes(text);
  // Of two texts with one hash, the second is never pointed to: written again.
  offered_by_hash_.try_emplace(piece_key(hashes.of(0, text.size()), text.size()), id);
  std::vector<std::size_t>& lengths = lengths_[hashes.of(0, kPageSharedText)];
  auto place = std::lower_bound(lengths.begin(), lengths.end(), text.size(), std::greater<>());
  if (place == lengths.end() || *place != text.size()) lengths.insert(place, text.size());
}

std::optional<std::uint32_t> PageTexts::longest_at(std::string_view text, const Hashes& hashes,
                                                   std::size_t at) const {
  auto found = lengths_.find(hashes.of(at, kPageSharedText));
  if (found == lengths_.end()) return std::nullopt;
  std::size_t tried = 0;
  for (std::size_t length : found->second) {
    if (at + length > text.size()) continue;
    if (++tried > kPageLengthsTried) break;
    auto id = offered_by_hash_.find(piece_key(hashes.of(at, length), length));
    if (id != offered_by_hash_.end() && text.substr(at, length) == known_[id->second]) {
      return id->second;
    }
  }
  return std::nullopt;
}

nlohmann::json PageTexts::text(std::string_view text) {
  nlohmann::json pieces = nlohmann::json::array();
  if (text.size() < kPageSharedText) return std::string(text);
  Hashes hashes(text);
  std::size_t written = 0;  // the text before is in `pieces`
  for (std::size_t at = 0; at + kPageSharedText <= text.size();) {
    std::optional<std::uint32_t> id = longest_at(text, hashes, at);
    if (!id) {
      ++at;
      continue;
    }
    if (at > written) pieces.push_back(std::string(text.substr(written, at - written)));
    pieces.push_back(table_index(*id));
    at += known_[*id].size();
    written = at;
  }
  if (pieces.empty()) return std::string(text);
  if (written < text.size()) pieces.push_back(std::string(text.substr(written)));
  return pieces;
}

nlohmann::json PageTexts::strings() const {
  nlohmann::json table = nlohmann::json::array();
  for (std::uint32_t id : table_) table.push_back(known_[id]);
  return table;
}

}  // namespace strata
