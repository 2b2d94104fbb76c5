// cache_move: a DNS-style resolver cache that fills up, then turns over.
//
// At start warm_cache fills the cache with `capacity` entries (a name and an
// answer record of random size, from `seed`); then `lookups` lookups follow,
// and each miss evicts the oldest entry and stores the new answer, made by
// refresh_entry.  The cache's bytes plateau: the entries move from the line
// that filled it to the line that replaces them, and their sum stays flat.
// One lookup in `miss` asks for a new name; the others ask for a name in the
// cache.  With about `capacity` misses in the run (lookups = capacity x
// miss), the turnover lasts the whole run: refresh_entry's bytes climb from
// start to end while warm_cache's fall.  No leak.
//
//   cache_move capacity=N lookups=N miss=N seed=N
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
#include "args.h"
}

namespace {

struct Answer {
  std::string name;
  std::vector<unsigned char> record;
  unsigned ttl;
};

class Cache {
 public:
  explicit Cache(std::size_t capacity) : capacity_(capacity) {}

  void warm_cache(unsigned count) {
    for (unsigned i = 0; i < count; i++) {
      auto answer = std::make_unique<Answer>();
      answer->name = "host" + std::to_string(i) + ".warm.example.org";
      answer->record.assign(200 + next_random() % 1800, static_cast<unsigned char>(i));
      answer->ttl = 300;
      insert(std::move(answer));
    }
  }

  const Answer* lookup(const std::string& name) {
    auto it = entries_.find(name);
    if (it != entries_.end()) {
      hits_++;
      return it->second.get();
    }
    return refresh_entry(name);
  }

  // A name in the cache, picked at random.
  const std::string& cached_name() const { return order_[next_random() % order_.size()]; }

  unsigned long hits() const { return hits_; }
  std::size_t size() const { return entries_.size(); }

 private:
  const Answer* refresh_entry(const std::string& name) {
    auto answer = std::make_unique<Answer>();
    answer->name = name;
    answer->record.resize(200 + next_random() % 1800);
    for (std::size_t i = 0; i < answer->record.size(); i++)
      answer->record[i] = static_cast<unsigned char>(name[i % name.size()] + i);
    answer->ttl = 60 + next_random() % 600;
    const Answer* kept = answer.get();
    insert(std::move(answer));
    return kept;
  }

  void insert(std::unique_ptr<Answer> answer) {
    if (entries_.size() >= capacity_) {
      entries_.erase(order_.front());
      order_.pop_front();
    }
    order_.push_back(answer->name);
    entries_.emplace(answer->name, std::move(answer));
  }

  std::size_t capacity_;
  std::unordered_map<std::string, std::unique_ptr<Answer>> entries_;
  std::deque<std::string> order_;
  unsigned long hits_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  static const char* const known[] = {"capacity", "lookups", "miss", "seed", nullptr};
  opt_check(argc, argv, known);
  long capacity = opt_long(argc, argv, "capacity", 1500);
  long lookups = opt_long(argc, argv, "lookups", 30000);
  long miss = opt_long(argc, argv, "miss", 20);
  seed_random(argc, argv, 0);

  Cache cache(static_cast<std::size_t>(capacity));
  cache.warm_cache(static_cast<unsigned>(capacity));
  unsigned long sum = 0;
  for (long i = 0; i < lookups; i++) {
    const Answer* a = next_random() % miss == 0
                          ? cache.lookup("host" + std::to_string(i) + ".example.org")
                          : cache.lookup(std::string(cache.cached_name()));
    sum += a->record[0] + a->ttl;
  }
  std::fprintf(stderr, "cache_move: %zu entries, %lu hits, sum %lu\n", cache.size(), cache.hits(),
               sum);
  return 0;
}
