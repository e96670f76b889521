// What the window shows (Frame, rebuilt every frame from the latest data) and what the user chose
// (ViewState, plain data the panels share and the settings file keeps). No ImGui here.
#pragma once

#include <iterator>
#include <string>
#include <vector>

#include "core/capture.h"
#include "viz/views.h"

namespace gs {

struct LiveSnapshot;

// What the window shows this frame; rebuilt from the latest snapshot, never mutated by panels.
struct Frame {
  const Capture* capture = nullptr;
  std::string banner;                        // where the data comes from (live GPU / capture + date)
  // The same for a picture of the whole window (F12): the data's source without why this machine shows a capture
  // ("No CUDA device ... no NVIDIA driver is loaded" described the laptop, not the slide). "": the banner.
  std::string picture_banner;
  std::string alert;                         // a problem shown until dismissed (a capture that did not load), or ""
  bool live = false;
  const LiveSnapshot* live_state = nullptr;  // live mode only
};

// Where the views sit: columns left to right, each a stack of views top to bottom. Sizes are fractions
// of the area they share, so the arrangement survives a resize; the settings file keeps it.
struct Arrangement {
  float list_w = 0.2f;                          // the kernel list's share of the window width
  std::vector<std::vector<std::string>> columns;  // view names
  std::vector<float> column_w;                  // one per column, summing to 1
  std::vector<std::vector<float>> row_h;        // per column, one per view, summing to 1
  std::string maximized;                        // a view filling the whole view area, or ""
  // The views last shown by a click on their tab, the latest first: a column shown as tabs (a window too small
  // for its stack, layout_workspace) shows the latest of its views here, else its first.
  std::vector<std::string> recent;
};

// The arrangement a first start gets for these views (the table's order): up to four, the fragment layout
// (which needs height) alone in a column and the others stacked beside it; from five on, two a column in
// the table's order over three columns.
Arrangement default_arrangement(const std::vector<std::string>& views);
// Makes `a` hold exactly `views`: unknown names dropped, missing ones added to the shortest column,
// sizes renormalised (a damaged or old settings file still gives a usable arrangement).
void reconcile(Arrangement* a, const std::vector<std::string>& views);
// Makes `view` the one its column shows when that column is tabs (a tab clicked, or a view asked for).
void activate(Arrangement* a, const std::string& view);

// What the user chose: plain data, shared by the panels.
// Presentation mode's zoom to start with (F5), and what Ctrl 0 goes back to while presenting.
inline constexpr float kPresentationZoom = 1.5f;

struct ViewState {
  std::string kernel;                     // selected rung, "" = the default one
  // Fragment layout: by default the selected rung's own instructions (KernelInfo::ops), op_pick of them;
  // the op selector switches to exploring any op (follow = false) until "follow kernel" is chosen again.
  bool layout_follow = true;
  int layout_pick = 0;
  std::string layout_op = "mma.m16n8k16.f16";
  LayoutViewState layout;
  bool show_warps = true;                 // the layout panel's lower part: the selected rung's warp tiling
  int warp = 0;                           // warp highlighted there
  int thread = 0;                         // sgemm rungs: thread highlighted in the thread tiling
  BanksViewState banks;                   // the bank panel's site, warp, access and lane
  SwizzleViewState swizzle;               // the launch-order panel's colouring, moment and comparison
  CodeViewState code;                     // the code panel's scroll, removed lines, selected line
  TimelineViewState timeline;             // the timeline panel's window, comparison and sampled block
  GmemViewState gmem;                     // the global-memory panel's site, request and comparison
  std::string code_against;               // the rung the code view diffs against ("": the one before)
  std::string focus_site;                 // a site the code view asked the bank or global-memory view to show
  std::string reveal;                     // a view that took such a request: the window brings its tab to the front
  std::string perf_dtype;                 // dtype the throughput curves show ("" = the selected rung's first)
  bool perf_pin = false;                  // asks the throughput panel to pin (or unpin) its baseline
  std::string live_size = "2048x2048x2048";  // the size the live plot measures at (MxNxK)
  bool perf_over_size = false;            // replay: the curves over size rather than the recorded series
  std::string last_export;                // the path the last export wrote (the banner's "copy path")
  std::string exports_dir;                // where exports go, absolute; "" = exports_folder()'s default
  int export_scale = 2;                   // a PNG export's pixels per screen pixel, 1-4
  bool dark = true;
  float zoom = 1.0f;                      // every view and its text, Ctrl +/-
  bool presentation = false;              // a projector: presentation_zoom instead of `zoom`
  float presentation_zoom = kPresentationZoom;  // Ctrl +/- in presentation change it: leaving it finds `zoom` as it was
  Arrangement arrangement;
  bool hint_dismissed = false;            // the first-start hint line
  std::string message;                    // last export or error, shown in the status line
  float effective_zoom() const { return presentation ? presentation_zoom : zoom; }
  float& active_zoom() { return presentation ? presentation_zoom : zoom; }  // the one Ctrl +/- change
};

// The zooms the window, `shot --zoom` and `export --zoom` take. Below 80% the widgets' 15 px font falls under the
// 12 px (a 14 px line) README promises as the least text anywhere: at 75% the kernel list's rows were 13 px apart.
inline constexpr float kMinZoom = 0.8f, kMaxZoom = 3.0f;

// The zoom one step larger (dir > 0) or smaller from `zoom`, on the steps a lecturer names: 100%, 125%, 150%, 200%
// (x1.1 steps from 100% gave 145% and 195%, never 150% or 200%). A zoom between steps (a settings file's 1.3) goes to
// the next step that way; kMinZoom and kMaxZoom are the ends.
inline float zoom_step(float zoom, int dir) {
  static constexpr float kSteps[] = {kMinZoom, 0.9f, 1.0f, 1.1f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, kMaxZoom};
  if (dir > 0) {
    for (float s : kSteps)
      if (s > zoom + 0.01f) return s;
    return kSteps[std::size(kSteps) - 1];
  }
  for (auto it = std::rbegin(kSteps); it != std::rend(kSteps); ++it)
    if (*it < zoom - 0.01f) return *it;
  return kSteps[0];
}

// The rung a first start selects: one whose every view has something to show on the bundled capture
// (its own mma layouts traced and documented, a bank conflict to explain, a curve over size).
inline constexpr const char* kDefaultKernel = "mma_f16/01_vectorized";
// The selected rung: st.kernel, or the default where none is chosen (or it is not registered).
std::string selected_kernel(const ViewState& st);

}  // namespace gs
