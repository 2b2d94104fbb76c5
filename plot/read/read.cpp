// SPDX-License-Identifier: GPL-2.0-or-later
#include "read/read.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "read/name_frames.hpp"
#include "util/error.hpp"
#include "util/symbolize.hpp"

namespace strata {

namespace {

enum class Kind { strata, massif, unknown };

// From the first bytes only (the file may have no newline, or no end).
Kind detect(std::istream& in) {
  std::string first(16, '\0');
  in.read(first.data(), static_cast<std::streamsize>(first.size()));
  first.resize(static_cast<std::size_t>(in.gcount()));
  in.clear();
  in.seekg(0);
  if (first.starts_with("strata-profile")) return Kind::strata;
  if (first.starts_with("desc:")) return Kind::massif;
  return Kind::unknown;
}

std::ifstream open(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw Error(path, 0, "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, 0, std::string("cannot read: ") + std::strerror(errno));
  return in;
}

Model read_file(const std::string& path, Detail detail) {
  std::ifstream in = open(path);
  switch (detect(in)) {
    case Kind::strata:
      return read_strata(in, path, detail);
    case Kind::massif:
      return read_massif(in, path);
    case Kind::unknown:
      break;
  }
  throw Error(path, 0, "not a strata profile or massif.out file");
}

// One for the whole run: the objects of the profiles that `strata diff`
// compares are read once.
Symbolizer& symbolizer() {
  static Symbolizer one;
  return one;
}

}  // namespace

Model read_profile(const std::string& path) {
  Model model = read_file(path, Detail::all);
  name_frames(model, symbolizer());
  mark_system_sources(model, symbolizer());
  return model;
}

Model read_outline(const std::string& path) {
  Model model = read_file(path, Detail::outline);
  bool native = std::any_of(model.header.options.begin(), model.header.options.end(),
                            [](const Option& o) { return o.name == "native" && o.value == "yes"; });
  if (!native) name_frames(model, symbolizer());
  return model;
}

}  // namespace strata
