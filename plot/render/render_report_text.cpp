// SPDX-License-Identifier: GPL-2.0-or-later
// `strata report` as text (render_report_json.cpp writes the same as JSON).
// Run in examples/ as `strata record ./leaky-player`, then `strata report
// --top=3 strata.out.PID` prints (tests/t-report-sample.sh checks this sample
// against a real run, numbers aside):
// clang-format off
//
//   profile:    strata.out.20446 (strata profile, pid 20446)
//   command:    ./leaky-player
//   recorded:   --depth=30 --heap-admin=8 --peak-inaccuracy=1.000 --heap=yes --stacks=no --pages-as-heap=no --free-stacks=yes --free-depth=12
//   time unit:  i (instructions executed)
//   duration:   136,292,341 (the first snapshot at 1)
//   snapshots:  1,700, 1,700 with site data (8 sites, 17 markers)
//   end:        the program ended at time 136,292,341
//   peak:       5,258,368 bytes at time 120,323,813 (useful heap 5,233,712, extra heap 24,656, stacks 0)
//   final:      0 bytes at time 136,292,341 (useful heap 0, extra heap 0, stacks 0)
//   cycles:     8, each begun by the marker "video opened", 17,017,288 apart (median)
//   contexts:   8 sites in 3 contexts (chosen from the calling-context tree), 5 stacks folded (under 1.0% or beyond 3 contexts)
//   lifetimes:  33 epochs of 4,194,304 i from time 142,075, free stacks known
//
//   Contexts, by spacetime
//   ----------------------
//
//   #1 Context accounted for 95.4% of measured spacetime
//      held 5,069,856 bytes at the peak, 0 at the end
//      384 allocation calls (0 temporary), 58,994,688 bytes allocated
//      born: 12% in 6-10% of the run, 36% in 18-47%, 52% in 55-90% (of the 5,069,856 bytes alive at the end of the peak's epoch)
//        frame_alloc (leaky-player.c:74)
//        decoder_decode (leaky-player.c:138)
//        player_play (leaky-player.c:183)
//        main (leaky-player.c:254)
//
//   #2 Context accounted for 1.4% of measured spacetime
//      held 65,536 bytes at the peak, 0 at the end
//      8 allocation calls (0 temporary), 524,288 bytes allocated
//      born: 100% in 86-90% of the run (of the 65,536 bytes alive at the end of the peak's epoch)
//        decoder_open (leaky-player.c:123)
//        player_open (leaky-player.c:173)
//        main (leaky-player.c:253)
//
//   #3 Context accounted for 1.1% of measured spacetime
//      held 32,768 bytes at the peak, 0 at the end
//      16 allocation calls (0 temporary), 32,768 bytes allocated
//      born: 100% in 0-4% of the run (of the 32,768 bytes alive at the end of the peak's epoch)
//        thumbnail_cache (leaky-player.c:152)
//        player_play (leaky-player.c:184)
//        main (leaky-player.c:254)
//
//   #4 5 other places accounted for 2.2% of measured spacetime
//      held 65,552 bytes at the peak, 0 at the end
//      1,257 allocation calls (801 temporary), 68,079,744 bytes allocated
//      born: 100% in 86-90% of the run (of the 65,552 bytes alive at the end of the peak's epoch)
//
//   Leak suspects, most suspicious first
//   ------------------------------------
//
//   #1 Leak at frame_alloc (leaky-player.c:74), context #1 (confidence 1.00)
//      memory left behind all through the run: 1 place, 4.69 MiB, 100% at frame_alloc
//      (leaky-player.c:74) <- decoder_decode; kept until exit, freed by shutdown
//      (leaky-player.c:222)
//      kept 8%, 8%, 8% and 8% of what it made in each quarter of its part of the run (0-96%);
//      each cycle (marker video opened) left about 600 KiB behind, 8 of 8 cycles
//      held 5,069,856 bytes at the peak, 0 at the end
//      freed before exit: a check of what is not freed at exit misses it
//      freed by frame_free (leaky-player.c:95) <- player_play (leaky-player.c:190) in 0-96% of
//      the run (89% of its bytes freed after living across an epoch's end); at exit by
//      frame_free (leaky-player.c:95) <- shutdown (leaky-player.c:222) (11%)
//        frame_alloc (leaky-player.c:74)
//        decoder_decode (leaky-player.c:138)
//        player_play (leaky-player.c:183)
//        main (leaky-player.c:254)
//
//   Kept memory, not flagged (the largest, and why each is no leak):
//     70 KiB at menu_idle (leaky-player.c:213): kept 1 block, fewer than 7: too few to tell a
//     trend from chance
//
// clang-format on
// A frame is "function (file:line)", "function (in object)" without line
// information, and object+0xOFFSET when the function is unknown
// ("cc1plus+0x1b6a652 (in /usr/lib/gcc/x86_64-linux-gnu/12/cc1plus)").
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/frame_names.hpp"
#include "render/render.hpp"
#include "util/shown.hpp"
#include "util/units.hpp"
#include "view/kinds.hpp"
#include "view/leak_words.hpp"

namespace strata {

std::string unit_meaning(const std::string& unit) {
  if (unit == "i") return "instructions executed";
  if (unit == "ms") return "milliseconds";
  if (unit == "B") return "bytes allocated and freed";
  return "unknown";
}

std::string recorded(const std::vector<Option>& options) {
  if (options.empty()) return "(none)";
  std::string text;
  for (const Option& option : options) {
    if (option.name == "lifetimes" || option.name == "epoch_unit") continue;
    std::string name = option.name;
    for (char& c : name) c = c == '_' ? '-' : c;
    text += (text.empty() ? "--" : " --") + name + (option.value.empty() ? "" : "=" + option.value);
  }
  return shown(text);
}

namespace {

// ---- the header ------------------------------------------------------------

std::string origin(const Summary& s) {
  if (s.format == Format::massif) return "massif.out file";
  return "strata profile, pid " + std::to_string(s.pid);
}

std::string totals_text(const std::optional<Totals>& t) {
  if (!t) return "none (no complete snapshot)";
  return grouped(t->total()) + " bytes at time " + grouped(t->time) + " (useful heap " +
         grouped(t->heap) + ", extra heap " + grouped(t->extra) + ", stacks " + grouped(t->stacks) +
         ")";
}

// A note under the peak or the final snapshot when the contexts' bytes there
// are not that snapshot's own sites, or do not add up to its useful heap
// (sites_from); "" otherwise.
std::string sites_note(const std::optional<SitesFrom>& from, const std::optional<Totals>& at,
                       const std::string& what) {
  if (!from || !at) return "";
  std::string text;
  if (!from->snapshot) {
    text = "no snapshot at or before " + what + " gives sites: the contexts hold nothing there";
  } else if (from->own) {
    text = "the sites at " + what + " hold " + grouped(from->sites_bytes) +
           " bytes, not its useful heap of " + grouped(at->heap);
  } else {
    text = what +
           " gives no sites (not a detailed snapshot): the contexts' bytes there are "
           "those of the snapshot at time " +
           grouped(from->time) + ", " + grouped(at->time - from->time) +
           " earlier, whose sites hold " + grouped(from->sites_bytes) +
           " bytes (its useful heap: " + grouped(from->heap) + "; at " + what + ": " +
           grouped(at->heap) + ")";
  }
  return "note:       " + text + "\n";
}

std::string end_text(const Summary& s) {
  std::string last = "the last complete snapshot is at time " + grouped(s.end_time);
  if (!s.stop_reason.empty())
    return "cut short, strata stopped writing it: " + s.stop_reason + "; " + last;
  if (s.cut_short) return "cut short; " + last;
  if (s.format == Format::massif) {
    return "the last snapshot is at time " + grouped(s.end_time) + " (massif takes none at exit)";
  }
  return "the program ended at time " + grouped(s.end_time);
}

std::string cycles_text(const Cycles& cycles) {
  std::string apart = grouped(static_cast<std::uint64_t>(std::llround(cycles.period)));
  switch (cycles.source) {
    case CycleSource::markers:
      return grouped(cycles.count()) + ", each begun by the marker \"" + shown(cycles.label) +
             "\", " + apart + " apart (median)";
    case CycleSource::rhythm:
      return grouped(cycles.count()) + ", from the rhythm of the total heap, " + apart + " apart";
    case CycleSource::none:
      break;
  }
  return "none found (no marker label put 3 times or more, no clear rhythm)";
}

std::string grouping_text(const Report& r) {
  std::size_t sites = 0, contexts = 0, folded = 0;
  for (const ReportContext& c : r.contexts) {
    sites += c.sites;
    contexts += c.folded > 0 ? c.folded : 1;
    folded += c.folded;
  }
  const ContextOptions& g = r.grouping;
  std::string how = !g.depth        ? "chosen from the calling-context tree"
                    : *g.depth == 0 ? "--depth=all"
                                    : "--depth=" + std::to_string(*g.depth);
  for (const std::string& pattern : g.alloc_fns) how += " --alloc-fn=" + pattern;
  std::string text;
  if (!g.depth) {
    text =
        counted(sites, "site") + " in " + counted(contexts - folded, "context") + " (" + how + ")";
    if (folded > 0) {
      text += ", " + counted(folded, "stack") + " folded (under " + fixed(g.threshold, 1) + "%" +
              (g.top > 0 ? " or beyond " + counted(g.top, "context") : "") + ")";
    }
    return text;
  }
  text = counted(sites, "site") + " in " + counted(contexts, "context") + " (" + how + "), " +
         grouped(contexts - folded) + " listed";
  if (folded > 0) {
    text += ", " + grouped(folded) + " folded (under " + fixed(g.threshold, 1) + "%" +
            (g.top > 0 ? " or beyond the top " + std::to_string(g.top) : "") + ")";
  }
  return text;
}

std::string duration_text(const Report& r) {
  std::string first = r.summary.snapshots == 0
                          ? "no snapshot"
                          : "the first snapshot at " + grouped(r.first_snapshot_time);
  return grouped(r.summary.end_time) + " (" + first + ")";
}

// The snapshots line counts the process's forks after its markers when
// it forked (", 1 fork").
void header(const Report& r, std::ostream& out) {
  const Summary& s = r.summary;
  out << "profile:    " << shown(s.file) << " (" << origin(s) << ")\n"
      << "command:    " << shown(s.command) << "\n"
      << "recorded:   " << recorded(r.recording) << "\n"
      << "time unit:  " << s.time_unit << " (" << unit_meaning(s.time_unit) << ")\n"
      << "duration:   " << duration_text(r) << "\n"
      << "snapshots:  " << grouped(s.snapshots) << ", " << grouped(r.site_snapshots)
      << " with site data (" << counted(s.sites, "site") << ", " << counted(s.markers, "marker")
      << (s.forks > 0 ? ", " + counted(s.forks, "fork") : "") << ")\n"
      << "end:        " << end_text(s) << "\n"
      << "peak:       " << totals_text(s.peak) << "\n";
  out << sites_note(s.peak_sites, s.peak, "the peak");
  out << "final:      " << totals_text(s.final) << "\n";
  out << sites_note(s.final_sites, s.final, "the final snapshot");
  out << "cycles:     " << cycles_text(r.cycles) << "\n"
      << "contexts:   " << grouping_text(r) << "\n";
  out << "lifetimes:  " << shown(r.lifetimes_words) << "\n";
  if (r.selection) {
    out << "selected:   " << grouped(r.selection->bytes) << " " << shown(r.selection->words)
        << "\n";
  }
}

// ---- contexts ----------------------------------------------------------------

void title(const std::string& text, std::ostream& out) {
  out << "\n" << text << "\n" << std::string(text.size(), '-') << "\n";
}

// "function (file:line)", "function (in object)", and object+0xOFFSET for
// the function when it is unknown (frame_names.hpp); a clone by its symbol
// (foo.isra.0), as the stack is given in full.
void stack(const std::vector<Frame>& frames, std::ostream& out) {
  for (const Frame& frame : frames) out << "     " << stack_frame_text(frame) << "\n";
  if (frames.empty()) out << "     (no stack)\n";
}

std::string held(std::uint64_t peak, std::uint64_t end) {
  return "held " + grouped(peak) + " bytes at the peak, " + grouped(end) + " at the end";
}

// What the contexts are ranked by, after "Contexts, by ".
const char* sort_title(ContextSort sort) {
  switch (sort) {
    case ContextSort::peak:
      return "bytes at the peak";
    case ContextSort::allocations:
      return "allocation calls";
    case ContextSort::temporary:
      return "temporary allocations";
    case ContextSort::allocated:
      return "bytes allocated";
    case ContextSort::spacetime:
      break;
  }
  return "spacetime";
}

// What a context is, first on its line.
std::string context_what(const ReportContext& c) {
  if (c.folded > 0) return counted(c.folded, "other place");
  if (c.shape == ContextShape::other_callers) return "Context (other callers)";
  return "Context";
}

// The line under a stack that does not go down to its sites' whole stacks.
std::string callers_text(const ReportContext& c) {
  std::string stacks = counted(c.sites, "site");
  if (c.shape == ContextShape::callers)
    return "     ... called from several places (" + stacks + ")";
  if (c.shape == ContextShape::finding)
    return "     ... and the other places of a leak finding (" + stacks + " in all: its parts)";
  return "     ... and its other callers (" + stacks + "; the others have contexts of their own)";
}

// A count, "or more" when its sum saturated (model.hpp, kCountsMax).
std::string count_text(std::uint64_t n) { return grouped(n) + (n == kCountsMax ? " or more" : ""); }

// "1,204 allocation calls (1,100 temporary), 2,468,864 bytes allocated".
std::string counts_text(const AllocationCounts& counts) {
  return count_text(counts.calls) + " allocation call" + (counts.calls == 1 ? "" : "s") + " (" +
         count_text(counts.temporary) + " temporary), " + count_text(counts.allocated) +
         " bytes allocated";
}

void context(const Report& r, const ReportContext& c, std::ostream& out) {
  out << "\n#" << c.rank << " " << context_what(c) << " accounted for " << fixed(c.spacetime_pct, 1)
      << "% of measured spacetime\n"
      << "   " << held(c.peak_bytes, c.end_bytes) << "\n";
  if (c.selected_bytes) out << "   selected: " << grouped(*c.selected_bytes) << " bytes\n";
  if (r.has_counts) out << "   " << counts_text(c.counts) << "\n";
  if (!c.born_words.empty()) out << "   born: " << c.born_words << "\n";
  if (c.folded > 0) return;
  stack(c.frames, out);
  if (c.shape == ContextShape::finding && c.sites < 2) return;
  if (c.shape != ContextShape::stacks) out << callers_text(c) << "\n";
}

void contexts(const Report& r, std::ostream& out) {
  title(std::string("Contexts, by ") + sort_title(r.grouping.sort), out);
  if (r.site_snapshots == 0) {
    out << "\nNo snapshot has site data";
    if (r.summary.format == Format::massif) out << " (run massif with --detailed-freq=1)";
    out << ".\n";
  }
  for (const ReportContext& c : r.contexts) context(r, c, out);
}

// ---- leak suspects -------------------------------------------------------------

// `text` cut into lines of at most kWidth characters (at spaces), each
// after `indent`.
std::string wrapped(const std::string& text, const std::string& indent) {
  constexpr std::size_t kWidth = 92;
  std::string out, line;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t space = text.find(' ', at);
    std::string word = text.substr(at, space == std::string::npos ? std::string::npos : space - at);
    at = space == std::string::npos ? text.size() : space + 1;
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > kWidth) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + indent + line + "\n";
}

// A finding's parts, those of 1% of its kept bytes or more (at most
// kMaxParts): share, kept bytes, sites, headline; then how many more.
void finding_parts(const ReportLeak& l, std::ostream& out) {
  constexpr std::size_t kMaxParts = 8;
  if (l.parts.size() < 2) return;
  out << "   " << counted(l.parts.size(), "part") << ", each cut at its headline:\n";
  std::size_t shown_parts = 0;
  std::uint64_t rest = 0;
  for (const ReportLeakPart& part : l.parts) {
    auto bytes = static_cast<std::uint64_t>(std::llround(part.growth_bytes));
    if (shown_parts == kMaxParts || part.share_pct < 1) {
      rest += bytes;
      continue;
    }
    ++shown_parts;
    out << "     " << fixed(part.share_pct, 1) << "%  " << grouped(bytes) << " bytes in "
        << counted(part.sites, "site") << " at "
        << (part.frames.empty() ? "(no stack)" : finding_place(part.frames.back())) << "\n";
  }
  if (shown_parts < l.parts.size()) {
    out << "     ... and " << counted(l.parts.size() - shown_parts, "more part") << ", "
        << grouped(rest) << " bytes\n";
  }
}

void finding(const ReportLeak& l, std::size_t rank, std::ostream& out) {
  out << "\n#" << rank << " " << leak_heading(l) << "\n";
  out << wrapped(l.words, "   ") << wrapped(l.why, "   ") << "   "
      << held(l.peak_bytes, l.end_bytes) << "\n";
  if (l.freed_before_exit) {
    out << "   freed before exit: a check of what is not freed at exit misses it\n";
  }
  if (!l.freed_words.empty()) out << wrapped(l.freed_words, "   ");
  if (l.cut_at_depth > 0) {
    out << wrapped("its stack is cut at --depth=" + std::to_string(l.cut_at_depth) +
                       ": the callers beyond were not recorded (record with a larger --depth to "
                       "see where it is called from)",
                   "   ");
  }
  finding_parts(l, out);
  stack(l.frames, out);
}

// The small findings, in one paragraph: "3 more, under 1% of the peak each
// (--threshold lists them): 12 KiB at f (a.c:3), ...".
void small_findings(const Report& r, std::ostream& out) {
  if (r.small_leaks.empty()) return;
  std::string text = counted(r.small_leaks.size(), "small finding") + ", each under " +
                     fixed(r.grouping.threshold, 1) +
                     "% of the peak (a lower --threshold lists them in full):";
  for (std::size_t i = 0; i < r.small_leaks.size(); ++i) {
    const ReportLeak& l = r.small_leaks[i];
    std::string where = l.frames.empty() ? "(no stack)" : frame_text(l.frames[l.headline]);
    text += std::string(i == 0 ? " " : "; ") +
            format_bytes(static_cast<double>(l.finding->kept_bytes)) + " at " + where + " (" +
            std::string(kind_names(l.kind).option) + ")";
  }
  out << "\n" << wrapped(text, "");
}

// The places that kept memory and are no finding, each with why: every veto
// in words a person can check in the graph.
void passed_over(const Report& r, std::ostream& out) {
  if (r.passed_over.empty()) return;
  out << "\nKept memory, not flagged (the largest, and why each is no leak):\n";
  // A headline function listed twice (a helper's structures for two
  // callers, each judged on its own) is named with its caller.
  auto function = [](const ReportPassedOver& p) {
    return p.frames.empty() ? std::string() : p.frames[p.headline].function;
  };
  for (const ReportPassedOver& p : r.passed_over) {
    std::string where = p.frames.empty() ? "(no stack)" : frame_text(p.frames[p.headline]);
    bool twice = std::count_if(r.passed_over.begin(), r.passed_over.end(), [&](const ReportPassedOver& q) {
                   return function(q) == function(p);
                 }) > 1;
    if (twice && p.headline + 1 < p.frames.size()) where += " <- " + p.frames[p.headline + 1].function;
    out << wrapped(format_bytes(static_cast<double>(p.kept_bytes)) + " at " + where + ": " + p.words,
                   "  ");
  }
}

void leaks(const Report& r, std::ostream& out) {
  title("Leak suspects, most suspicious first", out);
  if (r.selection) {
    out << "\nNot judged on a selection of the bytes (--born, --alive-at).\n";
  } else if (r.leaks_short_child) {
    out << "\nJudged on its snapshots: this forked child's own run, after the fork, holds too few\n"
           "of the lifetimes' epochs (its parent's clock, whose epochs grew with its run).\n";
  }
  if (!r.selection && r.leaks.empty()) out << "\nNone.\n";
  for (std::size_t i = 0; i < r.leaks.size(); ++i) {
    finding(r.leaks[i], i + 1, out);
  }
  small_findings(r, out);
  if (!r.selection) passed_over(r, out);
}

// ---- the tree --------------------------------------------------------------------

std::string shares(double spacetime_pct, double peak_pct) {
  return fixed(spacetime_pct, 2) + "% (" + fixed(peak_pct, 2) + "% at the peak)";
}

}  // namespace

std::string tree_frame_text(const Frame& f) {
  std::string text = frame_symbol(f);
  if (!f.file.empty()) text += " (" + f.file + ":" + std::to_string(f.line) + ")";
  return shown(text) + (f.inlined ? " [inlined]" : "");
}

namespace {

// A node's frames on one line: "f (a.c:3) [inlined] <- g (a.c:9)".
std::string node_text(const std::vector<Frame>& frames) {
  std::string text;
  for (const Frame& f : frames) text += (text.empty() ? "" : " <- ") + tree_frame_text(f);
  return text;
}

// "| " for each level above `depth`; past kMaxIndentLevels the bars stop and
// the depth is written ("[500] "), so that a line stays short however deep
// the tree.
std::string indent(std::size_t depth) {
  constexpr std::size_t kMaxIndentLevels = 64;
  std::string text;
  for (std::size_t i = 1; i < depth && i <= kMaxIndentLevels; ++i) text += "| ";
  if (depth > kMaxIndentLevels + 1) text += "[" + std::to_string(depth) + "] ";
  return text;
}

// The line of a node's callers under the threshold, after its subtree.
std::string folded_line(const ReportTreeNode& node, double threshold) {
  return indent(node.depth + 1) + "->" + shares(node.folded_spacetime_pct, node.folded_peak_pct) +
         " in " + counted(node.folded, node.depth == 0 ? "other call site" : "other caller") +
         ", each under " + fixed(threshold, 1) + "%\n";
}

void tree(const Report& r, std::ostream& out) {
  double threshold = r.grouping.threshold;
  title("Calling-context tree: share of the spacetime (and of the peak)", out);
  out << "Allocating call sites first, then their callers; a node under " << fixed(threshold, 1)
      << "% of both is folded.\n";
  std::vector<const ReportTreeNode*> open;  // nodes whose folded line is still to come
  auto close_to = [&](std::size_t depth) {
    while (!open.empty() && open.back()->depth >= depth) {
      if (open.back()->folded > 0) out << folded_line(*open.back(), threshold);
      open.pop_back();
    }
  };
  for (const ReportTreeNode& node : r.tree) {
    close_to(node.depth);
    if (node.depth == 0) {
      out << "\n"
          << shares(node.spacetime_pct, node.peak_pct) << " all the heap ("
          << grouped(node.peak_bytes) << " bytes at the peak)\n";
    } else {
      out << indent(node.depth) << "->" << shares(node.spacetime_pct, node.peak_pct) << " "
          << node_text(node.frames) << "\n";
    }
    open.push_back(&node);
  }
  close_to(0);
}

// `strata report --tree --at=T`: the tree at one moment, each node with its
// share of the heap then and its bytes.
std::string moment_share(double pct, std::uint64_t bytes) {
  return fixed(pct, 2) + "% (" + grouped(bytes) + " bytes)";
}

void tree_at(const Report& r, std::ostream& out) {
  const ReportTreeAt& at = *r.tree_at;
  double threshold = r.grouping.threshold;
  title("Calling-context tree at time " + std::to_string(at.asked) + ": share of the heap then",
        out);
  out << "The snapshot at time " << at.time << "; allocating call sites first, then their "
      << "callers; a node under " << fixed(threshold, 1) << "% is folded.\n";
  std::vector<const ReportMomentNode*> open;
  auto close_to = [&](std::size_t depth) {
    while (!open.empty() && open.back()->depth >= depth) {
      const ReportMomentNode& node = *open.back();
      if (node.folded > 0) {
        out << indent(node.depth + 1) << "->" << moment_share(node.folded_pct, node.folded_bytes)
            << " in " << counted(node.folded, node.depth == 0 ? "other call site" : "other caller")
            << ", each under " << fixed(threshold, 1) << "%\n";
      }
      open.pop_back();
    }
  };
  for (const ReportMomentNode& node : at.nodes) {
    close_to(node.depth);
    if (node.depth == 0) {
      out << "\n" << moment_share(node.pct, node.bytes) << " all the heap\n";
    } else {
      out << indent(node.depth) << "->" << moment_share(node.pct, node.bytes) << " "
          << node_text(node.frames) << "\n";
    }
    open.push_back(&node);
  }
  close_to(0);
}

}  // namespace

std::string leak_heading(const ReportLeak& l) {
  std::string where = l.frames.empty() ? "(no stack)" : frame_text(l.frames[l.headline]);
  return std::string(kind_names(l.kind).heading) + " at " + where + ", context #" +
         std::to_string(l.context_rank) + " (confidence " + fixed(l.confidence, 2) + ")";
}

void render_gate(const Report& report, const std::vector<const ReportLeak*>& failing,
                 std::ostream& err) {
  for (const ReportLeak* leak : failing) {
    err << "strata report: " << report.summary.file << ": " << leak_heading(*leak) << ": "
        << (leak->finding ? leak->words : leak->why) << "\n";
  }
}

void render_report_text(const Report& report, std::ostream& out) {
  header(report, out);
  contexts(report, out);
  leaks(report, out);
  if (!report.tree.empty()) tree(report, out);
  if (report.tree_at) tree_at(report, out);
}

}  // namespace strata
