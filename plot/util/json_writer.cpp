// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/json_writer.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace strata {

namespace {

using Json = nlohmann::ordered_json;

// A scalar, or a key as a JSON string, as dump() writes it.
std::string scalar(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string indent(std::size_t level) {
  return std::string(2 * std::min(level, kMaxIndentLevels), ' ');
}

// An array or object being written: the next of its elements.
struct Open {
  const Json* container;
  Json::const_iterator next;
};

// Writes `value` if it is a scalar or an empty container; else opens it.
void begin(const Json& value, std::vector<Open>& open, std::ostream& out) {
  bool array = value.is_array();
  if (!value.is_structured()) {
    out << scalar(value);
  } else if (value.empty()) {
    out << (array ? "[]" : "{}");
  } else {
    out << (array ? "[" : "{");
    open.push_back({&value, value.begin()});
  }
}

}  // namespace

void write_json(const Json& json, std::ostream& out) {
  std::vector<Open> open;
  begin(json, open, out);
  while (!open.empty()) {
    Open& at = open.back();
    std::size_t level = open.size();
    if (at.next == at.container->end()) {
      out << "\n" << indent(level - 1) << (at.container->is_array() ? "]" : "}");
      open.pop_back();
      continue;
    }
    out << (at.next == at.container->begin() ? "\n" : ",\n") << indent(level);
    if (at.container->is_object()) out << scalar(at.next.key()) << ": ";
    const Json& value = *at.next++;
    begin(value, open, out);  // may invalidate `at`
  }
}

}  // namespace strata
