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
#include "render/report_json.hpp"
#include "view/report.hpp"

namespace strata {

namespace {

using Json = nlohmann::ordered_json;

std::string signed_bytes(std::int64_t change) {
  std::string magnitude = report_grouped(static_cast<std::uint64_t>(change < 0 ? -change : change));
  return (change < 0 ? "-" : change > 0 ? "+" : "") + magnitude;
}

std::string change_text(const DiffBytes& bytes) {
  return signed_bytes(bytes.change()) + " (" + report_grouped(bytes.old_bytes) + " -> " +
         report_grouped(bytes.new_bytes) + ")";
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

const char* kind_name(LeakKind kind, bool json) {
  if (kind == LeakKind::rising_trough) return json ? "rising_trough" : "Leak";
  return json ? "steady_growth" : "Growth";
}

std::string leak_line(const DiffLeak& leak) {
  bool in_new = leak.status != DiffStatus::vanished;
  std::string where =
      leak.frames.empty() ? "(no stack)" : report_frame_text(leak.frames[leak.headline]);
  std::string text = std::string(status_name(leak.status)) + ": " +
                     kind_name(in_new ? leak.new_kind : leak.old_kind, false) + " at " + where;
  if (leak.status == DiffStatus::appeared) return text + ", " + leak.new_growth;
  if (leak.status == DiffStatus::vanished) return text + ", " + leak.old_growth + " before";
  return text + ", " + leak.old_growth + " before, " + leak.new_growth + " now";
}

}  // namespace

void render_diff_text(const Diff& diff, std::ostream& out) {
  out << "strata diff: " << diff.old_file << " -> " << diff.new_file << "\n"
      << "peak:  " << report_grouped(diff.peak.old_bytes) << " -> "
      << report_grouped(diff.peak.new_bytes) << " bytes (" << signed_bytes(diff.peak.change())
      << ")\n"
      << "end:   " << report_grouped(diff.end.old_bytes) << " -> "
      << report_grouped(diff.end.new_bytes) << " bytes (" << signed_bytes(diff.end.change())
      << ")\n";
  if (!diff.same_time_unit)
    out << "(the profiles have different time units: compare rates with care)\n";
  out << "\n== Contexts, the largest change at the peak first ==\n";
  for (const DiffContext& c : diff.contexts) {
    out << "\n" << change_text(c.peak) << " at the peak, " << change_text(c.end) << " at the end\n";
    for (const Frame& frame : c.frames) out << "     " << report_frame_text(frame) << "\n";
    if (c.frames.empty()) out << "     (no stack)\n";
  }
  out << "\n== Leak suspects ==\n\n";
  if (diff.leaks.empty()) out << "None in either profile.\n";
  for (const DiffLeak& leak : diff.leaks) out << leak_line(leak) << "\n";
}

namespace {

Json bytes_json(const DiffBytes& bytes) {
  return {{"old", bytes.old_bytes}, {"new", bytes.new_bytes}, {"change", bytes.change()}};
}

Json side_json(bool present, LeakKind kind, const std::string& growth, double growth_bytes) {
  if (!present) return nullptr;
  return {{"kind", kind_name(kind, true)}, {"growth", growth}, {"growth_bytes", growth_bytes}};
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
                                               l.old_growth, l.old_growth_bytes)},
                             {"new", side_json(l.status != DiffStatus::vanished, l.new_kind,
                                               l.new_growth, l.new_growth_bytes)}});
  }
  out << json.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace strata
