// Global-memory view: how a kernel's warps read A and B and write C, in the units the memory system
// moves (core/gmem.h):
//   site table   each traced load, cp.async and store site with its requests, sectors per request and
//                the ideal (every sector full), the number Nsight Compute reports for the same ratio
//   caption      the selected request in words
//   access map   the matrix rows the request touches, one strip each, cut into 32-byte sectors; each
//                lane's bytes filled in its colour and numbered, the sectors the request moves outlined.
//                A row-wise walk (one element of 32 rows) shows 32 mostly empty sectors; a coalesced
//                one fills 4 sectors of one row.
//   compare      the same site of another rung (default: the rung before), beside or below
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

using viz::Span;

int mat_index(char m) { return m == 'B' ? 1 : m == 'C' ? 2 : 0; }

// A whole number as one ("32" beside "4", where "4.0" stood beside "32"), else with its tenths ("16.7").
std::string fmt_ratio(double v) {
  char b[32];
  std::snprintf(b, sizeof b, std::fabs(v - std::round(v)) < 0.05 ? "%.0f" : "%.1f", v);
  return b;
}

// A cp.async site whose padded rows Nsight Compute counts more sectors for than its bytes fill (mma_f16/08: 18).
bool counted_more(const GmemSite& s) {
  return s.kind == "cp.async" && s.sectors <= s.ideal_sectors && s.ncu_per_request > s.ideal_per_request() + 0.005;
}

std::string verdict(const GmemSite& s) {
  if (s.requests == 0) return "";
  if (counted_more(s)) return "coalesced; Nsight: " + viz::fmt_num(s.ncu_per_request);
  if (s.sectors <= s.ideal_sectors) return "coalesced";
  return fmt_ratio(double(s.sectors) / std::max<int64_t>(1, s.ideal_sectors)) + "x the ideal";
}

Color verdict_color(const GmemSite& s, const Theme& t) {
  if (counted_more(s)) return t.warn;
  if (s.sectors <= s.ideal_sectors) return t.good;
  return double(s.sectors) / std::max<int64_t>(1, s.ideal_sectors) <= 2.0 ? t.warn : t.bad;
}

// The request of `site` the state picks: the state's index, clamped.
const GmemAccess* pick_access(const GmemSite& s, int access) {
  if (s.accesses.empty()) return nullptr;
  return &s.accesses[size_t(std::clamp(access, 0, int(s.accesses.size()) - 1))];
}

// Where request `index` of `s` (clamped: `at`) stands among its warp's requests in its k-iteration: its number from
// 0, and how many there are. The caption numbers requests so, and the rung beside is paired by it.
struct InWarp {
  int nth = 0, count = 0, at = 0;
};
InWarp in_warp(const GmemSite& s, int index) {
  if (s.accesses.empty()) return {};
  const int at = std::clamp(index, 0, int(s.accesses.size()) - 1);
  const GmemAccess& a = s.accesses[size_t(at)];
  InWarp w;
  w.at = at;
  for (size_t i = 0; i < s.accesses.size(); ++i)
    if (s.accesses[i].warp == a.warp && s.accesses[i].iteration == a.iteration) ++w.count, w.nth += int(i) < at;
  return w;
}

// The request of `other` (another rung's site) to set beside request `index` of `site`: the same warp's request of the
// same number within that warp and k-iteration, or its last where it makes fewer; where `other` has none of that
// warp, the same number over all its requests, clamped. (Pairing by the bare index put sgemm/09's warp 1 request 1,
// its 17th, beside sgemm/08's 4th and last: warp 1's second.)
int paired_index(const GmemSite& site, int index, const GmemSite& other) {
  if (other.accesses.empty()) return -1;
  const int last = int(other.accesses.size()) - 1;
  if (site.accesses.empty()) return std::clamp(index, 0, last);
  const InWarp w = in_warp(site, index);
  const GmemAccess& a = site.accesses[size_t(w.at)];
  const int nth = w.nth;
  int found = -1, seen = 0;
  for (size_t j = 0; j < other.accesses.size() && seen <= nth; ++j)
    if (other.accesses[j].warp == a.warp && other.accesses[j].iteration == a.iteration) found = int(j), ++seen;
  return found >= 0 ? found : std::clamp(index, 0, last);
}

// A lane's elements of one matrix row.
struct LaneRun {
  int lane = 0;
  int64_t col0 = 0, col1 = 0;  // [col0, col1) in elements
};

// Matrix rows one request touches: the access map draws one strip each.
int rows_touched(const GmemAccess& a, int elem_bytes, int64_t ld) {
  std::set<int64_t> rows;
  for (const auto& o : a.offset)
    if (o) rows.insert(matrix_cell(*o, std::max<int64_t>(1, ld), std::max(1, elem_bytes)).row);
  return int(rows.size());
}

// The access map of one request (see the file comment); returns the height used.
float draw_access_map(Canvas& c, Rect box, const Theme& t, const GmemAccess& a, int elem_bytes, int64_t ld, float fs,
                      int highlight_lane, Vec2 mouse, int* hover_lane) {
  const int eb = std::max(1, elem_bytes);
  const int64_t row_elems = std::max<int64_t>(1, ld);
  const int per_sector = std::max(1, kSectorBytes / eb);
  // Rows touched, each with its lanes' element runs.
  std::map<int64_t, std::vector<LaneRun>> rows;
  for (int lane = 0; lane < 32; ++lane) {
    if (!a.offset[size_t(lane)]) continue;
    const MatrixCell cell = matrix_cell(*a.offset[size_t(lane)], row_elems, eb);
    rows[cell.row].push_back({lane, cell.col, cell.col + std::max(1, a.width / eb)});
  }
  if (rows.empty()) return 0;
  // Columns shown: whole sectors from the first touched to the last, over every row, at most 64 sectors.
  int64_t s0 = INT64_MAX, s1 = INT64_MIN;
  for (const auto& [row, runs] : rows)
    for (const LaneRun& lr : runs) {
      s0 = std::min(s0, lr.col0 / per_sector);
      s1 = std::max(s1, (lr.col1 - 1) / per_sector);
    }
  const int64_t kMaxSectors = 64;
  const bool cut = s1 - s0 + 1 > kMaxSectors;
  if (cut) s1 = s0 + kMaxSectors - 1;
  const int sectors = int(s1 - s0 + 1);

  const std::string row_head = std::string(1, a.matrix) + " row ";
  const float label_w = c.text_size(row_head + std::to_string(rows.rbegin()->first), fs, Font::Mono).x + fs * 0.6f;
  const float gx = box.min.x + label_w;
  // Room right of the strips for "32 lanes, one element", only where some lanes share an element: a request without
  // one (tf32/12's C store) drew its four sectors as 40-pixel slivers beside 230 pixels kept for no note.
  bool broadcast = false;
  for (const auto& [row, runs] : rows) {
    std::set<int64_t> cols;
    for (const LaneRun& lr : runs) broadcast = broadcast || !cols.insert(lr.col0).second;
  }
  const float note_w = broadcast ? fs * 11 : fs * 0.5f;
  // A sector at most 10 lines wide, or as wide as its lanes need for two-digit lane numbers (8 lanes of 4 bytes).
  const float lane_w = c.text_size("31", fs, Font::Mono).x + 4;
  const float lanes_per_sector = float(per_sector) / float(std::max(1, a.width / eb));
  const float sector_w = std::min(std::max(fs * 10.0f, lane_w * lanes_per_sector),
                                  std::max(fs, box.max.x - gx - note_w) / float(sectors));
  const float axis_h = fs * 1.4f;
  const int nrows = int(rows.size());
  // The key under the map, in two lines where one would cut it (a zoomed picture's had read "outlined: th...").
  std::string foot = "box: a 32-byte sector (" + std::to_string(per_sector) +
                     " elements); cell: one lane's elements; outlined: the sectors this request moves";
  if (cut) foot += "; further sectors not drawn";
  const float foot_fs = std::max(kMinTextSize, fs * 0.9f);
  const std::vector<std::string> foot_lines = viz::wrap_lines(c, foot, foot_fs, box.w(), 3);
  const float foot_h = fs * 1.5f + float(foot_lines.size() - 1) * foot_fs * 1.3f;
  // As tall as the box allows, up to 1.9 lines; a whole map in thin strips rather than a cut one.
  const float row_h = std::clamp((box.h() - axis_h - foot_h) / float(nrows), 2.0f, fs * 1.9f);
  const float elem_w = sector_w / float(per_sector);
  const bool row_labels_fit = row_h >= fs * 1.05f;

  // Column axis: the first element of every sector that has room for its number.
  float y = box.min.y;
  float last_end = -1e9f;
  // "col" in the row labels' gutter, left of the first number: written before it ("col 0"), it took the room of the
  // next sector's number (sgemm/06's C store read "col 0 | 16 | 24", its 8 unlabelled).
  if (c.text_size("col ", fs * 0.9f, Font::Mono).x <= gx - box.min.x)
    c.text({gx - fs * 0.3f, y}, "col", t.text_dim, std::max(kMinTextSize, fs * 0.9f), Align::Right, Font::Mono);
  for (int s = 0; s < sectors; ++s) {
    const std::string lab = std::to_string((s0 + s) * per_sector);
    const float x = gx + float(s) * sector_w;
    const float w = c.text_size(lab, fs * 0.9f, Font::Mono).x;
    if (x < last_end + fs * 0.5f || x + w > box.max.x) continue;
    c.text({x, y}, lab, t.text_dim, std::max(kMinTextSize, fs * 0.9f), Align::Left, Font::Mono);
    last_end = x + w;
  }
  y += axis_h;

  // Lane numbers in every cell of the map or in none: 0-9 alone, where two digits do not fit, read as a fault (a
  // row of lanes 0-7 numbered above rows of lanes 8-31 without, in hopper/04's C store).
  const float cell_h = std::max(3.0f, row_h - std::min(4.0f, row_h * 0.2f));
  const float ls = std::min(fs, cell_h * 0.95f);
  bool labels_fit = ls >= kMinTextSize;
  const auto cell_label = [](const std::vector<int>& lanes) {  // "5", or "5+3": lane 5 and 3 more on one element
    return std::to_string(lanes.front()) + (lanes.size() > 1 ? "+" + std::to_string(lanes.size() - 1) : "");
  };
  // A row's cells, in column order within the window: several lanes on one element (a broadcast) share its cell,
  // drawn as the element's last run; the label names the first lane and the count.
  struct Cell {
    std::vector<int> lanes;
    const LaneRun* run;
  };
  const auto cells_of = [&](const auto& runs) {
    std::map<int64_t, Cell> by_col;
    for (const LaneRun& lr : runs) {
      Cell& cell = by_col[lr.col0];
      cell.lanes.push_back(lr.lane);
      cell.run = &lr;
    }
    std::vector<Cell> cells;
    for (auto& [col0, cell] : by_col)
      if (col0 / per_sector <= s1) cells.push_back(std::move(cell));
    return cells;
  };
  for (const auto& [row, runs] : rows)
    for (const Cell& cell : cells_of(runs)) {
      const float w = float(std::min(cell.run->col1, (s1 + 1) * per_sector) - cell.run->col0) * elem_w - 2;
      labels_fit = labels_fit && c.text_size(cell_label(cell.lanes), ls, Font::Mono).x <= std::max(2.0f, w) - 2;
    }
  int r = 0;
  int64_t prev_row = INT64_MIN;
  for (const auto& [row, runs] : rows) {
    const float ry = y + float(r) * row_h;
    if (row_labels_fit || r == 0 || r == nrows - 1) {
      const bool gap = prev_row != INT64_MIN && row != prev_row + 1;
      c.text({box.min.x, ry + (cell_h - fs) * 0.5f}, row_head + std::to_string(row), gap ? t.text : t.text_dim,
             std::max(kMinTextSize, std::min(fs, row_h)), Align::Left, Font::Mono);
    }
    prev_row = row;
    // Sectors of the window: faint; touched ones outlined after the lanes are drawn.
    std::set<int64_t> touched;
    for (const LaneRun& lr : runs)
      for (int64_t s = lr.col0 / per_sector; s <= (lr.col1 - 1) / per_sector; ++s) touched.insert(s);
    for (int s = 0; s < sectors; ++s)
      c.rect_filled({{gx + float(s) * sector_w + 1, ry}, {gx + float(s + 1) * sector_w - 1, ry + cell_h}},
                    t.grid.with_alpha(touched.count(s0 + s) ? 255 : 110));
    // Lanes, a cell per element.
    const std::vector<Cell> cells = cells_of(runs);
    for (const Cell& cl : cells) {
      const std::vector<int>& lanes = cl.lanes;
      const LaneRun* lr = cl.run;
      const float x0 = gx + float(lr->col0 - s0 * per_sector) * elem_w + 1;
      const float x1 = gx + float(std::min(lr->col1, (s1 + 1) * per_sector) - s0 * per_sector) * elem_w - 1;
      const Rect cell{{x0, ry}, {std::max(x0 + 2, x1), ry + cell_h}};
      const Color col = lane_color(lanes.front(), t);
      c.rect_filled(cell, col);
      const bool lit = std::find(lanes.begin(), lanes.end(), highlight_lane) != lanes.end();
      if (lit) c.rect(cell.inset(-1), t.text, 2);
      if (hover_lane && cell.contains(mouse)) *hover_lane = lanes.front();
      const std::string lab = cell_label(lanes);
      if (labels_fit)
        c.text({cell.center().x, ry + (cell_h - ls) * 0.5f}, lab, text_on(col), ls, Align::Center, Font::Mono);
    }
    // Lanes that share an element, said beside the strip: a broadcast moves one sector for many lanes.
    for (const Cell& cl : cells) {
      if (cl.lanes.size() < 2 || !row_labels_fit) continue;
      const std::string note = std::to_string(cl.lanes.size()) + " lanes, one element";
      const float nx = gx + float(sectors) * sector_w + fs * 0.6f;
      if (nx + c.text_size(note, fs, Font::Sans).x <= box.max.x)
        c.text({nx, ry + (cell_h - fs) * 0.5f}, note, t.text_dim, std::max(kMinTextSize, std::min(fs, row_h)));
      break;
    }
    for (int64_t s : touched)
      if (s <= s1) c.rect({{gx + float(s - s0) * sector_w, ry - 1}, {gx + float(s - s0 + 1) * sector_w, ry + cell_h + 1}},
                          t.text, 1.5f);
    ++r;
  }
  y += float(nrows) * row_h + fs * 0.3f;
  for (size_t i = 0; i < foot_lines.size(); ++i)
    c.text({box.min.x, y + float(i) * foot_fs * 1.3f}, foot_lines[i], t.text_dim, foot_fs);
  return y + fs * 1.4f + float(foot_lines.size() - 1) * foot_fs * 1.3f - box.min.y;
}

// "A, warp 0, k-iteration 0, request 1 of 8: 32 lanes x 4 B = 128 B asked, 32 sectors moved (1024 B) in 32
// lines; ideal 4", counting the requests of that warp in that k-iteration (the bank view's count too).
std::string caption(const GmemSite& s, const GmemAccess& a, int index) {
  const GmemCost cost = gmem_cost(a);
  const InWarp place = in_warp(s, index);
  const int before = place.nth, count = place.count;
  std::string w = s.name + " " + (a.kind == "cp.async" ? "cp.async" : a.kind) + ", warp " + std::to_string(a.warp) + ", " +
                  iteration_name(a.iteration) +
                  (count > 1 ? ", request " + std::to_string(before + 1) + " of " + std::to_string(count) : "") + ": " +
                  std::to_string(cost.lanes) + " lanes x " + std::to_string(a.width) + " B, " + std::to_string(cost.bytes) +
                  " distinct bytes; " + std::to_string(cost.sectors) + (cost.sectors == 1 ? " sector" : " sectors") +
                  " moved in " + std::to_string(cost.lines) + (cost.lines == 1 ? " line" : " lines") + ", ideal " +
                  std::to_string(cost.ideal_sectors);
  return w;
}

struct Column {
  std::string head;
  Align align;
  float w = 0;
};

}  // namespace

int gmem_default_site(const std::vector<GmemSite>& sites) {
  int best = -1;
  double worst = 0;
  for (size_t i = 0; i < sites.size(); ++i) {
    if (sites[i].requests == 0) continue;
    const double ratio = double(sites[i].sectors) / std::max<int64_t>(1, sites[i].ideal_sectors);
    if (best < 0 || ratio > worst + 1e-9) best = int(i), worst = ratio;
  }
  return best;
}

int gmem_compare_site(const std::vector<GmemSite>& sites, const GmemSite& like) {
  for (size_t i = 0; i < sites.size(); ++i)
    if (sites[i].name == like.name && sites[i].kind == like.kind) return int(i);
  for (size_t i = 0; i < sites.size(); ++i)  // a load became a cp.async (or back): same matrix
    if (sites[i].name == like.name && (sites[i].kind == "store") == (like.kind == "store")) return int(i);
  return -1;
}

void draw_gmem_view(Canvas& c, Rect r, const Theme& t, const GmemViewInput& in, const GmemViewState& st, Vec2 mouse,
                    GmemHover* hover) {
  if (hover) *hover = GmemHover{};
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 55.0f, r.h() / 34.0f), kMinTextSize, 17.0f);
  const float pad = std::max(6.0f, fs * 0.7f);
  const Rect area = r.inset(pad);
  float y = area.min.y;

  const std::string& shown = viz::title_kernel(in.kernel, in.shown_as);
  std::vector<Span> title{{shown.empty() ? std::string("no kernel selected") : shown, t.text, Font::SansBold}};
  // Traced at another size than the rung beside (mma_f16/13 at 5120x1280x4096): said at once, in the title, where
  // even a pane with no room for the maps shows it.
  if (!in.compare_kernel.empty() && !in.shape.empty() && in.shape != in.compare_shape)
    title.push_back({" at " + in.shape, t.warn, Font::Sans});
  title.push_back({"   global-memory access", t.text_dim, Font::Sans});
  if (!in.traced_from.empty()) title.push_back({" \xC2\xB7 traced on " + in.traced_from, t.text_dim, Font::Sans});
  if (!in.kernel.empty()) title.push_back({viz::traced_as_note(in.kernel, in.shown_as), t.text_dim, Font::Sans});
  viz::draw_spans(c, {area.min.x, y}, title, fs * 1.1f, area.w());
  y += fs * 1.1f * 1.6f;

  const int site_index = st.site >= 0 && st.site < int(in.sites.size()) ? st.site : gmem_default_site(in.sites);
  if (site_index < 0) {
    const std::string msg =
        !in.no_lane_addresses.empty() ? in.no_lane_addresses
        : !in.untraced.empty() && in.capture_has_gmem ? in.kernel + ": " + in.untraced
        : in.live && !in.capture_has_gmem
            ? "The live session traces no global addresses: `gemmscope record` does, and --replay shows them."
        : !in.kernel_recorded ? "This capture holds no record of " + in.kernel +
                                    ": it was recorded before the rung existed. `gemmscope record` on a GPU records it."
        : in.capture_has_gmem ? "No global access of " + in.kernel + " was traced: its loads and stores carry no probe."
                              : "This capture has no traced global addresses: it was recorded before gemmscope traced "
                                "them. `gemmscope record` on a GPU records them.";
    viz::centered_message(c, r, msg, t.text_dim, fs);
    c.pop_clip();
    return;
  }

  // ---- Site table ----------------------------------------------------------------------------
  std::vector<Column> cols = {{"site", Align::Left},        {"kind", Align::Left},         {"bytes/lane", Align::Right},
                              {"requests", Align::Right},   {"sectors/req", Align::Right}, {"ideal", Align::Right},
                              {"", Align::Left}};
  std::vector<std::vector<std::string>> table;
  for (const GmemSite& s : in.sites)
    table.push_back({s.name, s.kind, std::to_string(s.width), std::to_string(s.requests), fmt_ratio(s.sectors_per_request()),
                     fmt_ratio(s.ideal_per_request()), verdict(s)});
  const float ts = std::max(kMinTextSize, fs * 0.9f), cgap = ts * 1.1f;
  for (size_t i = 0; i < cols.size(); ++i) {
    cols[i].w = c.text_size(cols[i].head, ts, Font::Sans).x;
    for (const auto& row : table)
      cols[i].w = std::max(cols[i].w, c.text_size(row[i], ts, i == 0 || i == 6 ? Font::SansBold : Font::Sans).x);
  }
  // Where the table is wider than the view, the columns a reader needs least go first (the tooltip says
  // them): bytes per lane, requests, the ideal.
  auto table_w = [&] {
    float w = 0;
    for (const Column& col : cols) w += col.w + cgap;
    return w;
  };
  for (size_t drop : {size_t(2), size_t(3), size_t(5)})
    if (table_w() > area.w()) cols[drop].w = -cgap, cols[drop].head.clear();
  const float row_h = ts * 1.35f;
  float x = area.min.x;
  for (const Column& col : cols) {
    if (col.w < 0) continue;
    const float tx = col.align == Align::Right ? x + col.w : x;
    c.text({tx, y}, col.head, t.text_dim, ts, col.align);
    x += col.w + cgap;
  }
  y += row_h;
  for (size_t i = 0; i < in.sites.size(); ++i) {
    const Rect row{{area.min.x - 2, y - 1}, {std::min(area.max.x, x), y + row_h - 1}};
    if (int(i) == site_index) c.rect_filled(row, t.accent.with_alpha(60), 3);
    if (hover && row.contains(mouse)) hover->site = int(i);
    x = area.min.x;
    for (size_t k = 0; k < cols.size(); ++k) {
      if (cols[k].w < 0) continue;  // dropped for width
      const float tx = cols[k].align == Align::Right ? x + cols[k].w : x;
      const Color ink = k == 6 ? verdict_color(in.sites[i], t) : t.text;
      c.text({tx, y}, table[i][k], ink, ts, cols[k].align, k == 0 || k == 6 ? Font::SansBold : Font::Sans);
      x += cols[k].w + cgap;
    }
    y += row_h;
  }
  if (cols[3].w >= 0) {  // what the requests column sums, which is more than the caption's one warp in one k-iteration
    std::vector<int> warps, iters;
    for (const GmemSite& s : in.sites)
      for (const GmemAccess& x : s.accesses) warps.push_back(x.warp), iters.push_back(x.iteration);
    const std::string counted = "requests: each site's traced requests, " + viz::traced_scope(warps, iters);
    c.text({area.min.x, y}, viz::elide(c, counted, ts, Font::Sans, area.w()), t.text_dim, ts);
    y += ts * 1.3f;
  }
  // A note's lines while whole lines fit the pane, the last one shown ending in "..." where more were left (a
  // short pane showed the cp.async note's last line cut through its middle at the pane's foot).
  const auto note_lines = [&](const std::string& note, Color ink) {
    const std::vector<std::string> lines = viz::wrap(c, note, ts, area.w());
    for (size_t i = 0; i < lines.size() && y + ts <= area.max.y + 0.5f; ++i) {
      const bool last = i + 1 < lines.size() && y + ts * 1.3f + ts > area.max.y + 0.5f;
      c.text({area.min.x, y}, viz::paragraph_line(c, lines[i], note, last, ts, area.w()), ink, ts);
      y += ts * 1.3f;
    }
  };
  // What is not traced first: it says why a site is missing from the table.
  if (!in.untraced.empty()) note_lines("Not traced: " + in.untraced, t.warn);
  // cp.async: what Nsight Compute counts, from the same instructions' shared-memory records, where it differs
  // from the table's sectors (padded rows: mma_f16/08's 18 for 16, which its rung 09 removes) or that it agrees.
  std::string more_sites, same_sites;
  for (const GmemSite& x : in.sites)
    if (x.kind == "cp.async" && x.ncu_per_request > 0) {
      // More than the table's where rows are padded; the same where they are not. (Fewer, where scattered lanes
      // share a global line, is left to the table: the note's reasons are not its.)
      const double d = x.ncu_per_request - x.sectors_per_request();
      std::string* list = d > 0.005 ? &more_sites : d > -0.005 ? &same_sites : nullptr;
      if (list) *list += (list->empty() ? "" : ", ") + x.name + " " + viz::fmt_num(x.ncu_per_request);
    }
  // The counts are means over the warps of the shared-memory trace; where one warp's copies land elsewhere in their
  // units than warp 0's (the one traced both ways), the note names both (wmma/08's B: warp 0's 16, warp 7's 20, 18).
  std::string others;
  for (const GmemSite& x : in.sites)
    if (x.kind == "cp.async" && x.ncu_per_request > 0 && !x.ncu_other_warps.empty()) {
      std::string warps;
      for (size_t k = 0; k < x.ncu_other_warps.size(); ++k)
        warps += std::string(k ? ", " : "") + "warp " + std::to_string(x.ncu_other_warps[k].first) + "'s " +
                 viz::fmt_num(x.ncu_other_warps[k].second);
      others += (others.empty() ? "" : "; ") + x.name + ": warp 0's " + viz::fmt_num(x.ncu_warp0) + ", " + warps +
                ", " + viz::fmt_num(x.ncu_per_request) + " over the warps traced";
    }
  const std::string warp0 = others.empty() ? ""
                                           : " Counted over the warps the shared-memory trace keeps, each against "
                                             "warp 0's global lines (the global trace keeps fewer warps), whose copies "
                                             "land at other places in their units (" +
                                                 others + ").";
  if (!more_sites.empty())
    note_lines("cp.async, as Nsight Compute counts it: " + more_sites + " sectors per request" +
                   (same_sites.empty() ? "" : " (" + same_sites + " as here)") +
                   ", one per pair of 128-byte global line and 32-byte unit of shared memory the bytes land in, and "
                   "these padded rows start 16 bytes into a unit (over the kernel, what it measured: README, "
                   "\"Sectors per request\")." + warp0,
               t.warn);
  else if (!same_sites.empty())
    note_lines("cp.async, as Nsight Compute counts it: as the table does (" + same_sites +
                   "), each row landing on whole 32-byte units of shared memory." + warp0,
               warp0.empty() ? t.text_dim : t.warn);
  else if (std::any_of(in.sites.begin(), in.sites.end(), [](const GmemSite& x) { return x.kind == "cp.async"; }))
    note_lines("cp.async: Nsight Compute counts these reads under op_ld, one sector for each pair of 128-byte global "
               "line and 32-byte unit of shared memory the bytes land in, so a padded row that starts 16 bytes into "
               "a unit costs one more (17-21 for 16 in the padded rungs): README, \"Sectors per request\".",
               t.text_dim);
  y += fs * 0.5f;

  // ---- The selected request, and the other rung's same site ----------------------------------
  const GmemSite& site = in.sites[size_t(site_index)];
  const int index = std::clamp(st.access, 0, std::max(0, int(site.accesses.size()) - 1));
  const GmemAccess* a = pick_access(site, index);
  const int cmp_site = st.compare ? gmem_compare_site(in.compare_sites, site) : -1;
  const int cmp_index = cmp_site >= 0 ? paired_index(site, index, in.compare_sites[size_t(cmp_site)]) : -1;
  const GmemAccess* ca = cmp_index >= 0 ? &in.compare_sites[size_t(cmp_site)].accesses[size_t(cmp_index)] : nullptr;
  // Beside each other in a wide pane, or where that gives the maps' strips more height than one above the other
  // (sgemm/01's 32 rows under 02's one); stacked, each box gets the height its rows ask for, in proportion.
  const int rows_main = rows_touched(*a, in.elem_bytes[mat_index(a->matrix)], in.ld[mat_index(a->matrix)]);
  const int rows_cmp = ca ? rows_touched(*ca, in.compare_elem_bytes[mat_index(ca->matrix)],
                                         in.compare_ld[mat_index(ca->matrix)])
                          : 0;
  const float overhead = fs * 1.4f + ts * 1.3f * 2 + fs * 0.3f + fs * 1.4f + fs * 1.5f;  // name, caption, axis, foot
  const float avail_h = area.max.y - y;
  const float strip_beside = (avail_h - overhead - ts * 1.3f) / float(std::max({rows_main, rows_cmp, 1}));
  const float strip_stacked = (avail_h - fs * 0.5f - 2 * overhead) / float(std::max(1, rows_main + rows_cmp));
  const bool side_by_side =
      ca && (area.w() > fs * 60 || (area.w() > fs * 36 && strip_beside > std::min(strip_stacked, fs * 1.9f) * 1.3f));
  Rect main_box{{area.min.x, y}, {side_by_side ? area.center().x - fs : area.max.x, area.max.y}};
  if (ca && !side_by_side) {
    const float need_main = overhead + fs * 1.9f * float(rows_main), need_cmp = overhead + fs * 1.9f * float(rows_cmp);
    const float share = need_main + need_cmp <= avail_h - fs * 0.5f ? need_main : (avail_h - fs * 0.5f) * need_main / (need_main + need_cmp);
    main_box.max.y = y + std::max(share, std::min(overhead + fs * 1.9f, avail_h * 0.5f));
  }
  // What one request needs under its rung's name (name_h): a caption line, a gap and the smallest map.
  const float name_h = fs * 1.4f, map_need = ts * 1.3f + fs * 0.3f + fs * 3.2f;
  const std::string see_request = viz::hint("maximise this view to see the request", "a larger picture shows the request");
  // Room for one request's map but not for two stacked (the whole window's pane at 1920x1080): the selected rung's
  // alone, and a line at the foot names the rung beside, rather than two maps cut to their captions.
  const float need_one = name_h + map_need;
  const bool squeezed = ca && !side_by_side && avail_h < 2 * need_one + fs * 0.5f && avail_h >= need_one + fs * 1.4f;
  if (squeezed) main_box.max.y = area.max.y - fs * 1.4f;

  // Two rungs traced at different sizes (mma_f16/13 at 5120x1280x4096 beside rung 12 at 4096^3): their rows and
  // columns are not one matrix's, and each names its size.
  const bool shapes = ca && in.shape != in.compare_shape;
  auto draw_one = [&](Rect box, const GmemSite& s, const GmemAccess& acc, int idx, const std::string& who,
                      const std::string& shape, int which, const int (&eb)[3], const int64_t (&ld)[3]) {
    // Each request in its own box: in a short pane the map is cut at the box's edge, never drawn over the other.
    c.push_clip(box);
    float by = box.min.y;
    std::vector<viz::Span> name;
    if (!who.empty()) name.push_back({who, t.text, Font::SansBold});
    if (!who.empty() && shapes && !shape.empty()) name.push_back({" at " + shape, t.warn, Font::Sans});
    // Too short for the name, a caption line and the map: one line names the rung and says where to see its
    // request (a name alone, or a line cut in half at the pane's edge, reads as a view with nothing in it).
    if (box.max.y - by - (name.empty() ? 0 : name_h) < map_need) {
      if (by + fs * 1.2f <= box.max.y) {
        if (!name.empty()) name.push_back({": ", t.text_dim, Font::Sans});
        name.push_back({see_request, t.text_dim, Font::Sans});
        viz::draw_spans(c, {box.min.x, by}, name, fs, box.w());
      }
      c.pop_clip();
      return;
    }
    if (!name.empty()) {
      viz::draw_spans(c, {box.min.x, by}, name, fs, box.w());
      by += name_h;
    }
    for (const std::string& line : viz::wrap(c, caption(s, acc, idx), ts, box.w())) {
      if (by + ts * 1.2f > box.max.y) break;  // a line the box cuts would show as a sliver of its top
      c.text({box.min.x, by}, viz::elide(c, line, ts, Font::Sans, box.w()), t.text, ts);
      by += ts * 1.3f;
    }
    by += fs * 0.3f;
    int lane = -1;
    const int m = mat_index(acc.matrix);
    // The map only where its column axis and a row fit whole (else the axis shows as slivers of its top).
    if (box.max.y - by >= fs * 3.2f)
      draw_access_map(c, {{box.min.x, by}, box.max}, t, acc, eb[m], ld[m], fs, st.highlight_lane, mouse, &lane);
    if (hover && lane >= 0) {
      hover->lane = lane;
      hover->side = which;
    }
    c.pop_clip();
  };
  // No room for the selected request's map: one line for both sides, under the table, rather than two names each
  // with a hint (the pane of the whole window at 1600x900, where the table and its notes fill it).
  if (main_box.max.y - y - (ca ? name_h : 0) < map_need) {
    if (y + fs * 1.2f <= area.max.y) {
      std::vector<viz::Span> line{{see_request, t.text_dim, Font::Sans}};
      if (ca) {
        line.push_back({" and " + in.compare_kernel + "'s beside it", t.text_dim, Font::Sans});
        if (shapes && !in.shape.empty() && !in.compare_shape.empty())
          line.push_back({" (at " + in.shape + " and " + in.compare_shape + ")", t.warn, Font::Sans});
      }
      viz::draw_spans(c, {area.min.x, y}, line, fs, area.w());
    }
    c.pop_clip();
    return;
  }
  draw_one(main_box, site, *a, index, ca ? in.kernel : "", in.shape, 0, in.elem_bytes, in.ld);
  if (squeezed) {
    std::vector<viz::Span> line{{"beside: " + in.compare_kernel, t.text_dim, Font::Sans}};
    if (shapes && !in.compare_shape.empty()) line.push_back({" at " + in.compare_shape, t.warn, Font::Sans});
    line.push_back({": " + viz::hint("maximise this view to compare", "a larger picture shows its request"), t.text_dim,
                    Font::Sans});
    viz::draw_spans(c, {area.min.x, area.max.y - fs * 1.2f}, line, fs, area.w());
  } else if (ca) {
    const Rect cbox = side_by_side ? Rect{{area.center().x + fs, y}, area.max}
                                   : Rect{{area.min.x, main_box.max.y + fs * 0.5f}, area.max};
    if (side_by_side) c.line({area.center().x, y}, {area.center().x, area.max.y}, t.grid, 1);
    draw_one(cbox, in.compare_sites[size_t(cmp_site)], *ca, cmp_index, in.compare_kernel, in.compare_shape, 1,
             in.compare_elem_bytes, in.compare_ld);
  }
  c.pop_clip();
}

}  // namespace gs
