// SPDX-License-Identifier: GPL-2.0-or-later
// The lifetime table by node (lifetime_nodes.hpp).
#include "analyze/lifetime_nodes.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

namespace strata::detail {

// An epoch in which the program works: it makes some, and at least
// kActiveShare of a mean epoch's births (`least`, of working_least()).
double working_least(const std::vector<double>& births) {
  double mean = births.empty() ? 0
                               : std::accumulate(births.begin(), births.end(), 0.0) /
                                     static_cast<double>(births.size());
  return kActiveShare * mean;
}

bool working(double births, double least) { return births > 0 && births >= least; }

std::uint32_t horizon_of(const Model& model, std::uint32_t& work_end, std::vector<double>& births) {
  std::uint32_t epochs = model.lifetimes.epochs;
  // In blocks where the epochs count bytes: the work is read in another
  // unit than the epochs' clock (work_in_blocks).
  bool blocks = work_in_blocks(model);
  births.assign(epochs, 0);
  for (const Site& site : model.sites) {
    for (const LifetimeCell& cell : site.cells) {
      if (cell.birth < epochs) {
        births[cell.birth] += static_cast<double>(blocks ? cell.blocks : cell.bytes);
      }
    }
  }
  double least = working_least(births);
  work_end = 0;
  for (std::uint32_t e = 0; e < epochs; ++e) {
    if (working(births[e], least)) work_end = e;
  }
  return horizon_after(work_end);
}

bool work_in_blocks(const Model& model) {
  const std::string& unit = model.lifetimes.tick_unit;
  return unit == "B" || (unit.empty() && model.header.time_unit == "B");
}

std::uint32_t horizon_after(std::uint32_t work_end) {
  return work_end + 1 > kExitEpochs ? work_end + 1 - kExitEpochs : 1;
}

Node empty_node(std::uint32_t h) {
  Node n;
  n.born.assign(h, 0);
  n.kept.assign(h, 0);
  n.born_blocks.assign(h, 0);
  n.kept_blocks.assign(h, 0);
  n.exit_kept.assign(h, 0);
  n.never_kept.assign(h, 0);
  n.never_blocks.assign(h, 0);
  return n;
}

std::vector<FrameId> headline_path(const FindingHeadlines& headlines,
                                   std::span<const FrameId> frames) {
  std::size_t head = headlines.headline(frames);
  return {frames.begin(), frames.begin() + std::min(head + 1, frames.size())};
}

std::string_view headline_caller(const Model& model, std::span<const FrameId> frames,
                                 std::size_t key_size) {
  return key_size < frames.size() ? std::string_view(model.frame(frames[key_size]).function)
                                  : std::string_view();
}

namespace {

// A container that grows by copying itself (a std::vector that doubles:
// a new, larger buffer, the old one's contents copied, the old one freed)
// makes its bytes again at each copy, and only the last copy is kept.  A
// *copy* in epoch e: of the node's bytes born in e and alive after it, one
// block; of its bytes born before e, one block dies in e; and the new block
// is at least kCopyGrowth times the old one.  The new block then carries on the old one's bytes: as
// many of its bytes as the old block held take the birth epochs the old
// block's bytes had (recursively, in proportion), only the rest is born in
// e; the old block's death is no death (turnover), and its bytes are not
// born again (born[e] less them).  So a vector never cleared keeps bytes
// from every doubling, as a buffer grown by realloc does.  One block for
// one block, so that a cache's entries replaced in the same epoch (many
// blocks, as many bytes) are never a copy; by a factor, so that temporaries
// one at a time, a little larger each (an epoch's last one alive across its
// end, freed in the next), are not either.
void follow_copies(Node& n, std::uint32_t h) {
  // Of the bytes born in each epoch, those alive after it (kept, or dying later).
  std::vector<Amount> lasting(h), dying(h);  // dying: born before e, dying in e
  std::vector<std::uint32_t> dying_birth(h, 0);
  for (std::uint32_t e = 0; e < h; ++e) lasting[e] = {n.kept[e], n.kept_blocks[e]};
  for (const auto& [cell, a] : n.deaths) {
    auto [birth, death] = cell;
    lasting[birth].bytes += a.bytes;
    lasting[birth].blocks += a.blocks;
    dying[death].bytes += a.bytes;
    dying[death].blocks += a.blocks;
    dying_birth[death] = birth;
  }
  // The old block dies in e, or in e + 1 when an epoch ends between the new
  // block's birth and the old one's free (a large copy), and no block born
  // in e + 1 claims it.
  auto old_block = [&](std::uint32_t e) -> std::optional<std::uint32_t> {
    if (dying[e].blocks == 1) return e;
    if (dying[e].blocks == 0 && e + 1 < h && dying[e + 1].blocks == 1 &&
        lasting[e + 1].blocks == 0 && dying_birth[e + 1] < e) {
      return e + 1;
    }
    return std::nullopt;
  };
  auto copy = [&](std::uint32_t e) -> std::optional<std::uint32_t> {
    std::optional<std::uint32_t> d = old_block(e);
    if (lasting[e].blocks == 1 && d &&
        static_cast<double>(lasting[e].bytes) >=
            kCopyGrowth * static_cast<double>(dying[*d].bytes)) {
      return d;
    }
    return std::nullopt;
  };
  bool any = false;
  for (std::uint32_t e = 0; e < h && !any; ++e) any = copy(e).has_value();
  if (!any) return;
  n.copies = true;
  // origin[e][o]: of the bytes born in e alive after it, those first born in o.
  std::vector<std::vector<double>> origin(h, std::vector<double>(h, 0.0));
  std::vector<double> kept(h, 0.0);
  for (std::uint32_t e = 0; e < h; ++e) {
    double own = static_cast<double>(lasting[e].bytes);
    if (std::optional<std::uint32_t> d = copy(e)) {
      std::uint32_t b = dying_birth[*d];
      std::uint64_t moved = dying[*d].bytes;
      double share = static_cast<double>(moved) / static_cast<double>(lasting[b].bytes);
      for (std::uint32_t o = 0; o <= b; ++o) origin[e][o] = share * origin[b][o];
      own -= static_cast<double>(moved);
      n.born[e] -= moved;
      n.deaths.erase({b, *d});
    }
    origin[e][e] = own;
    if (n.kept[e] == 0) continue;
    double share = static_cast<double>(n.kept[e]) / static_cast<double>(lasting[e].bytes);
    for (std::uint32_t o = 0; o <= e; ++o) kept[o] += share * origin[e][o];
  }
  std::uint64_t total = 0;
  for (std::uint32_t e = 0; e < h; ++e) total += n.kept[e];
  for (std::uint32_t e = 0; e < h; ++e) {
    n.kept[e] = static_cast<std::uint64_t>(std::llround(kept[e]));
  }
  // (rounding: the kept bytes add up as before)
  std::uint64_t now = std::accumulate(n.kept.begin(), n.kept.end(), std::uint64_t{0});
  auto most = std::max_element(n.kept.begin(), n.kept.end());
  *most = *most + total - now;
}

}  // namespace

std::vector<Node> nodes_of(const Model& model, const FindingHeadlines& headlines, std::uint32_t h) {
  std::map<std::pair<std::vector<FrameId>, std::string_view>, std::size_t> index_of;
  std::vector<Node> nodes;
  for (std::size_t s = 0; s < model.sites.size(); ++s) {
    const Site& site = model.sites[s];
    bool born = std::any_of(site.cells.begin(), site.cells.end(),
                            [&](const LifetimeCell& c) { return c.birth < h; });
    if (!born) continue;
    std::vector<FrameId> key = headline_path(headlines, site.frames);
    std::string_view caller = headline_caller(model, site.frames, key.size());
    auto [at, added] = index_of.try_emplace({key, caller}, nodes.size());
    if (added) {
      Node n = empty_node(h);
      n.key = std::move(key);
      n.caller = caller;
      nodes.push_back(std::move(n));
    }
    Node& n = nodes[at->second];
    SiteId id{static_cast<std::uint32_t>(s)};
    n.sites.push_back(id);
    std::uint64_t kept = 0;
    for (const LifetimeCell& c : site.cells) {
      if (c.alive()) n.alive_end += c.bytes;
      if (c.birth >= h) continue;
      n.born[c.birth] += c.bytes;
      n.born_blocks[c.birth] += c.blocks;
      if (kept_at(c, h)) {
        n.kept[c.birth] += c.bytes;
        n.kept_blocks[c.birth] += c.blocks;
        kept += c.bytes;
        if (!c.alive()) {
          n.exit_freed += c.bytes;
          n.exit_kept[c.birth] += c.bytes;
          if (c.freed_by != 0) n.exit_free[c.freed_by] += c.bytes;
        } else {
          n.never_kept[c.birth] += c.bytes;
          n.never_blocks[c.birth] += c.blocks;
        }
      } else if (c.death > c.birth) {
        Amount& a = n.deaths[{c.birth, c.death}];
        a.bytes += c.bytes;
        a.blocks += c.blocks;
        if (c.freed_by != 0) {
          n.run_free[c.freed_by] += c.bytes;
          Lived& lived = n.run_lived[c.freed_by];
          lived.blocks += c.blocks;
          lived.epochs += c.blocks * static_cast<std::uint64_t>(c.death - c.birth);
        }
      }
    }
    n.kept_total += kept;
    if (n.sites.size() == 1 || kept > n.main_kept) {
      n.main_kept = kept;
      n.main_site = id;
    }
  }
  for (Node& n : nodes) {
    follow_copies(n, h);
    // A copy moves kept bytes between birth epochs; they still add up.
    assert(std::accumulate(n.kept.begin(), n.kept.end(), std::uint64_t{0}) == n.kept_total);
  }
  return nodes;
}

// The node's bytes alive across each epoch boundary e of [0, h] (the start
// of epoch e): a cell born in b and dying in d (kept: alive at h) is alive
// across b + 1 .. d.
std::vector<double> alive_across(const Node& n, std::uint32_t h) {
  std::vector<double> delta(h + 2, 0.0);
  for (std::uint32_t b = 0; b < h; ++b) {
    delta[b + 1] += static_cast<double>(n.kept[b]);
    delta[h + 1] -= static_cast<double>(n.kept[b]);
  }
  for (const auto& [cell, amount] : n.deaths) {
    auto [b, d] = cell;
    if (d <= b || b >= h) continue;
    delta[b + 1] += static_cast<double>(amount.bytes);
    delta[std::min(d, h) + 1] -= static_cast<double>(amount.bytes);
  }
  std::vector<double> alive(h + 1, 0.0);
  double now = 0;
  for (std::uint32_t e = 0; e <= h; ++e) alive[e] = now += delta[e];
  return alive;
}

std::uint64_t survivors(const Node& n, std::uint32_t e) {
  return std::max<std::uint64_t>(n.kept_blocks[e], n.kept[e] > 0 ? 1 : 0);
}

}  // namespace strata::detail
