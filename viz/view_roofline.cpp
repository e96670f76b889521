// Roofline view: a ladder's rungs as points of arithmetic intensity (from each rung's tiling) against
// measured TFLOP/s, under the device's measured ceilings: bandwidths as slopes (DRAM, L2), compute pipes and
// cuBLAS as flat lines, each labelled with its number (its source on hover). The ladder is a path; the
// selected rung is ringed and named.
#include <algorithm>
#include <optional>
#include <cmath>
#include <string>

#include "core/variant.h"
#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {

// "07" from "mma_f16/07_swizzle": the rung's number, the label a point can afford; a variant keeps its toggle,
// "10[xor=off]", so that it is not named as its rung's dot beside it is.
std::string rung_number(const std::string& kernel) {
  const std::string tail = name_in_family(kernel);
  const size_t us = tail.find('_'), open = tail.find('[');
  return (us == std::string::npos ? tail : tail.substr(0, us)) + (open == std::string::npos ? "" : tail.substr(open));
}

RooflineAbove roofline_above(const std::vector<RooflinePoint>& points, const std::vector<bool>& direct, double l2_tbs,
                             double dram_tbs) {
  RooflineAbove a;
  for (size_t i = 0; i < points.size(); ++i) {
    const RooflinePoint& p = points[i];
    const bool straight = i < direct.size() && direct[i];
    std::string* list = !p.ok                                               ? nullptr
                        : l2_tbs > 0 && p.tflops > l2_tbs * p.intensity     ? (straight ? &a.from_l1 : &a.l2_faster)
                        : dram_tbs > 0 && p.tflops > dram_tbs * p.intensity ? &a.from_l2
                                                                            : nullptr;
    if (list) *list += (list->empty() ? "" : ", ") + rung_number(p.kernel);
    if (list == &a.l2_faster) {
      char rate[48];
      std::snprintf(rate, sizeof rate, " at %.1f", p.tflops / p.intensity);
      a.l2_faster_rates += (a.l2_faster_rates.empty() ? "" : ", ") + rung_number(p.kernel) + rate;
    }
  }
  if (!a.l2_faster_rates.empty()) a.l2_faster_rates += " TB/s";
  return a;
}

std::string roofline_gist(const RooflineAbove& above) {
  const std::string l1 = above.from_l1.empty() ? "" : "read from L1 (" + above.from_l1 + ")";
  const std::string l2 = above.l2_faster.empty() ? "" : "L2 beat its plain loads (" + above.l2_faster + ")";
  if (!l1.empty() || !l2.empty()) return "Above the L2 line: " + l1 + (l1.empty() || l2.empty() ? "" : "; ") + l2;
  return above.from_l2.empty() ? "" : "Above the DRAM line: operands from L2 (" + above.from_l2 + ")";
}

void draw_roofline_view(Canvas& c, Rect r, const Theme& t, const RooflineViewInput& in, Vec2 mouse,
                        RooflineHover* hover) {
  if (hover) *hover = RooflineHover{};
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 55.0f, r.h() / 30.0f), kMinTextSize, 17.0f);
  const float ts = std::max(kMinTextSize, fs * 0.9f);
  const float pad = std::max(6.0f, fs * 0.7f);
  const Rect area = r.inset(pad);
  float y = area.min.y;
  viz::draw_spans(c, {area.min.x, y},
                  {{in.title.empty() ? std::string("Roofline") : in.title, t.text, Font::SansBold},
                   {in.subtitle.empty() ? "" : "   " + in.subtitle, t.text_dim, Font::Sans}},
                  fs * 1.1f, area.w());
  y += fs * 1.1f * 1.6f;
  if (in.points.empty() || in.ceilings.empty()) {
    const std::string msg = in.points.empty() ? "No measured rung of this ladder in the capture."
                                              : "This capture has no measured ceilings (peaks): `gemmscope record` "
                                                "measures them on a GPU.";
    c.text({r.center().x, r.center().y - fs}, viz::elide(c, msg, fs, Font::Sans, area.w()), t.text_dim, fs, Align::Center);
    c.pop_clip();
    return;
  }

  // Axes: decades holding every point and every ceiling's ridge with the fastest bandwidth.
  std::vector<double> xs, ys;
  double top_bw = 0, top_peak = 0;
  for (const Ceiling& ce : in.ceilings) (ce.bandwidth ? top_bw : top_peak) = std::max(ce.bandwidth ? top_bw : top_peak, ce.value);
  for (const RooflinePoint& p : in.points) xs.push_back(p.intensity), ys.push_back(p.tflops);
  for (const Ceiling& ce : in.ceilings) {
    if (ce.bandwidth) continue;
    ys.push_back(ce.value * 1.6);
    for (const Ceiling& bw : in.ceilings)
      if (bw.bandwidth) xs.push_back(ridge(bw.value, ce.value) * 2);
  }
  LogAxes ax;
  log_bounds(xs, &ax.x0, &ax.x1);
  log_bounds(ys, &ax.y0, &ax.y1);
  // Lower bounds on a decade, upper ones just past the largest value: no empty decade at the top.
  double x_pts = 0;
  for (const RooflinePoint& p : in.points) x_pts = std::max(x_pts, p.intensity);
  // Room right of the rightmost points for their labels (a log axis: a factor, not an offset).
  ax.x1 = std::max({ax.x0 * 10, *std::max_element(xs.begin(), xs.end()) * 1.3, x_pts * 2.5});
  ax.y1 = std::max(ax.y0 * 10, *std::max_element(ys.begin(), ys.end()));
  ax.y0 = std::max(ax.y0, ax.y1 / 1e5);
  // The note under the plot goes where it would leave the plot less than half the pane (hover says it too).
  // Up to three lines: the note's own length at this width (the hopper ladder's says why 05 and 06 sit right of 04).
  // Where the whole note does not fit, its gist (which dots lie above the lines, and why) takes the last lines and
  // the note's start those before; a pane with no room for the note (the window's whole layout, where the dots above
  // the L2 line went unexplained) shows the gist alone, in the lines the plot can spare.
  const std::string note = in.note + viz::hint(" Hover a ceiling for how it was measured.", "");
  const bool roomy = r.h() > fs * 28;
  // The gist alone follows the axis title at its spacing, which keeps the most of a small plot.
  const float line_h = roomy ? ts * 1.35f : ts * 1.1f;
  const float bare_plot_h = area.max.y - ts * 2.8f - (y + fs * 0.3f);  // the plot with no note
  // In a picture, where no mouse shows a cut note whole, up to a third of the plot's height (6 lines at most): a deck
  // at 150% had cut the note in 42 of its 53 rooflines.
  const size_t room = !roomy             ? size_t(std::clamp((bare_plot_h - fs * 9) / line_h, 0.0f, 2.0f))
                      : viz::in_picture() ? size_t(std::clamp(bare_plot_h * 0.3f / line_h, 3.0f, 6.0f))
                                          : 3;
  std::vector<std::string> note_lines = roomy ? viz::wrap(c, note, ts, area.w()) : std::vector<std::string>{};
  if (note_lines.size() > room || (!roomy && room > 0 && !in.gist.empty())) {
    const std::vector<std::string> gist =
        in.gist.empty() ? std::vector<std::string>{} : viz::wrap_lines(c, in.gist, ts, area.w(), room);
    const bool head = roomy && gist.size() < room;  // room for the note's start before the gist
    note_lines = head ? viz::wrap_lines(c, note, ts, area.w(), room - gist.size()) : gist;
    if (head) note_lines.insert(note_lines.end(), gist.begin(), gist.end());
  }
  const float note_h = roomy ? line_h * float(std::max<size_t>(note_lines.size(), 1)) + fs * 0.3f
                             : line_h * float(note_lines.size());
  const float ylab_w = c.text_size("10000", ts, Font::Sans).x + fs * 0.5f;
  ax.left = area.min.x + ylab_w;
  ax.right = area.max.x - fs * 0.5f;
  ax.top = y + fs * 0.3f;
  ax.bottom = area.max.y - note_h - ts * 2.8f;
  // A row of labels above the highest compute line: in a short pane the 1.6x above it is less than a text's height.
  if (top_peak > 0) {
    const double h = ax.bottom - ax.top, need = ts * 1.15f + 4, l0 = std::log10(ax.y0), lp = std::log10(top_peak);
    if (h > need * 3) ax.y1 = std::max(ax.y1, std::pow(10.0, (h * lp - need * l0) / (h - need)));
  }
  const Rect plot{{ax.left, ax.top}, {ax.right, ax.bottom}};
  // Under about 16 x 8 lines the ceilings' labels, the rungs' and the axis title no longer fit beside each other.
  if (plot.w() < fs * 16 || plot.h() < fs * 8) {
    c.text({r.center().x, r.center().y},
           viz::elide(c, "too small for the roofline: " + viz::maximise_hint(), fs, Font::Sans, area.w()), t.text_dim, fs,
           Align::Center);
    c.pop_clip();
    return;
  }

  // Decade grid and labels.
  for (double v = ax.x0; v <= ax.x1 * 1.0001; v *= 10) {
    const float x = ax.px(v);
    c.line({x, ax.top}, {x, ax.bottom}, t.grid, 1);
    // The first decade starts at the corner, right of the lowest TFLOP/s label rather than under it.
    c.text({x, ax.bottom + fs * 0.25f}, viz::fmt_num(v), t.text_dim, ts, v == ax.x0 ? Align::Left : Align::Center);
  }
  for (double v = ax.y0; v <= ax.y1 * 1.0001; v *= 10) {
    const float yy = ax.py(v);
    c.line({ax.left, yy}, {ax.right, yy}, t.grid, 1);
    c.text({ax.left - fs * 0.3f, yy - ts * 0.5f}, viz::fmt_num(v), t.text_dim, ts, Align::Right);
  }
  c.rect(plot, t.text_dim, 1);

  c.push_clip(plot);
  // Placed labels (the axis title, the slopes', the compute ceilings', then the rungs'), so that a later one
  // steps aside.
  std::vector<Rect> labels;
  // The y axis's title, at the top left (drawn last, over the lines that cross its corner).
  const char* const y_title = "TFLOP/s (log)";
  const Vec2 title_at{ax.left + fs * 0.3f, ax.top + fs * 0.2f};
  const Vec2 title_size = c.text_size(y_title, ts);
  const float title_w = title_size.x + fs * 0.6f;  // what the labels keep clear of
  labels.push_back({{ax.left, ax.top}, {ax.left + title_w, ax.top + fs * 0.2f + ts * 1.2f}});
  const auto clashes = [&](const Rect& o) {
    return std::any_of(labels.begin(), labels.end(), [&](const Rect& l) {
      return o.min.x < l.max.x && l.min.x < o.max.x && o.min.y < l.max.y && l.min.y < o.max.y;
    });
  };
  const float rad = std::max(4.0f, fs * 0.32f);  // a rung's dot
  std::vector<Vec2> dots, path;  // the measured rungs (and a selected variant), in ladder order; the ladder's path
  std::optional<Vec2> ringed;    // the selected rung's dot, whose ring (1.9 radii) another rung's label keeps off
  for (const RooflinePoint& p : in.points)
    if (p.intensity > 0 && p.tflops > 0) {
      dots.push_back({ax.px(p.intensity), ax.py(p.tflops)});
      // A rung on its predecessor's spot adds no point to the path: a step back of a pixel (mma_tf32's 03 at 35.4
      // TFLOP/s, 02 at 35.5) turned the line on itself, and the window's antialiased polyline faded the next
      // segment out where the turn's miter folded.
      if (!p.variant && (path.empty() || std::hypot(dots.back().x - path.back().x, dots.back().y - path.back().y) > 2))
        path.push_back(dots.back());
      if (p.selected) ringed = dots.back();
    }
  const auto on_ring = [&](const Rect& o) {
    if (!ringed) return false;
    const float dx = std::max({o.min.x - ringed->x, 0.0f, ringed->x - o.max.x});
    const float dy = std::max({o.min.y - ringed->y, 0.0f, ringed->y - o.max.y});
    return std::hypot(dx, dy) < rad * 1.9f;
  };
  const auto within_plot = [&](const Rect& o) {
    return o.min.x >= ax.left && o.max.x <= ax.right && o.min.y >= ax.top && o.max.y <= ax.bottom;
  };
  // Whether a rung's dot lies within `margin` of a label's box: a ceiling's label keeps two radii clear; a row just
  // above a line, or a rung's name placed beside its own dot (which no place of it covers), one.
  const auto near_dot = [&](const Rect& o, float margin) {
    return std::any_of(dots.begin(), dots.end(), [&](const Vec2& d) {
      return d.x > o.min.x - margin && d.x < o.max.x + margin && d.y > o.min.y - margin && d.y < o.max.y + margin;
    });
  };
  const auto covers_dot = [&](const Rect& o) { return near_dot(o, rad * 2); };
  // Whether a label's box is nearer the dot `at` than any other dot, so that a rung's number read beside the
  // nearest dot names that dot. In a small pane a place a line higher or lower
  // can lie beside the next rung's dot ("08" beside 11-13 of mma_f16).
  const auto box_to = [](const Rect& o, Vec2 d) {
    return std::hypot(std::max({o.min.x - d.x, 0.0f, d.x - o.max.x}), std::max({o.min.y - d.y, 0.0f, d.y - o.max.y}));
  };
  // Level with its dot, a label may be as near another (two rungs on one spot tie); a line above or below it, any
  // other dot must lie half a radius further off than its own, or the number reads as beside both ("05" of hopper a
  // line below its dot and just right of 02's). A whole radius left 08 of mma_f16 unlabelled with room around it.
  const auto owned_by = [&](const Rect& o, Vec2 at, bool beside) {
    const float own = box_to(o, at);
    return std::none_of(dots.begin(), dots.end(), [&](const Vec2& d) {
      return beside ? box_to(o, d) + 0.5f < own
                    : std::hypot(d.x - at.x, d.y - at.y) > rad && box_to(o, d) < own + rad * 0.5f;
    });
  };
  // Ceilings: slopes up to the highest compute line, compute lines across; labels just above each.
  const Color bw_col[] = {t.accent, t.warn};
  int bw_i = 0;
  for (size_t i = 0; i < in.ceilings.size(); ++i) {
    const Ceiling& ce = in.ceilings[i];
    if (!ce.bandwidth) continue;
    const Color col = bw_col[std::min(bw_i++, 1)];
    const double x_end = top_peak > 0 ? ridge(ce.value, top_peak) : ax.x1;
    const Vec2 a{ax.px(ax.x0), ax.py(ce.value * ax.x0)}, b{ax.px(x_end), ax.py(ce.value * x_end)};
    c.line(a, b, col, 2);
    // Label outside the band between the slopes, so that it reads as its own line's: the fastest slope's (L2)
    // left of it, above, the others right of theirs, below; where it crosses the lower third of the plot, else where
    // the rungs' dots or another label are there (the L2 slope runs through the top rungs of a ladder in a small
    // pane), the first height up or down the slope that is clear, else on the line's other side.
    const Vec2 sz = c.text_size(ce.label, ts);
    const auto at_height = [&](double frac, bool left) {
      const double yl = std::pow(10.0, std::log10(ax.y0) + (std::log10(ax.y1) - std::log10(ax.y0)) * frac);
      const float x = ax.px(yl / ce.value), ly = left ? ax.py(yl) - sz.y : ax.py(yl);
      const float lx = left ? x - fs * 0.4f - sz.x : x + fs * 0.4f;
      return Rect{{lx, ly}, {lx + sz.x, ly + sz.y}};
    };
    const double frac0 = 0.3 + 0.12 * bw_i;
    const bool top_slope = ce.value >= top_bw;
    Rect box = at_height(frac0, top_slope);
    bool found = false;
    for (const bool left : {top_slope, !top_slope})
      // 0, -0.03, +0.03, -0.06, ... of the plot's height: to +-0.42 on the label's own side, +-0.24 on the other
      for (int step = 0; step <= (left == top_slope ? 28 : 16) && !found; ++step) {
        const Rect o = at_height(frac0 + 0.03 * ((step + 1) / 2) * (step % 2 ? -1 : 1), left);
        if (within_plot(o) && !clashes(o) && !covers_dot(o)) box = o, found = true;
      }
    labels.push_back(box);
    c.text(box.min, ce.label, col, ts);
    if (hover && mouse.y >= box.min.y && mouse.y <= box.max.y && mouse.x >= box.min.x && mouse.x <= box.max.x)
      hover->ceiling = int(i);
  }
  const auto is_cublas = [](const Ceiling& ce) {
    return ce.name == "fp32" || ce.name == "tf32" || ce.name == "tensor_f16_f32" || ce.name.rfind("cublas_", 0) == 0;
  };
  for (const Ceiling& ce : in.ceilings) {
    if (ce.bandwidth) continue;
    const float yy = ax.py(ce.value);
    if (is_cublas(ce))
      viz::dashed_polyline(c, {{ax.left, yy}, {ax.right, yy}}, t.text, 2, ts * 0.6f, ts * 0.35f);
    else
      c.line({ax.left, yy}, {ax.right, yy}, t.good, 2);
  }
  const auto unit_less = [](const std::string& label) { return label.substr(0, label.rfind(' ')); };
  const auto draw_ceiling_label = [&](size_t i, const Rect& box, const std::string& text) {
    labels.push_back(box);
    c.rect_filled({{box.min.x - 2, box.min.y}, {box.max.x + 2, box.max.y}}, t.bg.with_alpha(235), 3);  // over a near line
    c.text(box.min, text, is_cublas(in.ceilings[i]) ? t.text : t.good, ts);
    if (hover && mouse.y >= box.min.y && mouse.y <= box.max.y && mouse.x >= box.min.x - fs * 0.6f &&
        mouse.x <= box.max.x + fs * 0.6f)
      hover->ceiling = int(i);
  };
  // Two compute lines closer than a label's height and air (the mma.sync pipe and cuBLAS, 15% apart, in a small
  // pane): one row above the upper line holds both labels side by side, the upper line's to the right, each in
  // its line's colour, at the plot's right or else past the axis title: whole, else both without units, else name
  // and number ("cuBLAS 737": the subtitle names the dtype, hovering gives the whole). Where the row finds no
  // room, each label goes by its own line, below.
  std::vector<size_t> compute;
  for (size_t i = 0; i < in.ceilings.size(); ++i)
    if (!in.ceilings[i].bandwidth) compute.push_back(i);
  std::sort(compute.begin(), compute.end(),
            [&](size_t a, size_t b) { return in.ceilings[a].value > in.ceilings[b].value; });
  std::vector<bool> labelled(in.ceilings.size(), false);
  const float upper_y = compute.empty() ? 0 : ax.py(in.ceilings[compute[0]].value);
  if (compute.size() >= 2 && ax.py(in.ceilings[compute[1]].value) - upper_y < ts * 1.15f + 2) {
    const float row = upper_y - ts * 1.15f, gap = fs * 0.9f;
    const auto brief = [&](const std::string& label) {  // "cuBLAS f16 737 TFLOP/s" -> "cuBLAS 737"
      const std::string number = unit_less(label);
      const size_t name_end = label.find(' '), number_at = number.rfind(' ');
      return name_end == std::string::npos || number_at == std::string::npos || number_at <= name_end
                 ? number
                 : label.substr(0, name_end) + number.substr(number_at);
    };
    for (int attempt = 0; attempt < 6 && !labelled[compute[0]]; ++attempt) {
      const int form = attempt / 2;  // the row at the right, else at the left past the axis title; then shorter
      std::string text[2];
      Vec2 sz[2];
      for (int k = 0; k < 2; ++k) {
        const std::string& label = in.ceilings[compute[k]].label;
        text[k] = form == 0 ? label : form == 1 ? unit_less(label) : brief(label);
        sz[k] = c.text_size(text[k], ts);
      }
      float x = attempt % 2 ? ax.left + title_w + fs + sz[1].x + gap + sz[0].x : ax.right - fs * 0.4f;
      Rect box[2];
      for (int k = 0; k < 2; ++k) {
        box[k] = {{x - sz[k].x, row}, {x, row + sz[k].y}};
        x -= sz[k].x + gap;
      }
      const Rect both{box[1].min, box[0].max};
      // A dot just under the upper line (a top rung at cuBLAS's speed) stays clear of a row above the line.
      if (!within_plot(both) || clashes({{both.min.x, both.min.y - 2}, {both.max.x, both.max.y + 2}}) ||
          near_dot(both, rad))
        continue;
      for (int k = 0; k < 2; ++k) {
        draw_ceiling_label(compute[k], box[k], text[k]);
        labelled[compute[k]] = true;
      }
    }
  }
  for (size_t i = 0; i < in.ceilings.size(); ++i) {  // their labels over every line
    const Ceiling& ce = in.ceilings[i];
    if (ce.bandwidth || labelled[i]) continue;
    const float yy = ax.py(ce.value);
    // Above its line at the right; where another ceiling's label is already there (two ceilings close together:
    // sgemm's FFMA pipe and cuBLAS are 20% apart, a line and a half on a small pane), above it at the left (past
    // the axis title), where the slow first rungs leave the plot empty; else below it, at the right or the left,
    // else a line lower still.
    // Where none of these is free (a pane too narrow for two whole labels side by side), the same places for the
    // label without its unit ("cuBLAS f16 741"); hovering it gives the whole.
    const std::string short_label = unit_less(ce.label);
    std::string text = short_label;
    const float above = yy - ts * 1.15f, below = yy + ts * 0.2f;
    Rect box;
    bool placed = false;
    // Inside the plot (a line near its top has no room above it); a place over a rung's dot only where nothing
    // else is free.
    for (const bool spare_dots : {true, false}) {
      for (const std::string& name : {ce.label, short_label}) {
        const Vec2 sz = c.text_size(name, ts);
        const float xr = ax.right - sz.x - fs * 0.4f, xl = ax.left + title_w + fs;
        const float lower = below + ts * 1.3f;  // under a label just below the line (two lines close together)
        const Rect options[] = {{{xr, above}, {xr + sz.x, above + sz.y}}, {{xl, above}, {xl + sz.x, above + sz.y}},
                                {{xr, below}, {xr + sz.x, below + sz.y}}, {{xl, below}, {xl + sz.x, below + sz.y}},
                                {{xr, lower}, {xr + sz.x, lower + sz.y}}, {{xl, lower}, {xl + sz.x, lower + sz.y}}};
        if (!spare_dots && name == short_label) box = options[0];
        for (const Rect& o : options)
          // 2 px of air above and below: two labels of lines a text's height apart would touch
          if (!clashes({{o.min.x, o.min.y - 2}, {o.max.x, o.max.y + 2}}) && !(spare_dots && covers_dot(o)) &&
              o.min.y >= ax.top && o.max.y <= ax.bottom) {
            box = o;
            text = name;
            placed = true;
            break;
          }
        if (placed) break;
      }
      if (placed) break;
    }
    draw_ceiling_label(i, box, text);
  }

  // The ladder: a path in ladder order, points coloured as verified or not, the selected one ringed.
  if (path.size() > 1) c.polyline(path, t.text_dim, 1.5f);
  float best = rad * 2.5f;
  std::vector<size_t> order;  // whose label is placed first: the selected rung's, then the ladder's in its order
  for (size_t i = 0; i < in.points.size(); ++i) {
    const RooflinePoint& p = in.points[i];
    if (!(p.intensity > 0 && p.tflops > 0)) continue;
    const Vec2 at{ax.px(p.intensity), ax.py(p.tflops)};
    const Color col = !p.ok ? t.bad : p.selected ? t.accent : t.text;
    if (p.selected) c.circle_filled(at, rad * 1.9f, t.accent.with_alpha(90));
    c.circle_filled(at, rad, col);
    const float d = std::hypot(mouse.x - at.x, mouse.y - at.y);
    if (hover && d < best) best = d, hover->point = int(i);
    order.insert(p.selected ? order.begin() : order.end(), i);
  }
  // Rungs on one spot (mma_f16's 12 and 13, both 514 TFLOP/s at one tiling) share one label, "12, 13": the second
  // found no place of its own and went unnamed.
  std::vector<std::string> numbers(in.points.size());
  std::vector<bool> named_with_another(in.points.size(), false);
  for (const size_t i : order) {
    const RooflinePoint& p = in.points[i];
    numbers[i] = rung_number(p.kernel);
    if (p.selected) continue;
    for (const size_t j : order) {
      if (j == i) break;
      const RooflinePoint& q = in.points[j];
      if (q.selected || named_with_another[j]) continue;
      if (std::hypot(ax.px(p.intensity) - ax.px(q.intensity), ax.py(p.tflops) - ax.py(q.tflops)) < rad * 0.8f) {
        numbers[j] += ", " + numbers[i];
        named_with_another[i] = true;
        break;
      }
    }
  }
  for (const size_t i : order) {
    const RooflinePoint& p = in.points[i];
    if (named_with_another[i]) continue;
    const Vec2 at{ax.px(p.intensity), ax.py(p.tflops)};
    // The rung's number, right of the point, or below where that is taken. The selected rung is named in full
    // where that fits, else by its name within the ladder ("10_multistage"), else by its number: it is always
    // named, another rung only where its label fits (the top rungs of a ladder often share one intensity).
    const float lsz = p.selected ? fs : ts;
    const Font font = p.selected ? Font::SansBold : Font::Sans;
    std::vector<std::string> names = {numbers[i]};
    if (p.selected) names = {p.kernel, name_in_family(p.kernel), rung_number(p.kernel)};
    std::string lab = names.back();
    Rect box;
    bool placed = false;
    // Over no other rung's dot where any name finds such a place (the dots lie under the labels), else anywhere.
    for (const bool spare_dots : {true, false}) {
      for (const std::string& name : names) {
        const Vec2 sz = c.text_size(name, lsz, font);
        // Right of the point, else left, else either nudged up or down (still level with the dot: 08 of mma_f16
        // just above 06/07, whose labels hold its own height), else a line lower or higher on either side: the
        // first place no label holds.
        const float h = sz.y * 0.5f, nudge = h * 0.75f;
        const Rect options[] = {{{at.x + rad * 2 + 2, at.y - h}, {at.x + rad * 2 + 2 + sz.x, at.y + h}},
                                {{at.x - rad - 2 - sz.x, at.y - h}, {at.x - rad - 2, at.y + h}},
                                {{at.x + rad * 2 + 2, at.y - h - nudge}, {at.x + rad * 2 + 2 + sz.x, at.y + h - nudge}},
                                {{at.x + rad * 2 + 2, at.y - h + nudge}, {at.x + rad * 2 + 2 + sz.x, at.y + h + nudge}},
                                {{at.x - rad - 2 - sz.x, at.y - h - nudge}, {at.x - rad - 2, at.y + h - nudge}},
                                {{at.x - rad - 2 - sz.x, at.y - h + nudge}, {at.x - rad - 2, at.y + h + nudge}},
                                {{at.x + rad + 2, at.y + h}, {at.x + rad + 2 + sz.x, at.y + 3 * h}},
                                {{at.x - rad - 2 - sz.x, at.y + h}, {at.x - rad - 2, at.y + 3 * h}},
                                {{at.x + rad + 2, at.y - 3 * h}, {at.x + rad + 2 + sz.x, at.y - h}},
                                {{at.x - rad - 2 - sz.x, at.y - 3 * h}, {at.x - rad - 2, at.y - h}}};
        // The last resort of the selected rung: right of its dot, or left where the right would run past the plot
        // (a variant near the right edge had read "10[ord").
        if (name == names.back())
          box = options[0].max.x <= ax.right || options[1].min.x < ax.left ? options[0] : options[1];
        for (const Rect& o : options) {
          if (!clashes(o) && within_plot(o) && owned_by(o, at, o.min.y <= at.y && at.y <= o.max.y) &&
              !(spare_dots && (near_dot(o, rad) || (!p.selected && on_ring(o))))) {
            box = o;
            lab = name;
            placed = true;
            break;
          }
        }
        if (placed) break;
      }
      if (placed) break;
    }
    if (!placed && !p.selected) continue;  // crowded: hovering the point names it
    labels.push_back(box);
    // A rung's name often sits on a ceiling's line (the top rungs are near them; cuBLAS's dashed line struck
    // through "08" and "11" of sgemm, and "05, 06" of hopper through a backing at two-thirds): a backing of the
    // background colour keeps it readable, the line showing either side of it.
    c.rect_filled({{box.min.x - 2, box.min.y}, {box.max.x + 2, box.max.y}}, t.bg.with_alpha(240), 3);
    c.text(box.min, lab, p.selected ? t.text : t.text_dim, lsz, Align::Left, font);
  }
  // The y axis's title last, on a backing of the background colour: the ceilings' lines (cuBLAS's dashed one is
  // often near the top) would otherwise run through it.
  c.rect_filled({{title_at.x - 2, title_at.y}, {title_at.x + title_size.x + 2, title_at.y + title_size.y}},
                t.bg.with_alpha(235), 3);
  c.text(title_at, y_title, t.text_dim, ts);
  c.pop_clip();

  // Axis titles and where the numbers come from.
  // The axis title under the plot's middle, else (a narrow pane) from the pane's left edge, shortened to fit.
  {
    std::string x_title = "flops per byte of A and B read from global memory (log)";
    if (c.text_size(x_title, ts).x > area.w()) x_title = "flops per byte read from global memory (log)";
    const float w = c.text_size(x_title, ts).x;
    const float cx = std::clamp((ax.left + ax.right) * 0.5f, area.min.x + w * 0.5f, area.max.x - w * 0.5f);
    c.text({w <= area.w() ? cx : area.min.x, ax.bottom + fs * 0.25f + ts * 1.1f},
           viz::elide(c, x_title, ts, Font::Sans, area.w()), t.text_dim, ts, w <= area.w() ? Align::Center : Align::Left);
  }
  // (the gist alone: a little below the axis title, in the room the axis row leaves under it)
  float ny = roomy ? area.max.y - note_h + fs * 0.3f : ax.bottom + fs * 0.25f + ts * 2.5f;
  for (size_t i = 0; i < note_lines.size(); ++i) {
    if (ny + ts > area.max.y + 1) break;
    // The last line that fits says, with "...", that the note goes on (hovering it shows the note whole).
    const bool cut = i + 1 < note_lines.size() && ny + line_h + ts > area.max.y + 1;
    c.text({area.min.x, ny}, viz::paragraph_line(c, note_lines[i], note, cut, ts, area.w()), t.text_dim, ts);
    ny += line_h;
  }
  c.pop_clip();
}

}  // namespace gs
