// Thread tiling view: for a rung without tensor-core fragments (sgemm), the block tile of C with each
// element coloured by the lane of the thread that computes it, laid out as the GEMM reads (A left of C,
// B above), so a reader sees which thread owns what, how a warp's 32 lanes spread over the tile (down a
// column in sgemm/01, along a row from 02 on) and which A and B values one thread reads per k-step.
#include <algorithm>
#include <string>

#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

std::string range(int lo, int hi) { return std::to_string(lo) + ":" + std::to_string(hi); }
std::string dims(int a, int b) { return std::to_string(a) + "\xC3\x97" + std::to_string(b); }

struct Place {
  int warp_row = 0, warp_col = 0;  // origin of the thread's warp tile (or 0, 0)
  int row = 0, col = 0;            // the thread's place in its thread grid
};

Place place(const ThreadViewInput& in, int t) {
  const int per_grid = in.threads_m * in.threads_n;
  const int g = t / per_grid, u = t % per_grid;
  const int warp_m = in.reps_m * in.threads_m * in.tm, warp_n = in.reps_n * in.threads_n * in.tn;
  Place p;
  p.warp_row = g / in.warps_n * warp_m;
  p.warp_col = g % in.warps_n * warp_n;
  p.row = in.column_major ? u % in.threads_m : u / in.threads_n;
  p.col = in.column_major ? u / in.threads_m : u % in.threads_n;
  return p;
}

// Distinct values in ascending order, as "a:b" ranges of consecutive runs joined by ", ".
std::string runs(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string s;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += (s.empty() ? "" : ", ") + (i == j ? std::to_string(v[i]) : range(v[i], v[j] + 1));
    i = j + 1;
  }
  return s;
}

}  // namespace

std::vector<ThreadCell> thread_cells(const ThreadViewInput& in, int t) {
  std::vector<ThreadCell> cells;
  if (!in.described() || t < 0 || t >= in.threads) return cells;
  const Place p = place(in, t);
  for (int rm = 0; rm < in.reps_m; ++rm)
    for (int rn = 0; rn < in.reps_n; ++rn)
      for (int i = 0; i < in.tm; ++i)
        for (int j = 0; j < in.tn; ++j)
          cells.push_back({p.warp_row + (rm * in.threads_m + p.row) * in.tm + i,
                           p.warp_col + (rn * in.threads_n + p.col) * in.tn + j});
  return cells;
}

int thread_at(const ThreadViewInput& in, int row, int col) {
  if (!in.described() || row < 0 || col < 0 || row >= in.block_m || col >= in.block_n) return -1;
  const int warp_m = in.reps_m * in.threads_m * in.tm, warp_n = in.reps_n * in.threads_n * in.tn;
  const int g = row / warp_m * in.warps_n + col / warp_n;
  const int pr = row % warp_m % (in.threads_m * in.tm) / in.tm;  // place in the thread grid
  const int pc = col % warp_n % (in.threads_n * in.tn) / in.tn;
  const int u = in.column_major ? pc * in.threads_m + pr : pr * in.threads_n + pc;
  return g * in.threads_m * in.threads_n + u;
}

std::string thread_caption(const ThreadViewInput& in, int t) {
  if (!in.described()) return "no thread tiling described for this rung";
  t = t < 0 || t >= in.threads ? 0 : t;
  const std::vector<ThreadCell> cells = thread_cells(in, t);
  std::vector<int> rows, cols;
  for (const ThreadCell& c : cells) rows.push_back(c.row), cols.push_back(c.col);
  // "row 5" where the thread's elements share one row (sgemm/01's one element had read "rows 0, columns 0")
  const auto one = [](const std::vector<int>& v) {
    return std::all_of(v.begin(), v.end(), [&](int x) { return x == v[0]; });
  };
  std::string s = "thread " + std::to_string(t) + " (warp " + std::to_string(t / 32) + ", lane " +
                  std::to_string(t % 32) + ") computes " + std::to_string(cells.size()) +
                  (cells.size() == 1 ? " element" : " elements") + " of C: " + (one(rows) ? "row " : "rows ") +
                  runs(rows) + ", " + (one(cols) ? "column " : "columns ") + runs(cols) + ". Per k-step it reads " +
                  std::to_string(in.reps_m * in.tm) + " of A (column k) and " +
                  std::to_string(in.reps_n * in.tn) + " of B (row k) " +
                  (in.block_k > 1 ? "from shared memory" : "straight from global memory") + " for " +
                  std::to_string(cells.size()) + " FMA.";
  return s;
}

void draw_thread_view(Canvas& c, Rect r, const Theme& t, const ThreadViewInput& in, int highlight_thread, Vec2 mouse,
                      ThreadHover* hover) {
  if (hover) *hover = ThreadHover{};
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 48.0f, r.h() / 30.0f), kMinTextSize, 18.0f);
  const float pad = fs * 0.7f;
  const float max_w = r.w() - 2 * pad;
  float y = r.min.y + pad;
  const std::string who = in.kernel.empty() ? std::string("this rung") : in.kernel;
  if (!in.described()) {
    c.text({r.min.x + pad, y}, viz::elide(c, "no thread tiling described for " + who, fs, Font::Sans, max_w),
           t.text_dim, fs);
    c.pop_clip();
    return;
  }
  const int th = highlight_thread < 0 || highlight_thread >= in.threads ? 0 : highlight_thread;

  // Heading, then the caption wrapped.
  const int warps = in.threads / 32;
  std::string head = who + ": " + std::to_string(in.threads) + " threads (" + std::to_string(warps) + " warps), " +
                     dims(in.block_m, in.block_n) + " block tile of C, each thread " +
                     (in.reps_m * in.tm * in.reps_n * in.tn == 1
                          ? std::string("one result")
                          : dims(in.reps_m * in.tm, in.reps_n * in.tn) + " results") +
                     (in.reps_m * in.reps_n > 1 ? " in " + std::to_string(in.reps_m * in.reps_n) + " sub-tiles" : "");
  for (const std::string& line : viz::wrap(c, head, fs, max_w, Font::SansBold)) {
    c.text({r.min.x + pad, y}, viz::elide(c, line, fs, Font::SansBold, max_w), t.text, fs, Align::Left, Font::SansBold);
    y += fs * 1.3f;
  }
  for (const std::string& line : viz::wrap(c, thread_caption(in, th), fs, max_w)) {
    c.text({r.min.x + pad, y}, viz::elide(c, line, fs, Font::Sans, max_w), t.text, fs);
    y += fs * 1.3f;
  }
  y += fs * 0.3f;

  // Geometry: A (block_m x k) left of C, B (k x block_n) above, one cell size for all; the k-depth is
  // drawn at least 2 cells wide so a tile read straight from global memory still shows as a strip.
  const int kd = std::max(in.block_k, 1);
  const float label_w = fs * 1.6f;
  const float gap = fs * 0.5f;
  const float avail_w = r.max.x - pad - (r.min.x + pad + label_w) - gap;
  const float kcells = std::max(float(kd), 2.0f);
  const float x0 = r.min.x + pad + label_w;
  // The legend under C, in two lines where one would cut it (a zoomed picture's had read "...in A and B: wh..."):
  // the cell size for one line first, then, where the legend wraps beside it, for two (smaller cells only widen
  // the room C leaves the legend).
  const std::string legend = "colour: lane of the computing thread \xC2\xB7 outlined: thread " + std::to_string(th) +
                             " \xC2\xB7 in A and B: what it reads in k-step 0 (solid) and over the k-tile (shaded)";
  const auto cell_size = [&](float legend_h) {
    return std::min(avail_w / (kcells + in.block_n), (r.max.y - pad - legend_h - y - gap) / (kcells + in.block_m));
  };
  float s = cell_size(fs * 1.5f);
  const auto legend_lines = [&](float cell) {
    return viz::wrap_lines(c, legend, fs, r.max.x - pad - (x0 + kcells * cell + gap), 2);
  };
  if (s > 0.5f && legend_lines(s).size() > 1) s = cell_size(fs * 1.5f + fs * 1.3f);
  if (s <= 0.5f) {
    c.pop_clip();
    return;
  }
  const float kw = kcells * s, ks = kw / kd;  // k-strip cell width
  const Rect b_rect{{x0 + kw + gap, y}, {x0 + kw + gap + in.block_n * s, y + kw}};
  const Rect a_rect{{x0, y + kw + gap}, {x0 + kw, y + kw + gap + in.block_m * s}};
  const Rect c_rect{{b_rect.min.x, a_rect.min.y}, {b_rect.max.x, a_rect.max.y}};
  auto cell = [&](int row, int col) {
    return Rect{{c_rect.min.x + col * s, c_rect.min.y + row * s}, {c_rect.min.x + (col + 1) * s, c_rect.min.y + (row + 1) * s}};
  };

  // C: every element in its thread's lane colour, dimmed except the highlighted thread's warp.
  const int hot_warp = th / 32;
  for (int row = 0; row < in.block_m; ++row)
    for (int col = 0; col < in.block_n; ++col) {
      const int owner = thread_at(in, row, col);
      Color fill = lane_color(owner % 32, t);
      if (owner / 32 != hot_warp) fill = viz::mix(fill, t.bg, 0.6f);
      c.rect_filled(cell(row, col), fill);
    }
  // Warps whose elements form a rectangle get an outline (all of these rungs' warps do) and, where it fits, their
  // name, drawn last: the highlighted thread's warp is named too (warp 0 had been the one band without a name).
  std::vector<std::pair<Rect, std::string>> warp_names;
  for (int w = 0; w < warps; ++w) {
    int r0 = in.block_m, r1 = -1, c0 = in.block_n, c1 = -1;
    size_t n = 0;
    for (int l = 0; l < 32; ++l)
      for (const ThreadCell& e : thread_cells(in, w * 32 + l)) {
        r0 = std::min(r0, e.row), r1 = std::max(r1, e.row), c0 = std::min(c0, e.col), c1 = std::max(c1, e.col);
        ++n;
      }
    if (r1 < 0 || size_t(r1 - r0 + 1) * size_t(c1 - c0 + 1) != n) continue;
    const Rect box{cell(r0, c0).min, cell(r1, c1).max};
    c.rect(box, w == hot_warp ? t.text : t.bg, w == hot_warp ? 2.0f : 1.0f);
    const std::string name = "warp " + std::to_string(w);
    if (box.w() > c.text_size(name, fs, Font::SansBold).x + fs && box.h() > fs * 1.6f)
      warp_names.push_back({box, name});
  }
  // The highlighted thread: its elements outlined; A's rows and B's columns it reads in k-step 0 filled,
  // the rest of the k-tile it reads over the k-loop shaded.
  const std::vector<ThreadCell> mine = thread_cells(in, th);
  const Color hc = lane_color(th % 32, t);
  c.rect_filled(a_rect, t.panel);
  c.rect_filled(b_rect, t.panel);
  for (const ThreadCell& e : mine) {
    const Rect ce = cell(e.row, e.col);
    c.rect_filled(ce, hc);
    const Rect arow{{a_rect.min.x, ce.min.y}, {a_rect.max.x, ce.max.y}};
    const Rect bcol{{ce.min.x, b_rect.min.y}, {ce.max.x, b_rect.max.y}};
    c.rect_filled(arow, viz::mix(hc, t.panel, 0.6f));
    c.rect_filled(bcol, viz::mix(hc, t.panel, 0.6f));
    c.rect_filled({arow.min, {arow.min.x + ks, arow.max.y}}, hc);
    c.rect_filled({bcol.min, {bcol.max.x, bcol.min.y + ks}}, hc);
  }
  for (const ThreadCell& e : mine) c.rect(cell(e.row, e.col).inset(-1), t.text, 1.5f);
  for (const auto& [box, name] : warp_names) {  // on a backing: the highlighted warp's cells are at full colour
    const Vec2 mid = box.center(), sz = c.text_size(name, fs, Font::SansBold);
    c.rect_filled({{mid.x - sz.x * 0.5f - 3, mid.y - sz.y * 0.5f}, {mid.x + sz.x * 0.5f + 3, mid.y + sz.y * 0.5f}},
                  t.bg.with_alpha(200), 3);
    c.text({mid.x, mid.y - fs * 0.5f}, name, t.text, fs, Align::Center, Font::SansBold);
  }
  c.rect(a_rect, t.grid, 1);
  c.rect(b_rect, t.grid, 1);
  c.rect(c_rect, t.grid, 1);
  c.text({a_rect.min.x - fs * 0.3f, a_rect.center().y - fs * 0.5f}, "A", t.text_dim, fs, Align::Right, Font::SansBold);
  c.text({b_rect.min.x - fs * 0.3f, b_rect.center().y - fs * 0.5f}, "B", t.text_dim, fs, Align::Right, Font::SansBold);

  // Legend under C: what the colours and marks mean.
  const std::vector<std::string> legend_at = legend_lines(s);
  for (size_t i = 0; i < legend_at.size(); ++i)
    c.text({c_rect.min.x, c_rect.max.y + gap * 0.6f + float(i) * fs * 1.3f}, legend_at[i], t.text_dim, fs);

  if (hover && c_rect.contains(mouse)) {
    hover->row = std::min(in.block_m - 1, int((mouse.y - c_rect.min.y) / s));
    hover->col = std::min(in.block_n - 1, int((mouse.x - c_rect.min.x) / s));
    hover->thread = thread_at(in, hover->row, hover->col);
  }
  c.pop_clip();
}

}  // namespace gs
