// listeners: a server whose event bus keeps every connection's subscription.
//
// The server accepts `connections` connections (from `seed`), each of which
// subscribes a callback to the bus (a std::function holding a shared_ptr to
// the connection, with its buffers), exchanges a few messages and
// disconnects.  The disconnect forgets to unsubscribe (fixed=1 does), so the
// bus keeps the subscription, and through it the connection and its
// buffers: a leaked structure of several objects, built at -O2.
//
//   listeners connections=N seed=N fixed=0|1
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "args.h"
}

namespace {

struct Connection {
  unsigned id;
  std::string peer;
  std::vector<char> inbox;
  std::vector<char> outbox;
  unsigned long received = 0;
};

class EventBus {
 public:
  using Callback = std::function<void(const std::string&)>;
  unsigned subscribe(Callback cb) {
    unsigned id = next_id_++;
    subscribers_.emplace(id, std::move(cb));
    return id;
  }
  void unsubscribe(unsigned id) { subscribers_.erase(id); }
  void publish(const std::string& event) {
    for (auto& [id, cb] : subscribers_) cb(event);
  }
  std::size_t size() const { return subscribers_.size(); }

 private:
  std::map<unsigned, Callback> subscribers_;
  unsigned next_id_ = 1;
};

class Server {
 public:
  std::shared_ptr<Connection> accept_connection(unsigned id) {
    auto c = std::make_shared<Connection>();
    c->id = id;
    c->peer = "client-" + std::to_string(id / 250) + "-" + std::to_string(id % 250) + "/" +
              std::to_string(next_random() % 10000);
    c->inbox.reserve(1024 + next_random() % 3072);
    c->outbox.reserve(512);
    subscription_ = bus_.subscribe([c](const std::string& e) { c->received += e.size(); });
    return c;
  }
  void serve(Connection& c, unsigned messages) {
    for (unsigned i = 0; i < messages; i++) {
      std::vector<char> message(256 + next_random() % 2048, static_cast<char>(i));
      c.inbox.assign(message.begin(), message.end());
      c.outbox.assign(c.inbox.begin(), c.inbox.begin() + c.inbox.size() / 2);
    }
  }
  void disconnect(bool fixed) {
    if (fixed) bus_.unsubscribe(subscription_);
  }
  EventBus& bus() { return bus_; }

 private:
  EventBus bus_;
  unsigned subscription_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  static const char* const known[] = {"connections", "seed", "fixed", nullptr};
  opt_check(argc, argv, known);
  long connections = opt_long(argc, argv, "connections", 3000);
  seed_random(argc, argv, 0);
  bool fixed = opt_long(argc, argv, "fixed", 0) != 0;

  Server server;
  for (long i = 0; i < connections; i++) {
    auto c = server.accept_connection(static_cast<unsigned>(i));
    server.serve(*c, 4 + next_random() % 12);
    if (i % 100 == 0) server.bus().publish("tick " + std::to_string(i));
    server.disconnect(fixed);
  }
  std::fprintf(stderr, "listeners: %ld connections, %zu still subscribed\n", connections,
               server.bus().size());
  return 0;
}
