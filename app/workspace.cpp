#include "app/workspace.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gs {
namespace {

// Fractions that are finite, positive and sum to 1 (equal shares where they are not).
void normalise(std::vector<float>* v, size_t n) {
  v->resize(n, 0);
  float sum = 0;
  bool ok = true;
  for (float f : *v) {
    ok = ok && std::isfinite(f) && f > 0.02f;
    sum += f;
  }
  for (float& f : *v) f = ok && sum > 0 ? f / sum : 1.0f / float(n);
}

// Sizes along one axis (a column's rows, or the columns): the arranged shares of `usable`, except that a pane below
// what it needs gets that much, taken from the others in proportion to their shares. Empty when the needs add up to
// more than `usable` (and there is more than one pane).
std::vector<float> sizes_with_needs(const std::vector<float>& need, const std::vector<float>& shares, float usable) {
  const size_t n = need.size();
  float total_need = 0;
  for (float x : need) total_need += x;
  if (n > 1 && total_need > usable) return {};
  std::vector<float> h(n);
  std::vector<bool> fixed(n, false);
  for (bool changed = true; changed;) {  // at most n rounds: each fixes one more pane at its need
    changed = false;
    float left = usable, share = 0;
    for (size_t r = 0; r < n; ++r) fixed[r] ? left -= need[r] : share += shares[r];
    for (size_t r = 0; r < n; ++r) {
      h[r] = fixed[r] ? need[r] : left * (share > 0 ? shares[r] / share : 1.0f / float(n));
      if (!fixed[r] && h[r] < need[r]) fixed[r] = changed = true;
    }
  }
  return h;
}

// A column as laid out: one of the arrangement's, or neighbours folded into one where the window is too narrow for
// each to have its own (a folded column shows tabs).
struct LaidColumn {
  std::vector<size_t> from;           // the arrangement's columns it holds, left to right
  std::vector<std::string> views;
  std::vector<float> row_h;           // an unfolded column's shares of the height (a folded one shows tabs)
  float share = 0, need_w = 0;
};

}  // namespace

Arrangement default_arrangement(const std::vector<std::string>& views) {
  Arrangement a;
  if (views.empty()) return a;
  if (views.size() >= 5) {  // three columns in the table's order: the first two views, then the rest halved
    const size_t rest = views.size() - 2, second = (rest + 1) / 2;
    a.columns = {{views[0], views[1]}, {}, {}};
    for (size_t i = 2; i < views.size(); ++i) a.columns[i - 2 < second ? 1 : 2].push_back(views[i]);
    if (a.columns[2].empty()) a.columns.pop_back();
    a.column_w = {0.36f, 0.32f, 0.32f};
    a.column_w.resize(a.columns.size(), 0.32f);
    for (const auto& col : a.columns) a.row_h.push_back(std::vector<float>(col.size(), 1.0f / col.size()));
    a.row_h[0] = {0.58f, 0.42f};  // the fragment layout's grids want height
    return a;
  }
  // The first view (the fragment layout: tall grids) has a column of its own; the rest share one or two.
  a.columns.push_back({views.front()});
  const size_t rest = views.size() - 1, extra_cols = rest == 0 ? 0 : rest <= 2 ? 1 : 2;
  for (size_t c = 0; c < extra_cols; ++c) a.columns.push_back({});
  for (size_t i = 1; i < views.size(); ++i) a.columns[1 + (i - 1) * extra_cols / rest].push_back(views[i]);
  a.column_w = extra_cols == 0 ? std::vector<float>{1} : extra_cols == 1 ? std::vector<float>{0.4f, 0.6f}
                                                                         : std::vector<float>{0.36f, 0.32f, 0.32f};
  for (const auto& col : a.columns) {
    std::vector<float> h(col.size(), 1.0f / col.size());
    if (col.size() == 2) h = {0.56f, 0.44f};
    a.row_h.push_back(h);
  }
  return a;
}

void reconcile(Arrangement* a, const std::vector<std::string>& views) {
  // Drop what is not a view (or shown twice), and empty columns.
  std::vector<std::string> seen;
  for (size_t c = 0; c < a->columns.size(); ++c) {
    auto& col = a->columns[c];
    std::vector<float> h = c < a->row_h.size() ? a->row_h[c] : std::vector<float>{};
    std::vector<std::string> kept;
    std::vector<float> kept_h;
    for (size_t r = 0; r < col.size(); ++r)
      if (std::find(views.begin(), views.end(), col[r]) != views.end() &&
          std::find(seen.begin(), seen.end(), col[r]) == seen.end()) {
        kept.push_back(col[r]);
        kept_h.push_back(r < h.size() ? h[r] : 0);
        seen.push_back(col[r]);
      }
    col = kept;
    if (c < a->row_h.size()) a->row_h[c] = kept_h;
  }
  a->row_h.resize(a->columns.size());
  a->column_w.resize(a->columns.size(), 0);
  for (size_t c = a->columns.size(); c-- > 0;)
    if (a->columns[c].empty()) {
      a->columns.erase(a->columns.begin() + c);
      a->row_h.erase(a->row_h.begin() + c);
      a->column_w.erase(a->column_w.begin() + c);
    }
  if (a->columns.empty()) {
    const std::string max = a->maximized;
    const float list_w = a->list_w;
    const std::vector<std::string> recent = a->recent;
    *a = default_arrangement(views);
    a->maximized = max, a->list_w = list_w, a->recent = recent;
    seen = views;
  }
  // Views the arrangement lacks (a new version's) go under the shortest column.
  for (const std::string& v : views) {
    if (std::find(seen.begin(), seen.end(), v) != seen.end() || a->columns.empty()) continue;
    size_t shortest = 0;
    for (size_t c = 1; c < a->columns.size(); ++c)
      if (a->columns[c].size() < a->columns[shortest].size()) shortest = c;
    a->columns[shortest].push_back(v);
    a->row_h[shortest].push_back(0);
  }
  for (size_t c = 0; c < a->columns.size(); ++c) normalise(&a->row_h[c], a->columns[c].size());
  normalise(&a->column_w, a->columns.size());
  if (!std::isfinite(a->list_w) || a->list_w < 0.08f || a->list_w > 0.5f) a->list_w = 0.2f;
  if (std::find(views.begin(), views.end(), a->maximized) == views.end()) a->maximized.clear();
  std::vector<std::string> recent;  // views only, each once
  for (const std::string& v : a->recent)
    if (std::find(views.begin(), views.end(), v) != views.end() && std::find(recent.begin(), recent.end(), v) == recent.end())
      recent.push_back(v);
  a->recent = recent;
}

void activate(Arrangement* a, const std::string& view) {
  a->recent.erase(std::remove(a->recent.begin(), a->recent.end(), view), a->recent.end());
  a->recent.insert(a->recent.begin(), view);
  if (a->recent.size() > 32) a->recent.resize(32);
}

const PaneLimits::Need* PaneLimits::find(const std::string& view) const {
  for (const Need& n : needs)
    if (n.view == view) return &n;
  return nullptr;
}

float PaneLimits::need(const std::string& view, float width) const {
  const Need* n = find(view);
  return !n ? 0.0f : width < n->narrow_w ? std::max(n->min_h, n->narrow_min_h) : n->min_h;
}

float PaneLimits::need_w(const std::string& view) const {
  const Need* n = find(view);
  return n ? n->min_w : 0.0f;
}

WorkspaceLayout layout_workspace(Rect area, const Arrangement& a, float gap, const PaneLimits& limits) {
  WorkspaceLayout out;
  out.maximized = a.maximized;
  float list_w = std::round(area.w() * a.list_w);
  if (limits.list_min_w > list_w) {  // wider, as far as the widest view's need leaves room
    float widest = 0;
    for (const std::vector<std::string>& col : a.columns)
      for (const std::string& v : col) widest = std::max(widest, limits.need_w(v));
    list_w = std::max(list_w, std::round(std::min(limits.list_min_w, area.w() - gap - widest)));
  }
  out.list = Rect{area.min, {area.min.x + list_w, area.max.y}};
  out.splitters.push_back({Rect{{out.list.max.x, area.min.y}, {out.list.max.x + gap, area.max.y}}, -1, -1});
  const Rect views{{out.list.max.x + gap, area.min.y}, area.max};
  if (!a.maximized.empty()) {
    out.panes.push_back({a.maximized, views});
    return out;
  }
  std::vector<LaidColumn> cols;
  for (size_t c = 0; c < a.columns.size(); ++c) {
    LaidColumn col{{c}, a.columns[c], a.row_h[c], a.column_w[c], 0};
    for (const std::string& v : col.views) col.need_w = std::max(col.need_w, limits.tab_h > 0 ? limits.need_w(v) : 0.0f);
    cols.push_back(col);
  }
  // Too narrow for every column's views: fold two neighbours into one, the pair whose views need the least width
  // (the rightmost of equals), until the columns fit or one is left.
  const auto usable_w = [&] { return views.w() - gap * float(cols.size() - 1); };
  for (;;) {
    float total = 0;
    for (const LaidColumn& col : cols) total += col.need_w;
    if (cols.size() < 2 || total <= usable_w()) break;
    size_t best = 0;
    for (size_t i = 1; i + 1 < cols.size(); ++i)
      if (std::max(cols[i].need_w, cols[i + 1].need_w) <= std::max(cols[best].need_w, cols[best + 1].need_w)) best = i;
    LaidColumn& l = cols[best];
    const LaidColumn& r = cols[best + 1];
    l.from.insert(l.from.end(), r.from.begin(), r.from.end());
    l.views.insert(l.views.end(), r.views.begin(), r.views.end());
    l.share += r.share;
    l.need_w = std::max(l.need_w, r.need_w);
    cols.erase(cols.begin() + long(best) + 1);
  }
  std::vector<float> need_w, shares;
  for (const LaidColumn& col : cols) need_w.push_back(col.need_w), shares.push_back(col.share);
  std::vector<float> widths = sizes_with_needs(need_w, shares, usable_w());
  if (widths.empty())  // one column left, or needs that cannot be met: the shares as they are
    for (float f : shares) widths.push_back(usable_w() * f);
  float x = views.min.x;
  for (size_t c = 0; c < cols.size(); ++c) {
    const LaidColumn& col = cols[c];
    const bool last_col = c + 1 == cols.size();
    const float w = last_col ? views.max.x - x : std::round(widths[c]);
    float y = views.min.y;
    const float usable_h = views.h() - gap * float(col.views.size() - 1);
    // Too short for every view of the stack to draw (or folded): one at a time, under tabs (the arrangement is
    // kept, so a larger window or a smaller zoom shows the stack again). Otherwise each view gets what it needs.
    std::vector<float> need_h;
    for (const std::string& v : col.views) need_h.push_back(limits.tab_h > 0 ? limits.need(v, w) : 0.0f);
    const std::vector<float> heights = col.from.size() > 1 ? std::vector<float>{} : sizes_with_needs(need_h, col.row_h, usable_h);
    const bool tabs = heights.empty();
    if (tabs) {
      TabStrip strip{Rect{}, int(col.from.front()), col.views, col.views.front()};
      if (limits.tab_w) {  // a second row (or third) where the labels do not fit whole in one
        std::vector<float> want;
        for (const std::string& v : col.views) want.push_back(limits.tab_w(v));
        strip.rows = tab_rows(want, w, limits.tab_gap);
      }
      strip.rect = Rect{{x, y}, {x + w, y + limits.tab_h * float(strip.rows)}};
      const auto latest = std::find_first_of(a.recent.begin(), a.recent.end(), strip.views.begin(), strip.views.end());
      if (latest != a.recent.end()) strip.shown = *latest;  // the latest shown of its views
      out.panes.push_back({strip.shown, Rect{{x, strip.rect.max.y}, {x + w, views.max.y}}});
      out.tabs.push_back(strip);
    }
    for (size_t r = 0; !tabs && r < col.views.size(); ++r) {
      const bool last_row = r + 1 == col.views.size();
      const float h = last_row ? views.max.y - y : std::round(heights[r]);
      out.panes.push_back({col.views[r], Rect{{x, y}, {x + w, y + h}}});
      if (!last_row) out.splitters.push_back({Rect{{x, y + h}, {x + w, y + h + gap}}, int(col.from.front()), int(r)});
      y += h + gap;
    }
    // The edge right of a column moves the arrangement's edge there (of its last column folded in).
    if (!last_col) out.splitters.push_back({Rect{{x + w, views.min.y}, {x + w + gap, views.max.y}}, int(col.from.back()), -1});
    x += w + gap;
  }
  return out;
}

namespace {

// Tabs `want` wide, in order, split into rows no wider than `cap`: where each row starts. Empty where one tab alone
// is wider than `cap`.
std::vector<size_t> tab_row_starts(const std::vector<float>& want, float cap, float gap) {
  std::vector<size_t> starts;
  float x = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] > cap) return {};
    if (starts.empty() || x + gap + want[i] > cap) {
      starts.push_back(i);
      x = want[i];
    } else {
      x += gap + want[i];
    }
  }
  return starts;
}

// The narrowest width in which the tabs go in at most `rows` rows (each row then as even as the order allows).
float narrowest_rows(const std::vector<float>& want, float gap, int rows) {
  float lo = 0, hi = 0;
  for (float w : want) lo = std::max(lo, w), hi += w + gap;
  for (int i = 0; i < 40 && hi - lo > 0.25f; ++i) {
    const float mid = (lo + hi) / 2;
    const std::vector<size_t> starts = tab_row_starts(want, mid, gap);
    (!starts.empty() && starts.size() <= size_t(rows) ? hi : lo) = mid;
  }
  return hi;
}

// One row of tabs in `row`: each as wide as it wants while all fit, else the widest cut to one width, the highest
// at which they all fit, so that the short labels stay whole.
// `fill`: the room a row leaves is shared out among its tabs (the rows of a strip of several end together).
void place_row(Rect row, std::vector<float> want, float gap, bool fill, std::vector<Rect>* out) {
  const size_t n = want.size();
  const float room = row.w() - gap * float(n - 1);
  const float total = std::accumulate(want.begin(), want.end(), 0.0f);
  if (fill && total < room)
    for (float& w : want) w += (room - total) / float(n);
  std::vector<float> sorted = want;
  std::sort(sorted.begin(), sorted.end());
  float cap = sorted.back(), below = 0;
  for (size_t i = 0; i < n; ++i) {  // the cap lies among the tabs from i on, all cut to it
    const float c = (room - below) / float(n - i);
    if (c <= sorted[i]) {
      cap = c;
      break;
    }
    below += sorted[i];
  }
  float x = row.min.x;
  for (size_t i = 0; i < n; ++i) {
    const float w = std::max(std::min(want[i], cap), 1.0f);
    out->push_back(Rect{{x, row.min.y}, {x + w, row.max.y}});
    x += w + gap;
  }
}

}  // namespace

int tab_rows(const std::vector<float>& want, float room, float gap, int max_rows) {
  for (int rows = 1; rows < max_rows && size_t(rows) < want.size(); ++rows)
    if (narrowest_rows(want, gap, rows) <= room) return rows;
  return std::max(1, std::min(max_rows, int(want.size())));
}

std::vector<Rect> place_tabs(const TabStrip& strip, const std::vector<float>& label_w, float pad, float gap) {
  const size_t n = label_w.size();
  std::vector<Rect> out;
  if (n == 0) return out;
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = label_w[i] + 2 * pad;
  const int rows = std::max(1, std::min(strip.rows, int(n)));
  std::vector<size_t> starts{0};
  if (rows > 1) {  // as even as the order allows: the narrowest rows that take them all in `rows`
    starts = tab_row_starts(want, narrowest_rows(want, gap, rows), gap);
    if (starts.empty()) starts = {0};
  }
  const float row_h = strip.rect.h() / float(rows);
  for (size_t r = 0; r < starts.size(); ++r) {
    const size_t from = starts[r], to = r + 1 < starts.size() ? starts[r + 1] : n;
    const float y = strip.rect.min.y + row_h * float(r);
    place_row(Rect{{strip.rect.min.x, y}, {strip.rect.max.x, y + row_h}},
              std::vector<float>(want.begin() + long(from), want.begin() + long(to)), gap, starts.size() > 1, &out);
  }
  return out;
}

void drag_splitter(Arrangement* a, const Splitter& s, float delta, Rect area, float gap, float min_pane,
                   const PaneLimits& limits) {
  if (s.column < 0) {  // the list's edge: a share of the whole width
    const float w = std::clamp(area.w() * a->list_w + delta, min_pane, area.w() * 0.5f);
    a->list_w = w / area.w();
    return;
  }
  // Two neighbours trade size: columns c and c + 1, or rows r and r + 1 of column c.
  std::vector<float>& f = s.row < 0 ? a->column_w : a->row_h[size_t(s.column)];
  const size_t i = size_t(s.row < 0 ? s.column : s.row);
  if (i + 1 >= f.size()) return;
  const float views_w = area.w() * (1 - a->list_w) - gap;
  const float n = float(f.size());
  const float total = (s.row < 0 ? views_w : area.h()) - gap * (n - 1);
  if (total <= 0) return;
  const float pair = (f[i] + f[i + 1]) * total;
  // Rows stop where a view would get less than it needs (the layout would not draw it smaller anyway).
  float lo = min_pane, hi = min_pane;
  if (s.row >= 0 && limits.tab_h > 0) {
    const auto& col = a->columns[size_t(s.column)];
    const float width = s.rect.w();
    lo = std::max(lo, limits.need(col[i], width));
    hi = std::max(hi, limits.need(col[i + 1], width));
  }
  const float first = std::clamp(f[i] * total + delta, std::min(lo, pair / 2), pair - std::min(hi, pair / 2));
  f[i] = first / total;
  f[i + 1] = (pair - first) / total;
}

bool splitter_moves(const Arrangement& a, const Splitter& s, Rect area, float gap, float min_pane,
                    const PaneLimits& limits) {
  const WorkspaceLayout now = layout_workspace(area, a, gap, limits);
  const auto same = [](const Rect& x, const Rect& y) {
    return std::fabs(x.min.x - y.min.x) < 0.5f && std::fabs(x.max.x - y.max.x) < 0.5f &&
           std::fabs(x.min.y - y.min.y) < 0.5f && std::fabs(x.max.y - y.max.y) < 0.5f;
  };
  for (const float d : {-8.0f, 8.0f}) {
    Arrangement b = a;
    drag_splitter(&b, s, d, area, gap, min_pane, limits);
    const WorkspaceLayout l = layout_workspace(area, b, gap, limits);
    if (!same(l.list, now.list) || l.panes.size() != now.panes.size()) return true;
    for (size_t i = 0; i < l.panes.size(); ++i)
      if (l.panes[i].first != now.panes[i].first || !same(l.panes[i].second, now.panes[i].second)) return true;
  }
  return false;
}

namespace {

// The arrangement's column and row of `view`; {-1, -1} where no column holds it.
std::pair<int, int> find_view(const Arrangement& a, const std::string& view) {
  for (size_t c = 0; c < a.columns.size(); ++c)
    for (size_t r = 0; r < a.columns[c].size(); ++r)
      if (a.columns[c][r] == view) return {int(c), int(r)};
  return {-1, -1};
}

}  // namespace

DropTarget drop_target(const WorkspaceLayout& l, const Arrangement& a, const std::string& dragged, Vec2 p) {
  DropTarget t;
  if (!l.maximized.empty() || find_view(a, dragged).first < 0) return t;
  // A strip of tabs: among its column's views, after the last (the strip and the pane under it are one column).
  for (const TabStrip& s : l.tabs)
    if (s.rect.contains(p)) {
      if (s.views.empty() || (s.views.size() == 1 && s.views[0] == dragged)) return t;
      t.onto = s.views.back() == dragged && s.views.size() > 1 ? s.views[s.views.size() - 2] : s.views.back();
      t.side = DropTarget::kBelow;
      t.zone = s.rect;
      t.among_tabs = true;
      return t;
    }
  for (const auto& [name, r] : l.panes) {
    if (!r.contains(p)) continue;
    if (name == dragged) return t;  // over itself: nowhere to go
    const float fx = (p.x - r.min.x) / std::max(r.w(), 1.0f);
    const float cx = (r.min.x + r.max.x) * 0.5f, cy = (r.min.y + r.max.y) * 0.5f;
    t.onto = name;
    if (fx < 0.25f) {
      t.side = DropTarget::kLeft, t.zone = {r.min, {cx, r.max.y}};
    } else if (fx > 0.75f) {
      t.side = DropTarget::kRight, t.zone = {{cx, r.min.y}, r.max};
    } else if (p.y < cy) {
      t.side = DropTarget::kAbove, t.zone = {r.min, {r.max.x, cy}};
    } else {
      t.side = DropTarget::kBelow, t.zone = {{r.min.x, cy}, r.max};
    }
    return t;
  }
  return t;
}

bool move_view(Arrangement* a, const std::string& view, const DropTarget& t) {
  if (!t.valid() || t.onto == view) return false;
  const auto [c0, r0] = find_view(*a, view);
  if (c0 < 0 || find_view(*a, t.onto).first < 0) return false;
  const Arrangement before = *a;
  const auto drop_row = [](std::vector<float>* h, size_t r) {
    if (r < h->size()) h->erase(h->begin() + long(r));
  };
  // Out of its column; a column left empty goes, its width to the others (normalised below).
  a->columns[size_t(c0)].erase(a->columns[size_t(c0)].begin() + r0);
  if (size_t(c0) < a->row_h.size()) drop_row(&a->row_h[size_t(c0)], size_t(r0));
  if (a->columns[size_t(c0)].empty()) {
    a->columns.erase(a->columns.begin() + c0);
    if (size_t(c0) < a->row_h.size()) a->row_h.erase(a->row_h.begin() + c0);
    if (size_t(c0) < a->column_w.size()) a->column_w.erase(a->column_w.begin() + c0);
  }
  a->row_h.resize(a->columns.size());
  a->column_w.resize(a->columns.size(), 0);
  const auto [c1, r1] = find_view(*a, t.onto);
  if (t.side == DropTarget::kAbove || t.side == DropTarget::kBelow) {
    auto& col = a->columns[size_t(c1)];
    auto& h = a->row_h[size_t(c1)];
    normalise(&h, col.size());
    const size_t at = size_t(r1) + (t.side == DropTarget::kBelow ? 1 : 0);
    const float n = float(col.size() + 1);
    for (float& f : h) f *= (n - 1) / n;  // an even share for the newcomer, the others keeping their proportions
    col.insert(col.begin() + long(at), view);
    h.insert(h.begin() + long(at), 1.0f / n);
  } else {
    normalise(&a->column_w, a->columns.size());
    const size_t at = size_t(c1) + (t.side == DropTarget::kRight ? 1 : 0);
    const float n = float(a->columns.size() + 1);
    for (float& f : a->column_w) f *= (n - 1) / n;  // an even share for the new column, as for a new row
    a->columns.insert(a->columns.begin() + long(at), {view});
    a->row_h.insert(a->row_h.begin() + long(at), {1.0f});
    a->column_w.insert(a->column_w.begin() + long(at), 1.0f / n);
  }
  for (size_t c = 0; c < a->columns.size(); ++c) normalise(&a->row_h[c], a->columns[c].size());
  normalise(&a->column_w, a->columns.size());
  if (a->columns == before.columns) {  // (a column of its own dropped beside itself)
    *a = before;
    return false;
  }
  activate(a, view);  // shown, where its new column is tabs
  return true;
}

DropOutcome drop_outcome(Rect area, const Arrangement& a, const std::string& view, const DropTarget& t, float gap,
                         const PaneLimits& limits) {
  DropOutcome o;
  Arrangement after = a;
  after.maximized.clear();
  o.changes = move_view(&after, view, t);
  if (!o.changes) return o;
  const WorkspaceLayout was = layout_workspace(area, a, gap, limits), will = layout_workspace(area, after, gap, limits);
  const auto has_pane = [](const WorkspaceLayout& l, const std::string& v) {
    return std::any_of(l.panes.begin(), l.panes.end(), [&](const auto& p) { return p.first == v; });
  };
  o.as_tab = std::any_of(will.tabs.begin(), will.tabs.end(), [&](const TabStrip& s) {
    return std::find(s.views.begin(), s.views.end(), view) != s.views.end();
  });
  for (const auto& [v, r] : was.panes)
    if (v != view && !has_pane(will, v)) ++o.folded;
  return o;
}

bool rearranged(const Arrangement& a, const std::vector<std::string>& views) {
  return a.columns != default_arrangement(views).columns;
}

}  // namespace gs
