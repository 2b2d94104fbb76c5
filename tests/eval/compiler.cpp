// compiler: a batch compiler that keeps every unit's syntax tree to the end.
//
// The compiler reads `units` source units (expressions made up from `seed`),
// parses each into a tree of nodes (parse_unit), checks it with a few
// temporaries, and keeps every tree for the whole-program pass at the end,
// which walks them all; then it frees them all and exits.  Its heap grows for
// the whole run (growth), but the trees are freed before exit, as a batch
// program's are: not a leak.
//
//   compiler units=N seed=N
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
#include "args.h"
}

namespace {

struct Node {
  char op;
  long value;
  std::string name;
  std::unique_ptr<Node> left, right;
};

// Source text: a random expression of `depth` levels.
void emit(std::string& out, int depth) {
  if (depth == 0 || next_random() % 5 == 0) {
    if (next_random() % 2)
      out += std::to_string(next_random() % 1000);
    else
      out += "v" + std::to_string(next_random() % 64);
    return;
  }
  out += '(';
  emit(out, depth - 1);
  out += "+-*/"[next_random() % 4];
  emit(out, depth - 1);
  out += ')';
}

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}
  std::unique_ptr<Node> expression() {
    auto node = std::make_unique<Node>();
    if (text_[at_] == '(') {
      at_++;
      node->left = expression();
      node->op = text_[at_++];
      node->right = expression();
      at_++;  // ')'
    } else if (text_[at_] == 'v') {
      std::size_t end = text_.find_first_of("+-*/)", at_);
      node->op = 'v';
      node->name = text_.substr(at_, end - at_);
      at_ = end;
    } else {
      std::size_t used = 0;
      node->op = '#';
      node->value = std::stol(text_.substr(at_), &used);
      at_ += used;
    }
    return node;
  }

 private:
  const std::string& text_;
  std::size_t at_ = 0;
};

std::unique_ptr<Node> parse_unit(const std::string& source) { return Parser(source).expression(); }

long check_unit(const Node& root) {
  // Temporaries: the names the unit uses.
  std::unordered_map<std::string, int> uses;
  std::vector<const Node*> work{&root};
  long nodes = 0;
  while (!work.empty()) {
    const Node* n = work.back();
    work.pop_back();
    nodes++;
    if (n->op == 'v') uses[n->name]++;
    if (n->left) work.push_back(n->left.get());
    if (n->right) work.push_back(n->right.get());
  }
  return nodes + static_cast<long>(uses.size());
}

long whole_program(const std::vector<std::unique_ptr<Node>>& units) {
  long constants = 0;
  for (const auto& u : units) {
    std::vector<const Node*> work{u.get()};
    while (!work.empty()) {
      const Node* n = work.back();
      work.pop_back();
      if (n->op == '#') constants += n->value;
      if (n->left) work.push_back(n->left.get());
      if (n->right) work.push_back(n->right.get());
    }
  }
  return constants;
}

}  // namespace

int main(int argc, char** argv) {
  static const char* const known[] = {"units", "seed", nullptr};
  opt_check(argc, argv, known);
  long count = opt_long(argc, argv, "units", 300);
  seed_random(argc, argv, 0);

  std::vector<std::unique_ptr<Node>> units;
  long checked = 0;
  for (long i = 0; i < count; i++) {
    std::string source;
    emit(source, 8);
    units.push_back(parse_unit(source));
    checked += check_unit(*units.back());
  }
  long constants = whole_program(units);
  units.clear();
  std::fprintf(stderr, "compiler: %ld units, %ld checked, constants %ld\n", count, checked,
               constants);
  return 0;
}
