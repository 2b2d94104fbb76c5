// SPDX-License-Identifier: GPL-2.0-or-later
// The judgement of the nodes (lifetime_leaks.hpp, step 3): which structures
// leak, which do not and why.  Internal to plot/analyze.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analyze/lifetime_nodes.hpp"
#include "model/model.hpp"

namespace strata::detail {

// Without markers: the program's bursts of work as its cycles (the epochs
// that start a run of work after an epoch without), before h; none when
// they make fewer than kParts cycles.
std::vector<std::uint32_t> work_bursts(const std::vector<double>& work, std::uint32_t h);

// The nodes of one headline function judged as one structure; the leaking
// nodes, in order.  Each node's span, parts, retention and why are set.
std::vector<std::size_t> judge_structures(const Model& model, std::vector<Node>& nodes,
                                          std::uint32_t h, const std::vector<double>& work,
                                          std::span<const std::uint32_t> cycles);

// A node's ceiling: at each epoch boundary of [0, h], the most it holds
// from there to h.  It falls only when the node gives bytes back for good.
std::vector<double> ceiling_of(const Node& n, std::uint32_t h);

// Whether n's kept bytes replace another structure's (`dying`, with their
// ceilings, of ceiling_of), one band falling for good as the other rises:
// a ceiling that falls in more stretches (epochs, or `cycles`) than that of
// a band that only comes and goes would, but kChance of the time.
bool turnover(const Node& n, const std::vector<const Node*>& dying,
              const std::vector<std::vector<double>>& ceilings, std::uint32_t h,
              std::span<const std::uint32_t> cycles);

// The least span the lifetimes judge, in epochs of a table of `epochs`
// epochs (least_span in lifetime_judge.cpp).
std::uint32_t least_table_span(std::size_t epochs);

// Whether a stretch of parts (of `bounds`, one or more in a row) holds no
// survivor where a steady rate would leave it none less than kChance of the
// time: what the structure leaves behind was not born all through its span
// (a start-up table, and the working set at h that its median left over; a
// ring's first entries and the high of its working set at h).  The halves'
// test sees a burst at each end as balanced; a person sees the band level
// between them.  Two quarters without a survivor are evidence where one is
// not: (1/2)^K against (3/4)^K.  The stretch is set in [at, to).
bool empty_part(const Node& n, const std::vector<std::uint32_t>& bounds,
                const std::vector<double>& work, std::uint32_t& at, std::uint32_t& to);

// Whether all n keeps up to h was born by the end of epoch `fork`, in
// which the process first forked (a K record; a fork at or after h comes
// after all of it): a pool or table a process builds for the children it
// forks, and then waits on them, rises all through its own run, which ends
// at the fork.  What it held when it forked, its children inherit as their
// start-up (their profiles judge it so); a leak of the process's own work
// leaves some behind after its first fork too.
bool born_before_fork(const Node& n, std::uint32_t fork, std::uint32_t h);

// The structures that keep bytes and are no finding, with why, the most kept first.
std::vector<PassedOverStructure> passed_over(const std::vector<Node>& nodes,
                                             const std::vector<std::size_t>& leaking);

}  // namespace strata::detail
