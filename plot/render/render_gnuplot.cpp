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

#include "util/shown.hpp"
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

// ---- the texts gnuplot is given ------------------------------------------------------

std::string gnuplot_text(std::string_view text) {
  constexpr std::string_view kZeroWidthSpace = "\xE2\x80\x8B";
  std::string out;
  for (char c : text) {
    bool breaks_xml = (c == '>' && out.ends_with("]]")) || (c == '#' && out.ends_with('&'));
    if (breaks_xml) out += kZeroWidthSpace;
    out += c;
  }
  return out;
}

namespace {

// ---- colours ----------------------------------------------------------------------

// A palette: the colours of each kind of band, the leaks' and the other
// call sites' taken in turn.
template <typename Colour, std::size_t Leaks, std::size_t Contexts, std::size_t Ages>
struct Palette {
  std::array<Colour, Leaks> leaks;
  std::array<Colour, Contexts> contexts;
  Colour other, extra, stacks, trough;
  std::array<Colour, Ages> ages;  // the heap by age, the oldest first

  Colour of(const std::vector<PlotBand>& bands, std::size_t band) const {
    std::size_t same_kind = 0;
    for (std::size_t b = 0; b < band; ++b) same_kind += bands[b].kind == bands[band].kind;
    switch (bands[band].kind) {
      case BandKind::leak:
        return leaks[same_kind % Leaks];
      case BandKind::context:
        return contexts[same_kind % Contexts];
      case BandKind::extra:
        return extra;
      case BandKind::stacks:
        return stacks;
      case BandKind::age:
        return ages[same_kind % Ages];
      case BandKind::other:
        break;
    }
    return other;
  }
};

// Leak suspects in reds, the other call sites in blues and greens, the rest
// grey; the troughs dark red; the layers of the heap by age in browns, the
// oldest darkest, as strata of rock.
constexpr Palette<const char*, 5, 12, 10> kColours = {
    {"#d7301f", "#fc8d59", "#990000", "#f4a582", "#ef6548"},
    {"#2c7fb8", "#7fcdbb", "#41b6c4", "#a1dab4", "#225ea8", "#6baed6", "#238b45", "#9ecae1",
     "#756bb1", "#74c476", "#bcbddc", "#08589e"},
    "#cccccc",
    "#a6a6a6",
    "#e3dccb",
    "#67000d",
    {"#4d2a0f", "#6b3d14", "#8c5319", "#a86b22", "#c0853a", "#d19f57", "#ddb678", "#e7cb99",
     "#efdcb8", "#f6ecd6"}};

// In a terminal, colours of the 256-colour palette's cube (16 + 36 r + 6 g
// + b): the same hues, and no grey of the palette's ramp (gnuplot 5.4 maps
// a light grey past its last colour, to 256 or 259).  The troughs are
// magenta (201), seen on dark and light backgrounds alike, where the dark
// red of the pictures was lost on a dark one.
constexpr Palette<int, 5, 12, 10> kTerminalColours = {
    {160, 209, 124, 217, 203},
    {32, 116, 37, 151, 25, 74, 28, 153, 97, 114, 183, 24},
    188,
    145,
    187,
    201,
    {94, 130, 136, 137, 173, 179, 180, 186, 223, 230}};

// The colour gnuplot's ansi256 maps to cube colour `index`: it takes a
// channel's level as value * 6 / 256, so each channel is the middle of its
// level's range; a grey of the cube gets a little more blue, so that it is
// not taken for a grey of the ramp.
std::string terminal_rgb(int index) {
  int cube = index - 16;
  int levels[3] = {cube / 36, cube / 6 % 6, cube % 6};
  int values[3];
  for (int i = 0; i < 3; ++i) values[i] = (levels[i] * 256 + 128) / 6;
  if (levels[0] == levels[1] && levels[1] == levels[2]) values[2] += 8;
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", values[0], values[1], values[2]);
  return text;
}

// ---- the data file ------------------------------------------------------------------

// A text as gnuplot's data reader leaves alone: it reads a double quote as
// a quote and a backslash as an escape, so they are written \001q and
// \001b, and put back by the script.  (shown() has already replaced the
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

// A text as a terminal shows it: with the cells of wide characters filled
// (terminal_cells), or in ASCII without a UTF-8 locale.
std::string terminal_text(const std::string& text, bool utf8) {
  return utf8 ? terminal_cells(text) : ascii_text(text);
}

// The texts, numbered from 1 in the order they are added: the output
// file's name first, as it is; then each as gnuplot is given it
// (gnuplot_text), for the terminal as it shows them (terminal_text).
class Texts {
 public:
  Texts(const GraphOptions& options, const std::string& output_name)
      : terminal_(options.format == GraphFormat::terminal), utf8_(options.utf8) {
    texts_.push_back(output_name);
  }
  std::size_t add(const std::string& text) {
    std::string given = gnuplot_text(text);
    texts_.push_back(terminal_ ? terminal_text(given, utf8_) : given);
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
  bool utf8_;
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

// `plot_lines`: the terminal's lines left to gnuplot's plot, below which
// strata prints the legend.
std::string terminal_line(const GraphOptions& options, int plot_lines) {
  bool dumb = options.format == GraphFormat::terminal;
  std::string size =
      std::to_string(options.width) + "," + std::to_string(dumb ? plot_lines : options.height);
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
      << "set border 3\nset tics nomirror out\nset grid ytics lc rgb \"#dddddd\" front\n";
}

// The legend's room below the plot, computed from its rows: a first plot,
// of nothing and to no file, measures gnuplot's line of text (it knows
// its font's size only once it has drawn); the key is set at the bottom
// left of the picture and the plot's bottom margin above it, with room for
// the time axis' numbers and label, so that the two never overlap.
void write_key_room(std::ostream& out, std::size_t rows) {
  out << "# The legend's room: " << rows << " rows below the plot.\n"
      << "set output '/dev/null'\nset yrange [0:1]\nplot 0 notitle\n"
      << "LINE = 1.0 * GPVAL_TERM_VCHAR / GPVAL_TERM_YSIZE    # a line of text, of the picture\n"
      << "KEYROWS = " << rows << "\n"
      << "KEYTOP = (KEYROWS * 1.1 + 0.6) * LINE\n"
      << "set bmargin at screen KEYTOP + 3.4 * LINE\n"
      << "set key at screen 0.01, screen KEYTOP left top Left reverse maxcols 1 samplen 2 "
         "spacing 1.1\n";
}

// The peak: a dashed line and a labelled point.
// In a terminal of `columns` (0: a picture), its label is cut to the
// columns between the peak and the plot's border on its side (the y axis'
// numbers take 14 or so), or left out when fewer than 8: it was drawn over
// the border.
void write_peak(std::ostream& out, const PlotData& data, Texts& texts, std::size_t columns) {
  if (!data.peak) return;
  const PlotPoint& peak = *data.peak;
  std::string text = "peak: " + format_bytes(peak.bytes) + " at " +
                     format_time(data.time_unit, peak.time) + data.origin_text();
  double at = (peak.time - data.start_time) / std::max(data.end_time - data.start_time, 1.0);
  bool right_half = at > 0.6;
  if (columns > 0) {
    double plot = static_cast<double>(columns) - 14;
    double room = (right_half ? at : 1 - at) * plot - 3;
    text = room < 8 ? "" : middle_cut(text, static_cast<std::size_t>(room));
  }
  std::size_t label = texts.add(text);
  out << "PEAKX = " << number(peak.time) << "\nPEAKY = " << number(peak.bytes) << "\n"
      << "set arrow 1 from PEAKX/XSCALE, graph 0 to PEAKX/XSCALE, PEAKY/YSCALE nohead "
         "dt 2 lw 1.5 lc rgb \"black\" front\n"
      << "set label 1 " << Texts::ref(label) << " at PEAKX/XSCALE, PEAKY/YSCALE "
      << (right_half ? "right offset -1,0.8" : "left offset 1,0.8")
      << " point pt 7 ps 1.2 lc rgb \"black\" front\n";
}

// A line of the legend: its text, and for a terminal the colour (an index
// of the 256-colour palette, -1: the default) and the character of its key.
struct KeyEntry {
  std::string text;
  int colour = -1;
  char mark = 'X';
};

// One plot element per band, then the troughs, the markers and the totals;
// the legend of each: gnuplot's key, or the terminal's lines (`keys`).
class PlotList {
 public:
  PlotList(Texts& texts, bool terminal) : texts_(texts), terminal_(terminal) {}
  void add(const std::string& element) { elements_.push_back(element + " notitle"); }
  void add(const std::string& element, KeyEntry key) {
    if (terminal_) {
      add(element);
      keys_.push_back(std::move(key));
    } else {
      elements_.push_back(element + " title " + Texts::ref(texts_.add(key.text)));
      keys_.push_back(std::move(key));
    }
  }
  const std::vector<KeyEntry>& keys() const { return keys_; }
  void write(std::ostream& out) const {
    out << "plot \\\n";
    for (std::size_t i = 0; i < elements_.size(); ++i) {
      out << "    " << elements_[i] << (i + 1 < elements_.size() ? ", \\\n" : "\n");
    }
  }
  bool empty() const { return elements_.empty(); }

 private:
  Texts& texts_;
  bool terminal_;
  std::vector<std::string> elements_;
  std::vector<KeyEntry> keys_;
};

// The characters of gnuplot's dumb terminal for line types 1 to 7, without
// colours (line type 8 is 1's again).
constexpr std::string_view kMonoMarks = "*#$%@&=";

// In a terminal without colours every filled band is the same character:
// each band is drawn as the line of its top instead, in a character of its own.
void add_band_lines(PlotList& plot, const PlotData& data, std::size_t block) {
  std::string source = "DATA index " + std::to_string(block);
  for (std::size_t b = 0; b < data.bands.size(); ++b) {
    std::size_t type = b % kMonoMarks.size();
    plot.add(source + " using ($1/XSCALE):($" + std::to_string(b + 3) + "/YSCALE) with lines lt " +
                 std::to_string(type + 1),
             {data.bands[b].legend, -1, kMonoMarks[type]});
  }
}

void add_bands(PlotList& plot, const PlotData& data, std::size_t block, bool terminal) {
  if (data.times.empty()) return;
  std::string source = "DATA index " + std::to_string(block);
  for (std::size_t b = 0; b < data.bands.size(); ++b) {
    std::string lower = "($" + std::to_string(b + 2) + "/YSCALE)";
    std::string upper = "($" + std::to_string(b + 3) + "/YSCALE)";
    bool leak = data.bands[b].kind == BandKind::leak;
    std::string style = leak
                            ? "fs solid 0.95 border lc rgb \"" + std::string(kColours.trough) + "\""
                            : "fs solid 0.9 noborder";
    int colour = kTerminalColours.of(data.bands, b);
    std::string fill = terminal ? terminal_rgb(colour) : kColours.of(data.bands, b);
    plot.add(source + " using ($1/XSCALE):" + lower + ":" + upper + " with filledcurves " + style +
                 " fc rgb \"" + fill + "\"",
             {data.bands[b].legend, colour, 'X'});
  }
}

// The troughs: a dark red line of diamonds; in a terminal, magenta o's.
void add_troughs(PlotList& plot, const PlotData& data, Blocks& blocks, bool terminal) {
  for (const PlotTroughs& troughs : data.troughs) {
    if (troughs.points.empty()) continue;
    std::string comment =
        "the troughs of band " + std::to_string(troughs.band + 1) + ": time, bytes";
    std::size_t block = blocks.add(comment, points_block(troughs.points));
    std::string style =
        terminal ? "with points pt \"o\" lc rgb \"" + terminal_rgb(kTerminalColours.trough) + "\""
                 : "with linespoints lw 2.5 dt 1 pt 9 ps 1.6 lc rgb \"" +
                       std::string(kColours.trough) + "\"";
    plot.add("DATA index " + std::to_string(block) + " using ($1/XSCALE):($2/YSCALE) " + style,
             {troughs.legend, kTerminalColours.trough, 'o'});
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
  std::string element =
      source +
      " using ($1/XSCALE):(0):(0):(YTOP/YSCALE) with vectors nohead dt 3 lc rgb \"#555555\"";
  if (data.marker_count > data.markers.size()) {
    plot.add(element, {"markers: " + std::to_string(data.markers.size()) + " of " +
                       std::to_string(data.marker_count) +
                       " drawn (the first in each slice of the time axis)"});
  } else {
    plot.add(element);
  }
}

// The total at every snapshot: a black line; in a terminal, a line of -'s.
void add_totals(PlotList& plot, const PlotData& data, Blocks& blocks, bool terminal) {
  if (data.totals.empty()) return;
  std::size_t block =
      blocks.add("the total at every snapshot: time, bytes", points_block(data.totals));
  std::string legend = data.bands.empty()
                           ? "total"
                           : "total at every snapshot (call sites only at the detailed ones)";
  std::string style = terminal ? "with points pt \"-\"" : "with lines lw 1.5 lc rgb \"black\"";
  plot.add("DATA index " + std::to_string(block) + " using ($1/XSCALE):($2/YSCALE) " + style,
           {legend, -1, '-'});
}

constexpr const char* kPrintLayout = R"(
# Where the legend and the plot are, in pixels (points in a PDF) from the
# bottom: the key's top and bottom, the plot's bottom and top.
PICTURE = 1.0 * GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE
print sprintf("strata-layout %g %g %g %g", KEYTOP * PICTURE, \
    (KEYTOP - KEYROWS * 1.1 * LINE) * PICTURE, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX)
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

std::size_t legend_rows(const PlotData& data, GraphFormat format) {
  std::size_t rows = data.times.empty() ? 0 : data.bands.size();
  for (const PlotTroughs& troughs : data.troughs) rows += !troughs.points.empty();
  rows += !data.totals.empty();
  bool thinned = !data.markers.empty() && data.marker_count > data.markers.size();
  rows += format != GraphFormat::terminal && thinned;
  return rows;
}

std::string sgr_colour(int index, int colours) {
  index = std::clamp(index, 0, 255);
  if (colours >= 256) return "38;5;" + std::to_string(index);
  // The colour of `index` in xterm's palette, then the nearest of the 16
  // (xterm's values too); the bright ones as bold, which every terminal has.
  static constexpr int kBasic[16][3] = {
      {0, 0, 0},     {205, 0, 0},     {0, 205, 0},     {205, 205, 0},  {0, 0, 238}, {205, 0, 205},
      {0, 205, 205}, {229, 229, 229}, {127, 127, 127}, {255, 0, 0},    {0, 255, 0}, {255, 255, 0},
      {92, 92, 255}, {255, 0, 255},   {0, 255, 255},   {255, 255, 255}};
  int rgb[3];
  if (index < 16) {
    for (int i = 0; i < 3; ++i) rgb[i] = kBasic[index][i];
  } else if (index < 232) {
    static constexpr int kLevel[6] = {0, 95, 135, 175, 215, 255};
    int cube = index - 16;
    rgb[0] = kLevel[cube / 36], rgb[1] = kLevel[cube / 6 % 6], rgb[2] = kLevel[cube % 6];
  } else {
    rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (index - 232);
  }
  int best = 0;
  long best_distance = -1;
  for (int c = 0; c < 16; ++c) {
    long distance = 0;
    for (int i = 0; i < 3; ++i) distance += long(rgb[i] - kBasic[c][i]) * (rgb[i] - kBasic[c][i]);
    if (best_distance < 0 || distance < best_distance) best = c, best_distance = distance;
  }
  return (best >= 8 ? "1;3" : "3") + std::to_string(best % 8);
}

namespace {

// The lines of a terminal that gnuplot's plot keeps, whatever its legend.
constexpr int kMinPlotLines = 10;

// The terminal's legend: a line per key, its key's characters in its band's
// colour, its text cut in the middle to the line.
std::vector<std::string> terminal_key(const std::vector<KeyEntry>& keys,
                                      const GraphOptions& options) {
  constexpr std::size_t kIndent = 2, kMark = 4;
  std::size_t room = static_cast<std::size_t>(options.width) - kIndent - kMark - 1;
  std::vector<std::string> lines;
  for (const KeyEntry& key : keys) {
    std::string mark(kMark, key.mark);
    if (options.colour && key.colour >= 0) {
      mark = "\x1b[" + sgr_colour(key.colour, options.colours) + "m" + mark + "\x1b[0m";
    }
    std::string text = options.utf8 ? key.text : ascii_text(key.text);
    text = options.utf8 ? middle_cut(text, room) : middle_cut(text, room, "...");
    lines.push_back(std::string(kIndent, ' ') + mark + " " + text);
  }
  return lines;
}

// A terminal's texts drawn by gnuplot, cut to the columns they have.
std::string fit_text(const std::string& text, std::size_t width, bool utf8) {
  std::string shown = utf8 ? text : ascii_text(text);
  return utf8 ? middle_cut(shown, width) : middle_cut(shown, width, "...");
}

}  // namespace

GnuplotJob gnuplot_job(const PlotData& data, const GraphOptions& options,
                       const std::string& data_name, const std::string& output_name) {
  bool terminal = options.format == GraphFormat::terminal;
  std::size_t width = static_cast<std::size_t>(options.width);
  Texts texts(options, output_name);
  texts.add(terminal ? fit_text(data.title, width - 2, options.utf8) : data.title);
  Blocks blocks;
  AxesFrame frame = axes_frame(data);
  std::size_t rows = legend_rows(data, options.format);
  // A terminal's legend is strata's lines below gnuplot's plot, which
  // keeps kMinPlotLines at least (the rest of the legend is one line).
  std::size_t key_lines = rows;
  if (terminal && options.height - static_cast<int>(rows) < kMinPlotLines) {
    key_lines = static_cast<std::size_t>(std::max(options.height - kMinPlotLines, 1));
  }
  int plot_lines = options.height - static_cast<int>(key_lines);
  std::ostringstream body;  // everything after reading the texts
  body << terminal_line(options, plot_lines) << "\n";
  if (!terminal) write_key_room(body, rows);
  body << "set output T[1]\nset title T[2]\n";
  write_axes(body, data, frame);
  // Characters: no dotted grid, no rotated text (the y label, the markers'
  // labels): the unit goes with the numbers; no key (strata writes it).
  // UTF-8: gnuplot then measures texts in characters, not bytes.
  if (terminal) {
    if (options.utf8) body << "set encoding utf8\n";
    body << "unset key\nunset grid\nunset ylabel\nset format y \"%g " << frame.scales.bytes.unit
         << "\"\n";
    std::string xlabel = "time (" + frame.scales.time.unit + ")";
    if (text_width(xlabel) > width - 2) body << "unset xlabel\n";
  }
  write_peak(body, data, texts, terminal ? width : 0);

  PlotList plot(texts, terminal);
  if (!data.times.empty()) {
    std::size_t block = blocks.add(
        "the bands: time, 0, then the top of each band (bytes, stacked from the bottom band up)",
        bands_block(data));
    if (terminal && !options.colour) {
      add_band_lines(plot, data, block);
    } else {
      add_bands(plot, data, block, terminal);
    }
  }
  add_troughs(plot, data, blocks, terminal);
  add_totals(plot, data, blocks, terminal);
  if (!terminal) add_markers(body, plot, data, blocks, texts);
  if (plot.keys().size() != rows) throw std::logic_error("gnuplot_job: legend_rows miscounted");
  if (plot.empty()) plot.add("NaN");
  plot.write(body);
  if (!terminal) body << kPrintLayout;

  std::ostringstream script, file;
  std::string read = kReadTexts;
  read.replace(read.find("%TEXTS%"), 7, std::to_string(texts.size()));
  script << header(data_name) << read << body.str();
  texts.write(file);
  file << blocks.str();
  GnuplotJob job{script.str(), file.str(), {}};
  if (terminal) {
    std::vector<KeyEntry> keys = plot.keys();
    if (keys.size() > key_lines) {
      std::size_t more = keys.size() - key_lines + 1;
      keys.resize(key_lines - 1);
      keys.push_back({"and " + std::to_string(more) + " more (strata report lists them)", -1, ' '});
    }
    job.key = terminal_key(keys, options);
  }
  return job;
}

std::string terminal_output(const std::string& text, const GraphOptions& options) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[at]);
    if (text.compare(at, 7, "\x1b[38;5;") == 0) {
      std::size_t end = text.find('m', at + 7);
      std::string digits = end == std::string::npos ? "" : text.substr(at + 7, end - at - 7);
      if (!digits.empty() && digits.size() <= 4 &&
          digits.find_first_not_of("0123456789") == std::string::npos) {
        out += "\x1b[" + sgr_colour(std::stoi(digits), options.colours) + "m";
        at = end + 1;
        continue;
      }
    }
    std::optional<std::size_t> length =
        c < 0x80 ? std::optional<std::size_t>(1) : utf8_sequence(text, at);
    if (!length || (!options.utf8 && c >= 0x80)) {
      out += '?';
      at += length.value_or(1);
    } else {
      out.append(text, at, *length);
      at += *length;
    }
  }
  return out;
}

}  // namespace strata
