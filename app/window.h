// The main window: a top bar, the kernel list, and every view of the table side by side in the
// arrangement the user made (resizable, any view maximised and back). Panels hold their own state;
// what the user chose is ViewState, what is shown is Frame.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/panels/kernels.h"
#include "app/panels/panel.h"
#include "app/render.h"
#include "app/state.h"
#include "app/workspace.h"

namespace gs {

class MainWindow {
 public:
  explicit MainWindow(Gui& gui);
  // The whole window, filling the display. Returns true while something moves by itself (live data).
  bool Draw(const Frame& f, ViewState& st);
  // One view's figure alone, filling the display, without widgets (`shot --view NAME` as PNG).
  void DrawFigure(const std::string& view, const Frame& f, ViewState& st);
  // The same with a panel of the caller's (the deck's, made fresh for each picture as its SVG's is).
  void DrawFigure(const std::string& view, const Frame& f, ViewState& st, ViewPanel& panel);
  // The panel that drew `view`'s figure last (its FigureCsv for an export).
  const ViewPanel& figure_panel(const std::string& view) { return panel(view); }
  // F12: the whole workspace as `shot --view all` draws it as SVG (draw_workspace), PNG and SVG under one name in
  // the exports folder; the PNG is drawn between frames. During a frame.
  void ExportWorkspace(const Frame& f, ViewState& st);
  // Where the panes were last drawn, for tests: view name -> rect, and the list as "kernels".
  const WorkspaceLayout& last_layout() const { return layout_; }
  const std::string& hovered_pane() const { return hovered_pane_; }  // the view under the pointer last frame
  // The alert line shown last frame ("" when there was none or it was dismissed), for tests.
  const std::string& alert_shown() const { return alert_shown_; }

 private:
  void DrawTopBar(const Frame& f, ViewState& st);
  // The exports row under the top bar (opened by its "exports" button): the folder, typed and checked, and
  // the PNG scale.
  void DrawExportsBar(ViewState& st);
  // Frame::alert on a red band under the top bar with a button that dismisses it.
  void DrawAlert(const Frame& f, ViewState& st);
  // Queue a PNG of one view's figure (w x h at 1x) into the exports folder, drawn between frames.
  void ExportPng(size_t view, int w, int h, const ViewContext& ctx);
  // Renders `draw` offscreen at w x h times the PNG scale, with the zoom and fonts times the scale, into `path`.
  bool RenderScaled(const ViewState& st, int w, int h, const std::function<void(ViewState&)>& draw,
                    const std::string& path, std::string* error);
  // `tabbed`: the pane hangs under a strip of tabs, which names it (no title of its own).
  void DrawPane(size_t view, Rect pane, const ViewContext& ctx, bool tabbed);
  // A column's strip of tabs: clicking one shows that view in the column's pane.
  void DrawTabs(const TabStrip& strip, ViewState& st);
  void HandleKeys(const Frame& f, ViewState& st);
  // A view dragged by its title or tab: while the button is held, where it would go is shaded; released over
  // another pane, it moves there (workspace's drop_target and move_view). After the panes, each frame.
  void DragView(ViewState& st, float gap, const PaneLimits& limits);
  ViewPanel& panel(const std::string& name);

  Gui& gui_;
  float list_scale_ = 0;  // the zoom and window size the list last scrolled to its selected rung at
  float list_w_ = 0, list_h_ = 0;
  KernelListPanel kernels_;
  std::vector<std::unique_ptr<ViewPanel>> panels_;  // one per row of the views table, in its order
  WorkspaceLayout layout_;
  Rect area_;                  // the workspace's area last frame (splitters need it)
  float list_need_ = 0, list_need_font_ = 0;  // kernel_list_need at the font size it was measured in
  std::string hovered_pane_;   // the pane under the pointer last frame (the maximise key acts on it)
  std::string drag_view_;      // the view whose title or tab the left button was pressed on ("" when none)
  Vec2 drag_from_;             // where it was pressed
  bool drag_moving_ = false;   // the pointer has left the press by more than a nudge: a move, not a click
  static constexpr ClickPress kNoClick{0, 0, 0, -1e9};  // long ago: the next press starts a double-click
  ClickPress last_click_ = kNoClick;  // the last left press, for double-clicks counted from the raw presses
  std::vector<Vec2> double_clicks_;  // this frame's double-clicks (window coordinates)
  bool exports_open_ = false;        // the exports row is shown
  char exports_text_[4096] = "";     // the folder field while it is edited
  std::string exports_error_;        // why the folder typed last was refused ("" when it was taken)
  std::string alert_dismissed_;      // the alert the user dismissed (a different one shows again)
  std::string alert_shown_;          // the alert drawn last frame
};

// The whole window drawn on a canvas (`shot --view all` as SVG): the same layout function places the
// kernel list and the panes, each pane its title and its figure.
void draw_workspace(Canvas& c, Rect r, const Frame& f, ViewState& st, std::vector<std::unique_ptr<ViewPanel>>& panels);

// One view's figure on a canvas (`shot --view NAME` as SVG, the export buttons).
void draw_view_figure(Canvas& c, Rect r, const std::string& view, const Frame& f, ViewState& st, ViewPanel& panel);

}  // namespace gs
