// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=massif: a massif.out file that ms_print reads.
//
//   desc: --depth=30 --heap-admin=8 ... --strata-convert-dropped=interval-lows,markers
//   cmd: ./leaky-player
//   time_unit: i
//   #-----------
//   snapshot=0
//   #-----------
//   time=0
//   mem_heap_B=0
//   mem_heap_extra_B=0
//   mem_stacks_B=0
//   heap_tree=detailed              (empty, detailed or peak)
//   n1: 153600 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
//    n1: 153600 0x1091D4: frame_alloc (leaky-player.c:74)
//     n0: 153600 0x109360: decoder_decode (leaky-player.c:138)
//
// Every snapshot is written, in time order; those with site data carry the
// tree of the sites then: from the allocating frame (a site's innermost) to
// its callers, each entry's children the most bytes first.  Frames inlined
// at one address are entries of their own with the same address, as the
// massif reader takes them back.  Entries under the threshold are put
// together in one "in N places" entry per parent, as massif does.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "model/frame_names.hpp"
#include "render/export.hpp"

namespace strata {

std::string export_name(std::string_view text, std::string_view also) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '\\' && also.find('\\') != std::string_view::npos) {
      out += "\\\\";
    } else if (c == '\t' || c == '\n' || c == '\r') {
      out += c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r";
    } else if (c < 0x20 || c == 0x7f ||
               (c != '\\' && also.find(static_cast<char>(c)) != std::string_view::npos)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

// A site's stack and its bytes at one snapshot.
struct Path {
  const std::vector<FrameId>* frames;
  std::uint64_t bytes;
};

// The children of the entry whose paths are [begin, end), all sharing their
// first `depth` frames; paths are sorted by their frames.
std::vector<MassifNode> children(std::vector<Path>::const_iterator begin,
                                 std::vector<Path>::const_iterator end, std::size_t depth,
                                 std::uint64_t below_bytes) {
  std::vector<MassifNode> nodes;
  MassifNode below;
  for (auto at = begin; at != end;) {
    if (at->frames->size() <= depth) {
      ++at;  // the entry's own bytes: they stay with it
      continue;
    }
    FrameId frame = (*at->frames)[depth];
    auto next = std::find_if(at, end, [&](const Path& p) {
      return p.frames->size() <= depth || (*p.frames)[depth] != frame;
    });
    MassifNode node{frame, 0, 0, {}};
    for (auto p = at; p != next; ++p) node.bytes += p->bytes;
    if (node.bytes < below_bytes || node.bytes == 0) {
      below.bytes += node.bytes;
      below.below += node.bytes > 0;
    } else {
      node.children = children(at, next, depth + 1, below_bytes);
      nodes.push_back(std::move(node));
    }
    at = next;
  }
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const MassifNode& a, const MassifNode& b) { return a.bytes > b.bytes; });
  if (below.below > 0) nodes.push_back(std::move(below));
  return nodes;
}

void fill_tree(const Model& model, const std::vector<SiteSample>& samples, double threshold,
               MassifSnapshot& snapshot) {
  std::vector<Path> paths;
  for (const SiteSample& sample : samples) {
    if (sample.bytes == 0) continue;
    paths.push_back({&model.site(sample.site).frames, sample.bytes});
    snapshot.tree_bytes += sample.bytes;
  }
  std::sort(paths.begin(), paths.end(),
            [](const Path& a, const Path& b) { return *a.frames < *b.frames; });
  // An entry under the threshold, but never one of 0 bytes over it.
  auto below_bytes =
      static_cast<std::uint64_t>(threshold / 100 * static_cast<double>(snapshot.heap));
  snapshot.roots = children(paths.begin(), paths.end(), 0, below_bytes);
}

}  // namespace

std::vector<MassifSnapshot> massif_snapshots(const Model& model, double threshold) {
  std::optional<std::size_t> peak = peak_snapshot(model);
  std::vector<SiteSample> state(model.sites.size());  // SiteId -> the chain's state
  for (std::size_t i = 0; i < state.size(); ++i) state[i].site = static_cast<SiteId>(i);
  std::vector<MassifSnapshot> out;
  for (std::size_t i = 0; i < model.snapshots.size(); ++i) {
    const Snapshot& s = model.snapshots[i];
    MassifSnapshot snapshot{s.time, s.heap, s.extra, s.stacks, MassifSnapshot::Tree::empty, 0, {}};
    if (s.site_data == SiteData::changes) {
      for (const SiteSample& sample : s.sites) state[index(sample.site)] = sample;
    }
    if (s.site_data != SiteData::none) {
      snapshot.tree = i == peak ? MassifSnapshot::Tree::peak : MassifSnapshot::Tree::detailed;
      fill_tree(model, s.site_data == SiteData::complete ? s.sites : state, threshold, snapshot);
    }
    out.push_back(std::move(snapshot));
  }
  return out;
}

// ---- the writer ------------------------------------------------------------------

namespace {

constexpr const char* kSeparator = "#-----------\n";

std::string percent(double value) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << value << "%";
  return text.str();
}

// "0x1091D4: frame_alloc (leaky-player.c:74)", as massif writes a frame.
std::string entry_text(const Frame& frame) {
  std::string text = hex_address(frame.address);
  std::transform(text.begin() + 2, text.end(), text.begin() + 2,
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  text += ": ";
  text += frame.function.empty() ? "???" : export_name(frame.function);
  if (!frame.file.empty()) {
    text += " (" + export_name(frame.file) + ":" + std::to_string(frame.line) + ")";
  } else if (!frame.object.empty()) {
    text += " (in " + export_name(frame.object) + ")";
  }
  return text;
}

void write_node(const Model& model, const MassifNode& node, std::size_t depth, double threshold,
                std::ostream& out) {
  out << std::string(depth, ' ') << "n" << node.children.size() << ": " << node.bytes << " ";
  if (node.below > 0) {
    out << "in " << node.below << (node.below == 1 ? " place, below" : " places, all below")
        << " massif's threshold (" << percent(threshold) << ")\n";
    return;
  }
  out << entry_text(model.frame(node.frame)) << "\n";
  for (const MassifNode& child : node.children) write_node(model, child, depth + 1, threshold, out);
}

void write_header(const Model& model, std::ostream& out) {
  out << "desc:";
  for (const Option& option : model.header.options) {
    std::string name = option.name;
    std::replace(name.begin(), name.end(), '_', '-');
    out << " --" << export_name(name, " ") << (option.value.empty() ? "" : "=")
        << export_name(option.value, " ");
  }
  // The note, as an option so that it reads as one: massif.out cannot hold
  // each interval's lows and highs, nor the markers.
  out << " --strata-convert-dropped=interval-lows,markers\n"
      << "cmd: " << export_name(model.header.cmd) << "\n"
      << "time_unit: " << model.header.time_unit << "\n";
}

}  // namespace

void write_massif(const Model& model, const std::vector<MassifSnapshot>& snapshots,
                  double threshold, std::ostream& out) {
  write_header(model, out);
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    const MassifSnapshot& s = snapshots[i];
    out << kSeparator << "snapshot=" << i << "\n"
        << kSeparator << "time=" << s.time << "\nmem_heap_B=" << s.heap
        << "\nmem_heap_extra_B=" << s.extra << "\nmem_stacks_B=" << s.stacks << "\nheap_tree=";
    if (s.tree == MassifSnapshot::Tree::empty) {
      out << "empty\n";
      continue;
    }
    out << (s.tree == MassifSnapshot::Tree::peak ? "peak" : "detailed") << "\n"
        << "n" << s.roots.size() << ": " << s.tree_bytes
        << " (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n";
    for (const MassifNode& root : s.roots) write_node(model, root, 1, threshold, out);
  }
}

}  // namespace strata
