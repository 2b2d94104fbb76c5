// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/blind_spots.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace strata {

namespace {

// python3.11, python3, libpython3.11.so.1.0: CPython, whose small objects
// come from its own arenas (pymalloc), mapped with mmap, not from malloc.
bool is_python(const std::string& object) {
  std::string name = std::filesystem::path(object).filename().string();
  if (name.starts_with("lib")) name.erase(0, 3);
  if (!name.starts_with("python")) return false;
  std::string rest = name.substr(6);
  return rest.empty() || std::isdigit(static_cast<unsigned char>(rest[0])) || rest[0] == '.';
}

}  // namespace

BlindSpotFacts blind_spot_facts(const Model& model) {
  BlindSpotFacts facts;
  facts.complete = !model.cut_short;
  facts.sites = !model.sites.empty();
  facts.heap = std::any_of(model.snapshots.begin(), model.snapshots.end(),
                           [](const Snapshot& s) { return s.heap > 0; });
  for (const Option& opt : model.header.options) {
    if (opt.name == "heap") facts.heap_option = opt.value;
    if (opt.name == "pages_as_heap") facts.pages_as_heap = opt.value;
  }
  for (const Frame& frame : model.frames) facts.objects.add(frame.object, !frame.function.empty());
  return facts;
}

BlindSpots blind_spots(const BlindSpotFacts& facts) {
  BlindSpots spots;
  // No heap: a complete heap profile without a block.
  spots.no_heap = facts.complete && !facts.sites && !facts.heap && facts.heap_option != "no" &&
                  facts.pages_as_heap != "yes";
  for (const ObjectTally::Object& object : facts.objects.objects()) {
    if (object.path.empty()) continue;
    // The first Python object, unless the arenas' pages are seen.
    if (spots.python.empty() && facts.pages_as_heap != "yes" && is_python(object.path)) {
      spots.python = object.path;
    }
    // Objects where frames without a symbol outnumber those with one.
    if (object.unnamed > object.named) spots.unsymbolised.push_back(object.path);
  }
  std::sort(spots.unsymbolised.begin(), spots.unsymbolised.end());
  return spots;
}

BlindSpots blind_spots(const Model& model) { return blind_spots(blind_spot_facts(model)); }

void merge(BlindSpots& into, const BlindSpots& more) {
  into.no_heap = into.no_heap && more.no_heap;
  if (into.python.empty()) into.python = more.python;
  for (const std::string& object : more.unsymbolised) {
    if (std::find(into.unsymbolised.begin(), into.unsymbolised.end(), object) ==
        into.unsymbolised.end()) {
      into.unsymbolised.push_back(object);
    }
  }
}

}  // namespace strata
