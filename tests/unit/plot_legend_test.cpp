// SPDX-License-Identifier: GPL-2.0-or-later
// The texts of the graph: safe texts, short names, and the legends that tell
// call sites apart.
#include "view/plot_legend.hpp"

#include <gtest/gtest.h>

#include "strata_profile.hpp"

namespace strata::test {
namespace {

const std::string kArrow = " \xE2\x86\x90 ";   // " ← "
const std::string kEllipsis = "\xE2\x80\xA6";  // "…"

// ---- texts -------------------------------------------------------------------

TEST(PlainText, WidthAndCuts) {
  EXPECT_EQ(text_width("abc"), 3u);
  EXPECT_EQ(text_width("a\xE2\x86\x90"
                       "b"),
            3u);
  EXPECT_EQ(cut_text("abcdef", 6), "abcdef");
  EXPECT_EQ(cut_text("abcdef", 4), "abc" + kEllipsis);
  EXPECT_EQ(cut_text("\xE2\x86\x90\xE2\x86\x90\xE2\x86\x90", 2), "\xE2\x86\x90" + kEllipsis);
  EXPECT_EQ(cut_text("abc", 0), "");
}

// Legends are measured in the columns a terminal gives them: CJK and emoji
// take two, combining marks and zero-width spaces none.
TEST(PlainText, WidthInDisplayColumns) {
  const std::string kHan = "\xE6\xBC\xA2";        // U+6F22, wide
  const std::string kParty = "\xF0\x9F\x8E\x89";  // U+1F389, an emoji
  const std::string kAcute = "\xCC\x81";          // U+0301, combining
  const std::string kZwsp = "\xE2\x80\x8B";       // U+200B
  EXPECT_EQ(text_width(kHan + kHan + "a"), 5u);
  EXPECT_EQ(text_width(kParty), 2u);
  EXPECT_EQ(text_width("e" + kAcute), 1u);
  EXPECT_EQ(text_width("]]" + kZwsp + ">"), 3u);
  EXPECT_EQ(text_width("\xFF"), 1u);  // not UTF-8: a byte, a column
  EXPECT_EQ(char_width(U'\u2026'), 1u);
  EXPECT_EQ(char_width(U'\uFF21'), 2u);  // fullwidth A
  // Cut to columns: 5 columns hold two wide characters and the ellipsis.
  EXPECT_EQ(cut_text(kHan + kHan + kHan + kHan, 5), kHan + kHan + kEllipsis);
  EXPECT_EQ(cut_text(kHan + kHan + kHan + kHan, 4), kHan + kEllipsis);
  EXPECT_EQ(text_width(cut_text(kParty + kParty + kParty, 4)), 3u);
  // The terminal: a zero-width space fills a wide character's second cell.
  EXPECT_EQ(terminal_cells("a" + kHan + "b" + kParty), "a" + kHan + kZwsp + "b" + kParty + kZwsp);
  EXPECT_EQ(terminal_cells("plain"), "plain");
}

TEST(ChooseLegends, WideNamesFitTheirColumns) {
  std::string wide;
  for (int i = 0; i < 100; ++i) wide += "\xE6\xBC\xA2";
  std::vector<std::vector<LegendFrame>> stacks = {{{wide, "w.c:1", true, ""}},
                                                  {{"f", "w.c:2", true, ""}}};
  std::vector<std::string> legends = choose_legends(stacks, 40);
  EXPECT_LE(text_width(legends[0]), 40u);
  EXPECT_GE(text_width(legends[0]), 39u);
}

// ---- names -------------------------------------------------------------------------

TEST(AllocatorWrapper, KnownWrappers) {
  EXPECT_TRUE(allocator_wrapper("xmalloc"));
  EXPECT_TRUE(allocator_wrapper("g_malloc0"));
  EXPECT_TRUE(allocator_wrapper("g_try_malloc"));
  EXPECT_TRUE(allocator_wrapper("strdup"));
  EXPECT_TRUE(allocator_wrapper("std::__new_allocator<int>::allocate(unsigned long, void const*)"));
  EXPECT_FALSE(allocator_wrapper("frame_alloc"));
  EXPECT_FALSE(allocator_wrapper("main"));
}

TEST(AllocatorNamed, TheFunctionsOrItsClasssNameSaysItAllocates) {
  EXPECT_TRUE(allocator_named("xalloc"));
  EXPECT_TRUE(allocator_named("tmalloc"));
  EXPECT_TRUE(allocator_named("pool_alloc.constprop.0"));
  EXPECT_TRUE(allocator_named("BlockPool::alloc(unsigned long)"));
  EXPECT_TRUE(allocator_named("net::QuotaAllocator::allocate(unsigned long)"));
  EXPECT_TRUE(allocator_named("Arena<Row>::allocate(unsigned long)"));
  EXPECT_TRUE(allocator_named("RouteAllocator::grow()"));
  // A method of a pool's or an arena's class.
  EXPECT_TRUE(allocator_named("PartPool::acquire(unsigned long)"));
  EXPECT_TRUE(allocator_named("mem::ArenaBlock::take(unsigned long)"));
  EXPECT_FALSE(allocator_named("Spooler::write(char const*)"));
  EXPECT_FALSE(allocator_named("parse_arena_step"));
  EXPECT_FALSE(allocator_named("spool_failed"));
  EXPECT_FALSE(allocator_named("make_chunk"));
  // A C function named as a pool's or an arena's method that takes from it.
  EXPECT_TRUE(allocator_named("pool_get"));
  EXPECT_TRUE(allocator_named("buf_pool_acquire.isra.0"));
  EXPECT_TRUE(allocator_named("packet_pool_get_2"));
  EXPECT_TRUE(allocator_named("arena_take"));
  EXPECT_FALSE(allocator_named("pool_new"));
  EXPECT_FALSE(allocator_named("pool_put"));
  EXPECT_FALSE(allocator_named("spool_get"));
  EXPECT_FALSE(allocator_named("get_pool"));
  EXPECT_FALSE(allocator_named("Session::pool_get()"));
  // Of them, a class's name says it.
  EXPECT_TRUE(allocator_class("PartPool::acquire(unsigned long)"));
  EXPECT_TRUE(allocator_class("RouteAllocator::allocate(unsigned long)"));
  EXPECT_FALSE(allocator_class("BlockCache::alloc(unsigned long)"));
  EXPECT_FALSE(allocator_class("pool_alloc"));
  EXPECT_FALSE(allocator_named("RoutePlanner::plan()"));
  // Only the class and the function count, not an outer namespace nor the
  // arguments.
  EXPECT_FALSE(allocator_named("alloc::Router::route(Allocator&)"));
  EXPECT_FALSE(allocator_named("Cache<std::allocator<int> >::put(int)"));
}

// ---- legends -------------------------------------------------------------------------

using Stack = std::vector<LegendFrame>;

LegendFrame at(const std::string& function, const std::string& location = "") {
  return {function, location, true, ""};
}

TEST(Legends, TheFirstFrameTellsThemApartAndCallersFollowWhileTheyFit) {
  std::vector<Stack> stacks = {
      {at("frame_alloc", "player.c:74"), at("decoder_decode", "player.c:138"),
       at("player_play", "player.c:183"), at("main", "player.c:254")},
      {at("thumbnail_cache", "player.c:152"), at("player_play", "player.c:184"),
       at("main", "player.c:254")},
  };
  std::vector<std::string> legends = choose_legends(stacks, 100);
  EXPECT_EQ(legends[0], "frame_alloc (player.c:74)" + kArrow + "decoder_decode" + kArrow +
                            "player_play" + kArrow + "main");
  EXPECT_EQ(legends[1],
            "thumbnail_cache (player.c:152)" + kArrow + "player_play" + kArrow + "main");
  legends = choose_legends(stacks, 45);
  EXPECT_EQ(legends[0], "frame_alloc (player.c:74)" + kArrow + "decoder_decode");
  legends = choose_legends(stacks, 10);  // cut in the middle: its start and its line
  EXPECT_EQ(legends[0], "frame" + kEllipsis + ":74)");
}

TEST(Legends, TwoLinesOfOneFunction) {
  std::vector<Stack> stacks = {
      {at("decoder_open", "player.c:122"), at("player_open", "player.c:173")},
      {at("decoder_open", "player.c:123"), at("player_open", "player.c:173")},
  };
  std::vector<std::string> legends = choose_legends(stacks, 30);
  EXPECT_EQ(legends[0], "decoder_open (player.c:122)");
  EXPECT_EQ(legends[1], "decoder_open (player.c:123)");
}

TEST(Legends, AFrameSharedGoesOnToTheFrameThatTells) {
  Stack a = {at("g_try_malloc", "gmem.c:196"), at("buffer_new", "buffer.c:40"),
             at("video_sink", "sink.c:88"), at("main", "m.c:1")};
  Stack b = {at("g_try_malloc", "gmem.c:196"), at("buffer_new", "buffer.c:40"),
             at("audio_sink", "sink.c:120"), at("main", "m.c:1")};
  // g_try_malloc is a wrapper: the legend starts at buffer_new.
  std::vector<std::string> legends = choose_legends({a, b}, 100);
  EXPECT_EQ(legends[0],
            "buffer_new (buffer.c:40)" + kArrow + "video_sink (sink.c:88)" + kArrow + "main");
  EXPECT_EQ(legends[1],
            "buffer_new (buffer.c:40)" + kArrow + "audio_sink (sink.c:120)" + kArrow + "main");
}

TEST(Legends, TooLongTheMiddleIsElided) {
  Stack a = {at("alloc_node", "tree.c:10"), at("insert", "tree.c:50"), at("rebalance", "tree.c:90"),
             at("load_index", "index.c:300")};
  Stack b = {at("alloc_node", "tree.c:10"), at("insert", "tree.c:50"), at("rebalance", "tree.c:90"),
             at("load_cache", "cache.c:12")};
  std::vector<std::string> legends = choose_legends({a, b}, 60);
  EXPECT_EQ(legends[0],
            "alloc_node (tree.c:10)" + kArrow + kEllipsis + kArrow + "load_index (index.c:300)");
  EXPECT_EQ(legends[1],
            "alloc_node (tree.c:10)" + kArrow + kEllipsis + kArrow + "load_cache (cache.c:12)");
}

TEST(Legends, WrappersShownWhenOnlyTheyTellApart) {
  Stack a = {at("xmalloc", "x.c:1"), at("parse", "p.c:3")};
  Stack b = {at("xstrdup", "x.c:9"), at("parse", "p.c:3")};
  std::vector<std::string> legends = choose_legends({a, b}, 100);
  EXPECT_EQ(legends[0], "xmalloc (x.c:1)" + kArrow + "parse");
  EXPECT_EQ(legends[1], "xstrdup (x.c:9)" + kArrow + "parse");
  // Alone, a wrapper is skipped.
  EXPECT_EQ(choose_legends({a}, 100)[0], "parse (p.c:3)");
}

TEST(Legends, ShorterStackAndEmptyStack) {
  Stack a = {at("f", "a.c:1"), at("g", "a.c:2"), at("main", "a.c:3")};
  Stack b = {at("f", "a.c:1"), at("g", "a.c:2")};  // cut by --depth
  std::vector<std::string> legends = choose_legends({a, b, {}}, 100);
  EXPECT_EQ(legends[0], "f (a.c:1)" + kArrow + "g" + kArrow + "main (a.c:3)");
  EXPECT_EQ(legends[1], "f (a.c:1)" + kArrow + "g (a.c:2)");
  EXPECT_EQ(legends[2], "");
}

TEST(Legends, FramesOfAModel) {
  Model model = read_text(profile(records({
      "F|1|0x4005d2|0|||0|/bin/prog",
      "F|2|0x4005e0|0|tab\\there|/src/deep/dir/a.c|7|/bin/prog",
      "S|1|1|2",
      "T|final|10|0|0|0",
      "E",
      "X|10",
  })));
  std::vector<LegendFrame> frames = legend_frames(model, model.sites[0].frames);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].function, "prog+0x4005d2");  // object+0xOFFSET: no symbol
  EXPECT_FALSE(frames[0].named);
  EXPECT_EQ(frames[0].location, "");
  EXPECT_EQ(frames[1].function, "tab\\there");  // shown(): escaped
  EXPECT_EQ(frames[1].location, "a.c:7");
}

LegendFrame unnamed(const std::string& name) {
  return {.function = name, .location = "", .named = false, .place = ""};
}

TEST(Legends, UnnamedFramesBetweenNamedOnesAreSkipped) {
  Stack a = {at("xcalloc"),
             unnamed("cc1plus+0x1b6a652"),
             at("htab_find_slot_with_hash"),
             unnamed("cc1plus+0x7d281b"),
             unnamed("cc1plus+0x7ea99b"),
             at("c_parse_file"),
             at("main")};
  Stack b = {at("parse_decl", "p.c:4"), at("main")};
  std::vector<std::string> legends = choose_legends({a, b}, 200);
  // The wrapper xcalloc stays before the "…" so that the legend starts with a name.
  EXPECT_EQ(legends[0], "xcalloc" + kArrow + kEllipsis + kArrow + "htab_find_slot_with_hash" +
                            kArrow + kEllipsis + kArrow + "c_parse_file" + kArrow + "main");
  // A stack that starts without a symbol shows its first frame by object and offset.
  Stack c = {unnamed("cc1plus+0x10"), unnamed("cc1plus+0x20"), at("main")};
  EXPECT_EQ(choose_legends({c, b}, 200)[0], "cc1plus+0x10" + kArrow + kEllipsis + kArrow + "main");
}

TEST(Legends, NoTwoLegendsAlike) {
  // Two stacks that differ only in frames without a symbol read alike; the
  // second is told apart by the first frame where they differ.
  Stack a = {at("f", "a.c:1"), unnamed("p+0x10"), at("main")};
  Stack b = {at("f", "a.c:1"), unnamed("p+0x20"), at("main")};
  Stack c = {at("f", "a.c:1"), unnamed("p+0x30"), at("main")};
  std::vector<std::string> legends = choose_legends({a, b, c}, 200);
  EXPECT_EQ(legends[0], "f (a.c:1)" + kArrow + kEllipsis + kArrow + "main");
  EXPECT_EQ(legends[1], legends[0] + " [p+0x20]");
  EXPECT_EQ(legends[2], legends[0] + " [p+0x30]");
  // Within the width, the suffix kept.
  legends = choose_legends({a, b}, 12);
  EXPECT_NE(legends[0], legends[1]);
  EXPECT_LE(text_width(legends[1]), 12u);
  EXPECT_TRUE(legends[1].ends_with(" [p+0x20]"));
}

TEST(Legends, ArgumentListsDropped) {
  Stack a = {at("Foo::bar(int, char const*)", "f.cc:3"), at("main(int, char**)")};
  EXPECT_EQ(choose_legends({a}, 200)[0], "Foo::bar (f.cc:3)" + kArrow + "main");
}

}  // namespace
}  // namespace strata::test
