// SPDX-License-Identifier: GPL-2.0-or-later
// Questions of time (lifetimes.hpp).
#include "analyze/lifetimes.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "util/error.hpp"
#include "util/text.hpp"

namespace strata {

namespace {

// The occurrence in `MARKER` of `LABEL#N`: N, else 1 (a label may hold a
// '#' not followed by digits only).
std::pair<std::string, std::uint64_t> marker_occurrence(const std::string& spec) {
  std::size_t hash = spec.rfind('#');
  if (hash == std::string::npos) return {spec, 1};
  std::optional<std::uint64_t> n = parse_number(std::string_view(spec).substr(hash + 1));
  if (!n) return {spec, 1};
  return {spec.substr(0, hash), *n};
}

std::string labels_there(const Model& model) {
  std::vector<std::string> labels;
  for (const Marker& m : model.markers) {
    if (std::find(labels.begin(), labels.end(), m.label) == labels.end()) labels.push_back(m.label);
  }
  if (labels.empty()) return "the profile has no marker";
  std::string list;
  for (std::size_t i = 0; i < labels.size() && i < 10; ++i) {
    list += (i ? ", " : "") + quote(labels[i]);
  }
  if (labels.size() > 10) list += ", ... (" + std::to_string(labels.size()) + " labels)";
  return "the markers are " + list;
}

std::uint64_t marker_time(const Model& model, const std::string& spec, const std::string& what) {
  auto [label, nth] = marker_occurrence(spec);
  if (nth == 0) throw Error(what + ": marker occurrences count from 1");
  std::uint64_t seen = 0;
  for (const Marker& m : model.markers) {
    if (m.label == label && ++seen == nth) return m.time;
  }
  if (seen == 0)
    throw Error(what + ": no marker " + quote(label) + " (" + labels_there(model) + ")");
  throw Error(what + ": the marker " + quote(label) + " occurs " + std::to_string(seen) + " time" +
              (seen == 1 ? "" : "s") + ", not " + std::to_string(nth));
}

// The nearest epoch boundary to `time`; epochs at or after the end of the run.
std::uint32_t nearest_boundary(const Model& model, std::uint64_t time) {
  const Lifetimes& l = model.lifetimes;
  if (time >= model.end_time || l.epochs == 0) return l.epochs;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(l.nearest(time), l.epochs));
}

std::uint32_t boundary_of(const Model& model, const std::string& text, const std::string& what) {
  return nearest_boundary(model, resolve_time(model, text, what));
}

// The last boundary `cell` lives across: its death's epoch's start; the
// end (epochs) when it never died: what the last record's `a` lines hold,
// the heap of the final state.
std::uint32_t last_boundary(const LifetimeCell& cell, std::uint32_t epochs) {
  return cell.alive() ? epochs : cell.death;
}

// Adds `cell`'s bytes and blocks to the boundaries it lives across:
// from the one after its birth to last_boundary() (diff arrays, summed later).
void add_span(std::vector<std::uint64_t>& bytes, std::vector<std::uint64_t>& blocks,
              const LifetimeCell& cell, std::uint32_t epochs) {
  std::size_t end = std::size_t{last_boundary(cell, epochs)} + 1;
  bytes[cell.birth + 1] += cell.bytes;  // modulo 2^64: the sums along time are exact
  blocks[cell.birth + 1] += cell.blocks;
  bytes[end] -= cell.bytes;
  blocks[end] -= cell.blocks;
}

}  // namespace

std::string why_no_lifetimes(const Model& model) {
  if (model.format == Format::massif) return "a massif.out file";
  bool old = std::none_of(model.header.options.begin(), model.header.options.end(),
                          [](const Option& o) { return o.name == "lifetimes"; });
  return old ? "a profile written without lifetime records" : "recorded without lifetimes";
}

std::uint64_t resolve_time(const Model& model, const std::string& text, const std::string& what) {
  if (text.starts_with("marker:")) return marker_time(model, text.substr(7), what);
  if (text.ends_with("%")) {
    std::optional<double> pct = parse_decimal(std::string_view(text).substr(0, text.size() - 1));
    if (!pct || *pct < 0 || *pct > 100) {
      throw Error(what + ": " + quote(text) + " is not a percentage of the run, 0% to 100%");
    }
    // From the program's first heap operation, the lifetimes' time zero
    // (Valgrind's start-up is not the run: in ms it can be most of it).
    std::uint64_t t0 = model.has_lifetimes ? std::min(model.lifetimes.start(), model.end_time) : 0;
    return t0 + static_cast<std::uint64_t>(
                    std::llround(*pct / 100 * static_cast<double>(model.end_time - t0)));
  }
  if (std::optional<std::uint64_t> n = parse_number(text)) return *n;
  throw Error(what + ": " + quote(text) +
              " is not a time: expected a number in the profile's unit, a percentage of the run "
              "(35%) or marker:LABEL (marker:LABEL#3 for its third occurrence)");
}

Selection select_lifetimes(const Model& model, const std::optional<std::string>& born,
                           const std::optional<std::string>& alive_at) {
  if (!model.has_lifetimes) {
    std::string option = born ? "--born" : "--alive-at";
    throw Error(
        model.file, 0,
        option + " needs lifetimes, which this file has not (" + why_no_lifetimes(model) + ")");
  }
  Selection s;
  std::uint32_t epochs = model.lifetimes.epochs;
  s.to = s.at = epochs;
  if (alive_at) {
    s.at_given = true;
    s.at = boundary_of(model, *alive_at, "--alive-at=" + *alive_at);
  }
  if (born) {
    std::string what = "--born=" + *born;
    std::size_t dots = born->find("..");
    if (dots == std::string::npos)
      throw Error(what + ": expected FROM..TO (either may be left out)");
    std::string from = born->substr(0, dots), to = born->substr(dots + 2);
    s.born_given = true;
    if (!from.empty()) s.from = boundary_of(model, from, what);
    if (!to.empty()) s.to = boundary_of(model, to, what);
    if (!from.empty() && !to.empty() &&
        resolve_time(model, from, what) > resolve_time(model, to, what)) {
      throw Error(what + ": FROM is after TO");
    }
  }
  return s;
}

bool selected(const Selection& s, const LifetimeCell& cell, std::uint32_t epochs) {
  bool born = cell.birth >= s.from && cell.birth < s.to && cell.birth < s.at;
  return born && last_boundary(cell, epochs) >= s.at;
}

std::uint64_t boundary_time(const Model& model, std::uint32_t k) {
  const Lifetimes& l = model.lifetimes;
  if (l.epochs == 0) return model.end_time;
  if (k < l.epochs) return l.boundary(k);
  return std::max(model.end_time, l.boundary(l.epochs - 1));
}

Model selected_model(const Model& model, const Selection& selection) {
  Model out;
  out.file = model.file;
  out.format = model.format;
  out.header = model.header;
  out.frames = model.frames;
  out.markers = model.markers;
  out.cut_short = model.cut_short;
  out.stop_reason = model.stop_reason;
  out.end_time = model.end_time;
  out.has_counts = model.has_counts;
  out.has_lifetimes = true;
  out.lifetimes = model.lifetimes;
  std::uint32_t epochs = model.lifetimes.epochs;
  for (std::uint32_t k = 0; k <= epochs; ++k) {
    Snapshot snapshot;
    snapshot.kind = k == epochs ? SnapshotKind::final : SnapshotKind::regular;
    snapshot.time = boundary_time(model, k);
    snapshot.site_data = SiteData::changes;
    out.snapshots.push_back(std::move(snapshot));
  }
  std::vector<std::uint64_t> bytes(epochs + 2), blocks(epochs + 2);
  for (std::size_t i = 0; i < model.sites.size(); ++i) {
    Site site{model.sites[i].frames, model.sites[i].counts, {}};
    for (const LifetimeCell& cell : model.sites[i].cells) {
      if (!selected(selection, cell, epochs)) continue;
      site.cells.push_back(cell);
      add_span(bytes, blocks, cell, epochs);
    }
    std::uint64_t held = 0, held_blocks = 0;
    for (std::uint32_t k = 0; !site.cells.empty() && k <= epochs; ++k) {
      std::uint64_t now = held + bytes[k];
      std::uint64_t now_blocks = held_blocks + blocks[k];
      if (now != held || now_blocks != held_blocks) {
        out.snapshots[k].sites.push_back({static_cast<SiteId>(i), now, now_blocks, now, now});
        out.snapshots[k].heap += now - held;  // modulo 2^64: it may fall
      }
      held = now;
      held_blocks = now_blocks;
    }
    std::fill(bytes.begin(), bytes.end(), 0);
    std::fill(blocks.begin(), blocks.end(), 0);
    out.sites.push_back(std::move(site));
  }
  std::uint64_t heap = 0;  // the snapshots' heaps, from their changes
  for (Snapshot& snapshot : out.snapshots) snapshot.heap = heap += snapshot.heap;
  return out;
}

std::vector<BornPart> born_across(const Model& model, std::span<const SiteId> sites,
                                  std::uint32_t k) {
  const Lifetimes& l = model.lifetimes;
  if (!model.has_lifetimes || l.epochs == 0) return {};
  std::vector<std::uint64_t> by_birth(l.epochs);
  for (SiteId site : sites) {
    for (const LifetimeCell& cell : model.site(site).cells) {
      if (cell.birth < k && last_boundary(cell, l.epochs) >= k) by_birth[cell.birth] += cell.bytes;
    }
  }
  std::vector<BornPart> parts;
  double end = static_cast<double>(std::max<std::uint64_t>(model.end_time, 1));
  int part = -1;
  for (std::uint32_t b = 0; b < l.epochs; ++b) {
    if (by_birth[b] == 0) continue;
    double start = static_cast<double>(l.boundary(b)) / end;
    int now = start < 0.1 ? 0 : start < 0.5 ? 1 : 2;
    if (now != part) parts.push_back({b, b + 1, 0});
    part = now;
    parts.back().to = b + 1;
    parts.back().bytes += by_birth[b];
  }
  return parts;
}

std::uint32_t born_boundary(const Model& model) {
  const Lifetimes& l = model.lifetimes;
  std::optional<std::size_t> peak = peak_snapshot(model);
  if (l.epochs == 0 || !peak) return 0;
  std::uint64_t time = model.snapshots[*peak].time;
  std::uint64_t e = std::min<std::uint64_t>(l.epoch_of(time), l.epochs - 1);
  return static_cast<std::uint32_t>(e + 1 < l.epochs ? e + 1 : e);
}

std::vector<FreedBy> freed_by(const Model& model, std::span<const SiteId> sites) {
  std::map<std::uint32_t, FreedBy> stacks;
  std::uint64_t total = 0;
  for (SiteId site : sites) {
    for (const LifetimeCell& cell : model.site(site).cells) {
      if (cell.alive() || cell.freed_by == 0 || cell.bytes == 0) continue;
      auto [it, added] = stacks.try_emplace(cell.freed_by);
      FreedBy& f = it->second;
      if (added) f = {cell.freed_by, 0, 0, cell.death, cell.death, false};
      f.bytes += cell.bytes;
      f.first_epoch = std::min<std::uint32_t>(f.first_epoch, cell.death);
      f.last_epoch = std::max<std::uint32_t>(f.last_epoch, cell.death);
      total += cell.bytes;
    }
  }
  std::vector<FreedBy> out;
  for (auto& [id, f] : stacks) {
    f.share_pct = 100.0 * static_cast<double>(f.bytes) / static_cast<double>(total);
    f.at_exit = f.first_epoch + 1 == model.lifetimes.epochs;
    out.push_back(f);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const FreedBy& a, const FreedBy& b) { return a.bytes > b.bytes; });
  return out;
}

}  // namespace strata
