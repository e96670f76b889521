// The line diff the code view highlights: small texts worked by hand.
#include <gtest/gtest.h>

#include "core/diff.h"
#include "core/text.h"

namespace gs {
namespace {

using K = DiffLine::Kind;

std::string render(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::string s;
  for (const DiffLine& d : line_diff(a, b))
    s += d.kind == K::Same ? " " + a[size_t(d.old_line)] : d.kind == K::Added ? "+" + b[size_t(d.new_line)]
                                                                              : "-" + a[size_t(d.old_line)];
  return s;
}

// What a user typed or pasted around a name, a size or a path (the --sizes items, the exports folder, the
// registry's kernel lists, the diff's list items all go through it).
TEST(Text, TrimTakesWhiteSpaceFromTheEndsOnly) {
  EXPECT_EQ(trim("  mma_f16/12 \t"), "mma_f16/12");
  EXPECT_EQ(trim("\t/tmp/my slides\r\n"), "/tmp/my slides");  // a space inside a path stays
  EXPECT_EQ(trim("4096"), "4096");
  EXPECT_EQ(trim(" \t\r\n "), "");
  EXPECT_EQ(trim(""), "");
}

// A message quoting untrusted input stays one line a terminal only prints: control characters, C1 controls and
// malformed UTF-8 as \xNN, letters in UTF-8 as they are ('--op a\xff' had reached the terminal raw).
TEST(Text, EscapeLineKeepsUtf8LettersAndEscapesWhatATerminalCouldObey) {
  EXPECT_EQ(escape_line("caf\xC3\xA9 \xC2\xB7 ok"), "caf\xC3\xA9 \xC2\xB7 ok");
  EXPECT_EQ(escape_line("a\nb\tc\x01\x7F"), "a\\nb\\tc\\x01\\x7f");
  EXPECT_EQ(escape_line("a\xFF" "b"), "a\\xffb");
  EXPECT_EQ(escape_line("\xC2\x9B" "1m"), "\\xc2\\x9b1m");     // CSI as U+009B
  EXPECT_EQ(escape_line("\xC3"), "\\xc3");                    // a sequence cut at the end
  EXPECT_EQ(escape_line("\xC0\xAF"), "\\xc0\\xaf");            // overlong '/'
  EXPECT_EQ(escape_line("\xED\xA0\x80"), "\\xed\\xa0\\x80");    // a surrogate
  EXPECT_EQ(escape_line("\xE2\x9C\x93\xF0\x9F\x98\x80"), "\xE2\x9C\x93\xF0\x9F\x98\x80");  // 3 and 4 bytes
  EXPECT_EQ(escape_line("\xC3(" ), "\\xc3(");                 // a lead byte without its continuation
}

// The code view opens where the rung's step is: mma_f16/08 had opened on its probe's table of site names, 40 lines
// above its ldmatrix loads. The run with the most changed lines of code, comments, includes and the probe's
// bookkeeping not counted; an earlier run of code close above it is shown with it.
TEST(LineDiff, TheMainChangeIsTheLargestRunOfCodeNotTheProbesBookkeeping) {
  std::vector<std::string> a = {"#include \"a.h\"", "const char* kSmemSites[] = {\"As load\"};", "int x = 1;"};
  std::vector<std::string> b = {"#include \"b.h\"", "const char* kSmemSites[] = {\"As ldmatrix\"};", "int x = 1;"};
  for (int i = 0; i < 40; ++i) a.push_back("// same " + std::to_string(i)), b.push_back("// same " + std::to_string(i));
  const size_t loads = b.size();
  a.insert(a.end(), {"  load_a(p);", "  GS_PROBE(probe.smem(kA, p));", "  load_b(q);"});
  b.insert(b.end(), {"  // ldmatrix: one instruction a fragment", "  ldmatrix_x4(af, p);", "  ldmatrix_x4_trans(bf, q);"});
  const std::vector<DiffLine> d = line_diff(a, b);
  const int at = main_change(d, a, b);
  ASSERT_GE(at, 0);
  // The run at the loads (its first line a removed one: removed lines come first), not the include or the table.
  EXPECT_EQ(d[size_t(at)].kind, DiffLine::Kind::Removed);
  EXPECT_EQ(a[size_t(d[size_t(at)].old_line)], "  load_a(p);");
  EXPECT_EQ(change_starts(d).front(), 0);  // the include changed first
  // A run of code a few lines above the largest one is shown with it.
  std::vector<std::string> a2 = b, b2 = b;
  a2[loads - 3] = "// same 37";
  b2[loads - 3] = "int y = 2;";  // a one-line change of code 3 lines above the loads
  a2.back() = "  old_b(q);";
  a2[loads + 1] = "  old_a(p);";
  const std::vector<DiffLine> d2 = line_diff(a2, b2);
  const int at2 = main_change(d2, a2, b2);
  ASSERT_GE(at2, 0);
  EXPECT_EQ(d2[size_t(at2)].old_line >= 0 ? a2[size_t(d2[size_t(at2)].old_line)] : b2[size_t(d2[size_t(at2)].new_line)],
            "// same 37");
  EXPECT_EQ(main_change(d2, a2, b2, 0), change_starts(d2).back());
  EXPECT_EQ(main_change(line_diff(a, a), a, a), -1);
}

// A rung's file may name its step with a "// Step:" comment, and the code view opens there whatever the diff's
// largest run of code (mma_f16/12 opened on its kernel's changed signature; mma_f16/01, against nothing, at its
// includes). Without one: the comment above the main change, and for a rung against nothing the top.
TEST(LineDiff, TheOpeningIsWhereTheRungNamesItsStep) {
  std::vector<std::string> a = {"void k(int x) {", "  loop_a();", "}"};
  std::vector<std::string> b = {"void k(int x, int tiles, int more, int again) {", "  setup();", "  setup2();",
                                "  // Step: the tile loop", "  for (;;) loop_b();", "}"};
  std::vector<DiffLine> d = line_diff(a, b);
  int at = opening(d, a, b);
  ASSERT_GE(at, 0);
  EXPECT_EQ(b[size_t(d[size_t(at)].new_line)], "  // Step: the tile loop");
  // Against nothing: the marker, else the top.
  d = line_diff({}, b);
  at = opening(d, {}, b);
  ASSERT_GE(at, 0);
  EXPECT_EQ(b[size_t(d[size_t(at)].new_line)], "  // Step: the tile loop");
  std::vector<std::string> plain = b;
  plain[3] = "  // the tile loop";
  EXPECT_EQ(opening(line_diff({}, plain), {}, plain), -1);
  // No marker: as before, the main change with the comment above it.
  d = line_diff(a, plain);
  EXPECT_EQ(opening(d, a, plain), comment_above(d, a, plain, main_change(d, a, plain)));
  // A marker the rung before had and this one dropped (a removed line) is not this rung's.
  d = line_diff(b, plain);
  EXPECT_EQ(opening(d, b, plain), comment_above(d, b, plain, main_change(d, b, plain)));
}

// The code view opens on the comment right above the main change, where a rung explains it, passing over the one or
// two lines of the declaration the change opens in; a blank line or three lines of code between, and it opens on
// the change itself; of a long comment, the last 10 lines.
TEST(LineDiff, TheOpeningTakesTheCommentAboveTheChange) {
  std::vector<std::string> a = {"int x = 1;", "// why:", "//   because", "  load_a(p);"};
  std::vector<std::string> b = {"int x = 1;", "// why:", "//   because", "  ldmatrix_x4(af, p);"};
  std::vector<DiffLine> d = line_diff(a, b);
  int at = main_change(d, a, b);
  ASSERT_GE(at, 0);
  EXPECT_EQ(b[size_t(d[size_t(comment_above(d, a, b, at))].new_line)], "// why:");
  // The declaration the change opens in, between the comment and the change, is passed over.
  a.insert(a.begin() + 3, "template <class P>"), b.insert(b.begin() + 3, "template <class P>");
  d = line_diff(a, b);
  at = main_change(d, a, b);
  EXPECT_EQ(b[size_t(d[size_t(comment_above(d, a, b, at))].new_line)], "// why:");
  a[3] = b[3] = "";  // a blank line: the comment is another matter's
  d = line_diff(a, b);
  at = main_change(d, a, b);
  EXPECT_EQ(comment_above(d, a, b, at), at);
  a = {"int x = 1;", "// why:", "  int y = 2;", "  int z = 3;", "  int w = 4;", "  load_a(p);"};
  b = a;
  b.back() = "  ldmatrix_x4(af, p);";  // three lines of code above: the change itself
  d = line_diff(a, b);
  at = main_change(d, a, b);
  EXPECT_EQ(comment_above(d, a, b, at), at);
  // A long comment: at most `reach` lines of it.
  std::vector<std::string> c = {"int x = 1;"}, e;
  for (int i = 0; i < 40; ++i) c.push_back("// line " + std::to_string(i));
  e = c;
  c.push_back("  load_a(p);"), e.push_back("  ldmatrix_x4(af, p);");
  d = line_diff(c, e);
  at = main_change(d, c, e);
  EXPECT_EQ(comment_above(d, c, e, at), at - 10);
  EXPECT_EQ(comment_above(d, c, e, -1), -1);
}

// A message cut to its length keeps whole characters: a cut through "ě" (C4 9B) had left 0x9B, a terminal's CSI.
TEST(Text, CutsKeepWholeCharacters) {
  EXPECT_EQ(cut_end("ab\xC4\x9B", 3), "ab...");
  EXPECT_EQ(cut_end("ab\xC4\x9B", 4), "ab\xC4\x9B");
  EXPECT_EQ(cut_start("\xC4\x9B" "cd", 3), "...cd");
  EXPECT_EQ(cut_start("abcdef", 3), "...def");
  EXPECT_EQ(cut_end("abcdef", 3), "abc...");
}

TEST(LineDiff, IdenticalTextsAreAllSame) {
  const std::vector<std::string> t = {"a", "b", "c"};
  const auto d = line_diff(t, t);
  ASSERT_EQ(d.size(), 3u);
  for (size_t i = 0; i < d.size(); ++i) {
    EXPECT_EQ(d[i].kind, K::Same);
    EXPECT_EQ(d[i].new_line, int(i));
  }
  EXPECT_TRUE(change_starts(d).empty());
}

TEST(LineDiff, InsertDeleteAndChange) {
  EXPECT_EQ(render({"a", "c"}, {"a", "b", "c"}), " a+b c");           // insert
  EXPECT_EQ(render({"a", "b", "c"}, {"a", "c"}), " a-b c");           // delete
  EXPECT_EQ(render({"a", "b", "c"}, {"a", "B", "c"}), " a-b+B c");    // change: removed before added
  EXPECT_EQ(render({}, {"x", "y"}), "+x+y");
  EXPECT_EQ(render({"x", "y"}, {}), "-x-y");
  // Two separate changes, each a run of its own.
  const auto d = line_diff({"1", "2", "3", "4", "5"}, {"1", "two", "3", "4", "five"});
  EXPECT_EQ(change_starts(d), (std::vector<int>{1, 5}));
}

TEST(LineDiff, KeepsTheLongestCommonRun) {
  // Moving a block: the longer common part stays, the moved line is removed and added.
  EXPECT_EQ(render({"x", "a", "b", "c"}, {"a", "b", "c", "x"}), "-x a b c+x");
}

TEST(LineDiff, SplitLinesAndTheBoundOnWork) {
  EXPECT_EQ(split_lines("a\nb\r\n\nc\n"), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(split_lines(""), std::vector<std::string>{});
  // Past max_lines the middle is replaced wholesale, the common start and end still found.
  std::vector<std::string> a = {"head"}, b = {"head"};
  for (int i = 0; i < 50; ++i) {
    a.push_back("a" + std::to_string(i));
    b.push_back("b" + std::to_string(i));
  }
  a.push_back("tail");
  b.push_back("tail");
  const auto d = line_diff(a, b, 10);
  ASSERT_EQ(d.size(), 102u);
  EXPECT_EQ(d.front().kind, K::Same);
  EXPECT_EQ(d.back().kind, K::Same);
  EXPECT_EQ(d[1].kind, K::Removed);
  EXPECT_EQ(d[51].kind, K::Added);
}

TEST(ProbeSites, LinesThatRecordASiteAreNamedAsTheRungNamesIt) {
  const std::vector<std::string> src = split_lines(
      "enum Site : int { kAsCopy, kBsCopy,\n"
      "                  kAsFrag };\n"
      "inline constexpr const char* kSmemSites[] = {\"As cp.async\", \"Bs, copied\", \"As ldmatrix.x4\"};\n"
      "  GS_PROBE(probe.smem(kAsFrag, p, 16, SmemKind::kLdmatrix));\n"
      "  x = 1;\n"
      "  GS_PROBE(probe.smem( kBsCopy, dst, 16, SmemKind::kCpAsync));\n"
      "  GS_PROBE(probe.smem(kUnknown, dst, 16, SmemKind::kCpAsync));\n"
      "  GS_PROBE(probe.gmem(kGmemB, src, 16, GmemKind::kCpAsync));\n");
  const std::vector<std::string> sites = probe_site_lines(src);
  ASSERT_EQ(sites.size(), src.size());
  EXPECT_EQ(sites[3], "As ldmatrix.x4");
  EXPECT_EQ(sites[4], "");
  EXPECT_EQ(sites[5], "Bs, copied");  // a comma inside a name does not split it
  EXPECT_EQ(sites[6], "");            // an id the enum does not list names nothing
  EXPECT_EQ(sites[7], "B");           // a global site: the probe's own name
}

// sgemm/02 against 01: the code view opened on two lines whose comments alone changed, below them the epilogue
// folded into one call of a shared helper (ten lines removed, one added); the rung's step, the two lines that turn a
// warp along a row of C, lay above, unseen. A line whose comment alone changed is no change of code, and the lines
// a rung writes count before those it removes.
TEST(LineDiff, TheMainChangeIsWhatTheRungWritesNotACommentOrAFoldedEpilogue) {
  std::vector<std::string> a = {"int row = bx + tx;", "int col = by + ty;"};
  std::vector<std::string> b = {"int col = bx + tx;", "int row = by + ty;"};
  for (int i = 0; i < 20; ++i) a.push_back("// same " + std::to_string(i)), b.push_back("// same " + std::to_string(i));
  a.push_back("  const float* p = a + row;  // A[row]"), b.push_back("  const float* p = a + row;    // A[row]: one word");
  for (int i = 0; i < 5; ++i) a.push_back("// more " + std::to_string(i)), b.push_back("// more " + std::to_string(i));
  for (int i = 0; i < 10; ++i) a.push_back("  epilogue_line(" + std::to_string(i) + ");");
  b.push_back("  store_c(c, acc);");
  const std::vector<DiffLine> d = line_diff(a, b);
  ASSERT_EQ(change_starts(d).size(), 3u);
  const int at = main_change(d, a, b, 0);
  ASSERT_GE(at, 0);
  EXPECT_EQ(at, change_starts(d).front()) << "not on the row and column lines";
}

}  // namespace
}  // namespace gs
