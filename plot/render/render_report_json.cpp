// SPDX-License-Identifier: GPL-2.0-or-later
// `strata report --json`: the report as one JSON document (docs/format.md,
// "The JSON report").  Keys in a fixed order; unknown text (a function, a file,
// an object) is null, as is a line number of 0.
#include <nlohmann/json.hpp>

#include "model/frame_names.hpp"
#include "render/render.hpp"
#include "render/report_json.hpp"
#include "util/json_writer.hpp"
#include "view/kinds.hpp"

namespace strata {

namespace {

using Json = nlohmann::ordered_json;

Json text_or_null(const std::string& text) { return text.empty() ? Json() : Json(text); }

Json totals_json(const std::optional<Totals>& t) {
  if (!t) return nullptr;
  return {{"time", t->time},
          {"heap_bytes", t->heap},
          {"extra_bytes", t->extra},
          {"stacks_bytes", t->stacks},
          {"total_bytes", t->total()}};
}

Json options_json(const std::vector<Option>& options) {
  Json list = Json::array();
  for (const Option& o : options) list.push_back({{"name", o.name}, {"value", o.value}});
  return list;
}

Json grouping_json(const ContextOptions& g) {
  Json depth = !g.depth ? Json("tree") : *g.depth == 0 ? Json() : Json(*g.depth);
  return {{"depth", depth},
          {"threshold", g.threshold},
          {"alloc_fns", g.alloc_fns},
          {"top", g.top == 0 ? Json() : Json(g.top)}};
}

const char* source_name(CycleSource source) {
  switch (source) {
    case CycleSource::markers:
      return "markers";
    case CycleSource::rhythm:
      return "rhythm";
    case CycleSource::none:
      break;
  }
  return "none";
}

Json cycles_json(const Cycles& c) {
  return {{"source", source_name(c.source)},
          {"label", c.source == CycleSource::markers ? Json(c.label) : Json()},
          {"count", c.count()},
          {"period", c.period},
          {"starts", c.starts}};
}

Json frames_json(const std::vector<Frame>& frames) {
  Json list = Json::array();
  for (const Frame& f : frames) {
    std::optional<std::uint64_t> offset = object_offset(f);
    list.push_back({{"function", text_or_null(f.function)},
                    {"file", text_or_null(f.file)},
                    {"line", f.line == 0 ? Json() : Json(f.line)},
                    {"object", text_or_null(f.object)},
                    {"address", f.address},
                    {"offset", offset ? Json(*offset) : Json()},
                    {"name", frame_name(f)},
                    {"inlined", f.inlined}});
  }
  return list;
}

const char* shape_name(ContextShape shape) {
  switch (shape) {
    case ContextShape::callers:
      return "callers";
    case ContextShape::other_callers:
      return "other_callers";
    case ContextShape::finding:
      return "finding";
    case ContextShape::stacks:
      break;
  }
  return "stacks";
}

Json counts_json(const ReportContext& c, bool has_counts) {
  if (!has_counts) return nullptr;
  return {{"calls", c.counts.calls},
          {"allocated_bytes", c.counts.allocated},
          {"temporary", c.counts.temporary}};
}

Json born_json(const std::optional<std::vector<ReportBorn>>& born) {
  if (!born) return nullptr;
  Json list = Json::array();
  for (const ReportBorn& b : *born) {
    list.push_back({{"from", b.from}, {"to", b.to}, {"bytes", b.bytes}});
  }
  return list;
}

Json context_json(const ReportContext& c, bool has_counts) {
  return {{"shape", shape_name(c.shape)},
          {"rank", c.rank},
          {"frames", frames_json(c.frames)},
          {"other_places", c.folded},
          {"sites", c.sites},
          {"spacetime_pct", c.spacetime_pct},
          {"peak_bytes", c.peak_bytes},
          {"end_bytes", c.end_bytes},
          {"max_bytes", c.max_bytes},
          {"allocations", counts_json(c, has_counts)},
          {"born", born_json(c.born)},
          {"selected_bytes", c.selected_bytes ? Json(*c.selected_bytes) : Json()}};
}

Json troughs_json(const std::vector<Trough>& troughs) {
  Json list = Json::array();
  for (const Trough& t : troughs) {
    list.push_back({{"time", t.time}, {"bytes", t.bytes}});
  }
  return list;
}

// A finding's parts (`finding`) also give their headline (the last of their
// frames), kept bytes and sites.
Json parts_json(const std::vector<ReportLeakPart>& parts, bool finding) {
  Json list = Json::array();
  for (const ReportLeakPart& part : parts) {
    Json json = {{"frames", frames_json(part.frames)},
                 {"growth_bytes", part.growth_bytes},
                 {"share_pct", part.share_pct}};
    if (finding) {
      json["headline"] = part.frames.empty() ? Json() : frames_json({part.frames.back()})[0];
      json["kept_bytes"] = static_cast<std::uint64_t>(part.growth_bytes);
      json["sites"] = part.sites;
    }
    list.push_back(std::move(json));
  }
  return list;
}

Json freed_by_json(const std::optional<std::vector<ReportFreedBy>>& freed) {
  if (!freed) return nullptr;
  Json list = Json::array();
  for (const ReportFreedBy& f : *freed) {
    list.push_back(
        {{"frames", frames_json(f.frames)},
         {"headline", f.frames.empty() ? Json() : frames_json({f.frames[f.headline]})[0]},
         {"bytes", f.bytes},
         {"share_pct", f.share_pct},
         {"at_exit", f.at_exit},
         {"from", f.from},
         {"to", f.to}});
  }
  return list;
}

Json leak_json(const ReportLeak& l) {
  Json headline = l.frames.empty() ? Json() : frames_json({l.frames[l.headline]})[0];
  return {{"context", l.context_rank > 0 ? Json(l.context_rank) : Json()},
          {"headline", headline},
          {"why", l.why},
          {"words", text_or_null(l.words)},
          {"parts", parts_json(l.parts, l.finding.has_value())},
          {"frames", frames_json(l.frames)},
          {"kind", kind_names(l.kind).id},
          {"growth_bytes", l.growth_bytes},
          {"growth_per", kind_names(l.kind).per},
          {"cycles", l.cycles},
          {"peak_bytes", l.peak_bytes},
          {"end_bytes", l.end_bytes},
          {"freed_before_exit", l.freed_before_exit},
          {"cut_at_depth", l.cut_at_depth > 0 ? Json(l.cut_at_depth) : Json()},
          {"confidence", l.confidence},
          {"troughs", troughs_json(l.troughs)},
          {"freed_by", freed_by_json(l.freed_by)},
          {"kept_bytes", l.finding ? Json(l.finding->kept_bytes) : Json()},
          {"kept_blocks", l.finding ? Json(l.finding->kept_blocks) : Json()},
          {"freed_at_exit", l.finding ? Json(l.finding->freed_at_exit) : Json()},
          {"freed_at_exit_by",
           l.finding && l.finding->holder ? frames_json({*l.finding->holder})[0] : Json()},
          {"retention", l.finding ? Json(l.finding->retention) : Json()},
          {"cycles_left", l.finding ? Json(l.finding->cycles_left) : Json()},
          {"sites", l.finding ? Json(l.finding->sites) : Json()}};
}

// null when the sites at the peak (or the end) are its own and add up to its
// useful heap; else the snapshot they are from (sites_from).
Json sites_from_json(const std::optional<SitesFrom>& from) {
  if (!from) return Json();
  return {{"own", from->own},
          {"time", from->snapshot ? Json(from->time) : Json()},
          {"heap_bytes", from->snapshot ? Json(from->heap) : Json()},
          {"sites_bytes", from->sites_bytes}};
}

Json summary_json(const Report& r) {
  const Summary& s = r.summary;
  return {{"file", s.file},
          {"format", s.format == Format::massif ? "massif" : "strata"},
          {"command", s.command},
          {"pid", s.pid == 0 ? Json() : Json(s.pid)},
          {"options", options_json(r.recording)},
          {"time_unit", s.time_unit},
          {"duration", s.end_time},
          {"end_time", s.end_time},
          {"first_snapshot_time", r.first_snapshot_time},
          {"complete", !s.cut_short},
          {"stopped", s.stop_reason.empty() ? Json() : Json(s.stop_reason)},
          {"snapshots", s.snapshots},
          {"site_snapshots", r.site_snapshots},
          {"sites", s.sites},
          {"markers", s.markers},
          {"forks", s.forks},
          {"peak", totals_json(s.peak)},
          {"final", totals_json(s.final)},
          {"peak_sites", sites_from_json(s.peak_sites)},
          {"final_sites", sites_from_json(s.final_sites)}};
}

Json tree_node_json(const ReportTreeNode& n) {
  return {{"frames", frames_json(n.frames)},
          {"spacetime_pct", n.spacetime_pct},
          {"peak_pct", n.peak_pct},
          {"peak_bytes", n.peak_bytes},
          {"folded",
           {{"places", n.folded},
            {"spacetime_pct", n.folded_spacetime_pct},
            {"peak_pct", n.folded_peak_pct}}},
          {"children", Json::array()}};
}

// The preorder list of nodes as nested objects.
Json tree_json(const std::vector<ReportTreeNode>& nodes) {
  Json root;
  std::vector<Json*> path;  // path[d]: the last node at depth d
  for (const ReportTreeNode& node : nodes) {
    if (node.depth == 0) {
      root = tree_node_json(node);
      path = {&root};
      continue;
    }
    path.resize(node.depth);
    Json& children = (*path.back())["children"];
    children.push_back(tree_node_json(node));
    path.push_back(&children.back());
  }
  return root;
}

// The tree at one moment as nested objects, and where it is.
Json tree_at_json(const ReportTreeAt& at) {
  Json root;
  std::vector<Json*> path;  // path[d]: the last node at depth d
  for (const ReportMomentNode& node : at.nodes) {
    Json json = {
        {"frames", frames_json(node.frames)},
        {"bytes", node.bytes},
        {"pct", node.pct},
        {"folded",
         {{"places", node.folded}, {"bytes", node.folded_bytes}, {"pct", node.folded_pct}}},
        {"children", Json::array()}};
    if (node.depth == 0) {
      root = std::move(json);
      path = {&root};
      continue;
    }
    path.resize(node.depth);
    Json& children = (*path.back())["children"];
    children.push_back(std::move(json));
    path.push_back(&children.back());
  }
  return {{"asked", at.asked}, {"time", at.time}, {"root", std::move(root)}};
}

Json lifetimes_json(const std::optional<ReportLifetimes>& l) {
  if (!l) return nullptr;
  return {{"t0", l->t0},         {"epoch_length", l->epoch_length}, {"epoch_unit", l->epoch_unit},
          {"epochs", l->epochs}, {"free_stacks", l->free_stacks},   {"born_at", l->born_at}};
}

Json selection_json(const std::optional<ReportSelection>& s) {
  if (!s) return nullptr;
  return {{"born_from", s->born_from}, {"born_to", s->born_to}, {"alive_at", s->alive_at},
          {"alive_at_end", s->at_end}, {"bytes", s->bytes},     {"words", s->words}};
}

}  // namespace

void render_report_json(const Report& r, std::ostream& out) {
  Json json = summary_json(r);
  json["grouping"] = grouping_json(r.grouping);
  json["spacetime"] = r.spacetime;
  json["cycles"] = cycles_json(r.cycles);
  json["contexts"] = Json::array();
  for (const ReportContext& c : r.contexts)
    json["contexts"].push_back(context_json(c, r.has_counts));
  json["leaks"] = Json::array();
  for (const ReportLeak& l : r.leaks) json["leaks"].push_back(leak_json(l));
  json["small_leaks"] = Json::array();
  for (const ReportLeak& l : r.small_leaks) json["small_leaks"].push_back(leak_json(l));
  json["passed_over"] = Json::array();
  for (const ReportPassedOver& p : r.passed_over) {
    json["passed_over"].push_back(
        {{"headline", p.frames.empty() ? Json() : frames_json({p.frames[p.headline]})[0]},
         {"frames", frames_json(p.frames)},
         {"kept_bytes", p.kept_bytes},
         {"kept_blocks", p.kept_blocks},
         {"reason", p.reason},
         {"words", p.words}});
  }
  json["leaks_from"] = r.selection ? Json() : Json(r.leaks_from_lifetimes ? "lifetimes" : "curves");
  if (!r.tree.empty()) json["tree"] = tree_json(r.tree);
  if (r.tree_at) json["tree_at"] = tree_at_json(*r.tree_at);
  json["lifetimes"] = lifetimes_json(r.lifetimes);
  json["selection"] = selection_json(r.selection);
  write_json(json, out);  // as json.dump(2), without recursion (json_writer.hpp)
  out << "\n";
}

nlohmann::ordered_json report_frames_json(const std::vector<Frame>& frames) {
  return frames_json(frames);
}

}  // namespace strata
