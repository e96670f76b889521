// Launch-order view: which SM ran which output tile when, measured. The C matrix is a grid of tiles
// coloured by launch order (the swizzle's doing), by SM, or by when the block started; a moment in the
// kernel's run fills the grid as blocks start and finish, so waves show, and the A row-panels and B
// column-panels the running blocks read are marked beside it with their bytes against L2 (the reuse a
// swizzle buys). A second rung sits beside on the same time scale; under both, one row per SM.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/variant.h"
#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

std::string mb(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, bytes >= 10 << 20 ? "%.0f MiB" : "%.1f MiB", double(bytes) / (1 << 20));
  return buf;
}

// A time as a projector's reader takes it in: three or four digits, in ms from 10 ms (sgemm/01's 276 ms, not
// "275865 us"). The timeline's axis changes unit at the same time.
constexpr double kMsFromNs = 1e7;
std::string time_text(double ns) {
  char buf[32];
  if (ns >= kMsFromNs) std::snprintf(buf, sizeof buf, ns >= 1e9 ? "%.0f ms" : "%.1f ms", ns / 1e6);
  else std::snprintf(buf, sizeof buf, ns >= 10000 ? "%.0f \xC2\xB5s" : "%.1f \xC2\xB5s", ns / 1000);
  return buf;
}

// 32 lane colours, stepped by 7 so that SMs next to each other in number fall in different hue families.
Color sm_color(int sm, const Theme& t) { return lane_color(sm * 7 % 32, t); }

Color block_color(const BlockRecord& b, const TracedLaunch& l, SwizzleColour by, const Theme& t) {
  switch (by) {
    case SwizzleColour::Sm: return sm_color(b.smid, t);
    case SwizzleColour::Start:
      return ramp_color(l.duration ? float(double(b.start_ns - l.t0) / double(l.duration)) : 0, t);
    case SwizzleColour::Launch:
    default: return ramp_color(l.blocks.size() > 1 ? float(b.launch) / float(l.blocks.back().launch) : 0, t);
  }
}

// One side: the tile grid with the A and B panel strips, and the footprint line under it.
struct Side {
  const SwizzleViewInput* in = nullptr;
  Rect area;
  Rect grid, a_strip, b_strip;
  float sx = 0, sy = 0;  // a tile's width and height: the block tile's shape, C the same size on both sides
  float px = 0;          // pixels per element of C: sx / block_n (set with them)
  bool shape = false;    // head the traced size: the two sides were traced at different sizes
  bool compact = false;  // a short pane: the grid under the heading, without Nsight Compute's lines or the footprint
  float px_max = 0;      // > 0: at most this many pixels per element of C (the two sides at one scale)
  float grid_y = 0;      // > 0: the strips start no higher than this (two sides' grids level under headings of
                         // different heights); set by every call to where they start
};

// Draws one side; returns its tile grid's height (0: no room for one). `dry`: stops at that answer (on a
// MeasureCanvas).
float draw_side(Canvas& c, Side& side, const Theme& t, const SwizzleViewState& st, uint64_t t_ns, float fs, Vec2 mouse,
               int which, SwizzleHover* hover, bool dry = false) {
  const SwizzleViewInput& in = *side.in;
  const Rect a = side.area;
  float y = a.min.y;
  // Heading: rung, order, measured speed; in a narrow side the rung alone on the first line (without its family
  // where that is what fits: the variant part tells two sides apart), the rest under it.
  std::vector<viz::Span> speed;  // the measured speed, and the size it was traced at where the sides differ
  if (in.tflops > 0) speed.push_back({viz::fmt_tflops(in.tflops) + " TFLOP/s", t.text, Font::Sans});
  if (in.tflops > 0 && !in.other_dtype.empty()) speed.push_back({" " + in.other_dtype, t.warn, Font::Sans});
  // The size, where the side beside differs or the kernel list's number is from another (stream-K's 438 TFLOP/s at
  // 5120x1280x4096 stood alone against the list's 514 at 4096^3).
  const bool sized = side.shape || (!in.list_shape.empty() && in.shape != in.list_shape);
  if (sized && !in.shape.empty()) speed.push_back({(speed.empty() ? "at " : " at ") + in.shape, t.warn, Font::Sans});
  // The speed (and size) before the order, as the narrow form below has them, so that two sides read alike.
  std::vector<viz::Span> head{{in.kernel, t.text, Font::SansBold}};
  for (size_t i = 0; i < speed.size(); ++i)
    head.push_back(i > 0 ? speed[i] : viz::Span{"   " + speed[0].text, speed[0].color, speed[0].font});
  if (!in.order.empty()) head.push_back({(speed.empty() ? "   " : " \xC2\xB7 ") + in.order, t.text_dim, Font::Sans});
  if (viz::spans_width(c, head, fs) <= a.w() || head.size() == 1) {
    viz::draw_spans(c, {a.min.x, y}, head, fs, a.w());
    y += fs * 1.5f;
  } else {
    std::string name = in.kernel;
    if (c.text_size(name, fs, Font::SansBold).x > a.w()) name = name_in_family(name);
    c.text({a.min.x, y}, viz::elide(c, name, fs, Font::SansBold, a.w()), t.text, fs, Align::Left, Font::SansBold);
    y += fs * 1.3f;
    // The speed and the size first (the size, in the warning colour, is what must not be cut), the order after.
    if (!in.order.empty()) speed.push_back({(speed.empty() ? "" : " \xC2\xB7 ") + in.order, t.text_dim, Font::Sans});
    // Each part whole on a line of its own where the line has no room left for it ("438 TFLOP/s", "at
    // 5120x1280x4096", "its own order" in the whole window's pane), the separators dropped at a line's start.
    std::vector<std::vector<viz::Span>> lines(1);
    float used = 0;
    for (viz::Span sp : speed) {
      const float w = viz::spans_width(c, {sp}, fs);
      if (!lines.back().empty() && used + w > a.w() && lines.size() < 3) {
        lines.emplace_back(), used = 0;
        sp.text = sp.text.substr(std::min(sp.text.size(), sp.text.find_first_not_of(" \xC2\xB7")));
      }
      used += viz::spans_width(c, {sp}, fs);
      lines.back().push_back(sp);
    }
    for (size_t i = 0; i < lines.size(); ++i) {
      viz::draw_spans(c, {a.min.x, y}, lines[i], fs, a.w());
      y += i + 1 < lines.size() ? fs * 1.3f : fs * 1.5f;
    }
  }
  // Nsight Compute's lines whole (their last number is the point) where that leaves the tiles most of the side,
  // else one line each; in a picture, where a cut line cannot be hovered, up to half the side (a deck at 150% had cut
  // every one to "...1206 µs (Nsight Co...").
  std::vector<std::vector<std::string>> measured;
  size_t wrapped = 0;
  for (const std::string& m : side.compact ? std::vector<std::string>{} : in.measured) {
    measured.push_back(viz::wrap(c, m, fs, a.w()));
    wrapped += measured.back().size();
  }
  const bool whole = float(wrapped) * fs * 1.3f <= (a.max.y - y) * (viz::in_picture() ? 0.5f : 0.25f);
  for (size_t i = 0; i < measured.size(); ++i)
    for (const std::string& line : whole ? measured[i] : std::vector<std::string>{in.measured[i]}) {
      c.text({a.min.x, y}, viz::elide(c, line, fs, Font::Sans, a.w()), t.text_dim, fs);
      if (hover && Rect{{a.min.x, y}, {a.max.x, y + fs * 1.3f}}.contains(mouse)) hover->side = which, hover->measured = int(i);
      y += fs * 1.3f;
    }
  y = std::max(y, side.grid_y);
  side.grid_y = y;
  if (!in.launch || in.launch->empty()) {
    for (const std::string& line : viz::wrap(c, "This capture traced no blocks of " + in.kernel + ".", fs, a.w())) {
      c.text({a.min.x, y}, line, t.text_dim, fs);
      y += fs * 1.3f;
    }
    return 1e9f;  // nothing to make room for
  }
  const TracedLaunch& l = *in.launch;
  const WaveFootprint f = running_footprint(l, t_ns, in.block_m, in.block_n, in.k, in.elem_bytes);
  // Footprint: what the running blocks read, against L2.
  const bool done = t_ns >= l.duration;
  const std::string unit = l.persistent() ? " tiles in flight" : " blocks running";
  // A split launch: the whole tiles and the split ones by CTAs of their own (mma_f16/13's two kernels), else
  // all the tiles by all the CTAs.
  const int whole_tiles = l.tiles - l.split_tiles, split_pieces = int(l.blocks.size()) - whole_tiles;
  std::string foot = done ? (l.two_launches() ? "all " + std::to_string(l.tiles) + " tiles done: " + std::to_string(whole_tiles) +
                                             " whole by " + std::to_string(l.whole_ctas) + " CTAs, then " +
                                             std::to_string(l.split_tiles) + " split along k into " +
                                             std::to_string(split_pieces) + " pieces by " +
                                             std::to_string(l.piece_ctas) + " other CTAs"
                             : l.split()      ? "all " + std::to_string(l.tiles) + " tiles done by " +
                                                  std::to_string(l.ctas) + " CTAs, in " + std::to_string(l.blocks.size()) +
                                                  " pieces: tiles split along k"
                             : l.persistent() ? "all " + std::to_string(l.blocks.size()) + " tiles done by " +
                                                  std::to_string(l.ctas) + " persistent CTAs"
                                              : "all " + std::to_string(l.blocks.size()) + " blocks done")
                          : std::to_string(f.running) + unit + " read " + std::to_string(f.a_panels) +
                                " A panels (" + mb(f.a_bytes) + ") and " + std::to_string(f.b_panels) + " B panels (" +
                                mb(f.b_bytes) + ")";
  // The footprint line wraps onto a second where the side is narrow (stream-K's "... then 68 split along k into 196
  // pieces" at 150% zoom), the rest of it elided there.
  std::vector<std::string> foot_lines = side.compact ? std::vector<std::string>{} : viz::wrap(c, foot, fs, a.w());
  if (foot_lines.size() > 2) {
    std::string rest;
    for (size_t i = 1; i < foot_lines.size(); ++i) rest += (i > 1 ? " " : "") + foot_lines[i];
    foot_lines = {foot_lines[0], viz::elide(c, rest, fs, Font::Sans, a.w())};
  }
  const float foot_h = side.compact ? 0
                                    : fs * 1.3f * float(std::max<size_t>(1, foot_lines.size())) + fs * 0.1f +
                                          (in.l2_bytes > 0 ? fs * 1.1f : 0);
  // Geometry: B's panels above the grid, A's left of it; each tile as wide as its block's N and as tall as its M
  // (a 256x128 tile twice as tall as wide), so that C keeps its shape from rung to rung.
  const float strip = std::max(fs * 0.9f, 10.0f), gap = fs * 0.35f;
  const float avail_w = a.w() - strip - gap, avail_h = a.max.y - y - strip - gap - foot_h - fs * 0.4f;
  const float bm = in.block_m > 0 && in.block_n > 0 ? float(in.block_m) : 1.0f;
  const float bn = in.block_m > 0 && in.block_n > 0 ? float(in.block_n) : 1.0f;
  float px = std::min(avail_w / (l.tiles_n * bn), avail_h / (l.tiles_m * bm));  // per element of C
  if (side.px_max > 0) px = std::min(px, side.px_max);
  side.px = px, side.sx = px * bn, side.sy = px * bm;
  const bool room = !(std::min(side.sx, side.sy) < 1 || avail_h < fs * 3);
  if (dry) return room ? float(l.tiles_m) * side.sy : 0;
  if (!room) {  // no room for a grid: say so rather than draw nothing
    // Wrapped where every line fits, else one line cut at its end (a wrapped hint missing its last word read as
    // whole: "a larger picture shows the").
    const std::string hint = viz::hint("maximise to see the tiles", "a larger picture shows the tiles");
    std::vector<std::string> lines = viz::wrap(c, hint, fs, a.w());
    if (y + fs * 1.3f * float(lines.size() - 1) + fs > a.max.y) lines = {viz::elide(c, hint, fs, Font::Sans, a.w())};
    for (const std::string& line : lines) {
      if (y + fs > a.max.y) break;
      c.text({a.min.x, y}, viz::elide(c, line, fs, Font::Sans, a.w()), t.text_dim, fs);
      y += fs * 1.3f;
    }
    return 0;
  }
  side.a_strip = Rect{{a.min.x, y + strip + gap}, {a.min.x + strip, y + strip + gap + l.tiles_m * side.sy}};
  side.b_strip = Rect{{a.min.x + strip + gap, y}, {a.min.x + strip + gap + l.tiles_n * side.sx, y + strip}};
  side.grid = Rect{{side.b_strip.min.x, side.a_strip.min.y}, {side.b_strip.max.x, side.a_strip.max.y}};
  const float sx = side.sx, sy = side.sy, s = std::min(sx, sy);
  std::vector<char> a_used(size_t(l.tiles_m), 0), b_used(size_t(l.tiles_n), 0);
  const float pad = s >= 4 ? 0.5f : 0;  // tile lines down to 4-pixel tiles (stream-K's at 150% zoom)
  // A tile split along k has a record per piece: each piece gets a strip of the cell, side by side in launch order.
  const float label_w = c.text_size(std::to_string(l.blocks.back().launch), kMinTextSize).x + 2;
  for (size_t i = 0; i < l.blocks.size(); ++i) {
    const BlockRecord& b = l.blocks[i];
    const std::pair<int, int> piece = l.split() ? l.pieces[i] : std::pair<int, int>{0, 1};
    const float w = sx / float(piece.second), x0 = side.grid.min.x + b.tile_n * sx + piece.first * w;
    const Rect cell{{x0 + pad, side.grid.min.y + b.tile_m * sy + pad}, {x0 + w - pad, side.grid.min.y + (b.tile_m + 1) * sy - pad}};
    const bool labels = label_w <= w && sy >= kMinTextSize * 1.1f;
    const uint64_t start = b.start_ns - l.t0, end = b.end_ns - l.t0;
    const bool started = start <= t_ns || done, running = !done && start <= t_ns && end > t_ns;
    if (running) a_used[size_t(b.tile_m)] = b_used[size_t(b.tile_n)] = 1;
    if (!started) {
      c.rect(cell, t.grid, 1);
    } else {
      Color fill = block_color(b, l, st.colour, t);
      if (!running && !done) fill = viz::mix(fill, t.bg, 0.45f);  // finished before the moment shown
      c.rect_filled(cell, fill);
      if (labels)
        c.text({cell.center().x, cell.center().y - kMinTextSize * 0.5f}, std::to_string(b.launch), text_on(fill),
               kMinTextSize, Align::Center);
    }
    if (running && s >= 4) c.rect(cell, t.text, s >= 12 ? 2 : 1);
    if (hover && cell.contains(mouse)) hover->side = which, hover->block = int(i);
  }
  c.rect(side.grid, t.grid, 1);
  // The panels the running blocks read: A's rows, B's columns, in the accent colour.
  for (int m = 0; m < l.tiles_m; ++m)
    c.rect_filled({{side.a_strip.min.x, side.a_strip.min.y + m * sy + pad}, {side.a_strip.max.x, side.a_strip.min.y + (m + 1) * sy - pad}},
                  a_used[size_t(m)] ? t.accent : t.panel);
  for (int n = 0; n < l.tiles_n; ++n)
    c.rect_filled({{side.b_strip.min.x + n * sx + pad, side.b_strip.min.y}, {side.b_strip.min.x + (n + 1) * sx - pad, side.b_strip.max.y}},
                  b_used[size_t(n)] ? t.accent : t.panel);
  // Footprint line and the L2 bar.
  float fy = side.grid.max.y + fs * 0.4f;
  for (const std::string& line : foot_lines) {
    c.text({a.min.x, fy}, viz::elide(c, line, fs, Font::Sans, a.w()), t.text, fs);
    fy += fs * 1.3f;
  }
  if (in.l2_bytes > 0 && !done && !side.compact) {
    const float bar_w = std::min(a.w() * 0.5f, fs * 14);
    const std::string l2 = mb(f.bytes()) + " of " + mb(in.l2_bytes) + " L2";
    const float frac = float(std::min<double>(1.5, double(f.bytes()) / double(in.l2_bytes)));
    const Rect bar{{a.min.x, fy + fs * 0.2f}, {a.min.x + bar_w, fy + fs * 0.8f}};
    c.rect_filled(bar, t.panel, 2);
    c.rect_filled({bar.min, {bar.min.x + bar_w * std::min(frac, 1.0f), bar.max.y}}, frac > 1 ? t.bad : t.good, 2);
    c.rect(bar, t.grid, 1, 2);
    c.text({bar.max.x + fs * 0.5f, fy}, viz::elide(c, l2, fs, Font::Sans, a.max.x - bar.max.x - fs), t.text_dim, fs);
  }
  return float(l.tiles_m) * sy;
}

// Whether CTAs at once on an SM each get a lane of its row in `r` (a lane keeps a pixel), else drawn over one another:
// the caption says which, before the plot's height is known, assuming the rows fit.
bool lanes_fit(const TracedLaunch& l, Rect r, float fs) {
  return l.lanes > 1 && (r.h() - fs * 4) / float(std::max(1, l.sms)) / float(l.lanes) >= 1.0f;
}

// The per-SM timeline's plot under `n` lines of caption.
Rect timeline_plot(Canvas& c, Rect r, float fs, size_t n) {
  const float label_w = c.text_size("SM 131", fs).x + fs * 0.5f;
  // Half a line under the caption: "SM 0", level with the first row, reaches half a line above the plot (at 200% it
  // had sat on the caption's last line).
  return Rect{{r.min.x + label_w, r.min.y + fs * 1.25f * float(n) + fs * 0.5f}, {r.max.x, r.max.y - fs * 1.5f}};
}

// The per-SM timeline's caption as drawn in `r`: wrapped, or one line cut short where the whole would leave the plot
// less than a row per SM.
std::vector<std::string> timeline_caption(Canvas& c, Rect r, const SwizzleViewInput& in, float fs) {
  const TracedLaunch& l = *in.launch;
  // The traced launch runs with the probes' stamps: slower than the timed one, in the same order and waves.
  // `bars`: what a bar is, after "one row per SM, " (the short caption puts the traced run's time between them).
  std::string bars = l.split()
                         ? "each tile or piece of a tile a bar from its CTA's first load to its last store: the whole "
                           "tiles first, then the pieces of the split ones"
                     : l.persistent()
                         ? "each tile a bar from its CTA's first load to its last store: a persistent CTA's tiles "
                           "follow one another, overlapping where its producer loads the next tile while its consumers "
                           "store the last"
                         : "each block a bar from its start to its end";
  // Whole tiles and pieces by CTAs of their own (two kernels, mma_f16/13): the time between them, when no SM
  // computes, is the second kernel's launch.
  if (l.launch_gap > 0)
    bars += "; between them " + time_text(double(l.launch_gap)) + " with no SM at work: the second kernel's launch";
  std::string what = "one row per SM, " + bars;
  // Within 5% the two runs differ by no more than repeated timed runs do: no cost to name. A traced run more than 5%
  // shorter says so rather than that the probes cost nothing.
  std::string brief = "one row per SM";  // the one line a short plot leaves it: its numbers first
  if (in.timed_ms > 0 && l.duration > 0) {
    const double ratio = double(l.duration) / (in.timed_ms * 1e6);
    brief += ", traced run " + time_text(double(l.duration)) + " (" + viz::fmt_num(ratio) + "x the timed " +
             time_text(in.timed_ms * 1e6) + "): " + bars;
    what += "; the traced run took " + time_text(double(l.duration)) + ", " + viz::fmt_num(ratio) + "x the timed run's " +
            time_text(in.timed_ms * 1e6) +
            (ratio > 1.05   ? ": the probes' cost"
             : ratio < 0.95 ? ": shorter, so the probes' cost is hidden in how one launch (first block's start to last "
                              "block's end) differs from the median of repeated timed launches"
                            : ": the probes cost no measurable time here");
  }
  // CTAs at once on an SM: each its own lane of the SM's row, or drawn over one another (lanes_fit).
  const std::string what_ctas = l.persistent() || l.split() ? "CTAs" : "blocks";
  if (l.lanes > 1)
    what += "; up to " + std::to_string(l.lanes) + " " + what_ctas + " ran on one SM at once" +
            (lanes_fit(l, r, fs) ? ": its row splits in " + std::to_string(l.lanes) + ", one lane each"
                       : ", drawn over one another (too many for a lane each at this size)");
  std::vector<std::string> lines = viz::wrap(c, what, fs, r.w());
  // The rows before the whole caption; cut to one line, the traced run's time stays (a deck at 200% had lost it).
  if (lines.size() > 1 && timeline_plot(c, r, fs, lines.size()).h() < l.sms * 0.75f)
    lines = {in.timed_ms > 0 && l.duration > 0 ? viz::paragraph_line(c, brief, what, true, fs, r.w())
                                               : viz::elide(c, what, fs, Font::Sans, r.w())};
  return lines;
}

// `lines`: its timeline_caption in `r`; `rows`: the plot starts under at least this many lines of caption (two
// timelines side by side start level).
void draw_timeline(Canvas& c, Rect r, const Theme& t, const SwizzleViewInput& in, const SwizzleViewState& st,
                   uint64_t span, uint64_t t_ns, float fs, Vec2 mouse, int which, SwizzleHover* hover,
                   const std::vector<std::string>& lines, size_t rows = 0) {
  const TracedLaunch& l = *in.launch;
  Rect plot = timeline_plot(c, r, fs, std::max(lines.size(), rows));
  if (plot.h() < l.sms * 0.75f) plot = timeline_plot(c, r, fs, lines.size());  // level only where that leaves room
  if (plot.h() < l.sms * 0.75f || plot.w() < 40 || span == 0) {  // no room for a row per SM: say so, not the caption
    if (span > 0)
      c.text(r.min, viz::elide(c, "the per-SM timeline needs more room (" + std::to_string(l.sms) + " rows): " + viz::maximise_hint(),
                               fs, Font::Sans, r.w()), t.text_dim, fs);
    return;
  }
  float y = r.min.y;
  for (const std::string& line : lines) {
    c.text({r.min.x, y}, viz::elide(c, line, fs, Font::Sans, r.w()), t.text_dim, fs);
    y += fs * 1.25f;
  }
  const float rh = plot.h() / l.sms;
  const int lanes = lanes_fit(l, r, fs) && rh / float(l.lanes) >= 1.0f ? l.lanes : 1;
  const float lh = rh / float(lanes);
  auto X = [&](uint64_t ns) { return plot.min.x + plot.w() * float(double(ns) / double(span)); };
  c.rect_filled(plot, t.panel);
  for (size_t i = 0; i < l.blocks.size(); ++i) {
    const BlockRecord& b = l.blocks[i];
    const int lane = lanes > 1 && i < l.lane.size() ? std::min(l.lane[i], lanes - 1) : 0;
    const float top = plot.min.y + b.smid * rh + lane * lh;
    const Rect bar{{X(b.start_ns - l.t0), top},
                   {std::max(X(b.end_ns - l.t0), X(b.start_ns - l.t0) + 1), top + lh - (lh > 3 ? 0.5f : 0)}};
    c.rect_filled(bar, block_color(b, l, st.colour, t));
    if (hover && bar.inset(-0.5f).contains(mouse)) hover->side = which, hover->block = int(i);
  }
  for (int sm = 0; sm < l.sms; sm += std::max(1, int(std::ceil(fs * 1.2f / rh)))) {
    c.text({plot.min.x - fs * 0.3f, plot.min.y + (sm + 0.5f) * rh - fs * 0.5f}, "SM " + std::to_string(sm), t.text_dim,
           fs, Align::Right);
  }
  // The axis in the captions' unit: ms from 10 ms (sgemm/01's 0 ... 250 ms, not 0 ... 250000 us).
  const bool in_ms = double(span) >= kMsFromNs;
  const double per_unit = in_ms ? 1e6 : 1e3;
  const char* unit = in_ms ? "ms" : "\xC2\xB5s";
  const viz::Ticks ticks = viz::nice_ticks(0, double(span) / per_unit, std::max(2, int(plot.w() / (fs * 5))));
  const float unit_w = c.text_size(unit, fs).x + fs * 0.5f;
  int drawn = 0;  // ticks past 0
  for (double v : ticks.values) {
    const float x = X(uint64_t(v * per_unit));
    const std::string label = viz::fmt_tick(v, ticks.step);
    if (x + c.text_size(label, fs).x * 0.5f > plot.max.x - unit_w) continue;  // the unit's place
    c.line({x, plot.max.y}, {x, plot.max.y + fs * 0.3f}, t.text_dim, 1);
    c.text({x, plot.max.y + fs * 0.35f}, label, t.text_dim, fs, Align::Center);
    drawn += v > 0;
  }
  // A narrow plot has room for no tick past 0 (a zoomed window drew "0 ... us" alone): its end says the run's length.
  const std::string end = time_text(double(span));
  const bool end_fits = c.text_size(end, fs).x + fs * 1.5f < plot.w();
  c.text({plot.max.x, plot.max.y + fs * 0.35f}, drawn == 0 && end_fits ? end : unit, t.text_dim, fs, Align::Right);
  if (t_ns < span) c.line({X(t_ns), plot.min.y - fs * 0.3f}, {X(t_ns), plot.max.y}, t.text, 2);
}

}  // namespace

Color ramp_color(float v, const Theme& t) {
  // Dark blue, blue, teal, green, yellow: ordered in lightness, so order reads in greyscale too.
  static const uint32_t kDark[5] = {0x3b4cc0, 0x2f7fd1, 0x21a6a0, 0x6cc24a, 0xf2d33c};
  static const uint32_t kLight[5] = {0x2c3a9a, 0x2a6fb8, 0x1b8f8a, 0x4fa235, 0xd6b41c};
  const uint32_t* k = t.dark ? kDark : kLight;
  v = std::clamp(std::isfinite(v) ? v : 0.0f, 0.0f, 1.0f) * 4;
  const int i = std::min(3, int(v));
  return viz::mix(Color::rgb(k[i]), Color::rgb(k[i + 1]), v - i);
}

void draw_swizzle_view(Canvas& c, Rect r, const Theme& t, const SwizzleViewInput& in, const SwizzleViewInput* other,
                       const SwizzleViewState& st, Vec2 mouse, SwizzleHover* hover) {
  if (hover) *hover = SwizzleHover{};
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 70.0f, r.h() / 40.0f), kMinTextSize, 17.0f);
  const Rect area = r.inset(std::max(6.0f, fs * 0.6f));
  bool has_other = other && other->launch && !other->launch->empty();
  // One time scale for both sides: the longer run's.
  uint64_t span = in.launch ? in.launch->duration : 0;
  if (has_other) span = std::max(span, other->launch->duration);
  const uint64_t t_ns = uint64_t(double(std::clamp(st.time, 0.0f, 1.0f)) * double(span));

  // What the colours say and the moment shown.
  const char* by = st.colour == SwizzleColour::Sm ? "colour: the SM that ran the block"
                   : st.colour == SwizzleColour::Start ? "colour: when the block started (early dark, late light)"
                                                       : "colour: launch order (first dark, last light)";
  // The whole run shows every block done in its full colour: the key to outlines and fading is for a moment within it.
  const std::string when = st.time >= 1 ? "the whole run"
                                        : "at " + time_text(double(t_ns)) + " of " + time_text(double(span)) +
                                              " \xC2\xB7 outlined: running \xC2\xB7 faded: done";
  viz::draw_spans(c, area.min, {{std::string(by) + " \xC2\xB7 " + when, t.text_dim, Font::Sans}}, fs, area.w());
  Rect body{{area.min.x, area.min.y + fs * 1.7f}, area.max};
  const bool timeline = st.timeline && in.launch && !in.launch->empty() && body.h() > fs * 24;
  Rect tl;
  if (timeline) {
    const float h = std::round(body.h() * 0.42f);
    tl = Rect{{body.min.x, body.max.y - h}, body.max};
    body.max.y = tl.min.y - fs * 0.8f;
  } else if (st.timeline && in.launch && !in.launch->empty() && body.h() > fs * 14) {  // not at the grids' cost
    // Asked for but no room: one line at the foot says so (the checkbox had seemed to do nothing).
    c.text({body.min.x, body.max.y - fs},
           viz::elide(c, "the per-SM timeline needs more room: " + viz::maximise_hint(), fs, Font::Sans, body.w()),
           t.text_dim, fs);
    body.max.y -= fs * 1.5f;
  }
  Side sides[2];
  sides[0].in = &in;
  sides[0].area = body;
  if (has_other) {
    const float mid = body.min.x + body.w() * 0.5f;
    sides[0].area.max.x = mid - fs;
    sides[1].in = other;
    sides[1].area = Rect{{mid + fs, body.min.y}, body.max};
    sides[0].shape = sides[1].shape = in.shape != other->shape;
  }
  // A short pane, where the grids with their lines would be smudges or not drawn at all (the whole window's pane
  // at 1920x1080 drew hopper/04's two 512-tile grids 50 pixels tall): the first arrangement whose grids are at least
  // six lines of text tall, of both grids with their lines, both without Nsight Compute's lines and the footprint
  // (hovering a tile still gives its numbers), both stacked with and without, the selected rung's alone with them,
  // alone without; where none is, the one with the tallest grid. Left alone, a line names the rung not shown.
  // Each option's dry run also gives the smaller scale of its sides (`px`), which both then take.
  MeasureCanvas dry(c);
  const auto grid_h = [&](const Side* s, int n, bool compact, float* px) {
    float h = 1e9f;
    *px = 1e9f;
    for (int i = 0; i < n; ++i) {
      Side probe = s[i];
      probe.compact = compact;
      const float hi = draw_side(dry, probe, t, st, t_ns, fs, mouse, 0, nullptr, true);
      h = std::min(h, hi);
      if (hi > 0 && hi < 1e8f) *px = std::min(*px, probe.px);
    }
    return h;
  };
  // Stacked, one side above the other: a wide C (512x4096, 4 tile rows of 32) drew two 97-pixel grids side by side,
  // too short, where stacked each has the pane's width.
  Side stacked[2];
  if (has_other) {
    stacked[0] = stacked[1] = sides[0];
    stacked[1].in = other;
    const float mid = body.min.y + body.h() * 0.5f;
    stacked[0].area = Rect{body.min, {body.max.x, mid - fs * 0.5f}};
    stacked[1].area = Rect{{body.min.x, mid + fs * 0.5f}, body.max};
  }
  Side alone;
  alone.in = &in;
  alone.area = Rect{{body.min.x, body.min.y + fs * 1.3f}, body.max};
  alone.shape = sides[0].shape;  // its speed was measured at another size than the other's: it says which
  struct Option {
    const Side* sides;
    int n;
    bool compact;
  };
  std::vector<Option> options = {{sides, has_other ? 2 : 1, false}, {sides, has_other ? 2 : 1, true}};
  if (has_other)
    for (const Side* arrangement : {&stacked[0], &alone})
      for (const bool compact : {false, true}) options.push_back({arrangement, arrangement == &alone ? 1 : 2, compact});
  size_t pick = 0;
  float best = -1, pick_px = 1e9f;
  for (size_t i = 0; i < options.size(); ++i) {
    float px = 1e9f;
    const float h = grid_h(options[i].sides, options[i].n, options[i].compact, &px);
    if (h >= fs * 6) {
      pick = i, pick_px = px;
      break;
    }
    if (h > best + 0.5f) best = h, pick = i, pick_px = px;
  }
  if (options[pick].sides == stacked) sides[0] = stacked[0], sides[1] = stacked[1];
  if (options[pick].sides == &alone) {
    const std::string beside = other->kernel + " beside it: " + viz::hint("maximise this view", "a larger picture shows it");
    c.text(body.min, viz::elide(c, beside, fs, Font::Sans, body.w()), t.text_dim, fs);
    sides[0] = alone;
    has_other = false;
  }
  sides[0].compact = sides[1].compact = options[pick].compact;
  // Both sides at one scale, the smaller side's, so that C's size compares (two 512-tile grids of one matrix were
  // drawn 215 and 175 pixels tall beside each other).
  if (has_other && pick_px < 1e8f) sides[0].px_max = sides[1].px_max = pick_px;
  // Side by side, both grids start at one height, under the taller heading (hopper/04's two lines of Nsight Compute
  // wrapped to four beside its variant's two, and its grid began two lines lower): then at the scale both still fit.
  if (has_other && options[pick].sides == sides) {
    float top = 0, px = 1e9f;
    for (const Side& s : sides) {
      Side probe = s;
      draw_side(dry, probe, t, st, t_ns, fs, mouse, 0, nullptr, true);
      top = std::max(top, probe.grid_y);
    }
    for (Side& s : sides) {
      s.grid_y = top;
      Side probe = s;
      const float h = draw_side(dry, probe, t, st, t_ns, fs, mouse, 0, nullptr, true);
      if (h > 0 && h < 1e8f) px = std::min(px, probe.px);
    }
    if (px < 1e8f) sides[0].px_max = sides[1].px_max = px;
  }
  for (int i = 0; i < (has_other ? 2 : 1); ++i) draw_side(c, sides[i], t, st, t_ns, fs, mouse, i, hover);
  if (timeline) {
    if (has_other) {  // each side's timeline under its own grid (left and right where stacked), on one time scale
      const float mid = body.min.x + body.w() * 0.5f;
      const Rect left{{body.min.x, tl.min.y}, {mid - fs, tl.max.y}}, right{{mid + fs, tl.min.y}, {body.max.x, tl.max.y}};
      const std::vector<std::string> lines[2] = {timeline_caption(c, left, in, fs), timeline_caption(c, right, *other, fs)};
      const size_t rows = std::max(lines[0].size(), lines[1].size());
      draw_timeline(c, left, t, in, st, span, t_ns, fs, mouse, 0, hover, lines[0], rows);
      draw_timeline(c, right, t, *other, st, span, t_ns, fs, mouse, 1, hover, lines[1], rows);
    } else {
      draw_timeline(c, tl, t, in, st, span, t_ns, fs, mouse, 0, hover, timeline_caption(c, tl, in, fs));
    }
  }
  c.pop_clip();
}

}  // namespace gs
