// SPDX-License-Identifier: GPL-2.0-or-later
// Contexts: wildcards, the post-hoc options, grouping, spacetime, ranking and
// folding, on hand-written profiles.
#include "analyze/contexts.hpp"

#include <array>

#include "analyze/heap_analysis.hpp"
#include "site_series.hpp"
#include "strata_profile.hpp"

namespace strata::test {
namespace {

TEST(Wildcard, Matches) {
  EXPECT_TRUE(wildcard_match("xmalloc", "xmalloc"));
  EXPECT_FALSE(wildcard_match("xmalloc", "xmalloc2"));
  EXPECT_TRUE(wildcard_match("x*", "xmalloc"));
  EXPECT_TRUE(wildcard_match("*alloc", "xmalloc"));
  EXPECT_TRUE(wildcard_match("*", ""));
  EXPECT_TRUE(wildcard_match("Pool::alloc(*", "Pool::alloc(unsigned long)"));
  EXPECT_TRUE(wildcard_match("?malloc", "xmalloc"));
  EXPECT_FALSE(wildcard_match("?malloc", "malloc"));
  EXPECT_TRUE(wildcard_match("a*b*c", "a__b__b__c"));
  EXPECT_FALSE(wildcard_match("a*b*c", "a__b__b__"));
}

// Three frames: wrap (the wrapper, called by) caller (inlined into) outer.
std::string wrapped_profile() {
  return profile(records({"F|1|0x10|0|xwrap|w.c|3|/bin/p", "F|2|0x20|1|caller|c.c|7|/bin/p",
                          "F|3|0x20|0|outer|c.c|9|/bin/p", "F|4|0x30|0|main|m.c|1|/bin/p",
                          "F|5|0x40|0|other|c.c|20|/bin/p", "S|1|1|2|3|4", "S|2|1|5|4", "S|3|2|3|4",
                          "T|regular|0|0|0|0", "s|1|100|1|0|100", "s|2|50|1|0|50", "s|3|10|1|0|10",
                          "E", "T|regular|10|0|0|0", "E", "X|10"}));
}

std::vector<std::string> names(const Model& model, const std::vector<FrameId>& frames) {
  std::vector<std::string> out;
  for (FrameId id : frames) out.push_back(model.frame(id).function);
  return out;
}

TEST(ContextFrames, AllocFnAndDepth) {
  Model model = read_text(wrapped_profile());
  const Site& site = model.sites[0];
  using V = std::vector<std::string>;
  EXPECT_EQ(names(model, context_frames(model, site, {})), (V{"xwrap", "caller", "outer", "main"}));
  ContextOptions alloc{.alloc_fns = {"x*"}};
  EXPECT_EQ(names(model, context_frames(model, site, alloc)), (V{"caller", "outer", "main"}));
  // --depth counts code addresses: caller is inlined into outer, one address.
  ContextOptions depth{.depth = 2};
  EXPECT_EQ(names(model, context_frames(model, site, depth)), (V{"xwrap", "caller", "outer"}));
  ContextOptions both{.depth = 1, .alloc_fns = {"nothing", "xwrap"}};
  EXPECT_EQ(names(model, context_frames(model, site, both)), (V{"caller", "outer"}));
}

TEST(GroupContexts, AllocFnRegroups) {
  Model model = read_text(wrapped_profile());
  ContextOptions options{.depth = 1, .threshold = 0, .alloc_fns = {"xwrap"}};
  Contexts contexts = group_contexts(model, options);
  // Sites 1 and 3 are both caller/outer once xwrap is gone; site 2 is other.
  ASSERT_EQ(contexts.contexts.size(), 2u);
  EXPECT_EQ(contexts.contexts[0].sites.size(), 2u);
  EXPECT_EQ(contexts.contexts[0].end_bytes, 110u);
  EXPECT_EQ(names(model, contexts.contexts[1].frames), std::vector<std::string>{"other"});
}

// Site 1 holds 100 bytes throughout; site 2 rises 0, 100, 200; site 3 holds 2
// bytes briefly.  Times 0, 10, 30: trapezoid weights 5, 15, 10.
std::string ranked_profile() {
  return profile(records({
      "F|1|0x10|0|one|a.c|1|",
      "F|2|0x20|0|two|a.c|2|",
      "F|3|0x30|0|three|a.c|3|",
      "S|1|1",
      "S|2|2",
      "S|3|3",
      "T|regular|0|100|0|0",
      "s|1|100|1|0|100",
      "E",
      "T|regular|10|202|0|0",
      "s|2|100|1|0|100",
      "s|3|2|1|0|2",
      "E",
      "T|peak|20|250|0|0",
      "s|1|100|1|100|100",
      "s|2|150|1|150|150",
      "E",
      "T|regular|30|300|0|0",
      "s|2|200|2|100|200",
      "s|3|0|0|0|2",
      "E",
      "X|30",
  }));
}

// bytes, min and max at each point of a series.
using Values = std::vector<std::array<std::uint64_t, 3>>;

Values values(const std::vector<ContextPoint>& series) {
  Values out;
  for (const ContextPoint& p : series) out.push_back({p.bytes, p.min, p.max});
  return out;
}

TEST(SeriesBuilder, SumsOfSteps) {
  Model model = read_text(ranked_profile());
  SeriesBuilder builder(model);
  EXPECT_EQ(builder.snapshots(), (std::vector<std::size_t>{0, 1, 2, 3}));
  std::vector<ContextPoint> empty = builder.empty();
  ASSERT_EQ(empty.size(), 4u);
  EXPECT_EQ(empty[3].snapshot, 3u);
  EXPECT_EQ(empty[3].time, 30u);
  EXPECT_EQ(values(empty), (Values{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}));
  // Site 1: 100 from the start.  At the peak (point 2), what the peak says.
  std::vector<SiteId> one = {SiteId{0}};
  EXPECT_EQ(values(builder.of(one)),
            (Values{{100, 0, 100}, {100, 100, 100}, {100, 100, 100}, {100, 100, 100}}));
  // Site 2: nothing before its first step; 150 at the peak; 100 to 200 after
  // it, from the 100 it held at the chain snapshot before.
  std::vector<SiteId> two = {SiteId{1}};
  EXPECT_EQ(values(builder.of(two)),
            (Values{{0, 0, 0}, {100, 0, 100}, {150, 150, 150}, {200, 100, 200}}));
  // Site 3: not at the peak, so 0 there; a crest of 2 before it fell to 0.
  std::vector<SiteId> three = {SiteId{2}};
  EXPECT_EQ(values(builder.of(three)), (Values{{0, 0, 0}, {2, 0, 2}, {0, 0, 0}, {0, 0, 2}}));
  std::vector<SiteId> all = {SiteId{0}, SiteId{1}, SiteId{2}};
  EXPECT_EQ(values(builder.of(all)),
            (Values{{100, 0, 100}, {202, 100, 202}, {250, 250, 250}, {300, 200, 302}}));
  // build() reuses its storage and gives the same.
  std::vector<ContextPoint> series = builder.of(all);
  builder.build(two, series);
  EXPECT_EQ(values(series), values(builder.of(two)));
  EXPECT_EQ(series[1].snapshot, 1u);
  EXPECT_EQ(series[1].time, 10u);
}

// The state of `site` at series point `k`, from the model's own queries.
std::array<std::uint64_t, 3> expected_at(const Model& model, const SiteSeries& series,
                                         std::size_t snapshot, SiteId site) {
  if (model.snapshots[snapshot].site_data == SiteData::complete) {
    for (const SiteSample& s : model.snapshots[snapshot].sites) {
      if (s.site == site) return {s.bytes, s.bytes, s.bytes};
    }
    return {0, 0, 0};
  }
  SitePoint point = series.at(site, snapshot);
  return {point.bytes, point.min, point.max};
}

// A longer profile, with peaks and sites that come and go: the builder's
// series are the sums of what SiteSeries and the peaks say.
TEST(SeriesBuilder, AgreesWithSiteSeries) {
  std::vector<std::string> lines = {"S|1", "S|2", "S|3", "S|4", "S|5"};
  std::uint32_t seed = 3;
  auto next = [&](std::uint64_t range) {
    seed = seed * 1103515245u + 12345u;
    return ((seed >> 8) & 0xffff) % range;
  };
  std::vector<std::uint64_t> held(5, 0);
  for (std::uint64_t t = 1; t <= 60; ++t) {
    bool peak = t % 7 == 0;
    lines.push_back("T|" + std::string(peak ? "peak" : "regular") + "|" + std::to_string(10 * t) +
                    "|0|0|0");
    for (std::size_t s = 0; s < 5; ++s) {
      if (peak) {
        if (held[s] > 0) {
          std::string b = std::to_string(held[s]);
          lines.push_back("s|" + std::to_string(s + 1) + "|" + b + "|1|" + b + "|" + b);
        }
        continue;
      }
      if (next(3) == 0) continue;
      std::uint64_t was = held[s];
      held[s] = next(4) == 0 ? 0 : next(1000);
      std::uint64_t low = std::min(was, held[s]) - next(std::min(was, held[s]) + 1);
      std::uint64_t high = std::max(was, held[s]) + next(500);
      lines.push_back("s|" + std::to_string(s + 1) + "|" + std::to_string(held[s]) + "|1|" +
                      std::to_string(low) + "|" + std::to_string(high));
    }
    lines.push_back("E");
  }
  std::string body;
  for (const std::string& line : lines) body += records({line});
  Model model = read_text(profile(body));
  SeriesBuilder builder(model);
  SiteSeries sites(model);
  std::vector<std::vector<SiteId>> groups = {
      {SiteId{0}},
      {SiteId{3}},
      {SiteId{1}, SiteId{4}},
      {SiteId{0}, SiteId{1}, SiteId{2}, SiteId{3}, SiteId{4}}};
  for (const std::vector<SiteId>& group : groups) {
    std::vector<ContextPoint> series = builder.of(group);
    ASSERT_EQ(series.size(), 60u);
    for (std::size_t k = 0; k < series.size(); ++k) {
      std::array<std::uint64_t, 3> sum = {0, 0, 0};
      for (SiteId site : group) {
        std::array<std::uint64_t, 3> at = expected_at(model, sites, k, site);
        for (std::size_t i = 0; i < 3; ++i) sum[i] += at[i];
      }
      EXPECT_EQ(series[k].snapshot, k);
      EXPECT_EQ((std::array<std::uint64_t, 3>{series[k].bytes, series[k].min, series[k].max}), sum)
          << "point " << k << ", " << group.size() << " sites";
    }
    // The measures from the sites' steps are those of the series.
    SeriesMeasure measure(model, builder);
    SeriesMeasures of_series = measure.of(series), of_sites = measure.of_sites(builder, group);
    EXPECT_GT(of_series.spacetime, 0.0);
    EXPECT_NEAR(of_sites.spacetime, of_series.spacetime, 1e-9 * of_series.spacetime);
    EXPECT_EQ(of_sites.peak_bytes, of_series.peak_bytes);
    EXPECT_EQ(of_sites.end_bytes, of_series.end_bytes);
  }
}

TEST(GroupContexts, SpacetimeRankAndSeries) {
  Model model = read_text(ranked_profile());
  Contexts contexts = group_contexts(model, {.threshold = 0});
  ASSERT_EQ(contexts.snapshots.size(), 4u);  // the peak too: it has site data
  ASSERT_EQ(contexts.contexts.size(), 3u);
  const Context& two = contexts.contexts[0];
  const Context& one = contexts.contexts[1];
  // Times 0, 10, 20, 30: weights 5, 10, 10, 5.
  EXPECT_DOUBLE_EQ(one.spacetime, 100.0 * 30);
  EXPECT_DOUBLE_EQ(two.spacetime, 100.0 * 10 + 150.0 * 10 + 200.0 * 5);
  EXPECT_DOUBLE_EQ(contexts.spacetime, one.spacetime + two.spacetime + 2.0 * 10);
  EXPECT_NEAR(one.spacetime_pct + two.spacetime_pct + contexts.contexts[2].spacetime_pct, 100.0,
              1e-9);
  EXPECT_EQ(two.peak_bytes, 150u);
  EXPECT_EQ(two.end_bytes, 200u);
  EXPECT_EQ(two.max_bytes, 200u);
  ASSERT_EQ(two.series.size(), 4u);
  EXPECT_EQ(two.series[2].snapshot, 2u);
  EXPECT_EQ(two.series[2].time, 20u);
  EXPECT_EQ(two.series[3].bytes, 200u);
  EXPECT_EQ(two.series[3].min, 100u);  // the low since the chain snapshot before
  EXPECT_EQ(one.series[3].min, 100u);  // unchanged: min = max = bytes
}

TEST(GroupContexts, ThresholdFoldsIntoOtherPlaces) {
  Model model = read_text(ranked_profile());
  Contexts contexts = group_contexts(model, {});  // threshold 1%: site 3 is 0.3%
  ASSERT_EQ(contexts.contexts.size(), 3u);
  const Context& other = contexts.contexts[2];
  EXPECT_TRUE(other.other());
  EXPECT_EQ(other.folded, 1u);
  EXPECT_TRUE(other.frames.empty());
  EXPECT_EQ(other.series[1].bytes, 2u);
  EXPECT_GT(other.spacetime_pct, 0.0);
}

TEST(GroupContexts, TopAndKeep) {
  Model model = read_text(ranked_profile());
  Contexts top = group_contexts(model, {.threshold = 0, .top = 1});
  ASSERT_EQ(top.contexts.size(), 2u);
  EXPECT_EQ(top.contexts[1].folded, 2u);
  // A context kept is listed whatever its rank.
  ContextOptions options{.depth = 0, .threshold = 50, .top = 1};
  SeriesBuilder builder(model);
  SeriesMeasure measure(model, builder);
  std::vector<Context> groups = group_by_frames(model, options, builder, measure);
  std::vector<bool> keep;
  for (Context& c : groups) {
    keep.push_back(model.frame(c.frames[0]).function == "three");
    if (keep.back()) c.series = builder.of(c.sites);  // a kept context comes with its series
  }
  Contexts kept = rank_and_fold(std::move(groups), keep, options, builder, measure);
  ASSERT_EQ(kept.contexts.size(), 3u);
  EXPECT_EQ(model.frame(kept.contexts[1].frames[0]).function, "three");
  EXPECT_EQ(kept.contexts[2].folded, 1u);
}

TEST(GroupContexts, NoSnapshots) {
  Model model = read_text(profile(records({"F|1|0x10|0|one|a.c|1|", "S|1|1", "X|5"})));
  Contexts contexts = group_contexts(model, {});
  EXPECT_TRUE(contexts.snapshots.empty());
  ASSERT_EQ(contexts.contexts.size(), 1u);  // a site without data is 0%, folded
  EXPECT_EQ(contexts.contexts[0].folded, 1u);
}

// A massif.out file: only its detailed snapshots have site data.
TEST(GroupContexts, MassifDetailedOnly) {
  Model model = read_massif_text(
      "desc: (none)\ncmd: ./p\ntime_unit: B\n"
      "#-----------\nsnapshot=0\n#-----------\ntime=0\nmem_heap_B=0\nmem_heap_extra_B=0\n"
      "mem_stacks_B=0\nheap_tree=empty\n"
      "#-----------\nsnapshot=1\n#-----------\ntime=100\nmem_heap_B=64\nmem_heap_extra_B=0\n"
      "mem_stacks_B=0\nheap_tree=detailed\n"
      "n1: 64 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
      " n0: 64 0x4005D2: f (p.c:3)\n"
      "#-----------\nsnapshot=2\n#-----------\ntime=200\nmem_heap_B=64\nmem_heap_extra_B=0\n"
      "mem_stacks_B=0\nheap_tree=empty\n");
  Contexts contexts = group_contexts(model, {});
  EXPECT_EQ(contexts.snapshots, std::vector<std::size_t>{1});
  ASSERT_EQ(contexts.contexts.size(), 1u);
  EXPECT_EQ(contexts.contexts[0].end_bytes, 64u);  // as at the last detailed snapshot
}

}  // namespace
}  // namespace strata::test
