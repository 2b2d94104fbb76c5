// SPDX-License-Identifier: GPL-2.0-or-later
// write_json: as nlohmann's dump(2), without recursion, the indentation capped.
#include "util/json_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace strata::test {
namespace {

using Json = nlohmann::ordered_json;

std::string written(const Json& json) {
  std::ostringstream out;
  write_json(json, out);
  return out.str();
}

TEST(WriteJson, AsDumpWritesIt) {
  Json json = {{"b", 1},
               {"a", {1, 2.5, "x\"y\x01", nullptr, true}},
               {"empty", Json::array()},
               {"none", Json::object()},
               {"nested", {{"list", {{{"k", "v"}}, Json::array()}}}}};
  EXPECT_EQ(written(json), json.dump(2));
  EXPECT_EQ(written(Json(42)), "42");
  EXPECT_EQ(written(Json::array()), "[]");
}

TEST(WriteJson, ReplacesInvalidUtf8) {
  Json json = {{"name", "a\xFF"}};
  EXPECT_EQ(written(json), json.dump(2, ' ', false, Json::error_handler_t::replace));
}

// A document nested far deeper than the call stack could recurse.
TEST(WriteJson, DeepDocumentsWithTheIndentationCapped) {
  constexpr std::size_t kDepth = 200000;
  Json json = Json::array();
  Json* inner = &json;
  for (std::size_t i = 0; i < kDepth; ++i) {
    inner->push_back(Json::array());
    inner = &inner->back();
  }
  std::string text = written(json);
  std::size_t widest = 0;
  for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    widest = std::max(widest, end - at);
  }
  EXPECT_EQ(widest, 2 * kMaxIndentLevels + 2);  // the indentation, then "[]" or "],"
  EXPECT_EQ(std::count(text.begin(), text.end(), '['), static_cast<long>(kDepth + 1));
}

}  // namespace
}  // namespace strata::test
