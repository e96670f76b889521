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
    *a = default_arrangement(views);
    a->maximized = max, a->list_w = list_w;
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
}

WorkspaceLayout layout_workspace(Rect area, const Arrangement& a, float gap) {
  WorkspaceLayout out;
  out.maximized = a.maximized;
  const float list_w = std::round(area.w() * a.list_w);
  out.list = Rect{area.min, {area.min.x + list_w, area.max.y}};
  out.splitters.push_back({Rect{{out.list.max.x, area.min.y}, {out.list.max.x + gap, area.max.y}}, -1, -1});
  const Rect views{{out.list.max.x + gap, area.min.y}, area.max};
  if (!a.maximized.empty()) {
    out.panes.push_back({a.maximized, views});
    return out;
  }
  float x = views.min.x;
  const float usable_w = views.w() - gap * float(a.columns.size() - 1);
  for (size_t c = 0; c < a.columns.size(); ++c) {
    const bool last_col = c + 1 == a.columns.size();
    const float w = last_col ? views.max.x - x : std::round(usable_w * a.column_w[c]);
    float y = views.min.y;
    const float usable_h = views.h() - gap * float(a.columns[c].size() - 1);
    for (size_t r = 0; r < a.columns[c].size(); ++r) {
      const bool last_row = r + 1 == a.columns[c].size();
      const float h = last_row ? views.max.y - y : std::round(usable_h * a.row_h[c][r]);
      out.panes.push_back({a.columns[c][r], Rect{{x, y}, {x + w, y + h}}});
      if (!last_row) out.splitters.push_back({Rect{{x, y + h}, {x + w, y + h + gap}}, int(c), int(r)});
      y += h + gap;
    }
    if (!last_col) out.splitters.push_back({Rect{{x + w, views.min.y}, {x + w + gap, views.max.y}}, int(c), -1});
    x += w + gap;
  }
  return out;
}

void drag_splitter(Arrangement* a, const Splitter& s, float delta, Rect area, float gap, float min_pane) {
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
  const float first = std::clamp(f[i] * total + delta, std::min(min_pane, pair / 2), pair - std::min(min_pane, pair / 2));
  f[i] = first / total;
  f[i + 1] = (pair - first) / total;
}

}  // namespace gs
