// SPDX-License-Identifier: GPL-2.0-or-later
// strata convert --to=pprof (export.hpp, write_pprof): the profile of a
// small model, uncompressed and parsed back with the message's own code:
// the sample types and values, a location a code address with its inlined
// frames as lines, the mappings, an unnamed frame as an address, the
// labels, the times, and hostile names as valid UTF-8.
#include <gtest/gtest.h>
#include <zlib.h>

#include <sstream>
#include <string>

#include "render/export.hpp"
#include "render/pprof.pb.h"
#include "util/shown.hpp"

namespace strata::test {
namespace {

namespace pb = strata::pprof;

std::string gunzip(const std::string& in) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buffer[4096];
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    status = inflate(&z, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - z.avail_out);
  }
  EXPECT_EQ(status, Z_STREAM_END);
  inflateEnd(&z);
  return out;
}

Frame frame(std::uint64_t address, bool inlined, std::string function, std::string file,
            std::uint32_t line, std::string object, std::uint64_t offset) {
  return {address, inlined, std::move(function), std::move(file), line, std::move(object), offset};
}

// Two sites under main: `inner` inlined into `outer` in the program, and an
// unnamed frame of the C library; a marker before the moment and one after.
Model two_sites() {
  Model m;
  m.file = "t.strata";
  m.header = {"/bin/prog --fast", 7, 6, "ms", {{"depth", "30"}}};
  m.frames = {frame(0x1010, true, "inner", "a.h", 3, "/bin/prog", 0x10),
              frame(0x1010, false, "outer", "a.c", 10, "/bin/prog", 0x10),
              frame(0x1050, false, "main", "a.c", 20, "/bin/prog", 0x50),
              frame(0x7000, false, "", "", 0, "/lib/libc.so.6", 0x1000)};
  m.sites = {{{FrameId{0}, FrameId{1}, FrameId{2}}, {3, 300, 0}, {}},
             {{FrameId{3}, FrameId{2}}, {1, 50, 0}, {}}};
  Snapshot s;
  s.time = 100;
  s.heap = 150;
  s.site_data = SiteData::changes;
  s.sites = {{SiteId{0}, 100, 2, 100, 100}, {SiteId{1}, 50, 1, 50, 50}};
  m.snapshots = {s};
  m.markers = {{50, "start"}, {200, "later"}};
  m.end_time = 1000;
  m.has_counts = true;
  return m;
}

PprofMoment peak() { return {0, 100, "the peak", 0, 1000}; }

PprofContent counted() {
  PprofContent content;
  content.counts = true;
  return content;
}

PprofContent with_leaks(const PprofLeaks& leaks) {
  PprofContent content;
  content.leaks = &leaks;
  return content;
}

pb::Profile written(const Model& model, const PprofMoment& moment, const PprofContent& content) {
  std::ostringstream out;
  write_pprof(model, moment, model.snapshots[moment.snapshot].sites, content, out);
  pb::Profile profile;
  EXPECT_TRUE(profile.ParseFromString(gunzip(out.str())));
  return profile;
}

const std::string& text(const pb::Profile& p, std::int64_t i) { return p.string_table(i); }

const pb::Location& location(const pb::Profile& p, std::uint64_t id) {
  for (const pb::Location& l : p.location()) {
    if (l.id() == id) return l;
  }
  ADD_FAILURE() << "no location " << id;
  return p.location(0);
}

std::string function_name(const pb::Profile& p, std::uint64_t id) {
  for (const pb::Function& f : p.function()) {
    if (f.id() == id) return text(p, f.name());
  }
  return "?";
}

TEST(ExportPprof, SampleTypesAndASampleASite) {
  pb::Profile p = written(two_sites(), peak(), counted());
  std::vector<std::string> types;
  for (const pb::ValueType& t : p.sample_type()) types.push_back(text(p, t.type()) + "/" + text(p, t.unit()));
  EXPECT_EQ(types, (std::vector<std::string>{"inuse_space/bytes", "inuse_objects/count",
                                             "alloc_space/bytes", "alloc_objects/count"}));
  EXPECT_EQ(text(p, p.default_sample_type()), "inuse_space");
  EXPECT_EQ(text(p, 0), "");
  ASSERT_EQ(p.sample_size(), 2);
  EXPECT_EQ(std::vector<std::int64_t>(p.sample(0).value().begin(), p.sample(0).value().end()),
            (std::vector<std::int64_t>{100, 2, 300, 3}));
  EXPECT_EQ(std::vector<std::int64_t>(p.sample(1).value().begin(), p.sample(1).value().end()),
            (std::vector<std::int64_t>{50, 1, 50, 1}));
}

TEST(ExportPprof, InlinedFramesAreLinesOfOneLocation) {
  pb::Profile p = written(two_sites(), peak(), {});
  ASSERT_EQ(p.sample(0).location_id_size(), 2);
  const pb::Location& leaf = location(p, p.sample(0).location_id(0));
  EXPECT_EQ(leaf.address(), 0x1010u);
  ASSERT_EQ(leaf.line_size(), 2);
  EXPECT_EQ(function_name(p, leaf.line(0).function_id()), "inner");  // inlined first
  EXPECT_EQ(leaf.line(0).line(), 3);
  EXPECT_EQ(function_name(p, leaf.line(1).function_id()), "outer");
  // main's location is one, shared by both stacks.
  EXPECT_EQ(p.sample(0).location_id(1), p.sample(1).location_id(1));
  EXPECT_EQ(p.location_size(), 3);
  EXPECT_EQ(p.function_size(), 3);
}

TEST(ExportPprof, MappingsProgramFirstAndAnUnnamedFrameAsAnAddress) {
  pb::Profile p = written(two_sites(), peak(), {});
  ASSERT_EQ(p.mapping_size(), 2);
  const pb::Mapping& program = p.mapping(0);
  EXPECT_EQ(text(p, program.filename()), "/bin/prog");
  EXPECT_EQ(program.memory_start(), 0x1010u);
  EXPECT_EQ(program.memory_limit(), 0x1051u);
  EXPECT_EQ(program.file_offset(), 0x10u);
  EXPECT_TRUE(program.has_functions() && program.has_line_numbers());
  const pb::Mapping& libc = p.mapping(1);
  EXPECT_EQ(text(p, libc.filename()), "/lib/libc.so.6");
  EXPECT_FALSE(libc.has_functions());  // left for a symbolizer
  const pb::Location& unnamed = location(p, p.sample(1).location_id(0));
  EXPECT_EQ(unnamed.address(), 0x7000u);
  EXPECT_EQ(unnamed.mapping_id(), libc.id());
  EXPECT_EQ(unnamed.line_size(), 0);
}

TEST(ExportPprof, LabelsThePhaseAndTheFinding) {
  Model model = two_sites();
  PprofLeaks leaks{{64, 0}, {1, 0}, {"#1 outer"}};
  pb::Profile p = written(model, peak(), with_leaks(leaks));
  ASSERT_EQ(p.sample_type_size(), 3);
  EXPECT_EQ(text(p, p.sample_type(2).type()), "leaked_space");
  EXPECT_EQ(p.sample(0).value(2), 64);
  ASSERT_EQ(p.sample(0).label_size(), 2);
  EXPECT_EQ(text(p, p.sample(0).label(0).key()), "phase");
  EXPECT_EQ(text(p, p.sample(0).label(0).str()), "start");  // the last marker before time 100
  EXPECT_EQ(text(p, p.sample(0).label(1).key()), "finding");
  EXPECT_EQ(text(p, p.sample(0).label(1).str()), "#1 outer");
  EXPECT_EQ(p.sample(1).label_size(), 1);
}

TEST(ExportPprof, TimesInMillisecondsOnly) {
  Model model = two_sites();
  PprofContent content;
  content.end_nanos = 5000000000;
  pb::Profile p = written(model, {0, 100, "x", 100, 400}, content);
  EXPECT_EQ(p.time_nanos(), 5000000000 - 900 * 1000000);  // 900 ms before the end
  EXPECT_EQ(p.duration_nanos(), 300 * 1000000);
  model.header.time_unit = "i";
  p = written(model, peak(), content);
  EXPECT_EQ(p.time_nanos(), 0);
  EXPECT_EQ(p.duration_nanos(), 0);
}

bool valid_utf8(const std::string& s) {
  for (std::size_t at = 0; at < s.size();) {
    std::optional<std::size_t> n = utf8_sequence(s, at);
    if (!n) return false;
    at += *n;
  }
  return true;
}

TEST(ExportPprof, HostileNamesAreValidUtf8) {
  Model model = two_sites();
  std::string long_name(10240, 'x');
  model.frames[0].function = "\xff\xfe\"quoted\"\nnext";
  model.frames[1].function = long_name;
  model.frames[2].file = std::string("a\x80.c\r", 5);
  model.header.cmd = "prog \xc3";
  model.markers[0].label = "\x1b[31mred";
  pb::Profile p = written(model, peak(), {});
  for (const std::string& s : p.string_table()) EXPECT_TRUE(valid_utf8(s)) << shown(s);
  const pb::Location& leaf = location(p, p.sample(0).location_id(0));
  EXPECT_EQ(function_name(p, leaf.line(0).function_id()), "\\xff\\xfe\"quoted\"\\nnext");
  EXPECT_EQ(function_name(p, leaf.line(1).function_id()), long_name);  // whole
  EXPECT_EQ(text(p, p.sample(0).label(0).str()), "\\x1b[31mred");
}

}  // namespace
}  // namespace strata::test
