#include "app/views.h"

#include <algorithm>

namespace gs {

// The panel each app/panels/<view>.cpp defines.
std::unique_ptr<ViewPanel> make_layout_panel();
std::unique_ptr<ViewPanel> make_banks_panel();
std::unique_ptr<ViewPanel> make_swizzle_panel();
std::unique_ptr<ViewPanel> make_perf_panel();
std::unique_ptr<ViewPanel> make_code_panel();
std::unique_ptr<ViewPanel> make_timeline_panel();
std::unique_ptr<ViewPanel> make_gmem_panel();
std::unique_ptr<ViewPanel> make_roofline_panel();

const std::vector<ViewDef>& view_table() {
  static const std::vector<ViewDef> table = {
      // The fragment grids (three matrices, their titles and the warp tiling under them) want the most room: 30
      // lines of text across for A x B = C in a row, and height (more below 28 lines across, where B goes above C).
      {"layout", "Fragment layout", "Fragments", "which lane holds which element of the rung's own instructions", make_layout_panel,
       30, 28, 40, 30},
      // The bank view's controls, its site table (six sites in the mma rungs), a caption and the row of banks' ways:
      // in 17 lines the table of six sites was cut (a 1366x768 window), so a shorter column shows it under a tab.
      {"banks", "Bank conflicts", "Banks", "the rung's shared-memory accesses, one drawn bank by bank", make_banks_panel,
       22},
      {"gmem", "Global memory", "Memory", "how the rung's warps read A and B and write C: requests against 32-byte sectors", make_gmem_panel},
      {"swizzle", "Launch order", "Launch order", "which SM ran which output tile when, and what the running blocks read", make_swizzle_panel},
      {"perf", "Throughput", "Throughput", "TFLOP/s of the rung's ladder beside cuBLAS, and over size", make_perf_panel},
      // The roofline's plot needs 16 lines of text across beside its axis labels.
      {"roofline", "Roofline", "Roofline", "the ladder's intensity against TFLOP/s under the GPU's measured ceilings",
       make_roofline_panel, 17, 0, 0, 23},
      {"timeline", "Pipeline timeline", "Timeline", "a sampled block's warps over clock64: copies, waits and math", make_timeline_panel},
      {"code", "Code", "Code", "the rung's source, with what changed from the rung before", make_code_panel},
  };
  return table;
}

PaneLimits pane_limits(float font_px, float tab_h, float list_w) {
  PaneLimits l;
  l.tab_h = tab_h;
  l.list_min_w = std::max(kListMinWidthEm * font_px, list_w);
  for (const ViewDef& v : view_table())
    l.needs.push_back({v.name, v.min_h_em * font_px, v.narrow_w_em * font_px, v.narrow_min_h_em * font_px,
                       v.min_w_em * font_px});
  return l;
}

const ViewDef* find_view(const std::string& name) {
  for (const ViewDef& v : view_table())
    if (name == v.name) return &v;
  return nullptr;
}

std::vector<std::string> view_names() {
  std::vector<std::string> names;
  for (const ViewDef& v : view_table()) names.push_back(v.name);
  return names;
}

const std::vector<std::string>& planned_views() {
  static const std::vector<std::string> planned = {};
  return planned;
}

std::string views_help() {
  std::string s;
  for (const ViewDef& v : view_table()) s += std::string(v.name) + " (" + v.about + "), ";
  return s + "all (the whole window)";
}

std::string views_list(bool with_all) {
  std::string s;
  for (const ViewDef& v : view_table()) s += (s.empty() ? "" : ", ") + std::string(v.name);
  return with_all ? s + ", all" : s;
}

}  // namespace gs
