// SPDX-License-Identifier: GPL-2.0-or-later
// Naming a native profile's frames when the run ends (record.hpp,
// name_native_frames).  The native recorder writes each frame as its code
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
// While the program runs, ObjectWarmer reads the objects of the frames
// written so far, so that this pass finds them read.
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
// in it.  The naming pass and the warmer read F records alike.
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

// Whether the header (the lines before the first record) says the profile
// was recorded natively.
bool is_native(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line) && !line.starts_with("F") && !line.starts_with("T")) {
    if (line == "opt\tnative\tyes") return true;
  }
  return false;
}

class Namer {
 public:
  Namer(std::ostream& out, Symbolizer& symbolizer) : out_(out), symbolizer_(symbolizer) {}

  // A line without its newline.
  void line(std::string_view text) {
    if (text.starts_with("F\t")) {
      frame(text);
    } else if (text.starts_with("S\t") || text.starts_with("P\t")) {
      stack(text);
    } else {
      out_.write(text.data(), static_cast<std::streamsize>(text.size()));
      out_.put('\n');
    }
  }

  const NativeNaming& counts() const { return counts_; }

 private:
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
      ids.push_back(next_id_);
      out_ << "F\t" << next_id_++;
      for (std::size_t i = 2; i < f.size(); ++i) out_ << '\t' << f[i];
      out_ << '\n';
      return;
    }
    ++counts_.named;
    counts_.added += chain.size() - 1;
    for (std::size_t i = 0; i < chain.size(); ++i) {
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

NativeNaming name_native_frames(const std::string& path, Symbolizer& symbolizer) {
  if (!is_native(path)) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot be read: " + std::strerror(errno));
  std::string named = path + ".naming";
  std::ofstream out(named, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(named + ": cannot be written: " + std::strerror(errno));
  Namer namer(out, symbolizer);
  LineReader lines(in, path);
  while (lines.next()) {
    if (!lines.complete()) {  // a last line without its newline: copied as it is
      out << lines.line();
      break;
    }
    namer.line(lines.line());
  }
  out.close();
  if (!out) {
    std::filesystem::remove(named);
    throw Error(named + ": cannot be written");
  }
  std::filesystem::rename(named, path);
  return namer.counts();
}

void ObjectWarmer::start() {
  stop();
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void ObjectWarmer::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> hold(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

bool ObjectWarmer::stopping() {
  std::lock_guard<std::mutex> hold(mutex_);
  return stopping_;
}

namespace {

// The objects of the F records of the profile at `path` from `offset` on,
// in `objects`; `offset` moves past its last complete line.  Only a
// regular file is read (never a FIFO or a device, without blocking).
void frame_objects(const std::string& path, std::uint64_t& offset, std::vector<std::string>& objects) {
  int fd = open_regular(path);
  if (fd < 0) return;
  std::string text = read_from(fd, offset);
  ::close(fd);
  std::size_t end = text.rfind('\n');
  if (end == std::string::npos) return;
  std::string_view lines(text.data(), end + 1);
  for (std::size_t at = 0; at < lines.size();) {
    std::size_t next = lines.find('\n', at);
    std::string_view line = lines.substr(at, next - at);
    at = next + 1;
    if (!line.starts_with("F\t")) continue;
    if (FrameRecord r = frame_record(line); r.object && !r.object->empty()) {
      objects.push_back(std::move(*r.object));
    }
  }
  offset += end + 1;
}

}  // namespace

void ObjectWarmer::run() {
  std::set<std::string> seen;
  std::map<std::string, std::uint64_t> read_to;  // profile -> bytes looked at
  for (;;) {
    {
      std::unique_lock<std::mutex> hold(mutex_);
      if (wake_.wait_for(hold, std::chrono::milliseconds(50), [this] { return stopping_; })) return;
    }
    for (const LedgerNotes::Profile& profile : ledger_.read().profiles) {
      std::vector<std::string> objects;
      frame_objects(profile.path, read_to[profile.path], objects);
      for (const std::string& object : objects) {
        if (!seen.insert(object).second) continue;
        if (stopping()) return;
        symbolizer_.prepare(object);
      }
    }
  }
}

}  // namespace strata
