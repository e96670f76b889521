// The main window: a kernel list and the selected kernel's views side by side. Each panel is a
// struct with its state as members and a Draw(); the list of panels lives in MainWindow alone.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/gpu_worker.h"
#include "app/render.h"
#include "core/capture.h"
#include "viz/views.h"

namespace gs {

// What the window shows this frame; rebuilt from the latest snapshot, never mutated by panels.
struct Frame {
  const Capture* capture = nullptr;
  std::string banner;                     // where the data comes from (live GPU / capture + date)
  bool live = false;
  const LiveSnapshot* live_state = nullptr;  // live mode only
};

// The views that share the window's right column, one at a time.
enum class DetailTab { Layout, Banks };

// What the user chose: plain data, shared by the panels.
struct ViewState {
  std::string kernel;                     // selected rung, "" = first
  std::string layout_op = "mma.m16n8k16.f16";
  LayoutViewState layout;
  bool show_warps = true;                 // the layout panel's lower part: the selected rung's warp tiling
  int warp = 0;                           // warp highlighted there
  BanksViewState banks;                   // the bank panel's site, warp, access and lane
  DetailTab detail = DetailTab::Layout;   // the right column's open tab
  bool dark = true;
  std::string message;                    // last export or error, shown in the status line
};

// The view names `shot` and the window know, in DESIGN.md's order; `exists` is false for views
// that later issues add, so asking for one is an error rather than a blank picture.
struct ViewName {
  const char* name;
  bool exists;
};
const std::vector<ViewName>& view_names();
bool view_exists(const std::string& name);
std::string existing_view_names();

// Inputs of the canvas views, built from a frame; the window and the SVG export share them.
PerfViewInput perf_input(const Frame& f, const ViewState& st);
LayoutViewInput layout_input(const Frame& f, const ViewState& st);
// The selected rung's shared-memory sites, read from the frame's capture (pointers into it: the
// input lives no longer than the frame).
BanksViewInput banks_input(const Frame& f, const ViewState& st);
// The selected rung's warp tiling, from the registry (not the capture: it describes the code).
WarpViewInput warp_input(const ViewState& st);
// The layout panel's split: the layout view in `r`'s top part and, when st.show_warps, the warp view
// below (40% for a described rung, one line for one without); `warps` is empty when it is off.
Rect split_layout(Rect r, const ViewState& st, const WarpViewInput& in, Rect* warps);
// Draws one view into an SVG document of width x height.
std::string view_svg(const std::string& view, const Frame& f, const ViewState& st, int width, int height);

class KernelListPanel {
 public:
  void Draw(const Frame& f, ViewState& st);
};

class PerfPanel {
 public:
  void Draw(const Gui& gui, const Frame& f, ViewState& st);
};

class LayoutPanel {
 public:
  void Draw(const Gui& gui, const Frame& f, ViewState& st);

 private:
  LayoutHover hover_;
};

class BanksPanel {
 public:
  void Draw(const Gui& gui, const Frame& f, ViewState& st);

 private:
  std::string kernel_;     // the rung the selection in ViewState::banks belongs to
  std::string site_name_;  // the site shown last frame: kept when the rung changes and has it too
  BanksHover hover_;
  // banks_input of the last frame (a few ms for a rung's ~500 records: not redone every frame), and
  // what it was read from. Sites hold copies of their records, so a capture replaced since cannot
  // leave it dangling, only stale until one of these changes.
  BanksViewInput input_;
  const Capture* input_capture_ = nullptr;
  size_t input_records_ = 0;
  bool input_live_ = false;
};

class MainWindow {
 public:
  explicit MainWindow(const Gui& gui) : gui_(gui) {}
  // The whole window, filling the display.
  void Draw(const Frame& f, ViewState& st);
  // One view alone, filling the display (`shot --view NAME`). False for a view that does not exist.
  bool DrawView(const std::string& view, const Frame& f, ViewState& st);

 private:
  void DrawBanner(const Frame& f, ViewState& st);
  const Gui& gui_;
  KernelListPanel kernels_;
  PerfPanel perf_;
  LayoutPanel layout_;
  BanksPanel banks_;
  DetailTab shown_detail_ = DetailTab::Layout;  // the tab ImGui showed last frame
};

// Default kernel when the user has not picked one: the first registered rung.
std::string selected_kernel(const ViewState& st);

}  // namespace gs
