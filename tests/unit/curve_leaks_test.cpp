// SPDX-License-Identifier: GPL-2.0-or-later
// Leak findings judged from the curves alone (find_curve_leaks,
// analyze/lifetime_leaks.hpp), on profiles without lifetimes written here: a
// leak beside a working set and a cache that fills and levels off, a leak
// that starts late, and a working set that comes and goes.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analyze/headlines.hpp"
#include "analyze/lifetime_leaks.hpp"
#include "analyze/series.hpp"
#include "strata_profile.hpp"

namespace strata::test {
namespace {

constexpr int kSnapshots = 60;

// A profile of kSnapshots snapshots at times 100, 200, ..., one site per
// function (each called by main), site s holding bytes(s, k) at snapshot k.
Model curves(const std::vector<std::string>& functions,
             const std::function<std::uint64_t(std::size_t, int)>& bytes) {
  std::string body;
  auto line = [&](std::string text) {
    for (char& c : text) c = c == '|' ? '\t' : c;
    body += text + "\n";
  };
  std::size_t main_id = functions.size() + 1;
  for (std::size_t s = 0; s < functions.size(); ++s) {
    line("F|" + std::to_string(s + 1) + "|0x" + std::to_string(100 + s) + "|0|" + functions[s] +
         "|prog.c|" + std::to_string(10 + s) + "|/tmp/prog");
  }
  line("F|" + std::to_string(main_id) + "|0x900|0|main|prog.c|90|/tmp/prog");
  for (std::size_t s = 0; s < functions.size(); ++s) {
    line("S|" + std::to_string(s + 1) + "|" + std::to_string(s + 1) + "|" + std::to_string(main_id));
  }
  for (int k = 1; k <= kSnapshots; ++k) {
    std::uint64_t heap = 0;
    std::string sites;
    for (std::size_t s = 0; s < functions.size(); ++s) {
      std::uint64_t b = bytes(s, k);
      heap += b;
      sites += "s|" + std::to_string(s + 1) + "|" + std::to_string(b) + "|1|" + std::to_string(b) +
               "|" + std::to_string(b) + "\n";
    }
    line("T|regular|" + std::to_string(100 * k) + "|" + std::to_string(heap) + "|0|0");
    for (char& c : sites) c = c == '|' ? '\t' : c;
    body += sites;
    line("E");
  }
  line("X|" + std::to_string(100 * kSnapshots + 50));
  return read_text(profile(body));
}

LifetimeLeaks judged(const Model& model) {
  SeriesBuilder builder(model);
  return find_curve_leaks(model, FindingHeadlines(model, OwnCode(model, {})), builder);
}

std::string headline(const Model& model, const Finding& f) {
  return model.frame(f.parts.front().frames.back()).function;
}

// A pseudo-random number in [0, n) for snapshot k (splitmix64: a fixed
// sequence without a trend in its lows).
std::uint64_t noise(int k, std::uint64_t n) {
  std::uint64_t z = static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (z ^ (z >> 31)) % n;
}

TEST(CurveLeaks, ALeakBesideAWorkingSetAndACache) {
  Model model = curves({"leak_add", "session_open", "cache_put"}, [](std::size_t s, int k) {
    if (s == 0) return 64 * static_cast<std::uint64_t>(k);                // never falls
    if (s == 1) return noise(k, 4000);                                   // comes and goes
    return 200 * static_cast<std::uint64_t>(std::min(k, 12));            // fills, then full
  });
  LifetimeLeaks found = judged(model);
  EXPECT_TRUE(found.from_curves);
  ASSERT_EQ(found.findings.size(), 1u);
  EXPECT_EQ(headline(model, found.findings[0]), "leak_add");
  bool cache_levels_off = false;
  for (const PassedOverStructure& p : found.passed_over) {
    if (model.frame(p.frames.back()).function == "cache_put") {
      cache_levels_off = p.why.reason == PassedOver::Reason::levels_off;
    }
  }
  EXPECT_TRUE(cache_levels_off);
}

TEST(CurveLeaks, ALeakThatStartsLateIsALeakFromWhereItStarts) {
  // A start-up table filled in the first snapshots, then from 60% of the run
  // the same function leaks.
  Model model = curves({"load_rules"}, [](std::size_t, int k) {
    std::uint64_t table = 300 * static_cast<std::uint64_t>(std::min(k, 5));
    return table + (k > 36 ? 80 * static_cast<std::uint64_t>(k - 36) : 0);
  });
  LifetimeLeaks found = judged(model);
  ASSERT_EQ(found.findings.size(), 1u);
  EXPECT_GE(found.boundaries[found.findings[0].first_epoch], 3000u);
}

TEST(CurveLeaks, AWorkingSetThatComesAndGoesIsNoFinding) {
  // Sessions open and closed at random, as many at the end as before: the
  // floor (the least it holds from then on) rises only towards the end.
  Model model = curves({"session_open"}, [](std::size_t, int k) { return 1000 + noise(k, 2000); });
  LifetimeLeaks found = judged(model);
  EXPECT_TRUE(found.findings.empty());
  ASSERT_EQ(found.passed_over.size(), 1u);
  EXPECT_NE(found.passed_over[0].why.reason, PassedOver::Reason::none);
}

}  // namespace
}  // namespace strata::test
