// The window's pure parts, without a display: the views table, the arrangement and its layout function,
// the settings file, what the layout view follows for each rung, and the layout audit itself.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "app/nvml.h"
#include "app/panels/kernels.h"
#include "app/panels/panel.h"
#include "viz/draw_util.h"
#include "app/render.h"
#include "app/settings.h"
#include "app/state.h"
#include "app/ui.h"
#include "app/views.h"
#include "app/window.h"
#include "app/workspace.h"
#include "core/capture.h"
#include "core/layout.h"
#include "kernels/gemm.h"
#include "viz/canvas.h"

namespace fs = std::filesystem;

namespace gs {
namespace {

bool overlap(Rect a, Rect b) {
  return std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x) > 0.5f &&
         std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y) > 0.5f;
}

// A run at n^3 for a capture a test builds by hand.
RunRecord square_run(const std::string& kernel, const std::string& dtype, int n, double tflops, double cublas_tflops) {
  RunRecord r;
  r.kernel = kernel, r.dtype = dtype, r.m = r.n = r.k = n, r.tflops = tflops, r.cublas_tflops = cublas_tflops;
  return r;
}

// A view's panel brought up to date and its figure drawn into a w x h SVG, as a pane of that size draws it.
std::string pane_svg(ViewPanel& panel, const ViewContext& ctx, float w, float h) {
  panel.Update(ctx);
  SvgCanvas svg(w, h, ctx.theme.bg);
  panel.Figure(svg, {{0, 0}, {w, h}}, ctx, {-1, -1});
  return svg.finish();
}

// ---- Views table ---------------------------------------------------------------------------------

// Two clicks at one spot 60 ms apart (xdotool's, a person's) are a double-click however the frames fall: read one
// frame apart, after a 400 ms frame (software GL under load), they were taken as two single clicks.
TEST(DoubleClick, ASlowFrameBetweenTheClicksDoesNotSplitThem) {
  const ClickPress first{0, 100, 100, 10.0};
  EXPECT_TRUE(is_double_click(first, {0, 102, 99, 10.06}, 0.3, 0.016));
  EXPECT_TRUE(is_double_click(first, {0, 100, 100, 10.45}, 0.3, 0.4));   // read after the slow frame
  EXPECT_FALSE(is_double_click(first, {0, 100, 100, 10.45}, 0.3, 0.016));  // a fast machine: two clicks
  EXPECT_FALSE(is_double_click(first, {0, 110, 100, 10.06}, 0.3, 0.016));  // apart: two clicks
  EXPECT_FALSE(is_double_click(first, {1, 100, 100, 10.06}, 0.3, 0.016));  // another button
}

TEST(Views, TableNamesAreUniqueAndEachMakesAPanel) {
  std::set<std::string> names;
  for (const ViewDef& v : view_table()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    EXPECT_NE(std::string(v.title), "");
    EXPECT_NE(std::string(v.tab), "");
    EXPECT_NE(std::string(v.about), "");
    EXPECT_NE(v.make(), nullptr) << v.name;
    EXPECT_EQ(find_view(v.name), &v);
  }
  // DESIGN.md's views are either built or planned, never both; "all" is the whole window, not a row.
  for (const std::string& p : planned_views()) EXPECT_EQ(find_view(p), nullptr) << p;
  for (const char* name : {"layout", "banks", "swizzle", "perf", "roofline", "timeline", "code", "gmem"}) {
    const auto& planned = planned_views();
    EXPECT_TRUE(find_view(name) || std::find(planned.begin(), planned.end(), name) != planned.end()) << name;
  }
  EXPECT_EQ(find_view("all"), nullptr);
  EXPECT_EQ(views_list(), "layout, banks, gmem, swizzle, perf, roofline, timeline, code, all");
}

// ---- Arrangement and layout ----------------------------------------------------------------------

TEST(Workspace, DefaultGivesTheLayoutItsOwnColumn) {
  const Arrangement a = default_arrangement({"layout", "banks", "perf"});
  ASSERT_EQ(a.columns.size(), 2u);
  EXPECT_EQ(a.columns[0], std::vector<std::string>{"layout"});
  EXPECT_EQ(a.columns[1], (std::vector<std::string>{"banks", "perf"}));
  // Four views: the fourth opens a third column rather than a stack of three.
  const Arrangement four = default_arrangement({"layout", "banks", "swizzle", "perf"});
  ASSERT_EQ(four.columns.size(), 3u);
  EXPECT_EQ(four.columns[1], (std::vector<std::string>{"banks", "swizzle"}));
  EXPECT_EQ(four.columns[2], std::vector<std::string>{"perf"});
  // Five views or more: a third column, so no stack is deeper than three.
  const Arrangement b = default_arrangement({"layout", "banks", "swizzle", "perf", "timeline", "code"});
  ASSERT_EQ(b.columns.size(), 3u);
  EXPECT_EQ(b.columns[0], (std::vector<std::string>{"layout", "banks"}));
  EXPECT_EQ(b.columns[2], (std::vector<std::string>{"timeline", "code"}));
  const Arrangement c = default_arrangement({"layout", "banks", "perf", "swizzle", "timeline", "roofline", "code", "gmem"});
  ASSERT_EQ(c.columns.size(), 3u);
  EXPECT_EQ(c.columns[0], (std::vector<std::string>{"layout", "banks"}));
  EXPECT_EQ(c.columns[1], (std::vector<std::string>{"perf", "swizzle", "timeline"}));
  EXPECT_EQ(c.columns[2], (std::vector<std::string>{"roofline", "code", "gmem"}));
}

TEST(Workspace, PanesTileTheAreaWithoutOverlapAndMaximiseFillsIt) {
  const std::vector<std::string> views = {"layout", "banks", "perf", "swizzle", "timeline"};
  for (const Rect area : {Rect{{0, 40}, {1280, 720}}, Rect{{8, 60}, {1912, 1072}}}) {
    Arrangement a;
    reconcile(&a, views);
    const WorkspaceLayout l = layout_workspace(area, a, 8);
    ASSERT_EQ(l.panes.size(), views.size());
    float covered = l.list.w() * l.list.h();
    for (size_t i = 0; i < l.panes.size(); ++i) {
      const Rect r = l.panes[i].second;
      EXPECT_GT(r.w(), 100);
      EXPECT_GT(r.h(), 100);
      EXPECT_GE(r.min.x, area.min.x);
      EXPECT_LE(r.max.x, area.max.x + 0.5f);
      EXPECT_LE(r.max.y, area.max.y + 0.5f);
      EXPECT_FALSE(overlap(r, l.list)) << l.panes[i].first;
      for (size_t j = i + 1; j < l.panes.size(); ++j) EXPECT_FALSE(overlap(r, l.panes[j].second));
      covered += r.w() * r.h();
    }
    for (const Splitter& s : l.splitters)
      for (const auto& [name, r] : l.panes) EXPECT_FALSE(overlap(s.rect, r)) << name;
    // Everything but the gaps is covered.
    EXPECT_GT(covered, area.w() * area.h() * 0.95f);
    a.maximized = "banks";
    const WorkspaceLayout m = layout_workspace(area, a, 8);
    ASSERT_EQ(m.panes.size(), 1u);
    EXPECT_EQ(m.panes[0].first, "banks");
    EXPECT_NEAR(m.panes[0].second.max.x, area.max.x, 0.5f);
    EXPECT_NEAR(m.panes[0].second.h(), area.h(), 0.5f);
  }
}

TEST(Workspace, DraggingASplitterMovesOneEdgeAndKeepsPanesUsable) {
  const Rect area{{0, 0}, {1600, 860}};
  Arrangement a;
  reconcile(&a, {"layout", "banks", "perf"});
  const WorkspaceLayout before = layout_workspace(area, a, 8);
  const Splitter col = *std::find_if(before.splitters.begin(), before.splitters.end(),
                                     [](const Splitter& s) { return s.column == 0 && s.row < 0; });
  drag_splitter(&a, col, 100, area, 8, 150);
  const WorkspaceLayout after = layout_workspace(area, a, 8);
  EXPECT_NEAR(after.panes[0].second.w(), before.panes[0].second.w() + 100, 1.5f);  // layout wider
  EXPECT_NEAR(after.list.w(), before.list.w(), 0.5f);                               // the list stays
  // Far past the edge: the neighbour keeps the minimum.
  drag_splitter(&a, col, 5000, area, 8, 150);
  const WorkspaceLayout far = layout_workspace(area, a, 8);
  for (const auto& [name, r] : far.panes) EXPECT_GE(r.w(), 149) << name;
  // A row splitter trades height between the two views of the right column.
  const Splitter row = *std::find_if(far.splitters.begin(), far.splitters.end(), [](const Splitter& s) { return s.row == 0; });
  drag_splitter(&a, row, -50, area, 8, 150);
  const WorkspaceLayout rows = layout_workspace(area, a, 8);
  EXPECT_NEAR(rows.panes[1].second.h(), far.panes[1].second.h() - 50, 1.5f);
}

// The window's limits at a text size: the views table's needs, a strip of tabs 1.2 frames tall.
PaneLimits limits_at(float font_px) { return pane_limits(font_px, std::round((font_px + 6) * 1.2f)); }

TEST(Workspace, ColumnsTooShortForTheirViewsBecomeTabs) {
  const std::vector<std::string> views = view_names();
  Arrangement a;
  reconcile(&a, views);
  // 1600x900 (the workspace below the top bar): every view has its own pane, where the limits change nothing.
  const Rect big{{8, 48}, {1592, 892}};
  const WorkspaceLayout plain = layout_workspace(big, a, 8), limited = layout_workspace(big, a, 8, limits_at(15));
  EXPECT_TRUE(limited.tabs.empty());
  ASSERT_EQ(limited.panes.size(), views.size());
  for (size_t i = 0; i < views.size(); ++i) {
    EXPECT_EQ(limited.panes[i].first, plain.panes[i].first);
    EXPECT_NEAR(limited.panes[i].second.h(), plain.panes[i].second.h(), 0.5f) << plain.panes[i].first;
  }
  // A laptop's 1366x768: the columns that cannot stack their views (or fold together) show tabs. Every view is a
  // pane or a tab, and every pane drawn has at least what its view needs.
  const Rect laptop{{8, 48}, {1358, 760}};
  const PaneLimits lim = limits_at(15);
  const WorkspaceLayout l = layout_workspace(laptop, a, 8, lim);
  ASSERT_FALSE(l.tabs.empty());
  std::set<std::string> named;
  for (const auto& [view, rect] : l.panes) {
    named.insert(view);
    EXPECT_GE(rect.w(), lim.need_w(view) - 1) << view;
    EXPECT_GE(rect.h(), lim.need(view, rect.w()) - 1) << view;
  }
  for (const TabStrip& t : l.tabs) {
    EXPECT_EQ(t.shown, t.views.front());  // nothing chosen yet: the strip's first
    named.insert(t.views.begin(), t.views.end());
    // The pane of the view shown hangs right under its strip and reaches the bottom.
    const auto pane = std::find_if(l.panes.begin(), l.panes.end(), [&](const auto& p) { return p.first == t.shown; });
    ASSERT_NE(pane, l.panes.end()) << t.shown;
    EXPECT_NEAR(pane->second.min.y, t.rect.max.y, 0.5f);
    EXPECT_NEAR(pane->second.max.y, laptop.max.y, 0.5f);
    EXPECT_NEAR(pane->second.w(), t.rect.w(), 0.5f);
    EXPECT_GT(pane->second.h(), 600);
  }
  EXPECT_EQ(named, std::set<std::string>(views.begin(), views.end()));
  for (const Splitter& s : l.splitters) EXPECT_LT(s.row, 0) << "a row splitter in a column of tabs";
  // A tab chosen is shown, and it is the arrangement's (kept in the settings); the stack itself is unchanged.
  activate(&a, "code");
  const WorkspaceLayout chosen = layout_workspace(laptop, a, 8, limits_at(15));
  const auto shown = [](const WorkspaceLayout& w, const std::string& v) {
    return std::any_of(w.panes.begin(), w.panes.end(), [&](const auto& p) { return p.first == v; });
  };
  EXPECT_TRUE(shown(chosen, "code"));
  EXPECT_FALSE(shown(chosen, "roofline"));
  EXPECT_EQ(layout_workspace(big, a, 8, limits_at(15)).panes.size(), views.size());
  // A projector's zoom (text 1.5x) at 1920x1080 makes tabs too; the same window at 1x does not.
  const Rect hd{{8, 48}, {1912, 1072}};
  EXPECT_FALSE(layout_workspace(hd, a, 8, limits_at(22.5f)).tabs.empty());
  EXPECT_TRUE(layout_workspace(hd, a, 8, limits_at(15)).tabs.empty());
  // A damaged list of tabs shown (unknown names, a name twice) keeps only views, once each.
  a.recent = {"perf", "nope", "perf", "code"};
  reconcile(&a, views);
  EXPECT_EQ(a.recent, (std::vector<std::string>{"perf", "code"}));
}

TEST(Workspace, ColumnsTooNarrowForTheirViewsFoldIntoTabs) {
  const std::vector<std::string> views = view_names();
  Arrangement a;
  reconcile(&a, views);
  const auto find_tab = [](const WorkspaceLayout& w, const std::string& v) -> const TabStrip* {
    for (const TabStrip& t : w.tabs)
      if (std::find(t.views.begin(), t.views.end(), v) != t.views.end()) return &t;
    return nullptr;
  };
  // 1600x900 at a projector's 150%: three columns would be 18-20 lines of text wide, short of what the views
  // need, so the two right ones fold into one column of six tabs, and the fragment layout gets the width its
  // grids need beside them.
  const Rect r{{8, 48}, {1592, 892}};
  const PaneLimits lim = limits_at(22.5f);
  const WorkspaceLayout w = layout_workspace(r, a, 8, lim);
  ASSERT_EQ(w.tabs.size(), 2u);
  ASSERT_EQ(w.panes.size(), 2u);
  EXPECT_EQ(w.tabs[0].views, a.columns[0]);
  std::vector<std::string> right = a.columns[1];
  right.insert(right.end(), a.columns[2].begin(), a.columns[2].end());
  EXPECT_EQ(w.tabs[1].views, right);
  for (const auto& [view, rect] : w.panes) EXPECT_GE(rect.w(), lim.need_w(view) - 1) << view;
  // A tab clicked in the folded column shows there; the latest clicked of its views wins.
  activate(&a, "code");
  activate(&a, "swizzle");
  const WorkspaceLayout c = layout_workspace(r, a, 8, lim);
  EXPECT_EQ(find_tab(c, "code")->shown, "swizzle");
  EXPECT_EQ(find_tab(c, "layout")->shown, "layout");
  // The edge between the two columns moves the arrangement's edge right of the fragment layout's column.
  const Splitter edge = *std::find_if(c.splitters.begin(), c.splitters.end(), [](const Splitter& s) { return s.column >= 0; });
  EXPECT_EQ(edge.column, 0);
  // At 100% the same window keeps its three columns.
  EXPECT_EQ(layout_workspace(r, a, 8, limits_at(15)).panes.size(), views.size());
}

// The kernel list at a projector's zoom in a small window: its 20% share of 1280 px left 11 lines of 22.5 px text,
// and the names were cut to "05_d..."; it takes 15 lines where the views' widest need (the fragment layout's
// grids in a row) stays met. At 100% and in larger windows its share is already wider: nothing moves.
TEST(Workspace, TheKernelListKeepsRoomForItsNamesWhereTheViewsCanSpareIt) {
  Arrangement a;
  reconcile(&a, view_names());
  const PaneLimits big = limits_at(22.5f), normal = limits_at(15);
  const Rect small{{8, 48}, {1272, 712}};
  const WorkspaceLayout w = layout_workspace(small, a, 8, big);
  EXPECT_GE(w.list.w(), kListMinWidthEm * 22.5f - 1);
  for (const auto& [view, rect] : w.panes) EXPECT_GE(rect.w(), big.need_w(view) - 1) << view;
  for (const Rect& r : {small, Rect{{8, 48}, {1592, 892}}, Rect{{8, 48}, {1912, 1072}}})
    EXPECT_EQ(layout_workspace(r, a, 8, normal).list.w(), std::round(r.w() * a.list_w));
  // Where the views cannot spare it (a window too narrow for both), the list keeps its share.
  const Rect tiny{{0, 0}, {820, 600}};
  EXPECT_EQ(layout_workspace(tiny, a, 8, big).list.w(), std::round(tiny.w() * a.list_w));
}

TEST(Workspace, AViewBelowWhatItNeedsGetsItFromItsNeighbours) {
  // The fragment layout's column split half and half: its share is short of what the grids need beside the bank
  // view; the bank view gives up the difference, and the column stays a stack.
  Arrangement a;
  reconcile(&a, {"layout", "banks", "perf"});
  a.columns = {{"layout", "banks"}, {"perf"}};
  a.row_h = {{0.5f, 0.5f}, {1}};
  a.column_w = {0.5f, 0.5f};
  const PaneLimits lim = limits_at(15);
  const Rect area{{0, 0}, {1600, 800}};
  ASSERT_LT(0.5f * (area.h() - 8), lim.need("layout", 800));
  const WorkspaceLayout l = layout_workspace(area, a, 8, lim);
  ASSERT_TRUE(l.tabs.empty());
  const Rect lay = l.panes[0].second, banks = l.panes[1].second;
  EXPECT_EQ(l.panes[0].first, "layout");
  EXPECT_NEAR(lay.h(), lim.need("layout", lay.w()), 1.0f);
  EXPECT_GE(banks.h(), lim.need("banks", banks.w()) - 1);
  EXPECT_NEAR(lay.h() + banks.h() + 8, area.h(), 1.0f);
  // Dragging the splitter between them stops where the bank view would get less than it needs.
  const Splitter row = *std::find_if(l.splitters.begin(), l.splitters.end(), [](const Splitter& s) { return s.row == 0; });
  drag_splitter(&a, row, 400, area, 8, 150, lim);
  const WorkspaceLayout d = layout_workspace(area, a, 8, lim);
  EXPECT_TRUE(d.tabs.empty());
  EXPECT_GE(d.panes[1].second.h(), lim.need("banks", d.panes[1].second.w()) - 1);
}

TEST(Workspace, TabsFitTheirStripAndCutOnlyTheLongestLabels) {
  TabStrip strip{Rect{{100, 10}, {400, 36}}, 0, {"a", "b", "c"}, "a"};
  // Room for all: each as wide as its label.
  std::vector<Rect> r = place_tabs(strip, {40, 60, 30}, 5, 2);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_NEAR(r[0].w(), 50, 0.01f);
  EXPECT_NEAR(r[1].min.x, r[0].max.x + 2, 0.01f);
  // Too little: the short label stays whole, the two long ones share what is left.
  r = place_tabs(strip, {200, 180, 30}, 5, 2);
  EXPECT_NEAR(r[2].w(), 40, 0.01f);
  EXPECT_NEAR(r[0].w(), r[1].w(), 0.01f);
  EXPECT_LE(r[2].max.x, strip.rect.max.x + 0.01f);
  for (const Rect& t : r) EXPECT_NEAR(t.h(), strip.rect.h(), 0.01f);
}

// Labels too wide for one row go in two (or three), in order and as even as the order allows, every label whole:
// at 200% on 1600x900 one row cut "Fragments", "Launch order" and "Throughput" to "Frag...", "Launc...", "Throu...".
TEST(Workspace, TabsTooWideForOneRowTakeTwoWithEveryLabelWhole) {
  EXPECT_EQ(tab_rows({50, 60, 40}, 300, 2), 1);
  EXPECT_EQ(tab_rows({150, 160, 140, 100}, 320, 2), 2);
  EXPECT_EQ(tab_rows({150, 160, 140, 100}, 300, 2), 3);  // 150 + 160 and a gap is 312, 160 + 140 and a gap 302: 150 | 160 | 140 + 100
  EXPECT_EQ(tab_rows({150, 160, 140, 100, 150, 120}, 320, 2), 3);
  EXPECT_EQ(tab_rows({250, 260, 240, 200, 250, 220, 230}, 320, 2), 3);  // none does: three, the widest cut
  EXPECT_EQ(tab_rows({400}, 300, 2), 1);
  TabStrip strip{Rect{{100, 10}, {400, 62}}, 0, {"a", "b", "c", "d", "e"}, "a", 2};
  const std::vector<float> label = {80, 40, 100, 60, 50};  // plus 5 each side: 90, 50, 110, 70, 60 (total 388)
  const std::vector<Rect> r = place_tabs(strip, label, 5, 2);
  ASSERT_EQ(r.size(), 5u);
  // Rows of 90 + 50 = 140 and 110 + 70 + 60 = 240 (not 90 + 50 + 110 = 250 | 70 + 60): the longer row as short as
  // any split into two allows, each row stretched to end at the strip's right edge.
  for (size_t i = 0; i < 2; ++i) EXPECT_NEAR(r[i].min.y, 10, 0.01f) << i;
  for (size_t i = 2; i < 5; ++i) EXPECT_NEAR(r[i].min.y, 36, 0.01f) << i;
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(r[i].h(), 26, 0.01f) << i;
    EXPECT_GE(r[i].w(), label[i] + 10 - 0.01f) << i << ": a label cut";
    if (i + 1 < 5 && r[i + 1].min.y == r[i].min.y) {
      EXPECT_NEAR(r[i + 1].min.x, r[i].max.x + 2, 0.01f) << i;
    }
  }
  EXPECT_NEAR(r[1].max.x, 400, 0.01f);
  EXPECT_NEAR(r[4].max.x, 400, 0.01f);
  EXPECT_NEAR(r[0].min.x, 100, 0.01f);
  EXPECT_NEAR(r[2].min.x, 100, 0.01f);
  // The layout makes the strip as many rows tall as its labels need, and the pane starts under it.
  const std::vector<std::string> views = view_names();
  Arrangement a;
  reconcile(&a, views);
  const Rect zoomed{{8, 48}, {1592, 892}};
  for (const float font : {22.5f, 30.0f, 37.5f}) {  // 150%, 200% and 250% at 1600x900
    PaneLimits lim = limits_at(font);
    const WorkspaceLayout one_row = layout_workspace(zoomed, a, 8, lim);
    lim.tab_w = [&](const std::string& v) { return float(std::string(find_view(v)->tab).size()) * font * 0.62f + 12; };
    const WorkspaceLayout w = layout_workspace(zoomed, a, 8, lim);
    ASSERT_FALSE(w.tabs.empty()) << font;
    for (const TabStrip& t : w.tabs) {
      std::vector<float> want;
      for (const std::string& v : t.views) want.push_back(lim.tab_w(v));
      EXPECT_EQ(t.rows, tab_rows(want, t.rect.w(), lim.tab_gap)) << font;
      EXPECT_NEAR(t.rect.h(), lim.tab_h * float(t.rows), 0.01f) << font;
      const auto pane = std::find_if(w.panes.begin(), w.panes.end(), [&](const auto& p) { return p.first == t.shown; });
      ASSERT_NE(pane, w.panes.end());
      EXPECT_NEAR(pane->second.min.y, t.rect.max.y, 0.5f) << font;
      std::vector<float> labels;
      for (float x : want) labels.push_back(x - 12);
      const std::vector<Rect> placed = place_tabs(t, labels, 6, lim.tab_gap);
      for (size_t i = 0; i < placed.size(); ++i) {
        EXPECT_LE(placed[i].max.x, t.rect.max.x + 0.01f) << font << " " << t.views[i];
        EXPECT_LE(placed[i].max.y, t.rect.max.y + 0.01f) << font << " " << t.views[i];
        if (t.rows < 3) {
          EXPECT_GE(placed[i].w(), want[i] - 0.01f) << font << " " << t.views[i] << ": cut";
        }
      }
    }
    // At 200% and 250% the strip of six or more views takes a second row (one row cut three of their names).
    if (font >= 30) {
      EXPECT_TRUE(std::any_of(w.tabs.begin(), w.tabs.end(), [](const TabStrip& t) { return t.rows >= 2; })) << font;
    }
    // Without the tab widths, one row as before.
    for (const TabStrip& t : one_row.tabs) EXPECT_EQ(t.rows, 1);
  }
}

// A view dragged by its title: where the pointer is over another pane says where it goes, and the drop moves it
// there, the other views keeping their order, every share still summing to one.
TEST(Workspace, DraggingAViewOntoAnotherPaneMovesItThere) {
  const std::vector<std::string> views = view_names();
  const Rect area{{8, 48}, {1592, 892}};
  Arrangement a;
  reconcile(&a, views);
  ASSERT_FALSE(rearranged(a, views));
  const auto pane = [&](const std::string& v) {
    const WorkspaceLayout l = layout_workspace(area, a, 8);
    return std::find_if(l.panes.begin(), l.panes.end(), [&](const auto& p) { return p.first == v; })->second;
  };
  const auto target = [&](const std::string& dragged, const std::string& over, float fx, float fy) {
    const Rect r = pane(over);
    return drop_target(layout_workspace(area, a, 8), a, dragged, {r.min.x + r.w() * fx, r.min.y + r.h() * fy});
  };
  const auto column_of = [&](const std::string& v) {
    for (const auto& col : a.columns)
      if (std::find(col.begin(), col.end(), v) != col.end()) return col;
    return std::vector<std::string>{};
  };
  const auto shares_sum_to_one = [&] {
    float w = 0;
    for (float f : a.column_w) w += f;
    EXPECT_NEAR(w, 1, 1e-4);
    for (size_t c = 0; c < a.columns.size(); ++c) {
      float h = 0;
      for (float f : a.row_h[c]) h += f;
      EXPECT_NEAR(h, 1, 1e-4) << c;
      EXPECT_EQ(a.row_h[c].size(), a.columns[c].size());
    }
  };
  // Over its own pane, or with a view maximised, a drag goes nowhere.
  EXPECT_FALSE(target("code", "code", 0.5f, 0.5f).valid());
  // The lower half of the bank view's pane: the code view goes under it, in its column.
  const DropTarget below = target("code", "banks", 0.5f, 0.8f);
  ASSERT_EQ(below.side, DropTarget::kBelow);
  EXPECT_EQ(below.onto, "banks");
  EXPECT_TRUE(below.zone.contains({pane("banks").min.x + 10, pane("banks").max.y - 10}));
  const size_t columns = a.columns.size();
  ASSERT_TRUE(move_view(&a, "code", below));
  const std::vector<std::string> col = column_of("banks");
  const auto at = std::find(col.begin(), col.end(), "banks");
  ASSERT_NE(at + 1, col.end());
  EXPECT_EQ(*(at + 1), "code");
  EXPECT_EQ(a.columns.size(), columns);
  shares_sum_to_one();
  EXPECT_TRUE(rearranged(a, views));
  // It is drawn there: under the bank view, in its column.
  EXPECT_NEAR(pane("code").min.x, pane("banks").min.x, 0.5f);
  EXPECT_GT(pane("code").min.y, pane("banks").min.y);
  // The right quarter of the fragment layout's pane: the timeline in a column of its own, right of the layout's.
  const DropTarget right = target("timeline", "layout", 0.9f, 0.5f);
  ASSERT_EQ(right.side, DropTarget::kRight);
  ASSERT_TRUE(move_view(&a, "timeline", right));
  EXPECT_EQ(column_of("timeline"), std::vector<std::string>{"timeline"});
  EXPECT_EQ(a.columns.size(), columns + 1);
  EXPECT_GT(pane("timeline").min.x, pane("layout").max.x);
  EXPECT_LT(pane("timeline").max.x, pane("perf").min.x);
  shares_sum_to_one();
  // Back into a column from one of its own (the upper half of the throughput pane): that column goes.
  ASSERT_TRUE(move_view(&a, "timeline", target("timeline", "perf", 0.5f, 0.2f)));
  EXPECT_EQ(a.columns.size(), columns);
  const std::vector<std::string> perf_col = column_of("perf");
  EXPECT_EQ(*(std::find(perf_col.begin(), perf_col.end(), "perf") - 1), "timeline");
  shares_sum_to_one();
  // A view alone in its column dropped beside that column changes nothing, and says so.
  ASSERT_TRUE(move_view(&a, "roofline", target("roofline", "layout", 0.1f, 0.5f)));
  const Arrangement alone = a;
  EXPECT_FALSE(move_view(&a, "roofline", target("roofline", "layout", 0.1f, 0.5f)));
  EXPECT_EQ(a.columns, alone.columns);
  EXPECT_EQ(a.column_w, alone.column_w);
  // Every view is still there once, and the layout draws every one without overlap.
  std::multiset<std::string> shown;
  for (const auto& c : a.columns) shown.insert(c.begin(), c.end());
  EXPECT_EQ(shown, std::multiset<std::string>(views.begin(), views.end()));
  const WorkspaceLayout l = layout_workspace(area, a, 8);
  EXPECT_EQ(l.panes.size(), views.size());
  for (size_t i = 0; i < l.panes.size(); ++i)
    for (size_t j = i + 1; j < l.panes.size(); ++j) EXPECT_FALSE(overlap(l.panes[i].second, l.panes[j].second));
  a.maximized = "perf";
  EXPECT_FALSE(drop_target(layout_workspace(area, a, 8), a, "code", pane("perf").min).valid());
  // A strip of tabs (a laptop's window): dropped there, the view joins that column's tabs and is the one shown.
  a = Arrangement{};
  reconcile(&a, views);
  const Rect laptop{{8, 48}, {1358, 760}};
  const WorkspaceLayout tabbed = layout_workspace(laptop, a, 8, limits_at(15));
  ASSERT_FALSE(tabbed.tabs.empty());
  const TabStrip& strip = tabbed.tabs.front();
  const std::string outsider = *std::find_if(views.begin(), views.end(), [&](const std::string& v) {
    return std::find(strip.views.begin(), strip.views.end(), v) == strip.views.end();
  });
  const DropTarget onto_tabs = drop_target(tabbed, a, outsider, {strip.rect.min.x + 5, strip.rect.min.y + 5});
  ASSERT_EQ(onto_tabs.side, DropTarget::kBelow);
  ASSERT_TRUE(move_view(&a, outsider, onto_tabs));
  const WorkspaceLayout after = layout_workspace(laptop, a, 8, limits_at(15));
  EXPECT_TRUE(std::any_of(after.tabs.begin(), after.tabs.end(), [&](const TabStrip& t) {
    return t.shown == outsider && t.views.back() == outsider;
  })) << outsider;
}

// Before the drop, what it leaves in sight: a new column in a window too narrow for one more folds others into tabs,
// and a place too small for the view makes it a tab (the label had promised a column, the drop made a tab).
TEST(Workspace, ADropSaysBeforehandWhatItFoldsIntoTabs) {
  const std::vector<std::string> views = view_names();
  Arrangement a;
  reconcile(&a, views);
  const PaneLimits lim = limits_at(15);
  const Rect window{{8, 48}, {1592, 892}};  // 1600x900: every view a pane
  const WorkspaceLayout l = layout_workspace(window, a, 8, lim);
  ASSERT_TRUE(l.tabs.empty());
  const auto pane = [&](const WorkspaceLayout& w, const std::string& v) {
    return std::find_if(w.panes.begin(), w.panes.end(), [&](const auto& p) { return p.first == v; })->second;
  };
  // Code in a column of its own left of the fragment layout: four columns do not fit, so some fold into tabs.
  const Rect lay = pane(l, "layout");
  const DropTarget left = drop_target(l, a, "code", {lay.min.x + 5, lay.center().y});
  ASSERT_EQ(left.side, DropTarget::kLeft);
  const DropOutcome o = drop_outcome(window, a, "code", left, 8, lim);
  EXPECT_TRUE(o.changes);
  EXPECT_GT(o.folded, 0);
  Arrangement moved = a;
  ASSERT_TRUE(move_view(&moved, "code", left));
  const WorkspaceLayout after = layout_workspace(window, moved, 8, lim);
  EXPECT_EQ(after.panes.size(), l.panes.size() - size_t(o.folded) - (o.as_tab ? 1 : 0));
  // The timeline below the code view, in its own column: no change in what is in sight.
  const Rect code = pane(l, "code");
  const DropOutcome same = drop_outcome(window, a, "timeline", drop_target(l, a, "timeline", {code.center().x, code.max.y - 5}), 8, lim);
  EXPECT_TRUE(same.changes);
  EXPECT_FALSE(same.as_tab);
  EXPECT_EQ(same.folded, 0);
  // Onto itself: nothing changes, nothing to say.
  EXPECT_FALSE(drop_outcome(window, a, "code", DropTarget{}, 8, lim).changes);
  // A laptop's window: a view dropped under the pane of a column shown as tabs is one more of its tabs.
  const Rect laptop{{8, 48}, {1358, 760}};
  const WorkspaceLayout small = layout_workspace(laptop, a, 8, lim);
  ASSERT_FALSE(small.tabs.empty());
  const TabStrip& strip = small.tabs.front();
  const std::string outsider = *std::find_if(views.begin(), views.end(), [&](const std::string& v) {
    return std::find(strip.views.begin(), strip.views.end(), v) == strip.views.end();
  });
  const Rect shown = pane(small, strip.shown);
  const DropTarget under = drop_target(small, a, outsider, {shown.center().x, shown.max.y - 5});
  ASSERT_EQ(under.side, DropTarget::kBelow);
  EXPECT_TRUE(drop_outcome(laptop, a, outsider, under, 8, lim).as_tab) << outsider;
}

// A gap between two columns each at its view's narrowest (a laptop's window) cannot move: the window says so on
// hover; at 1920x1080 the same gap moves.
TEST(Workspace, AGapBetweenPanesAtTheirNarrowestSaysItCannotMove) {
  Arrangement a;
  reconcile(&a, view_names());
  const PaneLimits lim = limits_at(15);
  const auto column_gaps = [&](Rect area) {
    std::vector<Splitter> out;
    for (const Splitter& s : layout_workspace(area, a, 8, lim).splitters)
      if (s.column >= 0 && s.row < 0) out.push_back(s);
    return out;
  };
  const Rect hd{{8, 48}, {1912, 1072}};
  ASSERT_FALSE(column_gaps(hd).empty());
  for (const Splitter& s : column_gaps(hd)) EXPECT_TRUE(splitter_moves(a, s, hd, 8, 150, lim)) << s.column;
  // Narrow enough that the three columns stand at their views' narrowest: some gap between them is stuck.
  bool stuck = false;
  const Rect laptop{{8, 48}, {1358, 760}};
  for (const Splitter& s : column_gaps(laptop)) stuck = stuck || !splitter_moves(a, s, laptop, 8, 150, lim);
  EXPECT_TRUE(stuck);
}

TEST(Workspace, ReconcileRepairsOldOrDamagedArrangements) {
  Arrangement a;
  a.columns = {{"layout", "gone", "layout"}, {}, {"perf"}};
  a.column_w = {0.5f, std::nanf(""), -3};
  a.row_h = {{1, 1, 1}};
  a.list_w = 9;
  a.maximized = "nope";
  reconcile(&a, {"layout", "banks", "perf"});
  std::multiset<std::string> shown;
  for (const auto& col : a.columns)
    for (const auto& v : col) shown.insert(v);
  EXPECT_EQ(shown, (std::multiset<std::string>{"banks", "layout", "perf"}));  // each once, the new one added
  ASSERT_EQ(a.column_w.size(), a.columns.size());
  float sum = 0;
  for (float w : a.column_w) {
    EXPECT_TRUE(std::isfinite(w) && w > 0);
    sum += w;
  }
  EXPECT_NEAR(sum, 1, 1e-4);
  for (size_t c = 0; c < a.columns.size(); ++c) EXPECT_EQ(a.row_h[c].size(), a.columns[c].size());
  EXPECT_LT(a.list_w, 0.5f);
  EXPECT_EQ(a.maximized, "");
}

// ---- Settings ------------------------------------------------------------------------------------

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("gemmscope-app-test-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

TEST(Settings, RoundTripKeepsWhatTheUserChose) {
  TempDir dir;
  const std::string path = (dir.path / "sub" / "settings.json").string();
  ViewState st;
  st.kernel = "mma_tf32/04_registers";
  st.dark = false;
  st.zoom = 1.3f;
  st.presentation = true;
  st.presentation_zoom = 1.75f;  // the projector's own zoom, beside the desk's 1.3
  st.hint_dismissed = true;
  st.layout_follow = false;
  st.layout_op = "ldmatrix.x2.trans";
  st.perf_dtype = "f16.f16";
  reconcile(&st.arrangement, {"layout", "banks", "perf"});
  st.arrangement.maximized = "banks";
  st.arrangement.column_w = {0.3f, 0.7f};
  activate(&st.arrangement, "perf");  // the tab a short window shows in its column
  std::string error;
  ASSERT_TRUE(save_settings(path, st, &error)) << error;
  ViewState back;
  std::string notice;
  ASSERT_TRUE(load_settings(path, &back, &notice));
  EXPECT_EQ(notice, "");
  EXPECT_EQ(settings_json(back), settings_json(st));
  EXPECT_EQ(back.kernel, "mma_tf32/04_registers");
  EXPECT_FLOAT_EQ(back.zoom, 1.3f);
  EXPECT_FLOAT_EQ(back.effective_zoom(), 1.75f);
  EXPECT_EQ(back.arrangement.maximized, "banks");
  EXPECT_EQ(back.arrangement.recent, std::vector<std::string>{"perf"});
  // Written atomically: nothing but the file is left in its folder.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path / "sub"), fs::directory_iterator()), 1);
}

TEST(Settings, NoFileIsAFirstStartAndADamagedOneGivesDefaultsAndANotice) {
  TempDir dir;
  ViewState st;
  std::string notice;
  EXPECT_FALSE(load_settings((dir.path / "none.json").string(), &st, &notice));
  EXPECT_EQ(notice, "");
  const std::string path = (dir.path / "settings.json").string();
  const ViewState defaults;
  for (const std::string& bad :
       {std::string("{"), std::string("[]"), std::string("{\"schema\": \"something else\"}"),
        std::string("{\"schema\": \"gemmscope-settings/1\", \"zoom\": 1e400}"),
        std::string("{\"schema\": \"gemmscope-settings/1\", \"zoom\": 99}"),
        std::string("{\"schema\": \"gemmscope-settings/1\", \"presentation_zoom\": 100}"),
        std::string("{\"schema\": \"gemmscope-settings/1\", \"dark\": \"yes\"}"),
        std::string("{\"schema\": \"gemmscope-settings/1\", \"arrangement\": {\"columns\": [[1, 2]]}}"),
        std::string(20000, '[') + std::string(20000, ']'), std::string("\x89PNG\r\n", 6)}) {
    std::ofstream(path, std::ios::binary) << bad;
    ViewState got;
    notice.clear();
    EXPECT_TRUE(load_settings(path, &got, &notice)) << bad.substr(0, 40);
    EXPECT_NE(notice.find("could not be used"), std::string::npos) << bad.substr(0, 40);
    EXPECT_NE(notice.find(path), std::string::npos);
    EXPECT_EQ(settings_json(got), settings_json(defaults)) << bad.substr(0, 40);
  }
  // A zoom under the 80% floor, from a file written before it, opens at the floor.
  std::ofstream(path) << "{\"schema\": \"gemmscope-settings/1\", \"zoom\": 0.6, \"presentation_zoom\": 0.5}";
  ViewState got;
  notice.clear();
  EXPECT_TRUE(load_settings(path, &got, &notice));
  EXPECT_EQ(notice, "");
  EXPECT_FLOAT_EQ(got.zoom, kMinZoom);
  EXPECT_FLOAT_EQ(got.presentation_zoom, kMinZoom);
}

// ---- What the layout view follows ----------------------------------------------------------------

TEST(Follow, EveryRungNamesItsOwnInstructionsOrItsThreadTiling) {
  for (const KernelInfo& k : kernel_registry()) {
    if (k.family == "sgemm") {
      EXPECT_TRUE(k.ops.empty()) << k.name;
      EXPECT_TRUE(k.thread_tiling.described()) << k.name;
      continue;
    }
    ASSERT_FALSE(k.ops.empty()) << k.name;
    for (const std::string& op : k.ops) EXPECT_NE(find_mma_op(op), nullptr) << k.name << " " << op;
    const std::string first = k.ops.front();
    const std::string want = k.family == "mma_tf32" ? "mma.m16n8k8.tf32"
                             : k.family == "mma_f16" ? "mma.m16n8k16.f16"
                             : k.family == "wmma"    ? "wmma.m16n16k16.f16"
                             : k.family == "hopper"  ? "wgmma.m64n16k16.f16"  // the accumulator, drawn at N = 16
                                                     : first;
    EXPECT_EQ(first, want) << k.name;
  }
  // The rungs that load fragments with ldmatrix show its layouts too.
  const KernelInfo* f16 = find_kernel("mma_f16/08_ldmatrix");
  ASSERT_NE(f16, nullptr);
  EXPECT_EQ(f16->ops, (std::vector<std::string>{"mma.m16n8k16.f16", "ldmatrix.x4", "ldmatrix.x4.trans"}));
  const KernelInfo* tf32 = find_kernel("mma_tf32/10_multistage");
  ASSERT_NE(tf32, nullptr);
  EXPECT_EQ(tf32->ops, (std::vector<std::string>{"mma.m16n8k8.tf32", "ldmatrix.x4"}));
}

// The thread tiling a rung declares covers its block tile exactly once, and thread_at inverts thread_cells.
TEST(Follow, ThreadTilingsAddUp) {
  int checked = 0;
  for (const KernelInfo& k : kernel_registry()) {
    if (!k.thread_tiling.described() || k.name.find('[') != std::string::npos) continue;  // variants: the rung's
    const ThreadTiling& tt = k.thread_tiling;
    ThreadViewInput in;
    in.kernel = k.name;
    in.block_m = k.block_m, in.block_n = k.block_n, in.block_k = tt.block_k, in.threads = k.threads;
    in.warps_m = tt.warps_m, in.warps_n = tt.warps_n, in.threads_m = tt.threads_m, in.threads_n = tt.threads_n;
    in.column_major = tt.column_major, in.tm = tt.tm, in.tn = tt.tn, in.reps_m = tt.reps_m, in.reps_n = tt.reps_n;
    ASSERT_TRUE(in.described()) << k.name;
    std::vector<int> owner(size_t(k.block_m) * k.block_n, -1);
    for (int t = 0; t < k.threads; ++t)
      for (const ThreadCell& c : thread_cells(in, t)) {
        ASSERT_TRUE(c.row >= 0 && c.row < k.block_m && c.col >= 0 && c.col < k.block_n) << k.name << " thread " << t;
        int& o = owner[size_t(c.row) * k.block_n + c.col];
        EXPECT_EQ(o, -1) << k.name << ": C[" << c.row << "][" << c.col << "] computed twice";
        o = t;
        EXPECT_EQ(thread_at(in, c.row, c.col), t) << k.name;
      }
    EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0) << k.name;
    ++checked;
  }
  EXPECT_EQ(checked, 11);  // every sgemm rung
  // The ones a reader checks by eye: sgemm/01's lanes run down a column, 02's along a row.
  const KernelInfo* naive = find_kernel("sgemm/01_naive");
  ASSERT_NE(naive, nullptr);
  EXPECT_TRUE(naive->thread_tiling.column_major);
  EXPECT_FALSE(find_kernel("sgemm/02_gmem_coalesce")->thread_tiling.column_major);
}

// ---- The audit the GUI tests rely on -------------------------------------------------------------

TEST(LayoutAudit, ReportsOverlapsAndNotTouchingNeighbours) {
  ui::LayoutAudit a;
  a.items = {{"a", Rect{{0, 0}, {100, 20}}}, {"b", Rect{{100, 0}, {200, 20}}}, {"c", Rect{{150, 10}, {260, 30}}}};
  const std::vector<std::string> o = a.overlaps();
  ASSERT_EQ(o.size(), 1u);  // a and b touch, b and c overlap by 50x10
  EXPECT_NE(o[0].find("'b' overlaps 'c' by 50x10 px"), std::string::npos) << o[0];
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// The device panel's words for NVML's clock event bits; idle is no hold-back.
TEST(DevicePanel, ThrottleReasonsInWords) {
  DeviceState d;
  EXPECT_EQ(d.throttled(), "");
  d.reasons = 0x1;  // GPU idle
  EXPECT_EQ(d.throttled(), "");
  d.reasons = 0x4 | 0x40;
  EXPECT_EQ(d.throttled(), "power cap, thermal (hardware)");
}

// Where the driver's NVML is missing (this CPU machine), opening it still gives an object that says why.
TEST(DevicePanel, MissingNvmlSaysWhy) {
  if (dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_NOLOAD) || access("/proc/driver/nvidia/version", F_OK) == 0)
    GTEST_SKIP() << "an NVIDIA driver is here";
  const std::unique_ptr<Nvml> nvml = Nvml::open(0);
  ASSERT_NE(nvml, nullptr);
  const DeviceState s = nvml->read();
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.error.find("NVML"), std::string::npos) << s.error;
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// Rungs side by side are compared at one size. mma_f16/13 is recorded at 5120x1280x4096, where it splits tiles along
// k (at 4096^3 it is rung 12's launch), with 4096^3 in its sweep: the list, the bars and the roofline take that sweep
// run, beside the others' 4096^3 runs; its launch-order and timeline views keep the traced 5120x1280x4096 run.
TEST(KernelList, RungsAreComparedAtTheSizeMostWereRecordedAt) {
  Capture c;
  const auto add = [&](const char* kernel, int m, int n, int k, double tflops) {
    RunRecord r;
    r.kernel = kernel, r.dtype = "f16.f32", r.tflops = tflops, r.m = m, r.n = n, r.k = k;
    c.runs.push_back(r);
    return c.runs.size() - 1;
  };
  add("mma_f16/11_tma_producer", 4096, 4096, 4096, 502);
  add("mma_f16/12_persistent", 4096, 4096, 4096, 511);
  add("mma_f16/12_persistent", 8192, 8192, 8192, 437);
  const size_t traced = add("mma_f16/13_stream_k", 5120, 1280, 4096, 435);
  add("mma_f16/13_stream_k", 2048, 2048, 2048, 355);
  const size_t sweep = add("mma_f16/13_stream_k", 4096, 4096, 4096, 480);
  const size_t alone = add("mma_tf32/99_elsewhere", 1024, 1024, 1024, 100);  // no run at 4096^3: its own
  EXPECT_EQ(main_run(&c, "mma_f16/13_stream_k", ""), &c.runs[traced]);
  EXPECT_EQ(ladder_run(&c, "mma_f16/13_stream_k", ""), &c.runs[sweep]);
  EXPECT_EQ(ladder_run(&c, "mma_f16/13_stream_k", "f16.f32"), &c.runs[sweep]);
  EXPECT_EQ(ladder_run(&c, "mma_f16/12_persistent", "")->tflops, 511);
  EXPECT_EQ(ladder_run(&c, "mma_tf32/99_elsewhere", ""), &c.runs[alone]);
  EXPECT_EQ(ladder_run(&c, "mma_f16/13_stream_k", "f16.f16"), nullptr);
  EXPECT_EQ(ladder_run(&c, "nothing/01", ""), nullptr);
  // Most kernels recorded at 5120x1280x4096: that is the size they are compared at.
  Capture other = c;
  for (RunRecord& r : other.runs)
    if (r.kernel != "mma_f16/13_stream_k") r.m = 5120, r.n = 1280;
  EXPECT_EQ(ladder_run(&other, "mma_f16/13_stream_k", "")->tflops, 435);
}

// Rungs side by side show numbers of one dtype: the family's (the first dtype of most of its rungs), and a rung
// measured only in another says which. In the bundled capture wmma/10 runs f16.f16 only, and its 487 TFLOP/s
// stood above wmma/11's f16.f32 472 as if 11 were slower (it runs 509 in f16.f16).
TEST(KernelList, RungsBesideEachOtherShowOneDtypeOrSayWhichNot) {
  Capture c;
  const auto add = [&](const char* kernel, const char* dtype, double tflops) {
    RunRecord r;
    r.kernel = kernel, r.dtype = dtype, r.tflops = tflops, r.m = r.n = r.k = 4096;
    c.runs.push_back(r);
  };
  add("wmma/09_pipelined", "f16.f32", 470), add("wmma/09_pipelined", "f16.f16", 500);
  add("wmma/10_warp_128x64", "f16.f16", 487);
  add("wmma/11_ldmatrix_xor", "f16.f32", 472), add("wmma/11_ldmatrix_xor", "f16.f16", 509);
  add("sgemm/01_naive", "f32", 0.5);
  const std::map<std::string, std::string> fam = family_dtypes(&c);
  EXPECT_EQ(fam.at("wmma"), "f16.f32");
  EXPECT_EQ(fam.at("sgemm"), "f32");
  EXPECT_EQ(fam.count("hopper"), 0u);  // nothing measured
  bool other = true;
  EXPECT_EQ(headline_dtype(dtypes_of(&c, "wmma/11_ldmatrix_xor"), "f16.f32", &other), "f16.f32");
  EXPECT_FALSE(other);
  EXPECT_EQ(headline_dtype(dtypes_of(&c, "wmma/10_warp_128x64"), "f16.f32", &other), "f16.f16");
  EXPECT_TRUE(other);
  EXPECT_EQ(headline_dtype(dtypes_of(&c, "hopper/01_tma_wgmma"), "", &other), "");
  EXPECT_FALSE(other);
  // The list drawn for a shot: the family's row names its dtype, wmma/10's row its own.
  SvgCanvas svg(400, 2400, Theme::Dark().bg);  // tall enough for sgemm's and wmma's rows
  Frame f;
  f.capture = &c;
  ViewState st;
  st.kernel = "wmma/11_ldmatrix_xor";
  ViewContext ctx{f, st, Theme::Dark()};
  draw_kernel_list(svg, {{0, 0}, {400, 2400}}, ctx);
  const std::string doc = svg.finish();
  EXPECT_NE(doc.find(">f16.f32</text>"), std::string::npos);
  EXPECT_NE(doc.find(">f16.f16</text>"), std::string::npos);
  EXPECT_NE(doc.find(">487</text>"), std::string::npos);
  EXPECT_NE(doc.find(">472</text>"), std::string::npos);
  EXPECT_EQ(doc.find(">509</text>"), std::string::npos);  // 11's row shows the family's dtype
}

// A name drawn by text_fit keeps every pixel of its glyphs at every zoom: ImGui clips a line at its height, and at
// 14 and 20 px (zoom 95% and 135%) DejaVu's underscore lies just below it, so the kernel list read "03 cp async".
// The glyphs text_fit draws must be the ones an unclipped AddText draws, vertex for vertex.
TEST(TextFit, NamesKeepTheirUnderscoresAtEveryZoom) {
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (!fs::exists(font)) GTEST_SKIP() << "no DejaVu Sans (fonts-dejavu-core)";
  for (const float zoom : {0.9f, 0.95f, 1.0f, 1.1f, 1.25f, 1.35f, 1.5f, 2.0f}) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 900);
    io.IniFilename = nullptr;
    if (!io.Fonts->AddFontFromFileTTF(font, 15.0f * zoom)) ADD_FAILURE() << "DejaVu Sans did not load";
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(800, 600));
    ImGui::Begin("t");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const std::string name = "03_cp_async";
    const int v0 = dl->VtxBuffer.Size;
    ui::text_fit(name, 1000);
    const int v1 = dl->VtxBuffer.Size;
    dl->AddText(ImVec2(100, 300), IM_COL32_WHITE, name.c_str());  // unclipped, to compare the glyphs' heights
    const int v2 = dl->VtxBuffer.Size;
    EXPECT_EQ(v1 - v0, v2 - v1) << zoom << ": glyphs dropped";
    if (v1 - v0 == v2 - v1) {
      float clipped_h = 0, whole_h = 0;
      for (int i = 0; i < v1 - v0; i += 4) {  // each glyph a quad: its top-left, then its bottom-right two on
        clipped_h += dl->VtxBuffer[v0 + i + 2].pos.y - dl->VtxBuffer[v0 + i].pos.y;
        whole_h += dl->VtxBuffer[v1 + i + 2].pos.y - dl->VtxBuffer[v1 + i].pos.y;
      }
      EXPECT_FLOAT_EQ(clipped_h, whole_h) << "zoom " << zoom << ": part of a glyph clipped";
    }
    ImGui::End();
    ImGui::Render();
    ImGui::DestroyContext();
  }
}

// Ctrl +/- land on the zooms a lecturer names: x1.1 steps from 100% gave 110, 120, 130, 145, 160, 175, 195%, never
// 150% or 200%.
TEST(Zoom, StepsLandOnRoundZooms) {
  std::vector<int> up;
  for (float z = 1.0f; z < 3.0f;) up.push_back(int(std::lround((z = zoom_step(z, +1)) * 100)));
  EXPECT_EQ(up, (std::vector<int>{110, 125, 150, 175, 200, 250, 300}));
  EXPECT_FLOAT_EQ(zoom_step(3.0f, +1), 3.0f);
  EXPECT_FLOAT_EQ(zoom_step(1.0f, -1), 0.9f);
  EXPECT_FLOAT_EQ(zoom_step(0.8f, -1), 0.8f);  // the floor: below it the widgets' text falls under 12 px
  EXPECT_FLOAT_EQ(zoom_step(0.9f, -1), 0.8f);
  EXPECT_FLOAT_EQ(zoom_step(1.3f, +1), 1.5f);  // a settings file's zoom between steps
  EXPECT_FLOAT_EQ(zoom_step(1.3f, -1), 1.25f);
}

// Every rung name stays whole, as README promises: the list drops what it must, widest first. In the default
// window (a list 330 px wide at 1600x900) "11_block_128x256_k16" was cut to "11_block_128x256..." beside both
// columns; the ratio's header shortens to "cuBLAS" there and the TFLOP/s stay. Narrower, the TFLOP/s go too.
// A capture with one run of every rung of this build (123.4 TFLOP/s, 500 for cuBLAS, at 4096^3).
Capture every_rung_once() {
  Capture c;
  for (const KernelInfo& k : kernel_registry()) {
    if (k.name.find('[') != std::string::npos) continue;
    RunRecord r;
    r.kernel = k.name, r.dtype = "f32", r.tflops = 123.4, r.cublas_tflops = 500, r.m = r.n = r.k = 4096;
    c.runs.push_back(r);
  }
  return c;
}

// A short list scrolled to a ladder's last rung names that ladder over its first row (the picture of F12 at 200% had
// shown "13_stream_k" under no family's name).
TEST(KernelList, AListScrolledPastTheFamilysNamePinsIt) {
  const Capture c = every_rung_once();
  Frame f;
  f.capture = &c;
  ViewState st;
  st.kernel = "mma_f16/13_stream_k";
  ViewContext ctx{f, st, Theme::Dark()};
  SvgCanvas svg(300, 500, Theme::Dark().bg);  // rows for about ten rungs: mma_f16's name is far above 13
  draw_kernel_list(svg, {{0, 0}, {300, 500}}, ctx);
  const std::string doc = svg.finish();
  const size_t family = doc.find(">mma_f16</text>"), rung = doc.find(">13_stream_k</text>");
  ASSERT_NE(rung, std::string::npos) << doc;
  ASSERT_NE(family, std::string::npos) << doc;
  EXPECT_LT(family, rung);  // drawn above it, first
  // Scrolled, not drawn from the ladder's start: the first "01_vectorized" is mma_tf32's, under 13.
  EXPECT_GT(doc.find(">01_vectorized</text>"), rung);
}

TEST(KernelList, EveryRungNameStaysWhole) {
  const Capture c = every_rung_once();
  Frame f;
  f.capture = &c;
  struct Case {
    float w;
    bool tflops;
    const char* header;
  };
  for (const Case& cs : {Case{420, true, "% of cuBLAS"}, Case{330, true, "cuBLAS"}, Case{260, false, "cuBLAS"}}) {
    int whole = 0;
    for (const KernelInfo& k : kernel_registry()) {  // each family's rungs, the family's first selected
      if (k.name.find('[') != std::string::npos || k.name.find("/01_") == std::string::npos) continue;
      SvgCanvas svg(cs.w, 3000, Theme::Dark().bg);
      ViewState st;
      st.kernel = k.name;
      ViewContext ctx{f, st, Theme::Dark()};
      draw_kernel_list(svg, {{0, 0}, {cs.w, 3000}}, ctx);
      const std::string doc = svg.finish();
      EXPECT_EQ(doc.find("...</text>"), std::string::npos) << cs.w << " px: a name cut";
      EXPECT_EQ(doc.find("\xE2\x80\xA6</text>"), std::string::npos) << cs.w << " px: a name cut";
      EXPECT_EQ(doc.find(">TFLOP/s</text>") != std::string::npos, cs.tflops) << cs.w << " px";
      EXPECT_NE(doc.find(std::string(">") + cs.header + "</text>"), std::string::npos) << cs.w << " px";
      for (const KernelInfo& r : kernel_registry())
        if (r.name.find('[') == std::string::npos && r.name.rfind(k.name.substr(0, k.name.find('/') + 1), 0) == 0)
          whole += doc.find(">" + r.name.substr(r.name.find('/') + 1) + "</text>") != std::string::npos;
    }
    EXPECT_GE(whole, 20) << cs.w << " px";
  }
  // Narrower still (a 300% zoom at 1600x900), the names alone: a ratio column left "0" of each name under "K".
  SvgCanvas svg(130, 3000, Theme::Dark().bg);
  ViewState st;
  ViewContext ctx{f, st, Theme::Dark()};
  draw_kernel_list(svg, {{0, 0}, {130, 3000}}, ctx);
  const std::string doc = svg.finish();
  EXPECT_EQ(doc.find(">cuBLAS</text>"), std::string::npos);
  EXPECT_EQ(doc.find("%</text>"), std::string::npos);
  EXPECT_NE(doc.find(">01_naive</text>"), std::string::npos);
  // Between the two (250% at 1600x900): a ratio column would leave the longest names cut ("10_warp_..."), so the
  // names go alone there too, every one whole.
  for (const float w : {175.0f, 200.0f, 220.0f}) {
    SvgCanvas mid(w, 3000, Theme::Dark().bg);
    for (const char* family : {"sgemm/01_naive", "wmma/01_naive", "mma_f16/01_vectorized", "mma_tf32/01_vectorized"}) {
      st.kernel = family;
      draw_kernel_list(mid, {{0, 0}, {w, 3000}}, ctx);
    }
    const std::string m = mid.finish();
    EXPECT_EQ(m.find("...</text>"), std::string::npos) << w << " px: a name cut";
    EXPECT_EQ(m.find("\xE2\x80\xA6</text>"), std::string::npos) << w << " px: a name cut";
  }
}

// The throughput view's cuBLAS curve over size is cuBLAS as timed beside the shown family's own runs (the median
// at each size), not whatever another family's recording measured last: the wmma ladder's curve moved when the
// mma_f16 family was recorded again in another process.
TEST(PerfPanel, CublasOverSizeIsTheShownFamilysOwn) {
  Capture c;
  const auto add = [&](const char* kernel, int n, double cublas) {
    c.runs.push_back(square_run(kernel, "f16.f32", n, cublas / 2, cublas));
  };
  add("wmma/01_naive", 256, 10), add("wmma/01_naive", 512, 20);
  add("wmma/02_smem", 256, 12), add("wmma/02_smem", 512, 22);
  add("wmma/03_warp_4x2", 256, 11), add("wmma/03_warp_4x2", 512, 90);
  add("mma_f16/01_vectorized", 256, 99), add("mma_f16/01_vectorized", 512, 99);  // recorded last, elsewhere
  Frame f;
  f.capture = &c;
  ViewState st;
  st.kernel = "wmma/01_naive";
  ViewContext ctx{f, st, Theme::Dark()};
  const std::unique_ptr<ViewPanel> perf = find_view("perf")->make();
  perf->Update(ctx);
  const std::string csv = perf->FigureCsv();
  EXPECT_NE(csv.find("cuBLAS f16.f32,f16.f32,256,11,"), std::string::npos) << csv;  // the median of 10, 11, 12
  EXPECT_NE(csv.find("cuBLAS f16.f32,f16.f32,512,22,"), std::string::npos) << csv;  // of 20, 22, 90
  EXPECT_EQ(csv.find(",99,"), std::string::npos) << csv;
}

// A rung the roofline's dtype leaves out is named under the plot, with the dtype it was measured in: the wmma ladder
// in f16.f32 went from 09 to 11 with nothing said of 10 (measured in f16.f16 only). A ladder with every rung drawn
// says nothing of the kind.
TEST(RooflinePanel, ARungMeasuredInAnotherDtypeOnlyIsNamedAsNotDrawn) {
  Capture c;
  const auto add = [&](const char* kernel, const char* dtype) {
    c.runs.push_back(square_run(kernel, dtype, 4096, 300, 700));
  };
  add("wmma/09_pipelined", "f16.f32"), add("wmma/09_pipelined", "f16.f16");
  add("wmma/10_warp_128x64", "f16.f16");
  add("wmma/11_ldmatrix_xor", "f16.f32"), add("wmma/11_ldmatrix_xor", "f16.f16");
  c.peaks = {{"tensor_f16_f32", 740, "TFLOP/s", "cuBLAS"}, {"tensor_f16_f16", 780, "TFLOP/s", "cuBLAS"},
             {"dram", 4.3, "TB/s", "probe"}, {"l2", 7.7, "TB/s", "probe"}};
  Frame f;
  f.capture = &c;
  const auto draw = [&](const char* kernel, const char* perf_dtype) {  // the roofline pane, maximised at 1920x1080
    ViewState st;
    st.kernel = kernel;
    st.perf_dtype = perf_dtype;
    ViewContext ctx{f, st, Theme::Dark()};
    const std::unique_ptr<ViewPanel> roof = find_view("roofline")->make();
    return pane_svg(*roof, ctx, 1900, 1000);
  };
  for (const char* dtype : {"f16.f32", "f16.f16"}) {
    const std::string doc = draw("wmma/11_ldmatrix_xor", dtype);
    const bool said = doc.find("Not drawn in f16.f32: 10 (f16.f16 only)") != std::string::npos;
    EXPECT_EQ(said, std::string(dtype) == "f16.f32") << dtype;
    EXPECT_EQ(doc.find("Not drawn in f16.f16"), std::string::npos);
  }
  // 10 itself selected, the throughput view still in f16.f32: the roofline draws 10's own dtype, so 10 is on it.
  const std::string doc = draw("wmma/10_warp_128x64", "f16.f32");
  EXPECT_NE(doc.find("f16.f16, 4096x4096x4096"), std::string::npos) << "the subtitle names 10's dtype";
  EXPECT_NE(doc.find(">wmma/10_warp_128x64</text>"), std::string::npos) << "10's dot, named";
  EXPECT_EQ(doc.find("Not drawn"), std::string::npos);
}

// Export names say the size the kernel was measured at and the GPU, so exports of two sizes or GPUs never
// share a name: "_4096_H200", "_4096x16384x4096_H100"; live, the live plot's size.
TEST(Export, NamesCarrySizeAndGpu) {
  Capture c;
  c.device.name = "NVIDIA H200";
  RunRecord r;
  r.kernel = "mma_f16/10_multistage";
  r.dtype = "f16.f32";
  r.m = r.n = r.k = 4096;
  c.runs.push_back(r);
  r.kernel = "mma_f16/07_swizzle";
  r.n = 16384;
  c.runs.push_back(r);
  Frame f;
  f.capture = &c;
  ViewState st;
  EXPECT_EQ(export_suffix(f, st, "mma_f16/10_multistage", "banks"), "_4096_H200");
  c.device.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(export_suffix(f, st, "mma_f16/07_swizzle", "swizzle"), "_4096x16384x4096_H100");
  EXPECT_EQ(export_suffix(f, st, "sgemm/01_naive", "perf"), "_H100");  // not measured: the GPU alone
  // A rung traced at a size of its own (mma_f16/13 at 5120x1280x4096) and timed beside its ladder at 4096^3: the views
  // of its traces are named by the traced size, the throughput, roofline and whole-window pictures by 4096^3.
  c.runs[1].kernel = "mma_f16/13_stream_k";
  c.runs[1].m = 5120, c.runs[1].n = 1280;
  r.m = r.n = r.k = 4096;
  r.kernel = "mma_f16/12_persistent";  // most of the ladder at 4096^3
  c.runs.push_back(r);
  r.kernel = "mma_f16/13_stream_k";
  c.runs.push_back(r);
  EXPECT_EQ(export_suffix(f, st, "mma_f16/13_stream_k", "swizzle"), "_5120x1280x4096_H100");
  EXPECT_EQ(export_suffix(f, st, "mma_f16/13_stream_k", "timeline"), "_5120x1280x4096_H100");
  EXPECT_EQ(export_suffix(f, st, "mma_f16/13_stream_k", "perf"), "_4096_H100");
  EXPECT_EQ(export_suffix(f, st, "mma_f16/13_stream_k", "roofline"), "_4096_H100");
  EXPECT_EQ(export_suffix(f, st, "mma_f16/13_stream_k", "all"), "_4096_H100");
  EXPECT_EQ(gpu_model(&c), "H100");  // a traced layout's TikZ file says the GPU alone
  EXPECT_EQ(gpu_model(nullptr), "");
  f.live = true;
  st.live_size = "8192x8192x8192";
  EXPECT_EQ(export_suffix(f, st, "mma_f16/10_multistage", "banks"), "_8192_H100");
  st.live_size = "1024x2048x512";
  EXPECT_EQ(export_suffix(f, st, "mma_f16/10_multistage", "banks"), "_1024x2048x512_H100");
  f.capture = nullptr;
  EXPECT_EQ(export_suffix(f, st, "mma_f16/10_multistage", "banks"), "");
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// Sets an environment variable for one test and puts the old value back.
struct ScopedEnv {
  std::string name, old;
  bool had = false;
  ScopedEnv(const char* n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n)) had = true, old = v;
    ::setenv(n, value.c_str(), 1);
  }
  ~ScopedEnv() { had ? (void)::setenv(name.c_str(), old.c_str(), 1) : (void)::unsetenv(name.c_str()); }
};

// The exports folder: beside the settings by default; a folder typed in the window is created where missing,
// refused in one sentence naming it where it cannot be one, and kept in the settings with the PNG scale.
TEST(Export, FolderIsCheckedCreatedAndKept) {
  const fs::path tmp = fs::temp_directory_path() / ("gemmscope-exports-test-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp / "home");
  ScopedEnv xdg("XDG_CONFIG_HOME", (tmp / "config").string());
  ScopedEnv home("HOME", (tmp / "home").string());
  ViewState st;
  EXPECT_EQ(exports_folder(st), (tmp / "config" / "gemmscope" / "exports").string());

  std::string dir, error;
  EXPECT_FALSE(choose_exports_folder("  ", &dir, &error));
  EXPECT_EQ(error, "exports folder: type a folder's path");
  std::ofstream(tmp / "a.png") << "x";
  EXPECT_FALSE(choose_exports_folder((tmp / "a.png").string(), &dir, &error));
  EXPECT_EQ(error, "exports folder '" + (tmp / "a.png").string() + "' is a file, not a folder");
  EXPECT_FALSE(choose_exports_folder((tmp / "a.png" / "sub").string(), &dir, &error));
  EXPECT_EQ(error.rfind("exports folder '" + (tmp / "a.png" / "sub").string() + "' cannot be created: ", 0), 0u) << error;
  EXPECT_EQ(dir, "");  // nothing taken from a refusal

  // A missing folder two levels deep is created; spaces around a pasted path and a trailing slash are dropped.
  EXPECT_TRUE(choose_exports_folder(" " + (tmp / "slides" / "figures").string() + "/ ", &dir, &error)) << error;
  EXPECT_EQ(dir, (tmp / "slides" / "figures").string());
  EXPECT_TRUE(fs::is_directory(dir));
  // "~/" is $HOME; a relative path is taken from the current folder and kept absolute.
  EXPECT_TRUE(choose_exports_folder("~/figs", &dir, &error)) << error;
  EXPECT_EQ(dir, (tmp / "home" / "figs").string());
  const fs::path cwd = fs::current_path();
  fs::current_path(tmp);
  EXPECT_TRUE(choose_exports_folder("rel/../out", &dir, &error)) << error;
  fs::current_path(cwd);
  EXPECT_EQ(dir, (tmp / "out").string());

  // Kept in the settings with the PNG scale, and read back.
  st.exports_dir = dir;
  st.export_scale = 3;
  const std::string path = (tmp / "config" / "gemmscope" / "settings.json").string();
  ASSERT_TRUE(save_settings(path, st, &error)) << error;
  ViewState back;
  std::string notice;
  ASSERT_TRUE(load_settings(path, &back, &notice));
  EXPECT_EQ(notice, "");
  EXPECT_EQ(back.exports_dir, (tmp / "out").string());
  EXPECT_EQ(back.export_scale, 3);
  EXPECT_EQ(exports_folder(back), (tmp / "out").string());
  // A settings file with a relative folder or a scale out of 1-4 is not ours to guess at: defaults and a notice.
  for (const std::string& bad : {std::string(R"({"schema": "gemmscope-settings/1", "exports": {"dir": "rel"}})"),
                                 std::string(R"({"schema": "gemmscope-settings/1", "exports": {"png_scale": 7}})"),
                                 std::string(R"({"schema": "gemmscope-settings/1", "exports": "here"})")}) {
    std::ofstream(path, std::ios::trunc) << bad;
    ViewState got;
    notice.clear();
    EXPECT_TRUE(load_settings(path, &got, &notice));
    EXPECT_NE(notice.find("could not be used"), std::string::npos) << bad;
    EXPECT_EQ(got.exports_dir, "");
    EXPECT_EQ(got.export_scale, 2);
  }
  fs::remove_all(tmp);
}

// One picture in two formats gets one name that neither has yet; names need no quoting in a shell.
TEST(Export, NumberedNamesAndFileSafeNames) {
  const fs::path tmp = fs::temp_directory_path() / ("gemmscope-stem-test-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  EXPECT_EQ(export_stem((tmp / "new").string(), "all_x", {".png", ".svg"}), (tmp / "new" / "all_x").string());
  EXPECT_TRUE(fs::is_directory(tmp / "new"));  // created where missing
  std::ofstream(tmp / "new" / "all_x.svg") << "x";
  EXPECT_EQ(export_stem((tmp / "new").string(), "all_x", {".png", ".svg"}), (tmp / "new" / "all_x_2").string());
  std::ofstream(tmp / "new" / "all_x_2.png") << "x";
  EXPECT_EQ(export_stem((tmp / "new").string(), "all_x", {".png", ".svg"}), (tmp / "new" / "all_x_3").string());
  EXPECT_EQ(export_stem((tmp / "new").string(), "all_x", {".tex"}), (tmp / "new" / "all_x").string());
  std::ofstream(tmp / "file") << "x";
  EXPECT_THROW(export_stem((tmp / "file" / "sub").string(), "a", {".png"}), std::runtime_error);
  fs::remove_all(tmp);

  EXPECT_EQ(file_safe("mma_f16/08_ldmatrix"), "mma_f16-08_ldmatrix");
  EXPECT_EQ(file_safe("mma_f16/10_multistage[order=cutlass:2]"), "mma_f16-10_multistage_order=cutlass_2");
  EXPECT_EQ(file_safe("wmma/08_multistage[pad=off,vec=off]"), "wmma-08_multistage_pad=off_vec=off");
  EXPECT_EQ(file_safe("Bs load (frag)"), "Bs_load_frag");
}


// The launch-order panel on the bundled capture. mma_tf32/07's bands span all of C at 4096^3, so its traced launch is
// row-major: the header says "at this size", the Nsight Compute lines (4096x16384x4096, where the bands differ) name
// both orders row-major first, as README's table, and the order beside it is the variant Nsight Compute measured,
// not whichever variant timed 0.1% faster.
TEST(SwizzlePanel, ABandedRungRowMajorAtItsTracedSizeSaysWhereItsOrderDiffers) {
  const Capture c = read_capture(std::string(GEMMSCOPE_ASSETS) + "/captures/h200.json.gz");
  const auto draw = [&](const std::string& kernel) {
    ViewState st;
    st.kernel = kernel;
    Frame f;
    f.capture = &c;
    std::unique_ptr<ViewPanel> panel = find_view("swizzle")->make();
    SvgCanvas svg(1600, 900, Theme::Dark().bg);
    draw_view_figure(svg, Rect{{0, 0}, {1600, 900}}, "swizzle", f, st, *panel);
    return svg.finish();
  };
  std::string svg = draw("mma_tf32/07_swizzle");
  EXPECT_NE(svg.find("row-major order at this size"), std::string::npos);
  EXPECT_NE(svg.find("L2 hit 75.2 \xE2\x86\x92 89.2%, DRAM read 4.30 \xE2\x86\x92 1.57 GB"), std::string::npos) << svg;
  EXPECT_NE(svg.find("mma_tf32/07_swizzle[order=cutlass:1]"), std::string::npos) << "not beside the profiled variant";
  // A rung banded at its traced size: its own order by name, beside its row-major variant.
  svg = draw("mma_f16/07_swizzle");
  EXPECT_NE(svg.find("cutlass:4 order"), std::string::npos);
  EXPECT_EQ(svg.find("at this size"), std::string::npos);
  EXPECT_NE(svg.find("mma_f16/07_swizzle[order=none]"), std::string::npos);
}

// The rung a view draws beside the selected one by default is the rung before it in its ladder, never a variant
// listed between them: mma_f16/11's bank view compared itself with mma_f16/10[ldmatrix=off], whose ldmatrix-free
// accesses are another lesson than 11's step.
TEST(RungBeside, TheRungBeforeNotAVariantBetween) {
  const std::vector<std::string> names = kernel_names(nullptr);
  EXPECT_EQ(rung_beside(names, "mma_f16/11_tma_producer"), "mma_f16/10_multistage");
  EXPECT_EQ(rung_beside(names, "mma_f16/10_multistage"), "mma_f16/09_xor_permuted");
  EXPECT_EQ(rung_beside(names, "mma_f16/10_multistage[xor=off]"), "mma_f16/10_multistage");  // a variant: its rung
  EXPECT_EQ(rung_beside(names, "sgemm/01_naive"), "sgemm/02_gmem_coalesce");  // the first rung: the one after
  EXPECT_EQ(rung_beside(names, "hopper/01_tma_wgmma"), "hopper/02_tile_128x256");
  EXPECT_EQ(rung_beside({"wmma/01_naive", "sgemm/01_naive"}, "sgemm/01_naive"), "");  // no rung of its family
  EXPECT_EQ(rung_beside(names, "nope/01"), "");

  // In the bank view: a capture whose runs list the variant between the two rungs.
  Capture c;
  for (const char* k : {"mma_f16/10_multistage", "mma_f16/10_multistage[ldmatrix=off]", "mma_f16/11_tma_producer"}) {
    c.runs.push_back(square_run(k, "f16.f32", 4096, 400, 700));
    SmemAccess a;
    a.kernel = k, a.site = "ldmatrix A", a.kind = "ldmatrix", a.width = 16;
    for (uint32_t l = 0; l < 32; ++l) a.addr[l] = l * 16;
    c.smem.push_back(a);
  }
  Frame f;
  f.capture = &c;
  ViewState st;
  st.kernel = "mma_f16/11_tma_producer";
  ViewContext ctx{f, st, Theme::Dark()};
  const std::unique_ptr<ViewPanel> banks = find_view("banks")->make();
  banks->Update(ctx);  // a new rung opens on its own site, compare off
  st.banks.compare = true;  // then ticked
  const std::string doc = pane_svg(*banks, ctx, 1900, 1000);
  EXPECT_NE(doc.find(">mma_f16/10_multistage \xC2\xB7 ldmatrix A"), std::string::npos) << "not compared with 10";
  EXPECT_EQ(doc.find("ldmatrix=off"), std::string::npos) << "compared with the variant";
}

// Each bar is labelled with the size it ran at, and the title with the size most ran at: a capture whose first rung had
// no 4096^3 run titled the chart 256x256x256 and wrote that size beside every other rung's 4096^3 numbers in the CSV.
TEST(PerfPanel, EveryBarSaysTheSizeItRanAt) {
  Capture c;
  const auto add = [&](const char* kernel, int n, double tflops) {
    c.runs.push_back(square_run(kernel, "f32", n, tflops, 50));
  };
  add("sgemm/01_naive", 256, 0.2);
  add("sgemm/02_gmem_coalesce", 4096, 6), add("sgemm/02_gmem_coalesce", 256, 1);  // its main run, then a sweep
  add("sgemm/03_smem_tiling", 4096, 8), add("sgemm/04_blocktile_1d", 4096, 16);
  Frame f;
  f.capture = &c;
  ViewState st;
  st.kernel = "sgemm/01_naive";
  ViewContext ctx{f, st, Theme::Dark()};
  const std::unique_ptr<ViewPanel> perf = find_view("perf")->make();
  const std::string doc = pane_svg(*perf, ctx, 1600, 900);
  const std::string csv = perf->FigureCsv();
  EXPECT_NE(csv.find("bars,sgemm/01_naive,f32,256x256x256,0.2,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("bars,sgemm/02_gmem_coalesce,f32,4096x4096x4096,6,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("bars,sgemm/03_smem_tiling,f32,4096x4096x4096,8,"), std::string::npos) << csv;
  EXPECT_NE(doc.find("= 4096\xC3\x97" "4096\xC3\x97" "4096"), std::string::npos) << "the title's size: most bars'";
  EXPECT_EQ(doc.find("= 256\xC3\x97" "256"), std::string::npos);
}

// Another op explored in the layout view: the strip under the grids says why the rung's warp tiling is not drawn,
// where it said "no warp tiling described for this rung (this rung)" of a rung that describes one.
TEST(LayoutPanel, AnExploredOpSaysWhyTheRungsWarpTilingIsNotDrawn) {
  Capture c;
  Frame f;
  f.capture = &c;
  ViewState st;
  st.kernel = "mma_f16/10_multistage";
  ViewContext ctx{f, st, Theme::Dark()};
  const std::unique_ptr<ViewPanel> layout = find_view("layout")->make();
  const auto draw = [&] { return pane_svg(*layout, ctx, 1600, 900); };
  const std::string own = draw();
  EXPECT_EQ(own.find("no warp tiling"), std::string::npos);
  st.layout_follow = false, st.layout_op = "mma.m16n8k8.tf32";
  const std::string other = draw();
  EXPECT_NE(other.find("mma_f16/10_multistage&apos;s warp tiling is drawn with its own mma.m16n8k16.f16, not with "
                       "mma.m16n8k8.tf32"), std::string::npos);
  EXPECT_EQ(other.find("this rung"), std::string::npos);
}

// A picture of the roofline gives the rates a dot's tooltip gives on screen: the deck's hopper pictures said "hover a
// dot" to a reader with no mouse.
TEST(RooflinePanel, APictureGivesTheRatesTheTooltipWould) {
  Capture c;
  c.runs.push_back(square_run("hopper/01_tma_wgmma", "f16.f32", 4096, 512, 700));
  c.peaks = {{"tensor_f16_f32", 740, "TFLOP/s", "cuBLAS"}, {"dram", 4.3, "TB/s", "probe"}, {"l2", 7.7, "TB/s", "probe"}};
  Frame f;
  f.capture = &c;
  ViewState st;
  st.kernel = c.runs[0].kernel;
  ViewContext ctx{f, st, Theme::Dark()};
  const std::unique_ptr<ViewPanel> roof = find_view("roofline")->make();
  const auto draw = [&] { return pane_svg(*roof, ctx, 1900, 1000); };
  EXPECT_NE(draw().find("(01: hover a dot)"), std::string::npos);
  const viz::PictureScope picture;
  const std::string doc = draw();
  EXPECT_EQ(doc.find("hover"), std::string::npos);
  // 64x128 tiles of 2-byte elements: 42.7 flop/byte, so 512 TFLOP/s took 12.0 TB/s
  EXPECT_NE(doc.find("(01 at 12.0 TB/s)"), std::string::npos);
}

}  // namespace
}  // namespace gs
