// The viz library through its SVG back end: the document is well-formed, the lane palette has the
// quad structure it promises, and the views draw what a reader of the slide needs (one coloured,
// labelled cell per element, mismatches marked, ratios to cuBLAS, failures) without overlapping text.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/capture_limits.h"
#include "core/layout_trace.h"
#include "viz/canvas_imgui.h"
#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

// ---- A minimal XML reader: enough to check structure and pull out elements -------------------

struct Element {
  std::string name;
  std::map<std::string, std::string> attr;
  std::string text;  // character data up to the next tag, entities decoded
};

std::string decode(const std::string& s) {
  static const std::pair<const char*, const char*> kEntities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    bool hit = false;
    for (auto [e, c] : kEntities)
      if (s.compare(i, std::strlen(e), e) == 0) {
        out += c;
        i += std::strlen(e);
        hit = true;
        break;
      }
    if (!hit) out += s[i++];
  }
  return out;
}

// Parses `svg`; returns the first structural problem, or "" when well-formed.
std::string parse(const std::string& svg, std::vector<Element>* out) {
  std::vector<std::string> open;
  std::vector<size_t> open_index;  // where each open element sits in *out
  size_t i = 0;
  auto check_text = [](const std::string& t) -> std::string {
    static const std::regex kEntity("^&(lt|gt|amp|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);");
    for (size_t k = 0; k < t.size(); ++k) {
      if (t[k] == '>') return "raw '>' in character data";
      if (t[k] == '&' && !std::regex_search(t.substr(k, 12), kEntity)) return "bare '&' in: " + t;
    }
    return "";
  };
  while (i < svg.size()) {
    size_t lt = svg.find('<', i);
    std::string chars = svg.substr(i, lt == std::string::npos ? std::string::npos : lt - i);
    if (auto e = check_text(chars); !e.empty()) return e;
    if (out && !open_index.empty()) (*out)[open_index.back()].text += decode(chars);
    if (lt == std::string::npos) break;
    if (svg.compare(lt, 5, "<?xml") == 0) {
      i = svg.find("?>", lt) + 2;
      continue;
    }
    size_t gt = svg.find('>', lt);
    if (gt == std::string::npos) return "unterminated tag";
    std::string tag = svg.substr(lt + 1, gt - lt - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag";
    i = gt + 1;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "unbalanced </" + tag.substr(1) + ">";
      open.pop_back();
      if (out) open_index.pop_back();
      continue;
    }
    bool self_closing = tag.back() == '/';
    if (self_closing) tag.pop_back();
    Element el;
    size_t k = tag.find_first_of(" \n");
    el.name = tag.substr(0, k);
    static const std::regex kAttr("\\s*([a-zA-Z_:][a-zA-Z0-9_:.-]*)=\"([^\"]*)\"");
    std::string rest = k == std::string::npos ? "" : tag.substr(k);
    auto begin = std::sregex_iterator(rest.begin(), rest.end(), kAttr);
    size_t consumed = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      if (size_t(it->position()) != consumed) return "junk in tag <" + tag + ">";
      consumed += it->length();
      if (el.attr.count((*it)[1])) return "duplicate attribute in <" + tag + ">";
      if (auto e = check_text((*it)[2]); !e.empty()) return e;
      el.attr[(*it)[1]] = decode((*it)[2]);
    }
    if (rest.find_first_not_of(" \n", consumed) != std::string::npos) return "junk in tag <" + tag + ">";
    if (out) out->push_back(el);
    if (!self_closing) {
      open.push_back(el.name);
      if (out) open_index.push_back(out->size() - 1);
    }
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

std::vector<Element> elements(const std::string& svg, const std::string& name) {
  std::vector<Element> all, some;
  std::string err = parse(svg, &all);
  EXPECT_EQ(err, "");
  for (auto& e : all)
    if (e.name == name) some.push_back(e);
  return some;
}

std::string hex(Color c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

float num(const Element& e, const char* a) { return e.attr.count(a) ? std::stof(e.attr.at(a)) : 0; }
Rect rect_of(const Element& e) {
  return {{num(e, "x"), num(e, "y")}, {num(e, "x") + num(e, "width"), num(e, "y") + num(e, "height")}};
}

// ---- Synthetic layouts: a made-up 8x8x4 op, 32 lanes, built by hand -------------------------

MmaOp test_op(bool documented = true) {
  MmaOp op;
  op.name = documented ? "mma.m8n8k4.test" : "wmma.m8n8k4.test";
  op.m = 8, op.n = 8, op.k = 4;
  op.a_type = "f16", op.c_type = "f32";
  op.documented = documented;
  op.elems_a = 1, op.elems_b = 1, op.elems_c = 2;
  return op;
}

// A 8x4: lane l holds (l/4, l%4); B 4x8: (l%4, l/4); C 8x8: lane l, elem e holds (l/4, 2*(l%4)+e).
FragmentLayout layout(const std::string& operand, const std::string& source) {
  FragmentLayout l;
  l.op = "mma.m8n8k4.test", l.operand = operand, l.source = source;
  for (int lane = 0; lane < 32; ++lane) {
    if (operand == "A") l.cells.push_back({lane, 0, lane / 4, lane % 4});
    if (operand == "B") l.cells.push_back({lane, 0, lane % 4, lane / 4});
    if (operand == "C")
      for (int e = 0; e < 2; ++e) l.cells.push_back({lane, e, lane / 4, 2 * (lane % 4) + e});
  }
  l.rows = operand == "B" ? 4 : 8;
  l.cols = operand == "A" ? 4 : 8;
  return l;
}

struct Layouts {
  FragmentLayout a = layout("A", "documented"), b = layout("B", "documented"), c = layout("C", "documented");
  LayoutViewInput input(const MmaOp& op) const {
    LayoutViewInput in;
    in.op = &op;
    in.documented = {&a, &b, &c};
    return in;
  }
};

// The smallest font-size attribute of the SVG's text elements.
float min_font_px(const std::string& svg) {
  float smallest = 1e9f;
  for (const Element& e : elements(svg, "text"))
    if (e.attr.count("font-size")) smallest = std::min(smallest, std::stof(e.attr.at("font-size")));
  return smallest;
}

std::string draw_layout(const LayoutViewInput& in, const Theme& t, LayoutViewState st = {},
                        Vec2 mouse = {-1, -1}, LayoutHover* hover = nullptr, float w = 1200, float h = 800) {
  SvgCanvas c(w, h, t.bg);
  draw_layout_view(c, {{0, 0}, {w, h}}, t, in, st, mouse, hover);
  return c.finish();
}

// Lane-coloured cell rectangles: the biggest lane-coloured squares (legend swatches are smaller).
std::vector<std::pair<int, Rect>> lane_cells(const std::string& svg, const Theme& t) {
  std::map<std::string, int> lane_of;
  for (int l = 0; l < 32; ++l) lane_of[hex(lane_color(l, t))] = l;
  std::vector<std::pair<int, Rect>> cells;
  float biggest = 0;
  for (const Element& e : elements(svg, "rect")) {
    auto f = e.attr.find("fill");
    if (f == e.attr.end() || !lane_of.count(f->second)) continue;
    cells.push_back({lane_of[f->second], rect_of(e)});
    biggest = std::max(biggest, cells.back().second.w());
  }
  cells.erase(std::remove_if(cells.begin(), cells.end(),
                             [&](const auto& c) { return c.second.w() < biggest * 0.9f; }),
              cells.end());
  return cells;
}

std::vector<std::string> texts(const std::string& svg) {
  std::vector<std::string> v;
  for (const Element& e : elements(svg, "text")) v.push_back(e.text);
  return v;
}

// All text of the drawing in order, one space between elements: wrapped captions read as one sentence.
std::string all_text(const std::string& svg) {
  std::string s;
  for (const std::string& t : texts(svg)) s += t + " ";
  return s;
}

int count_if_contains(const std::vector<std::string>& v, const std::string& needle) {
  return int(std::count_if(v.begin(), v.end(),
                           [&](const std::string& s) { return s.find(needle) != std::string::npos; }));
}

// Text boxes from the SVG (baseline, anchor and em size undone), measured as SvgCanvas measures.
std::vector<std::pair<std::string, Rect>> text_boxes(const std::string& svg) {
  SvgCanvas measure(1, 1, {});
  const float em_per_line = 2048.0f / (1901 + 483), ascent = 1901.0f / (1901 + 483);
  std::vector<std::pair<std::string, Rect>> boxes;
  for (const Element& e : elements(svg, "text")) {
    float size = num(e, "font-size") / em_per_line;
    Font f = e.attr.at("font-family").find("Mono") != std::string::npos ? Font::Mono
             : e.attr.count("font-weight")                              ? Font::SansBold
                                                                        : Font::Sans;
    float w = measure.text_size(e.text, size, f).x, x = num(e, "x"), top = num(e, "y") - ascent * size;
    std::string anchor = e.attr.count("text-anchor") ? e.attr.at("text-anchor") : "start";
    if (anchor == "middle") x -= w / 2;
    if (anchor == "end") x -= w;
    boxes.push_back({e.text, {{x, top}, {x + w, top + size}}});
  }
  return boxes;
}

// "" when no two text boxes overlap (by more than a pixel's slack), else the first pair.
std::string overlapping_text(const std::string& svg) {
  auto boxes = text_boxes(svg);
  for (size_t i = 0; i < boxes.size(); ++i)
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      Rect a = boxes[i].second.inset(0.75f), b = boxes[j].second.inset(0.75f);
      if (a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y)
        return "'" + boxes[i].first + "' overlaps '" + boxes[j].first + "'";
    }
  return "";
}

// Everything drawn stays inside the canvas.
std::string outside(const std::string& svg, float w, float h) {
  for (const auto& [s, r] : text_boxes(svg))
    if (r.min.x < -0.5f || r.min.y < -0.5f || r.max.x > w + 0.5f || r.max.y > h + 0.5f) return s;
  return "";
}

TEST(Checks, OverlapAndOutsideDetectorsFire) {
  SvgCanvas c(100, 50, {});
  c.text({10, 10}, "overlapping", Color::rgb(0xffffff), 12);
  c.text({30, 14}, "text", Color::rgb(0xffffff), 12);
  c.text({95, 40}, "past the edge", Color::rgb(0xffffff), 12);
  std::string svg = c.finish();
  EXPECT_EQ(overlapping_text(svg), "'overlapping' overlaps 'text'");
  EXPECT_EQ(outside(svg, 100, 50), "past the edge");
  EXPECT_NE(parse("<svg><g></svg>", nullptr), "");
  EXPECT_NE(parse("<svg><text>a & b</text></svg>", nullptr), "");
}

// ---- SvgCanvas -----------------------------------------------------------------------------

TEST(SvgCanvas, WellFormedWithNamespaceSizeAndEscapedText) {
  SvgCanvas c(320, 200, Color::rgb(0x101010));
  c.rect_filled({{1, 2}, {30, 40}}, Color::rgb(0xff0000), 2);
  c.rect({{1, 2}, {30, 40}}, Color::rgb(0x00ff00), 1.5f);
  c.line({0, 0}, {10, 10}, Color::rgb(0x0000ff), 2);
  c.polyline({{0, 0}, {5, 5}, {10, 0}}, Color::rgb(0x123456));
  c.polygon_filled({{0, 0}, {5, 5}, {10, 0}}, Color::rgb(0x654321));
  c.circle_filled({50, 50}, 4, Color::rgb(0xabcdef));
  c.push_clip({{10, 10}, {100, 100}});
  c.push_clip({{20, 20}, {90, 90}});
  c.text({20, 20}, "a<b & \"c\" 'd' >", Color::rgb(0xffffff), 14);
  c.pop_clip();
  c.text({20, 40}, "x", Color::rgb(0xffffff), 14);  // second clip left open: finish() closes it
  std::string svg = c.finish();

  std::vector<Element> all;
  ASSERT_EQ(parse(svg, &all), "") << svg;
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all[0].name, "svg");
  EXPECT_EQ(all[0].attr["xmlns"], "http://www.w3.org/2000/svg");
  EXPECT_EQ(all[0].attr["width"], "320");
  EXPECT_EQ(all[0].attr["height"], "200");
  EXPECT_EQ(all[0].attr["viewBox"], "0 0 320 200");
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot; &apos;d&apos; &gt;"), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  EXPECT_EQ(texts(svg)[0], "a<b & \"c\" 'd' >");
  // Two clip paths, each group referring to its own.
  EXPECT_EQ(elements(svg, "clipPath").size(), 2u);
  EXPECT_NE(svg.find("clip-path=\"url(#clip1)\""), std::string::npos);
  EXPECT_NE(svg.find("clip-path=\"url(#clip2)\""), std::string::npos);
}

TEST(SvgCanvas, UnbalancedPopKeepsDocumentWellFormed) {
  SvgCanvas c(10, 10, {});
  c.pop_clip();
  EXPECT_EQ(parse(c.finish(), nullptr), "");
}

TEST(SvgCanvas, ControlCharactersAreDropped) {
  SvgCanvas c(10, 10, {});
  c.text({0, 0},
         std::string("a\x01"
                     "b"),
         Color::rgb(0xffffff), 10);
  EXPECT_EQ(texts(c.finish())[0], "ab");
}

TEST(SvgCanvas, TextIsAnchoredByAlignAndPlacedBelowItsTopEdge) {
  SvgCanvas c(200, 100, {});
  c.text({100, 10}, "left", Color::rgb(0xffffff), 20, Align::Left, Font::Sans);
  c.text({100, 40}, "mid", Color::rgb(0xffffff), 20, Align::Center, Font::Mono);
  c.text({100, 70}, "right", Color::rgb(0xffffff, 128), 20, Align::Right, Font::SansBold);
  auto t = elements(c.finish(), "text");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].attr.count("text-anchor"), 0u);  // start is SVG's default
  EXPECT_EQ(t[1].attr["text-anchor"], "middle");
  EXPECT_EQ(t[2].attr["text-anchor"], "end");
  EXPECT_NE(t[0].attr["font-family"].find("DejaVu Sans"), std::string::npos);
  EXPECT_NE(t[0].attr["font-family"].find("sans-serif"), std::string::npos);
  EXPECT_NE(t[1].attr["font-family"].find("DejaVu Sans Mono"), std::string::npos);
  EXPECT_NE(t[1].attr["font-family"].find("monospace"), std::string::npos);
  EXPECT_EQ(t[2].attr["font-weight"], "bold");
  EXPECT_EQ(t[2].attr["fill-opacity"], "0.5");
  // The baseline sits inside the line: below the top edge, above the bottom.
  for (int i = 0; i < 3; ++i) {
    float top = 10 + 30 * i, y = num(t[i], "y");
    EXPECT_GT(y, top + 20 * 0.6f);
    EXPECT_LT(y, top + 20 * 0.95f);
  }
}

TEST(SvgCanvas, TextSizeFollowsCharactersAndSize) {
  SvgCanvas c(10, 10, {});
  Vec2 m = c.text_size("0123456789", 20, Font::Mono);
  EXPECT_EQ(m.y, 20);
  EXPECT_NEAR(m.x, 10 * 20 * 0.517f, 1.0f);  // DejaVu Sans Mono: 0.602 em, 1.164 em per line
  EXPECT_NEAR(c.text_size("0123456789", 40, Font::Mono).x, 2 * m.x, 0.01f);
  EXPECT_GT(c.text_size("MMMM", 20).x, 2 * c.text_size("iiii", 20).x);
  EXPECT_GT(c.text_size("Bold", 20, Font::SansBold).x, c.text_size("Bold", 20).x);
  // U+00D7 is one character, not two.
  EXPECT_LT(c.text_size("\xC3\x97", 20).x, 20 * 0.8f);
  EXPECT_EQ(c.text_size("", 20).x, 0);
}

// ---- Theme and palette -----------------------------------------------------------------------

struct Hsv {
  float h, s, v;
};
Hsv hsv(Color c) {
  float r = c.r / 255.f, g = c.g / 255.f, b = c.b / 255.f;
  float mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn, h = 0;
  if (d > 0) {
    if (mx == r)
      h = 60 * std::fmod((g - b) / d + 6, 6.0f);
    else if (mx == g)
      h = 60 * ((b - r) / d + 2);
    else
      h = 60 * ((r - g) / d + 4);
  }
  return {h, mx > 0 ? d / mx : 0, mx};
}
float hue_distance(float a, float b) {
  float d = std::fabs(a - b);
  return std::min(d, 360 - d);
}
float luminance(Color c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

TEST(Theme, ByNameFindsBothThemesAndNothingElse) {
  EXPECT_EQ(Theme::ByName("dark"), &Theme::Dark());
  EXPECT_EQ(Theme::ByName("light"), &Theme::Light());
  EXPECT_EQ(Theme::ByName("solarized"), nullptr);
  EXPECT_TRUE(Theme::Dark().dark);
  EXPECT_FALSE(Theme::Light().dark);
  EXPECT_LT(luminance(Theme::Dark().bg), luminance(Theme::Dark().text));
  EXPECT_GT(luminance(Theme::Light().bg), luminance(Theme::Light().text));
}

TEST(LaneColor, ThirtyTwoDistinctColoursInEachTheme) {
  for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
    std::set<std::string> seen;
    for (int l = 0; l < 32; ++l) seen.insert(hex(lane_color(l, *t)));
    EXPECT_EQ(seen.size(), 32u);
    // Distinct to the eye too, not only in the last bit.
    for (int a = 0; a < 32; ++a)
      for (int b = a + 1; b < 32; ++b) {
        Color x = lane_color(a, *t), y = lane_color(b, *t);
        float d = std::sqrt(
            float((x.r - y.r) * (x.r - y.r) + (x.g - y.g) * (x.g - y.g) + (x.b - y.b) * (x.b - y.b)));
        EXPECT_GT(d, 25) << "lanes " << a << " and " << b;
      }
  }
}

TEST(LaneColor, QuadSharesOneHueFamilyLighterToDarker) {
  for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
    float quad_hue[8];
    for (int q = 0; q < 8; ++q) {
      quad_hue[q] = hsv(lane_color(4 * q, *t)).h;
      for (int i = 1; i < 4; ++i) {
        EXPECT_LT(hue_distance(hsv(lane_color(4 * q + i, *t)).h, quad_hue[q]), 8) << "lane " << 4 * q + i;
        EXPECT_LT(luminance(lane_color(4 * q + i, *t)), luminance(lane_color(4 * q + i - 1, *t)));
      }
    }
    for (int a = 0; a < 8; ++a)
      for (int b = a + 1; b < 8; ++b) EXPECT_GT(hue_distance(quad_hue[a], quad_hue[b]), 20) << a << " " << b;
  }
}

// Slides (the light theme) get printed in greyscale: within a quad (one hue family) the four lanes must still
// read apart. Grey as a greyscale conversion computes it (Rec. 601 luma of the sRGB values), at least 16 of 255
// levels between neighbours (measured: 19.7 at the closest, lanes 26 and 27). The dark theme, for screens, sits
// lower and keeps its blues closer (13 there).
TEST(LaneColor, QuadsStayApartInGreyscale) {
  for (const Theme* t : {&Theme::Light()}) {
    for (int q = 0; q < 8; ++q)
      for (int i = 1; i < 4; ++i) {
        const Color a = lane_color(4 * q + i - 1, *t), b = lane_color(4 * q + i, *t);
        const double ga = 0.299 * a.r + 0.587 * a.g + 0.114 * a.b, gb = 0.299 * b.r + 0.587 * b.g + 0.114 * b.b;
        EXPECT_GE(ga - gb, 16) << "lanes " << 4 * q + i - 1 << " and " << 4 * q + i << (t->dark ? " (dark)" : " (light)");
      }
  }
}

TEST(LaneColor, LanesWrapModulo32) {
  EXPECT_EQ(hex(lane_color(33, Theme::Dark())), hex(lane_color(1, Theme::Dark())));
  EXPECT_EQ(hex(lane_color(-1, Theme::Dark())), hex(lane_color(31, Theme::Dark())));
}

TEST(TextOn, PicksTheReadableSide) {
  EXPECT_EQ(hex(text_on(Color::rgb(0x000080))), "#ffffff");
  EXPECT_EQ(hex(text_on(Color::rgb(0xffee58))), "#000000");
  // Every lane colour gets a label colour with a contrast ratio of at least 4.5 (WCAG AA).
  auto lin = [](uint8_t v) {
    float c = v / 255.f;
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
  };
  auto rel = [&](Color c) { return 0.2126f * lin(c.r) + 0.7152f * lin(c.g) + 0.0722f * lin(c.b); };
  for (const Theme* t : {&Theme::Dark(), &Theme::Light()})
    for (int l = 0; l < 32; ++l) {
      Color bg = lane_color(l, *t), fg = text_on(bg);
      float a = rel(bg), b = rel(fg);
      EXPECT_GE((std::max(a, b) + 0.05f) / (std::min(a, b) + 0.05f), 4.5f) << "lane " << l;
    }
}

// A throughput line reads on its background: each of the 16 series colours at 3:1 or more against the theme's
// background (WCAG's figure for graphics). On the light theme the second eight, lighter, had drawn a ladder's top
// rungs at 1.5-2.4:1.
TEST(SeriesColor, EveryLineReadsOnItsBackground) {
  auto lin = [](uint8_t v) {
    float c = v / 255.f;
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
  };
  auto rel = [&](Color c) { return 0.2126f * lin(c.r) + 0.7152f * lin(c.g) + 0.0722f * lin(c.b); };
  for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
    std::set<std::string> seen;
    for (size_t i = 0; i < 16; ++i) {
      const float a = rel(series_color(i, *t)), b = rel(t->bg);
      EXPECT_GE((std::max(a, b) + 0.05f) / (std::min(a, b) + 0.05f), 3.0f) << (t->dark ? "dark" : "light") << " " << i;
      seen.insert(hex(series_color(i, *t)));
    }
    EXPECT_EQ(seen.size(), 16u) << "a colour repeated";
  }
}

// ---- Layout view -----------------------------------------------------------------------------

TEST(LayoutView, OneCellPerElementInItsLanesColourWithLaneLabels) {
  MmaOp op = test_op();
  Layouts ls;
  for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
    std::string svg = draw_layout(ls.input(op), *t);
    auto cells = lane_cells(svg, *t);
    // A 8x4 + B 4x8 + C 8x8 elements, each one held once.
    ASSERT_EQ(cells.size(), 32u + 32u + 64u);
    std::map<int, int> per_lane;
    for (auto& [lane, r] : cells) {
      ++per_lane[lane];
      EXPECT_NEAR(r.w(), r.h(), 0.01f);  // square cells
    }
    for (int l = 0; l < 32; ++l) EXPECT_EQ(per_lane[l], 4) << "lane " << l;  // 1 in A, 1 in B, 2 in C
    auto labels = texts(svg);
    for (int l = 0; l < 32; ++l) {
      EXPECT_EQ(std::count(labels.begin(), labels.end(), std::to_string(l) + ":0"), 3) << "lane " << l;
      EXPECT_EQ(std::count(labels.begin(), labels.end(), std::to_string(l) + ":1"), 1) << "lane " << l;
    }
    EXPECT_EQ(count_if_contains(labels, "documented (PTX ISA)"), 1);
    EXPECT_EQ(count_if_contains(labels,
                                "A  8\xC3\x97"
                                "4 (m\xC3\x97k)"),
              1);
    EXPECT_EQ(count_if_contains(labels, "f32 \xC2\xB7 2 elements/lane"), 1);
    EXPECT_EQ(count_if_contains(labels, "lanes 28-31"), 1);  // the legend
  }
}

TEST(LayoutView, HoverReturnsTheHoldersOfTheCellUnderTheMouse) {
  MmaOp op = test_op();
  Layouts ls;
  const Theme& t = Theme::Dark();
  std::string svg = draw_layout(ls.input(op), t);
  // Lane 13, elem 1 holds C(3, 3); find its label and the lane-coloured cell under it.
  auto boxes = text_boxes(svg);
  auto label = std::find_if(boxes.begin(), boxes.end(), [](auto& b) { return b.first == "13:1"; });
  ASSERT_NE(label, boxes.end());
  Vec2 at = label->second.center();
  Rect cell{};
  for (auto& [lane, r] : lane_cells(svg, t))
    if (lane == 13 && r.contains(at)) cell = r;
  ASSERT_GT(cell.w(), 0);

  LayoutHover hover;
  draw_layout(ls.input(op), t, {}, cell.center(), &hover);
  ASSERT_TRUE(hover.valid);
  EXPECT_EQ(hover.operand, int(Operand::C));
  EXPECT_FALSE(hover.traced);
  EXPECT_EQ(hover.row, 3);
  EXPECT_EQ(hover.col, 3);
  ASSERT_EQ(hover.holders.size(), 1u);
  EXPECT_EQ(hover.holders[0], (LayoutCell{13, 1, 3, 3}));

  draw_layout(ls.input(op), t, {}, {-5, -5}, &hover);
  EXPECT_FALSE(hover.valid);
}

TEST(LayoutView, ElementsHeldTwiceAreStripedAndHoverListsBothHolders) {
  // Traced only, like wmma: A's element (l%16)/4, l%4 is held by lanes l and l+16.
  MmaOp op = test_op(false);
  FragmentLayout a = layout("A", "traced"), b = layout("B", "traced"), c = layout("C", "traced");
  a.cells.clear();
  for (int lane = 0; lane < 32; ++lane) a.cells.push_back({lane, 0, (lane % 16) / 4, lane % 4});
  a.rows = 8;  // rows 4..7 are held by nobody
  LayoutViewInput in;
  in.op = &op;
  in.traced = {&a, &b, &c};
  in.traced_from = "Test GPU, 2026-01-01";
  const Theme& t = Theme::Light();
  std::string svg = draw_layout(in, t);
  auto labels = texts(svg);
  EXPECT_EQ(count_if_contains(labels, "on Test GPU, 2026-01-01"), 1);
  EXPECT_EQ(count_if_contains(labels, "PTX leaves the wmma fragment layout unspecified"), 1);
  EXPECT_EQ(count_if_contains(labels, "documented"), 0);

  // Lane 5's and lane 21's stripes of A(1, 1), half a cell each, one above the other.
  std::map<std::string, int> lane_of;
  for (int l = 0; l < 32; ++l) lane_of[hex(lane_color(l, t))] = l;
  std::vector<Rect> five, twenty_one;
  for (const Element& e : elements(svg, "rect")) {
    auto f = e.attr.find("fill");
    if (f == e.attr.end() || !lane_of.count(f->second)) continue;
    Rect r = rect_of(e);
    if (r.w() < 2 * r.h() - 0.5f) continue;  // stripes are twice as wide as tall
    if (lane_of[f->second] == 5) five.push_back(r);
    if (lane_of[f->second] == 21) twenty_one.push_back(r);
  }
  ASSERT_EQ(five.size(), 1u);
  ASSERT_EQ(twenty_one.size(), 1u);
  EXPECT_NEAR(five[0].min.x, twenty_one[0].min.x, 0.01f);
  EXPECT_NEAR(five[0].max.y, twenty_one[0].min.y, 0.01f);

  LayoutHover hover;
  draw_layout(in, t, {}, {five[0].center().x, five[0].max.y}, &hover);
  ASSERT_TRUE(hover.valid);
  EXPECT_TRUE(hover.traced);
  EXPECT_EQ(hover.operand, int(Operand::A));
  EXPECT_EQ(hover.row, 1);
  EXPECT_EQ(hover.col, 1);
  ASSERT_EQ(hover.holders.size(), 2u);
  EXPECT_EQ(hover.holders[0], (LayoutCell{5, 0, 1, 1}));
  EXPECT_EQ(hover.holders[1], (LayoutCell{21, 0, 1, 1}));
}

TEST(LayoutView, MarksWhereTracedDisagreesWithDocumented) {
  MmaOp op = test_op();
  Layouts doc;
  FragmentLayout ta = layout("A", "traced"), tb = layout("B", "traced"), tc = layout("C", "traced");
  LayoutViewInput in = doc.input(op);
  in.traced = {&ta, &tb, &tc};
  in.traced_from = "Test GPU";
  const Theme& t = Theme::Dark();
  auto bad_frames = [&](const std::string& svg) {
    int n = 0;
    for (const Element& e : elements(svg, "rect"))
      if (e.attr.count("stroke") && e.attr.at("stroke") == hex(t.bad)) ++n;
    return n;
  };

  std::string same = draw_layout(in, t);
  EXPECT_EQ(bad_frames(same), 0);
  auto labels = texts(same);
  EXPECT_EQ(count_if_contains(labels, "on Test GPU"), 1);
  EXPECT_EQ(count_if_contains(labels, "mismatch"), 0);
  EXPECT_EQ(count_if_contains(labels, "matches PTX"), 3);
  // Both columns carry every label.
  EXPECT_EQ(std::count(labels.begin(), labels.end(), "13:1"), 2);

  // Lanes 0 and 1 swap their C elements 0: two elements disagree, marked in both columns.
  std::swap(tc.cells[0].lane, tc.cells[2].lane);
  std::sort(tc.cells.begin(), tc.cells.end(),
            [](auto& x, auto& y) { return std::tie(x.lane, x.elem) < std::tie(y.lane, y.elem); });
  std::string diff = draw_layout(in, t);
  EXPECT_EQ(bad_frames(diff), 2 * 2);
  labels = texts(diff);
  EXPECT_EQ(count_if_contains(labels, "2 mismatches"), 1);
  EXPECT_EQ(count_if_contains(labels, "matches PTX"), 2);  // A and B still agree
  EXPECT_EQ(count_if_contains(labels, "2 cells differ from PTX"), 1);
}

TEST(LayoutView, HighlightedLaneIsOutlinedInAllThreeOperands) {
  MmaOp op = test_op();
  Layouts ls;
  const Theme& t = Theme::Dark();
  LayoutViewState st;
  st.highlight_lane = 6;
  std::string svg = draw_layout(ls.input(op), t, st);
  float cell = lane_cells(svg, t)[0].second.w();
  int outlines = 0;
  for (const Element& e : elements(svg, "rect"))
    if (e.attr.count("stroke") && e.attr.at("stroke") == hex(t.text) && num(e, "width") > cell * 0.8f)
      ++outlines;
  EXPECT_EQ(outlines, 4);  // 1 in A, 1 in B, 2 in C
  // Other lanes are dimmed: their fill is no longer their lane colour.
  std::map<int, int> per_lane;
  for (auto& [lane, r] : lane_cells(svg, t)) ++per_lane[lane];
  EXPECT_EQ(per_lane.size(), 1u);
  EXPECT_EQ(per_lane[6], 4);
  // The title names the lane (the toolbar's chip is left out where it would take a row of its own and move the
  // figure), with how to clear it on screen; a picture names it alone.
  EXPECT_NE(svg.find("lane 6 highlighted (click it again to clear)"), std::string::npos);
  const viz::PictureScope picture;
  svg = draw_layout(ls.input(op), t, st);
  EXPECT_NE(svg.find("lane 6 highlighted<"), std::string::npos);
}

TEST(LayoutView, TextNeverOverlapsAndStaysOnTheCanvas) {
  MmaOp op = test_op();
  Layouts doc;
  FragmentLayout ta = layout("A", "traced"), tb = layout("B", "traced"), tc = layout("C", "traced");
  std::swap(tc.cells[0].lane, tc.cells[2].lane);
  LayoutViewInput in = doc.input(op);
  in.traced = {&ta, &tb, &tc};
  in.traced_from = "NVIDIA H100 80GB HBM3, 2026-11-21";
  for (Vec2 size : {Vec2{1600, 900}, Vec2{800, 450}, Vec2{480, 320}})
    for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
      std::string svg = draw_layout(in, *t, {}, {-1, -1}, nullptr, size.x, size.y);
      EXPECT_EQ(overlapping_text(svg), "") << size.x << "x" << size.y;
      EXPECT_EQ(outside(svg, size.x, size.y), "") << size.x << "x" << size.y;
    }
}

// m16n8k16 as the PTX ISA gives it (groupID = lane / 4, threadID_in_group = lane % 4), and a
// wmma-like 16x16x16 whose A and B hold every element twice: the sizes the window really shows.
FragmentLayout formula_layout(const std::string& operand, int rows, int cols, int elems,
                              LayoutCell (*f)(int g, int t, int e)) {
  FragmentLayout l;
  l.operand = operand, l.rows = rows, l.cols = cols;
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < elems; ++e) {
      LayoutCell c = f(lane / 4, lane % 4, e);
      l.cells.push_back({lane, e, c.row, c.col});
    }
  return l;
}
LayoutCell m16n8k16_a(int g, int t, int e) {
  return {0, 0, g + (e % 4 >= 2 ? 8 : 0), 2 * t + (e & 1) + (e >= 4 ? 8 : 0)};
}
LayoutCell m16n8k16_b(int g, int t, int e) { return {0, 0, 2 * t + (e & 1) + (e >= 2 ? 8 : 0), g}; }
LayoutCell m16n8k16_c(int g, int t, int e) { return {0, 0, g + (e >= 2 ? 8 : 0), 2 * t + (e & 1)}; }

TEST(LayoutView, RealSizedOpsKeepTextApartInEverySize) {
  MmaOp mma{"mma.m16n8k16.f16", 16, 8, 16, "f16", "f32", true, 8, 4, 4, 2, 4};
  FragmentLayout da = formula_layout("A", 16, 16, 8, m16n8k16_a),
                 db = formula_layout("B", 16, 8, 4, m16n8k16_b),
                 dc = formula_layout("C", 16, 8, 4, m16n8k16_c);
  FragmentLayout ta = da, tb = db, tc = dc;
  std::swap(tc.cells[0].lane, tc.cells[4].lane);
  LayoutViewInput both;
  both.op = &mma;
  both.documented = {&da, &db, &dc};
  both.traced = {&ta, &tb, &tc};
  both.traced_from = "NVIDIA H100 80GB HBM3, 2026-11-21";

  // wmma 16x16x16: A holds each element in two lanes (lane l and l ^ 16 share an element).
  MmaOp wmma{"wmma.m16n16k16.f16", 16, 16, 16, "f16", "f32", false, 16, 16, 8, 2, 4};
  FragmentLayout wa, wb, wc;
  wa.rows = wa.cols = wb.rows = wb.cols = wc.rows = wc.cols = 16;
  for (int lane = 0; lane < 32; ++lane) {
    int g = (lane % 16) / 4, t = lane % 4;
    for (int e = 0; e < 16; ++e) {
      LayoutCell c = m16n8k16_a(g + 4 * (e / 8), t, e % 8);
      wa.cells.push_back({lane, e, c.row, c.col});
      wb.cells.push_back({lane, e, c.col, c.row});
    }
    for (int e = 0; e < 8; ++e) {
      LayoutCell c = m16n8k16_c(lane / 4, t, e % 4);
      wc.cells.push_back({lane, e, c.row, c.col + (e >= 4 ? 8 : 0)});
    }
  }
  LayoutViewInput traced_only;
  traced_only.op = &wmma;
  traced_only.traced = {&wa, &wb, &wc};
  traced_only.traced_from = "NVIDIA H200, 2026-11-21";

  LayoutViewState st;
  st.highlight_lane = 9;
  for (const LayoutViewInput* in : {&both, &traced_only})
    for (Vec2 size : {Vec2{1600, 900}, Vec2{800, 450}, Vec2{800, 860}, Vec2{1920, 1080}})
      for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
        std::string svg = draw_layout(*in, *t, st, {-1, -1}, nullptr, size.x, size.y);
        EXPECT_EQ(overlapping_text(svg), "") << in->op->name << " " << size.x << "x" << size.y;
        EXPECT_EQ(outside(svg, size.x, size.y), "") << in->op->name << " " << size.x << "x" << size.y;
        // No text below the minimum (a 14 px line is a 12 px font): labels that would need less are left out.
        EXPECT_GE(min_font_px(svg), kMinTextSize * 2048.0f / (1901 + 483) - 0.01f)
            << in->op->name << " " << size.x << "x" << size.y;
      }
  // Where the cells have room, every slot carries its lane number: one source at 1920x1080.
  LayoutViewInput documented = both;
  documented.traced = {};
  std::string svg = draw_layout(documented, Theme::Light(), {}, {-1, -1}, nullptr, 1920, 1080);
  std::regex label("^[0-9]+(:[0-9]+)?$");
  int labels = 0;
  for (const std::string& text : texts(svg)) labels += std::regex_match(text, label);
  EXPECT_GE(labels, int(da.cells.size() + db.cells.size() + dc.cells.size()));
}

// The window's fragment pane at 1920x1080 and 1600x900 is short and wide (about 530x345 and 440x330 under its
// controls): B above C left 32 rows of cells and two title bands in that height, 4 px cells. There the view
// draws A x B = C in one row, with cells at least twice that; a pane too small for 3 px cells says so.
TEST(LayoutView, AShortWidePaneDrawsOneRowOfClearlyLargerCells) {
  MmaOp mma{"mma.m16n8k16.f16", 16, 8, 16, "f16", "f32", true, 8, 4, 4, 2, 4};
  FragmentLayout da = formula_layout("A", 16, 16, 8, m16n8k16_a),
                 db = formula_layout("B", 16, 8, 4, m16n8k16_b),
                 dc = formula_layout("C", 16, 8, 4, m16n8k16_c);
  LayoutViewInput in;
  in.op = &mma;
  in.documented = {&da, &db, &dc};
  in.traced = {&da, &db, &dc};
  in.traced_from = "NVIDIA H200, 2026-11-26";
  const size_t n_cells = da.cells.size() + db.cells.size() + dc.cells.size();
  for (Vec2 size : {Vec2{530, 345}, Vec2{440, 330}})
    for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
      const std::string svg = draw_layout(in, *t, {}, {-1, -1}, nullptr, size.x, size.y);
      const std::string at = std::to_string(int(size.x)) + "x" + std::to_string(int(size.y));
      const auto cells = lane_cells(svg, *t);
      ASSERT_EQ(cells.size(), n_cells) << at;  // one source: two would not fit side by side
      float top = 1e9f, bottom = 0, edge = 1e9f;
      for (const auto& [lane, r] : cells) {
        top = std::min(top, r.min.y);
        bottom = std::max(bottom, r.max.y);
        edge = std::min(edge, r.w());
      }
      EXPECT_GE(edge, 7.5f) << at;
      EXPECT_LE(bottom - top, 16 * edge + 16 * 1.5f) << at << ": the operands are not in one row";
      const auto labels = texts(svg);
      EXPECT_EQ(std::count(labels.begin(), labels.end(), "\xC3\x97"), 1) << at;
      EXPECT_EQ(std::count(labels.begin(), labels.end(), "="), 1) << at;
      EXPECT_EQ(overlapping_text(svg), "") << at;
      EXPECT_EQ(outside(svg, size.x, size.y), "") << at;
      // Hover follows the row: the last cell at the right is C(15, 7), lane 31's element 3.
      Rect last = cells.front().second;
      for (const auto& [lane, r] : cells)
        if (r.min.x > last.min.x + 0.5f || (r.min.x > last.min.x - 0.5f && r.min.y > last.min.y)) last = r;
      LayoutHover hover;
      draw_layout(in, *t, {}, last.center(), &hover, size.x, size.y);
      ASSERT_TRUE(hover.valid) << at;
      EXPECT_EQ(hover.operand, int(Operand::C)) << at;
      EXPECT_EQ(hover.row, 15) << at;
      EXPECT_EQ(hover.col, 7) << at;
      ASSERT_EQ(hover.holders.size(), 1u) << at;
      EXPECT_EQ(hover.holders[0], (LayoutCell{31, 3, 15, 7})) << at;
    }
  // A large pane keeps B above C, as the product is written.
  const auto big = texts(draw_layout(in, Theme::Dark(), {}, {-1, -1}, nullptr, 1600, 900));
  EXPECT_EQ(std::count(big.begin(), big.end(), "="), 0);
  // Too small for any grid: one line asking to maximise, no cell drawn past the pane.
  const std::string tiny = draw_layout(in, Theme::Dark(), {}, {-1, -1}, nullptr, 480, 120);
  EXPECT_EQ(count_if_contains(texts(tiny), "too small for the fragment grids: maximise this view"), 1);
  EXPECT_TRUE(lane_cells(tiny, Theme::Dark()).empty());
  {  // In a picture (an export) nothing can be maximised: the line says what a larger picture shows instead.
    const viz::PictureScope picture;
    const std::string exported = draw_layout(in, Theme::Dark(), {}, {-1, -1}, nullptr, 480, 120);
    EXPECT_EQ(count_if_contains(texts(exported), "too small for the fragment grids: a larger picture shows it"), 1);
    EXPECT_EQ(count_if_contains(texts(exported), "maximise"), 0);
  }
  EXPECT_EQ(count_if_contains(texts(draw_layout(in, Theme::Dark(), {}, {-1, -1}, nullptr, 480, 120)),
                              "maximise this view"),
            1);  // and the window's drawing after it asks again
  EXPECT_EQ(overlapping_text(tiny), "");
  EXPECT_EQ(outside(tiny, 480, 120), "");
}

TEST(LayoutView, SaysWhatIsMissing) {
  MmaOp op = test_op();
  LayoutViewInput in;
  in.op = &op;
  auto labels = texts(draw_layout(in, Theme::Dark()));
  EXPECT_EQ(count_if_contains(labels, "No layout recorded"), 1);
  in.op = nullptr;
  labels = texts(draw_layout(in, Theme::Dark()));
  EXPECT_EQ(count_if_contains(labels, "No op selected"), 1);
}

// ---- Layout view: ldmatrix -------------------------------------------------------------------
// The real ops from core: one tile, lane-coloured "L<lane>" chips beside its rows, the rules in a caption.
struct LdmatrixInput {
  const MmaOp* op;
  FragmentLayout doc, traced;
  explicit LdmatrixInput(const char* name) : op(find_mma_op(name)) {
    doc = documented_layout(*op, Operand::A);
    traced = doc;
    traced.source = "traced";
  }
  LayoutViewInput input(bool with_traced) const {
    LayoutViewInput in;
    in.op = op;
    in.documented[0] = &doc;
    if (with_traced) in.traced[0] = &traced, in.traced_from = "NVIDIA H200, 2026-11-21";
    in.row_suppliers = ldmatrix_rows(*op);
    return in;
  }
};

// The box of the one text equal to `s` (fails the test when there is not exactly one).
Rect only_box(const std::vector<std::pair<std::string, Rect>>& boxes, const std::string& s) {
  Rect found{};
  int n = 0;
  for (const auto& [text, r] : boxes)
    if (text == s) found = r, ++n;
  EXPECT_EQ(n, 1) << "'" << s << "'";
  return found;
}
Rect only_box(const std::string& svg, const std::string& s) { return only_box(text_boxes(svg), s); }

// The filled rectangle under point p whose fill is lane `lane`'s colour, or an empty rect.
Rect lane_rect_at(const std::string& svg, const Theme& t, int lane, Vec2 p) {
  for (const Element& e : elements(svg, "rect"))
    if (e.attr.count("fill") && e.attr.at("fill") == hex(lane_color(lane, t)) && rect_of(e).contains(p))
      return rect_of(e);
  return {};
}

// mma_tf32/08 loads its A fragment with the b16 ldmatrix.x4: the rules name the tf32 mma the registers feed (a 16x8
// tf32 tile, a0-a3), not mma.m16n8k16's a0-a7, which a student of the tf32 ladder would take for its own.
TEST(LayoutView, LdmatrixFeedingATf32MmaNamesItsFragment) {
  LdmatrixInput x4("ldmatrix.x4");
  ASSERT_NE(x4.op, nullptr);
  LayoutViewInput in = x4.input(false);
  in.feeds = find_mma_op("mma.m16n8k8.tf32");
  ASSERT_NE(in.feeds, nullptr);
  std::string words;
  for (const std::string& l : texts(draw_layout(in, Theme::Dark(), {}, {-1, -1}, nullptr, 1600, 900))) words += l + " ";
  EXPECT_NE(words.find("mma.m16n8k8.tf32's A fragment a0-a3"), std::string::npos) << words;
  EXPECT_NE(words.find("cells 2c and 2c+1 are tf32 column c"), std::string::npos) << words;
  EXPECT_EQ(words.find("a0-a7"), std::string::npos) << words;
  in.feeds = find_mma_op("mma.m16n8k16.f16");  // an f16 rung keeps the f16 words
  words.clear();
  for (const std::string& l : texts(draw_layout(in, Theme::Dark(), {}, {-1, -1}, nullptr, 1600, 900))) words += l + " ";
  EXPECT_NE(words.find("mma.m16n8k16's A fragment a0-a7"), std::string::npos) << words;
  EXPECT_EQ(words.find("tf32"), std::string::npos) << words;
}

TEST(LayoutView, LdmatrixShowsTheTileWithRowSuppliersAndTheRules) {
  LdmatrixInput x4("ldmatrix.x4");
  ASSERT_NE(x4.op, nullptr);
  const Theme& t = Theme::Dark();
  const std::string svg = draw_layout(x4.input(false), t, {}, {-1, -1}, nullptr, 1600, 900);
  auto labels = texts(svg);
  // One grid, no B or C.
  EXPECT_EQ(count_if_contains(labels, "tile  16\xC3\x97" "16 (4 matrices 8\xC3\x97" "8)"), 1);
  EXPECT_EQ(count_if_contains(labels, "b16 \xC2\xB7 8 elements/lane \xC2\xB7 4 registers"), 1);
  EXPECT_EQ(count_if_contains(labels, "(k\xC3\x97n)"), 0);
  EXPECT_EQ(count_if_contains(labels, "(m\xC3\x97n)"), 0);
  // 256 cells, each labelled with the slot that receives it.
  int cells = 0;
  for (auto& [lane, r] : lane_cells(svg, t)) cells += std::fabs(r.w() - r.h()) < 0.5f;
  EXPECT_EQ(cells, 256);
  EXPECT_EQ(std::count(labels.begin(), labels.end(), "9:4"), 1);
  // The rules, in words.
  EXPECT_EQ(count_if_contains(labels, ".x4: lane i supplies the row address of row i%8 of matrix i/8"), 1);
  EXPECT_EQ(count_if_contains(labels, "each lane receives 2 elements per matrix"), 1);
  EXPECT_EQ(count_if_contains(labels, "lane t receives row t/4, columns 2(t%4) and 2(t%4)+1"), 1);
  EXPECT_EQ(count_if_contains(labels, "mma.m16n8k16's A fragment a0-a7"), 1);

  // One chip per supplying lane, in that lane's colour: L0-L15 left of the grid at rows 0-15
  // (matrices 0 and 1), L16-L31 right of it at rows 0-15 (matrices 2 and 3).
  const auto boxes = text_boxes(svg);
  const Rect c00 = only_box(boxes, "0:0"), c0f = only_box(boxes, "3:5");  // cells (0,0) and (0,15)
  const float pitch = only_box(boxes, "4:0").center().y - c00.center().y;  // (1,0) is lane 4 elem 0
  for (int lane = 0; lane < 32; ++lane) {
    SCOPED_TRACE("L" + std::to_string(lane));
    const Rect label = only_box(boxes, "L" + std::to_string(lane));
    const Rect chip = lane_rect_at(svg, t, lane, label.center());
    EXPECT_GT(chip.w(), 0) << "no chip in lane " << lane << "'s colour under its label";
    if (lane < 16) EXPECT_LT(label.max.x, c00.min.x);
    else EXPECT_GT(label.min.x, c0f.max.x);
    // Beside row lane % 16 of the tile.
    EXPECT_NEAR(label.center().y, c00.center().y + (lane % 16) * pitch, pitch * 0.25f);
  }
}

TEST(LayoutView, LdmatrixTransCaptionAndBothSources) {
  LdmatrixInput x2t("ldmatrix.x2.trans");
  const Theme& t = Theme::Light();
  const std::string svg = draw_layout(x2t.input(true), t, {}, {-1, -1}, nullptr, 1600, 900);
  auto labels = texts(svg);
  EXPECT_EQ(count_if_contains(labels, ".x2: lane i supplies the row address of row i%8 of matrix i/8 (lanes 0-15"), 1);
  EXPECT_EQ(count_if_contains(labels, ".trans: lane t receives column t/4, rows 2(t%4) and 2(t%4)+1"), 1);
  EXPECT_EQ(count_if_contains(labels, "mma.m16n8k16's B fragment b0-b3"), 1);
  EXPECT_EQ(count_if_contains(labels, "identical to PTX"), 1);
  EXPECT_EQ(count_if_contains(labels, "matches PTX"), 1);  // the one tile of the traced panel
  // Both panels carry their chips; lanes 16-31 supply nothing for .x2.
  EXPECT_EQ(std::count(labels.begin(), labels.end(), "L15"), 2);
  EXPECT_EQ(std::count(labels.begin(), labels.end(), "L16"), 0);
  // A swapped cell in the traced tile is a mismatch like any other.
  std::swap(x2t.traced.cells[0].row, x2t.traced.cells[1].row);
  labels = texts(draw_layout(x2t.input(true), t, {}, {-1, -1}, nullptr, 1600, 900));
  EXPECT_EQ(count_if_contains(labels, "2 mismatches"), 1);
}

TEST(LayoutView, LdmatrixHoverAndHighlight) {
  LdmatrixInput x4("ldmatrix.x4.trans");
  const Theme& t = Theme::Dark();
  const std::string svg = draw_layout(x4.input(false), t);
  // .trans: lane 6 elem 5 holds (5, 9).
  const Rect cell = only_box(svg, "6:5");
  LayoutHover hover;
  draw_layout(x4.input(false), t, {}, cell.center(), &hover);
  ASSERT_TRUE(hover.valid);
  EXPECT_EQ(hover.operand, int(Operand::A));
  EXPECT_EQ(hover.row, 5);
  EXPECT_EQ(hover.col, 9);
  ASSERT_EQ(hover.holders.size(), 1u);
  EXPECT_EQ(hover.holders[0], (LayoutCell{6, 5, 5, 9}));

  // Highlighting lane 9 keeps its chip in its colour and dims every other chip.
  LayoutViewState st;
  st.highlight_lane = 9;
  const std::string hl = draw_layout(x4.input(false), t, st);
  EXPECT_GT(lane_rect_at(hl, t, 9, only_box(hl, "L9").center()).w(), 0);
  EXPECT_EQ(lane_rect_at(hl, t, 10, only_box(hl, "L10").center()).w(), 0);
  EXPECT_EQ(lane_rect_at(hl, t, 20, only_box(hl, "L20").center()).w(), 0);
}

TEST(LayoutView, LdmatrixTextNeverOverlapsAndStaysOnTheCanvas) {
  for (const char* name : {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4.trans"}) {
    LdmatrixInput in(name);
    for (bool both : {false, true})
      for (Vec2 size : {Vec2{1600, 900}, Vec2{800, 450}, Vec2{480, 320}, Vec2{700, 860}})
        for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
          const std::string svg = draw_layout(in.input(both), *t, {}, {-1, -1}, nullptr, size.x, size.y);
          EXPECT_EQ(overlapping_text(svg), "") << name << " " << size.x << "x" << size.y;
          EXPECT_EQ(outside(svg, size.x, size.y), "") << name << " " << size.x << "x" << size.y;
        }
  }
}

// ---- Performance view ------------------------------------------------------------------------

PerfViewInput perf_input() {
  PerfViewInput in;
  in.shape_label = "4096x4096x4096";
  in.device_label = "Test GPU, 1980 MHz, driver 1.2.3";
  in.bars = {{"sgemm/01_naive", "f32", 0.6, 51.4, 1e-7, true, false, ""},
             {"sgemm/05_blocktile_2d", "f32", 12.3, 51.4, 1e-7, true, true, ""},
             {"wmma/03_warp_4x2", "f16.f32", 260, 753, 0.31, false, false, ""},
             {"mma_f16/09_multistage", "f16.f32", 610, 753, 1e-4, true, false, ""}};
  return in;
}

std::string draw_perf(const PerfViewInput& in, const Theme& t, float w = 1600, float h = 900) {
  SvgCanvas c(w, h, t.bg);
  draw_perf_view(c, {{0, 0}, {w, h}}, t, in);
  return c.finish();
}

// The key shows a failed bar's colour only where a bar failed: over a ladder that all passed, a red swatch labelled
// "failed verification" read as a warning.
TEST(PerfView, TheKeyNamesFailureOnlyWhereABarFailed) {
  PerfViewInput in = perf_input();  // wmma/03 failed
  EXPECT_EQ(count_if_contains(texts(draw_perf(in, Theme::Dark())), "failed verification"), 1);
  for (PerfBar& b : in.bars) b.ok = true;
  const auto labels = texts(draw_perf(in, Theme::Dark()));
  EXPECT_EQ(count_if_contains(labels, "failed verification"), 0);
  EXPECT_EQ(count_if_contains(labels, "cuBLAS, same dtype"), 1);
}

// One number reads the same in every view: the kernel list wrote sgemm/03's 8.04 TFLOP/s as "8.0" and 15.7% where
// the throughput bar wrote "8.04" and "16%".
TEST(PerfView, NumbersAreWrittenAsTheKernelListWritesThem) {
  EXPECT_EQ(viz::fmt_tflops(8.04), "8.0");
  EXPECT_EQ(viz::fmt_tflops(0.52), "0.5");
  EXPECT_EQ(viz::fmt_tflops(48.46), "48.5");
  EXPECT_EQ(viz::fmt_tflops(99.97), "100");
  EXPECT_EQ(viz::fmt_tflops(472.4), "472");
  EXPECT_EQ(viz::fmt_share(0.1566), "15.7%");
  EXPECT_EQ(viz::fmt_share(0.0097), "1.0%");
  EXPECT_EQ(viz::fmt_share(1.002), "100.2%");
  PerfViewInput in;
  in.bars.push_back({"sgemm/03_smem_tiling", "f32", 8.04, 51.3, 0, true, true, ""});
  SvgCanvas svg(1600, 900, Theme::Dark().bg);
  draw_perf_view(svg, {{0, 0}, {1600, 900}}, Theme::Dark(), in);
  const std::vector<std::string> labels = texts(svg.finish());
  EXPECT_EQ(count_if_contains(labels, "8.0 TFLOP/s"), 1);
  EXPECT_EQ(count_if_contains(labels, "15.7% of cuBLAS"), 1);
}

// A variant's bar in a narrow pane keeps its toggles, its rung's name giving way to the number: the whole window's
// pane cut "10_multistage[xor=off]" to "10_multistage[x...", which no longer said which variant.
TEST(PerfView, ACutVariantKeepsItsToggles) {
  PerfViewInput in;
  in.title = "mma_f16 ladder";
  in.bars.push_back({"mma_f16/10_multistage", "f16.f32", 472, 740, 0, true, false, ""});
  in.bars.push_back({"mma_f16/10_multistage[xor=off]", "f16.f32", 110, 740, 0, true, true, ""});
  in.bars.push_back({"mma_f16/11_tma_producer", "f16.f32", 503, 740, 0, true, false, ""});
  for (const float w : {400.0f, 280.0f}) {
    SvgCanvas svg(w, 300, Theme::Dark().bg);
    draw_perf_view(svg, {{0, 0}, {w, 300}}, Theme::Dark(), in);
    const std::vector<std::string> labels = texts(svg.finish());
    EXPECT_EQ(std::count(labels.begin(), labels.end(), "10[xor=off]") +
                  std::count(labels.begin(), labels.end(), "10_multistage[xor=off]"),
              1) << w;
    EXPECT_EQ(count_if_contains(labels, "[x..."), 0) << w;
    // 400 px: the names take the room the bars and the share leave, whole; 280: too narrow for that.
    EXPECT_EQ(std::count(labels.begin(), labels.end(), w > 300 ? "10_multistage[xor=off]" : "10[xor=off]"), 1) << w;
  }
}

TEST(PerfView, EveryBarSaysItsShareOfCublasAndFailuresSayFailed) {
  const Theme& t = Theme::Light();
  std::string svg = draw_perf(perf_input(), t);
  auto labels = texts(svg);
  EXPECT_EQ(count_if_contains(labels, "% of cuBLAS"), 4);
  EXPECT_EQ(count_if_contains(labels, "23.9% of cuBLAS"), 1);  // 12.3 / 51.4, as the kernel list writes it
  EXPECT_EQ(count_if_contains(labels, "1.2% of cuBLAS"), 1);  // 0.6 / 51.4
  EXPECT_EQ(count_if_contains(labels, "12.3 TFLOP/s"), 1);
  EXPECT_EQ(count_if_contains(labels, "FAILED"), 1);
  EXPECT_EQ(count_if_contains(labels,
                              "4096\xC3\x97"
                              "4096\xC3\x97"
                              "4096"),
            1);
  EXPECT_EQ(count_if_contains(labels, "Test GPU, 1980 MHz"), 1);
  // Each bar is labelled with its kernel and dtype (a kernel measured in two dtypes has two bars).
  for (const char* k : {"sgemm/01_naive  f32", "sgemm/05_blocktile_2d  f32", "wmma/03_warp_4x2  f16.f32",
                        "mma_f16/09_multistage  f16.f32"})
    EXPECT_EQ(std::count(labels.begin(), labels.end(), k), 1) << k;

  // Each bar sits beside its kernel's name, all from one origin, length proportional to TFLOP/s;
  // the failed one in the bad colour.
  auto boxes = text_boxes(svg);
  auto bar_of = [&](const std::string& kernel) {
    auto label = std::find_if(boxes.begin(), boxes.end(), [&](auto& b) { return b.first == kernel; });
    EXPECT_NE(label, boxes.end()) << kernel;
    std::vector<Element> found;
    for (const Element& e : elements(svg, "rect")) {
      Rect r = rect_of(e);
      if (e.attr.count("fill") && e.attr.at("fill") != hex(t.panel) && e.attr.at("fill") != "none" &&
          r.min.x > label->second.max.x && std::fabs(r.center().y - label->second.center().y) < 1.5f)
        found.push_back(e);
    }
    EXPECT_EQ(found.size(), 1u) << kernel;
    return found.empty() ? Element{} : found[0];
  };
  Element naive = bar_of("sgemm/01_naive  f32"), b12 = bar_of("sgemm/05_blocktile_2d  f32"),
          failed = bar_of("wmma/03_warp_4x2  f16.f32"), b610 = bar_of("mma_f16/09_multistage  f16.f32");
  EXPECT_EQ(failed.attr["fill"], hex(t.bad));
  EXPECT_NE(b610.attr["fill"], hex(t.bad));
  EXPECT_NEAR(rect_of(naive).min.x, rect_of(b610).min.x, 0.01f);
  EXPECT_NEAR(rect_of(b610).w() / rect_of(b12).w(), 610 / 12.3, 0.5);
  EXPECT_NEAR(rect_of(failed).w() / rect_of(b12).w(), 260 / 12.3, 0.5);
}

// A bar measured at another size than the chart's (a rung that has no run at that size) says at which, in the
// warning colour, and the others say nothing of size.
// The curves over size end at 8192 on the plot's right edge, where the pane ends above a legend below: its label
// ended half past the pane ("819" at 150% zoom, where the text is larger against the pane). Every label of the view
// lies inside it, whatever its size.
TEST(PerfView, TheLastSizeOnTheAxisIsWhole) {
  PerfViewInput in;
  in.title = "sgemm ladder";
  for (int i = 0; i < 11; ++i) {
    PerfSeries s;
    s.kernel = "sgemm/" + std::to_string(10 + i) + "_block_128x256_k16";  // legend rows too wide beside the plot
    s.label = s.kernel.substr(6);
    s.selected = i == 10;
    for (int e = 8; e <= 13; ++e) s.points.push_back({float(1 << e), float(5 * i + e)});  // 256 .. 8192
    in.series.push_back(s);
    in.bars.push_back({s.kernel, "f32", 5.0 * i + 12, 51, 0, true, i == 10, ""});
  }
  in.series_log2_x = true;
  in.series_x_label = "M = N = K, f32";
  for (const Vec2 size : {Vec2{1067, 600}, Vec2{1600, 900}, Vec2{1280, 720}}) {
    SvgCanvas svg(size.x, size.y, Theme::Light().bg);
    draw_perf_view(svg, {{0, 0}, size}, Theme::Light(), in);
    const std::string doc = svg.finish();
    EXPECT_EQ(outside(doc, size.x, size.y), "") << size.x << "x" << size.y;
    EXPECT_EQ(count_if_contains(texts(doc), "8192"), 1) << size.x << "x" << size.y;
  }
}

TEST(PerfView, ABarMeasuredAtAnotherSizeSaysWhich) {
  PerfViewInput in = perf_input();
  in.bars[3].shape = "5120x1280x4096";
  const Theme& t = Theme::Light();
  const std::string svg = draw_perf(in, t);
  const std::vector<std::string> labels = texts(svg);
  EXPECT_EQ(count_if_contains(labels, "at 5120x1280x4096"), 1);
  EXPECT_EQ(count_if_contains(labels, " at "), 1);
  for (const Element& e : elements(svg, "text"))
    if (e.text.find("at 5120x1280x4096") != std::string::npos) {
      EXPECT_EQ(e.attr.at("fill"), hex(t.warn));
    }
  EXPECT_EQ(overlapping_text(svg), "");
}

// A rung measured in two dtypes has two bars; where the pane is too narrow for whole labels the name gives way and
// each keeps its dtype, so the two bars never carry the same text (the whole window at 1600x900 cut both to
// "11_ldmatrix_xor...").
TEST(PerfView, ACutLabelKeepsItsDtype) {
  PerfViewInput in;
  in.title = "wmma ladder";
  for (const char* k : {"wmma/09_pipelined", "wmma/11_ldmatrix_xor"})
    for (const char* d : {"f16.f32", "f16.f16"}) in.bars.push_back({k, d, 400, 700, 1e-3, true, false, ""});
  const std::string svg = draw_perf(in, Theme::Dark(), 330, 300);
  std::vector<std::string> labels;
  for (const std::string& l : texts(svg))
    if (l.find("09_") == 0 || l.find("11_") == 0) labels.push_back(l);
  ASSERT_EQ(labels.size(), 4u) << ::testing::PrintToString(texts(svg));
  const std::set<std::string> distinct(labels.begin(), labels.end());
  EXPECT_EQ(distinct.size(), 4u) << ::testing::PrintToString(labels);
  int cut = 0;
  for (const std::string& l : labels) {
    const bool f32 = l.size() >= 7 && l.compare(l.size() - 7, 7, "f16.f32") == 0;
    const bool f16 = l.size() >= 7 && l.compare(l.size() - 7, 7, "f16.f16") == 0;
    EXPECT_TRUE(f32 || f16) << l;
    cut += l.find("...") != std::string::npos || l.find("\xE2\x80\xA6") != std::string::npos;
  }
  EXPECT_GT(cut, 0) << "the pane was wide enough for whole labels: the test shows nothing";
}

TEST(PerfView, SeriesAreLinesWithTheSelectedOneThicker) {
  PerfViewInput in = perf_input();
  in.series_x_label = "seconds";
  for (int s = 0; s < 3; ++s) {
    PerfSeries ps{"series " + std::to_string(s), {}, s == 1, "", false};
    for (int i = 0; i < 40; ++i) ps.points.push_back({i * 0.25f, float(100 * (s + 1) + i)});
    in.series.push_back(ps);
  }
  std::string svg = draw_perf(in, Theme::Dark());
  auto lines = elements(svg, "polyline");
  ASSERT_EQ(lines.size(), 3u);
  // Unselected first, the selected one last (on top) and thickest.
  EXPECT_GT(num(lines[2], "stroke-width"), num(lines[0], "stroke-width"));
  EXPECT_GT(num(lines[2], "stroke-width"), num(lines[1], "stroke-width"));
  auto labels = texts(svg);
  for (const char* l : {"series 0", "series 1", "series 2", "seconds"})
    EXPECT_GE(count_if_contains(labels, l), 1) << l;
}

// A legend column right of the plot shorter than the ladder (wmma's 13 series at 1366x768): the selected rung's row
// stays and the last line counts those left out; the first rows alone had dropped the selected one.
TEST(PerfView, AShortLegendKeepsTheSelectedRungAndCountsTheRest) {
  PerfViewInput in = perf_input();
  in.series_x_label = "M = N = K";
  const auto exactly = [](const std::string& svg, const std::string& label) {
    const std::vector<std::string> all = texts(svg);
    return int(std::count(all.begin(), all.end(), label));
  };
  for (int s = 0; s < 13; ++s) {
    PerfSeries ps{"rung " + std::to_string(s), {}, s == 10, "", false};
    for (int i = 0; i < 6; ++i) ps.points.push_back({float(256 << i), float(50 * (s + 1) + i)});
    in.series.push_back(ps);
  }
  const std::string tall = draw_perf(in, Theme::Dark(), 1200, 1000);
  for (int s = 0; s < 13; ++s) EXPECT_EQ(exactly(tall, "rung " + std::to_string(s)), 1) << s;
  EXPECT_EQ(all_text(tall).find(" more: "), std::string::npos);
  const std::string svg = draw_perf(in, Theme::Dark(), 1200, 300);
  ASSERT_EQ(parse(svg, nullptr), "");
  EXPECT_EQ(exactly(svg, "rung 10"), 1) << all_text(svg);
  int shown = 0;
  for (int s = 0; s < 13; ++s) shown += exactly(svg, "rung " + std::to_string(s));
  ASSERT_LT(shown, 13) << "the pane held every row: the test shows nothing";
  const std::string more = "+" + std::to_string(13 - shown) + " more: ";
  EXPECT_NE(all_text(svg).find(more), std::string::npos) << all_text(svg);
  EXPECT_EQ(overlapping_text(svg), "");
}

// A ladder of 13 rungs: the palette's second eight repeat the first eight's hues, lighter (04 pink, 12 light pink,
// hard to tell apart in the light theme). Those mark their points, and their legend rows, with diamonds.
TEST(PerfView, SeriesThatShareAHueDifferInShape) {
  PerfViewInput in = perf_input();
  in.series_x_label = "M = N = K";
  for (int s = 0; s < 13; ++s) {
    PerfSeries ps{"rung " + std::to_string(s), {}, false, "", false};
    for (int i = 0; i < 6; ++i) ps.points.push_back({float(256 << i), float(50 * (s + 1) + i)});
    in.series.push_back(ps);
  }
  for (const Theme* theme : {&Theme::Dark(), &Theme::Light()}) {
    const std::string svg = draw_perf(in, *theme, 1200, 1000);
    ASSERT_EQ(parse(svg, nullptr), "");
    const std::vector<Element> lines = elements(svg, "polyline");
    ASSERT_EQ(lines.size(), 13u);
    std::map<std::string, int> circles, diamonds;  // by fill
    for (const Element& e : elements(svg, "circle")) ++circles[e.attr.at("fill")];
    for (const Element& e : elements(svg, "polygon"))
      if (std::count(e.attr.at("points").begin(), e.attr.at("points").end(), ' ') == 3) ++diamonds[e.attr.at("fill")];
    for (int s = 0; s < 13; ++s) {
      const std::string stroke = lines[size_t(s)].attr.at("stroke");
      // Six points and the legend's mark, each in its series' shape only.
      EXPECT_EQ(circles[stroke], s < 8 ? 7 : 0) << "rung " << s;
      EXPECT_EQ(diamonds[stroke], s < 8 ? 0 : 7) << "rung " << s;
    }
  }
}

// Live, a kernel run again after its variants (the rung's own order last) is one colour and one legend row, where
// it had been listed twice in two colours with nothing to tell the rows apart.
TEST(PerfView, AKernelRunAgainKeepsItsColourAndOneLegendRow) {
  PerfViewInput in = perf_input();
  in.series_x_label = "seconds";
  const auto stretch = [](const std::string& label, float t0, int colour, bool selected) {
    PerfSeries ps{label, {}, selected, "", false};
    ps.colour = colour;
    for (int i = 0; i < 10; ++i) ps.points.push_back({t0 + i, 400.0f + i});
    return ps;
  };
  in.series = {stretch("mma_f16/10_multistage f16.f32 2048^3", 0, 0, true),
               stretch("mma_f16/10_multistage[stages=2] f16.f32 2048^3", 10, 1, false),
               stretch("mma_f16/10_multistage f16.f32 2048^3", 20, 0, true)};
  const std::string svg = draw_perf(in, Theme::Dark());
  EXPECT_EQ(count_if_contains(texts(svg), "mma_f16/10_multistage f16.f32 2048^3"), 1);
  EXPECT_EQ(count_if_contains(texts(svg), "[stages=2]"), 1);
  const auto lines = elements(svg, "polyline");
  ASSERT_EQ(lines.size(), 3u);  // still three stretches, not one line across the variant's
  std::set<std::string> strokes;
  for (const Element& e : lines) strokes.insert(e.attr.at("stroke"));
  EXPECT_EQ(strokes.size(), 2u);
}

// Live, after toggles: a labelled line where each switch happened, at its time, and a pinned baseline drawn
// flat at its TFLOP/s with its name; the ratio in words.
TEST(PerfView, TogglesAreMarkedAndTheBaselineStaysFlat) {
  PerfViewInput in = perf_input();
  in.series_x_label = "seconds";
  PerfSeries before{"10_multistage f16.f32 2048^3", {}, false, "", false}, after{"10_multistage[stages=2]", {}, true, "", false};
  for (int i = 0; i < 40; ++i) before.points.push_back({i * 0.1f, 400});
  for (int i = 40; i < 80; ++i) after.points.push_back({i * 0.1f, 300});
  in.series = {before, after};
  in.markers = {{4.0f, "10_multistage[stages=2]"}};
  in.baseline_label = "10_multistage";
  in.baseline_tflops = 400;
  const std::string svg = draw_perf(in, Theme::Light());
  const auto boxes = text_boxes(svg);
  auto box = [&](const std::string& prefix) {
    auto it = std::find_if(boxes.begin(), boxes.end(), [&](auto& b) { return b.first.rfind(prefix, 0) == 0; });
    EXPECT_NE(it, boxes.end()) << prefix;
    return it == boxes.end() ? Rect{} : it->second;
  };
  // The marker's label starts at the switch: halfway along the x axis (0 to 7.9 s), right of the axis start.
  const Rect marker = box("10_multistage[stages=2]");
  const Rect axis_label = box("seconds");
  EXPECT_GT(marker.min.x, 300.0f);
  EXPECT_LT(marker.min.x, axis_label.max.x);
  EXPECT_GE(count_if_contains(texts(svg), "baseline: 10_multistage 400 TFLOP/s"), 1);
  EXPECT_EQ(baseline_ratio(300, 400), "0.75x the baseline");
  EXPECT_EQ(baseline_ratio(300, 0), "");
  EXPECT_EQ(baseline_ratio(std::nan(""), 400), "");
}

TEST(PerfView, TextNeverOverlapsAndStaysOnTheCanvas) {
  PerfViewInput in = perf_input();
  for (int i = 0; i < 20; ++i)
    in.bars.push_back(
        {"mma_f16/" + std::to_string(10 + i) + "_rung", "f16.f32", 50.0 * i, 753, 1e-4, true, false, ""});
  in.series_x_label = "seconds";
  for (int s = 0; s < 4; ++s) {
    PerfSeries ps{"mma_f16/1" + std::to_string(s) + "_rung", {}, s == 0, "", false};
    for (int i = 0; i < 20; ++i) ps.points.push_back({float(i), float(100 * s + 5 * i)});
    in.series.push_back(ps);
  }
  // Down to the panes of the whole window at 150% (presentation): there the line saying how many rungs are left
  // out fell on the one saying where the curves are.
  for (Vec2 size : {Vec2{1600, 900}, Vec2{800, 450}, Vec2{480, 260}, Vec2{360, 200}, Vec2{300, 170}, Vec2{320, 140}})
    for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
      std::string svg = draw_perf(in, *t, size.x, size.y);
      EXPECT_EQ(overlapping_text(svg), "") << size.x << "x" << size.y;
      EXPECT_EQ(outside(svg, size.x, size.y), "") << size.x << "x" << size.y;
    }
}

TEST(PerfView, NoRunsSaysSo) {
  PerfViewInput in;
  auto labels = texts(draw_perf(in, Theme::Dark()));
  EXPECT_EQ(count_if_contains(labels, "No runs yet"), 1);
}

// ---- ImGui back end: the same views on a draw list ---------------------------------------------

// A headless ImGui frame (no renderer: the draw lists are only built, as imgui's null example does).
struct ImGuiFrame {
  ImGuiFrame() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 900);
    io.IniFilename = nullptr;
  }
  void begin() {
    unsigned char* pixels;
    int w, h;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
  }
  ~ImGuiFrame() {
    ImGui::Render();
    ImGui::DestroyContext();
  }
};

TEST(ImGuiCanvas, DrawsBothViewsAndLeavesTheClipStackAsItFoundIt) {
  ImGuiFrame frame;
  frame.begin();
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  ImGuiCanvas c(dl, nullptr, nullptr);
  const int clips = dl->_ClipRectStack.Size;
  MmaOp op = test_op();
  Layouts ls;
  LayoutHover hover;
  LayoutViewState st;
  st.highlight_lane = 3;
  draw_layout_view(c, {{0, 0}, {800, 900}}, Theme::Dark(), ls.input(op), st, {-1, -1}, &hover);
  const int after_layout = dl->VtxBuffer.Size;
  EXPECT_GT(after_layout, 1000);
  EXPECT_EQ(dl->_ClipRectStack.Size, clips);
  PerfViewInput in = perf_input();
  draw_perf_view(c, {{800, 0}, {1600, 900}}, Theme::Dark(), in);
  EXPECT_GT(dl->VtxBuffer.Size, after_layout);
  EXPECT_EQ(dl->_ClipRectStack.Size, clips);
  // ImGui's anti-aliased fill puts an inner and an outer vertex per point, assuming clockwise
  // winding; counter-clockwise input must be rewound or the fringe would point inwards.
  for (bool clockwise : {true, false}) {
    int before = dl->VtxBuffer.Size;
    std::vector<Vec2> tri{{0, 0}, {10, 0}, {0, 10}};
    if (!clockwise) std::reverse(tri.begin(), tri.end());
    c.polygon_filled(tri, Color::rgb(0xffffff));
    ASSERT_EQ(dl->VtxBuffer.Size - before, 6);
    for (int i = 0; i < 3; ++i) {
      ImVec2 inner = dl->VtxBuffer[before + 2 * i].pos;
      EXPECT_TRUE(inner.x > 0 && inner.y > 0 && inner.x + inner.y < 10) << inner.x << "," << inner.y;
    }
  }
}

// A maximised view's hints say to zoom out: "maximise this view" led nowhere at 200% on 1366x768, where even the
// maximised pane was too small for the fragment grids.
TEST(Hints, AMaximisedViewSaysToZoomOut) {
  EXPECT_EQ(viz::maximise_hint(), "maximise this view");
  {
    const viz::MaximisedScope maximised(true);
    EXPECT_EQ(viz::maximise_hint(), "zoom out (Ctrl -)");
    EXPECT_EQ(viz::hint("maximise to see the tiles", "p"), "zoom out (Ctrl -) to see the tiles");
    EXPECT_EQ(viz::hint("maximise this view (M) to see the curves", "p"), "zoom out (Ctrl -) to see the curves");
    EXPECT_EQ(viz::hint("zoom out, maximise or pick one to scroll", "p"), "zoom out or pick one to scroll");
    EXPECT_EQ(viz::hint("hover a cell", "p"), "hover a cell");
    const viz::PictureScope picture;  // a picture names neither
    EXPECT_EQ(viz::maximise_hint(), "a larger picture shows it");
  }
  const viz::MaximisedScope not_maximised(false);
  EXPECT_EQ(viz::maximise_hint(), "maximise this view");
}

// ---- Warp view -------------------------------------------------------------------------------

WarpViewInput warp_input_128x256() {  // 2x4 warps of 64x64 doing mma m16n8k16, k-tiles of 32
  WarpViewInput in;
  in.kernel = "test/08_warps";
  in.block_m = 128, in.block_n = 256, in.block_k = 32;
  in.warps_m = 2, in.warps_n = 4, in.warp_m = 64, in.warp_n = 64;
  in.op = "mma.m16n8k16.f16";
  in.frag_m = 16, in.frag_n = 8, in.frag_k = 16;
  return in;
}

TEST(WarpView, OneTilePerWarpWithItsLabelAndTheCaptionsNumbers) {
  const WarpViewInput in = warp_input_128x256();
  const float w = 1200, h = 700;
  SvgCanvas c(w, h, Theme::Dark().bg);
  draw_warp_view(c, {{0, 0}, {w, h}}, Theme::Dark(), in, 3);
  const std::string svg = c.finish();
  ASSERT_EQ(parse(svg, nullptr), "");
  const std::vector<std::string> t = texts(svg);
  for (int wi = 0; wi < 8; ++wi) {
    EXPECT_EQ(std::count(t.begin(), t.end(), "warp " + std::to_string(wi)), 1) << wi;
    const std::string origin = "(" + std::to_string(wi / 4 * 64) + ", " + std::to_string(wi % 4 * 64) + ")";
    EXPECT_EQ(std::count(t.begin(), t.end(), origin), 1) << origin;
  }
  // One filled square per warp, all the same size, tiling a 2x4 grid.
  std::map<std::pair<int, int>, std::vector<Rect>> by_size;
  for (const Element& e : elements(svg, "rect"))
    if (e.attr.count("fill") && e.attr.at("fill") != "none") {
      const Rect r = rect_of(e);
      by_size[{int(std::lround(r.w() * 10)), int(std::lround(r.h() * 10))}].push_back(r);
    }
  int tiles = 0;
  for (const auto& [size, rects] : by_size)
    if (rects.size() == 8 && size.first == size.second) {
      ++tiles;
      std::set<float> xs, ys;
      for (const Rect& r : rects) xs.insert(r.min.x), ys.insert(r.min.y);
      EXPECT_EQ(xs.size(), 4u);
      EXPECT_EQ(ys.size(), 2u);
    }
  EXPECT_EQ(tiles, 1);
  const std::string cap =
      "warp 3 of 8 owns C[0:64, 192:256] (a 64x64 tile = 4x8 m16n8 fragments); per k16 step it loads 4 A "
      "fragments (16x16) and 8 B fragments (16x8)";
  EXPECT_EQ(warp_caption(in, 3), cap);
  std::string all;
  for (const std::string& s : t) all += s + " ";
  EXPECT_NE(all.find("C[0:64, 192:256]"), std::string::npos) << all;
  EXPECT_NE(all.find("4x8 m16n8 fragments"), std::string::npos) << all;
  EXPECT_NE(all.find("4 A fragments (16x16) and 8 B fragments (16x8)"), std::string::npos) << all;
  EXPECT_EQ(overlapping_text(svg), "");
  EXPECT_EQ(outside(svg, w, h), "");
  // Warp 5 sits on the second row of warps.
  EXPECT_EQ(warp_caption(in, 5).substr(0, 34), "warp 5 of 8 owns C[64:128, 64:128]");
}

// mma_tf32/01-03 reload B for every row of tiles, so a warp loads its row of B fragments again for each row of
// tiles: the caption counts the 16 B loads a k8 step makes, not the tiling's 8.
TEST(WarpView, BFragmentsReloadedPerRowOfTilesAreCounted) {
  WarpViewInput in;
  in.kernel = "mma_tf32/03_cp_async";
  in.block_m = 128, in.block_n = 128, in.block_k = 32;
  in.warps_m = 4, in.warps_n = 2, in.warp_m = 32, in.warp_n = 64;
  in.op = "mma.m16n8k8.tf32";
  in.frag_m = 16, in.frag_n = 8, in.frag_k = 8;
  const std::string once = warp_caption(in, 0);
  EXPECT_NE(once.find("it loads 2 A fragments (16x8) and 8 B fragments (8x8)"), std::string::npos) << once;
  in.b_per_tile_row = true;
  const std::string again = warp_caption(in, 0);
  EXPECT_NE(again.find("it loads 2 A fragments (16x8) and 16 B fragments (8x8): its 8 again for each of its 2 rows "
                       "of tiles"),
            std::string::npos)
      << again;
  SvgCanvas c(1600, 420, Theme::Light().bg);
  draw_warp_view(c, {{0, 0}, {1600, 420}}, Theme::Light(), in, 0);
  const std::string svg = c.finish();
  EXPECT_EQ(overlapping_text(svg), "");
  EXPECT_EQ(outside(svg, 1600, 420), "");
}

// mma_tf32/11 swaps the op's operands (C^T = B^T A^T), so each m16n8 op covers 8x16 of C: the caption counts 8x16
// tiles and says why they are not the op's shape, and the drawing holds at a narrow and a wide pane.
TEST(WarpView, SwappedOperandsAreTilesOfTheTransposedShape) {
  WarpViewInput in;
  in.kernel = "mma_tf32/11_swapped_operands";
  in.block_m = 256, in.block_n = 128, in.block_k = 32;
  in.warps_m = 4, in.warps_n = 2, in.warp_m = 64, in.warp_n = 64;
  in.op = "mma.m16n8k8.tf32";
  in.frag_m = 8, in.frag_n = 16, in.frag_k = 8;
  EXPECT_EQ(warp_caption(in, 3),
            "warp 3 of 8 owns C[64:128, 64:128] (a 64x64 tile = 8x4 tiles of 8x16, each an m16n8 op with A and B "
            "swapped: C^T = B^T A^T); per k8 step it loads 8 A fragments (8x8) and 4 B fragments (8x16)");
  // mma_tf32/12 deals an op's 16 columns out in two runs: the caption says so, inside the tile description.
  in.frag_columns = "each tile's 16 columns are two runs of 8, 16 apart";
  EXPECT_NE(warp_caption(in, 3).find("C^T = B^T A^T; each tile's 16 columns are two runs of 8, 16 apart); per k8"),
            std::string::npos)
      << warp_caption(in, 3);
  in.frag_columns.clear();
  in.frag_m = 16, in.frag_n = 8;  // the same op unswapped: its own shape, as before
  EXPECT_NE(warp_caption(in, 3).find("4x8 m16n8 fragments"), std::string::npos) << warp_caption(in, 3);
  in.frag_m = 8, in.frag_n = 16;
  for (float w : {420.0f, 1600.0f}) {
    SvgCanvas c(w, 420, Theme::Light().bg);
    draw_warp_view(c, {{0, 0}, {w, 420}}, Theme::Light(), in, 3);
    const std::string svg = c.finish();
    ASSERT_EQ(parse(svg, nullptr), "");
    EXPECT_EQ(overlapping_text(svg), "") << w;
    EXPECT_EQ(outside(svg, w, 420), "") << w;
    const std::string all = all_text(svg);
    EXPECT_NE(all.find("swapped"), std::string::npos) << all;
  }
}

// A short pane beside the fragments at a projector's zoom (the whole window at 200% on 1920x1080 gives the tiling
// about 240x380 of its own units) drew mma_f16/12's 256x128 block tile 10 units tall under seven lines of bold
// heading. The drawing is now either large enough to read (the block tile's short side at least five text
// heights) or left out with a line that says where it is; the words stay in both.
TEST(WarpView, TheDrawingIsReadableOrLeftOut) {
  WarpViewInput in;
  in.kernel = "mma_f16/12_persistent";
  in.block_m = 256, in.block_n = 128, in.block_k = 64;
  in.warps_m = 4, in.warps_n = 2, in.warp_m = 64, in.warp_n = 64;
  in.op = "mma.m16n8k16.f16";
  in.frag_m = 16, in.frag_n = 8, in.frag_k = 16;
  in.producer_warps = 4;
  int drawn = 0, left_out = 0;
  for (const Vec2 size : {Vec2{240, 380}, Vec2{200, 300}, Vec2{200, 250}, Vec2{420, 260}, Vec2{1200, 700}}) {
    SvgCanvas c(size.x, size.y, Theme::Dark().bg);
    draw_warp_view(c, {{0, 0}, size}, Theme::Dark(), in, 0);
    const std::string svg = c.finish();
    ASSERT_EQ(parse(svg, nullptr), "");
    EXPECT_EQ(overlapping_text(svg), "") << size.x << "x" << size.y;
    EXPECT_EQ(outside(svg, size.x, size.y), "") << size.x << "x" << size.y;
    std::map<int, int> squares;  // the warps' 64x64 tiles: eight filled squares of one size or more
    for (const Element& e : elements(svg, "rect"))
      if (e.attr.count("fill") && e.attr.at("fill") != "none") {
        const Rect r = rect_of(e);
        if (std::abs(r.w() - r.h()) < 0.05f && r.w() > 0) ++squares[int(std::lround(r.w() * 10))];
      }
    int side = 0;
    for (const auto& [w10, n] : squares)
      if (n >= 8) side = w10;  // (with the shaded 64x64 slices of A and B)
    const std::string all = all_text(svg);
    EXPECT_NE(all.find("256x128 block tile"), std::string::npos) << all;
    if (side > 0) {
      ++drawn;
      EXPECT_GE(2 * side / 10.0f, 5 * kMinTextSize) << size.x << "x" << size.y << ": a block tile too small to read";
    } else {
      ++left_out;
      EXPECT_NE(all.find("the drawing: maximise this view"), std::string::npos) << size.x << "x" << size.y << ": " << all;
    }
  }
  EXPECT_GE(drawn, 2);
  EXPECT_GE(left_out, 1);
}

TEST(WarpView, KGroupsSimtAndUndescribed) {
  WarpViewInput in = warp_input_128x256();
  in.block_n = 128, in.warps_n = 2, in.warps_k = 2, in.op = "wmma.m16n16k16.f16", in.frag_n = 16;
  EXPECT_EQ(warp_caption(in, 5),
            "warp 5 of 8 (k-group 1 of 2) owns C[0:64, 64:128] (a 64x64 tile = 4x4 m16n16 fragments); per k16 "
            "step of its k-slice [16:32] it loads 4 A fragments (16x16) and 4 B fragments (16x16)");
  WarpViewInput simt;
  simt.block_m = 128, simt.block_n = 128, simt.block_k = 8;
  simt.warps_m = 4, simt.warps_n = 2, simt.warp_m = 32, simt.warp_n = 64;
  simt.frag_m = 16, simt.frag_n = 32, simt.frag_k = 1;
  EXPECT_NE(warp_caption(simt, 0).find("2x2 sub-tiles of 16x32, 16 results per lane"), std::string::npos);
  for (const WarpViewInput& x : {in, simt, WarpViewInput{}}) {
    for (float w : {500.0f, 1600.0f}) {
      SvgCanvas c(w, 400, Theme::Light().bg);
      draw_warp_view(c, {{0, 0}, {w, 400}}, Theme::Light(), x, -1);
      const std::string svg = c.finish();
      ASSERT_EQ(parse(svg, nullptr), "");
      EXPECT_EQ(overlapping_text(svg), "") << w;
      EXPECT_EQ(outside(svg, w, 400), "") << w;
      if (!x.described()) {
        EXPECT_EQ(count_if_contains(texts(svg), "no warp tiling described for this rung"), 1);
      }
    }
  }
}

// ---- Bank view -------------------------------------------------------------------------------

// One warp-wide access of `width` bytes per lane at `stride` bytes apart, as a capture would hold it.
Capture strided_capture(uint32_t stride, int width = 4, const std::string& kind = "load") {
  Capture c;
  SmemAccess a;
  a.kernel = "test/01_banks", a.site = "As load", a.kind = kind, a.width = width;
  for (int lane = 0; lane < 32; ++lane) a.addr[lane] = stride * uint32_t(lane);
  c.smem.push_back(a);
  return c;
}

BanksViewInput banks_view_input(const Capture& c, const std::string& kernel) {
  BanksViewInput in;
  in.kernel = kernel;
  in.sites = smem_sites(c, kernel);
  in.capture_has_smem = !c.smem.empty();
  return in;
}

std::string draw_banks(const BanksViewInput& in, const Theme& t, BanksViewState st = {}, Vec2 mouse = {-1, -1},
                       BanksHover* hover = nullptr, float w = 1200, float h = 800) {
  SvgCanvas c(w, h, t.bg);
  draw_banks_view(c, {{0, 0}, {w, h}}, t, in, st, mouse, hover);
  return c.finish();
}

// The bank grid's cells: lane-coloured rectangles with square corners (the lane strip's chips and the
// bank header are rounded), with the lane each one is coloured for.
std::vector<std::pair<int, Rect>> grid_cells(const std::string& svg, const Theme& t) {
  std::map<std::string, int> lane_of;
  for (int l = 0; l < 32; ++l) lane_of[hex(lane_color(l, t))] = l;
  std::vector<std::pair<int, Rect>> cells;
  for (const Element& e : elements(svg, "rect")) {
    auto f = e.attr.find("fill");
    if (f != e.attr.end() && lane_of.count(f->second) && !e.attr.count("rx")) cells.push_back({lane_of[f->second], rect_of(e)});
  }
  return cells;
}

// The text elements whose content is exactly `s`, with their fill.
std::vector<Element> text_elements(const std::string& svg, const std::string& s) {
  std::vector<Element> v;
  for (const Element& e : elements(svg, "text"))
    if (e.text == s) v.push_back(e);
  return v;
}

const Capture& bundled_capture() {
  static const Capture c = read_capture(std::string(GEMMSCOPE_ASSETS) + "/captures/h200.json.gz");
  return c;
}

int site_index(const BanksViewInput& in, const std::string& name) {
  for (size_t i = 0; i < in.sites.size(); ++i)
    if (in.sites[i].name == name) return int(i);
  return -1;
}

// The bank header names its banks at every width: every bank where "31" fits a cell, else every 2nd or 4th (the
// whole window's pane at 1920x1080 drew 32 blank header boxes).
TEST(BanksView, TheHeaderNumbersItsBanksInNarrowCells) {
  const Capture c = strided_capture(16);  // 4 wavefronts: the grid, not the short pane's row of ways
  const BanksViewInput in = banks_view_input(c, "test/01_banks");
  const Theme& t = Theme::Dark();
  for (const float w : {1200.0f, 700.0f, 560.0f, 480.0f}) {
    const std::string svg = draw_banks(in, t, {}, {-1, -1}, nullptr, w, 600);
    ASSERT_EQ(parse(svg, nullptr), "");
    // The header's numbers: on the line of its "bank" label.
    float bank_y = -1;
    for (const Element& e : elements(svg, "text"))
      if (e.text == "bank") bank_y = num(e, "y");
    ASSERT_GE(bank_y, 0) << w;
    std::set<int> numbered;
    for (const Element& e : elements(svg, "text"))
      if (!e.text.empty() && e.text.find_first_not_of("0123456789") == std::string::npos && e.text.size() <= 2 &&
          std::abs(num(e, "y") - bank_y) < 3)
        numbered.insert(std::stoi(e.text));
    EXPECT_TRUE(numbered.count(0) && numbered.count(16)) << w;
    EXPECT_GE(numbered.size(), 8u) << w << " px: the header's banks unnumbered";
    EXPECT_EQ(overlapping_text(svg), "") << w;
  }
}

// The grid's caption says what its cells show: the lane numbers where they fit, else the lane's colour alone.
// wmma/02's Bs load (32 wavefront rows) at 1600x900 promised "labelled with the lane" over 5-pixel rows with none.
TEST(BanksView, TheCaptionPromisesLaneNumbersOnlyWhereTheCellsHoldThem) {
  const Theme& t = Theme::Dark();
  BanksViewInput in = banks_view_input(bundled_capture(), "wmma/02_smem");
  BanksViewState st;
  st.site = site_index(in, "Bs load (frag)");
  ASSERT_GE(st.site, 0);
  for (const auto& [h, numbered] : {std::pair<float, bool>{900, false}, {1800, true}}) {
    const std::string svg = draw_banks(in, t, st, {-1, -1}, nullptr, 1600, h);
    bool labelled = false, coloured = false;
    for (const Element& e : elements(svg, "text")) {
      labelled |= e.text.find("labelled with the lane that asked for it") != std::string::npos;
      coloured |= e.text.find("in the colour of the lane that asked for it") != std::string::npos;
    }
    EXPECT_EQ(labelled, numbered) << h;
    EXPECT_EQ(coloured, !numbered) << h;
    // "31": bank 31's header and lane 31's chip in the strip, and where numbered, lane 31's 4 cells.
    EXPECT_EQ(text_elements(svg, "31").size() >= 6, numbered) << h;
  }
  // A picture has no cell to hover: its caption sends the reader to the lane strip that keys the colours (the deck's
  // said "a larger picture numbers them", of a picture its reader cannot enlarge).
  const viz::PictureScope picture;
  const std::string svg = draw_banks(in, t, st, {-1, -1}, nullptr, 1600, 900);
  EXPECT_EQ(svg.find("hover a cell"), std::string::npos);
  EXPECT_NE(svg.find("(the lanes strip below keys each colour)"), std::string::npos);
  EXPECT_NE(svg.find("lanes: byte offset and bank"), std::string::npos) << "and the strip is there";
}

// The site table keeps each site's name whole before its verdict column: the default 1600x900 window's pane (about
// 430 px wide) cut "Bs ldmatrix.x4.trans" to "Bs ldmatrix.x4...", losing what sets it apart from A's loads.
TEST(BanksView, ASiteNameStaysWholeBeforeTheVerdict) {
  const Theme& t = Theme::Dark();
  // (From 365 px; wmma/08's "C staging store (store_matrix_sync)" from 465, the window's pane at 1920x1080.)
  for (const auto& [kernel, narrowest] : {std::pair<const char*, float>{"mma_f16/12_persistent", 365},
                                          {"mma_tf32/08_ldmatrix", 365}, {"wmma/08_multistage", 465}}) {
    const BanksViewInput in = banks_view_input(bundled_capture(), kernel);
    ASSERT_FALSE(in.sites.empty()) << kernel;
    for (float w = narrowest; w <= 640; w += 15) {
      const std::string svg = draw_banks(in, t, {}, {-1, -1}, nullptr, w, 300);
      ASSERT_EQ(parse(svg, nullptr), "");
      for (const SmemSite& s : in.sites)
        EXPECT_FALSE(text_elements(svg, s.name).empty()) << kernel << " at " << w << " px: '" << s.name << "' cut";
      EXPECT_EQ(overlapping_text(svg), "") << kernel << " at " << w << " px";
    }
    // With room, the verdict stays beside the whole names.
    const std::string wide = draw_banks(in, t, {}, {-1, -1}, nullptr, 1200, 600);
    const bool any_free = std::any_of(in.sites.begin(), in.sites.end(), [](const SmemSite& s) { return s.conflicts == 0; });
    EXPECT_EQ(text_elements(wide, "conflict-free").empty(), !any_free) << kernel;
  }
}

// DESIGN.md's Nsight Compute pair on an H200: 4-byte loads 128 bytes apart are 32 wavefronts, 31 conflicts.
TEST(BanksView, Stride128IsThirtyTwoRowsOnBankZero) {
  const Capture c = strided_capture(128);
  const BanksViewInput in = banks_view_input(c, "test/01_banks");
  const Theme& t = Theme::Dark();
  // Tall enough that 32 wavefront rows each have room for a 14 px label.
  const std::string svg = draw_banks(in, t, {}, {-1, -1}, nullptr, 1200, 1300);
  ASSERT_EQ(parse(svg, nullptr), "");
  EXPECT_EQ(banks_caption(in.sites[0], in.sites[0].accesses[0]),
            "As load, warp 0, k-iteration 0: 4-byte loads, 32 wavefronts, ideal 1, 31 conflicts (32-way on bank 0)");
  EXPECT_NE(all_text(svg).find("32 wavefronts, ideal 1, 31 conflicts (32-way on bank 0)"), std::string::npos);
  // One cell per lane, all in bank 0's column, one row each: lane k's word in wavefront k.
  const auto cells = grid_cells(svg, t);
  ASSERT_EQ(cells.size(), 32u);
  std::set<float> xs, ys;
  for (const auto& [lane, r] : cells) xs.insert(r.min.x), ys.insert(r.min.y);
  EXPECT_EQ(xs.size(), 1u);
  EXPECT_EQ(ys.size(), 32u);
  for (size_t i = 1; i < cells.size(); ++i) EXPECT_GT(cells[i].second.min.y, cells[i - 1].second.min.y);
  for (int k = 0; k < 32; ++k) {
    EXPECT_EQ(cells[k].first, k);
    EXPECT_EQ(text_elements(svg, "wf " + std::to_string(k)).size(), 1u) << k;
  }
  // Wavefront 0 is needed; the 31 others are the conflicts, their labels in the theme's bad colour.
  EXPECT_EQ(text_elements(svg, "wf 0")[0].attr.at("fill"), hex(t.text_dim));
  EXPECT_EQ(text_elements(svg, "wf 31")[0].attr.at("fill"), hex(t.bad));
  // The site table says the same: 32-way, in bad.
  EXPECT_EQ(text_elements(svg, "up to 32-way").size(), 1u);
  EXPECT_EQ(text_elements(svg, "up to 32-way")[0].attr.at("fill"), hex(t.bad));
  // The lane strip: each lane's byte offset and bank.
  for (int lane : {1, 2, 31}) EXPECT_EQ(text_elements(svg, std::to_string(128 * lane)).size(), 1u) << lane;
  EXPECT_EQ(text_elements(svg, "b0").size(), 32u);
  EXPECT_EQ(overlapping_text(svg), "");
  EXPECT_EQ(outside(svg, 1200, 1300), "");
  // At 1200x800 the rows are too short for a label each: every other one is labelled, none smaller.
  const std::string small = draw_banks(in, t);
  EXPECT_EQ(text_elements(small, "wf 1").size(), 0u);
  EXPECT_EQ(text_elements(small, "wf 2").size(), 1u);
  EXPECT_GE(min_font_px(small), kMinTextSize * 2048.0f / (1901 + 483) - 0.01f);
}

// 16-bit loads (mma_f16/01-07's B fragments): the view names them 2-byte loads, and lanes on the two halves of one
// word share one cell of that word, as a broadcast. mma_f16/01's pattern: lane (g, t) reads row 2t, column g of a
// 256-byte-pitch tile; 4 wavefronts on banks 0-3, each word shared by lanes 4j + t and 4j + 4 + t.
TEST(BanksView, TwoByteLoadsAreNamedSoAndShareTheirWord) {
  Capture c = strided_capture(2, 2);
  for (int lane = 0; lane < 32; ++lane) c.smem[0].addr[lane] = uint32_t(2 * (lane % 4) * 256 + (lane / 4) * 2);
  const BanksViewInput in = banks_view_input(c, "test/01_banks");
  const Theme& t = Theme::Dark();
  const std::string svg = draw_banks(in, t);
  ASSERT_EQ(parse(svg, nullptr), "");
  EXPECT_EQ(banks_caption(in.sites[0], in.sites[0].accesses[0]),
            "As load, warp 0, k-iteration 0: 2-byte loads, 4 wavefronts, ideal 1, 3 conflicts (4-way on banks 0-3)");
  EXPECT_NE(all_text(svg).find("lanes on the two halves of one word share it"), std::string::npos) << all_text(svg);
  // 16 words, one cell each, labelled with the first lane and a + for the lane sharing it.
  EXPECT_EQ(grid_cells(svg, t).size(), 16u);
  EXPECT_EQ(text_elements(svg, "0+").size(), 1u);
  EXPECT_EQ(text_elements(svg, "4+").size(), 0u);  // lane 4 reads the other half of lane 0's word
  EXPECT_EQ(text_elements(svg, "514").size(), 1u);  // lane 5's own byte offset in the lane strip: 256 * 2 + 2
  EXPECT_EQ(overlapping_text(svg), "");
}

// A short pane (a 1280x720 slide at 150%, 853x480 before the zoom): a 4-way access's 4 rows keep their lane
// numbers, and the lane strip, which squeezed them to 10 px rows without numbers, gives way to one line saying where
// its offsets are. The site table and caption stay.
TEST(BanksView, AShortPaneKeepsTheLaneNumbersBeforeTheLaneStrip) {
  const Capture c = strided_capture(16);  // 4 words apart: banks 0, 4, ..., 28 serve 4 words each
  const BanksViewInput in = banks_view_input(c, "test/01_banks");
  const Theme& t = Theme::Dark();
  // Each grid cell's lane number, as a text element inside the cell.
  const auto numbered_cells = [&](const std::string& svg) {
    int n = 0;
    const std::vector<Element> texts = elements(svg, "text");
    for (const auto& [lane, r] : grid_cells(svg, t))
      n += std::any_of(texts.begin(), texts.end(), [&, lane = lane](const Element& e) {
        return e.text == std::to_string(lane) && r.contains({num(e, "x"), num(e, "y") + 1});
      });
    return n;
  };
  const std::string svg = draw_banks(in, t, {}, {-1, -1}, nullptr, 853, 340);
  ASSERT_EQ(parse(svg, nullptr), "");
  EXPECT_NE(all_text(svg).find("4 wavefronts, ideal 1, 3 conflicts"), std::string::npos) << all_text(svg);
  EXPECT_EQ(grid_cells(svg, t).size(), 32u);
  EXPECT_EQ(numbered_cells(svg), 32);
  EXPECT_NE(all_text(svg).find("hover a cell, or maximise this view"), std::string::npos) << all_text(svg);
  EXPECT_EQ(text_elements(svg, "144").size(), 0u);  // lane 9's offset: no strip
  EXPECT_EQ(overlapping_text(svg), "");
  EXPECT_EQ(outside(svg, 853, 340), "");
  // A tall pane keeps both: the numbers and the strip (lane 9's offset, 144, in its chip).
  const std::string tall = draw_banks(in, t, {}, {-1, -1}, nullptr, 1200, 800);
  EXPECT_EQ(numbered_cells(tall), 32);
  EXPECT_EQ(text_elements(tall, "144").size(), 1u);
  EXPECT_EQ(all_text(tall).find("hover a cell, or maximise this view"), std::string::npos);
}

// A pane too short for a row per wavefront (the default window's bank pane at 1600x900 and 1920x1080): one row of
// banks, each with its way (the most words it serves in one phase), instead of nothing but a hint. 4-byte loads 128
// bytes apart are 32-way on bank 0; 132 bytes apart, every bank serves one word.
TEST(BanksView, AShortPaneShowsEachBanksWayWhereTheGridDoesNotFit) {
  const Theme& t = Theme::Dark();
  // The digits on the way row: the texts level with its "way" label, left to right.
  const auto way_row = [](const std::string& svg) {
    std::vector<std::pair<float, std::string>> row;
    const std::vector<Element> label = text_elements(svg, "way");
    if (label.size() != 1) return row;
    for (const Element& e : elements(svg, "text"))
      if (std::abs(num(e, "y") - num(label[0], "y")) < 0.5f && num(e, "x") > num(label[0], "x"))
        row.push_back({num(e, "x"), e.text});
    std::sort(row.begin(), row.end());
    return row;
  };
  const Capture bad = strided_capture(128), good = strided_capture(132);
  const std::string svg = draw_banks(banks_view_input(bad, "test/01_banks"), t, {}, {-1, -1}, nullptr, 853, 300);
  ASSERT_EQ(parse(svg, nullptr), "");
  EXPECT_EQ(grid_cells(svg, t).size(), 0u);  // no slivers
  EXPECT_NE(all_text(svg).find("each bank's way"), std::string::npos) << all_text(svg);
  auto row = way_row(svg);
  ASSERT_EQ(row.size(), 1u) << all_text(svg);
  EXPECT_EQ(row[0].second, "32");
  // Bank 0's cell: left of bank 1's number.
  const std::vector<Element> one = text_elements(svg, "1");
  ASSERT_FALSE(one.empty());
  EXPECT_LT(row[0].first, num(one.back(), "x"));
  EXPECT_NE(all_text(svg).find("32 wavefronts, ideal 1, 31 conflicts"), std::string::npos) << all_text(svg);
  EXPECT_EQ(overlapping_text(svg), "");
  EXPECT_EQ(outside(svg, 853, 300), "");
  // Conflict-free: one word on every bank, one wavefront row, which fits the same pane: the grid, no way row.
  const std::string free = draw_banks(banks_view_input(good, "test/01_banks"), t, {}, {-1, -1}, nullptr, 853, 300);
  EXPECT_EQ(way_row(free).size(), 0u);  // the grid itself fits
  // A tall pane draws the grid, no way row.
  const std::string tall = draw_banks(banks_view_input(bad, "test/01_banks"), t, {}, {-1, -1}, nullptr, 1200, 1300);
  EXPECT_EQ(text_elements(tall, "way").size(), 0u);
  EXPECT_EQ(grid_cells(tall, t).size(), 32u);
}

TEST(BanksView, PaddedStride132IsOneRowAcrossAllBanks) {
  const Capture c = strided_capture(132);
  const BanksViewInput in = banks_view_input(c, "test/01_banks");
  const Theme& t = Theme::Light();
  const std::string svg = draw_banks(in, t);
  EXPECT_NE(all_text(svg).find("4-byte loads, 1 wavefront, ideal 1, 0 conflicts"), std::string::npos) << all_text(svg);
  const auto cells = grid_cells(svg, t);
  ASSERT_EQ(cells.size(), 32u);
  std::set<float> ys;
  for (const auto& [lane, r] : cells) ys.insert(r.min.y);
  EXPECT_EQ(ys.size(), 1u);
  // Lane i in bank i: cells left to right are lanes 0..31.
  auto sorted = cells;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.min.x < b.second.min.x; });
  for (int b = 0; b < 32; ++b) EXPECT_EQ(sorted[b].first, b);
  EXPECT_EQ(text_elements(svg, "wf 0").size(), 1u);
  EXPECT_EQ(text_elements(svg, "wf 1").size(), 0u);
  EXPECT_EQ(text_elements(svg, "conflict-free").size(), 1u);
  EXPECT_EQ(text_elements(svg, "conflict-free")[0].attr.at("fill"), hex(t.good));
  EXPECT_EQ(text_elements(svg, "b31").size(), 1u);  // lane 31 at byte 4092: bank 31
}

// A bundled ldmatrix record whose site name does not say .x4 (mma_tf32's "As ldmatrix (frag)"): decided
// from its 32 distinct row addresses, and 09's XOR layout makes each matrix one wavefront.
TEST(BanksView, BundledLdmatrixX4OfAConflictFreeRungIsFourFourZero) {
  const BanksViewInput in = banks_view_input(bundled_capture(), "mma_tf32/09_xor_permuted");
  BanksViewState st;
  st.site = site_index(in, "As ldmatrix (frag)");
  ASSERT_GE(st.site, 0);
  st.access = 0;
  EXPECT_EQ(in.sites[st.site].op, SmemOp::LdmatrixX4);
  const Theme& t = Theme::Dark();
  const std::string svg = draw_banks(in, t, st);
  const std::string words = all_text(svg);
  EXPECT_NE(words.find("As ldmatrix (frag), warp 0, k-iteration 0, access 1 of"), std::string::npos) << words;
  EXPECT_NE(words.find("ldmatrix.x4 (4 8x8 matrices, one phase each), 4 wavefronts, ideal 4, 0 conflicts"),
            std::string::npos)
      << words;
  // Four rows, one per matrix, each 8 lanes x 4 banks = all 32 banks, each row's phase named.
  const auto cells = grid_cells(svg, t);
  EXPECT_EQ(cells.size(), 4u * 32u);
  std::set<float> ys;
  for (const auto& [lane, r] : cells) ys.insert(r.min.y);
  EXPECT_EQ(ys.size(), 4u);
  for (const char* p : {"lanes 0-7", "lanes 8-15", "lanes 16-23", "lanes 24-31"}) EXPECT_EQ(text_elements(svg, p).size(), 1u) << p;
  EXPECT_EQ(overlapping_text(svg), "");
}

// The ladder's lesson at a glance: 01's fragment reads conflict, 02's padding removes it.
TEST(BanksView, FragmentReadsConflictInVectorizedAndNotInConflictFree) {
  const Theme& t = Theme::Dark();
  const BanksViewInput bad = banks_view_input(bundled_capture(), "mma_tf32/01_vectorized");
  const BanksViewInput good = banks_view_input(bundled_capture(), "mma_tf32/02_conflict_free");
  for (const char* site : {"As load (frag)", "Bs load (frag)"}) {
    ASSERT_GE(site_index(bad, site), 0) << site;
    EXPECT_GT(bad.sites[site_index(bad, site)].conflicts, 0) << site;
    EXPECT_EQ(good.sites[site_index(good, site)].conflicts, 0) << site;
  }
  const std::string bad_svg = draw_banks(bad, t), good_svg = draw_banks(good, t);
  EXPECT_EQ(text_elements(good_svg, "conflict-free").size(), good.sites.size());
  EXPECT_EQ(text_elements(bad_svg, "conflict-free").size(), 2u);  // the two stores
  // The default access is the worst site's worst. A warp runs 32 A fragment reads (8-way) and 128 B reads
  // (4-way) per k-slice, so the B reads cost more conflicts in all (384 to 224): a B read, 4-way.
  EXPECT_GT(bad.sites[site_index(bad, "Bs load (frag)")].conflicts, bad.sites[site_index(bad, "As load (frag)")].conflicts);
  EXPECT_NE(all_text(bad_svg).find("Bs load (frag), warp 0"), std::string::npos);
  EXPECT_NE(all_text(bad_svg).find("4 wavefronts, ideal 1, 3 conflicts (4-way on banks"), std::string::npos)
      << all_text(bad_svg);
  const std::string conflicts = std::to_string(bad.sites[site_index(bad, "Bs load (frag)")].conflicts);
  ASSERT_FALSE(text_elements(bad_svg, conflicts).empty());
  EXPECT_EQ(text_elements(bad_svg, conflicts)[0].attr.at("fill"), hex(t.bad));
}

TEST(BanksView, SaysInOneLineWhyThereIsNothingToDraw) {
  const BanksViewInput naive = banks_view_input(bundled_capture(), "sgemm/01_naive");
  EXPECT_TRUE(naive.sites.empty());
  std::string svg = draw_banks(naive, Theme::Dark());
  EXPECT_EQ(count_if_contains(texts(svg), "sgemm/01_naive makes no shared-memory accesses"), 1);
  EXPECT_TRUE(grid_cells(svg, Theme::Dark()).empty());
  const BanksViewInput bare = banks_view_input(Capture{}, "mma_tf32/01_vectorized");
  svg = draw_banks(bare, Theme::Dark());
  EXPECT_EQ(count_if_contains(texts(svg), "No shared-memory accesses in this capture"), 1);
  BanksViewInput live = bare;
  live.live = true;
  EXPECT_EQ(count_if_contains(texts(draw_banks(live, Theme::Dark())), "live session traces no shared-memory"), 1);
  for (float w : {420.0f, 1600.0f}) {
    svg = draw_banks(naive, Theme::Light(), {}, {-1, -1}, nullptr, w, 300);
    EXPECT_EQ(outside(svg, w, 300), "") << w;
  }
}

// A hopper rung (TMA writes, wgmma reads: no lane addresses) gets the descriptors' swizzle modes instead of a
// blank: each mode's atom as labelled chunks in bank slots, the rungs' 128B named, the verdict per mode, and
// every label on the canvas at both window sizes.
TEST(BanksView, HopperRungsShowTheSwizzleModes) {
  BanksViewInput in;
  in.kernel = "hopper/04_persistent";
  in.no_lane_addresses = "hopper/04_persistent moves its tiles into shared memory with TMA";
  for (const auto& [w, h] : {std::pair{1600.0f, 900.0f}, std::pair{1920.0f, 1080.0f}}) {
    const std::string svg = draw_banks(in, Theme::Light(), {}, {-1, -1}, nullptr, w, h);
    const std::vector<std::string> tx = texts(svg);
    EXPECT_EQ(count_if_contains(tx, "moves its tiles into shared memory with TMA"), 1);
    EXPECT_EQ(count_if_contains(tx, "128B (the rungs')"), 1);
    EXPECT_EQ(count_if_contains(tx, "core matrix: 8 slots, 1 wavefront"), 4);  // 128B, 64B, 32B, none
    EXPECT_EQ(count_if_contains(tx, "core matrix: 1 slot, 8-way"), 1);         // 128-byte rows, no swizzle
    // 64 + 32 + 16 + 8 + 64 chunk labels; the 128B atom's row 1 starts with chunk 1 ("1,1"), as TMA writes it.
    int labels = 0;
    for (const std::string& t : tx) labels += t.size() == 3 && t[1] == ',';
    EXPECT_EQ(labels, 64 + 32 + 16 + 8 + 64);
    EXPECT_EQ(outside(svg, w, h), "") << w;
  }
}

TEST(BanksView, HoverNamesTheCellLaneOrSiteUnderTheMouse) {
  const Capture c = strided_capture(128);
  const BanksViewInput in = banks_view_input(c, "test/01_banks");
  const Theme& t = Theme::Dark();
  const auto cells = grid_cells(draw_banks(in, t), t);
  ASSERT_EQ(cells.size(), 32u);
  BanksHover h;
  draw_banks(in, t, {}, cells[31].second.center(), &h);
  EXPECT_EQ(h.wavefront, 31);
  EXPECT_EQ(h.bank, 0);
  EXPECT_EQ(h.lane, -1);
  // An idle cell (bank 5 of wavefront 2) is still a cell: the panel says the bank reads nothing there.
  const Vec2 idle{cells[2].second.center().x + 5 * cells[2].second.w(), cells[2].second.center().y};
  draw_banks(in, t, {}, idle, &h);
  EXPECT_EQ(h.wavefront, 2);
  EXPECT_EQ(h.bank, 5);
  // The lane strip: lane 5's chip (rounded, in lane 5's colour).
  const std::string svg = draw_banks(in, t);
  Rect chip{};
  for (const Element& e : elements(svg, "rect"))
    if (e.attr.count("rx") && e.attr.count("fill") && e.attr.at("fill") == hex(lane_color(5, t))) chip = rect_of(e);
  ASSERT_GT(chip.w(), 0);
  draw_banks(in, t, {}, chip.center(), &h);
  EXPECT_EQ(h.lane, 5);
  EXPECT_EQ(h.wavefront, -1);
  // The site table's row.
  const std::vector<Element> name = text_elements(svg, "As load");
  ASSERT_EQ(name.size(), 1u);
  draw_banks(in, t, {}, {num(name[0], "x") + 5, num(name[0], "y") - 3}, &h);
  EXPECT_EQ(h.site, 0);
  EXPECT_TRUE(h.valid());
  draw_banks(in, t, {}, {-1, -1}, &h);
  EXPECT_FALSE(h.valid());
}

TEST(BanksView, PickFallsBackToWhatTheSiteRecorded) {
  Capture c = strided_capture(132);
  SmemAccess worse = c.smem[0];
  for (int lane = 0; lane < 32; ++lane) worse.addr[lane] = 8u * lane;  // 2-way
  c.smem.push_back(worse);
  c.smem.push_back(c.smem[0]);
  const BanksViewInput in = banks_view_input(c, "test/01_banks");
  BanksViewState st;
  BanksPick p = banks_pick(in, st);
  ASSERT_NE(p.access, nullptr);
  EXPECT_EQ(p.count, 3);
  EXPECT_EQ(p.access->index, 1);  // the default is the execution with the most conflicts
  st.access = 2;
  EXPECT_EQ(banks_pick(in, st).access->index, 2);
  st.warp = 7;  // not recorded: the site's first recorded warp
  p = banks_pick(in, st);
  EXPECT_EQ(p.warp, 0);
  EXPECT_EQ(p.warps, std::vector<int>{0});
  st.site = 9;  // out of range: the worst site
  EXPECT_EQ(banks_pick(in, st).site, 0);
  EXPECT_EQ(banks_pick(BanksViewInput{}, st).site, -1);
}

TEST(BanksView, HighlightedLaneKeepsItsColourAndOthersDim) {
  const Capture c = strided_capture(8);  // 2-way: lanes 0-15 in wavefront 0, 16-31 in wavefront 1
  const BanksViewInput in = banks_view_input(c, "test/01_banks");
  const Theme& t = Theme::Dark();
  BanksViewState st;
  st.highlight_lane = 18;
  const auto cells = grid_cells(draw_banks(in, t, st), t);
  ASSERT_EQ(cells.size(), 1u);  // only lane 18's cell keeps its lane colour
  EXPECT_EQ(cells[0].first, 18);
}

// Text stays apart and on the canvas for every bundled kind of access, at window and slide sizes.
TEST(BanksView, TextNeverOverlapsAndStaysOnTheCanvas) {
  for (const char* kernel : {"mma_tf32/01_vectorized", "sgemm/06_vectorize", "wmma/02_smem", "mma_f16/08_ldmatrix",
                             "sgemm/09_cp_async"}) {
    const BanksViewInput in = banks_view_input(bundled_capture(), kernel);
    for (int s = -1; s < int(in.sites.size()); ++s)
      for (auto [w, h] : {std::pair{1600.0f, 900.0f}, {700.0f, 760.0f}, {520.0f, 420.0f}, {400.0f, 360.0f}}) {
        BanksViewState st;
        st.site = s;
        const std::string svg = draw_banks(in, s % 2 ? Theme::Light() : Theme::Dark(), st, {-1, -1}, nullptr, w, h);
        ASSERT_EQ(parse(svg, nullptr), "");
        EXPECT_EQ(overlapping_text(svg), "") << kernel << " site " << s << " at " << w << "x" << h;
        EXPECT_EQ(outside(svg, w, h), "") << kernel << " site " << s << " at " << w << "x" << h;
      }
  }
}

// A narrow pane (the window's at 150% is about 350x300 before the zoom) drops the columns a reader needs least
// before the site names: every name keeps at least 6 characters (it was "..." alone).
TEST(BanksView, NarrowPaneKeepsTheSiteNames) {
  for (const char* kernel : {"mma_f16/10_multistage", "wmma/11_ldmatrix_xor", "sgemm/09_cp_async"}) {
    const BanksViewInput in = banks_view_input(bundled_capture(), kernel);
    ASSERT_FALSE(in.sites.empty()) << kernel;
    for (auto [w, h] : {std::pair{350.0f, 300.0f}, {400.0f, 360.0f}}) {
      const std::vector<std::string> text = texts(draw_banks(in, Theme::Dark(), {}, {-1, -1}, nullptr, w, h));
      for (const auto& site : in.sites) {
        const bool shown = std::any_of(text.begin(), text.end(), [&](const std::string& x) {
          if (x == site.name) return true;
          const size_t dots = x.rfind("...");
          return dots != std::string::npos && dots >= 6 && dots + 3 == x.size() && site.name.rfind(x.substr(0, dots), 0) == 0;
        });
        EXPECT_TRUE(shown) << kernel << " at " << w << "x" << h << ": site " << site.name;
      }
    }
  }
}

// Under the lane strip, the access on shared memory's 128-byte lines: a 132-byte stride puts lane i on line
// i at bank i, one word each, all read by wavefront 0 (a diagonal).
TEST(BanksView, LineMapPutsEachWordInItsLineAndBank) {
  const BanksViewInput in = banks_view_input(strided_capture(132), "test/01_banks");
  const Theme& t = Theme::Dark();
  const std::string svg = draw_banks(in, t, {}, {-1, -1}, nullptr, 1200, 1600);
  EXPECT_NE(all_text(svg).find("shared memory as the banks see it"), std::string::npos);
  EXPECT_EQ(text_elements(svg, "test/01_banks \xC2\xB7 As load, warp 0: 1 wavefront, 0 conflicts").size(), 1u);
  // Line labels are byte offsets of 128-byte lines: lane 31 at 4092 is on line 31 (+3968).
  EXPECT_EQ(text_elements(svg, "+0").size(), 1u);
  EXPECT_EQ(text_elements(svg, "+3968").size(), 1u);
  // 32 cells numbered 0 (the one wavefront) on a diagonal: a different line and a different bank each.
  std::set<float> xs, ys;
  for (const Element& e : text_elements(svg, "0")) xs.insert(std::stof(e.attr.at("x"))), ys.insert(std::stof(e.attr.at("y")));
  EXPECT_GE(xs.size(), 32u);
  EXPECT_GE(ys.size(), 32u);
}

// Compare mode: the same site of a second rung beside the selected one (padding: 128 -> 132 bytes).
// test/01_banks at a 128-byte stride, with the same site padded to 132 as test/02_padded to compare with.
BanksViewInput compared_banks() {
  BanksViewInput in = banks_view_input(strided_capture(128), "test/01_banks");
  in.compare_sites = smem_sites(strided_capture(132), "test/01_banks");
  in.compare_kernel = "test/02_padded";
  return in;
}

TEST(BanksView, CompareDrawsTheOtherRungsSameSiteBeside) {
  const BanksViewInput in = compared_banks();
  BanksViewState st;
  st.compare = true;
  const std::string svg = draw_banks(in, Theme::Light(), st, {-1, -1}, nullptr, 1400, 1800);
  const std::vector<Element> mine = text_elements(svg, "test/01_banks \xC2\xB7 As load, warp 0: 32 wavefronts, 31 conflicts");
  const std::vector<Element> other = text_elements(svg, "test/02_padded \xC2\xB7 As load, warp 0: 1 wavefront, 0 conflicts");
  ASSERT_EQ(mine.size(), 1u);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_LT(std::stof(mine[0].attr.at("x")) + 300, std::stof(other[0].attr.at("x")));  // beside, to the right
  EXPECT_EQ(mine[0].attr.at("y"), other[0].attr.at("y"));
  EXPECT_EQ(overlapping_text(svg), "");
  // Off: only the selected rung's map.
  st.compare = false;
  EXPECT_EQ(text_elements(draw_banks(in, Theme::Light(), st, {-1, -1}, nullptr, 1400, 1800),
                          "test/02_padded \xC2\xB7 As load, warp 0: 1 wavefront, 0 conflicts")
                .size(),
            0u);
}

// In a short pane (the window's first start), "compare" says what the other rung's same site costs, first, in one
// line: the tick had changed nothing but the toolbar.
TEST(BanksView, AShortPaneComparingGivesTheOtherRungsNumbersFirst) {
  const BanksViewInput in = compared_banks();
  BanksViewState st;
  st.compare = true;
  const std::string svg = draw_banks(in, Theme::Dark(), st, {-1, -1}, nullptr, 853, 300);
  ASSERT_EQ(parse(svg, nullptr), "");
  const std::string text = all_text(svg);
  EXPECT_NE(text.find("02_padded's As load: 1 wavefront, 0 conflicts"), std::string::npos) << text;
  EXPECT_NE(text.find("each bank's way"), std::string::npos) << text;  // the row of ways still there
  EXPECT_EQ(overlapping_text(svg), "");
  EXPECT_EQ(outside(svg, 853, 300), "");
  st.compare = false;
  EXPECT_EQ(all_text(draw_banks(in, Theme::Dark(), st, {-1, -1}, nullptr, 853, 300)).find("02_padded"), std::string::npos);
}

// wmma/08[pad=off] at a first start's 1600x900: six sites leave the row of ways its bare form, 8 on banks 0-7
// (it had missed by 5 px and the pane showed the table alone).
TEST(BanksView, AShortPaneUnderATallTableStillShowsTheWays) {
  const BanksViewInput in = banks_view_input(bundled_capture(), "wmma/08_multistage[pad=off]");
  ASSERT_EQ(in.sites.size(), 6u);
  const std::string svg = draw_banks(in, Theme::Dark(), {}, {-1, -1}, nullptr, 434, 252);
  ASSERT_EQ(parse(svg, nullptr), "");
  EXPECT_EQ(text_elements(svg, "way").size(), 1u) << all_text(svg);
  EXPECT_EQ(text_elements(svg, "8").size(), 9u) << all_text(svg);  // banks 0-7 at 8, and bank 8's number
  EXPECT_EQ(overlapping_text(svg), "");
  EXPECT_EQ(outside(svg, 434, 252), "");
}

// sgemm/10's 4-byte cp.async: wavefronts past the ideal with no bank serving two words. The short pane's row of
// ways (all 1) says why the table counts conflicts.
TEST(BanksView, AShortPaneSaysACpAsyncsConflictsAreNotTwoWordsOnABank) {
  const Capture& cap = bundled_capture();
  const BanksViewInput in = banks_view_input(cap, "sgemm/10_thread_tile_16x8");
  const std::string svg = draw_banks(in, Theme::Dark(), {}, {-1, -1}, nullptr, 420, 330);
  ASSERT_EQ(parse(svg, nullptr), "");
  const std::string text = all_text(svg);
  ASSERT_NE(text.find("As cp.async (4 B, transposed)"), std::string::npos) << text;
  EXPECT_NE(text.find("1-way on every bank: cp.async serves 8 lanes a wavefront"), std::string::npos) << text;
  EXPECT_EQ(overlapping_text(svg), "");
}

TEST(ImGuiCanvas, DrawsTheBankViewAndLeavesTheClipStackAsItFoundIt) {
  ImGuiFrame frame;
  frame.begin();
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  ImGuiCanvas c(dl, nullptr, nullptr);
  const int clips = dl->_ClipRectStack.Size;
  const Capture cap = strided_capture(128);
  BanksHover hover;
  draw_banks_view(c, {{0, 0}, {800, 900}}, Theme::Dark(), banks_view_input(cap, "test/01_banks"), {}, {-1, -1}, &hover);
  EXPECT_GT(dl->VtxBuffer.Size, 1000);
  EXPECT_EQ(dl->_ClipRectStack.Size, clips);
}

// A text a pane had no room for is one hover away: the mouse resting on a line elide() cut (or on a paragraph's last
// shown line) shows the whole in a tooltip ("The mma.sync line: that instru..." on the maximised roofline said no
// more, hovered or not). Elsewhere, on a text drawn whole, or where the view opened a tooltip of its own (a site's
// row), no such tooltip: one box would have held both, run together.
TEST(ImGuiCanvas, ACutTextShowsItselfWholeUnderTheMouse) {
  const std::string whole = "The mma.sync line: that instruction's own loop, timed on this GPU beside cuBLAS";
  const std::string view_tip = "x";
  const long letters = std::count_if(whole.begin(), whole.end(), [](char ch) { return ch != ' '; });
  struct Case {
    ImVec2 mouse;
    bool cut, paragraph, view_tip, tip;
  };
  for (const Case& cs : {Case{{40, 48}, true, false, false, true}, Case{{40, 48}, true, true, false, true},
                         Case{{40, 120}, true, false, false, false}, Case{{40, 48}, false, false, false, false},
                         Case{{40, 48}, true, false, true, false}}) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 900);
    io.IniFilename = nullptr;
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    int tip_quads = 0;
    // The pane is hovered from the second frame on; ImGui sizes a tooltip in its first frame and draws it from the next.
    for (int frame = 0; frame < 3; ++frame) {
      io.MousePos = cs.mouse;
      ImGui::NewFrame();
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(400, 300));
      ImGui::Begin("pane");
      ImGuiCanvas c(ImGui::GetWindowDrawList(), nullptr, nullptr);
      // A line cut by elide(), or the first line of the paragraph `whole` with more of it left out.
      const std::string shown = cs.paragraph ? viz::paragraph_line(c, "The mma.sync line:", whole, true, 14, 2000)
                                             : viz::elide(c, whole, 14, Font::Sans, cs.cut ? 150 : 2000);
      EXPECT_EQ(shown != whole, cs.cut);
      c.text({20, 40}, shown, Theme::Dark().text, 14);
      if (cs.view_tip) ImGui::SetTooltip("%s", view_tip.c_str());  // the view's own hover, as Interact() opens it
      cut_text_tooltip();
      ImGui::End();
      ImGui::Render();
      tip_quads = 0;
      const ImDrawData* dd = ImGui::GetDrawData();
      for (int i = 0; i < dd->CmdListsCount; ++i)
        if (const ImDrawList* dl = dd->CmdLists[i];
            dl->_OwnerName && std::string(dl->_OwnerName).rfind("##Tooltip", 0) == 0)
          tip_quads += dl->VtxBuffer.Size / 4;  // glyphs, and the box's few
    }
    if (cs.tip)
      EXPECT_GE(tip_quads, letters) << "the tooltip holds the whole text";
    else
      EXPECT_LT(tip_quads, 20) << "no tooltip of the cut text: mouse at " << cs.mouse.y
                               << (cs.cut ? ", text cut" : ", text whole")
                               << (cs.view_tip ? ", the view's own tooltip open" : "");
    ImGui::DestroyContext();
  }
}

// Views lay text out with text_size; the window (ImGui) and the export (SVG) must agree on it.
TEST(ImGuiCanvas, MeasuresTextAsSvgCanvasDoes) {
  const std::string dir = "/usr/share/fonts/truetype/dejavu/";  // Debian's fonts-dejavu-core
  const char* files[] = {"DejaVuSans.ttf", "DejaVuSansMono.ttf", "DejaVuSans-Bold.ttf"};
  for (const char* f : files) {
    FILE* fp = std::fopen((dir + f).c_str(), "rb");
    if (!fp) GTEST_SKIP() << "fonts-dejavu-core is not installed";
    std::fclose(fp);
  }
  ImGuiFrame frame;
  ImFont* fonts[3];
  for (int i = 0; i < 3; ++i)
    fonts[i] = ImGui::GetIO().Fonts->AddFontFromFileTTF((dir + files[i]).c_str(), 32);
  frame.begin();
  ImGuiCanvas im(ImGui::GetForegroundDrawList(), fonts[0], fonts[1], fonts[2]);
  SvgCanvas svg(10, 10, {});
  for (Font f : {Font::Sans, Font::Mono, Font::SansBold})
    for (const char* s : {"mma_f16/09_ldmatrix", "12.3 TFLOP/s \xC2\xB7 23.9% of cuBLAS",
                          "A  16\xC3\x97"
                          "16 (m\xC3\x97k)",
                          "31:7"})
      for (float size : {9.0f, 14.0f, 21.0f}) {
        Vec2 a = im.text_size(s, size, f), b = svg.text_size(s, size, f);
        EXPECT_NEAR(a.x, b.x, std::max(1.0f, 0.02f * b.x)) << s << " at " << size;
        EXPECT_NEAR(a.y, b.y, 0.01f);
      }
}


// ---- Launch-order view ---------------------------------------------------------------------------

// 4x4 tiles in row-major order, four waves of four blocks on 4 SMs, 10 ns each.
TracedLaunch four_waves() {
  TracedLaunch l;
  for (int i = 0; i < 16; ++i) {
    BlockRecord b;
    b.kernel = "test/01";
    b.launch = i, b.tile_m = i / 4, b.tile_n = i % 4, b.smid = i % 4;
    b.start_ns = uint64_t(i / 4) * 10, b.end_ns = b.start_ns + 10;
    l.blocks.push_back(b);
  }
  l.tiles_m = l.tiles_n = l.sms = 4;
  l.duration = 40;
  return l;
}

TEST(SwizzleView, AMomentShowsRunningBlocksTheirPanelsAndTheirBytes) {
  const TracedLaunch l = four_waves();
  SwizzleViewInput in;
  in.kernel = "test/01";
  in.launch = &l;
  in.block_m = in.block_n = 128, in.k = 4096, in.elem_bytes = 2, in.l2_bytes = 50 << 20;
  in.order = "row-major order";
  in.tflops = 123;
  SwizzleViewState st;
  st.time = 0.3f;  // 12 of 40 ns: the second wave (tile row 1) runs, the first is done
  const Theme& t = Theme::Dark();
  SvgCanvas c(1600, 900, t.bg);
  SwizzleHover hover;
  draw_swizzle_view(c, {{0, 0}, {1600, 900}}, t, in, nullptr, st, {-1, -1}, &hover);
  const std::string svg = c.finish();
  EXPECT_EQ(parse(svg, nullptr), "");
  const std::string text = all_text(svg);
  // 1 A panel and 4 B panels of 128 x 4096 halves: 1 MiB and 4 MiB (2^20 bytes: the L2 size the device reports is 50 MiB, not 50 MB).
  EXPECT_NE(text.find("4 blocks running read 1 A panels (1.0 MiB) and 4 B panels (4.0 MiB)"), std::string::npos) << text;
  EXPECT_NE(text.find("5.0 MiB of 50 MiB L2"), std::string::npos) << text;
  EXPECT_NE(text.find("row-major order"), std::string::npos);
  EXPECT_NE(text.find("123 TFLOP/s"), std::string::npos);
  // The running blocks are outlined in the text colour: four of them.
  int outlined = 0;
  for (const Element& e : elements(svg, "rect"))
    if (e.attr.count("stroke") && e.attr.at("stroke") == hex(t.text) && e.attr.at("fill") == "none") ++outlined;
  EXPECT_EQ(outlined, 4);
  // One row per SM in the timeline, labelled.
  EXPECT_EQ(text_elements(svg, "SM 0").size(), 1u);
  EXPECT_EQ(text_elements(svg, "SM 3").size(), 1u);
  EXPECT_GE(min_font_px(svg), kMinTextSize * 2048.0f / (1901 + 483) - 0.01f);
  EXPECT_EQ(overlapping_text(svg), "");
  EXPECT_NE(text.find("outlined: running \xC2\xB7 faded: done"), std::string::npos) << text;
  // The whole run: every block done in its full colour, and no key to outlines and fading that nothing shows.
  st.time = 1;
  SvgCanvas whole(1600, 900, t.bg);
  draw_swizzle_view(whole, {{0, 0}, {1600, 900}}, t, in, nullptr, st, {-1, -1}, nullptr);
  const std::string all = all_text(whole.finish());
  EXPECT_NE(all.find("the whole run"), std::string::npos) << all;
  EXPECT_EQ(all.find("faded"), std::string::npos) << all;
}

// `kernel`'s blocks over tiles_m x tiles_n tiles in row-major order on 132 SMs, in waves of 132 blocks of 10 ns
// (4096^3 in 128x256 tiles: 32 x 16, four waves).
TracedLaunch row_major_launch(const std::string& kernel, int tiles_m, int tiles_n) {
  TracedLaunch l;
  for (int i = 0; i < tiles_m * tiles_n; ++i) {
    BlockRecord r;
    r.kernel = kernel;
    r.launch = i, r.tile_m = i / tiles_n, r.tile_n = i % tiles_n, r.smid = i % 132;
    r.start_ns = uint64_t(i / 132) * 10, r.end_ns = r.start_ns + 10;
    l.blocks.push_back(r);
  }
  l.tiles_m = tiles_m, l.tiles_n = tiles_n, l.sms = 132;
  l.duration = uint64_t((tiles_m * tiles_n - 1) / 132 + 1) * 10;
  return l;
}

// Two sides of hopper/04's shape (a 32x16 grid of 128x256 tiles): the rung in its triton:16 order, its variant
// row-major.
void hopper04_sides(const TracedLaunch& a, const TracedLaunch& b, SwizzleViewInput* in, SwizzleViewInput* other) {
  for (SwizzleViewInput* x : {in, other}) {
    x->launch = x == in ? &a : &b;
    x->kernel = x == in ? "test/04" : "test/04[order=none]";
    x->block_m = 128, x->block_n = 256, x->k = 4096, x->elem_bytes = 2, x->tflops = 700;
    x->order = x == in ? "triton:16 order" : "row-major order";
  }
}

// A short pane with two sides (the whole window at 1920x1080: hopper/04 beside its row-major variant, each with two
// Nsight Compute lines and the footprint): the grids went 50 pixels tall. Now the lines give way first, so that each
// grid is at least six lines of text tall; where even the bare grids are not, the selected rung's goes alone and a
// line names the other.
TEST(SwizzleView, AShortPaneKeepsItsGridsReadable) {
  const TracedLaunch a = row_major_launch("test/04", 32, 16), b = row_major_launch("test/04[order=none]", 32, 16);
  SwizzleViewInput in, other;
  hopper04_sides(a, b, &in, &other);
  for (SwizzleViewInput* x : {&in, &other}) {
    x->l2_bytes = 50 << 20;
    x->measured = {"L2 hit 82.3%, DRAM read 0.56 GB (Nsight Compute, the timed launch)",
                   "L2 hit 84.4%, DRAM read 1.26 GB (Nsight Compute, the traced launch)"};
  }
  const Theme& t = Theme::Dark();
  SwizzleViewState st;
  st.timeline = false;
  const auto grid = [&](float w, float h, bool beside, std::string* text) {
    SvgCanvas c(w, h, t.bg);
    draw_swizzle_view(c, {{0, 0}, {w, h}}, t, in, beside ? &other : nullptr, st, {-1, -1}, nullptr);
    const std::string svg = c.finish();
    EXPECT_EQ(overlapping_text(svg), "") << w << "x" << h;
    *text = all_text(svg);
    int cells = 0;
    float top = 1e9f, bottom = -1e9f;
    for (const Element& e : elements(svg, "rect")) {
      const Rect r = rect_of(e);
      if (!e.attr.count("fill") || e.attr.at("fill") == "none" || r.h() > 40 || r.w() > 40 || r.min.y < 30) continue;
      ++cells, top = std::min(top, r.min.y), bottom = std::max(bottom, r.max.y);
    }
    return std::pair<int, float>{cells, bottom - top};
  };
  std::string text;
  const auto [both, both_h] = grid(460, 300, true, &text);
  EXPECT_GE(both, 2 * 512) << text;
  EXPECT_GE(both_h, 6 * kMinTextSize) << text;
  EXPECT_NE(text.find("test/04[order=none]"), std::string::npos) << text;
  // A larger pane keeps the lines.
  const auto [tall, tall_h] = grid(900, 700, true, &text);
  EXPECT_GE(tall, 2 * 512);
  EXPECT_NE(text.find("L2 hit 82.3%"), std::string::npos) << text;
  // Narrower: two grids side by side would each be too small; one, readable, and a line naming the other.
  const auto [one, one_h] = grid(230, 300, true, &text);
  EXPECT_GE(one, 512) << text;
  EXPECT_LT(one, 2 * 512) << text;
  EXPECT_NE(text.find("test/04[order=none] beside it"), std::string::npos) << text;
  EXPECT_GE(one_h, 6 * kMinTextSize) << text;
  (void)tall_h;
}

// Two sides under headings of different heights (hopper/04's Nsight Compute lines wrapped to four lines beside its
// variant's two, and its grid began two lines lower): the grids start level, at one scale, and so do the per-SM
// timelines under captions that wrap to different lengths.
TEST(SwizzleView, SideBySideGridsAndTimelinesStartLevel) {
  const TracedLaunch a = row_major_launch("test/04", 32, 16), b = row_major_launch("test/04[order=none]", 32, 16);
  SwizzleViewInput in, other;
  hopper04_sides(a, b, &in, &other);
  in.measured = {"L2 hit 53.1 \xE2\x86\x92 82.3%, DRAM read 2.66 \xE2\x86\x92 0.56 GB, 931 \xE2\x86\x92 757 us (Nsight Compute, "
                 "4096x16384x4096: row-major \xE2\x86\x92 its own order)",
                 "L2 hit 67.1 \xE2\x86\x92 84.4%, DRAM read 3.07 \xE2\x86\x92 1.26 GB (Nsight Compute, 8192x8192x8192)"};
  in.timed_ms = 0.5;  // the left caption gains a clause the right one lacks
  const Theme& t = Theme::Dark();
  SvgCanvas c(1600, 900, t.bg);
  draw_swizzle_view(c, {{0, 0}, {1600, 900}}, t, in, &other, SwizzleViewState{}, {-1, -1}, nullptr);
  const std::string svg = c.finish();
  EXPECT_EQ(overlapping_text(svg), "");
  const std::string text = all_text(svg);
  ASSERT_EQ(text.find("beside it"), std::string::npos) << text;
  // The tiles of each half: their top, their bottom and their height.
  float top[2] = {1e9f, 1e9f}, bottom[2] = {-1e9f, -1e9f}, tile_h[2] = {0, 0};
  for (const Element& e : elements(svg, "rect")) {
    const Rect r = rect_of(e);
    if (!e.attr.count("fill") || e.attr.at("fill") == "none" || r.h() > 40 || r.w() > 60 || r.h() < 4 || r.min.y < 40) continue;
    if (std::abs(r.w() - 2 * r.h()) > 2) continue;  // a 128x256 tile is twice as wide as tall
    const int side = r.min.x < 800 ? 0 : 1;
    top[side] = std::min(top[side], r.min.y), bottom[side] = std::max(bottom[side], r.max.y), tile_h[side] = r.h();
  }
  ASSERT_LT(top[0], 1e8f) << text;
  ASSERT_LT(top[1], 1e8f) << text;
  EXPECT_NEAR(top[0], top[1], 0.5f) << "the two grids start at different heights";
  EXPECT_NEAR(bottom[0], bottom[1], 0.5f) << "the two grids are drawn at different scales";
  EXPECT_NEAR(tile_h[0], tile_h[1], 0.01f);
  // The timelines: each SM 0 label at one height, under the longer caption.
  const std::vector<Element> sm0 = text_elements(svg, "SM 0");
  ASSERT_EQ(sm0.size(), 2u) << text;
  EXPECT_NEAR(std::stof(sm0[0].attr.at("y")), std::stof(sm0[1].attr.at("y")), 0.5f);
  EXPECT_NE(text.find("the timed run's"), std::string::npos) << text;
}

// A wide C (the live GPU test's 512x4096: 4 tile rows of 32) drew its two grids 97 pixels tall side by side, so the
// rung went alone and its row-major variant unseen; stacked, each has the pane's width and both stay.
TEST(SwizzleView, AWideMatrixStacksItsTwoSides) {
  const TracedLaunch a = row_major_launch("test/07", 4, 32), b = row_major_launch("test/07[order=none]", 4, 32);
  SwizzleViewInput in, other;
  for (SwizzleViewInput* x : {&in, &other}) {
    x->launch = x == &in ? &a : &b;
    x->kernel = x == &in ? "test/07" : "test/07[order=none]";
    x->block_m = x->block_n = 128, x->k = 512, x->elem_bytes = 2, x->tflops = 100;
    x->order = x == &in ? "cutlass:4 order" : "row-major order";
  }
  const Theme& t = Theme::Dark();
  SvgCanvas c(1600, 900, t.bg);
  draw_swizzle_view(c, {{0, 0}, {1600, 900}}, t, in, &other, SwizzleViewState{}, {-1, -1}, nullptr);
  const std::string svg = c.finish();
  const std::string text = all_text(svg);
  EXPECT_NE(text.find("row-major order"), std::string::npos) << text;
  EXPECT_NE(text.find("cutlass:4 order"), std::string::npos) << text;
  EXPECT_EQ(text.find("beside it"), std::string::npos) << text;
  EXPECT_EQ(overlapping_text(svg), "");
  // The two grids' tiles: one above the other, each at least six lines of text tall.
  std::vector<Rect> tiles;
  for (const Element& e : elements(svg, "rect")) {
    const Rect r = rect_of(e);
    if (e.attr.count("fill") && e.attr.at("fill") != "none" && std::abs(r.w() - r.h()) < 1 && r.w() > 10 && r.w() < 60)
      tiles.push_back(r);
  }
  ASSERT_GE(tiles.size(), 256u) << text;
  float top = 1e9f, bottom = -1e9f;
  for (const Rect& r : tiles) top = std::min(top, r.min.y), bottom = std::max(bottom, r.max.y);
  EXPECT_GE(bottom - top, 2 * 4 * 6 * kMinTextSize / 4) << "two grids of 4 rows, each six lines tall";
  // One grid wholly above the other (side by side, half of each would lie above the middle as well).
  std::sort(tiles.begin(), tiles.end(), [](const Rect& a, const Rect& b) { return a.min.y < b.min.y; });
  float upper_bottom = -1e9f, lower_top = 1e9f;
  for (size_t i = 0; i < tiles.size(); ++i)
    (i < tiles.size() / 2 ? upper_bottom : lower_top) =
        i < tiles.size() / 2 ? std::max(upper_bottom, tiles[i].max.y) : std::min(lower_top, tiles[i].min.y);
  EXPECT_LT(upper_bottom, lower_top) << "the two grids overlap in height: not stacked";
}

// A rung traced and timed at another size than the kernel list's number names that size even alone (stream-K's
// 438 TFLOP/s at 5120x1280x4096 stood without it against the list's 514 at 4096^3).
TEST(SwizzleView, ASpeedFromAnotherSizeThanTheListsNamesItsSize) {
  const TracedLaunch l = four_waves();
  SwizzleViewInput in;
  in.kernel = "test/13", in.launch = &l, in.block_m = in.block_n = 128, in.k = 64, in.elem_bytes = 2;
  in.tflops = 438, in.shape = "5120x1280x4096", in.list_shape = "4096x4096x4096";
  const auto text = [&](const SwizzleViewInput& x) {
    SvgCanvas c(1200, 800, Theme::Dark().bg);
    draw_swizzle_view(c, {{0, 0}, {1200, 800}}, Theme::Dark(), x, nullptr, SwizzleViewState{}, {-1, -1}, nullptr);
    return all_text(c.finish());
  };
  EXPECT_NE(text(in).find("at 5120x1280x4096"), std::string::npos) << text(in);
  in.list_shape = in.shape;
  EXPECT_EQ(text(in).find("5120x1280x4096"), std::string::npos) << text(in);
}

TEST(SwizzleView, HoverFindsTheBlockInTheGridAndSaysWhatIsNotTraced) {
  const TracedLaunch l = four_waves();
  SwizzleViewInput in, none;
  in.kernel = "test/01", in.launch = &l, in.block_m = in.block_n = 128, in.k = 64, in.elem_bytes = 2;
  none.kernel = "test/00";
  const Theme& t = Theme::Light();
  // Find the grid by drawing once with the pointer far away, then hover the centre of tile (2, 3).
  SvgCanvas c(1200, 800, t.bg);
  SwizzleViewState st;
  SwizzleHover hover;
  draw_swizzle_view(c, {{0, 0}, {1200, 800}}, t, in, &none, st, {-1, -1}, &hover);
  const std::string svg = c.finish();
  SvgCanvas untraced(1200, 800, t.bg);
  draw_swizzle_view(untraced, {{0, 0}, {1200, 800}}, t, none, nullptr, st, {-1, -1}, nullptr);
  EXPECT_NE(all_text(untraced.finish()).find("This capture traced no blocks of test/00."), std::string::npos);
  std::vector<Rect> cells;
  for (const Element& e : elements(svg, "rect"))
    if (e.attr.count("fill") && e.attr.at("fill") != "none" && rect_of(e).w() > 30 && std::fabs(rect_of(e).w() - rect_of(e).h()) < 0.5f)
      cells.push_back(rect_of(e));
  ASSERT_GE(cells.size(), 16u);
  std::sort(cells.begin(), cells.end(), [](Rect a, Rect b) { return std::tie(a.min.y, a.min.x) < std::tie(b.min.y, b.min.x); });
  const Vec2 centre = cells[2 * 4 + 3].center();
  SvgCanvas c2(1200, 800, t.bg);
  draw_swizzle_view(c2, {{0, 0}, {1200, 800}}, t, in, &none, st, centre, &hover);
  EXPECT_EQ(hover.side, 0);
  ASSERT_GE(hover.block, 0);
  EXPECT_EQ(l.blocks[size_t(hover.block)].tile_m, 2);
  EXPECT_EQ(l.blocks[size_t(hover.block)].tile_n, 3);
}


// ---- Code view -------------------------------------------------------------------------------------

// A changed line longer than the pane holds wraps, so the change stays readable (cut with "...", mma_f16/08's new
// site list hid its ldmatrix names in a 700 px tab); an unchanged long line is still cut to one row.
TEST(CodeView, ALongChangedLineWrapsAndAnUnchangedOneIsCut) {
  CodeViewInput in;
  in.kernel = "test/02_new", in.against = "test/01_old";
  const std::string tail = "\"Bs ldmatrix.x4.trans\"};";
  const std::string changed = "inline constexpr const char* kSmemSites[] = {\"As cp.async\", \"Bs cp.async\", \"As ldmatrix.x4\", " + tail;
  const std::string same = "// an unchanged comment that runs on and on well past the right edge of a narrow pane, to be cut";
  in.old_lines = {same, "int x;"};
  in.new_lines = {same, changed};
  in.diff = line_diff(in.old_lines, in.new_lines);
  const Theme& t = Theme::Dark();
  SvgCanvas c(600, 500, t.bg);
  draw_code_view(c, {{0, 0}, {600, 500}}, t, in, CodeViewState{}, {-1, -1}, nullptr);
  const std::string svg = c.finish();
  const std::string text = all_text(svg);
  EXPECT_NE(text.find("Bs ldmatrix.x4.trans"), std::string::npos) << text;  // the changed line's end, on a row of its own
  EXPECT_EQ(text.find("to be cut"), std::string::npos) << text;               // the unchanged line's end is not drawn
  EXPECT_EQ(outside(svg, 600, 500), "");
  EXPECT_EQ(overlapping_text(svg), "");
}

// A wrapped changed line with room for only some of its rows shows those rather than leaving the rest of the pane
// empty (mma_f16/08 maximised at 200% drew five rows and a band); it is not counted as shown, so a page down starts
// on it.
TEST(CodeView, AWrappedLineAtTheFootShowsWhatFits) {
  CodeViewInput in;
  in.kernel = "test/02_new", in.against = "test/01_old";
  for (int i = 0; i < 60; ++i) in.old_lines.push_back("int a" + std::to_string(i) + ";");
  in.new_lines = in.old_lines;
  std::string longest = "// begins";
  for (int i = 0; i < 40; ++i) longest += " word" + std::to_string(i);
  longest += " ends";
  const int at = 30;
  in.new_lines.insert(in.new_lines.begin() + at, longest);
  in.diff = line_diff(in.old_lines, in.new_lines);
  const Theme& t = Theme::Dark();
  bool partial_seen = false;
  for (int first = 0; first <= at; ++first) {
    CodeViewState st;
    st.first = first;
    SvgCanvas c(600, 500, t.bg);
    CodeHover hover;
    draw_code_view(c, {{0, 0}, {600, 500}}, t, in, st, {-1, -1}, &hover);
    const std::string svg = c.finish();
    const std::string text = all_text(svg);
    const bool begins = text.find("// begins") != std::string::npos, ends = text.find("ends") != std::string::npos;
    if (begins && !ends) {
      partial_seen = true;
      EXPECT_EQ(hover.rows_shown, at - first) << "the cut line counted as shown";
    }
    if (!begins) {
      EXPECT_LT(hover.rows_shown, at - first + 1);
    }
    EXPECT_EQ(overlapping_text(svg), "");
  }
  EXPECT_TRUE(partial_seen) << "no scroll position showed the long line's first rows without its last";
}

// Scrolled to the end, the last screen ends on the file's last line even where its rows wrap: counted in rows, it
// stopped short (mma_f16/12 maximised at 200% never showed its last four lines).
TEST(CodeView, TheLastScreenReachesTheLastLineWhenRowsWrap) {
  CodeViewInput in;
  in.kernel = "test/02_new", in.against = "test/01_old";
  for (int i = 0; i < 40; ++i) in.old_lines.push_back("int a" + std::to_string(i) + ";");
  in.new_lines = in.old_lines;
  for (int i = 0; i < 40; ++i) {  // every new line changed and long: each wraps to several rows
    std::string l = "int b" + std::to_string(i) + " =";
    for (int w = 0; w < 30; ++w) l += " x" + std::to_string(w) + " +";
    in.new_lines[size_t(i)] = l + " 0;";
  }
  in.new_lines.back() = "}  // namespace the_very_end";
  in.diff = line_diff(in.old_lines, in.new_lines);
  CodeViewState st;
  st.first = 100000;  // as far down as the wheel goes
  st.show_removed = false;
  const Theme& t = Theme::Dark();
  SvgCanvas c(600, 500, t.bg);
  draw_code_view(c, {{0, 0}, {600, 500}}, t, in, st, {-1, -1}, nullptr);
  const std::string svg = c.finish();
  EXPECT_NE(all_text(svg).find("the_very_end"), std::string::npos) << all_text(svg);
}

TEST(CodeView, ChangedLinesAreTintedAndCounted) {
  CodeViewInput in;
  in.kernel = "test/02_new", in.against = "test/01_old";
  in.title = "A new rung", in.adds = "It changes one line and adds one.";
  in.old_lines = {"int a = 1;", "int b = 2;", "return a + b;"};
  in.new_lines = {"int a = 1;", "int b = 3;", "GS_PROBE(probe.smem(kAs, p, 4, k));", "return a + b;"};
  in.diff = line_diff(in.old_lines, in.new_lines);
  in.sites = {"", "", "As load", ""};
  const Theme& t = Theme::Light();
  SvgCanvas c(1200, 700, t.bg);
  CodeHover hover;
  draw_code_view(c, {{0, 0}, {1200, 700}}, t, in, CodeViewState{}, {-1, -1}, &hover);
  const std::string svg = c.finish();
  EXPECT_EQ(parse(svg, nullptr), "");
  const std::string text = all_text(svg);
  EXPECT_NE(text.find("against test/01_old: 2 lines added, 1 removed, in 1 place"), std::string::npos) << text;
  EXPECT_NE(text.find("It changes one line and adds one."), std::string::npos);
  // Five rows: the removed line is shown too, struck through, unless asked not to be.
  EXPECT_EQ(text_elements(svg, "int b = 2;").size(), 1u);
  EXPECT_EQ(text_elements(svg, "+").size(), 2u);
  EXPECT_EQ(text_elements(svg, "-").size(), 1u);
  // One numbering, the new file's: 1 to 4, the removed line (old line 2) unnumbered, so no number is shown twice.
  for (const char* n : {"1", "2", "3", "4"}) EXPECT_EQ(text_elements(svg, n).size(), 1u) << n;
  EXPECT_EQ(text_elements(svg, "5").size(), 0u);
  EXPECT_GE(hover.rows_shown, 5);
  SvgCanvas c2(1200, 700, t.bg);
  CodeViewState hidden;
  hidden.show_removed = false;
  draw_code_view(c2, {{0, 0}, {1200, 700}}, t, in, hidden, {-1, -1}, nullptr);
  EXPECT_EQ(text_elements(c2.finish(), "int b = 2;").size(), 0u);
  EXPECT_GE(min_font_px(svg), kMinTextSize * 2048.0f / (1901 + 483) - 0.01f);
}


// ---- Pipeline timeline --------------------------------------------------------------------------

// Two warps of block 0: 20 k-steps of "wait" (10 cycles) then "mma" (90 cycles), after a 50-cycle prologue.
Capture stage_capture() {
  Capture c;
  for (int w = 0; w < 2; ++w) {
    uint64_t t = 1000;  // clock64 of the SM: not zero
    c.stages.push_back({"test/01", 0, w, "prologue", t, t + 50});
    t += 50;
    for (int k = 0; k < 20; ++k) {
      c.stages.push_back({"test/01", 0, w, "wait", t, t + 10});
      c.stages.push_back({"test/01", 0, w, "mma", t + 10, t + 100});
      t += 100;
    }
  }
  c.stages.push_back({"test/01", 7, 0, "mma", 5, 9});  // a second sampled block
  return c;
}

TEST(TimelineView, BlocksStartAtZeroAndOpenOnTheFirstDozenSteps) {
  const Capture c = stage_capture();
  EXPECT_EQ(timeline_blocks(c, "test/01"), 2);
  const TimelineBlock b = timeline_block(c, "test/01", 0);
  EXPECT_EQ(b.block, 0);
  EXPECT_EQ(b.warps, (std::vector<int>{0, 1}));
  EXPECT_EQ(b.stages, (std::vector<std::string>{"prologue", "wait", "mma"}));
  EXPECT_EQ(b.duration, 2050u);
  EXPECT_EQ(b.loop_steps, 20);
  double t0 = 0, t1 = 0;
  timeline_window(b, TimelineViewState{}, &t0, &t1);
  EXPECT_EQ(t0, 0);
  EXPECT_EQ(t1, 50 + 12 * 100);  // where the 13th wait starts
  EXPECT_EQ(timeline_block(c, "test/01", 5).block, 7);  // the pick clamps to the last sampled block
  EXPECT_EQ(timeline_block(c, "test/99", 0).block, -1);
}

// The tables' scope line says k-iteration 0 counts from the block's start: sgemm/09's 16 A copies per warp "in
// k-iteration 0" are its prologue's 3 tiles and the iteration's one, as the bundled capture holds them.
TEST(TracedScope, IterationZeroCountsFromTheBlocksStart) {
  EXPECT_EQ(viz::traced_scope({0, 1, 0}, {0, -1, 0}), "warps 0 and 1, k-iteration 0 (counted from the block's start) and the epilogue");
  EXPECT_EQ(viz::traced_scope({7}, {1, 2}), "warp 7, k-iterations 1 and 2");
  EXPECT_EQ(viz::traced_scope({0}, {-1}), "warp 0, the epilogue");
  int copies = 0;
  for (const GmemSite& s : gmem_sites(bundled_capture(), "sgemm/09_cp_async"))
    if (s.name == "A")
      for (const GmemAccess& a : s.accesses) copies += a.warp == 0 && a.iteration == 0;
  EXPECT_EQ(copies, 16);  // 4 copies a tile (128 rows x 8 k / 256 threads), 3 prologue tiles + iteration 0's
}

// mma_tf32/03's block takes 3.95M cycles where 02's takes 2.76M at the same throughput: 4 blocks shared each SM where
// 02 had 3. The header says so, as the launch-order view's lanes count them.
TEST(TimelineView, TheHeaderSaysHowManyBlocksSharedAnSm) {
  const Capture& c = bundled_capture();
  EXPECT_EQ(traced_launch(c, "mma_tf32/03_cp_async").lanes, 4);
  EXPECT_EQ(traced_launch(c, "mma_tf32/02_conflict_free").lanes, 3);
  TimelineBlock b = timeline_block(c, "mma_tf32/03_cp_async", 0);
  b.per_sm = traced_launch(c, "mma_tf32/03_cp_async").lanes;
  SvgCanvas svg(1600, 900, Theme::Dark().bg);
  draw_timeline_view(svg, {{0, 0}, {1600, 900}}, Theme::Dark(), b, nullptr, 1980, TimelineViewState{}, {-1, -1}, nullptr);
  const std::string text = all_text(svg.finish());
  EXPECT_NE(text.find("128 k-tiles; up to 4 blocks shared an SM"), std::string::npos) << text;
}

// Every traced launch the capture timed says how its speed compares with the timed run, so that two blocks read one
// above the other compare: hopper/03 (1.0x) said nothing beside 02's "the probes slowed this launch 1.15x".
TEST(TimelineView, TheHeaderAlwaysComparesTheTracedLaunchWithTheTimedRun) {
  const Capture& c = bundled_capture();
  for (const auto& [slowdown, says] : {std::pair<double, const char*>{1.15, "; the probes slowed this launch 1.15x"},
                                       {1.02, "; within 5% of its timed run"}, {0.97, "; within 5% of its timed run"},
                                       {0.8, "; its blocks took 0.8x its timed run"}, {0.0, ""}}) {
    TimelineBlock b = timeline_block(c, "hopper/03_warp_specialized", 0);
    b.slowdown = slowdown;
    SvgCanvas svg(1900, 900, Theme::Dark().bg);
    draw_timeline_view(svg, {{0, 0}, {1900, 900}}, Theme::Dark(), b, nullptr, 1980, TimelineViewState{}, {-1, -1},
                       nullptr);
    const std::string text = all_text(svg.finish());
    if (*says)
      EXPECT_NE(text.find(says), std::string::npos) << slowdown << ": " << text.substr(0, 300);
    else  // no timed run to compare with: nothing said
      EXPECT_TRUE(text.find("probes slowed") == std::string::npos && text.find("timed run") == std::string::npos);
  }
}

// A rung with no dozen steps to open on (one k-loop span a warp, as sgemm/01 stamps) opens on the whole of its block
// and of the slower rung's below it: before, mma_tf32/10's 327k cycles (then stamped that way) cut 09's 387k.
TEST(TimelineView, WithNoStepsToOpenOnBothBlocksAreWhole) {
  Capture c;
  for (const auto& [kernel, end] : {std::pair<const char*, uint64_t>{"test/10", 327000}, {"test/09", 387000}})
    for (int w = 0; w < 2; ++w) {
      c.stages.push_back({kernel, 0, w, "prologue", 1000, 5000});
      c.stages.push_back({kernel, 0, w, "k-loop", 5000, 1000 + end - 6000});
      c.stages.push_back({kernel, 0, w, "epilogue", 1000 + end - 6000, 1000 + end});
    }
  const TimelineBlock top = timeline_block(c, "test/10", 0);
  const TimelineBlock below = timeline_block(c, "test/09", 0);
  ASSERT_EQ(top.duration, 327000u);
  ASSERT_EQ(below.duration, 387000u);
  double t0 = 0, t1 = 0;
  timeline_window(top, TimelineViewState{}, &t0, &t1, &below);
  EXPECT_EQ(t0, 0);
  EXPECT_EQ(t1, double(below.duration));
  timeline_window(top, TimelineViewState{}, &t0, &t1);  // alone: its own
  EXPECT_EQ(t1, double(top.duration));
  // A rung with steps keeps its first dozen whatever is below.
  const Capture sc = stage_capture();
  const TimelineBlock b = timeline_block(sc, "test/01", 0);
  timeline_window(b, TimelineViewState{}, &t0, &t1, &below);
  EXPECT_EQ(t1, 50 + 12 * 100);
}

// A rung whose change is in its epilogue (hopper/06's TMA stores) opens on each warp's first epilogue, in it and in
// the rung below, with context either side, and the header says why; a rung with no focus keeps its first k-tiles.
TEST(TimelineView, ARungChangedInItsEpilogueOpensThere) {
  Capture c;
  for (const char* kernel : {"test/06", "test/05"})
    for (int w = 0; w < 2; ++w) {
      const uint64_t shift = kernel[6] == '5' ? 100 : 0;  // 05's epilogues run 100 cycles later
      uint64_t t = 1000;
      for (int tile = 0; tile < 2; ++tile) {  // each tile: 10 k-steps of 100 cycles, then a 200-cycle epilogue
        for (int k = 0; k < 10; ++k, t += 100) c.stages.push_back({kernel, 0, w, "mma", t, t + 100});
        c.stages.push_back({kernel, 0, w, "epilogue", t + shift + 50 * w, t + shift + 50 * w + 200});
        t += 400;
      }
    }
  TimelineBlock top = timeline_block(c, "test/06", 0);
  const TimelineBlock below = timeline_block(c, "test/05", 0);
  double t0 = 0, t1 = 0;
  EXPECT_FALSE(focus_window(top, &below, &t0, &t1));  // no focus: the first k-tiles as before
  top.focus = "epilogue";
  ASSERT_TRUE(focus_window(top, &below, &t0, &t1));
  // First epilogues: 06's warps from 1000 to 1250, 05's from 1100 to 1350 (cycles from the block's first stamp):
  // 350 cycles, 525 either side.
  EXPECT_EQ(t0, 1000.0 - 525);
  EXPECT_EQ(t1, 1350.0 + 525);
  top.focus = "no such stage";
  EXPECT_FALSE(focus_window(top, &below, &t0, &t1));
  // A selected rung with no epilogue span does not open on the rung below's.
  Capture no_epilogue;
  for (const StageRecord& r : c.stages)
    if (r.kernel == "test/05" || r.stage != "epilogue") no_epilogue.stages.push_back(r);
  TimelineBlock bare = timeline_block(no_epilogue, "test/06", 0);
  bare.focus = "epilogue";
  EXPECT_FALSE(focus_window(bare, &below, &t0, &t1));
  top.focus = "epilogue";
  ASSERT_TRUE(focus_window(top, &below, &t0, &t1));
  TimelineViewState st;
  st.t0 = t0, st.t1 = t1, st.on_focus = true;
  SvgCanvas svg(1600, 600, Theme::Dark().bg);
  draw_timeline_view(svg, {{0, 0}, {1600, 600}}, Theme::Dark(), top, &below, 1980, st, {-1, -1}, nullptr);
  const std::string doc = svg.finish();
  EXPECT_NE(all_text(doc).find("shown: its first epilogue, where this rung changes"), std::string::npos) << all_text(doc);
  EXPECT_EQ(overlapping_text(doc), "");
  st.t0 = 0, st.t1 = -1, st.on_focus = false;  // "first k-tiles": no such note
  SvgCanvas k(1600, 600, Theme::Dark().bg);
  draw_timeline_view(k, {{0, 0}, {1600, 600}}, Theme::Dark(), top, &below, 1980, st, {-1, -1}, nullptr);
  EXPECT_EQ(all_text(k.finish()).find("where this rung changes"), std::string::npos);
}

// The whole window's timeline pane at 1600x900 (and any pane at 150%) has room for the legend and the overview but
// not for a row of warps: one line says to maximise, where the block's title was drawn over the axis.
TEST(TimelineView, ASmallPaneSaysMaximiseInsteadOfOverprinting) {
  const Capture c = stage_capture();
  const TimelineBlock b = timeline_block(c, "test/01", 0);
  for (const Vec2 size : {Vec2{400, 120}, Vec2{400, 140}, Vec2{380, 160}, Vec2{400, 190}, Vec2{520, 240}}) {
    SvgCanvas svg(size.x, size.y, Theme::Dark().bg);
    draw_timeline_view(svg, {{0, 0}, size}, Theme::Dark(), b, &b, 1980, TimelineViewState{}, {-1, -1}, nullptr);
    const std::string doc = svg.finish();
    EXPECT_EQ(overlapping_text(doc), "") << size.x << "x" << size.y;
    const std::string text = all_text(doc);
    EXPECT_TRUE(text.find("maximise") != std::string::npos || text.find("warp 0") != std::string::npos)
        << size.x << "x" << size.y << ": " << text;
  }
}

// Two blocks traced at different sizes (mma_f16/13 at 5120x1280x4096 over rung 12 at 4096^3): 106k cycles against
// 612k is not one problem's, and each heading says which size it is; at one size neither does.
TEST(TimelineView, BlocksTracedAtDifferentSizesNameTheirSizes) {
  const Capture c = stage_capture();
  TimelineBlock a = timeline_block(c, "test/01", 0), b = a;
  b.kernel = "test/02";
  a.shape = "5120x1280x4096", b.shape = "4096x4096x4096";
  const auto draw = [&](const TimelineBlock& x, const TimelineBlock& y) {
    SvgCanvas svg(1600, 900, Theme::Dark().bg);
    draw_timeline_view(svg, {{0, 0}, {1600, 900}}, Theme::Dark(), x, &y, 1980, TimelineViewState{}, {-1, -1}, nullptr);
    return texts(svg.finish());
  };
  const std::vector<std::string> two = draw(a, b);
  EXPECT_EQ(std::count(two.begin(), two.end(), " at 5120x1280x4096"), 1);
  EXPECT_EQ(std::count(two.begin(), two.end(), " at 4096x4096x4096"), 1);
  b.shape = a.shape;
  const std::vector<std::string> one = draw(a, b);
  EXPECT_EQ(count_if_contains(one, "5120x1280x4096"), 0);
}

// The cycle axis reads evenly: ticks 2,500 apart are 10k, 12.5k, 15k, not 10k, 12k, 15k (whatever width and window
// the pane has, every step between neighbouring labels is the same).
TEST(TimelineView, CycleAxisLabelsAreEvenlySpaced) {
  Capture c;
  for (int w = 0; w < 2; ++w)
    for (int k = 0; k < 400; ++k) {
      c.stages.push_back({"test/01", 0, w, "wait", uint64_t(k) * 100, uint64_t(k) * 100 + 10});
      c.stages.push_back({"test/01", 0, w, "mma", uint64_t(k) * 100 + 10, uint64_t(k) * 100 + 100});
    }
  const TimelineBlock b = timeline_block(c, "test/01", 0);
  int fractional = 0;
  for (const float width : {700.0f, 900.0f, 1200.0f, 1600.0f})
    for (const double span : {25000.0, 32000.0, 40000.0}) {
      TimelineViewState st;
      st.t0 = 0;
      st.t1 = span;
      SvgCanvas svg(width, 900, Theme::Dark().bg);
      draw_timeline_view(svg, {{0, 0}, {width, 900}}, Theme::Dark(), b, nullptr, 1980, st, {-1, -1}, nullptr);
      std::vector<double> axis;  // labels that are a number of cycles: "7500", "12.5k"
      for (const std::string& t : texts(svg.finish())) {
        char* end = nullptr;
        const double v = std::strtod(t.c_str(), &end);
        if (t.empty() || end == t.c_str()) continue;
        if (*end == 'k' && end[1] == 0) axis.push_back(v * 1e3), fractional += t.find('.') != std::string::npos;
        else if (*end == 0) axis.push_back(v);
      }
      ASSERT_GE(axis.size(), 3u) << width << " x " << span;
      for (size_t i = 2; i < axis.size(); ++i)
        EXPECT_DOUBLE_EQ(axis[i] - axis[i - 1], axis[1] - axis[0]) << "labels " << axis[i - 2] << ", " << axis[i - 1]
                                                                     << ", " << axis[i] << " at " << width << " x " << span;
    }
  EXPECT_GT(fractional, 0) << "no window gave a step that is not whole thousands: the test shows nothing";
  // One unit along the axis: a window from 0 to 12,000 cycles reads "0", "2k", ... "10k", "12k" rather than
  // "8000" beside "10k".
  TimelineViewState st;
  st.t0 = 0, st.t1 = 12000;
  SvgCanvas svg(1600, 900, Theme::Dark().bg);
  draw_timeline_view(svg, {{0, 0}, {1600, 900}}, Theme::Dark(), b, nullptr, 1980, st, {-1, -1}, nullptr);
  int plain = 0, thousands = 0;
  for (const std::string& t : texts(svg.finish())) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || end == t.c_str()) continue;
    if (*end == 'k' && end[1] == 0) ++thousands;
    else if (*end == 0 && v >= 1000) ++plain;
  }
  EXPECT_GE(thousands, 3);
  EXPECT_EQ(plain, 0);
}

// A pipelined loop waits once a k-step and computes once more (the first k-step's mma starts before the loop, as
// mma_f16/10's does): its k-steps are its waits, not its most frequent stage. A block whose stamps ran into the
// capture's limits (core/capture_limits.h) says the timeline shows only its start.
TEST(TimelineView, KStepsAreWaitsAndACutBlockSaysSo) {
  Capture c;
  for (int w = 0; w < 2; ++w) {
    uint64_t t = 0;
    c.stages.push_back({"test/01", 0, w, "mma", t, t + 90});
    for (int k = 0; k < 64; ++k, t += 100) {
      c.stages.push_back({"test/01", 0, w, "wait", t + 90, t + 100});
      c.stages.push_back({"test/01", 0, w, "mma", t + 100, t + 190});
    }
  }
  TimelineBlock b = timeline_block(c, "test/01", 0);
  EXPECT_EQ(b.loop_steps, 64);
  EXPECT_FALSE(b.cut);
  const auto header = [&](const TimelineBlock& block) {
    SvgCanvas svg(1600, 900, Theme::Dark().bg);
    draw_timeline_view(svg, {{0, 0}, {1600, 900}}, Theme::Dark(), block, nullptr, 1980, TimelineViewState{},
                       {-1, -1}, nullptr);
    return all_text(svg.finish());
  };
  EXPECT_NE(header(b).find("64 k-tiles"), std::string::npos) << header(b);
  EXPECT_EQ(header(b).find("the first"), std::string::npos) << header(b);

  // One warp at the per-warp limit: cut, whatever the rung's total.
  Capture per_warp;
  for (size_t i = 0; i < kCaptureStageWarpRecords; ++i)
    per_warp.stages.push_back({"test/02", 0, 0, i % 2 ? "compute" : "load", i * 10, i * 10 + 10});
  b = timeline_block(per_warp, "test/02", 0);
  EXPECT_TRUE(b.cut);
  EXPECT_NE(header(b).find("the first"), std::string::npos) << header(b);
  EXPECT_NE(header(b).find("; a capture keeps "), std::string::npos) << header(b);
  // The slowdown the probes caused comes before the clauses a narrow header cuts first (a deck's 1600-px timeline had
  // ended "...slowed this launch 1....").
  b.slowdown = 1.12;
  EXPECT_LT(header(b).find("slowed this launch 1.12x"), header(b).find("a capture keeps")) << header(b);
  per_warp.stages.pop_back();
  EXPECT_FALSE(timeline_block(per_warp, "test/02", 0).cut);

  // The rung at its total, the last stamp in block 64: block 64 is cut, block 0 (kept whole before it) is not.
  Capture total;
  const size_t half = kCaptureStageRecords / 2;
  for (int block : {0, 64})
    for (size_t i = 0; i < half; ++i)
      total.stages.push_back({"test/03", block, int(i / 500), "k-loop", i, i + 1});
  EXPECT_FALSE(timeline_block(total, "test/03", 0).cut);
  EXPECT_TRUE(timeline_block(total, "test/03", 1).cut);
}

// Stream-K (mma_f16/13): 4 tiles of 8 k-tiles shared by 6 CTAs in runs of 6, 6, 5, 5, 5, 5 k-tiles, a record per
// piece (launch index 2 x CTA + piece, as the rung numbers them). Tile 2 is cut in three pieces (CTAs 2, 3, 4), the
// others in two. The view counts tiles, not records, and gives each piece a strip of its tile, in launch order.
TEST(SwizzleView, TilesSplitAlongKShowEachPieceAsAStripOfItsTile) {
  Capture cap;
  // {launch, CTA, tile}: CTA c runs on SM c, its pieces one after the other, 10 ns a k-tile.
  const int pieces[][4] = {{0, 0, 0, 6},  {2, 1, 0, 2},  {3, 1, 1, 4}, {4, 2, 1, 4}, {5, 2, 2, 1},
                           {6, 3, 2, 5},  {8, 4, 2, 2},  {9, 4, 3, 3}, {10, 5, 3, 5}};  // + its k-tiles
  std::map<int, uint64_t> clock;
  for (const auto& p : pieces) {
    BlockRecord b;
    b.kernel = "test/sk";
    b.launch = p[0], b.bx = p[1], b.smid = p[1], b.tile_m = p[2] / 2, b.tile_n = p[2] % 2;
    b.start_ns = clock[p[1]], b.end_ns = b.start_ns + 10 * uint64_t(p[3]);
    clock[p[1]] = b.end_ns;
    cap.blocks.push_back(b);
  }
  const TracedLaunch l = traced_launch(cap, "test/sk");
  EXPECT_EQ(l.tiles, 4);
  EXPECT_EQ(l.ctas, 6);
  EXPECT_EQ(l.split_tiles, 4);
  EXPECT_EQ(l.whole_ctas, 0);
  EXPECT_EQ(l.piece_ctas, 6);
  EXPECT_TRUE(l.split());
  EXPECT_TRUE(l.persistent());
  EXPECT_EQ(identify_order(l), "") << "no launch order of whole tiles fits pieces";
  EXPECT_FALSE(traced_launch(bundled_capture(), "hopper/04_persistent").split());

  SwizzleViewInput in;
  in.kernel = "test/sk", in.launch = &l, in.block_m = in.block_n = 128, in.k = 512, in.elem_bytes = 2;
  const Theme& t = Theme::Light();
  SvgCanvas c(1200, 800, t.bg);
  draw_swizzle_view(c, {{0, 0}, {1200, 800}}, t, in, nullptr, SwizzleViewState{}, {-1, -1}, nullptr);
  const std::string svg = c.finish();
  EXPECT_EQ(parse(svg, nullptr), "");
  const std::string text = all_text(svg);
  EXPECT_NE(text.find("all 4 tiles done by 6 CTAs, in 9 pieces: tiles split along k"), std::string::npos) << text;
  EXPECT_NE(text.find("each tile or piece of a tile a bar"), std::string::npos) << text;
  // The grid's cells: tall filled rects (not the narrow A panels beside them), two or three to a tile's width.
  std::vector<Rect> cells;
  for (const Element& e : elements(svg, "rect"))
    if (e.attr.count("fill") && e.attr.at("fill") != "none" && rect_of(e).h() > 100 && rect_of(e).w() > 30 &&
        rect_of(e).w() < rect_of(e).h())
      cells.push_back(rect_of(e));
  ASSERT_EQ(cells.size(), 9u) << svg;
  std::sort(cells.begin(), cells.end(), [](Rect a, Rect b) { return std::tie(a.min.y, a.min.x) < std::tie(b.min.y, b.min.x); });
  const float tile = cells[1].max.x - cells[0].min.x;  // tile 0's two strips span its cell
  for (int i : {0, 1, 2, 3, 7, 8}) EXPECT_NEAR(cells[size_t(i)].w(), tile / 2, 2) << "cell " << i;  // two pieces
  for (int i : {4, 5, 6}) EXPECT_NEAR(cells[size_t(i)].w(), tile / 3, 2) << "cell " << i;  // tile 2: three
  EXPECT_EQ(overlapping_text(svg), "");

  // Whole tiles first, by CTAs of their own (mma_f16/13 runs rung 12's kernel on the whole wave, numbered after
  // the stream-K kernel's CTAs): the foot says which CTAs did what.
  // The pieces start 600 ns after the last whole tile ends: the second kernel's launch, which the per-SM timeline
  // names.
  {
    Capture two = cap;
    for (BlockRecord& b : two.blocks) b.start_ns += 1000, b.end_ns += 1000;
    for (int i = 0; i < 2; ++i) {
      BlockRecord b = cap.blocks.front();
      b.launch = 20 + i, b.bx = 6 + i, b.smid = i, b.tile_m = 2, b.tile_n = i;
      b.start_ns = 0, b.end_ns = 300 + 100 * uint64_t(i);
      two.blocks.push_back(b);
    }
    const TracedLaunch l2 = traced_launch(two, "test/sk");
    EXPECT_EQ(l2.whole_ctas, 2);
    EXPECT_EQ(l2.piece_ctas, 6);
    SwizzleViewInput in2 = in;
    in2.launch = &l2;
    SvgCanvas c2(1200, 800, t.bg);
    draw_swizzle_view(c2, {{0, 0}, {1200, 800}}, t, in2, nullptr, SwizzleViewState{}, {-1, -1}, nullptr);
    const std::string text2 = all_text(c2.finish());
    EXPECT_NE(text2.find("all 6 tiles done: 2 whole by 2 CTAs, then 4 split along k into 9 pieces by 6 other CTAs"),
              std::string::npos)
        << text2;
    EXPECT_NE(text2.find("between them 0.6 \xC2\xB5s with no SM at work: the second kernel's launch"), std::string::npos)
        << text2;
    EXPECT_EQ(text.find("with no SM at work"), std::string::npos) << "one kind of CTA: no second launch to name";
  }

  // The timeline heads a CTA with what it computed: CTA 0 the first piece of tile 0, CTA 1 the last of tile 0 and
  // the first of tile 1. With one whole tile ahead of it (a whole wave first, as mma_f16/13 runs), CTA 0 says so.
  const auto heading = [&](const Capture& with, int cta) {
    Capture stamped = with;
    stamped.stages.push_back({"test/sk", cta, 0, "mma", 100, 900});
    SvgCanvas tl(1600, 900, t.bg);
    draw_timeline_view(tl, {{0, 0}, {1600, 900}}, t, timeline_block(stamped, "test/sk", 0), nullptr, 1980,
                       TimelineViewState{}, {-1, -1}, nullptr);
    return all_text(tl.finish());
  };
  EXPECT_NE(heading(cap, 0).find("   CTA 0 (1 piece of a tile split along k)"), std::string::npos);
  EXPECT_NE(heading(cap, 1).find("   CTA 1 (2 pieces of tiles split along k)"), std::string::npos);
  Capture wave = cap;
  BlockRecord whole = cap.blocks.front();
  whole.launch = 20, whole.tile_m = 5, whole.tile_n = 0;  // a tile of its own, no other record
  wave.blocks.push_back(whole);
  EXPECT_NE(heading(wave, 0).find("   CTA 0 (1 tile, then 1 piece of a tile split along k)"), std::string::npos)
      << heading(wave, 0);
}

// The bundled capture's persistent rung (recorded with probe.tile): one record per tile, 132 CTAs on an H200,
// CTA b computing tiles b, b + 132, ... one after the other on its SM; the launch-order view speaks of tiles and
// persistent CTAs, the timeline of CTA 0's tiles, each warp marking where it moved on to its next tile.
// Two blocks at once on an SM (sgemm/10 runs two per SM): each keeps a lane of its SM's row, where they were drawn
// over one another and 1024 blocks read as single blocks in four waves.
TEST(SwizzleView, BlocksAtOnceOnAnSmEachKeepALaneOfItsRow) {
  Capture cap;
  for (int i = 0; i < 8; ++i) {
    BlockRecord b;
    b.kernel = "test/01", b.launch = i, b.bx = i, b.tile_m = i / 4, b.tile_n = i % 4, b.smid = i / 2;
    b.start_ns = 1000, b.end_ns = 1000 + (i % 2 ? 50 : 100);  // the odd block of each SM ends halfway
    cap.blocks.push_back(b);
  }
  const TracedLaunch l = traced_launch(cap, "test/01");
  ASSERT_EQ(l.lanes, 2);
  SwizzleViewInput in;
  in.kernel = "test/01";
  in.launch = &l;
  in.block_m = in.block_n = 128, in.k = 4096, in.elem_bytes = 2;
  SwizzleViewState st;
  st.colour = SwizzleColour::Sm;  // SM 0's bars in SM 0's colour (lane colour 0)
  const Theme& t = Theme::Dark();
  SvgCanvas c(1600, 900, t.bg);
  draw_swizzle_view(c, {{0, 0}, {1600, 900}}, t, in, nullptr, st, {-1, -1}, nullptr);
  const std::string svg = c.finish();
  EXPECT_NE(all_text(svg).find("up to 2 blocks ran on one SM at once: its row splits in 2, one lane each"),
            std::string::npos)
      << all_text(svg);
  std::vector<Rect> sm0;  // SM 0's two tiles in the grid, then its two bars below
  for (const Element& e : elements(svg, "rect"))
    if (e.attr.count("fill") && e.attr.at("fill") == hex(lane_color(0, t))) sm0.push_back(rect_of(e));
  ASSERT_EQ(sm0.size(), 4u);
  std::sort(sm0.begin(), sm0.end(), [](const Rect& a, const Rect& b) { return a.min.y < b.min.y; });
  const Rect& whole = sm0[2].w() > sm0[3].w() ? sm0[2] : sm0[3];
  const Rect& half = sm0[2].w() > sm0[3].w() ? sm0[3] : sm0[2];
  EXPECT_NEAR(half.w(), whole.w() / 2, 1.5f);
  EXPECT_TRUE(whole.max.y <= half.min.y + 0.01f || half.max.y <= whole.min.y + 0.01f)
      << "the two blocks' bars overlap: " << whole.min.y << "-" << whole.max.y << ", " << half.min.y << "-" << half.max.y;
  EXPECT_NEAR(whole.h(), half.h(), 0.01f);
  EXPECT_EQ(overlapping_text(svg), "");
}

// The caption compares the traced launch's span with the timed median and names a cost only where there is one: a
// traced run 12% shorter than the timed one is not "no measurable time", it says it was shorter.
TEST(SwizzleView, TheTracedRunsLengthAgainstTheTimedRunIsSaidAsMeasured) {
  Capture cap;
  for (int i = 0; i < 4; ++i) {
    BlockRecord b;
    b.kernel = "test/01", b.launch = i, b.bx = i, b.tile_m = 0, b.tile_n = i, b.smid = i;
    b.start_ns = 0, b.end_ns = 100000;  // the traced launch spans 100 us
    cap.blocks.push_back(b);
  }
  const TracedLaunch l = traced_launch(cap, "test/01");
  const auto caption = [&](double timed_ms) {
    SwizzleViewInput in;
    in.kernel = "test/01", in.launch = &l, in.block_m = in.block_n = 128, in.k = 4096, in.elem_bytes = 2;
    in.timed_ms = timed_ms;
    SvgCanvas c(1600, 900, Theme::Dark().bg);
    draw_swizzle_view(c, {{0, 0}, {1600, 900}}, Theme::Dark(), in, nullptr, SwizzleViewState{}, {-1, -1}, nullptr);
    return all_text(c.finish());
  };
  std::string t = caption(0.05);  // traced 2x the timed run
  EXPECT_NE(t.find("2x the timed run's 50 \xC2\xB5s: the probes' cost"), std::string::npos) << t;
  t = caption(0.101);
  EXPECT_NE(t.find("the probes cost no measurable time here"), std::string::npos) << t;
  t = caption(0.1136);  // traced 0.88x
  EXPECT_NE(t.find("0.88x the timed run's"), std::string::npos) << t;
  EXPECT_NE(t.find("shorter, so the probes' cost is hidden"), std::string::npos) << t;
  EXPECT_EQ(t.find("no measurable time"), std::string::npos) << t;
}

TEST(SwizzleView, BundledPersistentRungShowsEachCtasTilesOverTime) {
  const Capture& c = bundled_capture();
  const TracedLaunch l = traced_launch(c, "hopper/04_persistent");
  ASSERT_EQ(l.blocks.size(), 512u);  // 4096 / 128 x 4096 / 256 tiles
  EXPECT_TRUE(l.persistent());
  EXPECT_EQ(l.ctas, c.device.sm_count);
  std::map<int, std::vector<const BlockRecord*>> by_cta;
  for (const BlockRecord& b : l.blocks) {
    EXPECT_EQ(b.launch % l.ctas, b.bx) << "tile " << b.launch;
    by_cta[b.bx].push_back(&b);
  }
  for (const auto& [cta, tiles] : by_cta) {
    for (size_t i = 1; i < tiles.size(); ++i) {
      EXPECT_EQ(tiles[i]->smid, tiles[0]->smid) << "CTA " << cta << " moved SM";
      EXPECT_GT(tiles[i]->start_ns, tiles[i - 1]->start_ns) << "CTA " << cta << " tile " << tiles[i]->launch;
    }
  }
  SwizzleViewInput in;
  in.kernel = "hopper/04_persistent";
  in.launch = &l;
  in.block_m = 128, in.block_n = 256, in.k = 4096, in.elem_bytes = 2;
  SvgCanvas svg(1600, 900, Theme::Light().bg);
  draw_swizzle_view(svg, {{0, 0}, {1600, 900}}, Theme::Light(), in, nullptr, SwizzleViewState{}, {-1, -1}, nullptr);
  const std::string text = all_text(svg.finish());
  EXPECT_NE(text.find("all 512 tiles done by 132 persistent CTAs"), std::string::npos) << text;
  EXPECT_NE(text.find("each tile a bar"), std::string::npos);

  const TimelineBlock b = timeline_block(c, "hopper/04_persistent", 0);
  EXPECT_EQ(b.block, 0);
  EXPECT_EQ(b.tiles, 4);  // 512 tiles over 132 CTAs: CTA 0 computes tiles 0, 132, 264, 396
  EXPECT_EQ(b.warps.size(), 9u) << "the producer warp and the 8 consumer warps, each with its row";
  int next_tile = 0;
  for (const TimelineBlock::Mark& m : b.marks) next_tile += b.mark_names[size_t(m.kind)] == "next tile";
  EXPECT_EQ(next_tile, 9 * 4);  // every stamped warp marks each of its 4 tiles
  SvgCanvas tl(1600, 900, Theme::Light().bg);
  draw_timeline_view(tl, {{0, 0}, {1600, 900}}, Theme::Light(), b, nullptr, 1980, TimelineViewState{}, {-1, -1}, nullptr);
  EXPECT_NE(all_text(tl.finish()).find("persistent CTA 0 (4 tiles)"), std::string::npos);
}

// probe.mark's instants (a capture's "mark: ..." stage records) are ticks on the warp's row, not spans: the
// stage list, the k-step count and the window stay what the spans say; the legend names each mark once.
TEST(TimelineView, BarriersAndCpAsyncWaitsAreTicksWhereTheWarpPassedThem) {
  Capture c = stage_capture();
  for (int w = 0; w < 2; ++w)
    for (int k = 0; k < 20; ++k) {
      const uint64_t t = 1050 + 100 * uint64_t(k);  // the k-th wait span
      c.stages.push_back({"test/01", 0, w, "mark: cp.async wait", t + 4, t + 4});
      c.stages.push_back({"test/01", 0, w, "mark: __syncthreads", t + 10, t + 10});
    }
  const TimelineBlock b = timeline_block(c, "test/01", 0);
  EXPECT_EQ(b.stages, (std::vector<std::string>{"prologue", "wait", "mma"}));
  EXPECT_EQ(b.mark_names, (std::vector<std::string>{"cp.async wait", "__syncthreads"}));
  ASSERT_EQ(b.marks.size(), 80u);
  EXPECT_EQ(b.marks[1].at, 60u);  // cycles from the block's first stamp
  EXPECT_EQ(b.loop_steps, 20);
  const Theme& t = Theme::Dark();
  TimelineViewState st;
  st.t0 = 0, st.t1 = 250;  // two k-steps: two of each mark per warp
  SvgCanvas svg(1200, 600, t.bg);
  TimelineHover hover;
  draw_timeline_view(svg, {{0, 0}, {1200, 600}}, t, b, nullptr, 2000, st, {-1, -1}, &hover);
  const std::string doc = svg.finish();
  EXPECT_EQ(parse(doc, nullptr), "");
  int barriers = 0, waits = 0;
  for (const Element& e : elements(doc, "line")) {
    if (num(e, "y1") < hover.plot.min.y || !e.attr.count("stroke")) continue;
    const float x = num(e, "x1");
    const double at = (x - hover.plot.min.x) / hover.plot.w() * 250;
    if (e.attr.at("stroke") == hex(t.text)) {
      ++barriers;
      EXPECT_NEAR(std::fmod(at, 100.0), 60, 1.5);  // where the wait span ends
    }
    if (e.attr.at("stroke") == hex(t.bad)) {
      ++waits;
      EXPECT_NEAR(std::fmod(at, 100.0), 54, 1.5);
    }
  }
  EXPECT_EQ(barriers, 2 * 2);
  EXPECT_EQ(waits, 2 * 2);
  const std::string text = all_text(doc);
  EXPECT_NE(text.find("passed __syncthreads"), std::string::npos) << text;
  EXPECT_NE(text.find("passed cp.async wait"), std::string::npos) << text;
}

// Two stages of one kind (hopper's producer waits for an empty stage, its consumers for a full one) had one
// colour, so the legend could not say which rows waited for what. Each now has its own swatch, the rows are drawn in
// their stage's swatch colour, and the first of the kind keeps the kind's colour.
TEST(TimelineView, StagesOfOneKindHaveTheirOwnColours) {
  Capture c;
  for (int w = 0; w < 2; ++w) {
    uint64_t t = 1000;
    for (int k = 0; k < 4; ++k, t += 100) {
      c.stages.push_back({"test/ws", 0, w, w == 0 ? "wait empty" : "wait full", t, t + 30});
      c.stages.push_back({"test/ws", 0, w, w == 0 ? "TMA issue" : "wgmma", t + 30, t + 100});
    }
  }
  const TimelineBlock b = timeline_block(c, "test/ws", 0);
  ASSERT_EQ(b.stages.size(), 4u);
  for (const Theme* t : {&Theme::Dark(), &Theme::Light()}) {
    SvgCanvas svg(1600, 900, t->bg);
    TimelineHover hover;
    TimelineViewState st;
    st.t0 = 0, st.t1 = 400;
    draw_timeline_view(svg, {{0, 0}, {1600, 900}}, *t, b, nullptr, 1980, st, {-1, -1}, &hover);
    const std::string doc = svg.finish();
    // The legend's swatch for a name: the rect that ends just left of the name's text, on its line.
    const std::vector<Element> rects = elements(doc, "rect");
    const auto swatch = [&](const std::string& name) {
      for (const Element& e : elements(doc, "text")) {
        if (e.text != name) continue;
        const float x = num(e, "x"), y = num(e, "y");
        for (const Element& r : rects) {
          const Rect box = rect_of(r);
          if (box.max.x < x && box.max.x > x - 20 && std::abs(box.center().y - y) < 20 && box.max.y < hover.plot.min.y)
            return r.attr.at("fill");
        }
      }
      return std::string("none");
    };
    const std::string empty = swatch("wait empty"), full = swatch("wait full");
    ASSERT_NE(empty, "none");
    ASSERT_NE(full, "none");
    EXPECT_NE(empty, full) << "the two waits share a colour";
    // "wait full" keeps the waits' colour and "wait empty" takes the lighter shade, whichever the rung lists first
    // (here "wait empty"; hopper/04 and mma_f16/13 list them in opposite orders and had swapped colours).
    EXPECT_EQ(full, hex(t->warn)) << "wait full: not the waits' colour";
    // Each row's waits in its own stage's colour: warp 0 (upper half of the plot) waits for empty stages.
    int right = 0, wrong = 0;
    for (const Element& r : rects) {
      const Rect box = rect_of(r);
      if (box.min.y < hover.plot.min.y || box.h() < 10 || !r.attr.count("fill")) continue;
      const bool upper = box.center().y < hover.plot.center().y;
      if (r.attr.at("fill") == empty) ++(upper ? right : wrong);
      if (r.attr.at("fill") == full) ++(upper ? wrong : right);
    }
    EXPECT_EQ(right, 8);  // 4 waits in each warp's row
    EXPECT_EQ(wrong, 0);
  }
}

TEST(TimelineView, SpansInTheWindowAreDrawnAndHovered) {
  const Capture c = stage_capture();
  const TimelineBlock b = timeline_block(c, "test/01", 0);
  const Theme& t = Theme::Dark();
  TimelineViewState st;
  st.t0 = 0, st.t1 = 250;  // the prologue and two k-steps
  SvgCanvas svg(1200, 600, t.bg);
  TimelineHover hover;
  draw_timeline_view(svg, {{0, 0}, {1200, 600}}, t, b, nullptr, 2000, st, {-1, -1}, &hover);
  const std::string doc = svg.finish();
  EXPECT_EQ(parse(doc, nullptr), "");
  // The waits in the warn colour: in the window, 2 full k-steps and the start of a third, per warp (the
  // overview strip above the plot shows all 20 of the first warp's, the legend one swatch).
  int waits = 0, strip = 0;
  for (const Element& e : elements(doc, "rect")) {
    if (!e.attr.count("fill") || e.attr.at("fill") != hex(t.warn)) continue;
    if (rect_of(e).min.y >= hover.plot.min.y) ++waits;
    else if (rect_of(e).h() > 10) ++strip;
  }
  EXPECT_EQ(waits, 2 * 3);
  EXPECT_EQ(strip, 20);
  const std::string text = all_text(doc);
  EXPECT_NE(text.find("2 warps stamped, 2050 cycles, 20 k-tiles"), std::string::npos) << text;
  EXPECT_NE(text.find("0.1 \xC2\xB5s at the top clock, 2000 MHz; longer if it ran slower"), std::string::npos) << text;
  // Hovering the middle of warp 1's first mma finds it.
  const Rect p = hover.plot;
  const Vec2 at{p.min.x + p.w() * float(100.0 / 250), p.min.y + p.h() * 0.75f};
  SvgCanvas again(1200, 600, t.bg);
  draw_timeline_view(again, {{0, 0}, {1200, 600}}, t, b, nullptr, 2000, st, at, &hover);
  ASSERT_GE(hover.span, 0);
  EXPECT_EQ(b.spans[size_t(hover.span)].warp, 1);
  EXPECT_EQ(b.stages[size_t(b.spans[size_t(hover.span)].stage)], "mma");
  EXPECT_GE(min_font_px(doc), kMinTextSize * 2048.0f / (1901 + 483) - 0.01f);
}

// ---- Global memory ----------------------------------------------------------------------------

// sgemm/01's A load (lane l reads row l of a 256-wide fp32 matrix) and sgemm/02's (one element, all lanes).
GmemAccess a_load(const std::string& kernel, bool row_wise) {
  GmemAccess a;
  a.kernel = kernel;
  a.site = "A";
  a.matrix = 'A';
  a.kind = "load";
  a.width = 4;
  for (int l = 0; l < 32; ++l) a.offset[size_t(l)] = row_wise ? int64_t(l) * 256 * 4 : int64_t(0);
  return a;
}

// The view's input for `kernel`'s loads of A beside `other`'s, A being 256 elements wide.
GmemViewInput beside(const Capture& cap, const std::string& kernel, const std::string& other) {
  GmemViewInput in;
  in.kernel = kernel;
  in.sites = gmem_sites(cap, kernel);
  in.capture_has_gmem = true;
  in.ld[0] = 256;
  in.compare_kernel = other;
  in.compare_sites = gmem_sites(cap, other);
  in.compare_ld[0] = 256;
  return in;
}

TEST(GmemView, RowWiseLoadShowsThirtyTwoSectorsBesideTheCoalescedRung) {
  Capture cap;
  cap.gmem = {a_load("sgemm/01", true), a_load("sgemm/02", false)};
  const GmemViewInput in = beside(cap, "sgemm/01", "sgemm/02");
  const Theme& t = Theme::Dark();
  SvgCanvas svg(1600, 900, t.bg);
  GmemHover hover;
  draw_gmem_view(svg, {{0, 0}, {1600, 900}}, t, in, GmemViewState{}, {-1, -1}, &hover);
  const std::string doc = svg.finish();
  EXPECT_EQ(parse(doc, nullptr), "");
  const std::string text = all_text(doc);
  EXPECT_NE(text.find("32 sectors moved in 32 lines, ideal 4"), std::string::npos) << text;
  EXPECT_NE(text.find("8x the ideal"), std::string::npos) << text;
  EXPECT_NE(text.find("1 sector moved in 1 line, ideal 1"), std::string::npos) << text;  // 02 beside it
  EXPECT_NE(text.find("32 lanes, one element"), std::string::npos) << text;
  EXPECT_NE(text.find("A row 31"), std::string::npos) << text;
  // 32 sectors outlined for 01 and 1 for 02, each lane's element filled in its colour.
  int lanes = 0;
  for (const Element& e : elements(doc, "rect"))
    if (e.attr.count("fill") && e.attr.at("fill") == hex(lane_color(5, t))) ++lanes;
  EXPECT_EQ(lanes, 1);
  EXPECT_GE(min_font_px(doc), kMinTextSize * 2048.0f / (1901 + 483) - 0.01f);
}

// The rung beside shows the same warp's request of the same number: sgemm/09's 17th A request (warp 1's first of 16)
// beside sgemm/08's warp 1 first of 2, not "request 3 of 2" (the bare index, counted against 08's warp 1).
TEST(GmemView, TheRequestBesideIsTheSameWarpsOfTheSameNumber) {
  const Capture& cap = bundled_capture();
  GmemViewInput in = beside(cap, "sgemm/09_cp_async", "sgemm/08_double_buffer");
  in.ld[0] = in.compare_ld[0] = 4096, in.elem_bytes[0] = in.compare_elem_bytes[0] = 4;
  GmemViewState st;
  for (size_t i = 0; i < in.sites.size(); ++i)
    if (in.sites[i].name == "A") st.site = int(i);
  ASSERT_GE(st.site, 0);
  const auto text_at = [&](int access) {
    st.access = access;
    SvgCanvas svg(1600, 900, Theme::Dark().bg);
    draw_gmem_view(svg, {{0, 0}, {1600, 900}}, Theme::Dark(), in, st, {-1, -1}, nullptr);
    return all_text(svg.finish());
  };
  std::string t = text_at(16);
  EXPECT_NE(t.find("A cp.async, warp 1, k-iteration 0, request 1 of 16"), std::string::npos) << t;
  EXPECT_NE(t.find("A load, warp 1, k-iteration 0, request 1 of 2"), std::string::npos) << t;
  t = text_at(31);  // warp 1's last: 08's warp 1 has two, so its last
  EXPECT_NE(t.find("A load, warp 1, k-iteration 0, request 2 of 2"), std::string::npos) << t;
  t = text_at(1);
  EXPECT_NE(t.find("A load, warp 0, k-iteration 0, request 2 of 2"), std::string::npos) << t;
  for (int access : {4, 5, 16, 20, 31}) EXPECT_EQ(text_at(access).find("request 3 of 2"), std::string::npos) << access;
}

// sgemm/02 beside sgemm/01 in a short, narrowish pane (a 1280x720 slide at 150% zoom, 853x480 before the zoom):
// 01's 32 rows were squeezed under half the height and cut after row 19. Every row of both maps is drawn, inside
// the pane, and 01's map has the taller share.
TEST(GmemView, TheComparedRungsMapIsWholeInAShortPane) {
  Capture cap;
  cap.gmem = {a_load("sgemm/01", true), a_load("sgemm/02", false)};
  const GmemViewInput in = beside(cap, "sgemm/02", "sgemm/01");
  GmemViewState st;
  st.compare = true;
  const Theme& t = Theme::Dark();
  for (const Vec2 size : {Vec2{853, 480}, Vec2{640, 480}, Vec2{1280, 480}}) {
    SvgCanvas svg(size.x, size.y, t.bg);
    draw_gmem_view(svg, {{0, 0}, size}, t, in, st, {-1, -1}, nullptr);
    const std::string doc = svg.finish();
    const std::string text = all_text(doc);
    EXPECT_NE(text.find("A row 31"), std::string::npos) << size.x << "x" << size.y << ": " << text;
    EXPECT_NE(text.find("32 sectors moved in 32 lines"), std::string::npos) << size.x << "x" << size.y;
    EXPECT_EQ(outside(doc, size.x, size.y), "") << size.x << "x" << size.y;
    // Each of 01's 32 lanes has its cell, none cut off at the bottom.
    for (int l : {0, 31}) {
      float bottom = 0;
      for (const Element& e : elements(doc, "rect"))
        if (e.attr.count("fill") && e.attr.at("fill") == hex(lane_color(l, t))) bottom = std::max(bottom, rect_of(e).max.y);
      EXPECT_GT(bottom, 0) << "lane " << l << " at " << size.x << "x" << size.y;
      EXPECT_LE(bottom, size.y) << "lane " << l << " at " << size.x << "x" << size.y;
    }
  }
}

// Where the pane has no room for a request's map (the whole window's pane at 1600x900), one line says where to see
// it and names the rung beside, never a rung's name alone or a line cut at the pane's foot; two rungs traced at
// different sizes name them, in the line and above each map.
TEST(GmemView, NoRoomForTheMapSaysSoInOneLineAndNamesTheSizes) {
  Capture cap;
  cap.gmem = {a_load("sgemm/01", true), a_load("sgemm/02", false)};
  GmemViewInput in = beside(cap, "sgemm/02", "sgemm/01");
  in.shape = "5120x1280x4096", in.compare_shape = "4096x4096x4096";
  const Theme& t = Theme::Dark();
  for (const float h : {130.0f, 150.0f, 170.0f, 190.0f}) {  // under the table (120 px), less than a map needs
    SvgCanvas svg(520, h, t.bg);
    draw_gmem_view(svg, {{0, 0}, {520, h}}, t, in, GmemViewState{}, {-1, -1}, nullptr);
    const std::string doc = svg.finish();
    const std::vector<std::string> text = texts(doc);
    EXPECT_EQ(outside(doc, 520, h), "") << h;
    EXPECT_EQ(std::count(text.begin(), text.end(), "sgemm/01"), 0) << h << ": a name alone";
    EXPECT_EQ(count_if_contains(text, "to see the request"), 1) << h << ": " << all_text(doc);
    EXPECT_EQ(count_if_contains(text, "sgemm/01's beside it"), 1) << h << ": " << all_text(doc);
    EXPECT_EQ(std::count(text.begin(), text.end(), " at 5120x1280x4096"), 1) << h << ": the title names the size";
  }
  SvgCanvas svg(1600, 900, t.bg);
  draw_gmem_view(svg, {{0, 0}, {1600, 900}}, t, in, GmemViewState{}, {-1, -1}, nullptr);
  const std::vector<std::string> text = texts(svg.finish());
  EXPECT_EQ(std::count(text.begin(), text.end(), " at 5120x1280x4096"), 2);  // in the title and above its map
  EXPECT_EQ(std::count(text.begin(), text.end(), " at 4096x4096x4096"), 1);
  EXPECT_EQ(count_if_contains(text, "to see the request"), 0);
}

// A warp's 4-byte cp.async over 4 rows of 8 elements (sgemm/11's A copy): every lane's number in its cell, or none;
// lanes 0-9 were numbered and 10-31 not, where two digits did not fit a cell, as if 10-31 were missing.
TEST(GmemView, EveryLaneIsNumberedOrNone) {
  GmemAccess a;
  a.kernel = "sgemm/11";
  a.site = "A";
  a.matrix = 'A';
  a.kind = "cp.async";
  a.width = 4;
  for (int l = 0; l < 32; ++l) a.offset[size_t(l)] = int64_t(l / 8) * 4096 * 4 + (l % 8) * 4;
  Capture cap;
  cap.gmem = {a};
  GmemViewInput in;
  in.kernel = "sgemm/11";
  in.sites = gmem_sites(cap, "sgemm/11");
  in.capture_has_gmem = true;
  in.ld[0] = 4096;
  const Theme& t = Theme::Dark();
  for (const Vec2 size : {Vec2{1600, 900}, Vec2{1920, 1080}, Vec2{800, 450}}) {
    SvgCanvas svg(size.x, size.y, t.bg);
    draw_gmem_view(svg, {{0, 0}, size}, t, in, GmemViewState{}, {-1, -1}, nullptr);
    const std::vector<std::string> text = texts(svg.finish());
    int numbered = 0;
    for (int l = 0; l < 32; ++l) numbered += std::count(text.begin(), text.end(), std::to_string(l)) > 0;
    EXPECT_TRUE(numbered == 0 || numbered == 32) << numbered << " lanes numbered at " << size.x << "x" << size.y;
    if (size.x >= 1600) {
      EXPECT_EQ(numbered, 32) << size.x << "x" << size.y;
    }
  }
}

TEST(GmemView, SaysWhyThereIsNothingToDraw) {
  const Theme& t = Theme::Dark();
  GmemViewInput in;
  in.kernel = "hopper/01_tma_wgmma";
  in.no_lane_addresses = "hopper/01_tma_wgmma moves A and B with TMA";
  SvgCanvas svg(1200, 600, t.bg);
  draw_gmem_view(svg, {{0, 0}, {1200, 600}}, t, in, GmemViewState{}, {-1, -1}, nullptr);
  EXPECT_NE(all_text(svg.finish()).find("moves A and B with TMA"), std::string::npos);
  GmemViewInput old;
  old.kernel = "sgemm/01";
  SvgCanvas svg2(1200, 600, t.bg);
  draw_gmem_view(svg2, {{0, 0}, {1200, 600}}, t, old, GmemViewState{}, {-1, -1}, nullptr);
  EXPECT_NE(all_text(svg2.finish()).find("recorded before gemmscope traced them"), std::string::npos);
}

// wgmma's accumulator: documented and the bundled capture's trace (H200) agree cell for cell; drawn one warp per
// band (16 rows x 64 columns of 4 bands), each cell in its lane's colour (thread % 32), labelled with the lane
// within its warp; hovering a cell of band 1 names the operand's own row (16 + r) and the thread (32 + lane).
TEST(LayoutView, WgmmaAccumulatorIsDrawnOneWarpPerBand) {
  const MmaOp& op = *find_mma_op("wgmma.m64n16k16.f16");
  const FragmentLayout doc = documented_layout(op, Operand::C);
  const FragmentLayout* traced = nullptr;
  for (const FragmentLayout& l : bundled_capture().layouts)
    if (l.op == op.name && l.operand == "C" && l.source == "traced") traced = &l;
  ASSERT_NE(traced, nullptr) << "the bundled capture holds no traced wgmma accumulator";
  EXPECT_EQ(layout_difference(*traced, doc), "");
  LayoutViewInput in;
  in.op = &op;
  in.documented[2] = &doc;
  in.traced[2] = traced;
  in.traced_from = "NVIDIA H200";
  const Theme& t = Theme::Light();
  for (const auto& [w, h] : {std::pair{1600.0f, 900.0f}, std::pair{1920.0f, 1080.0f}}) {
    const std::string svg = draw_layout(in, t, {}, {-1, -1}, nullptr, w, h);
    const auto labels = texts(svg);
    EXPECT_EQ(count_if_contains(labels, "warp 3: rows 48\xE2\x80\x93" "63"), w > 1700 ? 2 : 1) << w;
    EXPECT_EQ(count_if_contains(labels, "C  64\xC3\x97" "16 (m\xC3\x97n)"), w > 1700 ? 2 : 1) << w;
    EXPECT_GE(count_if_contains(labels, "identical"), 1) << w;  // "identical to PTX", or the one panel's header
    const auto cells = lane_cells(svg, t);
    EXPECT_EQ(cells.size(), (w > 1700 ? 2u : 1u) * 1024u) << w;
    EXPECT_GE(min_font_px(svg), kMinTextSize * 2048.0f / (1901 + 483) - 0.01f);  // SVG sizes are em, not lines
  }
  // Hover the cell in band 1 (warp 1), display row 1, display column 16 + 2: C[17][2], held by thread 37.
  const std::string svg = draw_layout(in, t, {}, {-1, -1}, nullptr, 1600, 900);
  const auto cells = lane_cells(svg, t);
  float x0 = 1e9f, y0 = 1e9f, s = cells.front().second.w();
  for (const auto& c : cells) x0 = std::min(x0, c.second.min.x), y0 = std::min(y0, c.second.min.y);
  LayoutHover hv;
  draw_layout(in, t, {}, {x0 + (16 + 2 + 0.5f) * (s + 1), y0 + 1.5f * (s + 1)}, &hv, 1600, 900);
  ASSERT_TRUE(hv.valid);
  EXPECT_EQ(hv.operand, 2);
  EXPECT_EQ(hv.row, 17);
  EXPECT_EQ(hv.col, 2);
  ASSERT_EQ(hv.holders.size(), 1u);
  EXPECT_EQ(hv.holders[0].lane, 37);
}

// ---- Roofline -----------------------------------------------------------------------------------

// The roofline view drawn into an SVG of `size`, nothing hovered.
std::string draw_roofline(const RooflineViewInput& in, Vec2 size = {1600, 900}, const Theme& t = Theme::Dark()) {
  SvgCanvas svg(size.x, size.y, t.bg);
  draw_roofline_view(svg, {{0, 0}, size}, t, in, {-1, -1}, nullptr);
  return svg.finish();
}

TEST(Roofline, TileIntensityRidgeAndLogAxes) {
  EXPECT_DOUBLE_EQ(tile_intensity(1, 1, 4), 0.25);         // sgemm/01: 2 flops per 8 bytes
  EXPECT_DOUBLE_EQ(tile_intensity(128, 128, 2), 64.0);     // 2*128*128 / (256*2)
  EXPECT_DOUBLE_EQ(tile_intensity(256, 128, 2), 2.0 * 256 * 128 / (384 * 2));
  EXPECT_DOUBLE_EQ(ridge(4.0, 400.0), 100.0);
  EXPECT_DOUBLE_EQ(attainable(100.0, 4.0, 400.0), 400.0);  // on the ridge both limits agree
  EXPECT_DOUBLE_EQ(attainable(10.0, 4.0, 400.0), 40.0);
  EXPECT_DOUBLE_EQ(attainable(1000.0, 4.0, 400.0), 400.0);
  LogAxes ax;
  ax.x0 = 1, ax.x1 = 1000, ax.y0 = 10, ax.y1 = 1000;
  ax.left = 0, ax.right = 300, ax.top = 0, ax.bottom = 200;
  EXPECT_FLOAT_EQ(ax.px(10), 100);   // one decade of three
  EXPECT_FLOAT_EQ(ax.py(100), 100);  // one of two, from the bottom
  double lo = 0, hi = 0;
  log_bounds({0.25, 37, -1, 0}, &lo, &hi);
  EXPECT_DOUBLE_EQ(lo, 0.1);
  EXPECT_DOUBLE_EQ(hi, 100);
}

TEST(Roofline, CeilingsOfAFamilyAndTheSelectedRungNamed) {
  const std::vector<Peak> peaks = {{"fp32", 51.4, "TFLOP/s", "cuBLAS"}, {"tensor_f16_f32", 744, "TFLOP/s", "cuBLAS"},
                                   {"tf32", 406, "TFLOP/s", "cuBLAS"},  {"dram", 4.26, "TB/s", "copy"},
                                   {"l2", 11.5, "TB/s", "read"},        {"ffma", 60.1, "TFLOP/s", "loop"},
                                   {"mma_sync_f16", 640, "TFLOP/s", "loop"}};
  const std::vector<Ceiling> f16 = roofline_ceilings(peaks, "mma_f16", "f16.f32");
  ASSERT_EQ(f16.size(), 4u);
  EXPECT_EQ(f16[0].label, "DRAM 4.26 TB/s");
  EXPECT_TRUE(f16[1].bandwidth);
  EXPECT_EQ(f16[2].label, "mma.sync f16.f32 640 TFLOP/s");
  EXPECT_EQ(f16[3].label, "cuBLAS f16.f32 744 TFLOP/s");
  EXPECT_EQ(roofline_ceilings(peaks, "sgemm", "f32")[2].name, "ffma");
  EXPECT_EQ(roofline_ceilings(peaks, "mma_tf32", "tf32").size(), 3u);  // no mma.sync tf32 peak measured
  // wmma's f16.f16 rungs: cuBLAS with fp16 accumulate as timed beside them (no peak holds it), not f16.f32's 744
  // under their dtype's name; with no such run at 4096^3, no cuBLAS line at all.
  std::vector<RunRecord> runs;
  for (const double cublas : {770.0, 766.0, 777.0, 500.0}) {
    RunRecord r;
    r.kernel = "wmma/10_warp_128x64", r.dtype = "f16.f16", r.m = r.n = r.k = cublas == 500 ? 2048 : 4096;
    r.tflops = 460, r.cublas_tflops = cublas;
    runs.push_back(r);
  }
  runs.push_back(runs[0]), runs.back().dtype = "f16.f32", runs.back().cublas_tflops = 741;
  const std::vector<Ceiling> acc16 = roofline_ceilings(peaks, "wmma", "f16.f16", runs);
  ASSERT_EQ(acc16.size(), 4u);
  EXPECT_EQ(acc16[2].label, "mma.sync f16.f32 640 TFLOP/s");
  EXPECT_EQ(acc16[3].label, "cuBLAS f16.f16 770 TFLOP/s");
  EXPECT_NE(acc16[3].source.find("median of 3"), std::string::npos) << acc16[3].source;
  EXPECT_EQ(roofline_ceilings(peaks, "wmma", "f16.f16").size(), 3u);
  EXPECT_EQ(roofline_ceilings(peaks, "wmma", "f16.f32", runs)[3].label, "cuBLAS f16.f32 744 TFLOP/s");

  RooflineViewInput in;
  in.title = "mma_f16 ladder";
  in.ceilings = f16;
  in.points = {{"mma_f16/01_vectorized", 64, 24, true, false}, {"mma_f16/06_warp_64x64", 85.3, 300, true, true}};
  const Theme& t = Theme::Dark();
  SvgCanvas svg(1600, 900, t.bg);
  RooflineHover hover;
  draw_roofline_view(svg, {{0, 0}, {1600, 900}}, t, in, {-1, -1}, &hover);
  const std::string doc = svg.finish();
  EXPECT_EQ(parse(doc, nullptr), "");
  const std::string text = all_text(doc);
  for (const char* s : {"DRAM 4.26 TB/s", "L2 11.5 TB/s", "mma.sync f16.f32 640 TFLOP/s", "cuBLAS f16.f32 744 TFLOP/s",
                        "mma_f16/06_warp_64x64", "01"})
    EXPECT_NE(text.find(s), std::string::npos) << s << " in " << text;
  EXPECT_GE(min_font_px(doc), kMinTextSize * 2048.0f / (1901 + 483) - 0.01f);
}

// The hopper ladder runs on wgmma, not mma.sync: its pipe line is the wgmma loop's (kernels/ceilings.cu), labelled
// with its value above cuBLAS's; the mma.sync ladders keep their own pipe and get no wgmma line.
TEST(Roofline, TheHopperLadderIsDrawnUnderTheWgmmaPipe) {
  const std::vector<Peak> peaks = {{"tensor_f16_f32", 760, "TFLOP/s", "cuBLAS"}, {"dram", 3.35, "TB/s", "copy"},
                                   {"l2", 10.2, "TB/s", "read"},
                                   {"mma_sync_f16", 620, "TFLOP/s", "loop"},
                                   {"wgmma_f16", 963, "TFLOP/s", "measured here: wgmma loop"}};
  const std::vector<Ceiling> hopper = roofline_ceilings(peaks, "hopper", "f16.f32");
  ASSERT_EQ(hopper.size(), 4u);
  EXPECT_EQ(hopper[2].label, "wgmma f16.f32 963 TFLOP/s");
  EXPECT_EQ(hopper[2].source, "measured here: wgmma loop");
  EXPECT_EQ(hopper[3].label, "cuBLAS f16.f32 760 TFLOP/s");
  for (const char* family : {"mma_f16", "wmma"})
    for (const Ceiling& ce : roofline_ceilings(peaks, family, "f16.f32")) EXPECT_NE(ce.name, "wgmma_f16") << family;
  // A capture recorded before the wgmma ceiling existed (or on a GPU without sm_90a) has no such peak: no line.
  const std::vector<Peak> older(peaks.begin(), peaks.end() - 1);
  EXPECT_EQ(roofline_ceilings(older, "hopper", "f16.f32").size(), 3u);

  RooflineViewInput in;
  in.title = "hopper ladder";
  in.ceilings = hopper;
  in.points = {{"hopper/01_tma_wgmma", 64, 420, true, false}, {"hopper/06_tma_store", 85.3, 750, true, true}};
  const std::string doc = draw_roofline(in);
  EXPECT_EQ(parse(doc, nullptr), "");
  const std::string text = all_text(doc);
  for (const char* s : {"wgmma f16.f32 963 TFLOP/s", "cuBLAS f16.f32 760 TFLOP/s", "hopper/06_tma_store"})
    EXPECT_NE(text.find(s), std::string::npos) << s << " in " << text;
}

// What the small pane says of the dots above the lines (RooflineViewInput::gist), from where each dot lies: the
// bundled H200's lines (L2 7.74, DRAM 4.26 TB/s) and dots placed as its ladders' are.
TEST(Roofline, TheGistNamesTheDotsAboveTheLines) {
  const double l2 = 7.74, dram = 4.26;
  const auto point = [](const char* kernel, double intensity, double tflops, bool ok = true) {
    RooflinePoint p;
    p.kernel = kernel, p.intensity = intensity, p.tflops = tflops, p.ok = ok;
    return p;
  };
  // hopper: 01 (42.7 flop/byte, 418 TFLOP/s: 330 is the L2 line there), 03 and 04 above L2 through TMA; 02 under it.
  const std::vector<RooflinePoint> hopper = {
      point("hopper/01_tma_wgmma", 42.7, 418), point("hopper/02_tile_128x256", 85.3, 592),
      point("hopper/03_warp_specialized", 85.3, 682), point("hopper/04_persistent", 85.3, 710)};
  const RooflineAbove h = roofline_above(hopper, {false, false, false, false}, l2, dram);
  EXPECT_EQ(h.l2_faster, "01, 03, 04");
  EXPECT_EQ(h.from_l1, "");
  EXPECT_EQ(h.from_l2, "02");
  EXPECT_EQ(roofline_gist(h), "Above the L2 line: L2 beat its plain loads (01, 03, 04)");
  // sgemm/02 reads straight from global at a thread's tile: above the L2 line, through L1; 05 only above DRAM's. An
  // unverified dot (03, above L2) and one under both lines (01) are named nowhere.
  const std::vector<RooflinePoint> sgemm = {
      point("sgemm/01_naive", 0.25, 1.0), point("sgemm/02_coalesced", 0.25, 3.0),
      point("sgemm/03_smem_tiling", 4, 40, false), point("sgemm/05_blocktile_2d", 8, 45)};
  const RooflineAbove s = roofline_above(sgemm, {true, true, false, false}, l2, dram);
  EXPECT_EQ(s.from_l1, "02");
  EXPECT_EQ(s.from_l2, "05");
  EXPECT_EQ(roofline_gist(s), "Above the L2 line: read from L1 (02)");
  // Both kinds above L2: one sentence, the straight reads first.
  EXPECT_EQ(roofline_gist({"02", "05", "", ""}), "Above the L2 line: read from L1 (02); L2 beat its plain loads (05)");
  // mma_f16: nothing above L2, the top rungs above DRAM.
  const std::vector<RooflinePoint> f16 = {point("mma_f16/08_ldmatrix", 64, 250),
                                          point("mma_f16/09_xor_permuted", 85.3, 407),
                                          point("mma_f16/10_multistage", 85.3, 472)};
  const RooflineAbove f = roofline_above(f16, {false, false, false}, l2, dram);
  EXPECT_EQ(f.l2_faster + f.from_l1, "");
  EXPECT_EQ(roofline_gist(f), "Above the DRAM line: operands from L2 (09, 10)");
  // No line measured (an old capture): nothing placed, nothing said.
  EXPECT_EQ(roofline_gist(roofline_above(f16, {false, false, false}, 0, 0)), "");
}

// A selected variant ([xor=off] at 110 TFLOP/s, far below its rung) is ringed and named, but the ladder's path
// joins the rungs only: a line from rung 10 down to it would draw a step the ladder never takes.
TEST(Roofline, ASelectedVariantIsNamedOffTheLaddersPath) {
  const std::vector<Peak> peaks = {{"tensor_f16_f32", 744, "TFLOP/s", "cuBLAS"}, {"dram", 4.26, "TB/s", "copy"},
                                   {"l2", 11.5, "TB/s", "read"}, {"mma_sync_f16", 640, "TFLOP/s", "loop"}};
  RooflineViewInput in;
  in.title = "mma_f16 ladder";
  in.ceilings = roofline_ceilings(peaks, "mma_f16", "f16.f32");
  RooflinePoint a{"mma_f16/09_xor_permuted", 85.3, 407, true, false}, b{"mma_f16/10_multistage", 85.3, 472, true, false};
  RooflinePoint v{"mma_f16/10_multistage[xor=off]", 85.3, 110, true, true};
  v.variant = true;
  in.points = {a, b, v};
  const std::string doc = draw_roofline(in);
  EXPECT_NE(all_text(doc).find("mma_f16/10_multistage[xor=off]"), std::string::npos) << all_text(doc);
  // The path: one polyline through the two rungs' dots, none reaching down to the variant's.
  const std::vector<Element> paths = elements(doc, "polyline");
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(std::count(paths[0].attr.at("points").begin(), paths[0].attr.at("points").end(), ','), 2);
}

// Rungs on one spot share a label: mma_f16's 12 and 13 (both 514 TFLOP/s at one tiling) left 13 unnamed, its label
// finding no place of its own. The selected rung keeps its own name.
TEST(Roofline, RungsOnOneSpotShareALabel) {
  const std::vector<Peak> peaks = {{"tensor_f16_f32", 744, "TFLOP/s", "cuBLAS"}, {"dram", 4.26, "TB/s", "copy"},
                                   {"l2", 11.5, "TB/s", "read"}, {"mma_sync_f16", 640, "TFLOP/s", "loop"}};
  RooflineViewInput in;
  in.title = "mma_f16 ladder";
  in.ceilings = roofline_ceilings(peaks, "mma_f16", "f16.f32");
  in.points = {{"mma_f16/02_conflict_free", 64, 28.4, true, false}, {"mma_f16/03_cp_async", 64, 28.7, true, false},
               {"mma_f16/10_multistage", 85.3, 472, true, true}, {"mma_f16/12_persistent", 85.3, 514, true, false},
               {"mma_f16/13_stream_k", 85.3, 514, true, false}};
  const std::string doc = draw_roofline(in);
  std::vector<std::string> labels;
  for (const Element& e : elements(doc, "text")) labels.push_back(e.text);
  for (const char* want : {"02, 03", "12, 13", "mma_f16/10_multistage"})
    EXPECT_EQ(std::count(labels.begin(), labels.end(), want), 1) << want << " in " << all_text(doc);
  for (const char* alone : {"02", "03", "12", "13"})
    EXPECT_EQ(std::count(labels.begin(), labels.end(), alone), 0) << alone << " labelled on its own";
}

// A slope's label never lies over a rung's dot: in a small pane the L2 slope runs through a ladder's top rungs
// right where its label would go, and the label moves along the slope to where no dot is.
TEST(Roofline, SlopeLabelsStepAsideForTheRungsDots) {
  const std::vector<Peak> peaks = {{"tensor_f16_f32", 744, "TFLOP/s", "cuBLAS"}, {"dram", 4.26, "TB/s", "copy"},
                                   {"l2", 11.5, "TB/s", "read"}, {"mma_sync_f16", 640, "TFLOP/s", "loop"}};
  RooflineViewInput in;
  in.title = "mma_f16 ladder";
  in.ceilings = roofline_ceilings(peaks, "mma_f16", "f16.f32");
  // Rungs just under the L2 slope all the way up (TFLOP/s = 0.8 x 11.5 TB/s x intensity), and a few on the DRAM one.
  for (int i = 0; i < 24; ++i) {
    const double x = std::pow(10.0, 0.25 + i * 0.075);
    in.points.push_back({"mma_f16/" + std::to_string(10 + i) + "_x", x, 0.8 * 11.5 * x, true, false});
    if (i % 4 == 0) in.points.push_back({"mma_f16/" + std::to_string(40 + i) + "_y", x, 0.8 * 4.26 * x, true, false});
  }
  const Theme& t = Theme::Dark();
  for (const Vec2 size : {Vec2{520, 330}, Vec2{800, 450}, Vec2{1600, 900}}) {
    const std::string doc = draw_roofline(in, size, t);
    ASSERT_EQ(parse(doc, nullptr), "");
    std::vector<Vec2> dots;
    for (const Element& e : elements(doc, "circle")) dots.push_back({num(e, "cx"), num(e, "cy")});
    ASSERT_GE(dots.size(), in.points.size());
    int slopes = 0;
    for (const auto& [text, box] : text_boxes(doc)) {
      if (text.rfind("L2 ", 0) != 0 && text.rfind("DRAM ", 0) != 0) continue;
      ++slopes;
      for (const Vec2& d : dots)
        EXPECT_FALSE(d.x > box.min.x && d.x < box.max.x && d.y > box.min.y && d.y < box.max.y)
            << text << " over a dot at " << d.x << "," << d.y << " in " << size.x << "x" << size.y;
    }
    EXPECT_EQ(slopes, 2) << size.x << "x" << size.y;
    EXPECT_EQ(overlapping_text(doc), "") << size.x << "x" << size.y;
  }
}

// The selected rung at the top right of a small pane, just under cuBLAS's line and among other rungs (the roofline
// pane of the whole window at 1600x900): its name goes where it covers no other label, shortened to the rung's
// number where the whole name finds no room, and never leaves the plot.
// The mma_f16 ladder under an H200's ceilings, as the bundled capture has them, rung 10 selected.
RooflineViewInput mma_f16_ladder_roofline() {
  const std::vector<Peak> peaks = {{"tensor_f16_f32", 741, "TFLOP/s", "cuBLAS"}, {"dram", 4.24, "TB/s", "copy"},
                                   {"l2", 7.62, "TB/s", "read"}, {"mma_sync_f16", 636, "TFLOP/s", "loop"}};
  RooflineViewInput in;
  in.title = "mma_f16 ladder";
  in.ceilings = roofline_ceilings(peaks, "mma_f16", "f16.f32");
  in.points = {{"mma_f16/01_vectorized", 64, 24, true, false},     {"mma_f16/02_conflict_free", 64, 28, true, false},
               {"mma_f16/04_registers", 64, 187, true, false},     {"mma_f16/05_double_buffer", 64, 218, true, false},
               {"mma_f16/06_warp_64x64", 85.3, 306, true, false},  {"mma_f16/07_swizzle", 85.3, 303, true, false},
               {"mma_f16/08_ldmatrix", 85.3, 333, true, false},    {"mma_f16/09_xor_permuted", 85.3, 404, true, false},
               {"mma_f16/10_multistage", 85.3, 481, true, true}};
  return in;
}

TEST(Roofline, TheSelectedRungsNameCoversNoOtherLabelInASmallPane) {
  const RooflineViewInput in = mma_f16_ladder_roofline();
  const Theme& t = Theme::Dark();
  for (const Vec2 size : {Vec2{380, 220}, Vec2{470, 260}, Vec2{560, 300}, Vec2{800, 450}, Vec2{1600, 900}}) {
    const std::string doc = draw_roofline(in, size, t);
    ASSERT_EQ(parse(doc, nullptr), "");
    EXPECT_EQ(overlapping_text(doc), "") << size.x << "x" << size.y;
    EXPECT_EQ(outside(doc, size.x, size.y), "") << size.x << "x" << size.y;
    const std::vector<std::string> text = texts(doc);
    EXPECT_GE(count_if_contains(text, "mma_f16/10_multistage") + std::count(text.begin(), text.end(), "10"), 1)
        << size.x << "x" << size.y << ": the selected rung is named";
    for (const auto& [name, number] : {std::pair{"cuBLAS", "741"}, {"mma.sync", "636"}})  // whole, or shortened
      EXPECT_EQ(std::count_if(text.begin(), text.end(),
                              [&](const std::string& s) { return s.rfind(name, 0) == 0 && s.find(number) != s.npos; }),
                1)
          << name << " " << number << " at " << size.x << "x" << size.y;
    for (const auto& [label, box] : text_boxes(doc)) {  // and no label of a ceiling hides a rung
      if (label.rfind("cuBLAS", 0) != 0 && label.rfind("mma.sync", 0) != 0) continue;
      for (const Element& e : elements(doc, "circle"))
        EXPECT_FALSE(num(e, "cx") > box.min.x && num(e, "cx") < box.max.x && num(e, "cy") > box.min.y &&
                     num(e, "cy") < box.max.y)
            << label << " over a dot at " << size.x << "x" << size.y;
    }
  }
}

// A rung's number names the dot nearest to it: in the whole window's small pane a place a line higher put "08" of
// mma_f16 beside rungs 11-13 (at 500 TFLOP/s, 08 is at 330) and "07" beside 04-05. Each number drawn lies nearer its
// own dot than any other rung's (level with its dot, where two rungs on one spot tie; a line above or below it, by
// half a dot's radius), at every size and whichever rung is selected; a number that finds no such place is left to hovering. (The selected rung is always
// named, in bold beside its ring.)
TEST(Roofline, EachRungsNumberIsNearestItsOwnDot) {
  RooflineViewInput in = mma_f16_ladder_roofline();
  in.points.push_back({"mma_f16/11_tma_producer", 85.3, 503, true, false});
  in.points.push_back({"mma_f16/12_persistent", 85.3, 514, true, false});
  in.points.push_back({"mma_f16/13_stream_k", 85.3, 514, true, false});
  const Theme& t = Theme::Dark();
  const auto box_to = [](const Rect& b, Vec2 d) {
    return std::hypot(std::max({b.min.x - d.x, 0.0f, d.x - b.max.x}), std::max({b.min.y - d.y, 0.0f, d.y - b.max.y}));
  };
  for (size_t selected = 0; selected < in.points.size(); ++selected) {
    for (RooflinePoint& p : in.points) p.selected = false;
    in.points[selected].selected = true;
    for (const Vec2 size : {Vec2{380, 220}, Vec2{405, 260}, Vec2{485, 310}, Vec2{800, 450}, Vec2{1600, 900}}) {
      const std::string doc = draw_roofline(in, size, t);
      ASSERT_EQ(parse(doc, nullptr), "");
      // The dots in the order of the points (the selected one's ring is a larger circle before its dot).
      std::vector<Vec2> dots;
      float dot_r = 1e9f;
      for (const Element& e : elements(doc, "circle")) dot_r = std::min(dot_r, num(e, "r"));
      for (const Element& e : elements(doc, "circle"))
        if (num(e, "r") < dot_r * 1.5f) dots.push_back({num(e, "cx"), num(e, "cy")});
      ASSERT_EQ(dots.size(), in.points.size()) << size.x << "x" << size.y;
      // The plot's frame, the largest rectangle drawn: the axes' tick labels ("10", "100") lie outside it.
      Rect frame{{0, 0}, {0, 0}};
      for (const Element& e : elements(doc, "rect"))
        if (num(e, "width") * num(e, "height") > (frame.max.x - frame.min.x) * (frame.max.y - frame.min.y) &&
            num(e, "width") < size.x * 0.99f)
          frame = {{num(e, "x"), num(e, "y")}, {num(e, "x") + num(e, "width"), num(e, "y") + num(e, "height")}};
      ASSERT_GT(frame.max.x - frame.min.x, size.x * 0.3f) << size.x << "x" << size.y;
      int named = 0;
      for (const auto& [text, box] : text_boxes(doc)) {
        if (box.min.x < frame.min.x || box.max.y > frame.max.y) continue;  // a tick label
        for (size_t i = 0; i < in.points.size(); ++i) {
          const std::string& k = in.points[i].kernel;
          const std::string number = k.substr(k.find('/') + 1, 2);
          if (text != number && text != k && text != k.substr(k.find('/') + 1)) continue;
          ++named;
          if (i == selected) continue;  // ringed and in bold: named where nothing else fits, and read as its ring's
          // Level with its dot (the box spans the dot's height) a tie is allowed; a line above or below, any dot not
          // on the same spot lies half a radius further off than its own.
          const bool beside = box.min.y <= dots[i].y && dots[i].y <= box.max.y;
          for (const Vec2& d : dots)
            if (beside ? box_to(box, d) + 0.5f < box_to(box, dots[i])
                       : std::hypot(d.x - dots[i].x, d.y - dots[i].y) > dot_r + 0.01f &&
                             box_to(box, d) < box_to(box, dots[i]) + dot_r * 0.5f - 0.01f)
              ADD_FAILURE()
                << "'" << text << "' is nearer a dot at " << d.x << "," << d.y << " than its own at " << dots[i].x
                << "," << dots[i].y << "; " << size.x << "x" << size.y << ", " << in.points[selected].kernel
                << " selected";
        }
      }
      EXPECT_GE(named, 5) << size.x << "x" << size.y;
    }
  }
}

// Each compute ceiling's label names the line it sits on: just above or just below that line, or, where two lines
// are closer than a label's height (mma.sync and cuBLAS, 15% apart, in the whole window's roofline pane), both in
// one row just above the upper line. A label a line and a half away (cuBLAS's, beside rung 06, before) reads as
// another line's. Under the mma_f16 ladder and an sgemm ladder whose top rungs reach cuBLAS.
TEST(Roofline, EachComputeLabelSitsOnItsOwnLine) {
  RooflineViewInput sgemm;
  sgemm.title = "sgemm ladder";
  sgemm.ceilings = roofline_ceilings({{"fp32", 51.4, "TFLOP/s", "cuBLAS"}, {"dram", 4.26, "TB/s", "copy"},
                                      {"l2", 7.74, "TB/s", "read"}, {"ffma", 63.6, "TFLOP/s", "loop"}},
                                     "sgemm", "f32");
  sgemm.points = {{"sgemm/01_naive", 0.25, 0.5, true, false},     {"sgemm/02_coalesced", 0.25, 6.2, true, false},
                  {"sgemm/03_smem", 8, 8.1, true, false},         {"sgemm/04_blocktile_1d", 16, 16, true, false},
                  {"sgemm/05_blocktile_2d", 32, 31, true, false}, {"sgemm/06_vectorized", 32, 38, true, false},
                  {"sgemm/10_warptile", 32, 47, true, false},     {"sgemm/11_block", 42.7, 49.6, true, true}};
  const Theme& t = Theme::Dark();
  for (const RooflineViewInput& in : {mma_f16_ladder_roofline(), sgemm})
    for (const Vec2 size : {Vec2{380, 220}, Vec2{405, 270}, Vec2{470, 260}, Vec2{560, 300}, Vec2{800, 450},
                            Vec2{1600, 900}, Vec2{1920, 1080}}) {
      const std::string doc = draw_roofline(in, size, t);
      ASSERT_EQ(parse(doc, nullptr), "");
      // The pipe's line is solid in the good colour, cuBLAS's dashed in the text colour: horizontal segments.
      float pipe_y = -1, cublas_y = -1;
      for (const Element& e : elements(doc, "line")) {
        if (!e.attr.count("stroke") || num(e, "y1") != num(e, "y2")) continue;
        if (e.attr.at("stroke") == hex(t.good)) pipe_y = num(e, "y1");
        if (e.attr.at("stroke") == hex(t.text)) cublas_y = num(e, "y1");
      }
      ASSERT_GT(pipe_y, 0) << size.x << "x" << size.y;
      ASSERT_GT(cublas_y, 0) << size.x << "x" << size.y;
      const float upper = std::min(pipe_y, cublas_y);
      int found = 0;
      for (const auto& [label, box] : text_boxes(doc)) {
        const bool is_cublas = label.rfind("cuBLAS", 0) == 0;
        if (!is_cublas && label.rfind("mma.sync", 0) != 0 && label.rfind("FFMA", 0) != 0) continue;
        ++found;
        const float own = is_cublas ? cublas_y : pipe_y, h = box.max.y - box.min.y;
        const bool above = std::fabs(box.max.y - own) <= 3, below = box.min.y >= own - 1 && box.min.y <= own + h * 0.3f;
        const bool shared_row = std::fabs(box.max.y - upper) <= 3 && own - upper < h + 3;
        EXPECT_TRUE(above || below || shared_row)
            << label << " at " << box.min.y << "-" << box.max.y << ", its line at " << own << " (the other at "
            << (is_cublas ? pipe_y : cublas_y) << "), " << in.title << " at " << size.x << "x" << size.y;
      }
      EXPECT_EQ(found, 2) << in.title << " at " << size.x << "x" << size.y;
      EXPECT_EQ(overlapping_text(doc), "") << in.title << " at " << size.x << "x" << size.y;
    }
}

// The y axis's title sits in the plot's top left corner, where the top ceiling (cuBLAS's dashed line) often runs:
// every line through its box is drawn before a backing of the background that covers the box, so the title
// stays readable at every pane size.
TEST(Roofline, NoLineRunsThroughTheAxisTitle) {
  const RooflineViewInput in = mma_f16_ladder_roofline();
  const Theme& t = Theme::Dark();
  // Where a straight segment passes through a box (sampled: the boxes are text-sized, the steps a pixel).
  const auto crosses = [](Vec2 a, Vec2 b, const Rect& r) {
    const int n = 1 + int(std::max(std::fabs(b.x - a.x), std::fabs(b.y - a.y)));
    for (int i = 0; i <= n; ++i) {
      const float f = float(i) / n, x = a.x + (b.x - a.x) * f, y = a.y + (b.y - a.y) * f;
      if (x > r.min.x + 1 && x < r.max.x - 1 && y > r.min.y + 1 && y < r.max.y - 1) return true;
    }
    return false;
  };
  for (const Vec2 size : {Vec2{380, 220}, Vec2{440, 260}, Vec2{560, 300}, Vec2{800, 450}, Vec2{1600, 900}}) {
    const std::string doc = draw_roofline(in, size, t);
    std::vector<Element> all;
    ASSERT_EQ(parse(doc, &all), "");
    const Rect title = only_box(doc, "TFLOP/s (log)");
    size_t at = all.size();
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == "text" && all[i].text == "TFLOP/s (log)") at = i;
    ASSERT_LT(at, all.size());
    int crossing = 0;
    for (size_t i = 0; i < at; ++i) {
      const Element& e = all[i];
      bool through = false;
      if (e.name == "line") through = crosses({num(e, "x1"), num(e, "y1")}, {num(e, "x2"), num(e, "y2")}, title);
      if (e.name == "polyline") {
        std::vector<Vec2> pts;
        std::istringstream ss(e.attr.count("points") ? e.attr.at("points") : "");
        for (std::string xy; ss >> xy;) {
          const size_t comma = xy.find(',');
          pts.push_back({std::stof(xy.substr(0, comma)), std::stof(xy.substr(comma + 1))});
        }
        for (size_t j = 1; j < pts.size(); ++j) through = through || crosses(pts[j - 1], pts[j], title);
      }
      if (!through) continue;
      ++crossing;
      bool covered = false;
      for (size_t j = i + 1; j < at; ++j)
        if (all[j].name == "rect" && all[j].attr.count("fill") && all[j].attr.at("fill") != "none") {
          const Rect b = rect_of(all[j]);
          covered = covered || (b.min.x <= title.min.x && b.min.y <= title.min.y + 1 && b.max.x >= title.max.x &&
                                b.max.y >= title.max.y - 1);
        }
      EXPECT_TRUE(covered) << "a " << e.name << " runs through the axis title at " << size.x << "x" << size.y;
    }
    RecordProperty("crossing_" + std::to_string(int(size.x)), crossing);
  }
}

// A damaged capture's megabyte-long name is cut in a few dozen measurements, not one per byte.
TEST(Elide, AMegabyteNameIsCutQuicklyToTheLongestPrefixThatFits) {
  const Theme& t = Theme::Dark();
  SvgCanvas svg(800, 600, t.bg);
  const std::string name = "NVIDIA " + std::string(1 << 20, 'H');
  const auto t0 = std::chrono::steady_clock::now();
  const std::string cut = viz::elide(svg, name, 14, Font::Sans, 300);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 2.0);
  ASSERT_GE(cut.size(), 4u);
  EXPECT_EQ(cut.substr(cut.size() - 3), "...");
  EXPECT_LE(svg.text_size(cut, 14).x, 300);
  // one more character would not fit
  EXPECT_GT(svg.text_size(cut.substr(0, cut.size() - 3) + "H...", 14).x, 300);
  // multi-byte characters are never split
  const std::string greek = std::string(200, 'x') + "\xCE\xBB\xCE\xBB\xCE\xBB";
  const std::string g = viz::elide(svg, greek, 14, Font::Sans, 1e9);
  EXPECT_EQ(g, greek);
}

// A sentence kept to a few lines: no line wider than asked, and the last says with "..." that words were left out.
TEST(WrapLines, KeepsAtMostTheLinesAskedAndMarksTheCut) {
  SvgCanvas svg(800, 600, Theme::Dark().bg);
  std::string text;
  for (int i = 0; i < 40; ++i) text += "word" + std::to_string(i) + " ";
  const std::vector<std::string> all = viz::wrap(svg, text, 14, 200);
  ASSERT_GT(all.size(), 3u);
  const std::vector<std::string> three = viz::wrap_lines(svg, text, 14, 200, 3);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0], all[0]);
  EXPECT_EQ(three[1], all[1]);
  EXPECT_EQ(three[2].substr(three[2].size() - 3), "...");
  for (const std::string& line : three) EXPECT_LE(svg.text_size(line, 14).x, 200) << line;
  EXPECT_EQ(viz::wrap_lines(svg, text, 14, 200, all.size()), all);  // room for all of it: nothing cut
}

// probe.tile() stamps "next tile" as a warp starts each of its tiles, the first included: that first stamp had
// ticked the start of every row of hopper/04, where nothing was handed over yet. Only the moves to a later tile are
// ticks, and the legend says what they are.
TEST(TimelineView, OnlyAPersistentWarpsMovesToALaterTileAreTicked) {
  const TimelineBlock b = timeline_block(bundled_capture(), "hopper/04_persistent", 0);
  ASSERT_EQ(b.tiles, 4);
  std::map<int, std::vector<uint64_t>> tile_at;  // per warp, when it started each tile
  for (const TimelineBlock::Mark& m : b.marks)
    if (b.mark_names[size_t(m.kind)] == "next tile") tile_at[m.warp].push_back(m.at);
  ASSERT_EQ(tile_at.size(), b.warps.size());
  for (auto& [warp, at] : tile_at) {
    ASSERT_EQ(at.size(), 4u) << "warp " << warp;
    std::sort(at.begin(), at.end());
  }
  const Theme& t = Theme::Dark();
  // The text-coloured ticks on the plot, as cycles, in the window [t0, t1).
  const auto ticks = [&](double t0, double t1, std::string* text) {
    TimelineViewState st;
    st.t0 = t0, st.t1 = t1;
    SvgCanvas svg(1600, 900, t.bg);
    TimelineHover hover;
    draw_timeline_view(svg, {{0, 0}, {1600, 900}}, t, b, nullptr, 1980, st, {-1, -1}, &hover);
    const std::string doc = svg.finish();
    EXPECT_EQ(parse(doc, nullptr), "");
    *text = all_text(doc);
    std::vector<double> at;
    for (const Element& e : elements(doc, "line"))
      if (num(e, "y1") >= hover.plot.min.y && e.attr.count("stroke") && e.attr.at("stroke") == hex(t.text))
        at.push_back(t0 + (num(e, "x1") - hover.plot.min.x) / hover.plot.w() * (t1 - t0));
    return at;
  };
  // From the start until just after the last warp began its first tile: no tick, though every warp stamped one
  // there (the window stays short of any warp's second tile).
  uint64_t first = 0, second_min = UINT64_MAX;
  for (const auto& [warp, at] : tile_at) first = std::max(first, at[0]), second_min = std::min(second_min, at[1]);
  ASSERT_LT(first + 2000, second_min);
  std::string text;
  EXPECT_TRUE(ticks(0, double(first) + 2000, &text).empty());
  // Around warp 0's move to its second tile: a tick on each warp that moved there, where it moved.
  const double second = double(tile_at.begin()->second[1]);
  const std::vector<double> at = ticks(second - 20000, second + 20000, &text);
  int moved = 0;
  for (const auto& [warp, starts] : tile_at) {
    if (std::abs(double(starts[1]) - second) >= 19000) continue;
    ++moved;
    EXPECT_TRUE(std::any_of(at.begin(), at.end(), [&](double a) { return std::abs(a - double(starts[1])) < 40; }))
        << "warp " << warp << " moved on at " << starts[1];
  }
  EXPECT_GE(moved, 1);
  EXPECT_EQ(int(at.size()), moved);
  EXPECT_NE(text.find("on to the next tile"), std::string::npos) << text;
  EXPECT_EQ(text.find("passed next tile"), std::string::npos) << text;
}

// The whole window's roofline pane (380x240 at 1600x900, 463x300 at 1920x1080) had no room for the note, so the dots
// above the lines went unexplained there: the gist takes a line under the axis title, inside the pane, under every dot
// and label. A pane with room for the note shows the note, and no gist.
TEST(Roofline, ASmallPaneStillSaysWhatTheDotsAboveTheLinesAre) {
  RooflineViewInput in = mma_f16_ladder_roofline();
  in.note = "Intensity from each rung's tiling. Above the DRAM line, operands come from L2; above the L2 line, from L1.";
  in.gist = "Above the DRAM line: operands from L2 (09, 10)";
  const Theme& t = Theme::Dark();
  for (const Vec2 size : {Vec2{380, 240}, Vec2{463, 300}, Vec2{1600, 900}}) {
    const std::string doc = draw_roofline(in, size, t);
    ASSERT_EQ(parse(doc, nullptr), "");
    EXPECT_EQ(overlapping_text(doc), "") << size.x << "x" << size.y;
    EXPECT_EQ(outside(doc, size.x, size.y), "") << size.x << "x" << size.y;
    const std::vector<std::string> text = texts(doc);
    if (size.x == 1600) {
      EXPECT_EQ(count_if_contains(text, in.note), 1);  // (with a hint to hover, on screen)
      EXPECT_EQ(count_if_contains(text, in.gist), 0);
      continue;
    }
    ASSERT_EQ(std::count(text.begin(), text.end(), in.gist), 1) << size.x << "x" << size.y;
    const Rect gist = only_box(doc, in.gist);
    for (const auto& [label, box] : text_boxes(doc)) {
      if (label == in.gist) continue;
      EXPECT_LE(box.max.y, gist.min.y + 0.5f) << label << " at " << size.x << "x" << size.y;
    }
    for (const Element& e : elements(doc, "circle")) EXPECT_LT(num(e, "cy") + num(e, "r"), gist.min.y);
  }
}

}  // namespace
}  // namespace gs
