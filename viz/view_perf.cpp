// Performance view: one bar of TFLOP/s per kernel in ladder order, each against a tick at cuBLAS of the
// same dtype, with the ratio spelled out; beside the bars (wide areas) or below them, TFLOP/s series as
// lines, the cuBLAS reference dashed. Every text is at least kMinTextSize: rows that do not fit are left
// out around the selected one rather than shrunk.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/variant.h"
#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

using viz::Span;

std::string family(const std::string& kernel) { return kernel.substr(0, kernel.find('/')); }

// Bars of one family are named by their rung alone (the title names the family); a mixed set in full.
// A kernel measured in two dtypes (wmma f16.f32 and f16.f16) gets two bars: the label tells them apart.
std::string bar_label(const PerfBar& b, bool one_family, bool one_dtype) {
  const std::string k = one_family ? name_in_family(b.kernel) : b.kernel;
  return b.dtype.empty() || (one_family && one_dtype) ? k : k + "  " + b.dtype;
}

// The bar's label cut to max_w: where a dtype follows the name, the name gives way and the dtype stays, so that a
// rung's f16.f32 and f16.f16 bars never read alike ("09_pipel... f16.f16").
std::string fitted_bar_label(const Canvas& c, const PerfBar& b, bool one_family, bool one_dtype, float size, Font font,
                             float max_w) {
  const std::string full = bar_label(b, one_family, one_dtype);
  if (c.text_size(full, size, font).x <= max_w) return full;
  std::string k = one_family ? name_in_family(b.kernel) : b.kernel;
  // A variant cut to its rung's name would lose what tells it from its rung ("10_multistage[x..."): its toggles
  // stay and the rung's name gives way to its number ("10[xor=off]").
  const auto short_variant = [&](const std::string& name, float room) {
    const size_t open = name.find('['), under = name.find('_', name.find('/') + 1);
    if (open == std::string::npos || under == std::string::npos || under > open) return viz::elide(c, name, size, font, room);
    const std::string shorter = name.substr(0, under) + name.substr(open);
    return c.text_size(shorter, size, font).x <= room ? shorter : viz::elide(c, shorter, size, font, room);
  };
  if (full == k) return short_variant(k, max_w);
  const std::string tail = "  " + b.dtype;
  const float room = max_w - c.text_size(tail, size, font).x;
  if (room < size * 3) return viz::elide(c, full, size, font, max_w);
  return (c.text_size(k, size, font).x <= room ? k : short_variant(k, room)) + tail;
}

std::string percent(double ratio) { return viz::fmt_share(ratio); }  // as the kernel list writes it

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  return buf;
}

// Finite and within what a GPU can do: a value outside is drawn as 0 (a damaged capture never blows up the axis).
double sane(double v) { return std::isfinite(v) && v > 0 && v < 1e7 ? v : 0; }

// What follows a bar: "FAILED rel err ... · 12.3 TFLOP/s · 24% of cuBLAS", or where the bars are narrow
// only the share of cuBLAS (the kernel list and the tooltip give the rest).
std::vector<Span> value_spans(const PerfBar& b, const Theme& t, bool brief = false) {
  std::vector<Span> v;
  if (brief && b.ok && sane(b.cublas_tflops) > 0)
    return {{percent(sane(b.tflops) / sane(b.cublas_tflops)), t.text, Font::Sans}};
  if (!b.ok) {
    v.push_back({"FAILED", t.bad, Font::SansBold});
    v.push_back({" rel err " + sci(b.rel_err) + " \xC2\xB7 ", t.bad, Font::Sans});
  }
  v.push_back({viz::fmt_tflops(sane(b.tflops)) + " TFLOP/s", b.ok ? t.text : t.text_dim, Font::Sans});
  if (sane(b.cublas_tflops) > 0)
    v.push_back({" \xC2\xB7 " + percent(sane(b.tflops) / sane(b.cublas_tflops)) + " of cuBLAS", t.text_dim, Font::Sans});
  if (!b.shape.empty()) v.push_back({" at " + b.shape, t.warn, Font::Sans});
  return v;
}

// Legend entries for the key, drawn as a swatch (or a short tick) and the name.
void key_item(Canvas& c, Vec2& at, float size, Color swatch, bool tick, const std::string& label, const Theme& t) {
  const float cy = at.y + size * 0.5f;
  if (tick) {
    c.line({at.x, cy - size * 0.5f}, {at.x, cy + size * 0.5f}, swatch, 2.5f);
    at.x += size * 0.6f;
  } else {
    c.rect_filled({{at.x, cy - size * 0.35f}, {at.x + size * 1.2f, cy + size * 0.35f}}, swatch, 2);
    at.x += size * 1.6f;
  }
  c.text(at, label, t.text_dim, size);
  at.x += c.text_size(label, size).x + size * 1.2f;
}

// The key from `at`: bars, cuBLAS's ticks, and the colour of a failed bar only where one failed (a red swatch over a
// ladder that all passed read as a warning). Returns where it ends: on a MeasureCanvas, the key's width.
float draw_key(Canvas& c, Vec2 at, float size, const Theme& t, bool failed) {
  key_item(c, at, size, viz::mix(t.accent, t.bg, 0.3f), false, "TFLOP/s", t);
  key_item(c, at, size, t.text, true, "cuBLAS, same dtype", t);
  if (failed) key_item(c, at, size, t.bad, false, "failed verification", t);
  return at.x;
}

void draw_bars(Canvas& c, Rect area, const Theme& t, const PerfViewInput& in, float ts, Vec2 mouse, PerfHover* hover) {
  const auto& bars = in.bars;
  if (bars.empty()) {
    float y = area.center().y - ts;
    for (const std::string& line : viz::wrap(c, in.empty_note.empty() ? "No runs yet." : in.empty_note, ts, area.w())) {
      c.text({area.center().x, y}, line, t.text_dim, ts, Align::Center);
      y += ts * 1.3f;
    }
    return;
  }
  bool one_family = true, one_dtype = true;
  for (const PerfBar& b : bars) {
    one_family = one_family && family(b.kernel) == family(bars.front().kernel);
    one_dtype = one_dtype && b.dtype == bars.front().dtype;
  }
  // Rows: one per bar plus a third of a row between kernel families; as many as fit at readable size,
  // centred on the selected bar.
  const float axis_h = ts * 1.9f;
  const float rh = std::clamp((area.h() - axis_h) / (bars.size() + 0.35f * 3), ts * 1.3f, ts * 2.0f);
  size_t first = 0, count = bars.size();
  // The rows shown and the gaps between families, the axis under them and, where some rows are left out, the line
  // that says how many: all inside the area (in a short pane the line fell on the note under the bars).
  const auto height = [&](size_t from, size_t n) {
    float h = n * rh;
    for (size_t i = from + 1; i < from + n; ++i)
      if (family(bars[i].kernel) != family(bars[i - 1].kernel)) h += rh * 0.35f;
    return h + (n < bars.size() ? ts * 2.5f : axis_h);
  };
  if (height(0, count) > area.h() + 0.5f) {
    size_t sel = 0;
    for (size_t i = 0; i < bars.size(); ++i)
      if (bars[i].selected) sel = i;
    count = std::min(size_t(std::max(1.0f, (area.h() - ts * 2.5f) / rh)), bars.size());
    for (;;) {
      first = std::min(sel >= count / 2 ? sel - count / 2 : 0, bars.size() - count);
      if (count == 1 || height(first, count) <= area.h() + 0.5f) break;
      --count;
    }
  }
  const float bar_h = std::max(3.0f, rh * 0.6f);

  float label_w = 0, value_w = 0, brief_w = 0;
  for (size_t i = first; i < first + count; ++i) {
    const PerfBar& b = bars[i];
    label_w = std::max(label_w, c.text_size(bar_label(b, one_family, one_dtype), ts, b.selected ? Font::SansBold : Font::Sans).x);
    value_w = std::max(value_w, viz::spans_width(c, value_spans(b, t), ts));
    brief_w = std::max(brief_w, viz::spans_width(c, value_spans(b, t, true), ts));
  }
  // Bars get at least a third of the width: where the full numbers would squeeze them, the share alone.
  const bool brief = label_w + value_w + ts * 2 > area.w() * 0.67f;
  if (brief) value_w = brief_w;
  value_w = std::max(value_w, c.text_size("800 TFLOP/s", ts).x * 0.75f);  // room for the axis unit after the last tick
  value_w = std::min(value_w, area.w() * 0.36f);
  const float pad = ts * 0.6f;
  // The names take what the bars (a third of the width) and the numbers leave, at least a third: with the share
  // alone beside the bars, a small pane had cut "09_pipelined f16.f32" to "09_pipeli... f16.f32" beside empty room.
  label_w = std::min(label_w, std::max(area.w() * 0.34f, area.w() * 0.67f - value_w - 2 * pad));
  const float x0 = area.min.x + label_w + pad, x1 = std::max(x0 + 10, area.max.x - value_w - pad);
  double vmax = 0;
  for (const PerfBar& b : bars) vmax = std::max({vmax, sane(b.tflops), sane(b.cublas_tflops)});
  viz::Ticks ticks = viz::nice_ticks(0, vmax, std::max(2, int((x1 - x0) / (ts * 4.5f))));
  auto X = [&](double v) { return float(x0 + (x1 - x0) * std::clamp(v / ticks.max, 0.0, 1.0)); };

  std::vector<float> row_y(bars.size(), -1);
  float y = area.min.y;
  for (size_t i = first; i < first + count; ++i) {
    if (i > first && family(bars[i].kernel) != family(bars[i - 1].kernel)) y += rh * 0.35f;
    row_y[i] = y;
    y += rh;
  }
  const float grid_bottom = y;
  for (double v : ticks.values) {
    const float x = X(v);
    c.line({x, area.min.y}, {x, grid_bottom}, v == 0 ? t.text_dim : t.grid, 1);
    c.text({x, grid_bottom + ts * 0.25f}, viz::fmt_tick(v, ticks.step), t.text_dim, ts, Align::Center);
  }
  const std::string last = viz::fmt_tick(ticks.max, ticks.step);
  c.text({x1 + c.text_size(last, ts).x * 0.5f + ts * 0.4f, grid_bottom + ts * 0.25f}, "TFLOP/s", t.text_dim, ts);
  if (count < bars.size() && grid_bottom + ts * 2.45f <= area.max.y + 0.5f)  // not where even one row fills the area
    c.text({area.min.x, grid_bottom + ts * 1.45f},
           viz::elide(c, std::to_string(bars.size() - count) + (bars.size() - count == 1 ? " more rung: " : " more rungs: ") + viz::hint("zoom out, maximise or pick one to scroll", "a taller picture shows them"),
                      ts, Font::Sans, area.w()),
           t.text_dim, ts);

  for (size_t i = first; i < first + count; ++i) {
    const PerfBar& b = bars[i];
    const float top = row_y[i], cy = top + rh * 0.5f;
    const Rect row{{area.min.x, top}, {area.max.x, top + rh}};
    if (hover && row.contains(mouse)) hover->bar = int(i);
    if (b.selected) c.rect_filled({{area.min.x - pad * 0.5f, top}, {area.max.x, top + rh}}, t.panel, 3);
    const Font lf = b.selected ? Font::SansBold : Font::Sans;
    c.text({x0 - pad, cy - ts * 0.5f}, fitted_bar_label(c, b, one_family, one_dtype, ts, lf, label_w), b.ok ? t.text : t.bad,
           ts, Align::Right, lf);
    const Color fill = !b.ok ? t.bad : b.selected ? t.accent : viz::mix(t.accent, t.bg, 0.3f);
    const Rect bar{{x0, cy - bar_h * 0.5f}, {std::max(x0 + 1.0f, X(sane(b.tflops))), cy + bar_h * 0.5f}};
    c.rect_filled(bar, fill, std::min(3.0f, bar_h * 0.2f));
    if (!b.ok) {  // hatch failed bars so they read as failed in greyscale too
      c.push_clip(bar);
      for (float hx = bar.min.x - bar_h; hx < bar.max.x; hx += bar_h * 0.7f)
        c.line({hx, bar.max.y}, {hx + bar_h, bar.min.y}, t.bg.with_alpha(120), 1.5f);
      c.pop_clip();
    }
    if (b.selected) c.rect(bar, t.text, 1.5f, std::min(3.0f, bar_h * 0.2f));
    // The numbers sit right after the bar, or after the cuBLAS tick where the tick would cross them.
    auto spans = value_spans(b, t, brief);
    float end = bar.max.x;
    const float text_w = viz::spans_width(c, spans, ts);
    if (sane(b.cublas_tflops) > 0) {
      const float mx = X(sane(b.cublas_tflops));
      c.line({mx, top + rh * 0.08f}, {mx, top + rh * 0.92f}, t.text, 2);
      if (mx >= end - 1 && mx <= end + pad * 3 + text_w) end = mx + 1;
    }
    // Where the numbers do not fit after the bar, the share goes inside its end (bars near cuBLAS, narrow panes).
    const float share_w = viz::spans_width(c, value_spans(b, t, true), ts);
    if (text_w > area.max.x - end - pad && share_w + pad * 2 <= bar.w()) {
      c.text({bar.max.x - pad * 0.5f, cy - ts * 0.5f}, value_spans(b, t, true).front().text, text_on(fill), ts,
             Align::Right);
      continue;
    }
    viz::draw_spans(c, {end + pad, cy - ts * 0.5f}, spans, ts, area.max.x - end - pad);
  }
}

void draw_series(Canvas& c, Rect area, const Theme& t, const PerfViewInput& in, float fs, float ts, Vec2 mouse,
                 PerfHover* hover) {
  c.text(area.min,
         viz::elide(c,
                    (in.series_y_unit.empty() ? std::string("TFLOP/s") : in.series_y_unit) + " over " +
                        (in.series_x_label.empty() ? std::string("time") : in.series_x_label) +
                        (in.series_size_note.empty() ? "" : ", " + in.series_size_note),
                    fs, Font::SansBold, area.w()),
         t.text, fs, Align::Left, Font::SansBold);
  area.min.y += fs * 1.5f;

  // Legend column on the right where the area is wide, else rows under the plot: a row per series, one for series
  // that share a label and a colour (a kernel's stretches before and after another ran, live).
  std::vector<size_t> rows;
  for (size_t i = 0; i < in.series.size(); ++i) {
    const PerfSeries& s = in.series[i];
    const bool again = std::any_of(rows.begin(), rows.end(), [&](size_t j) {
      const PerfSeries& o = in.series[j];
      return o.label == s.label && o.colour >= 0 && o.colour == s.colour && o.dash == s.dash && !o.reference;
    });
    if (!again) rows.push_back(i);
  }
  float legend_w = 0;
  for (const PerfSeries& s : in.series)
    legend_w = std::max(legend_w, c.text_size(s.label, ts, s.selected ? Font::SansBold : Font::Sans).x);
  legend_w += ts * 2.4f;
  const bool legend_right = legend_w <= area.w() * 0.4f;
  const float lh = ts * 1.3f;
  int legend_cols = 1;
  float legend_h = 0;
  if (!legend_right) {
    legend_w = std::min(legend_w, area.w());
    legend_cols = std::max(1, int(area.w() / legend_w));
    // Rows under the plot taller than the plot itself (a live session's toggles, each a long name, in a short
    // pane: 50 px of curves over 5 rows): two columns, the names cut at their ends (a variant's toggle comes early).
    if (legend_cols == 1 && rows.size() > 2 && area.w() >= ts * 30 &&
        area.h() - ts * 3.2f - 2 * lh * rows.size() < lh * rows.size())
      legend_cols = 2;
    legend_w = area.w() / legend_cols;
    legend_h = lh * ((rows.size() + legend_cols - 1) / legend_cols) + ts * 0.3f;
  }

  // Sizes span 256..8192: on a log2 axis each doubling gets the same width.
  const bool log_x = in.series_log2_x;
  auto fx = [&](double x) { return log_x ? std::log2(std::max(x, 1e-9)) : x; };
  double xmin = 1e300, xmax = -1e300, ymax = 0;
  for (const PerfSeries& s : in.series)
    for (const Vec2& p : s.points) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      xmin = std::min(xmin, fx(p.x));
      xmax = std::max(xmax, fx(p.x));
      ymax = std::max(ymax, sane(p.y));
    }
  if (xmin > xmax) xmin = 0, xmax = 1;
  if (!in.baseline_label.empty()) ymax = std::max(ymax, sane(float(in.baseline_tflops)));
  Rect plot{{area.min.x, area.min.y + ts * 0.5f},
            {area.max.x - (legend_right ? legend_w + ts : 0), area.max.y - ts * 2.7f - legend_h}};
  if (plot.h() < ts * 3 || plot.w() < ts * 6) {  // the legend leaves no room for the curves: say so under the heading
    c.text(area.min, viz::elide(c, "no room for the curves beside their " + std::to_string(rows.size()) +
                                       " legend rows: " + viz::hint("maximise this view (M)", "a larger picture shows them"), ts, Font::Sans, area.w()),
           t.text_dim, ts);
    return;
  }
  viz::Ticks yt = viz::nice_ticks(0, ymax, std::clamp(int(plot.h() / (ts * 2.2f)), 2, 8));
  std::string widest;
  for (double v : yt.values) {
    std::string l = viz::fmt_tick(v, yt.step);
    if (l.size() > widest.size()) widest = l;
  }
  plot.min.x += c.text_size(widest, ts).x + ts * 0.6f;
  // The x axis spans the data exactly (a live series should not float away from the right edge).
  viz::Ticks xt = viz::nice_ticks(xmin, xmax, std::max(2, int(plot.w() / (ts * 5))));
  if (log_x) {  // ticks at whole powers of two, labelled with the size itself; every other one where crowded
    xt.values.clear();
    const int every = plot.w() / std::max(1.0, xmax - xmin) < ts * 3.2f ? 2 : 1;
    for (double e = std::ceil(xmin - 1e-9); e <= xmax + 1e-9; e += every) xt.values.push_back(e);
    xt.step = 1;
  }
  const double x_lo = xmin, x_hi = xmax > xmin ? xmax : xmin + 1;
  auto P = [&](Vec2 p) {
    return Vec2{float(plot.min.x + plot.w() * (fx(p.x) - x_lo) / (x_hi - x_lo)),
                float(plot.max.y - plot.h() * std::clamp(sane(p.y) / yt.max, 0.0, 1.0))};
  };
  for (double v : yt.values) {
    const float y = P({float(x_lo), float(v)}).y;
    c.line({plot.min.x, y}, {plot.max.x, y}, v == 0 ? t.text_dim : t.grid, 1);
    c.text({plot.min.x - ts * 0.4f, y - ts * 0.5f}, viz::fmt_tick(v, yt.step), t.text_dim, ts, Align::Right);
  }
  for (double v : xt.values) {
    if (v < x_lo - 1e-9 * (x_hi - x_lo) || v > x_hi + 1e-9 * (x_hi - x_lo)) continue;
    const float x = float(plot.min.x + plot.w() * (v - x_lo) / (x_hi - x_lo));
    c.line({x, plot.max.y}, {x, plot.max.y + ts * 0.3f}, t.text_dim, 1);
    const std::string label = log_x ? std::to_string(int(std::lround(std::exp2(v)))) : viz::fmt_tick(v, xt.step);
    // The last tick sits on the plot's right edge, which ends the pane where the legend is below: its label ends
    // there rather than half past it ("8192" drawn as "819" at 150% zoom).
    const float half = c.text_size(label, ts).x * 0.5f;
    if (x + half > area.max.x)
      c.text({area.max.x, plot.max.y + ts * 0.4f}, label, t.text_dim, ts, Align::Right);
    else
      c.text({x, plot.max.y + ts * 0.4f}, label, t.text_dim, ts, Align::Center);
  }
  c.text({plot.max.x, plot.max.y + ts * 1.45f}, in.series_x_label, t.text_dim, ts, Align::Right);

  // Colours: the rungs in order, the references apart; the pointer's nearest point within reach.
  bool any_selected = false;
  for (const PerfSeries& s : in.series) any_selected |= s.selected;
  std::vector<Color> colour(in.series.size());
  // The palette's second eight repeat its hues, lighter: those series mark their points with diamonds, in the
  // legend too, so that 04 and 12 of a ladder (one pink, one light pink) differ in shape as well.
  std::vector<bool> diamond(in.series.size(), false);
  size_t next = 0;
  for (size_t i = 0; i < in.series.size(); ++i) {
    const PerfSeries& s = in.series[i];
    const size_t k = s.reference ? 0 : s.colour >= 0 ? size_t(s.colour) : next++;
    colour[i] = s.reference ? t.text : series_color(k, t);
    diamond[i] = !s.reference && s.dash == 0 && k % 16 >= 8;
  }
  auto mark = [&](Vec2 p, float rad, bool dia, Color col) {
    if (dia) {
      const float d = rad * 1.35f;  // a diamond of about a circle's area
      c.polygon_filled({{p.x, p.y - d}, {p.x + d, p.y}, {p.x, p.y + d}, {p.x - d, p.y}}, col);
    } else {
      c.circle_filled(p, rad, col);
    }
  };
  // A series' own dash pattern (another GPU's run of the same rung): dash and gap in text sizes.
  auto dashed = [&](const std::vector<Vec2>& pts, int dash, Color col, float width) {
    static const float kDash[3][2] = {{0.9f, 0.35f}, {0.25f, 0.3f}, {1.6f, 0.45f}};
    const float* d = kDash[std::min(dash, 3) - 1];
    viz::dashed_polyline(c, pts, col, width, ts * d[0], ts * d[1]);
  };
  float best = ts * 1.2f;
  if (hover && plot.inset(-ts).contains(mouse))
    for (size_t i = 0; i < in.series.size(); ++i)
      for (size_t j = 0; j < in.series[i].points.size(); ++j) {
        const Vec2 d = P(in.series[i].points[j]) - mouse;
        const float dist = std::sqrt(d.x * d.x + d.y * d.y);
        if (dist < best) best = dist, hover->series = int(i), hover->point = int(j);
      }
  c.push_clip(plot.inset(-4));
  // Toggles: a vertical line where the series changed kernel, labelled at the top with what runs after it. A label
  // whole goes on the first of two rows where the labels before it have ended ("[order=none]" ten seconds before
  // "its own": the second row); where neither row is free it is cut to its marker's interval on the first.
  float row_end[2] = {-1e30f, -1e30f};
  for (size_t i = 0; i < in.markers.size(); ++i) {
    const float x = P({in.markers[i].x, 0}).x;
    if (x < plot.min.x - 1 || x > plot.max.x + 1) continue;
    viz::dashed_polyline(c, {{x, plot.min.y}, {x, plot.max.y}}, t.accent, 1.5f, ts * 0.4f, ts * 0.3f);
    const float next_x = i + 1 < in.markers.size() ? P({in.markers[i + 1].x, 0}).x : plot.max.x;
    const float lx = x + ts * 0.3f, w = c.text_size(in.markers[i].label, ts).x;
    const bool whole = lx + w <= plot.max.x;
    const int row = whole && lx >= row_end[0] ? 0 : whole && lx >= row_end[1] ? 1 : -1;
    const std::string label =
        row >= 0 ? in.markers[i].label
                 : viz::elide(c, in.markers[i].label, ts, Font::Sans, std::max(next_x - x - ts * 0.6f, ts * 3));
    const int r = std::max(row, 0);
    row_end[r] = lx + c.text_size(label, ts).x + ts * 0.5f;
    c.text({lx, plot.min.y + ts * 0.2f + float(r) * ts * 1.25f}, label, t.accent, ts);
  }
  // The pinned baseline: flat at its TFLOP/s, under the series.
  if (!in.baseline_label.empty() && in.baseline_tflops > 0) {
    const float y = P({float(x_lo), float(in.baseline_tflops)}).y;
    viz::dashed_polyline(c, {{plot.min.x, y}, {plot.max.x, y}}, t.good, 2, ts * 0.8f, ts * 0.4f);
    c.text({plot.max.x - ts * 0.3f, y - ts * 1.3f},
           viz::elide(c, "baseline: " + in.baseline_label + " " + viz::fmt_num(in.baseline_tflops) + " TFLOP/s", ts,
                      Font::Sans, plot.w() * 0.6f),
           t.good, ts, Align::Right);
  }
  // References first (under), then the unselected rungs, the selected one on top.
  for (int pass = 0; pass < 3; ++pass)
    for (size_t i = 0; i < in.series.size(); ++i) {
      const PerfSeries& s = in.series[i];
      if ((pass == 0) != s.reference || (pass == 2) != s.selected) continue;
      Color col = colour[i];
      if (any_selected && !s.selected && !s.reference) col = viz::mix(col, t.bg, 0.35f);
      std::vector<Vec2> pts;
      for (const Vec2& p : s.points) pts.push_back(P(p));
      if (s.reference) viz::dashed_polyline(c, pts, col, 2.5f, ts * 0.6f, ts * 0.35f);
      else if (s.dash > 0) dashed(pts, s.dash, col, s.selected ? 3.5f : 2.2f);
      else c.polyline(pts, col, s.selected ? 3.5f : 1.8f);
      if (pts.size() <= 24)
        for (const Vec2& p : pts) {
          const float rad = s.selected ? 4.0f : 2.8f;
          if (s.dash > 0) c.rect_filled({{p.x - rad, p.y - rad}, {p.x + rad, p.y + rad}}, col);
          else mark(p, rad, diamond[i], col);
        }
    }
  if (hover && hover->series >= 0) {
    const Vec2 p = P(in.series[hover->series].points[hover->point]);
    mark(p, 6, diamond[size_t(hover->series)], t.text);
    mark(p, 4, diamond[size_t(hover->series)], colour[hover->series]);
  }
  c.pop_clip();

  // Legend: right of the plot, or in columns under it.
  const float lx0 = legend_right ? plot.max.x + ts : area.min.x;
  float ly0 = legend_right ? plot.min.y : plot.max.y + ts * 2.7f;
  // A column right of the plot may be shorter than its rows (a ladder of 13 rungs in a short pane): the selected
  // rung's and the references' rows stay, then the others in order, and the last line counts the rest (the first
  // rows alone had left out the selected rung).
  // The column ends level with the plot: the x axis's last number reaches under it.
  const float legend_bottom = legend_right ? plot.max.y + ts * 0.3f : area.max.y;
  size_t more = 0;
  if (legend_right) {
    const size_t fit = size_t(std::max(0.0f, (legend_bottom + 0.5f - ts - ly0) / lh)) + 1;
    if (fit < rows.size()) {
      std::vector<size_t> kept = rows;  // the selected and the references first, each part in order
      std::stable_partition(kept.begin(), kept.end(),
                            [&](size_t i) { return in.series[i].selected || in.series[i].reference; });
      kept.resize(fit - 1);
      std::sort(kept.begin(), kept.end());  // back in the legend's order (rows ascend)
      more = rows.size() - kept.size();
      rows = kept;
    }
  }
  for (size_t row = 0; row < rows.size(); ++row) {
    const size_t i = rows[row];
    const int col_i = legend_right ? 0 : int(row % legend_cols);
    const float lx = lx0 + col_i * legend_w, ly = ly0 + lh * (legend_right ? row : row / legend_cols);
    if (ly + ts > legend_bottom + 0.5f) break;
    const PerfSeries& s = in.series[i];
    Color col = colour[i];
    if (any_selected && !s.selected && !s.reference) col = viz::mix(col, t.bg, 0.35f);
    if (s.reference) viz::dashed_polyline(c, {{lx, ly + ts * 0.55f}, {lx + ts * 1.6f, ly + ts * 0.55f}}, col, 2.5f, ts * 0.5f, ts * 0.3f);
    else if (s.dash > 0) dashed({{lx, ly + ts * 0.55f}, {lx + ts * 1.6f, ly + ts * 0.55f}}, s.dash, col, 2.2f);
    else c.line({lx, ly + ts * 0.55f}, {lx + ts * 1.6f, ly + ts * 0.55f}, col, s.selected ? 3.5f : 2);
    if (!s.reference && s.dash == 0) mark({lx + ts * 0.8f, ly + ts * 0.55f}, s.selected ? 4.0f : 3.2f, diamond[i], col);
    const Font f = s.selected || s.reference ? Font::SansBold : Font::Sans;
    // Half a pixel of slack: legend_w is the widest label plus 2.4 text sizes, and taking those off again in float
    // can leave the widest label a hair too wide for itself ("08_multistage[pad=o..." in the PNG).
    c.text({lx + ts * 2.1f, ly}, viz::elide(c, s.label, ts, f, legend_w - ts * 2.4f + 0.5f),
           s.selected || s.reference ? t.text : t.text_dim, ts, Align::Left, f);
  }
  if (more > 0)
    c.text({lx0, ly0 + lh * rows.size()},
           viz::elide(c, "+" + std::to_string(more) + " more: " + viz::hint("hover a curve", "a taller picture names them"),
                      ts, Font::Sans, area.max.x - lx0),
           t.text_dim, ts);
}

}  // namespace

void draw_perf_view(Canvas& c, Rect r, const Theme& t, const PerfViewInput& in, Vec2 mouse, PerfHover* hover) {
  if (hover) *hover = PerfHover{};
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 60.0f, r.h() / 34.0f), kMinTextSize, 18.0f);
  const float ts = std::max(kMinTextSize, fs * 0.9f);
  Rect area = r.inset(std::max(6.0f, fs * 0.7f));

  // Title, key and device: what, at what size, on what.
  const float title_size = fs * 1.15f;
  std::vector<Span> title{{in.title.empty() ? std::string("Throughput") : in.title, t.text, Font::SansBold}};
  if (!in.shape_label.empty()) {
    // "4096x4096x4096" reads as a product with multiplication signs.
    std::string shape;
    const bool dims = in.shape_label.find_first_not_of("0123456789x") == std::string::npos;
    for (char ch : in.shape_label) shape += dims && ch == 'x' ? std::string("\xC3\x97") : std::string(1, ch);
    title.push_back({"   M\xC3\x97N\xC3\x97K = " + shape, t.text, Font::Sans});
  }
  // No bars and nothing to say about them (a plot of series alone): the series take the whole area, without the bars' key.
  const bool series_only = in.bars.empty() && in.empty_note.empty() && !in.series.empty();
  const bool failed = std::any_of(in.bars.begin(), in.bars.end(), [](const PerfBar& b) { return !b.ok; });
  MeasureCanvas measure(c);
  const float key_w = series_only ? 0 : draw_key(measure, {0, 0}, ts, t, failed);
  const bool key_on_title = viz::spans_width(c, title, title_size) + key_w + fs * 2 <= area.w();
  viz::draw_spans(c, area.min, title, title_size, area.w());
  Vec2 at{key_on_title ? area.max.x - key_w : area.min.x, area.min.y + (title_size - ts) * 0.5f};
  area.min.y += title_size * 1.35f;
  if (!in.device_label.empty()) {
    c.text(area.min, viz::elide(c, in.device_label, ts, Font::Sans, area.w()), t.text_dim, ts);
    area.min.y += ts * 1.35f;
  }
  if (!key_on_title) at.y = area.min.y, area.min.y += ts * 1.5f;
  if (!series_only && (key_on_title || key_w <= area.w())) draw_key(c, at, ts, t, failed);
  area.min.y += fs * 0.5f;

  // Bars and curves side by side where the area is wide, stacked where it is tall; where it is neither
  // the bars alone, with a line saying where the curves are.
  Rect bars = area, plot = area;
  bool series = !in.series.empty();
  if (series_only) {
    draw_series(c, area, t, in, fs, ts, mouse, hover);
    c.pop_clip();
    return;
  }
  const float bars_h = in.bars.size() * ts * 1.45f + ts * 2.5f, plot_min_h = ts * 14, side_min_w = ts * 30;
  if (series && area.w() >= 2 * side_min_w && area.w() > area.h() * 1.5f) {
    bars.max.x = area.min.x + area.w() * 0.5f;
    plot.min.x = bars.max.x + fs * 1.5f;
  } else if (series && area.h() >= std::min(bars_h, area.h() * 0.6f) + plot_min_h) {
    const float plot_h = std::clamp(area.h() - bars_h, plot_min_h, area.h() * 0.6f);
    bars.max.y = area.max.y - plot_h;
    plot.min.y = bars.max.y + fs * 0.8f;
  } else if (series) {
    series = false;
    bars.max.y -= ts * 1.6f;
    c.text({area.min.x, area.max.y - ts * 1.2f},
           viz::elide(c, "TFLOP/s over " + in.series_x_label + ": " +
                             viz::hint("maximise this view (M) to see the curves", "a larger picture shows the curves"),
                         ts,
                      Font::Sans, area.w()),
           t.text_dim, ts);
  }
  draw_bars(c, bars, t, in, ts, mouse, hover);
  if (series) draw_series(c, plot, t, in, fs, ts, mouse, hover);
  c.pop_clip();
}

std::string baseline_ratio(double tflops, double baseline_tflops) {
  if (!(baseline_tflops > 0) || !(tflops > 0) || !std::isfinite(tflops) || !std::isfinite(baseline_tflops)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2fx the baseline", tflops / baseline_tflops);
  return buf;
}


namespace {

// A CSV field: quoted where it holds a comma, a quote or a line break (RFC 4180), its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string csv_num(double v) {
  if (!std::isfinite(v)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string perf_csv(const PerfViewInput& in) {
  // kernel: the full name (a series' legend may say "01_naive" or "sgemm/11 · H100"; the line column keeps what the
  // legend says, in ASCII: a spreadsheet that takes the file for Latin-1 garbles a middle dot).
  std::string out = "plot,kernel,dtype,x,tflops,cublas_tflops,ratio,verified,line\n";
  for (const PerfBar& b : in.bars)
    out += "bars," + csv_field(b.kernel) + "," + csv_field(b.dtype) + "," + csv_field(b.shape.empty() ? in.shape_label : b.shape) + "," +
           csv_num(b.tflops) + "," + csv_num(b.cublas_tflops) + "," +
           (b.cublas_tflops > 0 ? csv_num(b.tflops / b.cublas_tflops) : std::string()) + "," + (b.ok ? "yes" : "no") +
           ",\n";
  const std::string x_unit = in.series_x_label.empty() ? "x" : in.series_x_label;
  // y in the column of its unit: TFLOP/s as tflops, a share of cuBLAS as ratio (a fraction, as the bars' ratio).
  const bool share = in.series_y_unit == kShareOfCublas;
  for (const PerfSeries& s : in.series) {
    std::string line = s.label;
    for (size_t at; (at = line.find(" \xC2\xB7 ")) != std::string::npos;) line.replace(at, 4, ", ");
    const std::string kernel = s.kernel.empty() ? line : s.kernel;
    for (const Vec2& p : s.points)
      out += csv_field("series: " + x_unit) + "," + csv_field(kernel) + "," + csv_field(s.dtype) + "," + csv_num(p.x) +
             "," + (share ? ",," + csv_num(p.y / 100.0) : csv_num(p.y) + ",,") + ",," + csv_field(line) + "\n";
  }
  return out;
}

}  // namespace gs
