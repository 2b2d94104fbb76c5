// SPDX-License-Identifier: GPL-2.0-or-later
// Naming a native profile's frames as it is written and when the run ends
// (record.hpp, NativeNamer and name_native_frames).  The native recorder writes each frame as its code
// address, object and offset, without a name:
//
//   F  7  0x5602b7c903f6  0  <empty>  <empty>  0  /tmp/player  0x13f6
//
// and this pass gives it the frames the object's DWARF says are there,
// as the tool writes them (docs/format.md, "Frames and sites"): the
// inlined functions, each `inlined` 1, then the function that holds them:
//
//   F  7  0x5602b7c903f6  1  decode_frame  player.c  88   /tmp/player  0x13f6
//   F  8  0x5602b7c903f6  0  play_video    player.c  120  /tmp/player  0x13f6
//
// Ids are given anew in order of appearance, and each S and P record names
// all the frames of each of its addresses.  Every other line is copied.
// While the program runs, NativeNamer names the lines written so far, so
// that at the end only the last ones are left.
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "record/record.hpp"
#include "util/error.hpp"
#include "util/symbolize.hpp"
#include "util/text.hpp"

namespace strata {

namespace {

// A source file as the tool writes it (Valgrind's file name, without its
// directory).
std::string_view file_name(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// A text field as the format escapes it.
std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out;
}

// An F record (F id address inlined function file line object offset):
// its fields, and when it has all 9 its object (unescaped) and the offset
// in it.
struct FrameRecord {
  std::vector<std::string_view> fields;
  std::optional<std::string> object;
  std::optional<std::uint64_t> offset;
};

FrameRecord frame_record(std::string_view text) {
  FrameRecord r{split(text, '\t'), std::nullopt, std::nullopt};
  if (r.fields.size() == 9) {
    r.object = unescape(r.fields[7]);
    if (r.fields[8].starts_with("0x")) r.offset = parse_hex(r.fields[8].substr(2));
  }
  return r;
}

// Whether the header (the lines before the first record, F or T) of
// `text`, a profile's first complete lines, says it was recorded natively;
// nullopt while no record has come yet, unless `whole` (the file has no
// more).
std::optional<bool> native_header(std::string_view text, bool whole) {
  bool native = false;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t next = text.find('\n', at);
    if (next == std::string_view::npos) break;
    std::string_view line = text.substr(at, next - at);
    if (line.starts_with("F") || line.starts_with("T")) return native;
    native = native || line == "opt\tnative\tyes";
    at = next + 1;
  }
  if (whole) return native;
  return std::nullopt;
}

class Namer {
 public:
  Namer(std::ostream& out, Symbolizer& symbolizer) : out_(out), symbolizer_(symbolizer) {
    counts_.native = true;
  }

  // A line without its newline.
  void line(std::string_view text) {
    if (text.starts_with("F\t")) {
      frame(text);
      return;
    }
    if (text.starts_with("S\t") || text.starts_with("P\t")) {
      counts_.sites = counts_.sites || text[0] == 'S';
      stack(text);
      return;
    }
    note(text);
    out_.write(text.data(), static_cast<std::streamsize>(text.size()));
    out_.put('\n');
  }

  const NativeNaming& counts() const { return counts_; }

 private:
  // The facts of the blind spots that a line copied gives: an opt record,
  // a snapshot's heap (T kind time heap ...), the end (X).
  void note(std::string_view text) {
    if (text.starts_with("opt\t")) {
      split(text, '\t', fields_);
      std::optional<std::string> value;
      if (fields_.size() == 3 && (value = unescape(fields_[2]))) {
        if (fields_[1] == "heap") counts_.heap_option = *value;
        if (fields_[1] == "pages_as_heap") counts_.pages_as_heap = *value;
      }
    } else if (text.starts_with("T\t")) {
      split(text, '\t', fields_);
      auto heap = fields_.size() > 3 ? parse_number(fields_[3]) : std::nullopt;
      counts_.heap = counts_.heap || heap.value_or(0) > 0;
    } else if (text.starts_with("X\t")) {
      counts_.complete = true;
    }
  }

  // F id address inlined function file line object offset
  void frame(std::string_view text) {
    auto [f, object, offset] = frame_record(text);
    auto old_id = f.size() == 9 ? parse_number(f[1]) : std::nullopt;
    std::vector<SourceFrame> chain;
    if (old_id && offset && object && !object->empty() && f[4].empty()) {
      ++counts_.frames;
      chain = symbolizer_.frames(*object, *offset);
    }
    ++defined_;
    std::vector<std::uint64_t>& ids = *ids_of(old_id.value_or(0), true);
    if (chain.empty() || !old_id) {
      if (f.size() == 9) counts_.objects.add(object.value_or(""), !f[4].empty());
      ids.push_back(next_id_);
      out_ << "F\t" << next_id_++;
      for (std::size_t i = 2; i < f.size(); ++i) out_ << '\t' << f[i];
      out_ << '\n';
      return;
    }
    ++counts_.named;
    counts_.added += chain.size() - 1;
    for (std::size_t i = 0; i < chain.size(); ++i) {
      counts_.objects.add(*object, !chain[i].function.empty());
      ids.push_back(next_id_);
      out_ << "F\t" << next_id_++ << '\t' << f[2] << '\t' << (i + 1 < chain.size() ? 1 : 0)
           << '\t' << escaped(chain[i].function) << '\t' << escaped(file_name(chain[i].file)) << '\t'
           << chain[i].line << '\t' << f[7] << '\t' << f[8] << '\n';
    }
  }

  // S id frame-id... and P id frame-id...
  void stack(std::string_view text) {
    split(text, '\t', fields_);
    line_.assign(fields_[0]);
    line_ += '\t';
    if (fields_.size() > 1) line_ += fields_[1];
    for (std::size_t i = 2; i < fields_.size(); ++i) {
      auto id = parse_number(fields_[i]);
      const std::vector<std::uint64_t>* ids = id ? ids_of(*id, false) : nullptr;
      if (ids == nullptr || ids->empty()) {
        line_ += '\t';
        line_ += fields_[i];  // not a frame of the file: left for the reader to refuse
        continue;
      }
      for (std::uint64_t n : *ids) {
        char digits[24];
        line_ += '\t';
        line_.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
      }
    }
    line_ += '\n';
    out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
  }

  std::ostream& out_;
  Symbolizer& symbolizer_;
  // Old id -> its frames' ids, null when it has none.  The recorder gives
  // ids in order from 1, kept in a vector; one far past the F records
  // seen (a file not the recorder's) in a map.
  std::vector<std::uint64_t>* ids_of(std::uint64_t id, bool create) {
    if (id < new_ids_.size() && !new_ids_[id].empty()) return &new_ids_[id];
    if (auto at = far_ids_.find(id); at != far_ids_.end()) return &at->second;
    if (!create) return nullptr;
    if (id >= 2 * defined_ + 16) return &far_ids_[id];
    if (id >= new_ids_.size()) new_ids_.resize(id + 1);
    return &new_ids_[id];
  }

  std::vector<std::vector<std::uint64_t>> new_ids_;
  std::map<std::uint64_t, std::vector<std::uint64_t>> far_ids_;
  std::uint64_t defined_ = 0;  // F records seen
  std::vector<std::string_view> fields_;
  std::string line_;
  std::uint64_t next_id_ = 1;
  NativeNaming counts_;
};

}  // namespace

// A native profile named as the recorder writes it: the complete lines
// written so far, named into PATH.naming; finish() names the rest and
// renames it over the profile.  What was named is checked at the end to be
// what the file still holds (the recorder cuts the file back when an exec
// fails after it wrote the profile's end, or a write fails half done):
// each stretch taken is kept as its end and a hash, and when one differs
// the file is named again from its start.
// `from` takes the place of `to`: exchanged with it (renameat2's
// RENAME_EXCHANGE, where the file system has it), and the old one removed,
// so that `to` is never missing.  A rename over `to` made ext4 write the
// new file out to the disk first (auto_da_alloc: a file renamed over
// another is flushed before the rename), 12 ms of cc1plus's 0.7 s.
void replace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_EXCHANGE) == 0) {
    std::filesystem::remove(from);
    return;
  }
  std::filesystem::rename(from, to);
}

class ProfileNaming {
 public:
  ProfileNaming(std::string path, Symbolizer& symbolizer)
      : path_(std::move(path)), symbolizer_(symbolizer) {}

  // Names the complete lines written since the last call; a file that
  // cannot be read yet is left for later, an error for finish().
  void advance() {
    if (failed_ || (native_ && !*native_)) return;  // not a native profile: nothing to name
    std::optional<std::string> text = rest();
    if (!text) return;
    try {
      take(*text, false);
    } catch (const Error&) {
      failed_ = true;  // finish() names it again, and says why it cannot
    }
  }

  NativeNaming finish() {
    if (failed_ || !unchanged()) restart();
    std::optional<std::string> text = rest();
    if (!text) throw Error(path_ + ": cannot be read: " + std::strerror(errno));
    take(*text, true);
    if (!native_.value_or(false)) return {};
    out_.close();
    if (!out_) {
      std::filesystem::remove(named());
      throw Error(named() + ": cannot be written");
    }
    replace(named(), path_);
    return namer_->counts();
  }

 private:
  std::string named() const { return path_ + ".naming"; }

  // The file from offset_ to its end; nullopt when it cannot be opened (a
  // regular file only), errno saying why.
  std::optional<std::string> rest() const {
    int fd = open_regular(path_);
    if (fd < 0) return std::nullopt;
    std::string text = read_from(fd, offset_);
    ::close(fd);
    return text;
  }

  // Names `text`, the file from offset_ on: its complete lines, and when
  // `whole` (the file has no more) a last line without its newline, copied
  // as it is (a profile cut short stays cut at the same record).
  void take(std::string_view text, bool whole) {
    std::size_t end = text.rfind('\n');
    std::string_view lines = text.substr(0, end == std::string_view::npos ? 0 : end + 1);
    if (!native_) {
      native_ = native_header(whole ? text : lines, whole);
      if (!native_) return;  // the header is not all written yet
      if (!*native_) return;
      out_.open(named(), std::ios::binary | std::ios::trunc);
      if (!out_) throw Error(named() + ": cannot be written: " + std::strerror(errno));
      namer_ = std::make_unique<Namer>(out_, symbolizer_);
    }
    if (!*native_) return;
    for (std::size_t at = 0; at < lines.size();) {
      std::size_t next = lines.find('\n', at);
      namer_->line(lines.substr(at, next - at));
      at = next + 1;
    }
    if (!lines.empty()) {
      offset_ += lines.size();
      taken_.push_back({offset_, std::hash<std::string_view>{}(lines)});
    }
    if (whole && lines.size() < text.size()) out_ << text.substr(lines.size());
    if (!whole) out_.flush();  // written as named (the file shows how far it is)
  }

  // Whether the file still holds what was named of it.
  bool unchanged() const {
    int fd = open_regular(path_);
    if (fd < 0) return taken_.empty();
    std::uint64_t from = 0;
    std::string stretch;
    bool same = true;
    for (const auto& [to, hash] : taken_) {
      stretch.resize(to - from);
      std::size_t got = 0;
      while (got < stretch.size()) {
        ssize_t n = ::pread(fd, stretch.data() + got, stretch.size() - got,
                            static_cast<off_t>(from + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
      }
      if (got < stretch.size() || std::hash<std::string_view>{}(stretch) != hash) {
        same = false;
        break;
      }
      from = to;
    }
    ::close(fd);
    return same;
  }

  void restart() {
    namer_.reset();
    if (out_.is_open()) out_.close();
    out_.clear();
    native_.reset();
    offset_ = 0;
    taken_.clear();
    failed_ = false;
  }

  std::string path_;
  Symbolizer& symbolizer_;
  std::optional<bool> native_;  // what the header says, once it is all written
  std::ofstream out_;
  std::unique_ptr<Namer> namer_;
  std::uint64_t offset_ = 0;  // the file is named up to here
  std::vector<std::pair<std::uint64_t, std::size_t>> taken_;  // each stretch's end and hash
  bool failed_ = false;
};

NativeNaming name_native_frames(const std::string& path, Symbolizer& symbolizer) {
  int fd = open_regular(path);
  if (fd < 0) throw Error(path + ": cannot be read: " + std::strerror(errno));
  ::close(fd);
  return ProfileNaming(path, symbolizer).finish();
}

NativeNamer::NativeNamer(Symbolizer& symbolizer, const Ledger& ledger)
    : symbolizer_(symbolizer), ledger_(ledger) {}

NativeNamer::~NativeNamer() { stop(); }

void NativeNamer::start() {
  stop();
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void NativeNamer::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> hold(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

bool NativeNamer::stopping() {
  std::lock_guard<std::mutex> hold(mutex_);
  return stopping_;
}

void NativeNamer::run() {
  for (;;) {
    {
      std::unique_lock<std::mutex> hold(mutex_);
      if (wake_.wait_for(hold, std::chrono::milliseconds(50), [this] { return stopping_; })) return;
    }
    for (const LedgerNotes::Profile& profile : ledger_.read().profiles) {
      if (stopping()) return;
      naming(profile.path).advance();
    }
  }
}

ProfileNaming& NativeNamer::naming(const std::string& path) {
  auto at = profiles_.find(path);
  if (at == profiles_.end()) {
    at = profiles_.emplace(path, std::make_unique<ProfileNaming>(path, symbolizer_)).first;
  }
  return *at->second;
}

NativeNaming NativeNamer::finish(const std::string& path) {
  stop();
  int fd = open_regular(path);
  if (fd < 0) throw Error(path + ": cannot be read: " + std::strerror(errno));
  ::close(fd);
  NativeNaming counts = naming(path).finish();
  profiles_.erase(path);
  return counts;
}

}  // namespace strata
