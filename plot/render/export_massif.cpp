// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=massif: a massif.out file that ms_print reads.
//
//   desc: --depth=30 ... --strata-convert-threshold=1.0 --strata-convert-detailed-freq=10
//   --strata-convert-dropped=interval-lows,markers cmd: ./leaky-player time_unit: i
//   #-----------
//   snapshot=9
//   #-----------
//   time=1200
//   mem_heap_B=153600
//   mem_heap_extra_B=1200
//   mem_stacks_B=0
//   heap_tree=detailed              (empty, detailed or peak)
//   n2: 153600 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
//    n1: 150000 0x1091D4: frame_alloc (leaky-player.c:74)
//     n0: 150000 0x109360: decoder_decode (leaky-player.c:138)
//    n0: 3600 0x4A1F2C: ??? (in /usr/lib/libz.so.1+0x2f2c)
//
// Every snapshot is written, in time order, as it is read from the model:
// nothing is kept but the sites' bytes at the last snapshot, so the memory
// is that of one snapshot, whatever the size of the file.  A snapshot with
// site data is detailed (massif's way: every --detailed-freq-th, and the
// peak; strata's: the last too, so that the end is known): the tree of its
// sites, from the allocating frame (a site's innermost) to its callers, each
// entry's children the most bytes first, the entries under --threshold
// percent of the snapshot's heap put together in one "in N places" entry
// per parent.  The tree is written from the sites sorted by their stacks, an
// entry's children found in its range of them, with a stack of open entries
// instead of recursion: no depth of stack can overflow the call stack.
// Frames inlined at one address are entries of their own with the same
// address, as the massif reader takes them back; a frame's offset in its
// object follows the object, "(in OBJECT+0xOFFSET)", which the massif reader
// takes back too (a frame without a symbol is named by it).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <streambuf>

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

constexpr const char* kSeparator = "#-----------\n";
constexpr const char* kRootText = "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.";

std::string percent(double value) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << value << "%";
  return text.str();
}

// Whether `object` ends as "+0xHEX", as the massif reader takes an offset.
bool ends_like_offset(std::string_view object) {
  std::size_t plus = object.rfind("+0x");
  if (plus == std::string_view::npos || plus + 3 == object.size()) return false;
  return std::all_of(object.begin() + static_cast<std::ptrdiff_t>(plus + 3), object.end(),
                     [](unsigned char c) { return std::isxdigit(c) != 0; });
}

// "0x1091D4: frame_alloc (leaky-player.c:74)", as massif writes a frame,
// or "0x4A1F2C: ??? (in /usr/lib/libz.so.1+0x2f2c)" with its offset.
std::string entry_text(const Frame& frame) {
  std::string text = hex_address(frame.address);
  std::transform(text.begin() + 2, text.end(), text.begin() + 2,
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  text += ": ";
  text += frame.function.empty() ? "???" : export_name(frame.function);
  if (!frame.file.empty()) {
    text += " (" + export_name(frame.file) + ":" + std::to_string(frame.line) + ")";
  } else if (!frame.object.empty()) {
    text += " (in " + export_name(frame.object);
    // An object that ends like an offset gets one, so that it reads back whole.
    if (frame.offset || ends_like_offset(frame.object)) {
      text += "+" + hex_address(*object_offset(frame));
    }
    text += ")";
  }
  return text;
}

// ---- the tree of a snapshot ------------------------------------------------------

// A site's stack and its bytes at one snapshot.
struct Path {
  const std::vector<FrameId>* frames;
  std::uint64_t bytes;
};

// An entry of a tree: a frame and the paths under it, [begin, end) of the
// sorted paths; or the entries under the threshold put together.
struct Entry {
  FrameId frame{};
  std::uint64_t bytes = 0;
  std::size_t below = 0;  // > 0: "in N places, all below massif's threshold"
  std::size_t begin = 0, end = 0;
};

// The entries under the one whose paths are [begin, end), all sharing their
// first `depth` frames: one per frame at `depth`, the most bytes first, and
// those under `below_bytes` together last.  A path that ends at `depth`
// holds the entry's own bytes.
std::vector<Entry> children(const std::vector<Path>& paths, std::size_t begin, std::size_t end,
                            std::size_t depth, std::uint64_t below_bytes) {
  std::vector<Entry> entries;
  Entry below;
  for (std::size_t at = begin; at < end;) {
    if (paths[at].frames->size() <= depth) {
      ++at;
      continue;
    }
    Entry entry{(*paths[at].frames)[depth], 0, 0, at, at};
    for (; entry.end < end && paths[entry.end].frames->size() > depth &&
           (*paths[entry.end].frames)[depth] == entry.frame;
         ++entry.end) {
      entry.bytes += paths[entry.end].bytes;
    }
    at = entry.end;
    if (entry.bytes < below_bytes || entry.bytes == 0) {
      below.bytes += entry.bytes;
      below.below += entry.bytes > 0;
    } else {
      entries.push_back(entry);
    }
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.bytes > b.bytes; });
  if (below.below > 0) entries.push_back(below);
  return entries;
}

class TreeWriter {
 public:
  TreeWriter(const Model& model, double threshold) : model_(model), threshold_(threshold) {}

  // The tree of `sites` (those holding bytes), in a snapshot whose heap is `heap`.
  void write(const std::vector<SiteSample>& sites, std::uint64_t heap, std::ostream& out) {
    paths_.clear();
    std::uint64_t total = 0;
    for (const SiteSample& sample : sites) {
      if (sample.bytes == 0) continue;
      paths_.push_back({&model_.site(sample.site).frames, sample.bytes});
      total += sample.bytes;  // the readers keep the sum within 64 bits
    }
    std::sort(paths_.begin(), paths_.end(),
              [](const Path& a, const Path& b) { return *a.frames < *b.frames; });
    // An entry under the threshold, but never one of 0 bytes over it.
    below_bytes_ = static_cast<std::uint64_t>(threshold_ / 100 * static_cast<double>(heap));
    write_entries(total, out);
  }

 private:
  // The entries under one that is open, and the next to write.
  struct Level {
    std::vector<Entry> entries;
    std::size_t next = 0;
  };

  void write_entries(std::uint64_t total, std::ostream& out) {
    std::vector<Level> open;  // open[d]: the children of the entry at depth d
    open.push_back({children(paths_, 0, paths_.size(), 0, below_bytes_)});
    line(0, open.back().entries.size(), total, kRootText, out);
    while (!open.empty()) {
      Level& level = open.back();
      if (level.next == level.entries.size()) {
        open.pop_back();
        continue;
      }
      const Entry entry = level.entries[level.next++];
      const std::size_t depth = open.size();
      if (entry.below > 0) {
        line(depth, 0, entry.bytes, below_text(entry.below), out);
        continue;
      }
      std::vector<Entry> under = children(paths_, entry.begin, entry.end, depth, below_bytes_);
      line(depth, under.size(), entry.bytes, frame_text(entry.frame), out);
      if (!under.empty()) open.push_back({std::move(under)});
    }
  }

  // " n2: 1024 TEXT" after `depth` spaces.
  void line(std::size_t depth, std::size_t children, std::uint64_t bytes, const std::string& text,
            std::ostream& out) {
    line_.assign(depth, ' ');
    line_ += "n" + std::to_string(children) + ": " + std::to_string(bytes) + " ";
    line_ += text;
    line_ += '\n';
    out.write(line_.data(), static_cast<std::streamsize>(line_.size()));
  }

  std::string below_text(std::size_t places) const {
    return "in " + std::to_string(places) + (places == 1 ? " place, below" : " places, all below") +
           " massif's threshold (" + percent(threshold_) + ")";
  }

  const std::string& frame_text(FrameId frame) {
    if (texts_.size() <= index(frame)) texts_.resize(model_.frames.size());
    std::optional<std::string>& text = texts_[index(frame)];
    if (!text) text = entry_text(model_.frame(frame));
    return *text;
  }

  const Model& model_;
  const double threshold_;
  std::vector<Path> paths_;  // the sites of the snapshot, sorted
  std::uint64_t below_bytes_ = 0;
  std::vector<std::optional<std::string>> texts_;  // FrameId -> its entry's text, once made
  std::string line_;
};

// ---- the snapshots ---------------------------------------------------------------

// Goes through the snapshots of a model in order, keeping each site's bytes
// at the last chain snapshot, and says which are detailed.
class SnapshotWalk {
 public:
  SnapshotWalk(const Model& model, const MassifOptions& options)
      : model_(model), options_(options), peak_(peak_snapshot(model)) {
    state_.resize(model.sites.size());
    for (std::size_t i = 0; i < state_.size(); ++i) state_[i].site = static_cast<SiteId>(i);
  }

  bool detailed(std::size_t i) const {
    const Snapshot& s = model_.snapshots[i];
    if (s.site_data == SiteData::none) return false;
    std::uint64_t every = std::max<std::uint64_t>(options_.detailed_freq, 1);
    return i == peak_ || i + 1 == model_.snapshots.size() || (i + 1) % every == 0;
  }

  bool peak(std::size_t i) const { return i == peak_; }

  // Moves to snapshot i (called for each in order); the sites it holds, for
  // a snapshot with site data.
  const std::vector<SiteSample>& sites(std::size_t i) {
    const Snapshot& s = model_.snapshots[i];
    if (s.site_data == SiteData::changes) {
      for (const SiteSample& sample : s.sites) state_[index(sample.site)] = sample;
    }
    return s.site_data == SiteData::complete ? s.sites : state_;
  }

 private:
  const Model& model_;
  const MassifOptions& options_;
  std::optional<std::size_t> peak_;
  std::vector<SiteSample> state_;  // SiteId -> the chain's state
};

void write_totals(std::size_t i, const Snapshot& s, std::ostream& out) {
  out << kSeparator << "snapshot=" << i << "\n"
      << kSeparator << "time=" << s.time << "\nmem_heap_B=" << s.heap
      << "\nmem_heap_extra_B=" << s.extra << "\nmem_stacks_B=" << s.stacks << "\nheap_tree=";
}

// The options of the export, and what the format cannot hold, as options
// so that they read as the desc line's others.  A massif.out file made by
// an export has them already: they are written once, anew.
bool export_option(const std::string& name) {
  return name.starts_with("strata-convert-") || name == "strata-cut-short" ||
         name == "strata-stopped";
}

void write_header(const Model& model, const MassifOptions& options, std::ostream& out) {
  out << "desc:";
  for (const Option& option : model.header.options) {
    std::string name = option.name;
    std::replace(name.begin(), name.end(), '_', '-');
    if (export_option(name)) continue;
    out << " --" << export_name(name, " ") << (option.value.empty() ? "" : "=")
        << export_name(option.value, " ");
  }
  std::ostringstream threshold;
  threshold << std::fixed << std::setprecision(1) << options.threshold;
  out << " --strata-convert-threshold=" << threshold.str()
      << " --strata-convert-detailed-freq=" << options.detailed_freq
      << " --strata-convert-dropped=interval-lows,markers" << (model.forks.empty() ? "" : ",forks");
  if (model.cut_short) out << " --strata-cut-short=yes";
  if (!model.stop_reason.empty()) {
    out << " --strata-stopped=" << export_name(model.stop_reason, " \\");
  }
  out << "\ncmd: " << export_name(model.header.cmd) << "\n"
      << "time_unit: " << model.header.time_unit << "\n";
}

// Counts what is written to it.
class CountingBuffer : public std::streambuf {
 public:
  std::uint64_t count() const { return count_; }

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) ++count_;
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    count_ += static_cast<std::uint64_t>(n);
    return n;
  }

 private:
  std::uint64_t count_ = 0;
};

}  // namespace

void write_massif(const Model& model, const MassifOptions& options, std::ostream& out) {
  write_header(model, options, out);
  SnapshotWalk walk(model, options);
  TreeWriter trees(model, options.threshold);
  // A stream that failed (a full disk) stops the writing; the caller says why.
  for (std::size_t i = 0; i < model.snapshots.size() && out; ++i) {
    const Snapshot& s = model.snapshots[i];
    const std::vector<SiteSample>& sites = walk.sites(i);
    write_totals(i, s, out);
    if (!walk.detailed(i)) {
      out << "empty\n";
      continue;
    }
    out << (walk.peak(i) ? "peak" : "detailed") << "\n";
    trees.write(sites, s.heap, out);
  }
}

std::uint64_t massif_size(const Model& model, const MassifOptions& options) {
  SnapshotWalk walk(model, options);
  std::size_t detailed = 0;
  for (std::size_t i = 0; i < model.snapshots.size(); ++i) detailed += walk.detailed(i);
  const std::size_t step =
      std::max<std::size_t>(1, (detailed + kSizeSampleTrees - 1) / kSizeSampleTrees);
  CountingBuffer rest, sampled;
  std::ostream rest_out(&rest), sampled_out(&sampled);
  write_header(model, options, rest_out);
  TreeWriter trees(model, options.threshold);
  std::size_t seen = 0, taken = 0;
  for (std::size_t i = 0; i < model.snapshots.size(); ++i) {
    const std::vector<SiteSample>& sites = walk.sites(i);
    write_totals(i, model.snapshots[i], rest_out);
    rest_out << (!walk.detailed(i) ? "empty\n" : walk.peak(i) ? "peak\n" : "detailed\n");
    if (!walk.detailed(i) || seen++ % step != 0) continue;
    trees.write(sites, model.snapshots[i].heap, sampled_out);
    ++taken;
  }
  if (taken == 0) return rest.count();
  double trees_bytes = static_cast<double>(sampled.count()) * static_cast<double>(detailed) /
                       static_cast<double>(taken);
  return rest.count() + static_cast<std::uint64_t>(trees_bytes);
}

}  // namespace strata
