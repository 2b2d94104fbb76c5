// document: an editor that opens and closes documents, and loses each one.
//
// The editor opens `docs` documents one after another (made up from `seed`):
// open_document builds a Document (its title, its lines, a word index and an
// undo stack, each allocated apart), the user edits it a while, and
// close_document takes it off the list of open documents, but never deletes
// it (fixed=1 deletes it).  Each leak is one structure of many objects made
// at several allocation lines.
//
//   document docs=N seed=N fixed=0|1
#include <cstdio>
#include <cstdlib>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "args.h"
}

namespace {

struct Edit {
  std::size_t line;
  std::string before;
};

struct Document {
  std::string title;
  std::vector<std::string*> lines;
  std::map<std::string, std::vector<std::size_t>> index;
  std::vector<Edit> undo;
};

std::string make_line(unsigned words) {
  static const char* vocabulary[] = {"the", "heap", "grows", "when",  "a",     "block",
                                     "is",  "lost", "and",   "never", "freed", "again"};
  std::string line;
  for (unsigned i = 0; i < words; i++) {
    if (i) line += ' ';
    line += vocabulary[next_random() % 12];
    line += std::to_string(next_random() % 50);
  }
  return line;
}

void load_lines(Document* doc, unsigned count) {
  for (unsigned i = 0; i < count; i++) doc->lines.push_back(new std::string(make_line(8)));
}

void index_words(Document* doc) {
  for (std::size_t n = 0; n < doc->lines.size(); n++) {
    const std::string& line = *doc->lines[n];
    std::size_t start = 0;
    while (start < line.size()) {
      std::size_t end = line.find(' ', start);
      if (end == std::string::npos) end = line.size();
      doc->index[line.substr(start, end - start)].push_back(n);
      start = end + 1;
    }
  }
}

Document* open_document(unsigned number) {
  Document* doc = new Document;
  doc->title = "chapter " + std::to_string(number) + " of the long manuscript";
  load_lines(doc, 40 + next_random() % 40);
  index_words(doc);
  return doc;
}

void edit_document(Document* doc, unsigned edits) {
  for (unsigned i = 0; i < edits; i++) {
    std::size_t n = next_random() % doc->lines.size();
    doc->undo.push_back(Edit{n, *doc->lines[n]});
    *doc->lines[n] = make_line(6 + next_random() % 6);
  }
}

void delete_document(Document* doc) {
  for (std::string* line : doc->lines) delete line;
  delete doc;
}

// The leak: the document leaves the list and nothing deletes it.
void close_document(std::list<Document*>& open, Document* doc, bool fixed) {
  open.remove(doc);
  if (fixed) delete_document(doc);
}

}  // namespace

int main(int argc, char** argv) {
  static const char* const known[] = {"docs", "seed", "fixed", nullptr};
  opt_check(argc, argv, known);
  long docs = opt_long(argc, argv, "docs", 60);
  seed_random(argc, argv, 0);
  bool fixed = opt_long(argc, argv, "fixed", 0) != 0;

  std::list<Document*> open;
  std::size_t words = 0;
  for (long d = 0; d < docs; d++) {
    Document* doc = open_document(static_cast<unsigned>(d));
    open.push_back(doc);
    edit_document(doc, 20 + next_random() % 60);
    words += doc->index.size();
    close_document(open, doc, fixed);
  }
  std::fprintf(stderr, "document: %ld documents, %zu words\n", docs, words);
  return 0;
}
