// A small C++ file for the cc1plus workload of make bench: GCC's compiler
// proper parses the standard headers it includes and compiles a few
// functions that use them.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

std::map<std::string, std::vector<int>> index_words(const std::vector<std::string>& words) {
  std::map<std::string, std::vector<int>> index;
  for (int i = 0; i < static_cast<int>(words.size()); ++i) index[words[i]].push_back(i);
  return index;
}

int longest(const std::vector<std::string>& words) {
  auto it = std::max_element(words.begin(), words.end(),
                             [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  return it == words.end() ? 0 : static_cast<int>(it->size());
}
