// SPDX-License-Identifier: GPL-2.0-or-later
// The first part of `strata report`, as text:
//
//   profile:   strata.out.4242 (strata profile, pid 4242)
//   command:   ./leaky-player --cycles 3
//   time unit: i (instructions executed)
//   snapshots: 3 (1 site, 1 marker)
//   end:       the program ended at time 152,000
//   peak:      50,736 bytes at time 135,210 (heap 49,152, extra 1,584, stacks 0)
//   final:     8,456 bytes at time 140,000 (heap 8,192, extra 264, stacks 0)
//
// and as one JSON object with the same facts.
#include <nlohmann/json.hpp>

#include "render.hpp"

namespace strata {

namespace {

// 1234567 as "1,234,567".
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string counted(std::size_t n, const std::string& what) {
  return grouped(n) + " " + what + (n == 1 ? "" : "s");
}

std::string unit_meaning(const std::string& unit) {
  if (unit == "i") return "instructions executed";
  if (unit == "ms") return "milliseconds";
  if (unit == "B") return "bytes allocated and freed";
  return "unknown";
}

std::string origin(const Summary& s) {
  if (s.format == Format::massif) return "massif.out file";
  return "strata profile, pid " + std::to_string(s.pid);
}

std::string totals_text(const std::optional<Totals>& t) {
  if (!t) return "none (no complete snapshot)";
  return grouped(t->total()) + " bytes at time " + grouped(t->time) + " (heap " + grouped(t->heap) +
         ", extra " + grouped(t->extra) + ", stacks " + grouped(t->stacks) + ")";
}

std::string end_text(const Summary& s) {
  if (s.cut_short) return "cut short; the last complete snapshot is at time " + grouped(s.end_time);
  return "the program ended at time " + grouped(s.end_time);
}

nlohmann::ordered_json totals_json(const std::optional<Totals>& t) {
  if (!t) return nullptr;
  return {{"time", t->time},
          {"heap_bytes", t->heap},
          {"extra_bytes", t->extra},
          {"stacks_bytes", t->stacks},
          {"total_bytes", t->total()}};
}

}  // namespace

void render_summary_text(const Summary& s, std::ostream& out) {
  out << "profile:   " << s.file << " (" << origin(s) << ")\n"
      << "command:   " << s.command << "\n"
      << "time unit: " << s.time_unit << " (" << unit_meaning(s.time_unit) << ")\n"
      << "snapshots: " << grouped(s.snapshots) << " (" << counted(s.sites, "site") << ", "
      << counted(s.markers, "marker") << ")\n"
      << "end:       " << end_text(s) << "\n"
      << "peak:      " << totals_text(s.peak) << "\n"
      << "final:     " << totals_text(s.final) << "\n";
}

void render_summary_json(const Summary& s, std::ostream& out) {
  nlohmann::ordered_json json = {
      {"file", s.file},
      {"format", s.format == Format::massif ? "massif" : "strata"},
      {"command", s.command},
      {"pid", s.pid == 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(s.pid)},
      {"time_unit", s.time_unit},
      {"snapshots", s.snapshots},
      {"sites", s.sites},
      {"markers", s.markers},
      {"complete", !s.cut_short},
      {"end_time", s.end_time},
      {"peak", totals_json(s.peak)},
      {"final", totals_json(s.final)},
  };
  out << json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace strata
