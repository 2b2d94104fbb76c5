// SPDX-License-Identifier: GPL-2.0-or-later
// The reader of massif.out files (Valgrind 3.3 and later):
//
//   desc: --depth=30
//   cmd: ./prog
//   time_unit: i
//   #-----------
//   snapshot=0
//   #-----------
//   time=0
//   mem_heap_B=0
//   mem_heap_extra_B=0
//   mem_stacks_B=0
//   heap_tree=empty                 (or detailed, or peak, followed by the tree)
//   n2: 1616 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
//    n1: 1024 0x48F88CB: _IO_file_doallocate (filedoalloc.c:101)
//     n0: 1024 0x4004A1D: main (prog.c:7)
//    n0: 592 in 3 places, all below massif's threshold (1.00%)
//
// Every snapshot gives its totals.  The tree of a detailed or peak snapshot
// gives the sites: a site is a path from a child of the root down to a leaf,
// innermost frame first; an entry below massif's threshold becomes a frame
// named kBelowThreshold.  The tree is read with a stack of its open entries,
// not by recursion, so that no depth of tree can overflow the call stack; an
// entry costs its line of input and the stack one element, so the tree's
// depth needs no limit of its own (the lines do: read_text.hpp).  The detailed snapshots form the
// chain of the model, each stored as its changes from the detailed snapshot before it; massif gives
// no block counts (0) and no lows and highs between snapshots (min = max = bytes).
// What strata convert adds to massif's format (docs/format.md) is read back:
// a frame's offset after its object, "(in OBJECT+0xOFFSET)", and a profile
// cut short, --strata-cut-short=yes and --strata-stopped=REASON in desc:.
#include <algorithm>
#include <map>
#include <optional>

#include "read/read.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace strata {

namespace {

constexpr std::string_view kBelowThreshold = "(places below massif's threshold)";
constexpr std::string_view kSeparator = "#-----------";

// One line of a tree: "nCHILDREN: BYTES TEXT" after `depth` spaces.
struct TreeLine {
  std::uint64_t children = 0;
  std::uint64_t bytes = 0;
  std::string_view text;
  std::uint64_t line = 0;  // its line number
};

// Where the location "(file:line)" or "(in object)" ends a frame's text:
// the index of its opening parenthesis, or npos.
std::size_t location_start(std::string_view text) {
  if (!text.ends_with(')')) return std::string_view::npos;
  int depth = 0;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == ')') ++depth;
    if (text[i] == '(' && --depth == 0) {
      return i > 0 && text[i - 1] == ' ' ? i : std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

// Fills in file and line from "file:line", or object from "in object" (and
// the offset from "in object+0xOFFSET", as strata convert writes a frame's
// offset in its object); false when `location` is neither.
bool parse_location(std::string_view location, Frame& frame) {
  if (location.starts_with("in ")) {
    std::string_view object = location.substr(3);
    std::size_t plus = object.rfind("+0x");
    std::optional<std::uint64_t> offset =
        plus == std::string_view::npos ? std::nullopt : parse_hex(object.substr(plus + 3));
    if (offset && plus > 0) {
      frame.offset = offset;
      object = object.substr(0, plus);
    }
    frame.object = object;
    return true;
  }
  std::size_t colon = location.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  auto line = parse_number(location.substr(colon + 1));
  if (!line || *line > UINT32_MAX) return false;
  frame.file = location.substr(0, colon);
  frame.line = static_cast<std::uint32_t>(*line);
  return true;
}

// A frame from massif's "function (file:line)", "function (in object)",
// "???" or "function"; "???" is an unknown function.
Frame parse_frame(std::uint64_t address, std::string_view text) {
  Frame frame;
  frame.address = address;
  std::size_t open = location_start(text);
  if (open != std::string_view::npos &&
      parse_location(text.substr(open + 1, text.size() - open - 2), frame)) {
    text = text.substr(0, open - 1);
  }
  if (text != "???") frame.function = text;
  return frame;
}

class MassifReader {
 public:
  MassifReader(std::istream& in, const std::string& name) : lines_(in, name) {
    model_.file = name;
    model_.format = Format::massif;
  }

  Model read() {
    read_header();
    while (lines_.next()) read_snapshot();
    if (!model_.snapshots.empty()) model_.end_time = model_.snapshots.back().time;
    return std::move(model_);
  }

 private:
  // ---- lines ---------------------------------------------------------------

  void next_line(std::string_view expected) {
    if (!lines_.next()) lines_.fail("the file ends early: expected " + std::string(expected));
  }

  // The value of the next line, "KEY: value" (massif's header).
  std::string header_value(std::string_view key) {
    next_line(key);
    std::string prefix = std::string(key) + ": ";
    if (!lines_.line().starts_with(prefix)) lines_.fail("expected \"" + prefix + "...\"");
    return std::string(lines_.line().substr(prefix.size()));
  }

  // The value of the next line, "KEY=value" (massif's snapshots).
  std::string_view field(std::string_view key) {
    next_line(key);
    std::string_view line = lines_.line();
    if (!line.starts_with(key) || !line.substr(key.size()).starts_with('=')) {
      lines_.fail("expected \"" + std::string(key) + "=...\"");
    }
    return line.substr(key.size() + 1);
  }

  std::uint64_t number_field(std::string_view key) {
    std::string_view value = field(key);
    if (auto number = parse_number(value)) return *number;
    lines_.fail("bad " + std::string(key) + " " + quote(value) + ": expected a number");
  }

  // ---- header --------------------------------------------------------------

  void read_header() {
    Header& header = model_.header;
    header.options = options(header_value("desc"));
    read_cut_short();
    header.cmd = header_value("cmd");
    header.time_unit = header_value("time_unit");
    if (header.time_unit != "i" && header.time_unit != "ms" && header.time_unit != "B") {
      lines_.fail("bad time unit " + quote(header.time_unit) + ": expected i, ms or B");
    }
  }

  // A massif.out file written by strata convert from a profile cut short
  // says so in its desc line: --strata-cut-short=yes, and the reason strata
  // gave, --strata-stopped=REASON (spaces as \x20, a backslash as \\).  The
  // model says it again, as it would of the profile.
  void read_cut_short() {
    std::vector<Option>& options = model_.header.options;
    for (const Option& option : options) {
      if (option.name == "strata-cut-short") {
        if (option.value != "yes")
          lines_.fail("bad --strata-cut-short=" + quote(option.value) + ": expected yes");
        model_.cut_short = true;
      } else if (option.name == "strata-stopped") {
        model_.stop_reason = stop_reason(option.value);
        model_.cut_short = true;
      }
    }
    std::erase_if(options, [](const Option& option) {
      return option.name == "strata-cut-short" || option.name == "strata-stopped";
    });
  }

  // The reason of --strata-stopped=REASON: printable ASCII, not empty.
  std::string stop_reason(std::string_view value) const {
    std::string reason;
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (value[i] != '\\') {
        reason += value[i];
        continue;
      }
      std::string_view escape = value.substr(i + 1, 3);  // "\\" or "xNN"
      if (escape.starts_with('\\')) {
        reason += '\\';
        i += 1;
        continue;
      }
      std::optional<std::uint64_t> code =
          escape.size() == 3 && escape[0] == 'x' ? parse_hex(escape.substr(1)) : std::nullopt;
      if (!code) lines_.fail("bad escape in --strata-stopped=" + quote(value));
      reason += static_cast<char>(*code);
      i += 3;
    }
    if (reason.empty() ||
        std::any_of(reason.begin(), reason.end(), [](char c) { return c < ' ' || c > '~'; })) {
      lines_.fail("bad --strata-stopped=" + quote(value) + ": expected printable ASCII");
    }
    return reason;
  }

  // "--depth=30 --threshold=0" as {depth, 30}, {threshold, 0}.
  static std::vector<Option> options(std::string_view desc) {
    std::vector<Option> options;
    if (desc == "(none)") return options;
    for (std::string_view word : split(desc, ' ')) {
      if (word.empty()) continue;
      if (word.starts_with("--")) word.remove_prefix(2);
      std::size_t equals = word.find('=');
      if (equals == std::string_view::npos) equals = word.size();
      std::string_view value = equals < word.size() ? word.substr(equals + 1) : "";
      options.push_back({std::string(word.substr(0, equals)), std::string(value)});
    }
    return options;
  }

  // ---- snapshots -----------------------------------------------------------

  void read_snapshot() {
    if (lines_.line() != kSeparator) lines_.fail("expected " + std::string(kSeparator));
    if (number_field("snapshot") != model_.snapshots.size()) {
      lines_.fail("snapshot number out of order (expected " +
                  std::to_string(model_.snapshots.size()) + ")");
    }
    next_line(kSeparator);
    if (lines_.line() != kSeparator) lines_.fail("expected " + std::string(kSeparator));
    Snapshot snapshot;
    snapshot.time = number_field("time");
    snapshot.heap = number_field("mem_heap_B");
    snapshot.extra = number_field("mem_heap_extra_B");
    snapshot.stacks = number_field("mem_stacks_B");
    if (!fits(snapshot.heap, snapshot.extra, snapshot.stacks)) {
      lines_.fail("the snapshot's heap, extra heap and stacks add up to more than 2^64-1 bytes");
    }
    read_tree_kind(snapshot);
    if (!model_.snapshots.empty() && snapshot.time < model_.snapshots.back().time) {
      lines_.fail("snapshot time goes backwards");
    }
    model_.snapshots.push_back(std::move(snapshot));
  }

  void read_tree_kind(Snapshot& snapshot) {
    std::string_view tree = field("heap_tree");
    if (tree == "empty") return;
    if (tree != "detailed" && tree != "peak") {
      lines_.fail("bad heap_tree " + quote(tree) + ": expected empty, detailed or peak");
    }
    if (tree == "peak") snapshot.kind = SnapshotKind::peak;
    snapshot.site_data = SiteData::changes;
    std::uint64_t root_line = lines_.number() + 1;
    std::uint64_t sites = 0;
    snapshot.sites = changes(read_tree(sites));
    // The graph stacks the sites, then the extra heap and the stacks.
    if (!fits(sites, snapshot.extra, snapshot.stacks)) {
      throw Error(lines_.name(), root_line,
                  "the tree's bytes, the extra heap and the stacks add up to more than 2^64-1 "
                  "bytes");
    }
  }

  // Whether a + b + c fits in 64 bits: every sum made of a snapshot's bytes
  // must, rather than wrap around to a small one.
  static bool fits(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    return b <= UINT64_MAX - a && c <= UINT64_MAX - a - b;
  }

  // ---- trees ---------------------------------------------------------------

  TreeLine tree_line(std::size_t depth) {
    next_line("a heap tree entry");
    std::string_view line = lines_.line();
    std::size_t indent = line.find_first_not_of(' ');
    if (indent != depth || !line.substr(indent).starts_with('n')) {
      lines_.fail("expected a heap tree entry at depth " + std::to_string(depth));
    }
    std::size_t colon = line.find(": ", indent);
    std::size_t space = colon == line.npos ? line.npos : line.find(' ', colon + 2);
    if (space == line.npos) lines_.fail("bad heap tree entry: expected \"nCHILDREN: BYTES ...\"");
    auto children = parse_number(line.substr(indent + 1, colon - indent - 1));
    auto bytes = parse_number(line.substr(colon + 2, space - colon - 2));
    if (!children || !bytes) lines_.fail("bad heap tree entry: expected \"nCHILDREN: BYTES ...\"");
    return {*children, *bytes, line.substr(space + 1), lines_.number()};
  }

  // The frame of a tree entry below the root.
  Frame entry_frame(std::string_view text) const {
    if (text.starts_with("in ") && text.find("below massif's threshold") != text.npos) {
      Frame frame;
      frame.function = kBelowThreshold;
      return frame;
    }
    std::size_t colon = text.find(": ");
    auto address = text.starts_with("0x") && colon != text.npos
                       ? parse_hex(text.substr(2, colon - 2))
                       : std::nullopt;
    if (!address) lines_.fail("bad heap tree entry " + quote(text) + ": expected 0xADDRESS: ...");
    return parse_frame(*address, text.substr(colon + 2));
  }

  // An entry of the tree whose children are being read.
  struct OpenEntry {
    TreeLine entry;
    std::uint64_t unread = 0;  // children still to read
    std::uint64_t below = 0;   // the bytes of those read
  };

  // Reads a tree, each entry after its parent, children in order, and returns
  // the bytes of each site in it (which add up to the root's, `root_bytes`).  A leaf is a site;
  // bytes of an inner entry not in its children stay with its path.
  std::map<SiteId, std::uint64_t> read_tree(std::uint64_t& root_bytes) {
    std::map<SiteId, std::uint64_t> bytes;  // SiteId -> bytes in this tree
    std::vector<OpenEntry> open;            // open[d]: the entry at depth d
    path_.clear();
    TreeLine root = tree_line(0);
    root_bytes = root.bytes;
    open.push_back({root, root.children});
    while (!open.empty()) {
      if (open.back().unread > 0) {
        --open.back().unread;
        TreeLine child = tree_line(open.size());
        push_frame(entry_frame(child.text));
        open.push_back({child, child.children});
        continue;
      }
      const OpenEntry& done = open.back();
      if (done.below > done.entry.bytes) {
        throw Error(lines_.name(), done.entry.line,
                    "the entries below this one hold more bytes than it");
      }
      if (done.entry.bytes > done.below) bytes[intern_site()] += done.entry.bytes - done.below;
      std::uint64_t held = done.entry.bytes;
      open.pop_back();
      if (open.empty()) break;
      path_.pop_back();
      OpenEntry& parent = open.back();
      if (held > UINT64_MAX - parent.below) {
        throw Error(lines_.name(), parent.entry.line,
                    "the entries below this one hold too many bytes");
      }
      parent.below += held;
    }
    return bytes;
  }

  FrameId intern_frame(const Frame& frame) {
    auto [it, added] = frame_ids_.try_emplace(frame, static_cast<FrameId>(model_.frames.size()));
    if (added) model_.frames.push_back(frame);
    return it->second;
  }

  // A frame of the path from the root's child to the entry being read: the
  // frame, and its ids as interned, as it is and flagged inlined.
  struct PathFrame {
    Frame frame;
    std::optional<FrameId> ids[2];  // [inlined]
    bool inlined = false;           // inlined into the frame after it on the path
  };

  // A frame with the same address as the frame after it (its caller), but
  // another name or line, was inlined into it.
  void push_frame(Frame frame) {
    if (!path_.empty()) {
      const Frame& before = path_.back().frame;
      path_.back().inlined = frame.address == before.address && frame != before;
    }
    path_.push_back({std::move(frame), {}, false});
  }

  FrameId path_frame_id(PathFrame& at, bool inlined) {
    std::optional<FrameId>& id = at.ids[inlined];
    if (!id) {
      Frame frame = at.frame;
      frame.inlined = inlined;
      id = intern_frame(frame);
    }
    return *id;
  }

  // The site of the path (its last frame is not inlined into anything).
  SiteId intern_site() {
    std::vector<FrameId> frames;
    for (std::size_t i = 0; i < path_.size(); ++i) {
      frames.push_back(path_frame_id(path_[i], i + 1 < path_.size() && path_[i].inlined));
    }
    auto [it, added] = site_ids_.try_emplace(frames, static_cast<SiteId>(model_.sites.size()));
    if (added) {
      Site site;
      site.frames = std::move(frames);
      model_.sites.push_back(std::move(site));
    }
    return it->second;
  }

  // The sites whose bytes differ from the previous tree, and the state updated.
  // Only the sites of this tree and of the one before are looked at, so the
  // cost is that of reading them.
  std::vector<SiteSample> changes(const std::map<SiteId, std::uint64_t>& bytes) {
    current_.resize(model_.sites.size(), 0);
    std::map<SiteId, std::uint64_t> changed;
    for (SiteId site : held_) {
      if (!bytes.contains(site)) changed[site] = 0;
    }
    for (auto [site, held] : bytes) {
      if (current_[index(site)] != held) changed[site] = held;
    }
    std::vector<SiteSample> samples;
    for (auto [site, held] : changed) {
      current_[index(site)] = held;
      samples.push_back({site, held, 0, held, held});
    }
    held_.clear();
    for (auto [site, held] : bytes) held_.push_back(site);
    return samples;
  }

  LineReader lines_;
  Model model_;
  std::map<Frame, FrameId> frame_ids_;
  std::map<std::vector<FrameId>, SiteId> site_ids_;
  std::vector<std::uint64_t> current_;  // SiteId -> bytes at the last detailed snapshot
  std::vector<SiteId> held_;            // the sites holding bytes there
  std::vector<PathFrame> path_;         // the frames down to the entry being read
};

}  // namespace

Model read_massif(std::istream& in, const std::string& name) {
  return MassifReader(in, name).read();
}

}  // namespace strata
