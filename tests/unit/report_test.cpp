// SPDX-License-Identifier: GPL-2.0-or-later
// summarize(), and the report's renderers on its results.
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyze/summary.hpp"
#include "render/render.hpp"
#include "strata_profile.hpp"

namespace strata::test {
namespace {

TEST(Summary, FormatExample) {
  Summary summary = summarize(read_text(format_example()));
  EXPECT_EQ(summary.command, "./leaky-player --cycles 3");
  EXPECT_EQ(summary.snapshots, 3u);
  ASSERT_TRUE(summary.peak);
  EXPECT_EQ(summary.peak->time, 135210u);
  EXPECT_EQ(summary.peak->heap, 49152u);
  ASSERT_TRUE(summary.final);
  EXPECT_EQ(summary.final->time, 140000u);
  EXPECT_EQ(summary.final->extra, 264u);
}

TEST(Summary, Json) {
  std::ostringstream out;
  render_report_json(make_report(read_text(format_example()), ContextOptions{}), out);
  nlohmann::json json = nlohmann::json::parse(out.str());
  EXPECT_EQ(json["command"], "./leaky-player --cycles 3");
  EXPECT_EQ(json["format"], "strata");
  EXPECT_EQ(json["pid"], 4242);
  EXPECT_EQ(json["time_unit"], "i");
  EXPECT_EQ(json["snapshots"], 3);
  EXPECT_EQ(json["complete"], true);
  EXPECT_EQ(json["peak"]["time"], 135210);
  EXPECT_EQ(json["peak"]["heap_bytes"], 49152);
  EXPECT_EQ(json["peak"]["extra_bytes"], 1584);
  EXPECT_EQ(json["peak"]["stacks_bytes"], 0);
  EXPECT_EQ(json["final"]["heap_bytes"], 8192);
}

// No snapshot, and a command line that is not UTF-8: still valid JSON.
TEST(Summary, JsonWithoutSnapshots) {
  std::ostringstream out;
  Model model =
      read_text(records({"strata-profile|1", "cmd|a\xff", "pid|1", "ppid|0", "time_unit|B"}));
  render_report_json(make_report(model, ContextOptions{}), out);
  nlohmann::json json = nlohmann::json::parse(out.str());
  EXPECT_TRUE(json["command"].is_string());
  EXPECT_TRUE(json["peak"].is_null());
  EXPECT_EQ(json["complete"], false);
}

TEST(Summary, Text) {
  std::ostringstream out;
  render_report_text(make_report(read_text(format_example()), ContextOptions{}), out);
  EXPECT_TRUE(contains(out.str(), "peak:       50,736 bytes at time 135,210 (useful heap 49,152"))
      << out.str();
  EXPECT_TRUE(contains(out.str(), "command:    ./leaky-player --cycles 3")) << out.str();
}

// One of a thing is not several ("1 site in 1 contexts" before).
TEST(Summary, OneIsSingular) {
  std::ostringstream out;
  render_report_text(make_report(read_text(format_example()), ContextOptions{.top = 1}), out);
  EXPECT_TRUE(contains(out.str(), "contexts:   1 site in 1 context (chosen from")) << out.str();
  EXPECT_TRUE(contains(out.str(), "or beyond 1 context)") || !contains(out.str(), "beyond"))
      << out.str();
  EXPECT_FALSE(contains(out.str(), " 1 contexts")) << out.str();
}

}  // namespace
}  // namespace strata::test
