// SPDX-License-Identifier: GPL-2.0-or-later
// Questions of time, asked of a profile's lifetime cells (model.hpp,
// Lifetimes): which bytes were born in [FROM, TO) and still alive at T
// (--born, --alive-at), when a context's bytes at the peak were born, and
// who freed a leak suspect's bytes.
//
// The cells have epoch resolution: a byte is known to be born in one epoch
// and to die in one epoch, not when in it.  So every time is taken to the
// nearest epoch boundary, and an answer is exact for the boundaries it
// names: "born in [X, Y)" means born in the epochs from boundary X to
// boundary Y, "alive at Z" alive across boundary Z (born before it, died
// after it or never).  At the end of the run (the default of --alive-at,
// and a time nearest the end of the last epoch), alive means never freed:
// what the last epoch record's `a` lines give, the heap of the final state,
// exactly (a byte that died in the last epoch, at exit or born and freed in
// it, is not alive at the end, and no set of bytes alive at one moment is
// more than the heap held then).
//
// A selection is answered as a model: selected_model() gives one whose
// snapshots are the epoch boundaries and whose sites hold their selected
// bytes there (a byte from its birth epoch to its death epoch), so that the
// report, the graph and the exports work on it unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace strata {

// Why `model` has no lifetimes, in words: "a massif.out file", "a profile
// written without lifetime records" (version 1 or 2, or no `opt lifetimes`),
// "recorded without lifetimes".
std::string why_no_lifetimes(const Model& model);

// A time as given on a command line: a number in the profile's unit, a
// percentage of the run (`35%`: from the lifetimes' time zero, the program's first heap operation,
// to the end), or a marker
// (`marker:LABEL`, `marker:LABEL#3` for its third occurrence).  An Error
// "WHAT: why" on a bad one (an unknown marker names the labels there are).
std::uint64_t resolve_time(const Model& model, const std::string& text, const std::string& what);

// The bytes a question of time keeps: born in the epochs [from, to), alive
// across boundary `at` (at == epochs: at the end, never freed).
struct Selection {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  std::uint32_t at = 0;
  bool born_given = false;  // --born was given (else every birth before `at`)
  bool at_given = false;    // --alive-at was given (else the end)
};

// The selection of --born=FROM..TO and --alive-at=T (either may be absent,
// FROM or TO omitted), each time to the nearest epoch boundary.  An Error
// naming the file when it has no lifetimes, or naming the option when a time
// is bad.
Selection select_lifetimes(const Model& model, const std::optional<std::string>& born,
                           const std::optional<std::string>& alive_at);

// Whether `selection` keeps `cell`, of a profile of `epochs` epochs.
bool selected(const Selection& selection, const LifetimeCell& cell, std::uint32_t epochs);

// The bytes of `selection` over time (see above); the markers, header and
// counts of `model`; each site's cells those selected.
Model selected_model(const Model& model, const Selection& selection);

// Bytes born in the epochs from boundary `from` to boundary `to`.
struct BornPart {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  std::uint64_t bytes = 0;
};

// The boundary the births of a report look at without a selection: the end
// of the peak's epoch, or its start when the peak's epoch is the last (its
// end is the end of the run, where only what was never freed is alive, not
// what the peak held and the release at exit freed); 0 without epochs or a
// peak.
std::uint32_t born_boundary(const Model& model);

// When the bytes of `sites` alive across boundary `k` (born_boundary(), or
// a selection's `at`) were born, in up to three parts of the run: the
// epochs that start in its first tenth, in the rest of its first half, and
// in its second half (empty parts left out).  Empty without lifetimes.
std::vector<BornPart> born_across(const Model& model, std::span<const SiteId> sites,
                                  std::uint32_t k);

// A free stack and what it freed of some sites' bytes that lived across an
// epoch's end (the deaths with a known stack).
struct FreedBy {
  std::uint32_t stack = 0;  // id, from 1 (Lifetimes::free_stacks_frames[stack - 1])
  std::uint64_t bytes = 0;
  double share_pct = 0;           // of the bytes those stacks freed together
  std::uint32_t first_epoch = 0;  // of its deaths
  std::uint32_t last_epoch = 0;
  bool at_exit = false;  // every one in the last epoch
};

// Who freed the bytes of `sites`, most bytes first (then least id).
std::vector<FreedBy> freed_by(const Model& model, std::span<const SiteId> sites);

// Where boundary `k` is in time: t0 + k * length, the last (k = epochs)
// taken to the end of the run when it is later.
std::uint64_t boundary_time(const Model& model, std::uint32_t k);

}  // namespace strata
