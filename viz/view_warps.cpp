// Warp tiling view: the block tile of C as the rung's warps split it, laid out as the GEMM reads
// (A left of C, B above it), with the slices of A and B one warp loads in one k-step shaded.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

// One hue family per warp, ordered so neighbouring warps contrast (as the perf view's series).
Color warp_color(int w, const Theme& t) {
  static const int kQuad[8] = {5, 1, 3, 7, 0, 4, 2, 6};
  return lane_color(4 * kQuad[w % 8] + (t.dark ? 1 : 2), t);
}

std::string dims(int a, int b) { return std::to_string(a) + "x" + std::to_string(b); }

// "m16n8" from "mma.m16n8k16.f16"; "" for SIMT.
std::string shape_of(const std::string& op) {
  const size_t m = op.find(".m"), k = op.find('k', m == std::string::npos ? 0 : m);
  if (m == std::string::npos || k == std::string::npos) return "";
  return op.substr(m + 1, k - m - 1);
}

struct WarpPlace {
  int warp = 0, group = 0;  // group: k-group when warps_k > 1
  int row = 0, col = 0;     // origin of its tile of C inside the block tile
  int k0 = 0, k_slice = 0;  // the k-range of each k-tile it works on
};

WarpPlace place(const WarpViewInput& in, int w) {
  const int per_group = in.warps_m * in.warps_n;
  WarpPlace p;
  p.warp = w;
  p.group = w / per_group;
  p.row = (w % per_group) / in.warps_n * in.warp_m;
  p.col = w % in.warps_n * in.warp_n;
  p.k_slice = in.block_k / std::max(1, in.warps_k);
  p.k0 = p.group * p.k_slice;
  return p;
}

int warp_count(const WarpViewInput& in) { return in.warps_m * in.warps_n * std::max(1, in.warps_k); }

}  // namespace

std::string warp_heading(const WarpViewInput& in) {
  const std::string who = in.kernel.empty() ? std::string("this rung") : in.kernel;
  return who + ": " + std::to_string(warp_count(in)) + " warps (" + dims(in.warps_m, in.warps_n) +
         (in.warps_k > 1 ? "x" + std::to_string(in.warps_k) + " k-groups" : "") + ") of " + dims(in.warp_m, in.warp_n) +
         " over a " + dims(in.block_m, in.block_n) + " block tile, k-tiles of " + std::to_string(in.block_k) +
         (in.op.empty() ? ", SIMT (FFMA)" : ", " + in.op) +
         (in.producer_warps > 0 ? "; " + std::to_string(in.producer_warps) + " more warps compute nothing: one issues TMA"
                                : "");
}

std::string warp_caption(const WarpViewInput& in, int w) {
  if (!in.described()) return "no warp tiling described for this rung";
  const int n = warp_count(in);
  w = w < 0 || w >= n ? 0 : w;
  const WarpPlace p = place(in, w);
  const int fm = in.warp_m / in.frag_m, fn = in.warp_n / in.frag_n;
  std::string s = "warp " + std::to_string(w) + " of " + std::to_string(n);
  if (in.warps_k > 1) s += " (k-group " + std::to_string(p.group) + " of " + std::to_string(in.warps_k) + ")";
  s += " owns C[" + std::to_string(p.row) + ":" + std::to_string(p.row + in.warp_m) + ", " + std::to_string(p.col) +
       ":" + std::to_string(p.col + in.warp_n) + "] (a " + dims(in.warp_m, in.warp_n) + " tile = " + dims(fm, fn);
  if (in.op.empty()) {
    s += " sub-tiles of " + dims(in.frag_m, in.frag_n) + ", " + std::to_string(in.frag_m * in.frag_n / 32) +
         " results per lane in each); per k step it reads " + std::to_string(in.warp_m) + " values of A (a column) and " +
         std::to_string(in.warp_n) + " of B (a row) from shared memory";
    return s;
  }
  // A rung may swap the op's operands (C^T = B^T A^T: B in the op's A operand), so that each op computes an n x m
  // tile of C: mma_tf32/11's m16n8 op covers 8x16 of C.
  const std::string op_shape = shape_of(in.op);
  if (in.frag_m != in.frag_n && op_shape == "m" + std::to_string(in.frag_n) + "n" + std::to_string(in.frag_m))
    s += " tiles of " + dims(in.frag_m, in.frag_n) + ", each an " + op_shape + " op with A and B swapped: C^T = B^T A^T";
  else
    s += " " + op_shape + " fragments";
  // The tiles are drawn as contiguous runs of columns; where a rung deals an op's columns out otherwise, say so.
  if (!in.frag_columns.empty()) s += "; " + in.frag_columns;
  s += "); per k" + std::to_string(in.frag_k) + " step";
  if (in.warps_k > 1)
    s += " of its k-slice [" + std::to_string(p.k0) + ":" + std::to_string(p.k0 + p.k_slice) + "]";
  // Where the loops reload B for every row of tiles (01-03), the row of B fragments is loaded once per row of tiles:
  // mma_tf32/03's bank table counts 16 B fragment loads a k8 step to 2 of A, not 8.
  const int b_loads = in.b_per_tile_row ? fn * fm : fn;
  s += " it loads " + std::to_string(fm) + " A fragments (" + dims(in.frag_m, in.frag_k) + ") and " +
       std::to_string(b_loads) + " B fragments (" + dims(in.frag_k, in.frag_n) + ")";
  if (in.b_per_tile_row && fm > 1)
    s += ": its " + std::to_string(fn) + " again for each of its " + std::to_string(fm) + " rows of tiles";
  return s;
}

void draw_warp_view(Canvas& c, Rect r, const Theme& t, const WarpViewInput& in, int highlight_warp) {
  c.push_clip(r);
  const float pad = 10, fs = std::clamp(r.h() / 16, kMinTextSize, 17.0f), small = kMinTextSize;
  float y = r.min.y + pad;
  const float max_w = r.w() - 2 * pad;
  const std::string who = in.kernel.empty() ? std::string("this rung") : in.kernel;
  if (!in.described()) {
    const std::string say = !in.undescribed.empty() ? in.undescribed
                            : in.kernel.empty()     ? std::string("no warp tiling described for this rung")
                                                    : "no warp tiling described for " + in.kernel;
    // Wrapped to the lines the strip has room for (a line below needs 2.5 text heights under this one's top).
    size_t room = 1;
    while (y + float(room - 1) * fs * 1.3f + fs * 2.5f <= r.max.y) ++room;
    for (const std::string& line : viz::wrap_lines(c, say, fs, max_w, room)) {
      c.text({r.min.x + pad, y}, viz::elide(c, line, fs, Font::Sans, max_w), t.text_dim, fs);
      y += fs * 1.3f;
    }
    c.pop_clip();
    return;
  }
  const int n = warp_count(in);
  const int hw = highlight_warp < 0 || highlight_warp >= n ? 0 : highlight_warp;
  const WarpPlace hp = place(in, hw);
  const Color hc = warp_color(hw, t);

  const std::string head = warp_heading(in);
  // Heading (in `hs`) and caption wrapped to a width (a narrow pane gets more lines, never cut words); `draw`
  // false only measures. Returns the y under the text.
  const std::string cap = warp_caption(in, hw);
  auto text_block = [&](float w, float hs, bool with_cap, bool draw) {
    float ty = r.min.y + pad;
    for (const std::string& line : viz::wrap(c, head, hs, w, Font::SansBold)) {
      if (draw) c.text({r.min.x + pad, ty}, viz::elide(c, line, hs, Font::SansBold, w), t.text, hs, Align::Left, Font::SansBold);
      ty += hs * 1.3f;
    }
    if (!with_cap) return ty + small * 0.05f + 4;
    const size_t cut = cap.find("; ");  // its two clauses on lines of their own where they do not share one
    const std::vector<std::string> clauses =
        c.text_size(cap, small).x <= w || cut == std::string::npos
            ? std::vector<std::string>{cap}
            : std::vector<std::string>{cap.substr(0, cut + 1), cap.substr(cut + 2)};
    for (const std::string& clause : clauses)
      for (const std::string& line : viz::wrap(c, clause, small, w)) {
        if (draw) c.text({r.min.x + pad, ty}, viz::elide(c, line, small, Font::Sans, w), t.text, small);
        ty += small * 1.3f;
      }
    return ty + small * 0.05f + 4;
  };
  const std::string c_label = "C " + dims(in.block_m, in.block_n) + " block tile; outlined: warp " + std::to_string(hw) +
                              (in.op.empty() ? "'s sub-tiles" : "'s fragments") + ", shaded in A and B: one k-step";
  const std::string a_label = "A " + dims(in.block_m, in.block_k), b_label = "B " + dims(in.block_k, in.block_n);
  const float label_w = std::max(c.text_size(a_label, small).x, c.text_size(b_label, small).x) + 8;
  const float gap = 8;
  // One arrangement of text and drawing: the drawing goes under the text; where that would leave it less than 40%
  // of the height (a short strip under the fragments in the whole window) and the strip is wide, beside the text
  // instead, in 45% of the width. `s` is the drawing's pixels per element.
  struct Plan {
    float hs = 0;
    bool with_cap = true, beside = false;
    float text_w = 0, fig_left = 0, y = 0, s = 0;
    std::vector<std::string> c_lines;
  };
  auto plan = [&](float hs, bool with_cap) {
    Plan p;
    p.hs = hs, p.with_cap = with_cap;
    p.beside = r.max.y - pad - small * 1.6f - text_block(max_w, hs, with_cap, false) < r.h() * 0.4f && max_w > 30 * small;
    p.text_w = p.beside ? std::round(max_w * 0.55f) - gap : max_w;
    p.y = p.beside ? r.min.y + pad : text_block(p.text_w, hs, with_cap, false);
    p.fig_left = p.beside ? r.min.x + pad + p.text_w + gap : r.min.x + pad;
    // The line under C, wrapped to the width from the drawing's left edge (under the text, one line where it
    // fits): drawn under C where it fits there, else from that edge (wmma/10's was cut at "shaded..." under its C).
    p.c_lines = viz::wrap(c, c_label, small, r.max.x - pad - p.fig_left);
    const float bottom = small * 1.3f * float(p.c_lines.size()) + small * 0.3f;
    const float avail_w = r.max.x - pad - (p.fig_left + label_w) - gap;
    const float avail_h = r.max.y - pad - bottom - p.y - gap;
    p.s = avail_w < 20 || avail_h < 20
              ? 0
              : std::min(avail_w / float(in.block_k + in.block_n), avail_h / float(in.block_k + in.block_m));
    return p;
  };
  // A drawing whose block tile of C is smaller than a few lines of text reads as a smudge (a short pane beside
  // the fragments at a projector's zoom drew 256x128 in 20 pixels under seven lines of bold heading): the heading
  // first goes to the smallest text size, then the caption goes (the tooltip and the header keep it), and where
  // even that leaves no drawing worth the name, the words stay and a line says where the drawing is.
  const float fig_min = small * 5;
  auto readable = [&](const Plan& p) { return std::min(in.block_m, in.block_n) * p.s >= fig_min; };
  Plan pl = plan(fs, true);
  if (!readable(pl) && fs > small) pl = plan(small, true);
  if (!readable(pl)) {
    const Plan bare = plan(small, false);
    if (readable(bare)) pl = bare;
  }
  if (!readable(pl)) {  // the heading, where the drawing is, then as much of the caption as fits in whole lines
    y = text_block(max_w, small, false, true);
    const std::string say = "the drawing: " + viz::hint("maximise this view", "a larger picture draws it");
    const std::vector<std::string> lines = viz::wrap(c, say, small, max_w);
    if (y + small * 1.3f * float(lines.size()) <= r.max.y - pad + small * 0.3f)  // whole, or not at all
      for (const std::string& line : lines) {
        c.text({r.min.x + pad, y}, line, t.text_dim, small);
        y += small * 1.3f;
      }
    y += small * 0.3f;
    for (const std::string& line : viz::wrap(c, cap, small, max_w)) {
      if (y + small * 1.3f > r.max.y - pad + small * 0.3f) break;
      c.text({r.min.x + pad, y}, line, t.text, small);
      y += small * 1.3f;
    }
    c.pop_clip();
    return;
  }
  y = text_block(pl.text_w, pl.hs, pl.with_cap, true);
  const bool beside = pl.beside;
  const float fig_left = pl.fig_left;
  if (beside) y = r.min.y + pad;
  const std::vector<std::string>& c_lines = pl.c_lines;
  const float s = pl.s;
  const float x0 = fig_left + label_w;
  const Rect a_rect{{x0, y + in.block_k * s + gap}, {x0 + in.block_k * s, y + (in.block_k + in.block_m) * s + gap}};
  const Rect b_rect{{a_rect.max.x + gap, y}, {a_rect.max.x + gap + in.block_n * s, y + in.block_k * s}};
  const Rect c_rect{{b_rect.min.x, a_rect.min.y}, {b_rect.max.x, a_rect.max.y}};
  auto at = [&](Rect base, int row, int col) { return Vec2{base.min.x + col * s, base.min.y + row * s}; };
  auto sub = [&](Rect base, int row, int col, int rows, int cols) {
    return Rect{at(base, row, col), at(base, row + rows, col + cols)};
  };

  // C: one tile per warp (a k-group's warps share a tile), the highlighted warp's fully coloured
  // with its fragment grid: one cell per mma (or per SIMT sub-tile).
  const Rect ht = sub(c_rect, hp.row, hp.col, in.warp_m, in.warp_n);
  const Color grid_ink = text_on(hc).with_alpha(110);
  c.rect_filled(ht, hc);
  if (in.frag_m * s >= 3 && in.frag_n * s >= 3) {
    for (int i = in.frag_m; i < in.warp_m; i += in.frag_m)
      c.line({ht.min.x, ht.min.y + i * s}, {ht.max.x, ht.min.y + i * s}, grid_ink, 1);
    for (int j = in.frag_n; j < in.warp_n; j += in.frag_n)
      c.line({ht.min.x + j * s, ht.min.y}, {ht.min.x + j * s, ht.max.y}, grid_ink, 1);
  }
  const int per_group = in.warps_m * in.warps_n;
  for (int w = 0; w < per_group; ++w) {
    const WarpPlace p = place(in, w);
    const bool hot = p.row == hp.row && p.col == hp.col;
    const int shown = hot ? hw : w;
    const Color col = warp_color(shown, t);
    const Rect tile = sub(c_rect, p.row, p.col, in.warp_m, in.warp_n);
    if (!hot) c.rect_filled(tile, viz::mix(col, t.bg, 0.55f));
    c.rect(tile, t.bg, 1.5f);
    std::string name = "warp " + std::to_string(shown);
    if (in.warps_k > 1) {
      name = "warps";
      for (int g = 0; g < in.warps_k; ++g) name += (g ? ", " : " ") + std::to_string(w + g * per_group);
    }
    const std::string origin = "(" + std::to_string(p.row) + ", " + std::to_string(p.col) + ")";
    const Color ink = text_on(hot ? col : viz::mix(col, t.bg, 0.55f));
    const float ls = viz::fit_size(c, name, 15, kMinTextSize, Font::SansBold, tile.w() - 6);
    if (ls > 0 && tile.h() > ls * 2.6f) {
      const Vec2 mid = tile.center();
      if (hot) {  // a chip under the label, so the fragment grid drawn over this tile does not cross it
        const float cw = std::max(c.text_size(name, ls, Font::SansBold).x, c.text_size(origin, ls, Font::Mono).x) + 6;
        c.rect_filled({{mid.x - cw / 2, mid.y - ls * 1.2f}, {mid.x + cw / 2, mid.y + ls * 1.2f}}, col, 3);
      }
      c.text({mid.x, mid.y - ls * 1.1f}, name, ink, ls, Align::Center, Font::SansBold);
      const float os = viz::fit_size(c, origin, ls, kMinTextSize, Font::Mono, tile.w() - 6);
      if (os > 0) c.text({mid.x, mid.y + ls * 0.1f}, origin, ink, os, Align::Center, Font::Mono);
    }
  }
  c.rect(ht, t.text, 2);
  c.rect(c_rect, t.grid, 1);

  // A and B: the warp's rows of A and columns of B over its k-range lightly, this k-step's slices
  // (frag_k deep) in the warp's colour with one cell per fragment.
  c.rect_filled(a_rect, t.panel);
  c.rect_filled(b_rect, t.panel);
  c.rect_filled(sub(a_rect, hp.row, hp.k0, in.warp_m, hp.k_slice), viz::mix(hc, t.panel, 0.7f));
  c.rect_filled(sub(b_rect, hp.k0, hp.col, hp.k_slice, in.warp_n), viz::mix(hc, t.panel, 0.7f));
  const Rect a_step = sub(a_rect, hp.row, hp.k0, in.warp_m, in.frag_k);
  const Rect b_step = sub(b_rect, hp.k0, hp.col, in.frag_k, in.warp_n);
  c.rect_filled(a_step, hc);
  c.rect_filled(b_step, hc);
  if (in.frag_m * s >= 3)
    for (int i = in.frag_m; i < in.warp_m; i += in.frag_m)
      c.line({a_step.min.x, a_step.min.y + i * s}, {a_step.max.x, a_step.min.y + i * s}, grid_ink, 1);
  if (in.frag_n * s >= 3)
    for (int j = in.frag_n; j < in.warp_n; j += in.frag_n)
      c.line({b_step.min.x + j * s, b_step.min.y}, {b_step.min.x + j * s, b_step.max.y}, grid_ink, 1);
  c.rect(a_rect, t.grid, 1);
  c.rect(b_rect, t.grid, 1);
  c.text({a_rect.min.x - 6, a_rect.center().y - small * 0.5f}, a_label, t.text_dim, small, Align::Right);
  c.text({b_rect.min.x - 6, b_rect.center().y - small * 0.5f}, b_label, t.text_dim, small, Align::Right);
  float ly = c_rect.max.y + 4;
  const bool under_c = !beside && c_lines.size() == 1 && c_rect.min.x + c.text_size(c_label, small).x <= r.max.x - pad;
  for (const std::string& line : c_lines) {
    const float lx = under_c ? c_rect.min.x : fig_left;
    c.text({lx, ly}, viz::elide(c, line, small, Font::Sans, r.max.x - pad - lx), t.text_dim, small);
    ly += small * 1.3f;
  }
  c.pop_clip();
}

}  // namespace gs
