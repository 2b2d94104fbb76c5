// SPDX-License-Identifier: GPL-2.0-or-later
#include "read/name_frames.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "model/frame_names.hpp"

namespace strata {

namespace {

// Valgrind's name for an inlined function whose definition it could not find.
constexpr std::string_view kUnknownInlined = "UnknownInlinedFun";

bool unnamed(const Frame& frame) {
  return frame.function.empty() || frame.function == kUnknownInlined;
}

std::string_view basename(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The frames of one code address in a stack, innermost first: the inlined
// ones, then the function's.
using Group = std::vector<FrameId>;

// The groups of every stack whose object is one of `objects`, each once,
// by object.
std::map<std::string, std::vector<Group>> groups_by_object(const Model& model,
                                                           const std::set<std::string>& objects) {
  std::map<std::string, std::vector<Group>> out;
  std::set<std::tuple<FrameId, FrameId, std::size_t>> seen;  // first, last, size
  auto add = [&](const std::vector<FrameId>& frames) {
    std::size_t start = 0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const Frame& frame = model.frame(frames[i]);
      bool more = frame.inlined && i + 1 < frames.size() &&
                  model.frame(frames[i + 1]).address == frame.address;
      if (more) continue;
      std::size_t first = start;
      start = i + 1;
      if (!objects.contains(frame.object) ||
          !seen.emplace(frames[first], frames[i], i + 1 - first).second) {
        continue;
      }
      out[frame.object].emplace_back(frames.begin() + static_cast<std::ptrdiff_t>(first),
                                     frames.begin() + static_cast<std::ptrdiff_t>(i + 1));
    }
  };
  for (const Site& site : model.sites) add(site.frames);
  for (const std::vector<FrameId>& stack : model.lifetimes.free_stacks_frames) add(stack);
  return out;
}

// A function's last name, for comparing Valgrind's symbols with DWARF's
// names: without clone suffixes, argument list, scope and template
// arguments ("void ns::A<int>::make<char>(int) const [clone .isra.0]" and
// "make<char>" are both "make").
std::string bare_name(std::string_view name) {
  std::string shorter = short_function(function_of_clone(name));
  std::string_view text = shorter;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '<' || c == '(') ++depth;
    if ((c == '>' || c == ')') && depth > 0) --depth;
    if (depth == 0 && (text.substr(i).starts_with("::") || c == ' ')) {
      start = i + (c == ' ' ? 1 : 2);
    }
  }
  text.remove_prefix(std::min(start, text.size()));
  return std::string(text.substr(0, text.find('<')));
}

enum class Check { same, differs, unchecked };

bool has_unnamed(const Model& model, const Group& group) {
  return std::any_of(group.begin(), group.end(),
                     [&](FrameId id) { return unnamed(model.frame(id)); });
}

bool has_lines(const Model& model, const Group& group) {
  return std::any_of(group.begin(), group.end(),
                     [&](FrameId id) { return !model.frame(id).file.empty(); });
}

// Whether `chain` holds fewer frames than the group, its innermost at the
// group's innermost line (and file, where both name one): the DWARF read
// now misses inline levels there that Valgrind read (an LTO build's
// functions inlined from another unit), which says nothing of the object
// being another; such a place is neither evidence nor named.
bool partial(const Model& model, const Group& group, const std::vector<SourceFrame>& chain) {
  if (chain.empty() || chain.size() >= group.size()) return false;
  const Frame& inner = model.frame(group.front());
  if (inner.file.empty() || inner.line != chain.front().line) return false;
  return basename(inner.file) == basename(chain.front().file);
}

// Whether `chain`, read now, is what Valgrind saw at the group's address:
// as many frames (or one frame, when Valgrind read no inline information),
// the same lines and, where they are the same files (by name), checked by
// them; the same names of inlined functions;
// and where Valgrind read no line, the function that holds the code named
// as its symbol was (bare_name).
Check compare(const Model& model, const Group& group, const std::vector<SourceFrame>& chain) {
  if (chain.empty()) return has_lines(model, group) ? Check::differs : Check::unchecked;
  if (group.size() != chain.size() && group.size() != 1) {
    return partial(model, group, chain) ? Check::unchecked : Check::differs;
  }
  bool checked = false;
  for (std::size_t i = 0; i < group.size(); ++i) {
    const Frame& frame = model.frame(group[i]);
    if (!frame.file.empty()) {
      if (frame.line != chain[i].line) return Check::differs;
      // Valgrind can give an inlined chain's innermost frame the file of
      // the frame that calls it, at the right line: a file that differs at
      // the same line is no evidence either way.
      if (basename(frame.file) == basename(chain[i].file)) checked = true;
    }
    if (frame.inlined && !unnamed(frame)) {
      if (frame.function != chain[i].function) return Check::differs;
      checked = true;
    }
    if (!frame.inlined && !unnamed(frame) && frame.file.empty()) {
      if (bare_name(frame.function) != bare_name(chain.back().function)) return Check::differs;
      checked = true;
    }
  }
  return checked ? Check::same : Check::unchecked;
}

// One address of an object, as the profile has it and as the DWARF says.
struct Place {
  Group group;
  std::vector<SourceFrame> chain;
  bool wanted = false;  // it has a frame to name
  Check check = Check::unchecked;
};

// Where the group's address is in its object: the offset the profile gives,
// else the address in an object loaded at its own addresses.
std::optional<std::uint64_t> place_offset(const Model& model, const Group& group,
                                          Symbolizer& symbolizer) {
  const Frame& frame = model.frame(group.back());
  if (frame.offset) return frame.offset;
  if (symbolizer.fixed_addresses(frame.object)) return frame.address;
  return std::nullopt;
}

void set_place(Frame& frame, const SourceFrame& source) {
  frame.file = std::string(basename(source.file));
  frame.line = source.line;
}

class Namer {
 public:
  Namer(Model& model, Symbolizer& symbolizer, NamingCounts& counts)
      : model_(model), symbolizer_(symbolizer), counts_(counts) {}

  // Checks the object against the profile, then names its frames if it is
  // the one recorded.
  void name_object(const std::string& object, const std::vector<Group>& groups) {
    std::vector<Place> places = read_places(object, groups);
    bool same = false;
    for (const Place& p : places) {
      if (p.check == Check::differs) {
        ++counts_.refused;
        return;
      }
      same = same || p.check == Check::same;
    }
    if (!same) return;
    std::size_t before = counts_.named + counts_.added;
    for (const Place& p : places) {
      if (p.wanted && !p.chain.empty() && !partial(model_, p.group, p.chain)) {
        name_group(p.group, p.chain);
      }
    }
    if (counts_.named + counts_.added > before) ++counts_.objects;
  }

  // The frames to put before a frame in every stack: those of the
  // functions inlined there, which Valgrind did not write.
  const std::map<FrameId, std::vector<FrameId>>& inserted() const { return inserted_; }

 private:
  // The places to name, read and compared; and when none of them can be
  // compared, up to kEvidence more places of the object that can.
  std::vector<Place> read_places(const std::string& object, const std::vector<Group>& groups) {
    std::vector<Place> places;
    bool same = false;
    for (const Group& group : groups) {
      if (has_unnamed(model_, group)) add_place(object, group, true, places, same);
    }
    std::size_t evidence = 0;
    for (const Group& group : groups) {
      if (same || evidence == kEvidence) break;
      if (has_unnamed(model_, group)) continue;
      ++evidence;
      add_place(object, group, false, places, same);
    }
    return places;
  }

  void add_place(const std::string& object, const Group& group, bool wanted,
                 std::vector<Place>& places, bool& same) {
    std::optional<std::uint64_t> offset = place_offset(model_, group, symbolizer_);
    if (!offset) return;
    Place p{.group = group, .chain = symbolizer_.frames(object, *offset), .wanted = wanted};
    p.check = compare(model_, group, p.chain);
    same = same || p.check == Check::same;
    places.push_back(std::move(p));
  }

  // The group's unnamed frames get the chain's names.  A frame alone at its
  // address without a name: with a line (Valgrind read no inline
  // information), the function that holds the code; without (Valgrind read
  // no DWARF there), the whole chain.
  void name_group(const Group& group, const std::vector<SourceFrame>& chain) {
    if (group.size() == chain.size()) {
      for (std::size_t i = 0; i < group.size(); ++i) name_frame(group[i], chain[i]);
      return;
    }
    Frame& alone = model_.frames[index(group.front())];
    if (!alone.function.empty()) return;
    if (!alone.file.empty()) {
      name_frame(group.front(), chain.back());
      return;
    }
    expand(group.front(), chain);
  }

  void name_frame(FrameId id, const SourceFrame& source) {
    Frame& frame = model_.frames[index(id)];
    if (!unnamed(frame) || source.function.empty()) return;
    frame.function = source.function;
    if (frame.file.empty() && !source.file.empty()) set_place(frame, source);
    ++counts_.named;
  }

  // The frame becomes the function that holds the code, and the functions
  // inlined there frames of their own before it.
  void expand(FrameId id, const std::vector<SourceFrame>& chain) {
    std::vector<FrameId>& before = inserted_[id];
    for (std::size_t i = 0; i + 1 < chain.size(); ++i) {
      Frame frame = model_.frames[index(id)];
      frame.inlined = true;
      frame.function = chain[i].function;
      set_place(frame, chain[i]);
      model_.frames.push_back(std::move(frame));
      before.push_back(static_cast<FrameId>(model_.frames.size() - 1));
      ++counts_.added;
    }
    Frame& frame = model_.frames[index(id)];
    frame.function = chain.back().function;
    set_place(frame, chain.back());
    ++counts_.named;
  }

  Model& model_;
  Symbolizer& symbolizer_;
  NamingCounts& counts_;
  std::map<FrameId, std::vector<FrameId>> inserted_;  // frame -> the inlined frames before it
};

void insert_frames(std::vector<FrameId>& stack,
                   const std::map<FrameId, std::vector<FrameId>>& inserted) {
  std::vector<FrameId> out;
  for (FrameId id : stack) {
    auto at = inserted.find(id);
    if (at != inserted.end()) out.insert(out.end(), at->second.begin(), at->second.end());
    out.push_back(id);
  }
  stack = std::move(out);
}

constexpr std::array<std::string_view, 3> kSystemIncludes = {"/usr/include/", "/usr/local/include/",
                                                             "/usr/lib/gcc/"};

}  // namespace

void mark_system_sources(Model& model, Symbolizer& symbolizer) {
  // The frames at each place: an object, an offset (the groups of a stack
  // share the address of the frame that holds them).
  std::map<std::pair<std::string, std::uint64_t>, std::vector<std::size_t>> places;
  for (std::size_t i = 0; i < model.frames.size(); ++i) {
    const Frame& f = model.frames[i];
    // (an object of the system's is a library's whatever its sources)
    if (f.object.empty() || !f.offset || !header_file(f.file) || system_object(f.object)) continue;
    places[{f.object, *f.offset}].push_back(i);
  }
  for (const auto& [place, frames] : places) {
    std::vector<SourceFrame> chain = symbolizer.frames(place.first, place.second);
    for (std::size_t i : frames) {
      Frame& f = model.frames[i];
      for (const SourceFrame& source : chain) {
        if (source.line != f.line || basename(source.file) != f.file) continue;
        f.system_source = std::any_of(kSystemIncludes.begin(), kSystemIncludes.end(),
                                      [&](std::string_view d) { return source.file.starts_with(d); });
        break;
      }
    }
  }
}

NamingCounts name_frames(Model& model, Symbolizer& symbolizer) {
  NamingCounts counts;
  std::set<std::string> objects;
  for (const Frame& frame : model.frames) {
    if (unnamed(frame) && !frame.object.empty()) objects.insert(frame.object);
  }
  if (objects.empty()) return counts;
  Namer namer(model, symbolizer, counts);
  for (const auto& [object, groups] : groups_by_object(model, objects)) {
    namer.name_object(object, groups);
  }
  if (namer.inserted().empty()) return counts;
  for (Site& site : model.sites) insert_frames(site.frames, namer.inserted());
  for (std::vector<FrameId>& stack : model.lifetimes.free_stacks_frames) {
    insert_frames(stack, namer.inserted());
  }
  return counts;
}

}  // namespace strata
