// Deep template stacks: maps of strings to vectors of strings, built,
// searched and torn down in rounds.  Usage: templates ROUNDS
// SPDX-License-Identifier: GPL-2.0-or-later
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using Index = std::map<std::string, std::vector<std::string>>;

std::string key_of(int i)
{
   return "key-" + std::to_string(i * 7919 % 100003) + "-suffix-long-enough";
}

void fill(Index& index, int n)
{
   for (int i = 0; i < n; i++)
      index[key_of(i)].push_back(std::to_string(i) + " a value of some length");
}

long search(const Index& index, int n)
{
   long hits = 0;
   for (int i = 0; i < n; i += 3)
      hits += index.count(key_of(i));
   return hits;
}

}  // namespace

int main(int argc, char** argv)
{
   int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
   long hits = 0;
   for (int r = 0; r < rounds; r++) {
      Index index;
      fill(index, 20000);
      hits += search(index, 20000);
   }
   return hits > 0 ? 0 : 1;
}
