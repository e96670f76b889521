// Fragment layout view: operands A, B and C of one op in the classic GEMM arrangement
//            B (k x n)
//   A (m x k)  C (m x n)
// with every element coloured by the lane that holds it. Documented and traced layouts sit side
// by side (or stacked, whichever gives bigger cells) with their disagreements marked.
// ldmatrix has a single operand, the tile it loads: one grid per source, a lane-coloured "L9" chip
// beside each 16-byte row naming the lane whose address it is read from (left of the grid for the
// matrices in columns 0-7, right of it for those in columns 8-15), and a caption stating the rules.
#include <algorithm>
#include <cmath>
#include <string>

#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

using viz::Span;

constexpr const char* kOperandName[3] = {"A", "B", "C"};
constexpr const char* kOperandDims[3] = {"m\xC3\x97k", "k\xC3\x97n", "m\xC3\x97n"};  // "m×k" ...
constexpr float kMaxCell = 44;     // beyond this cells only waste the slide
constexpr float kCompactCell = 18; // below this, two sources side by side leave no room for lane numbers
constexpr float kMinLabel = kMinTextSize;  // smaller labels are left out: hover and zoom show them

// One operand of one source, with each element's holders indexed for drawing and hovering.
struct Grid {
  const FragmentLayout* layout = nullptr;
  int rows = 0, cols = 0;
  std::vector<std::vector<LayoutCell>> holders;  // row * cols + col -> slots, by lane then elem
  std::vector<char> mismatch;                    // per element, when compared
  int mismatches = -1;                           // -1: no other source to compare with
  int multiplicity = 1;                          // most slots holding one element
  int min_multiplicity = 1;                      // fewest slots holding one element
  int max_lanes = 1;                             // most distinct lanes holding one element
  int min_lanes = 1;                             // fewest distinct lanes holding one element (held ones)
  int max_lane = 0, max_elem = 0;
  Vec2 origin;     // top-left of cell (0, 0), in pixels
  float lead = 0;  // room between the row indices and the grid (ldmatrix: the supplier chips)
  // wgmma: the operand's rows drawn in bands of band_rows side by side (warp w's rows 16w.. in band w), so a
  // 64 x 16 accumulator is a 16 x 64 picture; band_cols is the operand's width. 0: drawn as it is.
  int band_rows = 0, band_cols = 0;
};

// The layout of an operand redrawn in bands (see Grid::band_rows): element (r, c) at (r % rows, (r / rows) * cols + c).
FragmentLayout banded(const FragmentLayout& l, int rows) {
  FragmentLayout b = l;
  const int bands = (l.rows + rows - 1) / rows;
  b.rows = rows;
  b.cols = l.cols * bands;
  for (LayoutCell& c : b.cells)
    if (c.row >= 0 && c.col >= 0) c = {c.lane, c.elem, c.row % rows, (c.row / rows) * l.cols + c.col};
  return b;
}

struct Panel {
  bool traced = false;
  std::string absent;   // what a grid with no layout says ("" : "not documented" / "not traced")
  bool single = false;  // ldmatrix, wgmma: grid[0] alone, no GEMM arrangement
  int single_op = 0;     // the operand grid[0] shows when single: A (ldmatrix's tile) or C (wgmma's accumulator)
  std::array<Grid, 3> grid;
  std::vector<std::vector<Span>> header;  // one entry per header line
  Vec2 origin;
};

Grid make_grid(const FragmentLayout* l, Extent fallback) {
  Grid g;
  g.layout = l;
  g.rows = l && l->rows > 0 ? l->rows : fallback.rows;
  g.cols = l && l->cols > 0 ? l->cols : fallback.cols;
  g.holders.assign(size_t(g.rows) * g.cols, {});
  if (!l) return g;
  for (const LayoutCell& c : l->cells) {
    if (c.row < 0 || c.row >= g.rows || c.col < 0 || c.col >= g.cols) continue;
    g.holders[size_t(c.row) * g.cols + c.col].push_back(c);
    g.max_lane = std::max(g.max_lane, c.lane);
    g.max_elem = std::max(g.max_elem, c.elem);
  }
  for (auto& h : g.holders) {
    std::sort(h.begin(), h.end(), [](const LayoutCell& a, const LayoutCell& b) {
      return a.lane != b.lane ? a.lane < b.lane : a.elem < b.elem;
    });
    g.multiplicity = std::max(g.multiplicity, int(h.size()));
  }
  g.min_multiplicity = g.multiplicity;
  for (const auto& h : g.holders) g.min_multiplicity = std::min(g.min_multiplicity, int(h.size()));
  // A slot count above 1 is either several lanes holding the element or one lane holding it twice
  // (wmma's A and B: lane 0 holds A[0][0] as elements 0 and 8); the caption says which.
  g.min_lanes = 32;
  for (const auto& h : g.holders) {
    if (h.empty()) continue;
    int lanes = 1;
    for (size_t i = 1; i < h.size(); ++i) lanes += h[i].lane != h[i - 1].lane;  // sorted by lane
    g.max_lanes = std::max(g.max_lanes, lanes);
    g.min_lanes = std::min(g.min_lanes, lanes);
  }
  if (g.min_lanes == 32) g.min_lanes = 1;
  return g;
}

// Marks, in both grids, every element whose holders differ between the two sources.
void compare(Grid& doc, Grid& tr) {
  if (!doc.layout || !tr.layout) return;
  auto same = [](const std::vector<LayoutCell>& a, const std::vector<LayoutCell>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].lane != b[i].lane || a[i].elem != b[i].elem) return false;
    return true;
  };
  static const std::vector<LayoutCell> kNone;
  int n = 0;
  doc.mismatch.assign(doc.holders.size(), 0);
  tr.mismatch.assign(tr.holders.size(), 0);
  for (int r = 0; r < std::max(doc.rows, tr.rows); ++r)
    for (int c = 0; c < std::max(doc.cols, tr.cols); ++c) {
      bool in_d = r < doc.rows && c < doc.cols, in_t = r < tr.rows && c < tr.cols;
      const auto& hd = in_d ? doc.holders[size_t(r) * doc.cols + c] : kNone;
      const auto& ht = in_t ? tr.holders[size_t(r) * tr.cols + c] : kNone;
      if (same(hd, ht)) continue;
      ++n;
      if (in_d) doc.mismatch[size_t(r) * doc.cols + c] = 1;
      if (in_t) tr.mismatch[size_t(r) * tr.cols + c] = 1;
    }
  doc.mismatches = tr.mismatches = n;
}

// Every size in the view derives from the base font size `fs` and the cell size `s`.
struct Metrics {
  float fs = 14;      // operand titles
  float s = 20;       // cell edge
  float idx = 10;     // row and column index labels
  int idx_step = 1;   // label every idx_step-th index
  float idx_w = 0;    // width of the row-index margin
  float idx_h = 0;    // height of the column-index band
  float title_h = 0;  // two title lines
  float gap = 0;      // between grids
  float head_lh = 0;  // one panel header line
  float sup_w = 0;    // ldmatrix: width of a row-supplier chip ("L31"), 0 for other ops
  float sup_gap = 0;  // between a chip and the grid
  float sup_fs = 0;   // chip label size; 0 when too small to read (chips keep their colour)
  bool row = false;   // A, B and C in one row (A x B = C), for a pane too short for B above C
};

// The second line of a grid's title (type, elements per lane): a step smaller than the first where there is room.
float sub_size(float fs) { return std::max(kMinTextSize, fs * 0.85f); }

Metrics metrics(const Canvas& cv, float fs, float s, int max_index, bool suppliers, bool row) {
  Metrics m;
  m.row = row;
  m.fs = fs;
  m.s = s;
  m.idx = kMinLabel;
  std::string widest = std::to_string(max_index);
  // Label every index where they fit side by side, else every 2nd, 4th or 8th.
  const float need = std::max(cv.text_size(widest, m.idx, Font::Sans).x + 4, m.idx * 1.05f);
  while (m.idx_step < 8 && m.idx_step * s < need) m.idx_step *= 2;
  m.idx_w = cv.text_size(widest, m.idx, Font::Sans).x + std::max(4.0f, fs * 0.35f);
  m.idx_h = m.idx + std::max(3.0f, fs * 0.25f);
  m.title_h = fs * 1.2f + sub_size(fs) * 1.2f + fs * 0.3f;
  m.gap = std::max(fs * 0.9f, s * 0.6f);
  m.head_lh = fs * 1.1f * 1.35f;
  if (suppliers) {
    m.sup_fs = std::min(fs, s * 0.8f);
    if (m.sup_fs < kMinLabel) m.sup_fs = 0;
    // The chip is as wide as its widest label needs, and at least a cell, so it reads as a column.
    float label_w = cv.text_size("L31", std::max(m.sup_fs, kMinLabel), Font::SansBold).x;
    m.sup_w = std::max(s, label_w + std::max(4.0f, s * 0.2f));
    m.sup_gap = std::max(2.0f, s * 0.12f);
  }
  return m;
}

// Matrix columns of an ldmatrix tile: .x4's right-hand matrices put their chips right of the grid.
int supplier_blocks(const Grid& g) { return g.cols > 8 ? 2 : 1; }

std::string type_of(const MmaOp& op, int o) { return o == 2 ? op.c_type : op.a_type; }

int elems_of(const MmaOp& op, int o, const Grid& g) {
  int e = o == 0 ? op.elems_a : o == 1 ? op.elems_b : op.elems_c;
  return e > 0 ? e : g.max_elem + 1;
}

std::vector<Span> title_line1(const MmaOp& op, const Panel& p, int o, const Theme& t) {
  const Grid& g = p.grid[o];
  const int on = p.single ? p.single_op : o;  // the operand this grid shows
  const int rows = g.band_rows ? op.m : g.rows, cols = g.band_rows ? g.band_cols : g.cols;  // the operand, not the bands
  std::string head = std::string(kOperandName[on]) + "  " + std::to_string(rows) + "\xC3\x97" +
                     std::to_string(cols) + " (" + kOperandDims[on] + ")";
  if (op.kind == OpKind::Wgmma) head += "  one warpgroup: 128 threads, 4 warps";
  if (p.single && op.kind == OpKind::Ldmatrix)  // the tile of 8x8 matrices, named as what it is rather than "A"
    head = "tile  " + std::to_string(g.rows) + "\xC3\x97" + std::to_string(g.cols) + " (" +
           std::to_string(op.matrices) + (op.matrices == 1 ? " matrix" : " matrices") + " 8\xC3\x97" "8)";
  std::vector<Span> v{{head, t.text, Font::SansBold}};
  if (p.traced && g.mismatches > 0)
    v.push_back({"  " + std::to_string(g.mismatches) + (g.mismatches == 1 ? " mismatch" : " mismatches"),
                 t.bad, Font::SansBold});
  else if (p.traced && g.mismatches == 0)
    v.push_back({"  matches PTX", t.good, Font::Sans});
  return v;
}

// How often one element is held, where more than once: in several lanes, or twice in one lane's fragment
// (wmma's A and B: lane 0 holds A[0][0] as elements 0 and 8). "" when each element is held once.
std::string multiplicity_phrase(const Grid& g) {
  if (!g.layout || g.multiplicity <= 1) return "";
  const std::string times = g.multiplicity == 2 ? "twice" : std::to_string(g.multiplicity) + " times";
  if (g.max_lanes == 1)
    return "each element " + std::string(g.min_multiplicity == g.multiplicity ? "" : "up to ") + times +
           " in one lane's fragment";
  if (g.min_multiplicity == g.multiplicity && g.min_lanes == g.multiplicity)
    return "each element in " + std::to_string(g.multiplicity) + " lanes";
  return "up to " + std::to_string(g.multiplicity) + " slots per element, in up to " + std::to_string(g.max_lanes) +
         (g.max_lanes == 1 ? " lane" : " lanes");
}

// The panel's header line about multiplicity: "A and B: each element twice in one lane's fragment".
std::string multiplicity_line(const Panel& p) {
  std::vector<std::pair<std::string, std::string>> groups;  // phrase, the operands it holds for
  for (int o = 0; o < 3; ++o) {
    const std::string phrase = multiplicity_phrase(p.grid[o]);
    if (phrase.empty()) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == phrase; });
    if (it == groups.end()) groups.push_back({phrase, kOperandName[o]});
    else it->second += std::string(" and ") + kOperandName[o];
  }
  std::string line;
  for (const auto& [phrase, names] : groups) line += (line.empty() ? "" : "; ") + names + ": " + phrase;
  return line;
}

// compact: "f16 · 4 per lane", for grids drawn in a row, whose columns are as wide as their titles.
std::vector<Span> title_line2(const MmaOp& op, const Panel& p, int o, const Theme& t, bool compact = false) {
  const Grid& g = p.grid[o];
  std::string s;
  if (!g.layout) return {{!p.absent.empty() ? p.absent : p.traced ? "not traced" : "not documented", t.text_dim}};
  const int on = p.single ? p.single_op : o;
  s = type_of(op, on) + " \xC2\xB7 " + std::to_string(elems_of(op, on, g)) +
      (op.kind == OpKind::Wgmma ? " registers/thread" : compact ? " per lane" : " elements/lane");
 if (op.kind == OpKind::Wgmma) s += " \xC2\xB7 drawn one warp per band";
  if (p.single && op.kind == OpKind::Ldmatrix)
    s += " \xC2\xB7 " + std::to_string(op.matrices) + (op.matrices == 1 ? " register" : " registers") +
         (op.trans ? " \xC2\xB7 .trans" : "");
  return {{s, t.text_dim}};
}

// Width of operand o's column (A's in the GEMM arrangement, each one's in a row): its grid, or its two title
// lines where they are wider.
float column_w(const Canvas& cv, const MmaOp& op, const Panel& p, int o, const Metrics& m, const Theme& t) {
  return std::max({p.grid[o].cols * m.s, viz::spans_width(cv, title_line1(op, p, o, t), m.fs),
                   viz::spans_width(cv, title_line2(op, p, o, t, m.row), sub_size(m.fs))});
}

// Pixel size of one panel at metrics m: the three grids, their titles and index margins.

Vec2 panel_size(const Canvas& cv, const MmaOp& op, const Panel& p, const Metrics& m, const Theme& t) {
  const Grid &A = p.grid[0], &B = p.grid[1], &C = p.grid[2];
  float head = p.header.size() * m.head_lh + (p.header.empty() ? 0 : m.fs * 0.5f);
  if (!p.single && m.row) {
    float w = 2 * m.gap;
    for (int o = 0; o < 3; ++o) w += m.idx_w + column_w(cv, op, p, o, m, t);
    return {w, head + m.title_h + m.idx_h + std::max({A.rows, B.rows, C.rows}) * m.s};
  }
  if (p.single) {
    // [row indices][chips] grid [chips]: the title may run wider than a small tile.
    float right = supplier_blocks(A) > 1 ? m.sup_gap + m.sup_w : 0;
    float title_w = std::max(viz::spans_width(cv, title_line1(op, p, 0, t), m.fs),
                             viz::spans_width(cv, title_line2(op, p, 0, t), sub_size(m.fs)));
    float grid_w = m.idx_w + m.sup_w + m.sup_gap + A.cols * m.s + right;
    const float below = A.band_rows ? m.fs * 1.6f : 0;  // the band labels
    return {std::max(grid_w, m.idx_w + title_w), head + m.title_h + m.idx_h + A.rows * m.s + below};
  }
  float right_cols = std::max(B.cols, C.cols) * m.s;
  // A's column is as wide as its grid or its title, whichever is wider (place_panel agrees).
  // B's and C's titles may run past their grids to the right; reserve that room.
  float title_w = 0;
  for (int o = 1; o < 3; ++o)
    title_w = std::max({title_w, viz::spans_width(cv, title_line1(op, p, o, t), m.fs),
                        viz::spans_width(cv, title_line2(op, p, o, t), sub_size(m.fs))});
  float w = m.idx_w + column_w(cv, op, p, 0, m, t) + m.gap + m.idx_w + std::max(right_cols, title_w);
  float h = head + m.title_h + m.idx_h + B.rows * m.s + m.gap + m.title_h + m.idx_h +
            std::max(A.rows, C.rows) * m.s;
  return {w, h};
}

void place_panel(const Canvas& cv, const MmaOp& op, const Theme& t, Panel& p, Vec2 origin, const Metrics& m) {
  p.origin = origin;
  float head = p.header.size() * m.head_lh + (p.header.empty() ? 0 : m.fs * 0.5f);
  if (p.single) {
    p.grid[0].lead = m.sup_w + m.sup_gap;
    p.grid[0].origin = {origin.x + m.idx_w + p.grid[0].lead, origin.y + head + m.title_h + m.idx_h};
    return;
  }
  if (m.row) {
    float x = origin.x;
    for (int o = 0; o < 3; ++o) {
      x += m.idx_w;
      p.grid[o].origin = {x, origin.y + head + m.title_h + m.idx_h};
      x += column_w(cv, op, p, o, m, t) + m.gap;
    }
    return;
  }
  const float a_w = column_w(cv, op, p, 0, m, t);
  float bx = origin.x + m.idx_w + a_w + m.gap + m.idx_w;
  float by = origin.y + head + m.title_h + m.idx_h;
  float cy = by + p.grid[1].rows * m.s + m.gap + m.title_h + m.idx_h;
  p.grid[0].origin = {origin.x + m.idx_w + a_w - p.grid[0].cols * m.s, cy};  // right-aligned under a wide title
  p.grid[1].origin = {bx, by};
  p.grid[2].origin = {bx, cy};
}

Rect cell_rect(const Grid& g, const Metrics& m, int r, int c) {
  Vec2 a{g.origin.x + c * m.s, g.origin.y + r * m.s};
  return {a, {a.x + m.s, a.y + m.s}};
}

bool holds_lane(const std::vector<LayoutCell>& h, int lane) {
  for (const LayoutCell& c : h)
    if (c.lane == lane) return true;
  return false;
}

// Label style shared by every cell of a grid with the same number of holders, so sizes do not
// jump from cell to cell.
struct LabelStyle {
  float size = 0;    // 0: no labels
  bool elem = true;  // "lane:elem", else lane only
};

LabelStyle label_style(const Canvas& cv, const Grid& g, float s, int holders) {
  float h = s / std::max(1, holders);  // each holder gets a horizontal stripe
  const int max_lane = g.band_rows ? std::min(g.max_lane, 31) : g.max_lane;  // banded: lanes within the warp
  std::string full = std::to_string(std::max(max_lane, 10)) + ":" + std::to_string(g.max_elem);
  std::string lane = std::to_string(std::max(max_lane, 10));
  for (bool elem : {true, false}) {
    const std::string& probe = elem ? full : lane;
    // A line of text 0.8 of the stripe: an 18 px cell (a 1600x900 slide at 150%, a 1920x1080 window) still takes
    // the 14 px floor.
    float size = std::min(h * 0.8f, 18.0f);
    size = viz::fit_size(cv, probe, size, kMinLabel, Font::Sans, s * 0.9f);
    if (size >= kMinLabel) return {size, elem};
  }
  return {0, false};
}

void draw_grid(Canvas& cv, const Theme& t, const Grid& g, const Metrics& m, int highlight) {
  const float s = m.s, pad = s >= 10 ? 0.5f : 0.25f;  // half the gap that separates cells
  const Color dim_bg = t.bg;
  // One label style per holder count: duplicated elements get smaller labels, the rest keep theirs.
  std::vector<LabelStyle> styles(g.multiplicity + 1);
  for (int k = 1; k <= g.multiplicity; ++k) styles[k] = label_style(cv, g, s, k);
  if (!g.layout) return;  // its title says "not traced": no empty boxes that look like data
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c) {
      const auto& h = g.holders[size_t(r) * g.cols + c];
      Rect cell = cell_rect(g, m, r, c).inset(pad);
      if (h.empty()) {
        cv.rect_filled(cell, t.panel);
        continue;
      }
      float sh = cell.h() / h.size();
      const LabelStyle& ls = styles[h.size()];
      for (size_t i = 0; i < h.size(); ++i) {
        Rect stripe{{cell.min.x, cell.min.y + sh * i}, {cell.max.x, cell.min.y + sh * (i + 1)}};
        bool dim = highlight >= 0 && h[i].lane != highlight;
        Color fill = lane_color(h[i].lane, t);
        if (dim) fill = viz::mix(fill, dim_bg, 0.78f);
        cv.rect_filled(stripe, fill);
        if (ls.size <= 0) continue;
        // Banded (wgmma): the band names the warp, so a cell names the lane within it (thread = 32 warp + lane).
        std::string label = std::to_string(g.band_rows ? h[i].lane % 32 : h[i].lane);
        if (ls.elem) label += ":" + std::to_string(h[i].elem);
        Color ink = text_on(fill);
        if (dim) ink = viz::mix(ink, fill, 0.55f);
        Vec2 ctr = stripe.center();
        cv.text({ctr.x, ctr.y - ls.size * 0.5f}, label, ink, ls.size, Align::Center);
      }
      // Thin divider between holders so two lanes of one hue family still read as two.
      for (size_t i = 1; i < h.size(); ++i)
        cv.line({cell.min.x, cell.min.y + sh * i}, {cell.max.x, cell.min.y + sh * i}, t.bg, 1);
    }
  // Mma fragments are built from 8x8 pieces; faint rules every 8 cells make them visible.
  Color rule = t.text_dim.with_alpha(110);
  for (int c = 8; c < g.cols; c += 8)
    cv.line({g.origin.x + c * s, g.origin.y}, {g.origin.x + c * s, g.origin.y + g.rows * s}, rule, 1.5f);
  for (int r = 8; r < g.rows; r += 8)
    cv.line({g.origin.x, g.origin.y + r * s}, {g.origin.x + g.cols * s, g.origin.y + r * s}, rule, 1.5f);
  // Disagreements: a red frame with a background halo, visible on any lane colour.
  if (!g.mismatch.empty()) {
    float th = std::clamp(s * 0.12f, 1.5f, 3.0f);
    for (int r = 0; r < g.rows; ++r)
      for (int c = 0; c < g.cols; ++c) {
        if (!g.mismatch[size_t(r) * g.cols + c]) continue;
        Rect cell = cell_rect(g, m, r, c).inset(th * 0.5f + pad);
        cv.rect(cell.inset(-th * 0.5f), t.bg, th * 2.2f);
        cv.rect(cell, t.bad, th);
        // A diagonal slash as well: the mark survives greyscale printing and red lanes.
        cv.line(cell.min, cell.max, t.bad, std::max(1.0f, th * 0.6f));
      }
  }
  if (highlight >= 0) {
    float th = std::clamp(s * 0.11f, 1.5f, 3.0f);
    for (int r = 0; r < g.rows; ++r)
      for (int c = 0; c < g.cols; ++c)
        if (holds_lane(g.holders[size_t(r) * g.cols + c], highlight))
          cv.rect(cell_rect(g, m, r, c).inset(th * 0.5f), t.text, th);
  }
}

void draw_indices(Canvas& cv, const Theme& t, const Grid& g, const Metrics& m) {
  float pad = std::max(4.0f, m.fs * 0.35f) * 0.6f;
  for (int r = 0; r < g.rows; r += m.idx_step)
    cv.text({g.origin.x - g.lead - pad, g.origin.y + (r + 0.5f) * m.s - m.idx * 0.5f}, std::to_string(r), t.text_dim,
            m.idx, Align::Right);
  for (int c = 0; c < g.cols; c += m.idx_step)
    cv.text({g.origin.x + (c + 0.5f) * m.s, g.origin.y - m.idx_h}, std::to_string(g.band_rows ? c % g.band_cols : c),
            t.text_dim, m.idx, Align::Center);
  if (!g.band_rows) return;
  // Below each band: whose rows it holds; between bands, a gap of background.
  for (int b = 0; b * g.band_cols < g.cols; ++b) {
    const float x0 = g.origin.x + b * g.band_cols * m.s, x1 = x0 + g.band_cols * m.s;
    // The long label where the band has room for it, else "warp w", else none (the caption says it).
    std::string label = "warp " + std::to_string(b) + ": rows " + std::to_string(b * g.band_rows) + "\xE2\x80\x93" +
                        std::to_string((b + 1) * g.band_rows - 1);
    float size = viz::fit_size(cv, label, m.fs, kMinLabel, Font::SansBold, x1 - x0 - 4);
    if (size <= 0) {
      label = "warp " + std::to_string(b);
      size = viz::fit_size(cv, label, m.fs, kMinLabel, Font::SansBold, x1 - x0 - 4);
    }
    if (size > 0)
      cv.text({(x0 + x1) * 0.5f, g.origin.y + g.rows * m.s + m.idx * 0.4f}, label, t.text, size, Align::Center,
              Font::SansBold);
    if (b > 0) cv.line({x0, g.origin.y - 1}, {x0, g.origin.y + g.rows * m.s + 1}, t.bg, std::max(3.0f, m.s * 0.2f));
  }
}

// ldmatrix: one chip per 16-byte row, coloured by the lane that supplies the row's address and
// labelled "L<lane>". Rows of matrices in columns 0-7 get their chip left of the grid, those in
// columns 8-15 (.x4's matrices 2 and 3) right of it, so every chip touches the row it addresses.
void draw_suppliers(Canvas& cv, const Theme& t, const Grid& g, const Metrics& m, const std::vector<LdmatrixRow>& rows,
                    int highlight) {
  const float pad = m.s >= 10 ? 0.5f : 0.25f;
  for (const LdmatrixRow& r : rows) {
    if (r.row < 0 || r.row >= g.rows) continue;
    const bool right = r.col >= 8;
    float x = right ? g.origin.x + g.cols * m.s + m.sup_gap : g.origin.x - m.sup_gap - m.sup_w;
    float y = g.origin.y + r.row * m.s;
    Rect chip{{x, y + pad}, {x + m.sup_w, y + m.s - pad}};
    Color fill = lane_color(r.lane, t);
    const bool dim = highlight >= 0 && r.lane != highlight;
    if (dim) fill = viz::mix(fill, t.bg, 0.78f);
    cv.rect_filled(chip, fill, std::min(3.0f, m.s * 0.15f));
    if (highlight == r.lane) cv.rect(chip.inset(-1), t.text, 2, std::min(3.0f, m.s * 0.15f));
    if (m.sup_fs <= 0) continue;
    Color ink = text_on(fill);
    if (dim) ink = viz::mix(ink, fill, 0.55f);
    cv.text({chip.center().x, chip.center().y - m.sup_fs * 0.5f}, "L" + std::to_string(r.lane), ink, m.sup_fs,
            Align::Center, Font::SansBold);
  }
}

// The rules an ldmatrix tile shows, one sentence per line: who supplies the row addresses, who
// receives which elements, and how this view tiles the matrices (a choice of core/layout.cpp).
// wgmma's accumulator in words: what the grid shows and how it relates to mma.sync's and to the rungs' N = 256.
std::vector<std::string> wgmma_caption(const MmaOp& op) {
  return {"warp w of the warpgroup holds rows 16w to 16w+15; inside them every 8-column block is mma.m16n8's "
          "accumulator (lane colours repeat per warp: thread T is lane T%32 of warp T/32)",
          "registers 4j to 4j+3 of a thread are block j; the hopper rungs issue m64n256k16 (m64n128k16 in 01): "
          "the same block " + std::to_string(256 / 8) + " times over, " + std::to_string(256 / 2) +
          " registers per thread, which the epilogue stores by this formula (" + std::to_string(op.n / 8) +
          " blocks drawn)"};
}

std::vector<std::string> ldmatrix_caption(const MmaOp& op, const MmaOp* feeds) {
  const std::string num = ".x" + std::to_string(op.matrices);
  const std::string lanes = "lanes 0-" + std::to_string(8 * op.matrices - 1);
  // A tf32 rung (mma_tf32/08 on) loads its A fragment with the same b16 instruction: each register's two halves are
  // one tf32, so the 16x16 b16 tile is 16x8 tf32 and the registers are mma.m16n8k8.tf32's a0-a3.
  const bool tf32 = feeds && feeds->a_type == "tf32" && !op.trans;
  std::vector<std::string> lines;
  lines.push_back(num + ": lane i supplies the row address of row i%8 of matrix i/8 (" + lanes +
                  ", chip beside each row); each lane receives 2 elements per matrix, one 32-bit register each" +
                  (tf32 ? " (" + feeds->name + " reads the register as one tf32: cells 2c and 2c+1 are tf32 column c)"
                        : ""));
  lines.push_back(op.trans ? ".trans: lane t receives column t/4, rows 2(t%4) and 2(t%4)+1 of each matrix "
                             "(register j = matrix j, low half first)"
                           : "lane t receives row t/4, columns 2(t%4) and 2(t%4)+1 of each matrix "
                             "(register j = matrix j, low half first)");
  if (op.matrices == 4)
    lines.push_back(std::string("tiled 16\xC3\x97" "16: matrix 0 top-left, 1 bottom-left, 2 top-right, "
                                "3 bottom-right") +
                    (op.trans ? ", so r0-r1 and r2-r3 are the B fragments b0-b3 of two n-adjacent mma.m16n8k16"
                     : tf32   ? ", a 16\xC3\x97" "8 tile of tf32, so registers r0-r3 are " + feeds->name +
                                  "'s A fragment a0-a3"
                              : ", so registers r0-r3 are mma.m16n8k16's A fragment a0-a7"));
  else if (op.matrices == 2)
    lines.push_back(std::string("tiled 16\xC3\x97" "8: matrix 0 rows 0-7, matrix 1 rows 8-15") +
                    (op.trans ? ", so the registers are mma.m16n8k16's B fragment b0-b3"
                              : ", so the registers are mma.m16n8k8's A fragment a0-a3"));
  return lines;
}

// Swatches of the 8 quads, 4 lanes each; returns false (drawing nothing) when it cannot fit `box`.
bool draw_legend(Canvas& cv, const Theme& t, Rect box, float size, int highlight, bool draw) {
  const float sw = size, lh = size * 1.35f, gap = size * 0.25f;
  float label_w = cv.text_size("lanes 28-31", size, Font::Sans).x;
  float col_w = 4 * sw + 3 * 1 + gap * 2 + label_w;
  float title_h = size * 1.5f;
  const char* title = "lane colours (one hue per quad)";
  float title_w = cv.text_size(title, size, Font::Sans).x;
  for (int cols : {1, 2, 4, 8}) {
    int rows = 8 / cols;
    float w = std::max(title_w, cols * col_w + (cols - 1) * size * 1.2f), h = title_h + rows * lh;
    if (w > box.w() || h > box.h()) continue;
    if (!draw) return true;
    cv.text(box.min, title, t.text_dim, size, Align::Left);
    for (int q = 0; q < 8; ++q) {
      float x = box.min.x + (q / rows) * (col_w + size * 1.2f);
      float y = box.min.y + title_h + (q % rows) * lh;
      for (int i = 0; i < 4; ++i) {
        Rect sq{{x + i * (sw + 1), y}, {x + i * (sw + 1) + sw, y + sw}};
        cv.rect_filled(sq, lane_color(4 * q + i, t));
        if (4 * q + i == highlight) cv.rect(sq, t.text, 1.5f);
      }
      cv.text({x + 4 * (sw + 1) + gap, y}, "lanes " + std::to_string(4 * q) + "-" + std::to_string(4 * q + 3),
              t.text_dim, size, Align::Left);
    }
    return true;
  }
  return false;
}

}  // namespace

void draw_layout_view(Canvas& cv, Rect r, const Theme& t, const LayoutViewInput& in,
                      const LayoutViewState& st, Vec2 mouse, LayoutHover* hover) {
  if (hover) *hover = LayoutHover{};
  cv.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 70.0f, r.h() / 40.0f), kMinTextSize, 18.0f);
  const float margin = std::max(6.0f, fs * 0.8f);
  Rect area = r.inset(margin);

  // View title: the op and how to read a cell.
  const MmaOp* op = in.op;
  const bool ldm = op && op->kind == OpKind::Ldmatrix;
  const bool wg = op && op->kind == OpKind::Wgmma;
  float title_size = fs * 1.2f;
  const Vec2 title_at = area.min;  // drawn once the cell size is known: it says what the cells show
  area.min.y += title_size * 1.6f;
  if (ldm || wg) {
    // The rules in words, under the title, wrapped (not shrunk) where the view is narrow: the one
    // tile leaves height to spare, and these sentences are what the picture is for.
    const float cap = sub_size(fs);
    for (const std::string& sentence : ldm ? ldmatrix_caption(*op, in.feeds) : wgmma_caption(*op))
      for (const std::string& line : viz::wrap(cv, sentence, cap, area.w())) {
        viz::draw_spans(cv, area.min, {{line, t.text_dim, Font::Sans}}, cap, area.w());
        area.min.y += cap * 1.3f;
      }
    area.min.y += fs * 0.4f;
  }

  bool has_doc = false, has_tr = false;
  for (int o = 0; o < 3; ++o) {
    has_doc |= in.documented[o] != nullptr;
    has_tr |= in.traced[o] != nullptr;
  }
  std::vector<Panel> panels;
  if (op && has_doc && st.show_documented) panels.push_back({});
  if (op && has_tr && st.show_traced) panels.push_back({}), panels.back().traced = true;
  for (Panel& p : panels) p.absent = in.absent;
  for (Panel& p : panels) {
    p.single = ldm || wg;
    p.single_op = wg ? 2 : 0;
  }
  if (panels.empty()) {
    std::string msg = !op                   ? "No op selected."
                      : (has_doc || has_tr) ? "Both sources are hidden."
                                            : "No layout recorded for this op: PTX does not document it "
                                              "and this capture holds no trace of it.";
    cv.text({area.center().x, std::max(area.min.y, area.center().y - fs * 0.5f)}, msg, t.text_dim, fs, Align::Center);
    cv.pop_clip();
    return;
  }

  // An operand the op does not have (ldmatrix B and C) is 0x0 and never drawn.
  const Extent ext[3] = {operand_extent(*op, Operand::A), operand_extent(*op, Operand::B),
                         operand_extent(*op, Operand::C)};
  std::array<FragmentLayout, 2> bands;  // wgmma: each panel's accumulator redrawn one band per warp
  for (size_t i = 0; i < panels.size(); ++i) {
    Panel& p = panels[i];
    for (int o = 0; o < 3; ++o) {
      const int from = p.single ? (o == 0 ? p.single_op : -1) : o;  // a single grid takes its operand's slot 0
      const FragmentLayout* l = from < 0 ? nullptr : p.traced ? in.traced[from] : in.documented[from];
      if (wg && l) {
        bands[i] = banded(*l, 16);
        p.grid[o] = make_grid(&bands[i], Extent{});
        p.grid[o].band_rows = 16;
        p.grid[o].band_cols = l->cols;
      } else {
        p.grid[o] = make_grid(l, from < 0 ? Extent{} : ext[from]);
      }
    }
  }
  if (panels.size() == 2)
    for (int o = 0; o < 3; ++o) compare(panels[0].grid[o], panels[1].grid[o]);

  std::string device = in.traced_from.empty() ? "this GPU" : in.traced_from;
  int total_mismatch = 0;
  for (int o = 0; o < 3; ++o) total_mismatch += std::max(0, panels.back().grid[o].mismatches);
  for (Panel& p : panels) {
    if (!p.traced) {
      p.header.push_back({{"documented (PTX ISA)", t.text, Font::SansBold}});
    } else {
      // The verdict before the device: where the line is cut, the device goes first.
      p.header.push_back({{"traced", t.text, Font::SansBold}});
      if (panels.size() == 2 && total_mismatch > 0)
        p.header.back().push_back(
            {"   " + std::to_string(total_mismatch) + " cells differ from PTX", t.bad, Font::Sans});
      else if (panels.size() == 2)
        p.header.back().push_back({"   identical to PTX", t.good, Font::Sans});
      p.header.back().push_back({"   on " + device, t.text_dim, Font::Sans});
      if (!op->documented) {
        const std::string what = op->name.rfind("wmma", 0) == 0 ? "the wmma" : "this op's";
        Span note{"PTX leaves " + what + " fragment layout unspecified: this is what the GPU did", t.text_dim,
                  Font::Sans};
        // One header line where the view is wide enough, so the grids keep that height.
        note.text = "   " + note.text;
        auto line = p.header.back();
        line.push_back(note);
        if (viz::spans_width(cv, line, fs * 1.1f) <= area.w() * 0.8f)
          p.header.back() = line;
        else
          p.header.push_back({{note.text.substr(3), note.color, note.font}});
      }
    }
  }

  for (Panel& p : panels)
    if (const std::string many = multiplicity_line(p); !many.empty()) p.header.push_back({{many, t.text_dim, Font::Sans}});
  for (Panel& p : panels)
    if (p.traced && !in.c_note.empty())  // on as many lines as it takes: its end says what the picture is not
      for (const std::string& line : viz::wrap(cv, in.c_note, fs * 1.1f, area.w() * 0.8f))
        p.header.push_back({{line, t.warn, Font::Sans}});

  int max_index = 0;
  for (const Panel& p : panels)
    for (const Grid& g : p.grid) max_index = std::max({max_index, g.rows - 1, g.cols - 1});

  // Largest cell size at which all panels fit, side by side or stacked; with a legend strip
  // reserved at the bottom only if the legend does not fit the empty corner above A.
  struct Fit {
    float s = 0;
    bool stacked = false;
    bool row = false;
  };
  const bool gemm_shape = !panels[0].single;
  auto solve = [&](Rect box) {
    Fit best, best_row;
    for (bool row : {false, true})
    for (bool stacked : {false, true}) {
      if ((stacked && panels.size() < 2) || (row && !gemm_shape)) continue;
      float lo = 2, hi = kMaxCell;
      for (int it = 0; it < 24; ++it) {
        float s = (lo + hi) / 2;
        Metrics m = metrics(cv, fs, s, max_index, ldm, row);
        float w = 0, h = 0, pg = fs * 2.5f;
        for (const Panel& p : panels) {
          Vec2 sz = panel_size(cv, *op, p, m, t);
          w = stacked ? std::max(w, sz.x) : w + sz.x;
          h = stacked ? h + sz.y : std::max(h, sz.y);
        }
        (stacked ? h : w) += pg * (panels.size() - 1);
        (w <= box.w() && h <= box.h() ? lo : hi) = s;
      }
      Fit& b = row ? best_row : best;
      if (lo > b.s + 0.5f) b = {lo, stacked, row};
    }
    // B above C and A at C's left draws C = A B as the product is written; a short, wide pane would shrink
    // that picture's cells to a few pixels (32 rows of cells and two title bands stacked): there, one row
    // A x B = C, where its cells come out clearly larger.
    if (best_row.s > best.s * 1.4f) best = best_row;
    best.s = std::floor(best.s);  // whole pixels keep cell edges crisp on screen
    return best;
  };
  const float legend_size = kMinTextSize;
  Fit fit = solve(area);
  // Two sources side by side in cells too small for a lane number: the documented one alone, its header
  // saying how the trace compares (mismatching cells stay marked); maximising or zooming out shows both.
  if (panels.size() == 2 && fit.s < kCompactCell) {
    panels.pop_back();
    // One clause over the grids (two labels side by side would read as naming different grids), the verdict
    // before the device so that a cut line keeps it.
    panels[0].header.back().push_back(
        {total_mismatch > 0 ? ", and as traced: " + std::to_string(total_mismatch) + " cells differ (marked)"
                            : ", identical to the trace",
         total_mismatch > 0 ? t.bad : t.good, Font::Sans});
    panels[0].header.back().push_back({" on " + device, t.text_dim, Font::Sans});
    fit = solve(area);
  }
  Metrics m = metrics(cv, fs, fit.s, max_index, ldm, fit.row);
  auto corner_of = [&](const Panel& p) {
    if (p.single || m.row) return Rect{};  // no empty corner without the GEMM arrangement: the legend goes below
    const Grid &A = p.grid[0], &B = p.grid[1];
    return Rect{{p.origin.x, B.origin.y - m.idx_h - m.title_h + m.fs * 0.2f},
                {A.origin.x + A.cols * m.s + m.gap * 0.5f, A.origin.y - m.title_h - m.idx_h - m.fs * 0.4f}};
  };
  auto layout_panels = [&](Rect box) {
    float pg = fs * 2.5f, w = 0, h = 0;
    std::vector<Vec2> sizes;
    for (const Panel& p : panels) {
      sizes.push_back(panel_size(cv, *op, p, m, t));
      w = fit.stacked ? std::max(w, sizes.back().x) : w + sizes.back().x;
      h = fit.stacked ? h + sizes.back().y : std::max(h, sizes.back().y);
    }
    (fit.stacked ? h : w) += pg * (panels.size() - 1);
    Vec2 at{box.min.x + std::max(0.0f, (box.w() - w) * 0.5f),
            box.min.y + std::max(0.0f, (box.h() - h) * 0.3f)};
    for (size_t i = 0; i < panels.size(); ++i) {
      place_panel(cv, *op, t, panels[i], at, m);
      (fit.stacked ? at.y : at.x) += (fit.stacked ? sizes[i].y : sizes[i].x) + pg;
    }
  };
  layout_panels(area);
  // Whether cells of side s carry labels (lane numbers) in some grid, and whether those include the element's index.
  struct Labels {
    bool any = false, elems = false;
  };
  const auto labels_at = [&](float s) {
    Labels l;
    for (const Panel& p : panels)
      for (const Grid& g : p.grid)
        if (g.layout) {
          const LabelStyle ls = label_style(cv, g, s, 1);
          l.any = l.any || ls.size > 0;
          l.elems = l.elems || (ls.size > 0 && ls.elem);
        }
    return l;
  };
  bool legend_in_corner = draw_legend(cv, t, corner_of(panels[0]), legend_size, st.highlight_lane, false);
  const Rect strip{{area.min.x, area.max.y - legend_size * 2.6f}, area.max};
  // A pane too narrow for the legend's strip keeps that height for the cells (hover names a cell's lane).
  bool legend_in_strip = !legend_in_corner && draw_legend(cv, t, strip, legend_size, st.highlight_lane, false);
  if (legend_in_strip) {
    Rect rest = area;
    rest.max.y -= legend_size * 3.2f;
    const Fit without = fit;
    fit = solve(rest);
    // The key to the lane colours gives way where its strip would cost the cells their lane numbers, which say
    // more.
    if (labels_at(without.s).any && !labels_at(fit.s).any) fit = without, legend_in_strip = false;
    else {
      m = metrics(cv, fs, fit.s, max_index, ldm, fit.row);
      layout_panels(rest);
    }
  }

  // Cells under 3 px show no pattern, and where not even those fit (the search's floor) the grids would spill
  // past the pane: say so instead, as the other views do.
  if (fit.s < 3) {
    viz::draw_spans(cv, title_at, {{op->name, t.text, Font::SansBold}}, title_size, area.w());
    cv.text({area.center().x, std::max(area.min.y, area.center().y - fs * 0.5f)},
            viz::elide(cv, "too small for the fragment grids: " + viz::maximise_hint(), fs, Font::Sans, area.w()),
            t.text_dim, fs, Align::Center);
    cv.pop_clip();
    return;
  }

  // The title: how to read a cell, as this picture draws them (labels only where cells have room).
  const Labels drawn = labels_at(m.s);
  const bool labelled = drawn.any, elems = drawn.elems;
  if (hover) hover->labelled = labelled;
  const std::string holder = ldm ? "the lane receiving it" : wg ? "the lane of its band's warp holding it" : "the lane holding it";
  const std::string how = !labelled ? "   colour: " + holder +
                                          viz::hint(" (hover a cell; zoom in for labels)", " (a larger picture labels it)")
                          : elems   ? (wg ? "   lane:register, " + holder + " and the register's index"
                                              : "   lane:element, " + holder + " and its index in that lane's " +
                                                    std::string(ldm ? "registers" : "fragment"))
                                    : "   each cell: " + holder + viz::hint(" (hover for its element)", "");
  std::vector<viz::Span> title = {{op->name, t.text, Font::SansBold}};
  if (st.highlight_lane >= 0)  // said here too: the toolbar's chip is left out where it would take a row of its own
    title.push_back({"   lane " + std::to_string(st.highlight_lane) + " highlighted" +
                         viz::hint(" (click it again to clear)", ""),
                     t.accent, Font::Sans});
  title.push_back({how, t.text_dim, Font::Sans});
  viz::draw_spans(cv, title_at, title, title_size, area.w());

  for (Panel& p : panels) {
    float y = p.origin.y;
    float head_w = area.max.x - p.origin.x;
    if (!fit.stacked && &p != &panels.back()) head_w = panels[1].origin.x - p.origin.x - fs;
    for (const auto& line : p.header) {
      viz::draw_spans(cv, {p.origin.x, y}, line, fs * 1.1f, head_w);
      y += m.head_lh;
    }
    for (int o = 0; o < 3; ++o) {
      const Grid& g = p.grid[o];
      if (p.single && o != 0) continue;  // ldmatrix has no B or C, wgmma (drawn in slot 0) no A or B
      draw_grid(cv, t, g, m, st.highlight_lane);
      draw_indices(cv, t, g, m);
      if (m.row && o < 2) {  // A x B = C: the sign in the gap after A's and B's columns
        const float gap_x = p.grid[o + 1].origin.x - m.idx_w - m.gap * 0.5f;  // place_panel's gap, halved
        const float mid_y = g.origin.y + std::min(g.rows, p.grid[o + 1].rows) * m.s * 0.5f;
        cv.text({gap_x, mid_y - m.fs * 0.6f}, o == 0 ? "\xC3\x97" : "=", t.text_dim, m.fs, Align::Center);
      }
      if (p.single) draw_suppliers(cv, t, g, m, in.row_suppliers, st.highlight_lane);
      // Title room: A's ends where C's row indices begin; B's and C's run to the panel's edge.
      // A single tile's title starts over its chips and runs to the panel's edge.
      float tx = p.single ? g.origin.x - g.lead : o == 0 ? p.origin.x + m.idx_w : g.origin.x;
      const float ty = g.origin.y - m.idx_h - m.title_h;
      // In a row, A's and B's end where the next grid's row indices begin.
      const int next = m.row ? o + 1 : o == 0 ? 2 : 3;
      float max_w = next < 3 ? p.grid[next].origin.x - m.idx_w - tx - m.fs * 0.5f : area.max.x - tx;
      if (!fit.stacked && next == 3 && &p != &panels.back()) max_w = panels[1].origin.x - tx - m.fs;
      if (p.single)
        max_w = (!fit.stacked && &p != &panels.back()) ? panels[1].origin.x - tx - m.fs : area.max.x - tx;
      viz::draw_spans(cv, {tx, ty}, title_line1(*op, p, o, t), m.fs, max_w);
      viz::draw_spans(cv, {tx, ty + m.fs * 1.2f}, title_line2(*op, p, o, t, m.row), sub_size(m.fs), max_w);
    }
  }

  if (legend_in_corner) {
    draw_legend(cv, t, corner_of(panels[0]), legend_size, st.highlight_lane, true);
  } else if (legend_in_strip) {
    draw_legend(cv, t, strip, legend_size, st.highlight_lane, true);
  }

  // Hover: the element under the mouse, with every slot that holds it.
  for (const Panel& p : panels)
    for (int o = 0; o < 3; ++o) {
      const Grid& g = p.grid[o];
      Rect all{g.origin, {g.origin.x + g.cols * m.s, g.origin.y + g.rows * m.s}};
      if (!g.layout || !all.contains(mouse)) continue;
      int col = std::min(g.cols - 1, int((mouse.x - g.origin.x) / m.s));
      int row = std::min(g.rows - 1, int((mouse.y - g.origin.y) / m.s));
      cv.rect(cell_rect(g, m, row, col).inset(-1), t.accent, 2);
      if (hover) {
        hover->valid = true;
        hover->operand = p.single ? p.single_op : o;
        hover->traced = p.traced;
        hover->row = g.band_rows ? (col / g.band_cols) * g.band_rows + row : row;  // the operand's own coordinates
        hover->col = g.band_rows ? col % g.band_cols : col;
        hover->holders = g.holders[size_t(row) * g.cols + col];
      }
    }
  cv.pop_clip();
}

}  // namespace gs
