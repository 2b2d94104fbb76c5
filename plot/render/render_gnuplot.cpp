// SPDX-License-Identifier: GPL-2.0-or-later
// The gnuplot script and its data file.  A script for a PNG looks like this
// (texts are numbered in the data file's first block):
//
//   DATA = 'graph.dat'
//   set datafile separator "\t"
//   array T[9]
//   stats DATA index 0 using (T[int($1)] = strcol(2), 0) nooutput
//   do for [i = 1:|T|] { ... put back the " and \ the data file encodes ... }
//   set terminal pngcairo size 1200,800 noenhanced font "Sans,10"
//   set output T[1]
//   set title T[2]
//   XSCALE = 1048576.0   # time in Mi instructions
//   YSCALE = 1048576.0   # bytes in MiB
//   ...
//   plot DATA index 1 using ($1/XSCALE):($2/YSCALE):($3/YSCALE)
//          with filledcurves fc rgb "#d7301f" title T[4],
//        ...
//
// with one element for each band, for the troughs of each leak suspect, the
// markers' lines and the totals of a massif.out file.
#include "render/render_gnuplot.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "util/units.hpp"
#include "view/plot_legend.hpp"

namespace strata {

std::optional<GraphFormat> graph_format(const std::string& path) {
  if (path == "-") return GraphFormat::terminal;
  std::size_t dot = path.rfind('.');
  std::size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return std::nullopt;
  std::string extension = path.substr(dot + 1);
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == "svg") return GraphFormat::svg;
  if (extension == "png") return GraphFormat::png;
  if (extension == "pdf") return GraphFormat::pdf;
  if (extension == "html" || extension == "htm") return GraphFormat::html;
  return std::nullopt;
}

namespace {

// ---- colours ----------------------------------------------------------------------

// Leak suspects in reds, the other call sites in blues and greens, the rest grey.
constexpr std::array kLeakColours = {"#d7301f", "#fc8d59", "#990000", "#f4a582", "#ef6548"};
constexpr std::array kContextColours = {"#2c7fb8", "#7fcdbb", "#41b6c4", "#a1dab4",
                                        "#225ea8", "#6baed6", "#238b45", "#9ecae1",
                                        "#756bb1", "#74c476", "#bcbddc", "#08589e"};
// The heap by age: the oldest layer darkest, as strata of rock.
constexpr std::array kAgeColours = {"#4d2a0f", "#6b3d14", "#8c5319", "#a86b22", "#c0853a",
                                    "#d19f57", "#ddb678", "#e7cb99", "#efdcb8", "#f6ecd6"};
constexpr const char* kOtherColour = "#cccccc";
constexpr const char* kExtraColour = "#a6a6a6";
constexpr const char* kStacksColour = "#e3dccb";
constexpr const char* kTroughColour = "#67000d";
// In a terminal (ansi256), gnuplot 5.4 maps a grey to 232 + its level / 6.5,
// past the palette's last colour (255) for light greys: #cccccc became
// colour 259, #a6a6a6 256, which no palette has.  These two, a little blue,
// go to the colour cube instead, to 188 (#d7d7d7) and 145 (#afafaf).
constexpr const char* kTerminalOtherColour = "#c0c0d0";
constexpr const char* kTerminalExtraColour = "#9999aa";

std::string band_colour(const std::vector<PlotBand>& bands, std::size_t band, bool terminal) {
  std::size_t same_kind = 0;
  for (std::size_t b = 0; b < band; ++b) same_kind += bands[b].kind == bands[band].kind;
  switch (bands[band].kind) {
    case BandKind::leak:
      return kLeakColours[same_kind % kLeakColours.size()];
    case BandKind::context:
      return kContextColours[same_kind % kContextColours.size()];
    case BandKind::other:
      return terminal ? kTerminalOtherColour : kOtherColour;
    case BandKind::extra:
      return terminal ? kTerminalExtraColour : kExtraColour;
    case BandKind::stacks:
      return kStacksColour;
    case BandKind::age:
      return kAgeColours[same_kind % kAgeColours.size()];
  }
  return kOtherColour;
}

// ---- the data file ------------------------------------------------------------------

// A text as gnuplot's data reader leaves alone: it reads a double quote as
// a quote and a backslash as an escape, so they are written \001q and
// \001b, and put back by the script.  (plain_text() has already replaced the
// control characters of texts from the profile.)
std::string data_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"') {
      out += "\001q";
    } else if (c == '\\') {
      out += "\001b";
    } else if (c == '\t' || c == '\n' || c == '\r' || c == '\001') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// A number as gnuplot reads a real (never an integer: 1/2 is 0 in gnuplot).
std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.10g", value);
  std::string out = text;
  if (out.find_first_of(".eEn") == std::string::npos) out += ".0";
  return out;
}

// The texts, numbered from 1 in the order they are added; for the
// terminal, with the cells of wide characters filled (terminal_cells).
class Texts {
 public:
  explicit Texts(bool terminal) : terminal_(terminal) {}
  std::size_t add(const std::string& text) {
    texts_.push_back(terminal_ ? terminal_cells(text) : text);
    return texts_.size();
  }
  // T[n] in the script.
  static std::string ref(std::size_t n) { return "T[" + std::to_string(n) + "]"; }
  std::size_t size() const { return texts_.size(); }
  void write(std::ostream& out) const {
    out << "# texts: number, text (\\001q stands for a double quote, \\001b for a backslash)\n";
    for (std::size_t i = 0; i < texts_.size(); ++i) {
      out << i + 1 << '\t' << data_text(texts_[i]) << '\n';
    }
  }

 private:
  bool terminal_;
  std::vector<std::string> texts_;
};

// The blocks of the data file after the texts (block 0), numbered from 1.
class Blocks {
 public:
  std::size_t add(const std::string& comment, const std::string& body) {
    out_ << "\n\n# " << comment << "\n" << body;
    return ++count_;
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  std::size_t count_ = 0;
};

std::string bands_block(const PlotData& data) {
  std::ostringstream out;
  for (std::size_t s = 0; s < data.times.size(); ++s) {
    out << number(data.times[s]) << "\t0";
    std::uint64_t top = 0;
    for (const PlotBand& band : data.bands) out << '\t' << (top += band.bytes[s]);
    out << '\n';
  }
  return out.str();
}

std::string points_block(const std::vector<PlotPoint>& points) {
  std::ostringstream out;
  for (const PlotPoint& p : points) out << number(p.time) << '\t' << number(p.bytes) << '\n';
  return out.str();
}

// ---- the script ------------------------------------------------------------------------

constexpr const char* kReadTexts =
    R"(# The texts (names from the profile, the title, the output file) are read
# from block 0 of the data file, never written in this script.
set datafile separator "\t"
array T[%TEXTS%]
stats DATA index 0 using (T[int($1)] = strcol(2), 0) nooutput
do for [i = 1:|T|] {
    rest = T[i]; done = ""
    while (strstrt(rest, "\001") > 0) {
        at = strstrt(rest, "\001")
        done = done . rest[1:at - 1] . (rest[at + 1:at + 1] eq "q" ? "\"" : "\\")
        rest = rest[at + 2:]
    }
    T[i] = done . rest
}
)";

std::string terminal(const GraphOptions& options) {
  std::string size = std::to_string(options.width) + "," + std::to_string(options.height);
  switch (options.format) {
    case GraphFormat::png:
      return "set terminal pngcairo size " + size + " noenhanced font \"Sans,10\"";
    case GraphFormat::pdf:
      return "set terminal pdfcairo size " + number(options.width / 100.0) + "in," +
             number(options.height / 100.0) + "in noenhanced font \"Sans,9\"";
    case GraphFormat::terminal:
      return "set terminal dumb size " + size + (options.colour ? " ansi256" : " mono") +
             " noenhanced";
    case GraphFormat::svg:
    case GraphFormat::html:
      break;
  }
  return "set terminal svg size " + size + " noenhanced font \"Sans,11\" background rgb \"white\"";
}

struct AxesFrame {
  GraphScales scales;
  double y_top = 1;  // bytes at the top of the y axis, with room for the labels
};

AxesFrame axes_frame(const PlotData& data) {
  return {graph_scales(data), std::max(data.max_total() * 1.2, 1.0)};
}

void write_axes(std::ostream& out, const PlotData& data, const AxesFrame& frame) {
  const Scale& time = frame.scales.time;
  const Scale& bytes = frame.scales.bytes;
  out << "XSCALE = " << number(time.divisor) << "    # time in " << time.unit << "\n"
      << "YSCALE = " << number(bytes.divisor) << "    # bytes in " << bytes.unit << "\n"
      << "YTOP = " << number(frame.y_top) << "\n"
      << "set xlabel \"time (" << time.unit << ")\"\n"
      << "set ylabel \"heap (" << bytes.unit << ")\"\n"
      << "set xrange [" << number(data.start_time)
      << "/XSCALE:" << number(std::max(data.end_time, data.start_time + 1)) << "/XSCALE]\n"
      << "set yrange [0:YTOP/YSCALE]\n"
      << "set border 3\nset tics nomirror out\nset grid ytics lc rgb \"#dddddd\" front\n"
      << "set key outside below left Left reverse maxcols 1 samplen 2 spacing 1.1\n";
}

// The peak: a dashed line and a labelled point.
void write_peak(std::ostream& out, const PlotData& data, Texts& texts) {
  if (!data.peak) return;
  const PlotPoint& peak = *data.peak;
  std::size_t label = texts.add("peak: " + format_bytes(peak.bytes) + " at " +
                                format_time(data.time_unit, peak.time) + data.origin_text());
  bool right_half = peak.time - data.start_time > 0.6 * (data.end_time - data.start_time);
  out << "PEAKX = " << number(peak.time) << "\nPEAKY = " << number(peak.bytes) << "\n"
      << "set arrow 1 from PEAKX/XSCALE, graph 0 to PEAKX/XSCALE, PEAKY/YSCALE nohead "
         "dt 2 lw 1.5 lc rgb \"black\" front\n"
      << "set label 1 " << Texts::ref(label) << " at PEAKX/XSCALE, PEAKY/YSCALE "
      << (right_half ? "right offset -1,0.8" : "left offset 1,0.8")
      << " point pt 7 ps 1.2 lc rgb \"black\" front\n";
}

// One plot element per band, then the troughs, the markers and the totals.
class PlotList {
 public:
  void add(const std::string& element) { elements_.push_back(element); }
  void write(std::ostream& out) const {
    out << "plot \\\n";
    for (std::size_t i = 0; i < elements_.size(); ++i) {
      out << "    " << elements_[i] << (i + 1 < elements_.size() ? ", \\\n" : "\n");
    }
  }
  bool empty() const { return elements_.empty(); }

 private:
  std::vector<std::string> elements_;
};

// In a terminal without colours every filled band is the same character:
// each band is drawn as the line of its top instead, in a character of its own.
void add_band_lines(PlotList& plot, const PlotData& data, std::size_t block, Texts& texts) {
  std::string source = "DATA index " + std::to_string(block);
  for (std::size_t b = 0; b < data.bands.size(); ++b) {
    plot.add(source + " using ($1/XSCALE):($" + std::to_string(b + 3) + "/YSCALE) with lines lt " +
             std::to_string(b + 1) + " title " + Texts::ref(texts.add(data.bands[b].legend)));
  }
}

void add_bands(PlotList& plot, const PlotData& data, std::size_t block, Texts& texts,
               bool terminal) {
  if (data.times.empty()) return;
  std::string source = "DATA index " + std::to_string(block);
  for (std::size_t b = 0; b < data.bands.size(); ++b) {
    std::string lower = "($" + std::to_string(b + 2) + "/YSCALE)";
    std::string upper = "($" + std::to_string(b + 3) + "/YSCALE)";
    bool leak = data.bands[b].kind == BandKind::leak;
    std::string style = leak ? "fs solid 0.95 border lc rgb \"" + std::string(kTroughColour) + "\""
                             : "fs solid 0.9 noborder";
    plot.add(source + " using ($1/XSCALE):" + lower + ":" + upper + " with filledcurves " + style +
             " fc rgb \"" + band_colour(data.bands, b, terminal) + "\" title " +
             Texts::ref(texts.add(data.bands[b].legend)));
  }
}

void add_troughs(PlotList& plot, const PlotData& data, Blocks& blocks, Texts& texts) {
  for (const PlotTroughs& troughs : data.troughs) {
    if (troughs.points.empty()) continue;
    std::string comment =
        "the troughs of band " + std::to_string(troughs.band + 1) + ": time, bytes";
    std::size_t block = blocks.add(comment, points_block(troughs.points));
    plot.add("DATA index " + std::to_string(block) +
             " using ($1/XSCALE):($2/YSCALE) with linespoints lw 2.5 dt 1 pt 9 ps 1.6 lc rgb \"" +
             kTroughColour + "\" title " + Texts::ref(texts.add(troughs.legend)));
  }
}

// STRATA_MARK markers: dotted vertical lines, labelled at the top by `set
// label` (a `labels` plot would read backslashes in the texts as escapes).
void add_markers(std::ostream& out, PlotList& plot, const PlotData& data, Blocks& blocks,
                 Texts& texts) {
  if (data.markers.empty()) return;
  std::ostringstream body;
  for (std::size_t i = 0; i < data.markers.size(); ++i) {
    const PlotMarker& marker = data.markers[i];
    body << number(marker.time) << '\n';
    out << "set label " << i + 2 << " " << Texts::ref(texts.add(marker.label)) << " at "
        << number(marker.time) << "/XSCALE, YTOP/YSCALE rotate by 90 right offset 0.9,-0.4 "
        << "font \",8\" tc rgb \"#333333\"\n";
  }
  std::string source = "DATA index " + std::to_string(blocks.add("markers: time", body.str()));
  std::string title = "notitle";
  if (data.marker_count > data.markers.size()) {
    title = "title " + Texts::ref(texts.add("markers: " + std::to_string(data.markers.size()) +
                                            " of " + std::to_string(data.marker_count) +
                                            " drawn (the first in each slice of the time axis)"));
  }
  plot.add(source +
           " using ($1/XSCALE):(0):(0):(YTOP/YSCALE) with vectors nohead dt 3 lc rgb \"#555555\" " +
           title);
}

void add_totals(PlotList& plot, const PlotData& data, Blocks& blocks, Texts& texts) {
  if (data.totals.empty()) return;
  std::size_t block =
      blocks.add("the total at every snapshot: time, bytes", points_block(data.totals));
  std::string legend = data.bands.empty()
                           ? "total"
                           : "total at every snapshot (call sites only at the detailed ones)";
  plot.add("DATA index " + std::to_string(block) +
           " using ($1/XSCALE):($2/YSCALE) with lines lw 1.5 lc rgb \"black\" title " +
           Texts::ref(texts.add(legend)));
}

constexpr const char* kPrintAxes = R"(
# For the HTML page: where the axes are in the picture.
print sprintf("strata-axes %g %g %g %g %g %g %g %g", GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, \
    GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX)
)";

std::string header(const std::string& data_name) {
  for (char c : data_name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '+' &&
        c != '_') {
      throw std::logic_error("gnuplot_job: a data file name gnuplot could read as code");
    }
  }
  return "# The heap by call site, drawn by gnuplot 5.4 for strata plot.  To draw it\n"
         "# again (after restyling), run gnuplot on this file in its directory.\n"
         "DATA = '" +
         data_name + "'\n";
}

}  // namespace

GraphScales graph_scales(const PlotData& data) {
  Scale time = time_scale(data.time_unit, data.end_time);
  time.unit += data.origin_text();
  return {time, byte_scale(data.max_total())};
}

GnuplotJob gnuplot_job(const PlotData& data, const GraphOptions& options,
                       const std::string& data_name, const std::string& output_name) {
  Texts texts(options.format == GraphFormat::terminal);
  texts.add(output_name);
  texts.add(data.title);
  Blocks blocks;
  AxesFrame frame = axes_frame(data);
  std::ostringstream body;  // everything after reading the texts
  body << terminal(options) << "\nset output T[1]\nset title T[2]\n";
  write_axes(body, data, frame);
  bool terminal = options.format == GraphFormat::terminal;
  // Characters: no dotted grid, no rotated text (the y label, the markers'
  // labels): the unit goes with the numbers.
  // UTF-8: gnuplot then measures the key's texts in characters, not bytes
  // (a key of CJK names was laid out wider than the terminal, over itself).
  if (terminal) {
    body << "set encoding utf8\n"
         << "unset grid\nunset ylabel\nset format y \"%g " << frame.scales.bytes.unit << "\"\n";
  }
  write_peak(body, data, texts);

  PlotList plot;
  if (!data.times.empty()) {
    std::size_t block = blocks.add(
        "the bands: time, 0, then the top of each band (bytes, stacked from the bottom band up)",
        bands_block(data));
    if (terminal && !options.colour) {
      add_band_lines(plot, data, block, texts);
    } else {
      add_bands(plot, data, block, texts, terminal);
    }
  }
  add_troughs(plot, data, blocks, texts);
  add_totals(plot, data, blocks, texts);
  if (!terminal) add_markers(body, plot, data, blocks, texts);
  if (plot.empty()) plot.add("NaN notitle");
  plot.write(body);
  if (options.format == GraphFormat::html) body << kPrintAxes;

  std::ostringstream script, file;
  std::string read = kReadTexts;
  read.replace(read.find("%TEXTS%"), 7, std::to_string(texts.size()));
  script << header(data_name) << read << body.str();
  texts.write(file);
  file << blocks.str();
  return {script.str(), file.str()};
}

}  // namespace strata
