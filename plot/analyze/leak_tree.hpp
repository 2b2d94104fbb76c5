// SPDX-License-Identifier: GPL-2.0-or-later
// Leak suspects among contexts: a context's verdict less the growth that is
// only memory moving between the callers of one function (a transfer), and,
// on the calling-context tree, the nodes that name each leak best.
//
// A node with a single caller and no sites of its own has its caller's
// series: it is not judged apart.  A node with several callers is judged
// when it holds at least a thousandth of the heap's spacetime or of its peak
// (a leak too small for that is still judged in its whole stacks, which
// always are).  Then, in preorder, each suspect not yet accounted for names
// its leak at the deepest node under it that carries nearly all of its
// growth; the nodes down to that one, and all under it, are accounted for.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "analyze/context_tree.hpp"
#include "analyze/contexts.hpp"
#include "analyze/cycles.hpp"
#include "analyze/leaks.hpp"
#include "analyze/series.hpp"
#include "model/model.hpp"

namespace strata {

// The verdict on a context (its series built): a suspect, unless its growth
// is a transfer between the callers of the function that allocates it.
std::optional<Leak> judge_context(const Model& model, const Cycles& cycles,
                                  const SeriesBuilder& builder, const Context& context);

// The nodes of a measured tree that name the leaks, disjoint; each one's
// verdict (with its parts) in `verdicts`, keyed by its least site.
std::vector<NodeId> tree_suspects(const Model& model, const Cycles& cycles, const ContextTree& tree,
                                  const SeriesBuilder& builder, std::map<SiteId, Leak>& verdicts);

}  // namespace strata
