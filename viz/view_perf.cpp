// Performance view: one bar of TFLOP/s per kernel in ladder order, each against a tick at cuBLAS
// of the same dtype, with the ratio spelled out; below, TFLOP/s series as lines.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

using viz::Span;

std::string family(const std::string& kernel) { return kernel.substr(0, kernel.find('/')); }
// A kernel measured in two dtypes (wmma f16.f32 and f16.f16) gets two bars: the label tells them apart.
std::string bar_label(const PerfBar& b) { return b.dtype.empty() ? b.kernel : b.kernel + "  " + b.dtype; }

std::string percent(double ratio) {
  char buf[32];
  double p = ratio * 100;
  std::snprintf(buf, sizeof buf, p >= 9.95 ? "%.0f%%" : "%.1f%%", p);
  return buf;
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  return buf;
}

std::vector<Span> value_spans(const PerfBar& b, const Theme& t) {
  std::vector<Span> v;
  if (!b.ok) {
    v.push_back({"FAILED", t.bad, Font::SansBold});
    v.push_back({" rel err " + sci(b.rel_err) + " \xC2\xB7 ", t.bad, Font::Sans});
  }
  v.push_back({viz::fmt_num(b.tflops) + " TFLOP/s", b.ok ? t.text : t.text_dim, Font::Sans});
  if (b.cublas_tflops > 0)
    v.push_back({" \xC2\xB7 " + percent(b.tflops / b.cublas_tflops) + " of cuBLAS", t.text_dim, Font::Sans});
  return v;
}

// Series colours: one lane hue family each, ordered so neighbours in the legend contrast.
Color series_color(size_t i, const Theme& t) {
  static const int kQuad[8] = {5, 1, 3, 7, 0, 4, 2, 6};
  return lane_color(4 * kQuad[i % 8] + (t.dark ? 1 : 2), t);
}

// Legend entries for the series key, drawn as a short thick line and the name.
void key_item(Canvas& c, Vec2& at, float size, Color swatch, bool line, const std::string& label,
              const Theme& t) {
  float cy = at.y + size * 0.5f;
  if (line) {
    c.line({at.x, cy - size * 0.55f}, {at.x, cy + size * 0.55f}, swatch, 2.5f);
    at.x += size * 0.6f;
  } else {
    c.rect_filled({{at.x, cy - size * 0.4f}, {at.x + size * 1.2f, cy + size * 0.4f}}, swatch, 2);
    at.x += size * 1.6f;
  }
  c.text(at, label, t.text_dim, size);
  at.x += c.text_size(label, size).x + size * 1.4f;
}

void draw_bars(Canvas& c, Rect area, const Theme& t, const PerfViewInput& in, float fs) {
  const auto& bars = in.bars;
  if (bars.empty()) {
    c.text({area.center().x, area.center().y - fs * 0.5f}, "No runs yet.", t.text_dim, fs, Align::Center);
    return;
  }
  // Rows: one per bar plus a third of a row between kernel families.
  int families = 1;
  for (size_t i = 1; i < bars.size(); ++i) families += family(bars[i].kernel) != family(bars[i - 1].kernel);
  const float axis_h = fs * 2.0f;
  float units = bars.size() + 0.35f * (families - 1);
  float rh = std::min((area.h() - axis_h) / units, fs * 2.3f);
  // Row text: 60% of a row, not below 7 px unless rows are so thin that 7 px would collide.
  float ts = std::clamp(rh * 0.6f, std::min(7.0f, rh * 0.85f), fs);
  float bar_h = std::max(2.0f, rh * 0.62f);

  float label_w = 0, value_w = 0;
  for (const PerfBar& b : bars) {
    label_w = std::max(label_w, c.text_size(bar_label(b), ts, b.selected ? Font::SansBold : Font::Sans).x);
    value_w = std::max(value_w, viz::spans_width(c, value_spans(b, t), ts));
  }
  label_w = std::min(label_w, area.w() * 0.3f);
  value_w = std::min(value_w, area.w() * 0.36f);
  const float pad = ts * 0.7f;
  const float x0 = area.min.x + label_w + pad, x1 = area.max.x - value_w - pad;
  double vmax = 0;
  for (const PerfBar& b : bars) vmax = std::max({vmax, b.tflops, b.cublas_tflops});
  viz::Ticks ticks = viz::nice_ticks(0, vmax, std::max(2, int((x1 - x0) / (fs * 5.5f))));
  auto X = [&](double v) { return float(x0 + (x1 - x0) * std::clamp(v / ticks.max, 0.0, 1.0)); };

  // Rows' vertical positions first: the grid spans exactly the rows.
  std::vector<float> row_y;
  float y = area.min.y;
  for (size_t i = 0; i < bars.size(); ++i) {
    if (i > 0 && family(bars[i].kernel) != family(bars[i - 1].kernel)) y += rh * 0.35f;
    row_y.push_back(y);
    y += rh;
  }
  const float grid_bottom = y;
  for (double v : ticks.values) {
    float x = X(v);
    c.line({x, area.min.y}, {x, grid_bottom}, v == 0 ? t.text_dim : t.grid, 1);
    c.text({x, grid_bottom + fs * 0.35f}, viz::fmt_tick(v, ticks.step), t.text_dim, fs * 0.85f,
           Align::Center);
  }
  std::string last = viz::fmt_tick(ticks.max, ticks.step);
  c.text({x1 + c.text_size(last, fs * 0.85f).x * 0.5f + fs * 0.4f, grid_bottom + fs * 0.35f}, "TFLOP/s",
         t.text_dim, fs * 0.85f);

  for (size_t i = 0; i < bars.size(); ++i) {
    const PerfBar& b = bars[i];
    const float top = row_y[i], cy = top + rh * 0.5f;
    if (b.selected) c.rect_filled({{area.min.x - pad * 0.5f, top}, {area.max.x, top + rh}}, t.panel, 3);
    Font lf = b.selected ? Font::SansBold : Font::Sans;
    c.text({x0 - pad, cy - ts * 0.5f}, viz::elide(c, bar_label(b), ts, lf, label_w), b.ok ? t.text : t.bad, ts,
           Align::Right, lf);
    Color fill = !b.ok ? t.bad : b.selected ? t.accent : viz::mix(t.accent, t.bg, 0.25f);
    Rect bar{{x0, cy - bar_h * 0.5f}, {std::max(x0 + 1.0f, X(b.tflops)), cy + bar_h * 0.5f}};
    c.rect_filled(bar, fill, std::min(3.0f, bar_h * 0.2f));
    if (!b.ok) {  // hatch failed bars so they read as failed in greyscale too
      c.push_clip(bar);
      for (float hx = bar.min.x - bar_h; hx < bar.max.x; hx += bar_h * 0.7f)
        c.line({hx, bar.max.y}, {hx + bar_h, bar.min.y}, t.bg.with_alpha(120), 1.5f);
      c.pop_clip();
    }
    if (b.selected) c.rect(bar, t.text, 1.5f, std::min(3.0f, bar_h * 0.2f));
    // The numbers sit right after the bar, or after the cuBLAS tick where the tick would cross them.
    auto spans = value_spans(b, t);
    float end = bar.max.x, text_w = viz::spans_width(c, spans, ts);
    if (b.cublas_tflops > 0) {
      float mx = X(b.cublas_tflops);
      c.line({mx, top + rh * 0.08f}, {mx, top + rh * 0.92f}, t.text, 2);
      if (mx >= end - 1 && mx <= end + pad * 3 + text_w) end = mx + 1;
    }
    viz::draw_spans(c, {end + pad, cy - ts * 0.5f}, spans, ts, area.max.x - end - pad);
  }
}

void draw_series(Canvas& c, Rect area, const Theme& t, const PerfViewInput& in, float fs) {
  const float ts = fs * 0.85f;
  c.text(area.min, "TFLOP/s over " + (in.series_x_label.empty() ? std::string("time") : in.series_x_label),
         t.text, fs, Align::Left, Font::SansBold);
  area.min.y += fs * 1.6f;

  // Legend column on the right, as wide as the longest name allows.
  float legend_w = 0;
  for (const PerfSeries& s : in.series)
    legend_w = std::max(legend_w, c.text_size(s.label, ts, s.selected ? Font::SansBold : Font::Sans).x);
  legend_w = std::min(legend_w + ts * 2.6f, area.w() * 0.3f);

  // Sizes span 256..8192: on a log2 axis each doubling gets the same width.
  const bool log_x = in.series_log2_x;
  auto fx = [&](double x) { return log_x ? std::log2(std::max(x, 1e-9)) : x; };
  double xmin = 1e300, xmax = -1e300, ymax = 0;
  for (const PerfSeries& s : in.series)
    for (const Vec2& p : s.points) {
      xmin = std::min(xmin, fx(p.x));
      xmax = std::max(xmax, fx(p.x));
      ymax = std::max(ymax, double(p.y));
    }
  if (xmin > xmax) xmin = 0, xmax = 1;
  Rect plot{{area.min.x, area.min.y + ts * 0.5f}, {area.max.x - legend_w - fs, area.max.y - ts * 2.9f}};
  viz::Ticks yt = viz::nice_ticks(0, ymax, std::clamp(int(plot.h() / (ts * 2.4f)), 2, 8));
  std::string widest;
  for (double v : yt.values) {
    std::string l = viz::fmt_tick(v, yt.step);
    if (l.size() > widest.size()) widest = l;
  }
  plot.min.x += c.text_size(widest, ts).x + ts * 0.6f;
  // The x axis spans the data exactly (a live series should not float away from the right edge).
  viz::Ticks xt = viz::nice_ticks(xmin, xmax, std::max(2, int(plot.w() / (ts * 6))));
  if (log_x) {  // ticks at whole powers of two, labelled with the size itself
    xt.values.clear();
    for (double e = std::ceil(xmin - 1e-9); e <= xmax + 1e-9; e += 1) xt.values.push_back(e);
    xt.step = 1;
  }
  const double x_lo = xmin, x_hi = xmax > xmin ? xmax : xmin + 1;
  auto P = [&](Vec2 p) {
    return Vec2{float(plot.min.x + plot.w() * (fx(p.x) - x_lo) / (x_hi - x_lo)),
                float(plot.max.y - plot.h() * std::clamp(p.y / yt.max, 0.0, 1.0))};
  };
  for (double v : yt.values) {
    float y = P({float(x_lo), float(v)}).y;
    c.line({plot.min.x, y}, {plot.max.x, y}, v == 0 ? t.text_dim : t.grid, 1);
    c.text({plot.min.x - ts * 0.4f, y - ts * 0.5f}, viz::fmt_tick(v, yt.step), t.text_dim, ts, Align::Right);
  }
  for (double v : xt.values) {
    if (v < x_lo - 1e-9 * (x_hi - x_lo) || v > x_hi + 1e-9 * (x_hi - x_lo)) continue;
    const float x = float(plot.min.x + plot.w() * (v - x_lo) / (x_hi - x_lo));
    c.line({x, plot.max.y}, {x, plot.max.y + ts * 0.3f}, t.text_dim, 1);
    const std::string label = log_x ? std::to_string(int(std::lround(std::exp2(v)))) : viz::fmt_tick(v, xt.step);
    c.text({x, plot.max.y + ts * 0.55f}, label, t.text_dim, ts, Align::Center);
  }
  c.text({plot.max.x, plot.max.y + ts * 1.65f}, in.series_x_label, t.text_dim, ts, Align::Right);

  bool any_selected = false;
  for (const PerfSeries& s : in.series) any_selected |= s.selected;
  c.push_clip(plot.inset(-3));
  // Unselected first so the selected line is drawn on top.
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < in.series.size(); ++i) {
      const PerfSeries& s = in.series[i];
      if (s.selected != (pass == 1)) continue;
      Color col = series_color(i, t);
      if (any_selected && !s.selected) col = viz::mix(col, t.bg, 0.45f);
      std::vector<Vec2> pts;
      for (const Vec2& p : s.points) pts.push_back(P(p));
      c.polyline(pts, col, s.selected ? 3.2f : 1.6f);
      if (pts.size() <= 24)
        for (const Vec2& p : pts) c.circle_filled(p, s.selected ? 3.5f : 2.5f, col);
    }
  c.pop_clip();

  float ly = plot.min.y, lx = plot.max.x + fs;
  for (size_t i = 0; i < in.series.size() && ly + ts <= area.max.y; ++i) {
    const PerfSeries& s = in.series[i];
    Color col = series_color(i, t);
    if (any_selected && !s.selected) col = viz::mix(col, t.bg, 0.45f);
    c.line({lx, ly + ts * 0.55f}, {lx + ts * 1.6f, ly + ts * 0.55f}, col, s.selected ? 3.2f : 2);
    Font f = s.selected ? Font::SansBold : Font::Sans;
    c.text({lx + ts * 2.1f, ly}, viz::elide(c, s.label, ts, f, legend_w - ts * 2.1f),
           s.selected ? t.text : t.text_dim, ts, Align::Left, f);
    ly += ts * 1.5f;
  }
}

}  // namespace

void draw_perf_view(Canvas& c, Rect r, const Theme& t, const PerfViewInput& in) {
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 80.0f, r.h() / 38.0f), 9.0f, 15.0f);
  Rect area = r.inset(std::max(6.0f, fs * 0.9f));

  // Title, key and device: what, at what size, on what.
  const float title_size = fs * 1.2f;
  std::vector<Span> title{{"Throughput", t.text, Font::SansBold}};
  if (!in.shape_label.empty()) {
    // "4096x4096x4096" reads as a product with multiplication signs.
    std::string shape;
    bool dims = in.shape_label.find_first_not_of("0123456789x") == std::string::npos;
    for (char ch : in.shape_label) shape += dims && ch == 'x' ? std::string("\xC3\x97") : std::string(1, ch);
    title.push_back({"   M\xC3\x97N\xC3\x97K = " + shape, t.text, Font::Sans});
  }
  float key_size = fs * 0.85f;
  Vec2 at{0, area.min.y + (title_size - key_size) * 0.5f};
  const float key_w = key_size * (1.6f + 0.6f + 1.6f + 1.4f * 3) + c.text_size("TFLOP/s", key_size).x +
                      c.text_size("cuBLAS, same dtype", key_size).x +
                      c.text_size("failed verification", key_size).x;
  bool key_on_title = viz::spans_width(c, title, title_size) + key_w + fs * 2 <= area.w();
  viz::draw_spans(c, area.min, title, title_size, area.w());
  area.min.y += title_size * 1.35f;
  if (!in.device_label.empty()) {
    c.text(area.min, viz::elide(c, in.device_label, fs * 0.9f, Font::Sans, area.w()), t.text_dim, fs * 0.9f);
    area.min.y += fs * 0.9f * 1.4f;
  }
  if (!key_on_title) at.y = area.min.y, area.min.y += key_size * 1.6f;
  at.x = key_on_title ? area.max.x - key_w : area.min.x;
  key_item(c, at, key_size, viz::mix(t.accent, t.bg, 0.25f), false, "TFLOP/s", t);
  key_item(c, at, key_size, t.text, true, "cuBLAS, same dtype", t);
  key_item(c, at, key_size, t.bad, false, "failed verification", t);
  area.min.y += fs * 0.6f;

  Rect bars = area, plot = area;
  if (!in.series.empty()) {
    // Bars keep a comfortable row height where they can; the plot takes the rest, 35-50%.
    float want = in.bars.size() * fs * 1.7f + fs * 2.5f;
    float plot_h = std::clamp(area.h() - want, area.h() * 0.35f, area.h() * 0.62f);
    bars.max.y = area.max.y - plot_h;
    plot.min.y = bars.max.y + fs * 0.8f;
  }
  draw_bars(c, bars, t, in, fs);
  if (!in.series.empty()) draw_series(c, plot, t, in, fs);
  c.pop_clip();
}

}  // namespace gs
