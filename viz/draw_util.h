// Helpers the views share: colour mixing, axis ticks, number formatting and text fitting.
// Internal to viz/; everything goes through Canvas so the SVG export measures what the screen does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "viz/canvas.h"

namespace gs::viz {

// `a` moved towards `b` by t in [0, 1] (opaque result; alpha taken from a).
Color mix(Color a, Color b, float t);

// Ticks at 1, 2, (2.5) or 5 times a power of ten covering [lo, hi], at most about `max_ticks` of them.
struct Ticks {
  double step = 1, max = 1;  // max: the last tick, >= hi
  std::vector<double> values;
};
Ticks nice_ticks(double lo, double hi, int max_ticks);
// "12.3", "0.85", "1200": three significant digits at most, no trailing zeros.
std::string fmt_num(double v);
// A rung's TFLOP/s and its share of cuBLAS as the kernel list, the throughput bars and the launch order all write
// them, so that one number reads the same in every view: "8.0", "48.5", "472" (one decimal below 100), and "15.7%".
std::string fmt_tflops(double tflops);
std::string fmt_share(double ratio);
// The tick label for `v` on an axis whose step is `step` (as many decimals as the step needs: 0.5 -> 1, 2.5 -> 1).
std::string fmt_tick(double v, double step);

// A polyline drawn as dashes of `dash` pixels with `gap` between them, the pattern running on across vertices.
void dashed_polyline(Canvas& c, const std::vector<Vec2>& pts, Color col, float thickness, float dash, float gap);

// `s` cut to fit `max_w` pixels, ending in "..." where cut; empty when not even that fits.
std::string elide(const Canvas& c, std::string_view s, float size, Font font, float max_w);
// `text` broken at spaces into lines no wider than `max_w` in `font` (a single word wider than that
// stays whole; the caller elides it).
std::vector<std::string> wrap(const Canvas& c, const std::string& text, float size, float max_w, Font font = Font::Sans);
// wrap() kept to at most `max_lines` (>= 1) lines, the last cut with "..." where more text followed.
// One line of a paragraph shown in part, elided to max_w: where `more` of it is left out after this line, the line
// ends in " ..." and hovering it shows the whole paragraph.
std::string paragraph_line(const Canvas& c, const std::string& line, const std::string& paragraph, bool more,
                           float size, float max_w);
std::vector<std::string> wrap_lines(const Canvas& c, const std::string& text, float size, float max_w, size_t max_lines);
// `text` wrapped to `r`'s width and centred in it: what a view says instead of a picture it cannot draw.
void centered_message(Canvas& c, Rect r, const std::string& text, Color ink, float size);
// The largest size <= `size` (down to `min_size`) at which `s` fits `max_w`; 0 when none does.
float fit_size(const Canvas& c, std::string_view s, float size, float min_size, Font font, float max_w);

}  // namespace gs::viz

namespace gs::viz {

// A run of text in one colour and font; a line of spans reads like one sentence with emphasis.
struct Span {
  std::string text;
  Color color;
  Font font = Font::Sans;
};
float spans_width(const Canvas& c, const std::vector<Span>& spans, float size);
// Draws the spans left to right from `pos` (top-left); what passes `max_w` is elided.
void draw_spans(Canvas& c, Vec2 pos, const std::vector<Span>& spans, float size, float max_w);

// A picture (an export, `shot`, the deck) is not the window: nothing in it can be hovered, clicked or maximised.
// While a PictureScope lives, views drawing a hint about the window's controls draw what a reader of the picture
// can use instead: hint("maximise this view", "a larger picture shows it").
class PictureScope {
 public:
  PictureScope();
  ~PictureScope();
  PictureScope(const PictureScope&) = delete;
  PictureScope& operator=(const PictureScope&) = delete;

 private:
  bool was_;
};
// While a MaximisedScope lives (the window draws a maximised view), a hint to maximise the view is no help: it
// says to zoom out instead ("maximise this view" -> "zoom out (Ctrl -)").
class MaximisedScope {
 public:
  explicit MaximisedScope(bool on);
  ~MaximisedScope();
  MaximisedScope(const MaximisedScope&) = delete;
  MaximisedScope& operator=(const MaximisedScope&) = delete;

 private:
  bool was_;
};
std::string hint(const std::string& on_screen, const std::string& in_picture);
// Whether a PictureScope is drawing: a text cut there is lost (no mouse shows it whole), so a view may give it
// more of its room.
bool in_picture();
// The commonest: "maximise this view", in a picture "a larger picture shows it".
std::string maximise_hint();

// What a view drawn from one kernel's records names in its title: the kernel the user selected (`shown_as`,
// where not empty), which for a block-order variant is not the rung whose records (`traced`) the view draws.
const std::string& title_kernel(const std::string& traced, const std::string& shown_as);
// Where the two differ, the note that says so, to follow the title (the rung is the name's part before
// the '['): "" where they do not.
std::string traced_as_note(const std::string& traced, const std::string& shown_as);

// Which traced accesses a site table's totals sum, from the warps and k-iterations its records hold (-1: past the
// k-loop): "warps 0 and 7, k-iteration 0 (counted from the block's start) and the epilogue" (what a warp does before
// its k-loop, a pipeline's prologue copies, counts in k-iteration 0). The bank and global-memory views' tables count them all,
// where their captions count one warp's requests in one k-iteration.
std::string traced_scope(std::vector<int> warps, std::vector<int> iterations);

}  // namespace gs::viz
