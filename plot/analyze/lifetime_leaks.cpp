// SPDX-License-Identifier: GPL-2.0-or-later
// Leak findings from the lifetime table (lifetime_leaks.hpp).
#include "analyze/lifetime_leaks.hpp"

#include "analyze/lifetime_judge.hpp"
#include "analyze/lifetime_nodes.hpp"
#include "analyze/lifetimes.hpp"
#include "analyze/series.hpp"
#include "analyze/stats.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>

namespace strata {

using namespace detail;

namespace {

// ---- one leak, one finding -----------------------------------------------------------

class Joins {
 public:
  explicit Joins(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  std::size_t find(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> parent_;
};

double total_variation(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  double ta = static_cast<double>(std::accumulate(a.begin(), a.end(), std::uint64_t{0}));
  double tb = static_cast<double>(std::accumulate(b.begin(), b.end(), std::uint64_t{0}));
  if (ta == 0 || tb == 0) return 1;
  double tv = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    tv += std::abs(static_cast<double>(a[i]) / ta - static_cast<double>(b[i]) / tb);
  }
  return tv / 2;
}

// Of kept bytes freed at exit by free stack (`exit_free`), the stack that
// frees the most, when it frees at least what is still alive at the end
// (`alive`); else 0.
std::uint32_t holder_stack(const std::map<std::uint32_t, std::uint64_t>& exit_free,
                           std::uint64_t alive) {
  std::uint32_t best = 0;
  std::uint64_t bytes = 0;
  for (const auto& [stack, b] : exit_free) {
    if (b > bytes) best = stack, bytes = b;
  }
  return bytes > 0 && bytes >= alive ? best : 0;
}

// The frames of free stack `stack` (from 1); empty for 0 or an unknown id.
std::span<const FrameId> free_stack(const Model& model, std::uint32_t stack) {
  if (stack == 0 || stack > model.lifetimes.free_stacks_frames.size()) return {};
  return model.lifetimes.free_stacks_frames[stack - 1];
}

// The frame of free stack `stack` that holds what it frees; none for 0, an
// unknown id or an empty stack.
std::optional<FrameId> holder_frame(const Model& model, const FindingHeadlines& headlines,
                                    std::uint32_t stack) {
  std::span<const FrameId> frames = free_stack(model, stack);
  if (frames.empty()) return std::nullopt;
  return frames[headlines.holder(frames)];
}

// What frees a node's kept bytes at exit: its holder stack's frames and the
// function of their freer (FindingHeadlines::freer); none when the node has
// no holder stack or the stack no own frame.
struct ExitFreer {
  std::span<const FrameId> frames;
  std::string_view function;
};

std::optional<ExitFreer> exit_freer(const Model& model, const FindingHeadlines& headlines,
                                    const std::map<std::uint32_t, std::uint64_t>& exit_free,
                                    std::uint64_t alive) {
  std::span<const FrameId> frames = free_stack(model, holder_stack(exit_free, alive));
  std::optional<std::size_t> at = headlines.freer(frames);
  if (!at) return std::nullopt;
  return ExitFreer{frames, model.frame(frames[*at]).function};
}

// The frame of the finding's main site's stack that calls its headline
// (FindingHeadlines::builder: the program's own, not main), when that
// function frees the most of the finding's bytes that die during the run
// (the code that frees of its largest free stack not at exit,
// FindingHeadlines::freer, else that stack's headline): the code that owns
// the objects' lifetime, where the path that leaks one is (a parsed tree
// made by parse_event and freed by handle_event, which drops one in 40 on
// an error path); none otherwise.  Only the caller: further out is a
// thread's or a request's loop that frees all it made (its scratch), not
// the code to fix.
std::optional<FrameId> owner_frame(const Model& model, const FindingHeadlines& headlines,
                                   const Finding& f) {
  if (!model.lifetimes.free_stacks || f.parts.empty() || f.parts.front().frames.empty()) {
    return std::nullopt;
  }
  const FindingPart& main = f.parts.front();
  const std::vector<FrameId>& frames = model.site(main.main_site).frames;
  std::optional<std::size_t> caller = headlines.builder(frames, main.frames.size() - 1);
  if (!caller) return std::nullopt;
  std::vector<FreedBy> freed = freed_by(model, f.sites);  // most bytes first
  auto during = std::find_if(freed.begin(), freed.end(), [](const FreedBy& by) { return !by.at_exit; });
  if (during == freed.end()) return std::nullopt;
  std::span<const FrameId> ids = free_stack(model, during->stack);
  if (ids.empty()) return std::nullopt;
  std::size_t frees = headlines.freer(ids).value_or(headlines.headline(ids));
  if (model.frame(ids[frees]).function != model.frame(frames[*caller]).function) return std::nullopt;
  return frames[*caller];
}

// The code that holds what a free stack frees (FindingHeadlines::holder),
// when the stack has a freer of the program's own and the holder is not
// main; none otherwise.
std::optional<std::string_view> run_holder(const Model& model, const FindingHeadlines& headlines,
                                           std::uint32_t stack) {
  std::span<const FrameId> frames = free_stack(model, stack);
  if (frames.empty() || !headlines.freer(frames)) return std::nullopt;
  std::string_view f = model.frame(frames[headlines.holder(frames)]).function;
  if (f.empty() || f == "main") return std::nullopt;
  return f;
}

// The code that holds what a node frees during the run: the run_holder of
// each of its free stacks before H, with the bytes it frees.
std::map<std::string_view, std::uint64_t> run_holders(const Model& model,
                                                      const FindingHeadlines& headlines,
                                                      const Node& n) {
  std::map<std::string_view, std::uint64_t> out;
  for (const auto& [stack, bytes] : n.run_free) {
    if (std::optional<std::string_view> f = run_holder(model, headlines, stack)) out[*f] += bytes;
  }
  return out;
}

// The holder that frees the most bytes (of run_holders); none when empty.
std::optional<std::string_view> main_holder(const std::map<std::string_view, std::uint64_t>& of) {
  auto most = std::max_element(of.begin(), of.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  if (most == of.end()) return std::nullopt;
  return most->first;
}

// The finding's members, its main structure's first: the structure (the
// members of one headline function called from one function) whose code
// that frees the most of its bytes during the run also frees some of every
// other's, when one alone does (a session, whose close frees the options it
// parsed, which its command loop frees too: it holds them).  When several
// do (one close frees a session and what it holds, and nothing else frees
// either), one that holds blocks the program's own code made before one
// all of whose blocks a library made (a configuration before the parser's
// tree it holds, though the tree is parsed first), and among those the
// one whose blocks that code freed lived the longest, on average, when one
// alone did: what holds the others is made before what
// it is given and freed with it (a session before the entries of its table,
// a keyboard state before the buffers its keys grow); a container that
// copies itself, whose blocks live until it grows, is none of them.  Else, as they are,
// the most kept first.
void main_first(const Model& model, const FindingHeadlines& headlines,
                std::vector<const Node*>& members) {
  using Structure = std::pair<std::string_view, std::string_view>;
  struct Held {
    std::map<std::string_view, std::uint64_t> bytes;  // holder -> bytes it frees (run_holders)
    std::map<std::string_view, Lived> lived;          // holder -> how long those blocks lived
    bool own = false;  // its own code made some of its kept bytes (FindingHeadlines::library_made)
  };
  std::map<Structure, Held> holders;
  for (const Node* n : members) {
    Held& of = holders[{n->function, n->caller}];
    of.own = of.own || (n->kept_total > 0 &&
                        (n->key.empty() || !headlines.library_made(model.site(n->main_site).frames,
                                                                   n->key.size() - 1)));
    for (const auto& [f, bytes] : run_holders(model, headlines, *n)) of.bytes[f] += bytes;
    // (a container that copies itself frees its blocks as it grows: how
    // long they lived says when it grew, not what it holds)
    if (n->copies) continue;
    for (const auto& [stack, lived] : n->run_lived) {
      std::optional<std::string_view> f = run_holder(model, headlines, stack);
      if (!f) continue;
      Lived& l = of.lived[*f];
      l.blocks += lived.blocks;
      l.epochs += lived.epochs;
    }
  }
  if (holders.size() < 2) return;
  // Those that hold all others.
  struct Root {
    Structure structure;
    double lived = 0;  // how long the blocks its main holder freed lived, on average
    bool own = false;  // Held::own
  };
  std::vector<Root> roots;
  for (const auto& [structure, of] : holders) {
    std::optional<std::string_view> most = main_holder(of.bytes);
    if (!most) continue;
    bool all = std::all_of(holders.begin(), holders.end(), [&](const auto& other) {
      return other.first == structure || other.second.bytes.contains(*most);
    });
    if (!all) continue;
    auto lived = of.lived.find(*most);
    double mean = lived == of.lived.end() || lived->second.blocks == 0
                      ? 0.0
                      : static_cast<double>(lived->second.epochs) /
                            static_cast<double>(lived->second.blocks);
    roots.push_back({structure, mean, of.own});
  }
  if (roots.empty()) return;
  // The program's own objects first: what a library made (a parser's tree,
  // a decoder's tables) the program holds through an object of its own.
  std::sort(roots.begin(), roots.end(), [](const Root& a, const Root& b) {
    if (a.own != b.own) return a.own;
    return a.lived > b.lived;
  });
  if (roots.size() > 1 && roots[0].own == roots[1].own && roots[0].lived <= roots[1].lived) {
    return;  // neither is the one
  }
  Structure root = roots.front().structure;
  std::stable_partition(members.begin(), members.end(),
                        [&](const Node* n) { return Structure(n->function, n->caller) == root; });
}

Finding finding_of(const Model& model, const FindingHeadlines& headlines,
                   std::vector<const Node*> members, std::uint32_t h) {
  std::sort(members.begin(), members.end(), [](const Node* a, const Node* b) {
    if (a->kept_total != b->kept_total) return a->kept_total > b->kept_total;
    return a->key < b->key;
  });
  main_first(model, headlines, members);
  Finding f;
  f.kept_by_epoch.assign(h, 0);
  std::map<std::uint32_t, std::uint64_t> exit_free;
  for (const Node* n : members) {
    f.parts.push_back({.frames = n->key,
                       .sites = n->sites,
                       .main_site = n->main_site,
                       .kept_bytes = n->kept_total,
                       .alive_bytes = n->alive_end});
    f.sites.insert(f.sites.end(), n->sites.begin(), n->sites.end());
    f.kept_bytes += n->kept_total;
    f.alive_bytes += n->alive_end;
    for (std::uint32_t e = 0; e < h; ++e) {
      f.kept_by_epoch[e] += n->kept[e];
      f.kept_blocks += n->kept_blocks[e];
    }
    for (const auto& [stack, bytes] : n->exit_free) exit_free[stack] += bytes;
    f.exit_freed_bytes += n->exit_freed;
  }
  std::sort(f.sites.begin(), f.sites.end());
  // Its kept bytes are its parts' and its epochs', alike.
  assert(std::accumulate(f.kept_by_epoch.begin(), f.kept_by_epoch.end(), std::uint64_t{0}) ==
         f.kept_bytes);
  f.retention = members.front()->ratios;
  f.first_epoch = members.front()->first;
  f.end_epoch = members.front()->end == 0 ? h : members.front()->end;
  f.holder = holder_stack(exit_free, f.alive_bytes);
  f.holder_frame = holder_frame(model, headlines, f.holder);
  f.owner = owner_frame(model, headlines, f);
  return f;
}


// The most leaking structures of one builder compared pair by pair (step 5, (d)).
constexpr std::size_t kPairwise = 1024;

// The joins of step 5, indexed by what they compare so that they cost about
// the leaking nodes, not their pairs (but the structures of one builder, at
// most kPairwise, compared pair by pair); after the first, they compare
// structures (the nodes of one headline function called from one function),
// or their parts freed at exit by one freer, as wholes; the same joins as
// comparing every pair (a,b), whose rule is: the same headline function; or freed together
// at exit and born alike (total variation at most kSame; freed together
// alone for a node with no kept block of its own); or, when neither is
// freed at exit or one code frees both there, the same builder (one a
// container that grows only in epochs that kept blocks of the other, born
// unlike); or the same births,
// when neither is freed at exit or both are, freed together.  A join with
// one node of a class that every member would join is a join with them all
// (union-find), which is what lets a class stand for its members.
void join_leaking(const Model& model, const std::vector<Node>& nodes,
                  const std::vector<std::size_t>& leaking,
                  const std::vector<std::optional<ExitFreer>>& freers,
                  const std::vector<std::string_view>& builders,
                  const std::vector<std::optional<std::vector<std::string_view>>>& own_frames,
                  const std::vector<std::map<std::string_view, std::uint64_t>>& run_holders,
                  const std::vector<std::size_t>& structure, Joins& joins) {
  std::size_t n = leaking.size();
  // The same headline function called from the same function: one
  // structure, as judge_structures judges it (a helper of the program's own
  // allocating for two callers builds two).
  for (std::size_t a = 0; a < n; ++a) joins.join(a, structure[a]);
  // A helper's structures for two callers are one when one code frees the
  // most of both during the run (the sessions a tenant's first line opens
  // and those a rename opens, both closed by the idle sweep): the frees
  // say they are one table.
  {
    std::map<std::size_t, std::map<std::string_view, std::uint64_t>> held;  // structure -> holders
    for (std::size_t a = 0; a < n; ++a) {
      for (const auto& [f, bytes] : run_holders[a]) held[structure[a]][f] += bytes;
    }
    std::map<std::pair<std::string_view, std::string_view>, std::size_t> by_holder;
    for (const auto& [first, of] : held) {
      const Node& node = nodes[leaking[first]];
      if (node.key.empty()) continue;
      std::optional<std::string_view> most = main_holder(of);
      if (!most) continue;
      auto [at, fresh] = by_holder.emplace(std::pair(node.function, *most), first);
      if (!fresh) joins.join(first, at->second);
    }
  }
  // The joins after these compare structures, not their places: some of a
  // structure's members as one part, their kept bytes and blocks added up,
  // so that a structure of many places (a library's parse tree, a place
  // for each kind of node) weighs and is born as a whole: one of its places
  // that keeps a block in one epoch is not born exactly like another
  // structure's that does, nor keeps its bytes in the other's epochs.
  struct Part {
    std::size_t member = 0;  // one of them (all are joined)
    std::vector<std::size_t> members;
    std::vector<std::uint64_t> kept, blocks;
    bool copies = false;
  };
  // Leaking node `a` into the part of `parts` at `key` (made for it when new).
  auto add = [&]<typename Key>(std::vector<Part>& parts, std::map<Key, std::size_t>& index,
                               const Key& key, std::size_t a) {
    auto [at, fresh] = index.emplace(key, parts.size());
    if (fresh) parts.push_back({a, {}, {}, {}, false});
    Part& part = parts[at->second];
    part.members.push_back(a);
    const Node& node = nodes[leaking[a]];
    part.kept.resize(std::max(part.kept.size(), node.kept.size()), 0);
    part.blocks.resize(std::max(part.blocks.size(), node.kept_blocks.size()), 0);
    for (std::size_t e = 0; e < node.kept.size(); ++e) part.kept[e] += node.kept[e];
    for (std::size_t e = 0; e < node.kept_blocks.size(); ++e) part.blocks[e] += node.kept_blocks[e];
    part.copies |= node.copies;
    return fresh;
  };
  // Freed together (one freer, or one's freer called on the other's stack)
  // and born alike: joined below, with the births.  A node without births
  // to compare (no kept block of its own: bytes grown onto older blocks)
  // joins on its freer alone.
  auto births = [&](std::size_t a) {
    const std::vector<std::uint64_t>& blocks = nodes[leaking[a]].kept_blocks;
    return std::any_of(blocks.begin(), blocks.end(), [](std::uint64_t b) { return b > 0; });
  };
  std::unordered_map<std::string_view, std::size_t> any_by_freer;
  for (std::size_t a = 0; a < n; ++a) {
    if (freers[a] && !freers[a]->function.empty()) any_by_freer.emplace(freers[a]->function, a);
  }
  for (std::size_t a = 0; a < n; ++a) {
    if (!freers[a] || freers[a]->function.empty() || births(a)) continue;
    joins.join(a, any_by_freer.at(freers[a]->function));
    for (FrameId f : freers[a]->frames) {
      auto at = any_by_freer.find(model.frame(f).function);
      if (at != any_by_freer.end()) joins.join(a, at->second);
    }
  }
  // The same builder, when neither is freed at exit (or one code frees
  // both there: a list of stale devices and the devices parked on it, both
  // freed by the daemon's destructor), one is a container
  // that grows (by copies, or by realloc: kept bytes in an epoch that kept
  // no block of its own) only in epochs that kept blocks of the other,
  // most of which were born since its own first kept bytes, and their
  // births differ (total variation over kSame): a container and the data
  // it holds, which grows as the data is added (a buffer of the same
  // builder that grows when something else happens, a zip archive kept
  // alive by another leak, holds none of it) and was there for most of it
  // (a table's first buffer may come from another site, a rehash's holds
  // what was added since; an audit buffer that starts late beside copies
  // of alerts kept from the start holds none of them).  One freed at exit and the
  // other not are two: the code that frees a container at exit frees what
  // it holds (an order gateway's history, freed at exit, and the reject
  // messages its order handler never frees).  Two leaks
  // of the helpers one loop calls, neither a container, are judged by
  // their births below: each at its own rate, they are born alike but not
  // together (and a rare one's few blocks differ from any other's by
  // chance).  Compared structure by structure: each structure's members
  // never freed at exit, or freed there by one freer, that have a builder,
  // as one part.  A builder of more
  // than kPairwise such structures joins them all: comparing every pair
  // would cost their square.
  auto grows = [](const Part& x) {
    if (x.copies) return true;
    for (std::size_t e = 0; e < x.kept.size() && e < x.blocks.size(); ++e) {
      if (x.kept[e] > 0 && x.blocks[e] == 0) return true;
    }
    return false;
  };
  auto holds = [](const Part& x, const Part& data) {
    const std::vector<std::uint64_t>& added = data.blocks;
    bool started = false;  // the container keeps bytes born by this epoch
    std::uint64_t before = 0, after = 0;  // the data's kept blocks born before, and since
    for (std::size_t e = 0; e < x.kept.size() && e < added.size(); ++e) {
      started = started || x.kept[e] > 0;
      if (x.kept[e] > 0 && added[e] == 0) return false;
      (started ? after : before) += added[e];
    }
    return before <= after;
  };
  std::vector<Part> unfreed;
  std::map<std::size_t, std::size_t> unfreed_of;  // structure -> its part
  // (builder, the code that frees them at exit: none, or its function) -> parts
  std::map<std::pair<std::string_view, std::optional<std::string_view>>, std::vector<std::size_t>>
      by_builder;
  for (std::size_t a = 0; a < n; ++a) {
    if (builders[a].empty() || (freers[a] && freers[a]->function.empty())) continue;
    std::optional<std::string_view> freer;
    if (freers[a]) freer = freers[a]->function;
    if (add(unfreed, unfreed_of, structure[a], a)) {
      by_builder[{builders[a], freer}].push_back(unfreed.size() - 1);
    }
  }
  for (const auto& [builder, members] : by_builder) {
    if (members.size() > kPairwise) {
      for (std::size_t p : members) joins.join(unfreed[p].member, unfreed[members.front()].member);
      continue;
    }
    std::vector<bool> growing(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) growing[i] = grows(unfreed[members[i]]);
    for (std::size_t i = 0; i < members.size(); ++i) {
      for (std::size_t j = i + 1; j < members.size(); ++j) {
        const Part& a = unfreed[members[i]];
        const Part& b = unfreed[members[j]];
        if (((growing[i] && holds(a, b)) || (growing[j] && holds(b, a))) &&
            total_variation(a.blocks, b.blocks) > kSame) {
          joins.join(a.member, b.member);
        }
      }
    }
  }
  // The same births, when neither is freed at exit, or both are and freed together.
  // Nodes whose kept blocks come from the epochs in exactly the same
  // proportions are one class (each is as far from any other node as the
  // next); classes are compared in the order of their mean birth epoch,
  // which differs by at most (H - 1) x kSame between two within kSame.
  struct Births {
    std::vector<std::uint64_t> blocks;
    std::uint64_t total = 0;  // of blocks
    std::size_t first = 0;    // the first epoch that keeps some
    double mean = 0;
    std::size_t unfreed = SIZE_MAX;   // a member without a freer (all of them are joined)
    std::vector<std::size_t> freed;   // the members with one
    std::unordered_map<std::string_view, std::size_t> by_freer;  // freer -> a member (all joined)
    std::set<std::string_view> own_frames;  // its members' (FindingHeadlines::own_frames)
    std::map<std::string_view, std::uint64_t> run_holders;  // its members' (run_holders), bytes
    bool library = false;                // a member's headline is no code of the program's own
  };
  auto proportional = [](const std::vector<std::uint64_t>& x, const std::vector<std::uint64_t>& y) {
    using Wide = unsigned __int128;
    Wide tx = std::accumulate(x.begin(), x.end(), Wide{0});
    Wide ty = std::accumulate(y.begin(), y.end(), Wide{0});
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (Wide{x[i]} * ty != Wide{y[i]} * tx) return false;
    }
    return true;
  };
  // Part by part of each structure (above): its members never freed at
  // exit, and those freed at exit by each freer.
  std::vector<Part> parts;
  std::map<std::pair<std::size_t, std::optional<std::string_view>>, std::size_t> part_of;
  for (std::size_t a = 0; a < n; ++a) {
    std::optional<std::string_view> freer;
    if (freers[a]) freer = freers[a]->function;
    add(parts, part_of, std::pair(structure[a], freer), a);
  }
  std::vector<Births> classes;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> by_shape;  // shape -> classes
  for (const Part& part : parts) {
    std::size_t a = part.member;
    const std::vector<std::uint64_t>& blocks = part.blocks;
    std::uint64_t total = std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0});
    if (total == 0) continue;  // no births to compare (total_variation says 1)
    std::uint64_t shape = 0;   // which epochs have blocks, and their shares to 1/1024
    double mean = 0;
    std::size_t first = blocks.size();
    for (std::size_t e = 0; e < blocks.size(); ++e) {
      if (blocks[e] == 0) continue;
      first = std::min(first, e);
      auto share = static_cast<std::uint64_t>((unsigned __int128){blocks[e]} * 1024 / total);
      shape = (shape ^ (e + 1) ^ (share << 8)) * 0x9E3779B97F4A7C15ULL;
      mean += static_cast<double>(e) * static_cast<double>(blocks[e]) / static_cast<double>(total);
    }
    std::vector<std::size_t>& same = by_shape[shape];
    auto it = std::find_if(same.begin(), same.end(),
                           [&](std::size_t c) { return proportional(classes[c].blocks, blocks); });
    std::size_t c = it != same.end() ? *it : classes.size();
    if (c == classes.size()) {
      classes.push_back({blocks, total, first, mean, SIZE_MAX, {}, {}, {}, {}, false});
      same.push_back(c);
    }
    Births& k = classes[c];
    for (std::size_t m : part.members) {
      for (const auto& [f, bytes] : run_holders[m]) k.run_holders[f] += bytes;
      if (own_frames[m]) {
        k.own_frames.insert(own_frames[m]->begin(), own_frames[m]->end());
      } else {
        k.library = true;
      }
    }
    if (freers[a]) {
      k.freed.insert(k.freed.end(), part.members.begin(), part.members.end());
      if (!freers[a]->function.empty()) {
        auto [at, fresh] = k.by_freer.emplace(freers[a]->function, a);
        if (!fresh) joins.join(a, at->second);
      }
    } else if (k.unfreed == SIZE_MAX) {
      k.unfreed = a;
    } else {
      joins.join(a, k.unfreed);
    }
  }
  // Within a class (the same births) and between two classes within kSame:
  // the pairs of members never freed, and of members freed together.
  auto freed_together = [&](const Births& x, const Births& y) {
    for (const auto& [function, a] : x.by_freer) {
      auto at = y.by_freer.find(function);
      if (at != y.by_freer.end()) joins.join(a, at->second);
    }
    for (std::size_t b : y.freed) {
      for (FrameId f : freers[b]->frames) {
        auto at = x.by_freer.find(model.frame(f).function);
        if (at != x.by_freer.end()) joins.join(b, at->second);
      }
    }
  };
  // One freed at exit and the other never freed are two, as in (d): the
  // code that frees a structure at exit frees what it holds.
  auto join_classes = [&](const Births& x, const Births& y) {
    if (x.unfreed != SIZE_MAX && y.unfreed != SIZE_MAX) joins.join(x.unfreed, y.unfreed);
    freed_together(x, y);
    if (&x != &y) freed_together(y, x);
  };
  for (const Births& k : classes) join_classes(k, k);
  // Born alike but not in the same proportions: one structure when some code
  // of the program's own builds both (a function on both stacks from their
  // headlines out, not main), or one owns the other (owns: a session and
  // the options it holds, which its close frees beside the command loop
  // that replaces them; or a session and the table its lines fill, which
  // its close alone frees: each owns the other), and they were born
  // together (kMinBlocks kept
  // blocks each at least, and the epochs that kept more of one kept more of
  // the other, from the first that kept both: a correlation of kTogether at
  // least) or, not together, the
  // same code frees them at exit (a record's parts at a steady rate, whose
  // epochs hold as many records each); or when one's headline is no code of
  // the program's own, which cannot tell (a library's thread allocates it).
  // Two leaks at steady rates are born alike wherever they are (two
  // threads', or two functions' that main calls), and two leaks of one
  // request loop share its code, but each is born when its own rare event
  // happens.
  auto born_together = [](const Births& x, const Births& y) {
    // from the first epoch in which both keep blocks: two leaks that start
    // late, at about the same time, are not born together for that
    std::size_t both = std::max(x.first, y.first);
    return std::min(x.total, y.total) >= kMinBlocks &&
           correlation(std::span<const std::uint64_t>(x.blocks).subspan(both),
                       std::span<const std::uint64_t>(y.blocks).subspan(both)) >= kTogether;
  };
  // x owns y: the code that frees the most of x's bytes during the run
  // frees some of y's.
  auto owns = [](const Births& x, const Births& y) {
    std::optional<std::string_view> most = main_holder(x.run_holders);
    return most && y.run_holders.contains(*most);
  };
  auto common_code = [&](const Births& x, const Births& y) {
    return std::any_of(x.own_frames.begin(), x.own_frames.end(),
                       [&](std::string_view f) { return y.own_frames.contains(f); }) ||
           owns(x, y) || owns(y, x);
  };
  // x and y come in pairs: epoch by epoch, their kept blocks keep to one
  // ratio more closely than two independent counts would but kChance of
  // the time (each block of one with its part of the other: a revoked
  // client and the cookie it holds).  Q, the squared deviations from the
  // ratio over their variances (a count's is about the count), is chi-square
  // with k - 1 degrees of freedom for two independent counts (the
  // Wilson-Hilferty quantile).
  auto paired = [](const Births& x, const Births& y) {
    if (std::min(x.total, y.total) < kMinBlocks) return false;
    std::size_t both = std::max(x.first, y.first);
    double tx = 0, ty = 0;
    for (std::size_t e = both; e < x.blocks.size(); ++e) {
      tx += static_cast<double>(x.blocks[e]);
      ty += static_cast<double>(y.blocks[e]);
    }
    if (tx == 0 || ty == 0) return false;
    double r = tx / ty, q = 0;
    std::size_t k = 0;
    for (std::size_t e = both; e < x.blocks.size(); ++e) {
      double a = static_cast<double>(x.blocks[e]), b = static_cast<double>(y.blocks[e]);
      if (a + b == 0) continue;
      q += (a - r * b) * (a - r * b) / (a + r * r * b);
      ++k;
    }
    if (k < 3) return false;
    static_assert(kChance == 0.01, "z is kChance's quantile of the normal distribution");
    double f = static_cast<double>(k - 1), z = -2.3263;
    double c = 1 - 2 / (9 * f) + z * std::sqrt(2 / (9 * f));
    return c > 0 && q <= f * c * c * c;
  };
  std::vector<std::size_t> order(classes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return classes[x].mean < classes[y].mean; });
  double window = kSame * static_cast<double>(nodes.empty() ? 0 : nodes.front().kept_blocks.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Births& x = classes[order[i]];
    for (std::size_t j = i + 1; j < order.size() && classes[order[j]].mean - x.mean <= window;
         ++j) {
      const Births& y = classes[order[j]];
      if (total_variation(x.blocks, y.blocks) > kSame) continue;
      bool library = x.library || y.library;
      if (!library && !common_code(x, y) && !paired(x, y)) continue;
      if (library || born_together(x, y)) {
        join_classes(x, y);
      } else {
        freed_together(x, y);
        freed_together(y, x);
      }
    }
  }
}

}  // namespace

CyclesLeft cycles_left(std::span<const std::uint64_t> boundaries,
                       std::span<const std::uint64_t> starts, const Finding& finding,
                       std::uint32_t horizon) {
  CyclesLeft out;
  if (boundaries.size() <= horizon) return out;
  std::uint64_t end = boundaries[horizon];
  for (std::size_t i = 0; i < starts.size() && starts[i] < end; ++i) {
    ++out.cycles;
    std::uint64_t from = starts[i];
    std::uint64_t to = i + 1 < starts.size() ? std::min(starts[i + 1], end) : end;
    bool left = false;
    for (std::uint32_t e = 0; e < horizon && e < finding.kept_by_epoch.size() && !left; ++e) {
      std::uint64_t a = boundaries[e], b = boundaries[e + 1];
      left = finding.kept_by_epoch[e] > 0 && a < to && from < b;
    }
    out.left += left;
  }
  return out;
}

LifetimeLeaks find_lifetime_leaks(const Model& model, const OwnCode& own,
                                  std::span<const std::uint64_t> cycle_ticks) {
  return find_lifetime_leaks(model, FindingHeadlines(model, own), cycle_ticks);
}

namespace {

// The judgement of the nodes (of the lifetimes or of the curves) and their
// findings, into `out` (whose horizon is h).
void judge_nodes(const Model& model, const FindingHeadlines& headlines, std::vector<Node>& nodes,
                 const std::vector<double>& work, const std::vector<std::uint32_t>& cycles,
                 LifetimeLeaks& out);

// The cycles' starts (times) as the nearest epoch boundaries (times of
// `boundaries`), after the first, increasing.
std::vector<std::uint32_t> cycle_boundaries(std::span<const std::uint64_t> boundaries,
                                            std::span<const std::uint64_t> starts) {
  std::vector<std::uint32_t> cycles;
  for (std::uint64_t t : starts) {
    auto at = std::lower_bound(boundaries.begin(), boundaries.end(), t);
    if (at == boundaries.end()) break;
    if (at != boundaries.begin() && t - *(at - 1) < *at - t) --at;
    auto k = static_cast<std::uint32_t>(at - boundaries.begin());
    if (k == 0) continue;
    if (cycles.empty() || k > cycles.back()) cycles.push_back(k);
  }
  return cycles;
}

// The epoch this process's own run starts in: 0, but for a forked child,
// whose profile begins at the fork with its parent's heap, each block in
// the epoch the parent made it in (Lifetimes::inherited_at), the epoch open
// at the fork.  (Not read off a first snapshot that holds bytes: the
// native recorder's first comes a millisecond into the run.)
std::uint32_t own_start(const Model& model) {
  if (!model.lifetimes.inherited_at || model.lifetimes.epochs == 0) return 0;
  std::uint64_t e = model.lifetimes.epoch_of_tick(*model.lifetimes.inherited_at);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(e, model.lifetimes.epochs - 1));
}

// `model` with what was born before epoch `start` born at `start`: for the
// process, what it inherited was there when its run began (a start-up layer
// of its graph, which is flat until the process itself makes more), not
// made through its run.  Cells stay sorted and each once.
// Only what the judgement reads is copied: the frames, the sites, the
// lifetimes (not the snapshots); each site's cells one site at a time,
// merged as they are copied (a child's inherited cells, of many birth
// epochs, become few), so that the copy never holds the cells twice.
Model born_from(const Model& model, std::uint32_t start) {
  Model own;
  own.has_lifetimes = model.has_lifetimes;
  own.lifetimes = model.lifetimes;
  own.frames = model.frames;
  own.forks = model.forks;
  own.sites.reserve(model.sites.size());
  auto at_start = [&](std::uint8_t e) { return std::max(e, static_cast<std::uint8_t>(start)); };
  auto key = [](const LifetimeCell& c) { return std::tuple(c.birth, c.death, c.freed_by); };
  std::vector<LifetimeCell> cells;
  for (const Site& site : model.sites) {
    Site& copy = own.sites.emplace_back();
    copy.frames = site.frames;
    copy.counts = site.counts;
    cells.assign(site.cells.begin(), site.cells.end());
    for (LifetimeCell& c : cells) {
      c.birth = at_start(c.birth);
      if (!c.alive()) c.death = at_start(c.death);
    }
    std::stable_sort(cells.begin(), cells.end(),
                     [&](const LifetimeCell& a, const LifetimeCell& b) { return key(a) < key(b); });
    for (const LifetimeCell& c : cells) {
      if (!copy.cells.empty() && key(copy.cells.back()) == key(c)) {
        copy.cells.back().bytes += c.bytes;
        copy.cells.back().blocks += c.blocks;
      } else {
        copy.cells.push_back(c);
      }
    }
    copy.cells.shrink_to_fit();
  }
  return own;
}

LifetimeLeaks judge_lifetimes(const Model& model, const FindingHeadlines& headlines,
                              std::span<const std::uint64_t> cycle_ticks);

}  // namespace

bool lifetimes_judge_own_run(const Model& model) {
  if (!model.has_lifetimes || model.lifetimes.epochs == 0) return false;
  std::uint32_t start = own_start(model);
  if (start == 0) return true;
  std::uint32_t work_end = 0;
  std::vector<double> work;
  std::uint32_t h = horizon_of(born_from(model, start), work_end, work);
  return h >= start + least_table_span(model.lifetimes.epochs);
}

LifetimeLeaks find_lifetime_leaks(const Model& model, const FindingHeadlines& headlines,
                                  std::span<const std::uint64_t> cycle_ticks) {
  std::uint32_t start = own_start(model);
  if (start == 0) return judge_lifetimes(model, headlines, cycle_ticks);
  return judge_lifetimes(born_from(model, start), headlines, cycle_ticks);
}

namespace {

LifetimeLeaks judge_lifetimes(const Model& model, const FindingHeadlines& headlines,
                              std::span<const std::uint64_t> cycle_ticks) {
  LifetimeLeaks out;
  out.epochs = model.lifetimes.epochs;
  if (!model.has_lifetimes || out.epochs == 0) return out;
  for (std::uint32_t k = 0; k <= out.epochs; ++k) out.boundaries.push_back(model.lifetimes.boundary(k));
  std::vector<double> work;  // the program's births by epoch: the clock of the parts
  out.horizon = horizon_of(model, out.work_end, work);
  std::vector<Node> nodes = nodes_of(model, headlines, out.horizon);
  // The cycles' starts as epoch boundaries (the nearest).
  const Lifetimes& l = model.lifetimes;
  std::vector<std::uint32_t> cycles;
  for (std::uint64_t tick : cycle_ticks) {
    if (tick <= l.t0) continue;
    auto k = static_cast<std::uint32_t>(l.nearest_to_tick(tick));
    if (cycles.empty() || k > cycles.back()) cycles.push_back(k);
  }
  if (cycles.empty()) cycles = work_bursts(work, out.horizon);
  judge_nodes(model, headlines, nodes, work, cycles, out);
  return out;
}

}  // namespace

LifetimeLeaks find_curve_leaks(const Model& model, const FindingHeadlines& headlines,
                               const SeriesBuilder& builder,
                               std::span<const std::uint64_t> cycle_starts) {
  LifetimeLeaks out;
  out.from_curves = true;
  CurveClock clock = curve_clock(model, builder);
  out.boundaries = clock.times;
  out.snapshots = clock.snapshots;
  if (out.boundaries.size() < 2) return out;
  out.epochs = static_cast<std::uint32_t>(out.boundaries.size() - 1);
  // The work of an epoch: its length in time (the curves do not say what
  // the program made in it).
  std::vector<double> work(out.epochs, 0.0);
  for (std::uint32_t e = 0; e < out.epochs; ++e) {
    work[e] = static_cast<double>(out.boundaries[e + 1] - out.boundaries[e]);
  }
  // The work ends where the heap's last descent begins (the release at exit:
  // an epoch in which the program frees and makes nothing).
  auto heap_at = [&](std::uint32_t k) { return k == 0 ? 0 : model.snapshots[clock.snapshots[k - 1]].heap; };
  double least = working_least(work);
  for (std::uint32_t e = 0; e < out.epochs; ++e) {
    if (working(work[e], least) && heap_at(e + 1) >= heap_at(e)) out.work_end = e;
  }
  out.horizon = horizon_after(out.work_end);
  std::vector<Node> nodes = nodes_of_curves(model, headlines, builder, clock, out.horizon);
  judge_nodes(model, headlines, nodes, work, cycle_boundaries(out.boundaries, cycle_starts), out);
  return out;
}

namespace {

// The epoch in which the process first forked (its first K record): of
// the lifetimes' table, or with the curves the interval between snapshots
// that holds it; none without a fork.
std::optional<std::uint32_t> first_fork(const Model& model, const LifetimeLeaks& out) {
  if (model.forks.empty() || out.epochs == 0) return std::nullopt;
  auto first = std::min_element(model.forks.begin(), model.forks.end(),
                                [](const Marker& a, const Marker& b) { return a.tick < b.tick; });
  std::uint64_t epoch = 0;
  if (out.from_curves) {
    auto after = std::upper_bound(out.boundaries.begin(), out.boundaries.end(), first->time);
    epoch = after == out.boundaries.begin()
                ? 0
                : static_cast<std::uint64_t>(after - out.boundaries.begin() - 1);
  } else {
    epoch = model.lifetimes.epoch_of_tick(first->tick);
  }
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(epoch, out.epochs));
}

void judge_nodes(const Model& model, const FindingHeadlines& headlines, std::vector<Node>& nodes,
                 const std::vector<double>& work, const std::vector<std::uint32_t>& cycles,
                 LifetimeLeaks& out) {
  std::uint32_t h = out.horizon;
  std::vector<std::size_t> leaking = judge_structures(model, nodes, h, work, cycles);
  std::vector<const Node*> dying;  // the nodes whose bytes die: those turnover looks at
  std::vector<std::vector<double>> dying_ceilings;
  if (!leaking.empty()) {
    for (const Node& m : nodes) {
      if (m.deaths.empty()) continue;
      dying.push_back(&m);
      dying_ceilings.push_back(ceiling_of(m, h));
    }
  }
  std::erase_if(leaking, [&](std::size_t i) {
    if (!turnover(nodes[i], dying, dying_ceilings, h, cycles)) return false;
    nodes[i].why.reason = PassedOver::Reason::turnover;
    return true;
  });
  if (std::optional<std::uint32_t> fork = first_fork(model, out)) {
    std::erase_if(leaking, [&](std::size_t i) {
      if (!born_before_fork(nodes[i], *fork, h)) return false;
      nodes[i].why.reason = PassedOver::Reason::forked;
      nodes[i].why.level_epoch = *fork;
      return true;
    });
  }
  out.passed_over = passed_over(nodes, leaking);
  // One structure: the same headline function, or the same distribution of
  // kept blocks over the epochs, unless the code that frees them at exit
  // says they are two (two leaks of one request, freed by two release
  // functions); freed together at exit alone is not one structure (a
  // destructor frees every member).
  std::vector<std::string> functions;
  std::vector<std::optional<ExitFreer>> freers;
  std::vector<std::string_view> builders;  // FindingHeadlines::builder
  std::vector<std::optional<std::vector<std::string_view>>> own_frames;  // FindingHeadlines::own_frames
  for (std::size_t i : leaking) {
    // (a site without a stack has no headline function)
    functions.push_back(nodes[i].key.empty() ? "" : model.frame(nodes[i].key.back()).function);
    const Node& n = nodes[i];
    std::span<const FrameId> frames = model.sites[index(n.main_site)].frames;
    std::optional<std::size_t> at =
        n.key.empty() ? std::nullopt : headlines.builder(frames, n.key.size() - 1);
    builders.push_back(at ? model.frame(frames[*at]).function : std::string_view());
    std::optional<std::vector<std::string_view>>& own = own_frames.emplace_back();
    auto own_at = n.key.empty() ? std::nullopt : headlines.own_frames(frames, n.key.size() - 1);
    if (own_at) {
      own.emplace();
      for (std::size_t c : *own_at) own->push_back(model.frame(frames[c]).function);
    }
  }
  // What frees each structure at exit (the nodes of one headline function
  // called from one function, as judge_structures judges them), its nodes'
  // frees at exit added up: a structure whose entries are never freed is
  // not freed at exit for the few of them in flight at the end, which the
  // code that made them frees as it always does.
  // (Each leaking node's structure: its first member; a node without a
  // headline function is one alone.)
  std::vector<std::size_t> structure(leaking.size());
  std::map<std::pair<std::string_view, std::string_view>, std::size_t> first_of;
  for (std::size_t a = 0; a < leaking.size(); ++a) {
    if (functions[a].empty()) {
      structure[a] = a;
      continue;
    }
    std::pair<std::string_view, std::string_view> key(functions[a], nodes[leaking[a]].caller);
    structure[a] = first_of.emplace(key, a).first->second;
  }
  std::map<std::size_t, std::vector<std::size_t>> structures;  // its first member -> its members
  for (std::size_t a = 0; a < leaking.size(); ++a) structures[structure[a]].push_back(a);
  freers.resize(leaking.size());
  for (const auto& [first, members] : structures) {
    std::map<std::uint32_t, std::uint64_t> exit_free;
    std::uint64_t alive = 0;
    for (std::size_t a : members) {
      const Node& n = nodes[leaking[a]];
      for (const auto& [stack, bytes] : n.exit_free) exit_free[stack] += bytes;
      alive += n.alive_end;
    }
    std::optional<ExitFreer> freer = exit_freer(model, headlines, exit_free, alive);
    for (std::size_t a : members) freers[a] = freer;
  }
  // The code that holds what each frees during the run (run_holders).
  std::vector<std::map<std::string_view, std::uint64_t>> holders(leaking.size());
  for (std::size_t a = 0; a < leaking.size(); ++a) {
    holders[a] = run_holders(model, headlines, nodes[leaking[a]]);
  }
  Joins joins(leaking.size());
  join_leaking(model, nodes, leaking, freers, builders, own_frames, holders, structure, joins);
  std::map<std::size_t, std::vector<const Node*>> groups;
  for (std::size_t a = 0; a < leaking.size(); ++a) {
    groups[joins.find(a)].push_back(&nodes[leaking[a]]);
  }
  for (auto& [root, members] : groups) {
    out.findings.push_back(finding_of(model, headlines, members, h));
  }
  std::sort(out.findings.begin(), out.findings.end(), [](const Finding& a, const Finding& b) {
    if (a.kept_bytes != b.kept_bytes) return a.kept_bytes > b.kept_bytes;
    return a.sites < b.sites;
  });
}

}  // namespace

}  // namespace strata

