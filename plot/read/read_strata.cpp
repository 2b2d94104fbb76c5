// SPDX-License-Identifier: GPL-2.0-or-later
// The reader of strata profiles: the grammar of docs/format.md, one function
// per record type.  Malformed input is an error naming the line.  The one
// exception is the tail of a profile cut short (the program was killed, or
// the tool stopped writing and said why in a `Q` record): a last line
// without its newline and a snapshot without its `E` are dropped, and the
// model says the profile was cut short.
#include <algorithm>
#include <array>
#include <unordered_map>

#include "read/lifetime_records.hpp"
#include "read/read.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace strata {

namespace {

using Fields = std::vector<std::string_view>;

constexpr std::string_view kMagic = "strata-profile";
constexpr std::uint64_t kOldestVersion = 1, kVersion = 3;

class StrataReader {
 public:
  StrataReader(std::istream& in, const std::string& name, Detail detail)
      : lines_(in, name), lifetimes_(lines_), outline_(detail == Detail::outline) {
    model_.file = name;
    model_.format = Format::strata;
  }

  Model read() {
    read_header();
    Fields fields;
    while (next_complete_line()) {
      if (outline_ && in_detail(lines_.line())) continue;
      if (read_plain_sample()) continue;
      split(lines_.line(), '\t', fields);
      read_record(fields);
    }
    finish();
    return std::move(model_);
  }

 private:
  using Handler = void (StrataReader::*)(const Fields&);

  // ---- lines and fields ----------------------------------------------------

  // The records an outline leaves out: a snapshot's samples and counts, an
  // epoch's births, deaths and survivors.
  static bool in_detail(std::string_view line) {
    return line.size() > 1 && line[1] == '\t' &&
           (line[0] == 's' || line[0] == 'c' || line[0] == 'b' || line[0] == 'd' ||
            line[0] == 'a');
  }

  // Moves to the next line; false at the end or at a last line cut short.
  bool next_complete_line() {
    if (!lines_.next()) return false;
    if (lines_.complete()) return true;
    if (ended_) lines_.fail(std::string("text after the end record ") + (stopped_ ? "Q" : "X"));
    return false;
  }

  void expect_fields(const Fields& fields, std::size_t count) const {
    if (fields.size() == count) return;
    lines_.fail(std::string(fields[0]) + " record with " + std::to_string(fields.size()) +
                " fields, expected " + std::to_string(count));
  }

  std::uint64_t number(std::string_view field, const char* what) const {
    if (auto value = parse_number(field)) return *value;
    lines_.fail(std::string("bad ") + what + " " + quote(field) + ": expected a number");
  }

  std::uint64_t address(std::string_view field) const {
    auto value = field.starts_with("0x") ? parse_hex(field.substr(2)) : std::nullopt;
    bool lower =
        std::none_of(field.begin(), field.end(), [](char c) { return c >= 'A' && c <= 'F'; });
    if (value && lower) return *value;
    lines_.fail("bad address " + quote(field) + ": expected 0x and lower-case hex digits");
  }

  std::string text(std::string_view field) const {
    if (auto value = unescape(field)) return std::move(*value);
    lines_.fail("bad escape in " + quote(field) + ": only \\\\ \\t \\n \\r are allowed");
  }

  // ---- header --------------------------------------------------------------

  // The fields of the next header line, which must be of `type` with `count` fields.
  Fields header_line(std::string_view type, std::size_t count) {
    if (!lines_.next() || !lines_.complete()) {
      lines_.fail("the profile ends inside its header (expected " + std::string(type) + ")");
    }
    Fields fields = split(lines_.line(), '\t');
    if (fields[0] != type) {
      lines_.fail("expected the header record " + std::string(type) + ", found " +
                  quote(fields[0]));
    }
    expect_fields(fields, count);
    return fields;
  }

  void read_magic() {
    if (!lines_.next() || !lines_.line().starts_with(kMagic)) lines_.fail("not a strata profile");
    Fields fields = split(lines_.line(), '\t');
    if (fields[0] != kMagic || fields.size() != 2) {
      lines_.fail("bad first line: not a strata profile");
    }
    version_ = number(fields[1], "format version");
    model_.has_counts = version_ >= 3;
    if (version_ < kOldestVersion || version_ > kVersion) {
      lines_.fail("profile format version " + std::to_string(version_) +
                  " is not supported (this strata reads versions 1 to 3)");
    }
  }

  void read_header() {
    read_magic();
    Header& header = model_.header;
    header.cmd = text(header_line("cmd", 2)[1]);
    header.pid = number(header_line("pid", 2)[1], "pid");
    header.ppid = number(header_line("ppid", 2)[1], "ppid");
    std::string_view unit = header_line("time_unit", 2)[1];
    if (unit != "i" && unit != "ms" && unit != "B") {
      lines_.fail("bad time unit " + quote(unit) + ": expected i, ms or B");
    }
    header.time_unit = unit;
  }

  // ---- records -------------------------------------------------------------

  void read_record(const Fields& fields) {
    static const std::unordered_map<std::string_view, Handler> handlers = {
        {"opt", &StrataReader::read_option},   {"F", &StrataReader::read_frame},
        {"S", &StrataReader::read_site},       {"M", &StrataReader::read_marker},
        {"T", &StrataReader::begin_snapshot},  {"s", &StrataReader::read_sample},
        {"c", &StrataReader::read_counts},     {"E", &StrataReader::end_snapshot},
        {"X", &StrataReader::read_end},        {"Q", &StrataReader::read_stop},
        {"P", &StrataReader::read_free_stack}, {"L", &StrataReader::begin_epoch},
        {"b", &StrataReader::read_born},       {"d", &StrataReader::read_died},
        {"a", &StrataReader::read_alive},      {"K", &StrataReader::read_fork},
    };
    auto handler = handlers.find(fields[0]);
    if (handler == handlers.end()) lines_.fail("unknown record type " + quote(fields[0]));
    if (ended_) lines_.fail(std::string("record after the end record ") + (stopped_ ? "Q" : "X"));
    check_place(fields[0]);
    if (fields[0] != "opt" && !body_started_) begin_body();
    if (lifetime_record(fields[0])) require_lifetimes(fields[0]);
    if (fields[0] == "E" && lifetimes_.open()) return end_epoch(fields);
    (this->*handler->second)(fields);
  }

  static bool lifetime_record(std::string_view type) {
    return type == "P" || type == "L" || type == "b" || type == "d" || type == "a";
  }

  // s and c lines belong in a snapshot, b, d and a lines in an epoch
  // record, both ended by E; nothing else comes inside either (but Q).
  void check_place(std::string_view type) const {
    bool snapshot_line = type == "s" || type == "c";
    bool epoch_line = type == "b" || type == "d" || type == "a";
    if (type == "Q") return;
    if (open_ && !snapshot_line && type != "E") {
      lines_.fail(std::string(type) + " record inside a snapshot (before its E)");
    }
    if (lifetimes_.open() && !epoch_line && type != "E") {
      lines_.fail(std::string(type) + " record inside an epoch record (before its E)");
    }
    if (!open_ && !lifetimes_.open() && (snapshot_line || epoch_line || type == "E")) {
      const char* opener = epoch_line    ? "no L before it"
                           : type == "E" ? "no T or L before it"
                                         : "no T before it";
      lines_.fail(std::string(type) + " record outside " +
                  (epoch_line ? "an epoch record" : "a snapshot") + " (" + opener + ")");
    }
  }

  // The header is read: what it says of the lifetimes.
  void begin_body() {
    body_started_ = true;
    model_.has_lifetimes = version_ >= 3 && option("lifetimes") == "yes";
    model_.lifetimes.free_stacks = option("free_stacks") == "yes";
    std::string epoch_unit = option("epoch_unit");
    if (!epoch_unit.empty() && model_.has_lifetimes) {
      if ((epoch_unit != "i" && epoch_unit != "B") || model_.header.time_unit != "ms") {
        lines_.fail("opt epoch_unit " + quote(epoch_unit) + " in a profile in " +
                    quote(model_.header.time_unit) + " (only i or B, in ms)");
      }
      model_.lifetimes.tick_unit = epoch_unit;
    }
  }

  // The value of the last opt line named `name`, else empty.
  std::string option(std::string_view name) const {
    const std::vector<Option>& options = model_.header.options;
    for (auto o = options.rbegin(); o != options.rend(); ++o) {
      if (o->name == name) return o->value;
    }
    return "";
  }

  void require_lifetimes(std::string_view type) const {
    if (version_ < 3) {
      lines_.fail(std::string(type) + " record in a profile of version " +
                  std::to_string(version_));
    }
    if (!model_.has_lifetimes) {
      lines_.fail(std::string(type) + " record in a profile without the option lifetimes yes");
    }
  }

  void read_option(const Fields& fields) {
    if (body_started_) lines_.fail("opt record after the header");
    expect_fields(fields, 3);
    model_.header.options.push_back({text(fields[1]), text(fields[2])});
  }

  // A new id must be the next one: ids count up from 1 in order of appearance.
  void expect_next_id(std::string_view field, std::size_t defined, const char* what) const {
    std::uint64_t id = number(field, what);
    if (id != defined + 1) {
      lines_.fail(std::string(what) + " " + std::to_string(id) + " out of order (expected " +
                  std::to_string(defined + 1) + ")");
    }
  }

  // Version 2 adds the offset in the object: an address, or empty if unknown.
  void read_frame(const Fields& fields) {
    expect_fields(fields, version_ >= 2 ? 9 : 8);
    expect_next_id(fields[1], model_.frames.size(), "frame id");
    Frame frame;
    frame.address = address(fields[2]);
    if (fields[3] != "0" && fields[3] != "1") {
      lines_.fail("bad inlined flag " + quote(fields[3]) + ": expected 0 or 1");
    }
    frame.inlined = fields[3] == "1";
    frame.function = text(fields[4]);
    frame.file = text(fields[5]);
    frame.line = line_number(fields[6]);
    frame.object = text(fields[7]);
    if (version_ >= 2 && !fields[8].empty()) frame.offset = address(fields[8]);
    model_.frames.push_back(std::move(frame));
  }

  std::uint32_t line_number(std::string_view field) const {
    std::uint64_t line = number(field, "line number");
    if (line > UINT32_MAX) lines_.fail("line number " + quote(field) + " too large");
    return static_cast<std::uint32_t>(line);
  }

  void read_site(const Fields& fields) {
    if (fields.size() < 2) expect_fields(fields, 2);
    expect_next_id(fields[1], model_.sites.size(), "site id");
    Site site;
    site.frames = frame_refs(fields);
    model_.sites.push_back(std::move(site));
    lifetimes_.add_site();
    listed_in_.push_back(0);
    counted_in_.push_back(0);
    chain_bytes_.push_back(0);
  }

  // The frames of an S or P record: its fields after the id.
  std::vector<FrameId> frame_refs(const Fields& fields) const {
    std::vector<FrameId> frames;
    for (std::size_t i = 2; i < fields.size(); ++i) frames.push_back(frame_ref(fields[i]));
    return frames;
  }

  FrameId frame_ref(std::string_view field) const {
    std::uint64_t id = number(field, "frame id");
    if (id == 0 || id > model_.frames.size()) {
      lines_.fail("frame " + quote(field) + " is not defined");
    }
    return static_cast<FrameId>(id - 1);
  }

  SiteId site_ref(std::string_view field) const {
    std::uint64_t id = number(field, "site id");
    if (id == 0 || id > model_.sites.size()) {
      lines_.fail("site " + quote(field) + " is not defined");
    }
    return static_cast<SiteId>(id - 1);
  }

  // ---- lifetimes -----------------------------------------------------------

  void read_free_stack(const Fields& fields) {
    if (fields.size() < 2) expect_fields(fields, 2);
    std::vector<std::vector<FrameId>>& stacks = model_.lifetimes.free_stacks_frames;
    expect_next_id(fields[1], stacks.size(), "free stack id");
    stacks.push_back(frame_refs(fields));
    lifetimes_.add_free_stack();
  }

  // L index start length, and its first event's time with opt epoch_unit.
  void begin_epoch(const Fields& fields) {
    bool timed = !model_.lifetimes.tick_unit.empty();
    expect_fields(fields, timed ? 5 : 4);
    std::uint64_t index = number(fields[1], "epoch index"), start = number(fields[2], "epoch start"),
                  length = number(fields[3], "epoch length");
    lifetimes_.begin(index, start, length);
    if (timed) {
      lifetimes_.timed(number(fields[4], "epoch time"));
      epochs_ended_ = start > UINT64_MAX - length ? UINT64_MAX : start + length;
    }
  }

  void read_born(const Fields& fields) {
    expect_fields(fields, 5);
    lifetimes_.born(site_ref(fields[1]), number(fields[2], "birth epoch"),
                    number(fields[3], "bytes"), number(fields[4], "blocks"));
  }

  void read_died(const Fields& fields) {
    expect_fields(fields, 6);
    lifetimes_.died(site_ref(fields[1]), number(fields[2], "birth epoch"),
                    number(fields[3], "free stack id"), number(fields[4], "bytes"),
                    number(fields[5], "blocks"));
  }

  void read_alive(const Fields& fields) {
    expect_fields(fields, 5);
    lifetimes_.alive(site_ref(fields[1]), number(fields[2], "birth epoch"),
                     number(fields[3], "bytes"), number(fields[4], "blocks"));
  }

  void end_epoch(const Fields& fields) {
    expect_fields(fields, 1);
    lifetimes_.end();
  }

  void read_marker(const Fields& fields) {
    expect_fields(fields, 3);
    model_.markers.push_back({number(fields[1], "time"), text(fields[2]), epochs_ended_});
  }

  void read_fork(const Fields& fields) {
    expect_fields(fields, 2);
    model_.forks.push_back({number(fields[1], "time"), {}, epochs_ended_});
  }

  // ---- snapshots -----------------------------------------------------------

  SnapshotKind kind(std::string_view field) const {
    if (field == "regular") return SnapshotKind::regular;
    if (field == "user") return SnapshotKind::user;
    if (field == "peak") return SnapshotKind::peak;
    if (field == "final") return SnapshotKind::final;
    lines_.fail("bad snapshot kind " + quote(field) + ": expected regular, user, peak or final");
  }

  // The time of the latest snapshot read (peaks included).
  std::uint64_t last_time() const { return last_time_; }

  // Snapshots come in time order, except that a peak is written once the heap
  // has fallen from it: it may be older than the snapshot before it, never
  // older than the peak before it.
  void check_time(const Snapshot& snapshot) const {
    bool peak = snapshot.kind == SnapshotKind::peak;
    std::uint64_t earliest = peak ? last_peak_time_ : last_time();
    if (snapshot.time >= earliest) return;
    lines_.fail("snapshot at time " + std::to_string(snapshot.time) + " is older than the " +
                (peak ? "peak" : "snapshot") + " before it (" + std::to_string(earliest) + ")");
  }

  void begin_snapshot(const Fields& fields) {
    expect_fields(fields, 6);
    Snapshot snapshot;
    snapshot.kind = kind(fields[1]);
    snapshot.time = number(fields[2], "time");
    snapshot.heap = number(fields[3], "heap bytes");
    snapshot.extra = number(fields[4], "extra heap bytes");
    snapshot.stacks = number(fields[5], "stack bytes");
    check_time(snapshot);
    bool complete = snapshot.kind == SnapshotKind::peak;
    snapshot.site_data = complete ? SiteData::complete : SiteData::changes;
    check_sum(Wide{snapshot.heap} + snapshot.extra + snapshot.stacks,
              "the snapshot's heap, extra heap and stacks");
    open_sum_ = (complete ? 0 : chain_sum_) + snapshot.extra + snapshot.stacks;
    open_ = std::move(snapshot);
  }

  // ---- sums --------------------------------------------------------------------
  // Every sum the analyses and the graph make of a snapshot's bytes (its
  // totals; its sites' highs, a context's, with the extra heap and the stacks
  // on top in the graph) must fit in 64 bits: a total that does not is an
  // error, not a sum that wraps around to a small one.

  using Wide = unsigned __int128;

  void check_sum(Wide sum, const char* what) const {
    if (sum > UINT64_MAX) lines_.fail(std::string(what) + " add up to more than 2^64-1 bytes");
  }

  // The sum of the open snapshot with `sample` in it: its sites (with their
  // highs, the others at their bytes), the extra heap and the stacks.
  Wide sum_with(const SiteSample& sample) const {
    bool complete = open_->site_data == SiteData::complete;
    return open_sum_ - (complete ? 0 : chain_bytes_[index(sample.site)]) + sample.max;
  }

  void read_sample(const Fields& fields) {
    expect_fields(fields, 6);
    SiteSample sample{site_ref(fields[1]), number(fields[2], "bytes"), number(fields[3], "blocks"),
                      number(fields[4], "min bytes"), number(fields[5], "max bytes")};
    if (const char* problem = sample_problem(sample)) {
      lines_.fail("site " + std::string(fields[1]) + problem);
    }
    add_sample(sample);
  }

  // Most lines of a profile are s records: a well-formed one inside a
  // snapshot is read here in one pass over the line.  False for any other
  // line, and for a malformed s record, which read_sample() then reports.
  bool read_plain_sample() {
    std::string_view line = lines_.line();
    if (!open_ || !line.starts_with("s\t")) return false;
    std::array<std::uint64_t, 5> values;
    if (parse_numbers(line, '\t', values) != values.size()) return false;
    if (values[0] == 0 || values[0] > model_.sites.size()) return false;
    SiteSample sample{static_cast<SiteId>(values[0] - 1), values[1], values[2], values[3],
                      values[4]};
    if (sample_problem(sample)) return false;
    add_sample(sample);
    return true;
  }

  // What is wrong with a sample of the open snapshot, after "site N"; nullptr if nothing.
  const char* sample_problem(const SiteSample& sample) const {
    if (sample.min > sample.bytes || sample.bytes > sample.max) {
      return ": min <= bytes <= max does not hold";
    }
    if (listed_in_[index(sample.site)] == model_.snapshots.size() + 1) {
      return " listed twice in one snapshot";
    }
    if (sum_with(sample) > UINT64_MAX) {
      return ": the sites, the extra heap and the stacks add up to more than 2^64-1 bytes";
    }
    return nullptr;
  }

  // A site's counts since the start of the run (version 3), in a snapshot
  // of the chain: they take effect with its E, and never go down.
  void read_counts(const Fields& fields) {
    if (version_ < 3) lines_.fail("c record in a profile of version " + std::to_string(version_));
    if (open_->kind == SnapshotKind::peak) lines_.fail("c record in a peak snapshot");
    expect_fields(fields, 5);
    SiteId site = site_ref(fields[1]);
    AllocationCounts counts{number(fields[2], "allocation calls"),
                            number(fields[3], "bytes allocated"),
                            number(fields[4], "temporary allocations")};
    const AllocationCounts& before = model_.sites[index(site)].counts;
    std::string which = "site " + std::string(fields[1]);
    if (counts.temporary > counts.calls) {
      lines_.fail(which + ": more temporary allocations than allocation calls");
    }
    if (counts.calls < before.calls || counts.allocated < before.allocated ||
        counts.temporary < before.temporary) {
      lines_.fail(which + ": its counts went down since the snapshot before");
    }
    if (counted_in_[index(site)] == model_.snapshots.size() + 1) {
      lines_.fail(which + " counted twice in one snapshot");
    }
    counted_in_[index(site)] = model_.snapshots.size() + 1;
    pending_counts_.emplace_back(site, counts);
  }

  void add_sample(const SiteSample& sample) {
    listed_in_[index(sample.site)] = model_.snapshots.size() + 1;
    open_sum_ = sum_with(sample);
    if (open_->site_data == SiteData::changes) {
      std::uint64_t& bytes = chain_bytes_[index(sample.site)];
      chain_sum_ = chain_sum_ - bytes + sample.bytes;
      bytes = sample.bytes;
    }
    samples_.push_back(sample);
  }

  // A peak older than the snapshot before it goes to its place in time when
  // the file has been read (peaks are outside the chain, so this changes
  // nothing else), by one sort rather than an insertion each.
  void end_snapshot(const Fields& fields) {
    expect_fields(fields, 1);
    sort_by_site(samples_, scratch_);
    open_->sites.assign(samples_.begin(), samples_.end());  // no spare capacity
    samples_.clear();
    for (const auto& [site, counts] : pending_counts_) model_.sites[index(site)].counts = counts;
    pending_counts_.clear();
    if (open_->kind == SnapshotKind::peak) last_peak_time_ = open_->time;
    out_of_order_ = out_of_order_ || open_->time < last_time_;
    last_time_ = std::max(last_time_, open_->time);
    model_.snapshots.push_back(std::move(*open_));
    open_.reset();
  }

  // Snapshots in time order; of the same time, in file order.
  void put_peaks_in_place() {
    if (!out_of_order_) return;
    std::stable_sort(model_.snapshots.begin(), model_.snapshots.end(),
                     [](const Snapshot& a, const Snapshot& b) { return a.time < b.time; });
  }

  void read_end(const Fields& fields) {
    expect_fields(fields, 2);
    model_.end_time = number(fields[1], "time");
    if (model_.end_time < last_time()) {
      lines_.fail("end time " + std::to_string(model_.end_time) + " is before the last snapshot");
    }
    lifetimes_.at_exit();
    ended_ = true;
  }

  // The tool stopped writing, and says why (printable ASCII, so that it can
  // be shown as it is); the snapshot it was writing, if any, is dropped.
  void read_stop(const Fields& fields) {
    expect_fields(fields, 3);
    number(fields[1], "time");
    if (fields[2].empty() || std::any_of(fields[2].begin(), fields[2].end(),
                                         [](char c) { return c < ' ' || c > '~'; })) {
      lines_.fail("bad reason in the stop record Q: expected printable ASCII");
    }
    open_.reset();
    samples_.clear();
    pending_counts_.clear();
    lifetimes_.drop();
    model_.stop_reason = std::string(fields[2]);
    model_.end_time = last_time();
    model_.cut_short = true;
    ended_ = stopped_ = true;
  }

  // At the end of the file: a profile without X or Q was cut short; the
  // snapshot it was writing, if any, is dropped.
  void finish() {
    put_peaks_in_place();
    if (!body_started_) begin_body();
    lifetimes_.drop();
    lifetimes_.finish(model_);
    // Each marker's tick (model.hpp, Marker): read now that the clock is.
    const Lifetimes& l = model_.lifetimes;
    for (std::vector<Marker>* list : {&model_.markers, &model_.forks}) {
      for (Marker& marker : *list) {
        marker.tick =
            l.tick_unit.empty() ? marker.time : std::max(l.tick_at(marker.time), marker.tick);
      }
    }
    if (ended_) return;
    model_.cut_short = true;
    model_.end_time = last_time();
  }

  LineReader lines_;
  LifetimeRecords lifetimes_;  // the epoch records (version 3, opt lifetimes yes)
  bool outline_;               // in_detail() records are skipped
  Model model_;
  std::optional<Snapshot> open_;         // the snapshot being read, until its E
  std::vector<SiteSample> samples_;      // its s records, until its E
  std::vector<SiteSample> scratch_;      // for sorting samples_
  std::vector<std::size_t> listed_in_;   // SiteId -> snapshots read + 1 when it was last listed
  std::vector<std::size_t> counted_in_;  // ... when its counts were last given (c records)
  std::vector<std::pair<SiteId, AllocationCounts>> pending_counts_;  // the open snapshot's
  std::vector<std::uint64_t> chain_bytes_;  // SiteId -> its bytes in the chain's state
  unsigned __int128 chain_sum_ = 0;         // their sum
  unsigned __int128 open_sum_ = 0;          // the open snapshot's (sum_with)
  std::uint64_t last_peak_time_ = 0;
  std::uint64_t last_time_ = 0;  // of the latest snapshot read
  // With opt epoch_unit: the end, in ticks, of the epoch of the latest L
  // record read (a marker after it came after that epoch ended).
  std::uint64_t epochs_ended_ = 0;
  bool out_of_order_ = false;    // a peak is older than a snapshot before it
  std::uint64_t version_ = 0;    // of the format, from the first line
  bool body_started_ = false;    // a record other than opt was read
  bool ended_ = false;           // X or Q was read
  bool stopped_ = false;         // Q was read
};

}  // namespace

Model read_strata(std::istream& in, const std::string& name, Detail detail) {
  return StrataReader(in, name, detail).read();
}

}  // namespace strata
