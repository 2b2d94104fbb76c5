// SPDX-License-Identifier: GPL-2.0-or-later
// The trend analysis on synthetic series: what must be a suspect (rising
// troughs, steady growth, with noise, aliasing, few cycles), and what must not
// (a plateau, temporary buffers, a working set, waves, a start-up allocation).
//
// A synthetic program is a "fine" signal, its bytes at every time unit, which
// sample() turns into what the recorder writes: a snapshot every `every`
// units, with the lowest and highest bytes since the snapshot before.
#include <cmath>
#include <functional>
#include <set>

#include "analyze/heap_analysis.hpp"
#include "analyze/leaks.hpp"
#include "strata_profile.hpp"

namespace strata::test {
namespace {

using Fine = std::vector<std::uint64_t>;

std::vector<ContextPoint> sample(const Fine& fine, std::size_t every) {
  std::vector<ContextPoint> series;
  std::size_t from = 0;
  for (std::size_t t = 0; t < fine.size(); t += every) {
    auto [low, high] = std::minmax_element(fine.begin() + from, fine.begin() + t + 1);
    series.push_back({series.size(), t, fine[t], *low, *high});
    from = t;
  }
  return series;
}

// `n` cycles of `period` units, as markers would give them.
Cycles marked(std::size_t n, std::size_t period) {
  Cycles cycles{.source = CycleSource::markers, .label = "cycle"};
  for (std::size_t k = 0; k < n; ++k) cycles.starts.push_back(k * period);
  cycles.period = static_cast<double>(period);
  return cycles;
}

// `n` cycles: in each, the signal rises from the cycle's base by `work` bytes
// over the first half and comes back down to the base.  base(k) is cycle k's.
Fine cyclic(std::size_t n, std::size_t period, std::uint64_t work,
            const std::function<std::uint64_t(std::size_t)>& base) {
  Fine fine;
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = 0; i < period; ++i) {
      double phase = std::sin(M_PI * static_cast<double>(i) / static_cast<double>(period));
      fine.push_back(base(k) + static_cast<std::uint64_t>(static_cast<double>(work) * phase));
    }
  }
  fine.push_back(fine.back());
  return fine;
}

std::optional<Leak> judge(const Fine& fine, std::size_t every, const Cycles& cycles) {
  return judge_series(sample(fine, every), cycles, fine.size() - 1);
}

// ---- suspects --------------------------------------------------------------------

TEST(RisingTrough, Found) {
  Fine fine = cyclic(8, 100, 5000, [](std::size_t k) { return 1000 * k; });
  std::optional<Leak> leak = judge(fine, 10, marked(8, 100));
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::rising_trough);
  EXPECT_EQ(leak->cycles, 8u);
  EXPECT_NEAR(leak->growth_bytes, 1000.0, 1.0);
  EXPECT_GT(leak->confidence, 0.9);
  EXPECT_FALSE(leak->freed_before_exit);
  ASSERT_NE(leak->curves(), nullptr);  // judged from the curve
  ASSERT_EQ(leak->curves()->troughs.size(), 8u);
  EXPECT_EQ(leak->curves()->troughs[3].bytes, 3000u);
  EXPECT_EQ(leak->curves()->troughs[3].cycle, 3u);
}

// Snapshots every 37 units of 100-unit cycles: never at a trough, but the
// recorder's lows between snapshots still give them.
TEST(RisingTrough, TroughsBetweenSnapshotsCount) {
  Fine fine = cyclic(10, 100, 5000, [](std::size_t k) { return 500 * k; });
  std::optional<Leak> leak = judge(fine, 37, marked(10, 100));
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::rising_trough);
  EXPECT_NEAR(leak->growth_bytes, 500.0, 60.0);
}

TEST(RisingTrough, ThroughNoise) {
  Noise noise;
  Fine fine = cyclic(10, 100, 5000, [](std::size_t k) { return 1000 * k; });
  for (std::uint64_t& b : fine) b += noise(400);
  std::optional<Leak> leak = judge(fine, 10, marked(10, 100));
  ASSERT_TRUE(leak);
  EXPECT_NEAR(leak->growth_bytes, 1000.0, 150.0);
}

TEST(RisingTrough, NoiseAloneIsNoSuspect) {
  Noise noise;
  Fine fine = cyclic(10, 100, 5000, [&](std::size_t) { return 2000 + noise(1500); });
  EXPECT_FALSE(judge(fine, 10, marked(10, 100)));
}

// Cycles faster than the snapshots (aliasing): the sampled bytes look like a
// slow wave of their own; the lows between snapshots see every trough.
TEST(RisingTrough, Aliasing) {
  Fine flat = cyclic(60, 23, 4000, [](std::size_t) { return 100; });
  Fine leaking = cyclic(60, 23, 4000, [](std::size_t k) { return 100 + 50 * k; });
  std::vector<std::uint64_t> times, bytes;
  for (const ContextPoint& p : sample(flat, 25)) times.push_back(p.time), bytes.push_back(p.bytes);
  Cycles aliased = cycles_from_rhythm(times, bytes);  // whatever rhythm it finds
  EXPECT_FALSE(judge(flat, 25, aliased));
  EXPECT_FALSE(judge(flat, 25, Cycles{}));
  std::optional<Leak> leak = judge(leaking, 25, aliased);
  ASSERT_TRUE(leak);
  EXPECT_GT(leak->growth_bytes, 0.0);
}

TEST(RisingTrough, FewCycles) {
  Fine three = cyclic(3, 100, 5000, [](std::size_t k) { return 2000 * k; });
  std::optional<Leak> leak = judge(three, 10, marked(3, 100));
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::rising_trough);
  EXPECT_EQ(leak->cycles, 3u);
  EXPECT_LT(leak->confidence, 0.8);  // fewer cycles, less confidence
  // Two troughs are no trend: not a rising trough.
  Fine two = cyclic(2, 100, 5000, [](std::size_t k) { return 2000 * k; });
  std::optional<Leak> two_leak = judge(two, 10, marked(2, 100));
  EXPECT_TRUE(!two_leak || two_leak->kind == LeakKind::steady_growth);
}

// Troughs that rise from only half of the cycles to the next (0, 0, then one
// rise: a random walk's jump) are not a rising trough; rising in two of
// three steps is.
TEST(RisingTrough, RisesFromMostCycles) {
  Fine once = cyclic(3, 100, 5000, [](std::size_t k) { return k == 2 ? 3000 : 0; });
  std::optional<Leak> leak = judge(once, 10, marked(3, 100));
  EXPECT_TRUE(!leak || leak->kind != LeakKind::rising_trough);
  Fine twice = cyclic(4, 100, 5000, [](std::size_t k) {
    constexpr std::uint64_t kBase[] = {0, 0, 1500, 3000};
    return kBase[k];
  });
  leak = judge(twice, 10, marked(4, 100));
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::rising_trough);
  EXPECT_EQ(leak->curves()->rises, 2u);
}

TEST(RisingTrough, OneCycleIsNoSuspect) {
  Fine one = cyclic(1, 400, 5000, [](std::size_t) { return 0; });
  EXPECT_FALSE(judge(one, 10, marked(1, 400)));
  EXPECT_FALSE(judge(one, 10, Cycles{}));
}

TEST(RisingTrough, FreedBeforeExit) {
  Fine fine = cyclic(8, 100, 5000, [](std::size_t k) { return 1000 * k; });
  for (std::uint64_t b = fine.back(); b > 0; b = b > 1000 ? b - 1000 : 0) fine.push_back(b);
  fine.push_back(0);
  std::optional<Leak> leak = judge(fine, 1, marked(8, 100));
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::rising_trough);
  EXPECT_EQ(leak->cycles, 8u);
  EXPECT_TRUE(leak->freed_before_exit);
  EXPECT_EQ(leak->end_bytes, 0u);
}

TEST(SteadyGrowth, Found) {
  Noise noise;
  Fine fine;
  for (std::size_t t = 0; t < 2000; ++t) fine.push_back(3 * t + noise(3000));
  std::optional<Leak> leak = judge(fine, 20, Cycles{});
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::steady_growth);
  EXPECT_NEAR(leak->growth_bytes, 3.0, 0.5);
  EXPECT_EQ(leak->cycles, 0u);
}

TEST(SteadyGrowth, FreedBeforeExit) {
  Fine fine;
  for (std::size_t t = 0; t < 2000; ++t) fine.push_back(3 * t + (t % 7) * 100);
  for (int i = 0; i < 20; ++i) fine.push_back(fine.back() / 2);
  fine.push_back(0);
  std::optional<Leak> leak = judge(fine, 10, Cycles{});
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::steady_growth);
  EXPECT_TRUE(leak->freed_before_exit);
}

// A late leak at a site that held a wandering working set before: the floor
// is not flat before the onset, yet the climb from a third of the run on is
// steady growth.  Before the onset alone it is not.
TEST(SteadyGrowth, LateAfterAWanderingWorkingSet) {
  Noise noise;
  Fine fine;
  for (std::size_t t = 0; t < 3000; ++t) {
    std::uint64_t window = 16000 + noise(4000);
    fine.push_back(t < 1000 ? window : window + 40 * (t - 1000));
  }
  std::optional<Leak> leak = judge(fine, 10, Cycles{});
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::steady_growth);
  EXPECT_NEAR(leak->growth_bytes, 40.0, 8.0);
  EXPECT_FALSE(judge(Fine(fine.begin(), fine.begin() + 1000), 10, Cycles{}));
}

// A context that only grows while the program has cycles (another context's
// rhythm), then is freed by a slow teardown of a tenth of the run: the
// teardown is not the last cycle's way down, so the troughs keep rising.
TEST(RisingTrough, OnlyGrowsUnderARhythmWithASlowTeardown) {
  Fine fine;
  for (std::size_t t = 0; t < 4000; ++t) fine.push_back(50 * t);
  for (std::uint64_t b = fine.back(); b > 0; b = b > 500 ? b - 500 : 0) fine.push_back(b);
  fine.push_back(0);
  std::optional<Leak> leak = judge(fine, 10, marked(40, 100));
  ASSERT_TRUE(leak);
  EXPECT_EQ(leak->kind, LeakKind::rising_trough);
  EXPECT_TRUE(leak->freed_before_exit);
}

// A buffer whose contents grow `per_unit` bytes a time unit from `start`,
// grown by `factor` (from 64 bytes) whenever it is full, until `fill`; then
// held to `end`.
Fine grown_buffer(double factor, std::size_t start, std::size_t fill, std::size_t end,
                  std::uint64_t per_unit) {
  Fine fine(end, 0);
  std::uint64_t capacity = 0;
  for (std::size_t t = start; t < end; ++t) {
    std::uint64_t contents = per_unit * (std::min(t, fill) - start + 1);
    while (capacity < contents) {
      capacity = capacity == 0 ? 64 : static_cast<std::uint64_t>(factor * capacity);
    }
    fine[t] = capacity;
  }
  return fine;
}

// Grown by a factor and never shrunk: steps that get longer as they get
// higher, so that few tenths of the run see the floor rise.
TEST(SteadyGrowth, StepsThatGrowGeometrically) {
  for (double factor : {1.25, 1.5, 2.0}) {
    for (std::size_t end : {3000, 3700, 4400, 5100}) {
      std::optional<Leak> leak = judge(grown_buffer(factor, 0, end, end, 40), 10, Cycles{});
      ASSERT_TRUE(leak) << "factor " << factor << ", end " << end;
      EXPECT_EQ(leak->kind, LeakKind::steady_growth);
    }
  }
  // ... starting late.
  EXPECT_TRUE(judge(grown_buffer(1.25, 2000, 5000, 5000, 40), 10, Cycles{}));
}

// ---- not suspects ------------------------------------------------------------------

// A table grown by doubling that is then full, early or late: after its last
// step, the run stays flat for longer than the contents took to fill it.
TEST(NotASuspect, TableGrownByDoublingThenFull) {
  EXPECT_FALSE(judge(grown_buffer(2.0, 0, 1000, 4000, 40), 10, Cycles{}));
  EXPECT_FALSE(judge(grown_buffer(2.0, 1200, 2000, 5000, 40), 10, Cycles{}));
  EXPECT_FALSE(judge(grown_buffer(1.25, 0, 1500, 4000, 40), 10, Cycles{}));
}

// A pool that keeps its high-water mark: it grows at each new record of a
// random demand, records that get rarer and smaller.
TEST(NotASuspect, PoolHighWaterMark) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    Noise noise{seed};
    Fine pool;
    std::uint64_t high = 0;
    for (std::size_t t = 0; t < 4000; ++t) {
      high = std::max(high, 4096 * (1 + noise(64)));
      pool.push_back(high);
    }
    EXPECT_FALSE(judge(pool, 10, Cycles{})) << "seed " << seed;
  }
}

TEST(NotASuspect, CacheThatPlateaus) {
  // Fills during the first 3 of 10 cycles, then stays full.
  Fine cache =
      cyclic(10, 100, 2000, [](std::size_t k) { return std::min<std::size_t>(k, 3) * 3000; });
  EXPECT_FALSE(judge(cache, 10, marked(10, 100)));
  Fine steady;
  for (std::size_t t = 0; t < 2000; ++t) steady.push_back(std::min<std::size_t>(t, 600) * 10);
  EXPECT_FALSE(judge(steady, 20, Cycles{}));
}

TEST(NotASuspect, TemporaryBuffers) {
  // Back to nothing in every cycle, the crests growing.
  Fine temp;
  for (std::size_t k = 0; k < 10; ++k) {
    for (std::size_t i = 0; i < 100; ++i) temp.push_back(i % 10 < 5 ? 1000 + 300 * k : 0);
  }
  EXPECT_FALSE(judge(temp, 7, marked(10, 100)));
  EXPECT_FALSE(judge(temp, 7, Cycles{}));
}

TEST(NotASuspect, WorkingSetBuiltAndReleased) {
  // Built over 40% of the run, released, then other work.
  Fine ws;
  for (std::size_t t = 0; t < 800; ++t) ws.push_back(t * 10);
  for (std::size_t t = 0; t < 1200; ++t) ws.push_back(0);
  EXPECT_FALSE(judge(ws, 10, Cycles{}));
}

TEST(NotASuspect, WavesOfDifferentHeights) {
  const std::uint64_t heights[] = {2, 6, 3, 8, 5, 9, 7, 12, 9, 14};
  Fine waves = cyclic(10, 100, 1, [](std::size_t) { return 0; });
  for (std::size_t t = 0; t + 1 < waves.size(); ++t) {
    double phase = std::sin(M_PI * static_cast<double>(t % 100) / 100);
    waves[t] = 500 + static_cast<std::uint64_t>(1000.0 * heights[t / 100] * phase);
  }
  EXPECT_FALSE(judge(waves, 10, marked(10, 100)));
  EXPECT_FALSE(judge(waves, 10, Cycles{}));
}

TEST(NotASuspect, StartUpAllocation) {
  Fine startup(1000, 0);
  for (std::size_t t = 5; t < startup.size(); ++t) startup[t] = 4096;
  EXPECT_FALSE(judge(startup, 10, Cycles{}));
  EXPECT_FALSE(judge(startup, 10, marked(10, 100)));
  // ... and one made lazily in the first cycle.
  Fine lazy(1000, 0);
  for (std::size_t t = 50; t < lazy.size(); ++t) lazy[t] = 20000;
  EXPECT_FALSE(judge(lazy, 10, marked(10, 100)));
}

// A random walk held above nothing grows too (as the square root of time),
// but its floor rises in uneven jumps: no steady growth.
TEST(NotASuspect, RandomWalk) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    Noise noise{seed};
    Fine walk{0};
    for (std::size_t t = 1; t < 3000; ++t) {
      std::int64_t next =
          static_cast<std::int64_t>(walk.back()) + static_cast<std::int64_t>(noise(8193)) - 4096;
      walk.push_back(static_cast<std::uint64_t>(std::max<std::int64_t>(0, next)));
    }
    EXPECT_FALSE(judge(walk, 10, Cycles{})) << "seed " << seed;
  }
}

TEST(NotASuspect, EmptyOrZero) {
  EXPECT_FALSE(judge_series({}, Cycles{}, 0));
  EXPECT_FALSE(judge(Fine(100, 0), 10, marked(5, 20)));
}

}  // namespace
}  // namespace strata::test
