// The views table: every view the window shows, `shot --view` draws, `all` lays out and `--help` lists.
// Adding a view is one viz/ file (its drawing), one app/panels/ file (its panel) and one row here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/panels/panel.h"
#include "app/workspace.h"

namespace gs {

struct ViewDef {
  const char* name;    // `shot --view NAME`, the settings file
  const char* title;   // the pane's header
  const char* tab;     // its tab, where a column shows its views as tabs (short: six may share a column)
  const char* about;   // one line for --help: what the view shows
  std::unique_ptr<ViewPanel> (*make)();
  float min_h_em = 17;  // the shortest pane, in lines of text, the view still draws its figure in (below: tabs)
  float narrow_w_em = 0, narrow_min_h_em = 0;  // in a pane narrower than narrow_w_em lines, narrow_min_h_em instead
  float min_w_em = 20;  // the narrowest column, in lines of text, it draws in (narrower: columns fold into tabs)
};

// The kernel list's width, in lines of text, where the views can spare it: a rung's name such as 10_multistage
// beside its share of cuBLAS.
inline constexpr float kListMinWidthEm = 15;

// In the order the workspace first places them.
const std::vector<ViewDef>& view_table();
const ViewDef* find_view(const std::string& name);
std::vector<std::string> view_names();
// Each view's shortest pane at this text size, for layout_workspace; `tab_h` the height of a strip of tabs.
// `list_w`: the kernel list's own need (kernel_list_need), where it is more than kListMinWidthEm lines.
PaneLimits pane_limits(float font_px, float tab_h, float list_w = 0);
// DESIGN.md's views that are not built yet: `shot` says so rather than drawing a blank picture.
const std::vector<std::string>& planned_views();
// "layout (which lane holds ...), ..., all (the whole window)": for --help.
std::string views_help();
// "layout, banks, ..., code, all": for error messages; all (the whole window) is shot's alone, not a view to maximise.
std::string views_list(bool with_all = true);

}  // namespace gs
