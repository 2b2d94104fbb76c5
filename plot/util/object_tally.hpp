// SPDX-License-Identifier: GPL-2.0-or-later
// Frames counted by the object they are in, with a name and without, the
// objects in the order of their first frame: what says an object has no
// symbols (analyze/blind_spots.hpp).  Here because it knows nothing of
// profiles: the analysis counts a Model's frames with it, and strata
// record a native profile's as it names them (record.hpp).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace strata {

class ObjectTally {
 public:
  struct Object {
    std::string path;
    std::size_t unnamed = 0;  // its frames without a function
    std::size_t named = 0;    // and with one
  };

  // One frame in `object`, with a function or without.
  void add(const std::string& object, bool named) {
    auto [at, added] = index_.try_emplace(object, objects_.size());
    if (added) objects_.push_back({object});
    (named ? objects_[at->second].named : objects_[at->second].unnamed)++;
  }

  // In the order of their first frame.
  const std::vector<Object>& objects() const { return objects_; }

 private:
  std::vector<Object> objects_;
  std::map<std::string, std::size_t> index_;  // object -> its place in objects_
};

}  // namespace strata
