// One drawing code, two outputs: views draw onto a Canvas; the ImGui back end puts it on screen,
// the SVG back end writes it for slides. What is on screen is what is exported.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gs {

struct Vec2 {
  float x = 0, y = 0;
};
inline Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
inline Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
inline Vec2 operator*(Vec2 a, float s) { return {a.x * s, a.y * s}; }

struct Rect {
  Vec2 min, max;
  float w() const { return max.x - min.x; }
  float h() const { return max.y - min.y; }
  bool contains(Vec2 p) const { return p.x >= min.x && p.x < max.x && p.y >= min.y && p.y < max.y; }
  Vec2 center() const { return {(min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f}; }
  Rect inset(float d) const { return {{min.x + d, min.y + d}, {max.x - d, max.y - d}}; }
};

struct Color {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  static Color rgb(uint32_t hex, uint8_t alpha = 255) {
    return {uint8_t(hex >> 16), uint8_t(hex >> 8), uint8_t(hex), alpha};
  }
  Color with_alpha(uint8_t alpha) const { return {r, g, b, alpha}; }
};

enum class Align { Left, Center, Right };
// Sizes are line heights in pixels (ascent + descent), as ImGui's font sizes are, so a view lays
// text out identically on screen and in SVG. SansBold falls back to Sans where no bold is loaded.
enum class Font { Sans, Mono, SansBold };

class Canvas {
 public:
  virtual ~Canvas() = default;
  virtual void rect_filled(Rect r, Color c, float rounding = 0) = 0;
  virtual void rect(Rect r, Color c, float thickness = 1, float rounding = 0) = 0;
  virtual void line(Vec2 a, Vec2 b, Color c, float thickness = 1) = 0;
  virtual void polyline(const std::vector<Vec2>& pts, Color c, float thickness = 1) = 0;
  // Convex polygons only: ImGui fills convex shapes.
  virtual void polygon_filled(const std::vector<Vec2>& pts, Color c) = 0;
  virtual void circle_filled(Vec2 center, float radius, Color c) = 0;
  // `pos` is the text's top edge, and its left edge, centre or right edge per `align`.
  virtual void text(Vec2 pos, std::string_view s, Color c, float size, Align align = Align::Left,
                    Font font = Font::Sans) = 0;
  virtual Vec2 text_size(std::string_view s, float size, Font font = Font::Sans) const = 0;
  virtual void push_clip(Rect r) = 0;
  virtual void pop_clip() = 0;
};

// A canvas that draws nothing and measures text as `base` does: a view's dry run, to learn how a layout would come
// out (whether a launch order's grids have room, whether fragment cells get lane numbers) before drawing it.
class MeasureCanvas : public Canvas {
 public:
  explicit MeasureCanvas(const Canvas& base) : base_(base) {}
  void rect_filled(Rect, Color, float) override {}
  void rect(Rect, Color, float, float) override {}
  void line(Vec2, Vec2, Color, float) override {}
  void polyline(const std::vector<Vec2>&, Color, float) override {}
  void polygon_filled(const std::vector<Vec2>&, Color) override {}
  void circle_filled(Vec2, float, Color) override {}
  void text(Vec2, std::string_view, Color, float, Align, Font) override {}
  Vec2 text_size(std::string_view s, float size, Font font) const override { return base_.text_size(s, size, font); }
  void push_clip(Rect) override {}
  void pop_clip() override {}

 private:
  const Canvas& base_;
};

// The smallest text a view may draw, as a line height in pixels at zoom 1: DejaVu's em is 0.86 of the
// line, so 14 px is a 12 px (9 pt) font, readable on a projector and in an exported SVG. Views leave out
// a label that would need less (hover and zoom show it) rather than shrink it.
inline constexpr float kMinTextSize = 14.0f;

// What the back ends drew, for the readability tests: every text() call reports its size in output pixels.
struct TextAudit {
  bool on = false;           // off: note() does nothing (the window only turns it on under test)
  float min_size = 1e9f;     // smallest line height drawn since reset()
  std::string smallest;      // the text drawn at that size
  long count = 0;            // text() calls noted
  void reset() { min_size = 1e9f, smallest.clear(), count = 0; }
  void note(float size, std::string_view s) {
    if (!on) return;
    ++count;
    if (size < min_size) min_size = size, smallest = std::string(s.substr(0, 80));
  }
  static TextAudit& global();
};

// Texts a view cut short with "..." and what they said whole: elide() and wrap_lines() (and views cutting a paragraph
// for height) note each cut; the ImGui back end remembers the whole of the cut text under the mouse, and the window
// shows it in a tooltip where the view's own hover said nothing, so that what a pane has no room for is one hover
// away. One table for the process, of bounded size (views draw on one thread).
class CutTexts {
 public:
  void note(std::string_view shown, std::string_view whole);
  const std::string* whole_of(std::string_view shown) const;  // null for a text no one cut
  void set_under_mouse(const std::string& whole) { under_mouse_ = whole; }
  std::string take_under_mouse() { return std::exchange(under_mouse_, std::string()); }  // and forget it
  static CutTexts& global();

 private:
  std::vector<std::pair<std::string, std::string>> cuts_;  // most recently noted last; a few dozen a frame at most
  std::string under_mouse_;
};

// A canvas `zoom` times larger than the area a view lays itself out in: the view draws into a rect of
// size / zoom placed at `origin`, and every coordinate, width and text size reaches `inner` multiplied by
// zoom about `origin`. Zoom is thus one thing for every view, on screen and in exports alike.
class ScaledCanvas : public Canvas {
 public:
  ScaledCanvas(Canvas& inner, float zoom, Vec2 origin) : in_(inner), z_(zoom), o_(origin) {}
  // The rect a view should lay itself out in to fill `outer` (in inner coordinates) once magnified.
  Rect layout_rect(Rect outer) const { return {o_, o_ + (outer.max - outer.min) * (1 / z_)}; }
  // A point in inner coordinates (the mouse) in the view's coordinates, and back.
  Vec2 to_view(Vec2 p) const { return o_ + (p - o_) * (1 / z_); }
  Vec2 to_inner(Vec2 p) const { return o_ + (p - o_) * z_; }
  float zoom() const { return z_; }

  void rect_filled(Rect r, Color c, float rounding = 0) override { in_.rect_filled(map(r), c, rounding * z_); }
  void rect(Rect r, Color c, float thickness = 1, float rounding = 0) override {
    in_.rect(map(r), c, thickness * z_, rounding * z_);
  }
  void line(Vec2 a, Vec2 b, Color c, float thickness = 1) override { in_.line(to_inner(a), to_inner(b), c, thickness * z_); }
  void polyline(const std::vector<Vec2>& pts, Color c, float thickness = 1) override {
    in_.polyline(map(pts), c, thickness * z_);
  }
  void polygon_filled(const std::vector<Vec2>& pts, Color c) override { in_.polygon_filled(map(pts), c); }
  void circle_filled(Vec2 center, float radius, Color c) override { in_.circle_filled(to_inner(center), radius * z_, c); }
  void text(Vec2 pos, std::string_view s, Color c, float size, Align align = Align::Left,
            Font font = Font::Sans) override {
    in_.text(to_inner(pos), s, c, size * z_, align, font);
  }
  Vec2 text_size(std::string_view s, float size, Font font = Font::Sans) const override {
    return in_.text_size(s, size * z_, font) * (1 / z_);
  }
  void push_clip(Rect r) override { in_.push_clip(map(r)); }
  void pop_clip() override { in_.pop_clip(); }

 private:
  Rect map(Rect r) const { return {to_inner(r.min), to_inner(r.max)}; }
  std::vector<Vec2> map(const std::vector<Vec2>& pts) const {
    std::vector<Vec2> out;
    out.reserve(pts.size());
    for (const Vec2& p : pts) out.push_back(to_inner(p));
    return out;
  }
  Canvas& in_;
  float z_;
  Vec2 o_;
};

// XML (and HTML) character data: markup characters escaped, control characters XML 1.0 forbids dropped.
std::string xml_escape(std::string_view s);

// Writes an SVG 1.1 document of the given size; `finish()` returns it. Text is set in DejaVu Sans /
// DejaVu Sans Mono (the fonts the window uses) and measured with their advance widths.
class SvgCanvas : public Canvas {
 public:
  SvgCanvas(float width, float height, Color background);
  void rect_filled(Rect r, Color c, float rounding = 0) override;
  void rect(Rect r, Color c, float thickness = 1, float rounding = 0) override;
  void line(Vec2 a, Vec2 b, Color c, float thickness = 1) override;
  void polyline(const std::vector<Vec2>& pts, Color c, float thickness = 1) override;
  void polygon_filled(const std::vector<Vec2>& pts, Color c) override;
  void circle_filled(Vec2 center, float radius, Color c) override;
  void text(Vec2 pos, std::string_view s, Color c, float size, Align align = Align::Left,
            Font font = Font::Sans) override;
  Vec2 text_size(std::string_view s, float size, Font font = Font::Sans) const override;
  void push_clip(Rect r) override;
  void pop_clip() override;
  std::string finish();

 private:
  float width_, height_;
  std::string body_;
  int clip_ids_ = 0;
  int open_groups_ = 0;
};

}  // namespace gs
