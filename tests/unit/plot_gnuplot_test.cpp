// SPDX-License-Identifier: GPL-2.0-or-later
// The gnuplot script and its data, and the HTML page: texts from the profile
// are data, never script; the page escapes them.
#include <nlohmann/json.hpp>
#include <sstream>

#include "render/page.hpp"
#include "render/page_texts.hpp"
#include "render/render_gnuplot.hpp"
#include "strata_profile.hpp"
#include "view/plot_legend.hpp"

namespace strata::test {
namespace {

const std::string kHostile = "a\"b'c`touch x`$(touch y)\\n\\ @z %s <script> system(\"w\")";

PlotData hostile_data() {
  PlotData data;
  data.title = "title " + kHostile;
  data.time_unit = "B";
  data.end_time = 300;
  data.times = {100, 200, 300};
  data.between = {false, false, false};
  PlotBand leak;
  leak.kind = BandKind::leak;
  leak.legend = "LEAK: " + kHostile;
  leak.frames = {kHostile};
  leak.bytes = {10, 20, 30};
  PlotBand other;
  other.kind = BandKind::context;
  other.legend = "site </script><b>";
  other.bytes = {1, 2, 3};
  data.bands = {leak, other};
  data.troughs = {{0, "LEAK: its troughs", {{100, 10}, {200, 20}}}};
  data.markers = {{150, "mark " + kHostile}};
  data.peak = PlotPoint{300, 33};
  return data;
}

// The lines of the data file's first block (the texts).
std::vector<std::string> text_lines(const std::string& data) {
  std::vector<std::string> lines;
  std::istringstream in(data);
  std::string line;
  while (std::getline(in, line) && !line.empty()) {
    if (!line.starts_with("#")) lines.push_back(line);
  }
  return lines;
}

TEST(GraphFormat, ByExtension) {
  EXPECT_EQ(graph_format("a.svg"), GraphFormat::svg);
  EXPECT_EQ(graph_format("dir/A.SVG"), GraphFormat::svg);
  EXPECT_EQ(graph_format("a.png"), GraphFormat::png);
  EXPECT_EQ(graph_format("a.pdf"), GraphFormat::pdf);
  EXPECT_EQ(graph_format("a.html"), GraphFormat::html);
  EXPECT_EQ(graph_format("a.htm"), GraphFormat::html);
  EXPECT_EQ(graph_format("a.jpg"), std::nullopt);
  EXPECT_EQ(graph_format("a"), std::nullopt);
  EXPECT_EQ(graph_format("dir.svg/a"), std::nullopt);
}

TEST(GnuplotJob, NoTextOfTheProfileInTheScript) {
  GraphOptions options;
  options.format = GraphFormat::png;
  GnuplotJob job = gnuplot_job(hostile_data(), options, "graph.dat", "out \"x\".png");
  for (const char* part : {"touch", "<script>", "system(", "@z", "out \"", "title a", "site <"}) {
    EXPECT_FALSE(contains(job.script, part)) << part << " in\n" << job.script;
  }
  EXPECT_TRUE(contains(job.script, "DATA = 'graph.dat'"));
  EXPECT_TRUE(contains(job.script, "set terminal pngcairo size 1200,800 noenhanced"));
  EXPECT_TRUE(contains(job.script, "set output T[1]\nset title T[2]\n"));
  EXPECT_FALSE(contains(job.script, "strata-axes"));
}

TEST(GnuplotJob, TextsAreNumberedAndEncoded) {
  GnuplotJob job = gnuplot_job(hostile_data(), {}, "graph.dat", "out \"x\".svg");
  std::vector<std::string> lines = text_lines(job.data);
  ASSERT_EQ(lines.size(), 7u);  // output, title, peak, 2 bands, troughs, marker
  EXPECT_EQ(lines[0], "1\tout \001qx\001q.svg");
  EXPECT_EQ(lines[1].substr(0, 11), "2\ttitle a\001q");
  for (const std::string& line : lines) {
    std::string text = line.substr(line.find('\t') + 1);
    EXPECT_EQ(text.find_first_of("\"\\\t"), std::string::npos) << line;
  }
  EXPECT_TRUE(contains(job.data, "LEAK: a\001qb'c`touch x`$(touch y)\001bn\001b @z %s"));
}

// The workaround for gnuplot's SVG is in the texts gnuplot is given, not in
// the graph's data (the page holds names as they are, HtmlPage.NamesAsTheyAre).
TEST(GnuplotText, BreaksTheEndOfCdata) {
  EXPECT_EQ(gnuplot_text("a]]>b"), "a]]\xE2\x80\x8B>b");
  EXPECT_EQ(gnuplot_text("a]>b ]] >"), "a]>b ]] >");
}

TEST(GnuplotText, BreaksCharacterReferences) {
  EXPECT_EQ(gnuplot_text("a&#x1b;b"), "a&\xE2\x80\x8B#x1b;b");
  EXPECT_EQ(gnuplot_text("&&#"), "&&\xE2\x80\x8B#");
  EXPECT_EQ(gnuplot_text("a & #b &amp; <script>"), "a & #b &amp; <script>");
}

TEST(GnuplotJob, TextsGivenToGnuplotBreakCharacterReferences) {
  PlotData data = hostile_data();
  data.bands[1].legend = "parse&#60;tag&#62; ]]>";
  GnuplotJob job = gnuplot_job(data, {}, "graph.dat", "out&#1;.svg");
  std::vector<std::string> lines = text_lines(job.data);
  EXPECT_EQ(lines[0], "1\tout&#1;.svg");  // the output file's name as it is
  EXPECT_TRUE(contains(job.data, "\tparse&\xE2\x80\x8B#60;tag&\xE2\x80\x8B#62; ]]\xE2\x80\x8B>\n"))
      << job.data;
}

TEST(GnuplotJob, OneElementPerBandAndTheLeakInRed) {
  GnuplotJob job = gnuplot_job(hostile_data(), {}, "graph.dat", "out.svg");
  EXPECT_TRUE(contains(job.script, "using ($1/XSCALE):($2/YSCALE):($3/YSCALE) with filledcurves"));
  EXPECT_TRUE(contains(job.script, "using ($1/XSCALE):($3/YSCALE):($4/YSCALE) with filledcurves"));
  EXPECT_TRUE(contains(job.script, "fc rgb \"#d7301f\""));
  EXPECT_TRUE(contains(job.script, "with linespoints"));     // the troughs
  EXPECT_TRUE(contains(job.script, "with vectors nohead"));  // the marker
  EXPECT_TRUE(contains(job.script, "set label 2 T["));       // its label
  EXPECT_TRUE(contains(job.script, "PEAKX = 300.0"));
  // The bands' data: time, 0, then the stacked tops.
  EXPECT_TRUE(contains(job.data, "\n100.0\t0\t10\t11\n")) << job.data;
  EXPECT_TRUE(contains(job.data, "\n300.0\t0\t30\t33\n")) << job.data;
}

// gnuplot's ansi256 maps light greys past colour 255 (#cccccc to 259): the
// terminal's other places and extra heap are colours of the cube instead
// (188 and 145, a little blue not to be greys of the ramp); its legend is
// strata's lines, in UTF-8 or in ASCII.
TEST(GnuplotJob, TerminalColoursAndTexts) {
  PlotData data = hostile_data();
  data.bands[1].kind = BandKind::other;
  PlotBand extra;
  extra.kind = BandKind::extra;
  extra.legend = "extra \xE6\xBC\xA2";
  extra.bytes = {1, 1, 1};
  data.bands.push_back(extra);
  GraphOptions options;
  options.format = GraphFormat::terminal;
  GnuplotJob job = gnuplot_job(data, options, "graph.dat", "graph.txt");
  EXPECT_FALSE(contains(job.script, "#cccccc"));
  EXPECT_FALSE(contains(job.script, "#a6a6a6"));
  EXPECT_TRUE(contains(job.script, "fc rgb \"#c0c0c8\""));
  EXPECT_TRUE(contains(job.script, "fc rgb \"#95959d\""));
  EXPECT_TRUE(contains(job.script, "set encoding utf8\n"));
  EXPECT_TRUE(contains(job.script, "unset key\n"));
  ASSERT_EQ(job.key.size(), data.bands.size() + 1);  // and the troughs
  EXPECT_EQ(job.key.back(), "  \x1b[38;5;201moooo\x1b[0m " + data.troughs[0].legend);
  EXPECT_EQ(job.key[2], "  \x1b[38;5;145mXXXX\x1b[0m extra \xE6\xBC\xA2");
  options.utf8 = false;
  options.colours = 16;
  job = gnuplot_job(data, options, "graph.dat", "graph.txt");
  EXPECT_EQ(job.key[2], "  \x1b[1;30mXXXX\x1b[0m extra ?");
  EXPECT_FALSE(contains(job.script, "set encoding utf8"));
  job = gnuplot_job(data, {}, "graph.dat", "graph.svg");
  EXPECT_TRUE(contains(job.script, "fc rgb \"#cccccc\""));
  EXPECT_FALSE(contains(job.data, "\xE2\x80\x8B"));
}

// What gnuplot wrote to a terminal, made safe: colours of the palette, UTF-8.
TEST(TerminalOutput, ColoursOfThePaletteAndValidUtf8) {
  GraphOptions options;
  options.format = GraphFormat::terminal;
  EXPECT_EQ(terminal_output("\x1b[38;5;259mX\x1b[38;5;160m\xE2\x86", options),
            "\x1b[38;5;255mX\x1b[38;5;160m??");
  options.colours = 16;
  EXPECT_EQ(terminal_output("\x1b[38;5;160mX\x1b[38;5;32mY", options), "\x1b[31mX\x1b[36mY");
  options.utf8 = false;
  EXPECT_EQ(terminal_output("a \xE2\x86\x90 b", options), "a ? b");
  EXPECT_EQ(sgr_colour(201, 16), "1;35");
  EXPECT_EQ(sgr_colour(188, 256), "38;5;188");
}

TEST(MiddleCut, KeepsBothEndsOnCharacters) {
  EXPECT_EQ(middle_cut("abcdefghij", 10), "abcdefghij");
  EXPECT_EQ(middle_cut("abcdefghij", 5), "ab\xE2\x80\xA6ij");
  EXPECT_EQ(middle_cut("abcdefghij", 7, "..."), "ab...ij");
  EXPECT_EQ(middle_cut("\xE2\x86\x90\xE2\x86\x90\xE2\x86\x90\xE2\x86\x90", 3),
            "\xE2\x86\x90\xE2\x80\xA6\xE2\x86\x90");
  EXPECT_EQ(ascii_text("a \xE2\x86\x90 b\xE2\x80\xA6 \xE6\xBC\xA2"), "a <- b... ?");
}

TEST(HtmlPage, EscapesEverything) {
  PageData data;
  data.graph = hostile_data();
  std::string page = page_html(data);
  EXPECT_TRUE(
      contains(page, "<title>title a&quot;b&#39;c`touch x`$(touch y)\\n\\ @z %s &lt;script&gt;"));
  std::size_t scripts = 0;
  for (std::size_t at = page.find("<script"); at != std::string::npos;
       at = page.find("<script", at + 1)) {
    ++scripts;
  }
  EXPECT_EQ(scripts, 2u);
  EXPECT_FALSE(contains(page, "</script><b>"));
  std::size_t start = page.find("id=\"strata-data\">") + 17;
  nlohmann::json json =
      nlohmann::json::parse(page.substr(start, page.find("</script>", start) - start));
  EXPECT_EQ(json["bands"][0]["legend"], "LEAK: " + kHostile);
  EXPECT_EQ(json["bands"][0]["kind"], "leak");
  EXPECT_EQ(json["bands"][1]["legend"], "site </script><b>");
  EXPECT_EQ(json["bands"][1]["bytes"], nlohmann::json({1, 2, 3}));
}

// The page holds the names as they are: no zero-width space after "&" or
// in "]]>" (gnuplot's SVG needs them, the page's script shows text as text).
TEST(HtmlPage, NamesAsTheyAre) {
  PageData data;
  data.graph = hostile_data();
  data.graph.bands[1].legend = "parse&#60;tag&#62; ]]>";
  data.graph.bands[1].frames = {"parse&#60;tag&#62; (a.c:1)"};
  data.graph.markers[0].label = "mark &#x1b;";
  std::string page = page_html(data);
  EXPECT_FALSE(contains(page, "\xE2\x80\x8B"));
  std::size_t start = page.find("id=\"strata-data\">") + 17;
  nlohmann::json json =
      nlohmann::json::parse(page.substr(start, page.find("</script>", start) - start));
  EXPECT_EQ(json["bands"][1]["legend"], "parse&#60;tag&#62; ]]>");
  EXPECT_EQ(json["markers"][0][1], "mark &#x1b;");
}

// ---- the page's shared texts (page_texts.hpp) ----------------------------------

const std::string kLong = "ns::keep_" + std::string(100, 'x');

TEST(PageTexts, ShortTextsAndTextsWithoutNamesAsThemselves) {
  PageTexts texts;
  texts.offer(kLong);
  EXPECT_EQ(texts.text("short"), "short");
  EXPECT_EQ(texts.text(std::string(200, 'y')), std::string(200, 'y'));
  EXPECT_EQ(texts.strings(), nlohmann::json::array());  // offered, never pointed to
}

TEST(PageTexts, TextsPointToTheNamesTheyHold) {
  PageTexts texts;
  EXPECT_EQ(texts.index("k.c"), 0u);
  EXPECT_EQ(texts.index(kLong), 1u);
  EXPECT_EQ(texts.index(kLong), 1u);
  EXPECT_EQ(texts.text(kLong), nlohmann::json({1}));
  EXPECT_EQ(texts.text("8% at " + kLong + " (k.c:1) <- " + kLong),
            nlohmann::json({"8% at ", 1, " (k.c:1) <- ", 1}));
  texts.offer(kLong + "::run");  // the longest at a place
  EXPECT_EQ(texts.text(kLong + "::run, " + kLong + "::runs"), nlohmann::json({2, ", ", 2, "s"}));
  EXPECT_EQ(texts.strings(), nlohmann::json({"k.c", kLong, kLong + "::run"}));
}

TEST(PageTexts, OnlyNamesShownAsTheyAre) {
  PageTexts texts;
  std::string tab = kLong + "\t";
  texts.offer(tab);
  EXPECT_EQ(texts.text(tab + "!"), tab + "!");
  EXPECT_EQ(texts.index(tab), 0u);  // a frame's field is still in the table
}

// Names that share their start beyond kPageLengthsTried lengths: a text is
// still read in time linear in it, and its pieces are always the text.
TEST(PageTexts, ManyNamesOfOneStart) {
  PageTexts texts;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < 3 * kPageLengthsTried; ++i) {
    names.push_back(kLong + std::string(i, 'y'));
    texts.offer(names.back());
  }
  for (const std::string& name : {names.front(), names[kPageLengthsTried], names.back()}) {
    nlohmann::json text = texts.text("at " + name + ".");
    std::string whole;
    if (text.is_string()) {
      whole = text;
    } else {
      for (const nlohmann::json& piece : text)
        whole += (piece.is_string() ? piece : texts.strings()[piece.get<int>()]).get<std::string>();
    }
    EXPECT_EQ(whole, "at " + name + ".");
  }
  EXPECT_EQ(texts.text("at " + names.back() + "."), nlohmann::json({"at ", 2, "."}));
}

// The page's data: the report's frames are indexes into report_frames, whose
// texts are indexes into strings; the bands' and the tree's texts point into
// strings; a name is written once.
TEST(HtmlPage, EachNameOnce) {
  Frame frame;
  frame.function = kLong;
  frame.file = "k.c";
  frame.line = 1;
  PageData data;
  data.graph = hostile_data();
  data.graph.bands[0].frames = {kLong + " (k.c:1)"};
  data.graph.bands[0].detail = "growth: 100% at " + kLong + " (k.c:1)";
  ReportContext context;
  context.frames = {frame};
  data.report.contexts = {context};
  data.frames = {frame};
  data.parent = {0};
  data.node_frames = {{0}};
  std::string page = page_html(data);
  std::size_t written = 0;
  for (std::size_t at = page.find(kLong); at != std::string::npos; at = page.find(kLong, at + 1))
    ++written;
  EXPECT_EQ(written, 1u);
  std::size_t start = page.find("id=\"strata-data\">") + 17;
  nlohmann::json json =
      nlohmann::json::parse(page.substr(start, page.find("</script>", start) - start));
  EXPECT_EQ(json["strings"], nlohmann::json({kLong, "k.c"}));
  EXPECT_EQ(json["report"]["contexts"][0]["frames"], nlohmann::json({0}));
  EXPECT_EQ(json["report_frames"][0]["function"], 0);
  EXPECT_EQ(json["report_frames"][0]["name"], 0);
  EXPECT_EQ(json["report_frames"][0]["file"], 1);
  EXPECT_EQ(json["report_frames"][0]["object"], nullptr);
  EXPECT_EQ(json["bands"][0]["frames"], nlohmann::json({{0, " (k.c:1)"}}));
  EXPECT_EQ(json["bands"][0]["detail"], nlohmann::json({"growth: 100% at ", 0, " (k.c:1)"}));
  EXPECT_EQ(json["frames"], nlohmann::json({{0, " (k.c:1)"}}));
  EXPECT_EQ(json["bands"][1]["detail"], "");
}

}  // namespace
}  // namespace strata::test
