// SPDX-License-Identifier: GPL-2.0-or-later
// The words of the lifetimes (analyze/lifetimes.hpp): what a file's
// lifetimes are, what a question of time selected, when a context's bytes
// were born and who freed a leak suspect's, each exact in what it claims
// (epoch boundaries, percentages of the run rounded outwards).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analyze/lifetimes.hpp"
#include "model/model.hpp"

namespace strata {

// "3 epochs of 1 B from time 100, free stacks known", or, for a file
// without lifetimes, what it cannot answer: "no lifetimes in this file (a
// massif.out file): when bytes were born and who freed them is not known".
std::string lifetimes_words(const Model& model);

// "bytes born in [X, Y) and alive at Z, to the lifetimes' epochs of N B"
// (Z: "the end of the run" at the end).
std::string selection_words(const Model& model, const Selection& selection);

// The same, short enough for a graph's title: "bytes born in [X, Y) and
// alive at Z" (Z: "the end").
std::string selection_title(const Model& model, const Selection& selection);

// "71% in 0-10% of the run, 29% in 50-100%", after "born: ".
std::string born_words(const Model& model, const std::vector<BornPart>& parts);

// Where epoch boundary `k` falls, in percent of the run from the program's
// first heap operation (the lifetimes' time zero) to its end, as --born's
// percentages.
double percent_of_run(const Model& model, std::uint32_t k);

// The percentages of the run from boundary `from` to boundary `to`,
// rounded outwards: "40-90%".
std::string run_range(const Model& model, std::uint32_t from, std::uint32_t to);

// The same for the epoch boundaries of a leak judgement (Leaks::boundaries:
// the lifetimes', or the snapshots' when judged from the curves), the run
// counted from the first.
double percent_of_run(const Model& model, std::span<const std::uint64_t> boundaries,
                      std::uint32_t k);
// Where time `at` falls, in percent of the run counted from the first of
// `boundaries` (from 0 without them).
double percent_at(const Model& model, std::span<const std::uint64_t> boundaries, std::uint64_t at);
std::string run_range(const Model& model, std::span<const std::uint64_t> boundaries,
                      std::uint32_t from, std::uint32_t to);

// A free stack as the words name it: its frames, and the one that heads it
// (its first in the program's own code).
struct FreeStackName {
  std::vector<Frame> frames;
  std::size_t headline = 0;
};

// Who freed most of the bytes of a suspect that lived across an epoch's
// end, `freed` (most bytes first) named by `names` (the same order): "freed
// at exit by player_free (player.c:141) (100% of ...)" or "freed by f
// (a.c:3) in 40-90% of the run (85% of ...)", then, when another stack
// freed some at exit, "; at exit by g (a.c:9) (15%)".  A name takes its
// caller ("f (a.c:3) <- g (a.c:9)") when the two named would read the same.
// Empty when `freed` is.
std::string freed_words(const Model& model, const std::vector<FreedBy>& freed,
                        const std::vector<FreeStackName>& names);

}  // namespace strata
