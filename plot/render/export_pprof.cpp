// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=pprof: a pprof profile (render/pprof.proto), gzip-
// compressed, as go tool pprof, Pyroscope, Parca and Perfetto read it.
//
//   sample_type  inuse_space/bytes inuse_objects/count      the heap at the moment
//                alloc_space/bytes alloc_objects/count      the run's allocation calls
//                leaked_space/bytes                         what the findings keep
//   sample       a site: its locations, innermost first, and one value a type;
//                labels phase=MARKER (the last before the moment) and
//                finding=#N HEADLINE (a site of a finding)
//   location     a code address: the frames inlined there as its lines, the
//                frame inlined first first; a frame without a name is the
//                address alone, in its object's mapping
//   mapping      an object: the addresses its frames have, from the least
//   function     a name and its file
//
// The profile is built whole in memory, a message a site, location,
// function and object: its size is the sites', never the snapshots'.
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "analyze/heap_analysis.hpp"
#include "analyze/lifetime_leaks.hpp"
#include "model/frame_names.hpp"
#include "render/export.hpp"
#include "render/pprof.pb.h"
#include "render/render.hpp"
#include "util/error.hpp"
#include "util/shown.hpp"

namespace strata {

namespace {

namespace pb = strata::pprof;

std::int64_t clamped(std::uint64_t value) {
  return static_cast<std::int64_t>(std::min<std::uint64_t>(value, INT64_MAX));
}

// What is known of an object's frames, for its mapping.
struct MappingFacts {
  std::uint64_t id = 0;
  std::uint64_t low = UINT64_MAX;  // the least address of its frames, and its offset
  std::uint64_t high = 0;
  std::uint64_t low_offset = 0;
  bool named = true;  // every location named, with files and lines
  bool files = true;
  bool lines = true;
};

// The profile's tables as they are filled: strings, functions, locations
// and mappings, each interned.
class PprofTables {
 public:
  PprofTables(const Model& model, pb::Profile& profile)
      : model_(model),
        profile_(profile),
        frame_location_(model.frames.size(), 0),
        frame_function_(model.frames.size(), 0) {
    text("");
  }

  // The index of `value` in the string table.
  std::int64_t text(const std::string& value) {
    auto [it, added] = strings_.try_emplace(value, static_cast<std::int64_t>(strings_.size()));
    if (added) profile_.add_string_table(value);
    return it->second;
  }

  // The locations of a site's frames, innermost first: a frame inlined into
  // the next shares its location.
  std::vector<std::uint64_t> locations(const std::vector<FrameId>& frames) {
    std::vector<std::uint64_t> ids;
    std::vector<FrameId> group;
    for (FrameId id : frames) {
      group.push_back(id);
      if (model_.frame(id).inlined) continue;
      ids.push_back(location(group));
      group.clear();
    }
    if (!group.empty()) ids.push_back(location(group));
    return ids;
  }

  // The mappings, the program's own first, their ranges and what is known
  // of their symbols filled in.
  void finish_mappings() {
    std::string program = std::filesystem::path(first_word(model_.header.cmd)).filename();
    std::vector<std::pair<const std::string*, const MappingFacts*>> order;
    for (const auto& [object, facts] : mappings_) order.emplace_back(&object, &facts);
    std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
      auto rank = [&](const auto& m) {
        return std::pair(std::filesystem::path(*m.first).filename() != program, m.second->id);
      };
      return rank(a) < rank(b);
    });
    for (const auto& [object, facts] : order) add_mapping(*object, *facts);
  }

 private:
  static std::string first_word(const std::string& cmd) { return cmd.substr(0, cmd.find(' ')); }

  // A frame alone (no inlining) is looked up by its id.
  std::uint64_t location(const std::vector<FrameId>& group) {
    std::uint64_t* alone = group.size() == 1 ? &frame_location_[index(group[0])] : nullptr;
    if (alone && *alone) return *alone;
    auto [it, added] = locations_.try_emplace(group, locations_.size() + 1);
    if (alone) *alone = it->second;
    if (!added) return it->second;
    const Frame& where = model_.frame(group.back());
    pb::Location* location = profile_.add_location();
    location->set_id(it->second);
    location->set_address(where.address);
    MappingFacts* facts = where.object.empty() ? nullptr : &mapping(where);
    if (facts) location->set_mapping_id(facts->id);
    for (FrameId id : group) {
      const Frame& frame = model_.frame(id);
      if (frame.function.empty()) continue;
      pb::Line* line = location->add_line();
      line->set_function_id(function(id));
      line->set_line(frame.line);
      if (facts) {
        facts->files &= !frame.file.empty();
        facts->lines &= frame.line > 0;
      }
    }
    if (facts) facts->named &= location->line_size() > 0;
    return it->second;
  }

  std::uint64_t function(FrameId id) {
    std::uint64_t& known = frame_function_[index(id)];
    if (known) return known;
    const Frame& frame = model_.frame(id);
    std::string name = shown(frame.function), file = shown(frame.file);
    auto [it, added] = functions_.try_emplace(std::pair(name, file), functions_.size() + 1);
    known = it->second;
    if (!added) return it->second;
    pb::Function* function = profile_.add_function();
    function->set_id(it->second);
    function->set_name(text(name));
    function->set_system_name(text(name));
    function->set_filename(text(file));
    return it->second;
  }

  MappingFacts& mapping(const Frame& frame) {
    auto [it, added] = mappings_.try_emplace(frame.object);
    MappingFacts& facts = it->second;
    if (added) facts.id = mappings_.size();
    if (frame.address < facts.low) {
      facts.low = frame.address;
      facts.low_offset = frame.offset.value_or(0);
    }
    facts.high = std::max(facts.high, frame.address);
    return facts;
  }

  void add_mapping(const std::string& object, const MappingFacts& facts) {
    pb::Mapping* mapping = profile_.add_mapping();
    mapping->set_id(facts.id);
    mapping->set_memory_start(facts.low);
    mapping->set_memory_limit(facts.high == UINT64_MAX ? facts.high : facts.high + 1);
    mapping->set_file_offset(facts.low_offset);
    mapping->set_filename(text(shown(object)));
    mapping->set_has_functions(facts.named);
    mapping->set_has_filenames(facts.named && facts.files);
    mapping->set_has_line_numbers(facts.named && facts.lines);
    mapping->set_has_inline_frames(facts.named);
  }

  const Model& model_;
  pb::Profile& profile_;
  std::unordered_map<std::string, std::int64_t> strings_;  // text -> index in string_table
  std::map<std::pair<std::string, std::string>, std::uint64_t> functions_;  // (name, file) -> id
  std::map<std::vector<FrameId>, std::uint64_t> locations_;  // frames, inlined first -> id
  std::map<std::string, MappingFacts> mappings_;             // object -> its mapping
  std::vector<std::uint64_t> frame_location_;  // FrameId -> its location alone; 0: not yet
  std::vector<std::uint64_t> frame_function_;  // FrameId -> its function; 0: not yet
};

// How the profile was recorded, and what each sample type holds.
std::vector<std::string> comments(const Model& model, const PprofMoment& moment,
                                  const PprofContent& content) {
  const Header& h = model.header;
  std::vector<std::string> out;
  if (model.format == Format::massif) {
    out.push_back("a massif.out file of " + h.cmd + ", time in " + unit_meaning(h.time_unit));
  } else {
    out.push_back("strata record of " + h.cmd + " (pid " + std::to_string(h.pid) + "), time in " +
                  unit_meaning(h.time_unit) + ", recorded with " + recorded(h.options));
  }
  out.push_back("inuse_space, inuse_objects: the heap at " + moment.asked + ": snapshot " +
                std::to_string(moment.snapshot) + " at time " +
                std::to_string(model.snapshots[moment.snapshot].time) + " " + h.time_unit);
  if (content.counts)
    out.push_back("alloc_space, alloc_objects: the allocation calls of the whole run");
  if (content.leaks) {
    out.push_back(
        "leaked_space: what the leak findings keep (born before the horizon, alive at it), as "
        "strata report finds them");
  }
  if (model.cut_short) out.push_back("the profile was cut short: read up to its last snapshot");
  if (!content.note.empty()) out.push_back(content.note);
  for (std::string& line : out) line = shown(line);
  return out;
}

// The last marker at or before `time`, or none.
const Marker* phase_at(const Model& model, std::uint64_t time) {
  const Marker* found = nullptr;
  for (const Marker& m : model.markers) {
    if (m.time <= time && (!found || m.time >= found->time)) found = &m;
  }
  return found;
}

void add_types(pb::Profile& profile, PprofTables& tables, const PprofContent& content) {
  auto add = [&](const char* type, const char* unit) {
    pb::ValueType* value = profile.add_sample_type();
    value->set_type(tables.text(type));
    value->set_unit(tables.text(unit));
  };
  add("inuse_space", "bytes");
  add("inuse_objects", "count");
  if (content.counts) {
    add("alloc_space", "bytes");
    add("alloc_objects", "count");
  }
  if (content.leaks) add("leaked_space", "bytes");
  profile.set_default_sample_type(tables.text("inuse_space"));
  profile.mutable_period_type()->set_type(tables.text("space"));
  profile.mutable_period_type()->set_unit(tables.text("bytes"));
  profile.set_period(1);
}

void add_label(pb::Sample& sample, std::int64_t key, std::int64_t value) {
  pb::Label* label = sample.add_label();
  label->set_key(key);
  label->set_str(value);
}

void add_samples(const Model& model, const PprofMoment& moment, std::span<const SiteSample> state,
                 const PprofContent& content, pb::Profile& profile, PprofTables& tables) {
  const Marker* phase = phase_at(model, moment.time);
  std::int64_t phase_key = tables.text("phase"), finding_key = tables.text("finding");
  std::int64_t phase_text = phase ? tables.text(shown(phase->label)) : 0;
  for (std::size_t i = 0; i < model.sites.size(); ++i) {
    const Site& site = model.sites[i];
    std::vector<std::int64_t> values = {clamped(state[i].bytes), clamped(state[i].blocks)};
    if (content.counts) {
      values.push_back(clamped(site.counts.allocated));
      values.push_back(clamped(site.counts.calls));
    }
    if (content.leaks) values.push_back(clamped(content.leaks->kept[i]));
    if (std::all_of(values.begin(), values.end(), [](std::int64_t v) { return v == 0; })) continue;
    pb::Sample* sample = profile.add_sample();
    for (std::uint64_t id : tables.locations(site.frames)) sample->add_location_id(id);
    for (std::int64_t v : values) sample->add_value(v);
    if (phase) add_label(*sample, phase_key, phase_text);
    if (content.leaks && content.leaks->finding[i] > 0) {
      const std::string& name = content.leaks->names[content.leaks->finding[i] - 1];
      add_label(*sample, finding_key, tables.text(name));
    }
  }
}

void add_times(const Model& model, const PprofMoment& moment, const PprofContent& content,
               pb::Profile& profile) {
  if (model.header.time_unit != "ms" || !content.end_nanos) return;
  constexpr std::int64_t kNanos = 1000000;
  std::int64_t before_end = clamped(model.end_time - std::min(model.end_time, moment.from));
  profile.set_time_nanos(*content.end_nanos - before_end * kNanos);
  profile.set_duration_nanos(clamped(moment.to - std::min(moment.to, moment.from)) * kNanos);
}

// `bytes` gzip-compressed to `out` (zlib's deflate with a gzip wrapper).
void write_gzip(const std::string& bytes, std::ostream& out) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw Error("zlib: cannot start compressing");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());  // below 4 GiB: checked by the caller
  std::vector<char> buffer(1 << 16);
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(buffer.data());
    z.avail_out = static_cast<uInt>(buffer.size());
    status = deflate(&z, Z_FINISH);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
      deflateEnd(&z);
      throw Error("zlib: compressing failed");
    }
    out.write(buffer.data(), static_cast<std::streamsize>(buffer.size() - z.avail_out));
  }
  deflateEnd(&z);
}

}  // namespace

PprofLeaks pprof_leaks(const Model& model, const HeapAnalysis& analysis) {
  PprofLeaks leaks;
  leaks.kept.assign(model.sites.size(), 0);
  leaks.finding.assign(model.sites.size(), 0);
  for (std::size_t n = 0; n < analysis.leaks.suspects.size(); ++n) {
    const Leak& leak = analysis.leaks.suspects[n];
    const std::vector<FrameId>& frames = analysis.contexts.contexts[leak.context].frames;
    std::string headline = frames.empty() ? "[no stack]" : frame_name(model.frame(frames[leak.headline]));
    leaks.names.push_back(shown("#" + std::to_string(n + 1) + " " + headline));
    for (SiteId site : leak.finding().sites) {
      leaks.kept[index(site)] = site_kept(model, analysis.leaks, leak, site);
      leaks.finding[index(site)] = static_cast<std::uint32_t>(leaks.names.size());
    }
  }
  return leaks;
}

void write_pprof(const Model& model, const PprofMoment& moment, std::span<const SiteSample> state,
                 const PprofContent& content, std::ostream& out) {
  pb::Profile profile;
  PprofTables tables(model, profile);
  add_types(profile, tables, content);
  add_samples(model, moment, state, content, profile, tables);
  tables.finish_mappings();
  for (const std::string& line : comments(model, moment, content))
    profile.add_comment(tables.text(line));
  add_times(model, moment, content, profile);
  std::string bytes;
  if (!profile.SerializeToString(&bytes) || bytes.size() > UINT_MAX)
    throw Error(model.file, 0, "the pprof profile is larger than 4 GiB");
  write_gzip(bytes, out);
}

}  // namespace strata
