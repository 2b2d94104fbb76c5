// SPDX-License-Identifier: GPL-2.0-or-later
// `strata diff` as text or as one JSON document:
//
//   strata diff: old.prof -> new.prof
//   peak:  3,403,808 -> 1,050,672 bytes (-2,353,136)
//   end:   2,457,600 -> 0 bytes (-2,457,600)
//
//   == Contexts, the largest change at the peak first ==
//
//   -2,304,000 at the peak (3,226,272 -> 922,272), -2,457,600 at the end (2,457,600 -> 0)
//        frame_alloc (leaky-player.c:74)
//        ...
//
//   == Leak suspects ==
//
//   vanished: Leak at frame_alloc (leaky-player.c:74), +600 KiB per cycle before
#include "analyze/diff.hpp"
#include "model/frame_names.hpp"
#include "render/render.hpp"
#include "render/report_json.hpp"
#include "util/units.hpp"
#include "view/kinds.hpp"
#include "view/leak_words.hpp"

namespace strata {

namespace {

using Json = nlohmann::ordered_json;

std::string signed_bytes(std::int64_t change) {
  std::string magnitude = grouped(static_cast<std::uint64_t>(change < 0 ? -change : change));
  return (change < 0 ? "-" : change > 0 ? "+" : "") + magnitude;
}

std::string change_text(const DiffBytes& bytes) {
  return signed_bytes(bytes.change()) + " (" + grouped(bytes.old_bytes) + " -> " +
         grouped(bytes.new_bytes) + ")";
}

const char* status_name(DiffStatus status) {
  switch (status) {
    case DiffStatus::appeared:
      return "appeared";
    case DiffStatus::vanished:
      return "vanished";
    case DiffStatus::changed:
      return "changed";
    case DiffStatus::same:
      break;
  }
  return "same";
}

// "+600 KiB per cycle": a suspect's growth in OLD or in NEW.
std::string growth(const Diff& diff, const DiffLeak& leak, bool in_new) {
  if (in_new) {
    return growth_rate(leak.new_kind, leak.new_growth_bytes, diff.new_time_unit,
                       static_cast<double>(diff.new_end_time));
  }
  return growth_rate(leak.old_kind, leak.old_growth_bytes, diff.old_time_unit,
                     static_cast<double>(diff.old_end_time));
}

std::string leak_line(const Diff& diff, const DiffLeak& leak) {
  bool in_new = leak.status != DiffStatus::vanished;
  std::string where = leak.frames.empty() ? "(no stack)" : frame_text(leak.frames[leak.headline]);
  std::string text = std::string(status_name(leak.status)) + ": " +
                     std::string(kind_names(in_new ? leak.new_kind : leak.old_kind).heading) +
                     " at " + where;
  if (leak.status == DiffStatus::appeared) return text + ", " + growth(diff, leak, true);
  if (leak.status == DiffStatus::vanished)
    return text + ", " + growth(diff, leak, false) + " before";
  return text + ", " + growth(diff, leak, false) + " before, " + growth(diff, leak, true) + " now";
}

}  // namespace

void render_diff_text(const Diff& diff, std::ostream& out) {
  out << "strata diff: " << diff.old_file << " -> " << diff.new_file << "\n"
      << "peak:  " << grouped(diff.peak.old_bytes) << " -> " << grouped(diff.peak.new_bytes)
      << " bytes of useful heap (" << signed_bytes(diff.peak.change()) << ")\n"
      << "end:   " << grouped(diff.end.old_bytes) << " -> " << grouped(diff.end.new_bytes)
      << " bytes of useful heap (" << signed_bytes(diff.end.change()) << ")\n";
  if (!diff.same_time_unit)
    out << "(the profiles have different time units: compare rates with care)\n";
  out << "\n== Contexts, the largest change at the peak first ==\n";
  for (const DiffContext& c : diff.contexts) {
    out << "\n" << change_text(c.peak) << " at the peak, " << change_text(c.end) << " at the end\n";
    for (const Frame& frame : c.frames) out << "     " << stack_frame_text(frame) << "\n";
    if (c.frames.empty()) out << "     (no stack)\n";
  }
  out << "\n== Leak suspects ==\n\n";
  if (diff.leaks.empty()) out << "None in either profile.\n";
  for (const DiffLeak& leak : diff.leaks) out << leak_line(diff, leak) << "\n";
}

namespace {

Json bytes_json(const DiffBytes& bytes) {
  return {{"old", bytes.old_bytes}, {"new", bytes.new_bytes}, {"change", bytes.change()}};
}

Json side_json(bool present, LeakKind kind, const std::string& growth, double growth_bytes) {
  if (!present) return nullptr;
  return {{"kind", kind_names(kind).id}, {"growth", growth}, {"growth_bytes", growth_bytes}};
}

}  // namespace

void render_diff_json(const Diff& diff, std::ostream& out) {
  Json json;
  json["old"] = diff.old_file;
  json["new"] = diff.new_file;
  json["same_time_unit"] = diff.same_time_unit;
  json["peak"] = bytes_json(diff.peak);
  json["end"] = bytes_json(diff.end);
  json["contexts"] = Json::array();
  for (const DiffContext& c : diff.contexts) {
    json["contexts"].push_back({{"frames", report_frames_json(c.frames)},
                                {"peak", bytes_json(c.peak)},
                                {"end", bytes_json(c.end)}});
  }
  json["leaks"] = Json::array();
  for (const DiffLeak& l : diff.leaks) {
    json["leaks"].push_back({{"status", status_name(l.status)},
                             {"headline", l.headline},
                             {"frames", report_frames_json(l.frames)},
                             {"old", side_json(l.status != DiffStatus::appeared, l.old_kind,
                                               growth(diff, l, false), l.old_growth_bytes)},
                             {"new", side_json(l.status != DiffStatus::vanished, l.new_kind,
                                               growth(diff, l, true), l.new_growth_bytes)}});
  }
  out << json.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace strata
