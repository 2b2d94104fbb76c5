/* cxx_cache: a leak inside C++ containers.
 *
 * Every request computes a result and remembers it (remember_result) in a
 * cache that is never evicted: an std::unordered_map from the request's key
 * to a std::vector<char> of `size` bytes (container=map), or a
 * std::vector of results that push_back grows by doubling (container=vector).
 * Keys repeat rarely, so the cache grows all run.  Beside it, a bounded LRU
 * of `lru` entries (lru_touch: std::list and std::unordered_map, a cache that
 * fills and plateaus) and temporary std::strings (format_reply).  leak=0
 * evicts the cache down to 64 entries whenever it passes 128.  Background
 * decoys run beside it.
 *
 *   cxx_cache seed=N run=N work=N size=BYTES container=map|vector lru=N
 *             leak=0|1 teardown=PCT bg=0|1 bg_temp=BYTES */
#include <cstring>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

#include "corpus.h"

namespace {

struct Result {
   long key;
   char payload[56];
};

std::unordered_map<long, std::vector<char>> *results_by_key;
std::vector<Result> *results;

/* The leak. */
NOINLINE void remember_result(long key, std::size_t size, bool in_map)
{
   if (in_map) {
      std::vector<char> &v = (*results_by_key)[key];
      v.assign(size, static_cast<char>(key));
   } else {
      Result r{};
      r.key = key;
      results->push_back(r);
   }
}

NOINLINE void forget_results()
{
   if (results_by_key->size() > 128) {
      while (results_by_key->size() > 64)
         results_by_key->erase(results_by_key->begin());
   }
   if (results->size() > 128) {
      results->erase(results->begin(), results->end() - 64);
      results->shrink_to_fit();
   }
}

struct Lru {
   std::list<long> order;
   std::unordered_map<long, std::list<long>::iterator> where;
};
Lru *lru;

NOINLINE void lru_touch(long key, std::size_t most)
{
   auto it = lru->where.find(key);
   if (it != lru->where.end())
      lru->order.erase(it->second);
   lru->order.push_front(key);
   lru->where[key] = lru->order.begin();
   if (lru->order.size() > most) {
      lru->where.erase(lru->order.back());
      lru->order.pop_back();
   }
}

NOINLINE std::size_t format_reply(long key)
{
   std::string reply = "result for request " + std::to_string(key);
   reply.append(200 + static_cast<std::size_t>(key % 300), '.');
   return reply.size();
}

void release_all()
{
   delete results_by_key;
   delete results;
   delete lru;
}

}  // namespace

int main(int argc, char **argv)
{
   args_init(argc, argv);
   rng_seed(static_cast<unsigned long>(arg_long("seed", 1)));
   long run = arg_long("run", 600), work = arg_long("work", 2000);
   std::size_t size = static_cast<std::size_t>(arg_long("size", 512));
   bool in_map = std::strcmp(arg_str("container", "map"), "map") == 0;
   std::size_t most = static_cast<std::size_t>(arg_long("lru", 100));
   bool leak = arg_long("leak", 1) != 0;
   long tear = arg_long("teardown", 5);
   bg_init();
   args_done();
   results_by_key = new std::unordered_map<long, std::vector<char>>;
   results = new std::vector<Result>;
   lru = new Lru;
   at_teardown(release_all);

   volatile std::size_t sink = 0;
   for (long r = 0; r < run; r++) {
      long key = rng_range(0, 1L << 40);
      remember_result(key, size, in_map);
      if (!leak)
         forget_results();
      lru_touch(rng_range(0, 4 * static_cast<long>(most)), most);
      sink = sink + format_reply(key);
      bg_step();
      idle_work(work);
   }
   teardown(tear);
   return 0;
}
