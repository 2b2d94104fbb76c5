// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyze/blind_spots.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

namespace strata {

namespace {

std::string option(const Model& model, const std::string& name) {
  for (const Option& opt : model.header.options) {
    if (opt.name == name) return opt.value;
  }
  return "";
}

bool no_heap(const Model& model) {
  if (model.cut_short || !model.sites.empty()) return false;
  if (option(model, "heap") == "no" || option(model, "pages_as_heap") == "yes") return false;
  return std::all_of(model.snapshots.begin(), model.snapshots.end(),
                     [](const Snapshot& s) { return s.heap == 0; });
}

// python3.11, python3, libpython3.11.so.1.0: CPython, whose small objects
// come from its own arenas (pymalloc), mapped with mmap, not from malloc.
bool is_python(const std::string& object) {
  std::string name = std::filesystem::path(object).filename().string();
  if (name.starts_with("lib")) name.erase(0, 3);
  if (!name.starts_with("python")) return false;
  std::string rest = name.substr(6);
  return rest.empty() || std::isdigit(static_cast<unsigned char>(rest[0])) || rest[0] == '.';
}

std::string python_object(const Model& model) {
  if (option(model, "pages_as_heap") == "yes") return "";  // the arenas' pages are seen
  for (const Frame& frame : model.frames) {
    if (is_python(frame.object)) return frame.object;
  }
  return "";
}

// Objects where frames without a symbol outnumber those with one.
std::vector<std::string> unsymbolised(const Model& model) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> counts;  // object -> unnamed, named
  for (const Frame& frame : model.frames) {
    if (frame.object.empty()) continue;
    auto& [unnamed, named] = counts[frame.object];
    (frame.function.empty() ? unnamed : named)++;
  }
  std::vector<std::string> objects;
  for (const auto& [object, count] : counts) {
    if (count.first > count.second) objects.push_back(object);
  }
  return objects;
}

}  // namespace

BlindSpots blind_spots(const Model& model) {
  return {no_heap(model), python_object(model), unsymbolised(model)};
}

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
