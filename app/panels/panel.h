// A view's panel: the figure it draws on a Canvas (the same code on screen, in `shot` and in exports),
// the widgets of its header, and what hovering and clicking the figure do. One file per view in
// app/panels/, one row per view in app/views.cpp's table.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/variant.h"  // rung_of_variant, variant_toggles, variant_name: what panels call a kernel
#include "app/state.h"
#include "viz/canvas.h"
#include "viz/views.h"

struct ImFont;

namespace gs {

struct Gui;

// What a panel sees each frame.
struct ViewContext {
  const Frame& f;
  ViewState& st;
  const Theme& theme;
  const Gui* gui = nullptr;  // null when drawing for an export
};

// The figure's area as an ImGui item: mouse in view coordinates (already divided by the zoom).
struct FigureItem {
  Rect rect;                  // where the view laid itself out (view coordinates)
  Vec2 mouse{-1e9f, -1e9f};   // far away when not hovered
  bool hovered = false, clicked = false, double_clicked = false;
};

// Places header widgets left to right and starts a new line before one that would pass the right edge,
// so a narrow pane wraps its toolbar instead of overlapping widgets. Notes every widget for the layout audit.
class Flow {
 public:
  // `right` is the x (screen) the widgets must stay left of; `after_item`: the line already holds one
  // (a title) that the first widget may follow. `right_below`: the edge of the lines under the first, where
  // that one shares its line with other buttons (the pane's exports); 0: `right`.
  explicit Flow(float right, bool after_item = false, float right_below = 0)
      : right_(right), below_(right_below > 0 ? right_below : right), first_(!after_item) {}
  // Call before a widget `width` pixels wide.
  void next(float width);
  // Whether a widget `width` pixels wide would stay on the line the last one is on.
  bool fits(float width) const;
  // Call after the last widget.
  void end();
  // Widths of common widgets with this label at the current font.
  static float button_w(const char* label);
  static float checkbox_w(const char* label);
  // A combo as wide as its longest item needs (so no choice is cut), but no wider than the line.
  float combo_w(const std::vector<std::string>& items) const;

 private:
  float right_, below_;
  bool first_ = true;
  float line_y_ = -1;  // the first line's top, once a widget is placed
};

class ViewPanel {
 public:
  virtual ~ViewPanel() = default;
  // Once per frame before anything else: follow the selected kernel, rebuild cached inputs.
  virtual void Update(const ViewContext& ctx) {}
  // The header's widgets after the title, in the window only.
  virtual void Toolbar(const ViewContext& ctx, Flow& flow) {}
  // True while the view moves by itself (a playback): the window keeps drawing frames.
  virtual bool Animating(const ViewContext& ctx) const { return false; }
  // The figure in `r` (view coordinates); `mouse` is where the pointer is, far away when exporting.
  virtual void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) = 0;
  // Tooltips and clicks over the figure, after Figure() has drawn it this frame (window only).
  virtual void Interact(const ViewContext& ctx, const FigureItem& item) {}
  // What an export of this view is called after "<view>_": the kernel, op or family it shows.
  virtual std::string ExportDetail(const ViewContext& ctx) const;
  // The numbers the figure last drawn plots, as CSV, written beside an exported picture; "" for a view that
  // plots none.
  virtual std::string FigureCsv() const { return ""; }
};

// Writes p.FigureCsv() beside an exported picture, as "<picture minus its extension>.csv" (atomically);
// returns the path written, or "" where the view plots no numbers. Throws like write_file_atomic.
std::string figure_csv_path(const std::string& picture);  // FILE.csv beside FILE.svg or FILE.png
std::string write_figure_csv(const std::string& picture, const ViewPanel& p);
std::string write_figure_csv(const std::string& picture, const std::string& csv);  // "" writes none

// "mma_f16-08_ldmatrix" from "mma_f16/08_ldmatrix", "mma_f16-10_multistage_order=cutlass_2" from
// "mma_f16/10_multistage[order=cutlass:2]", "Bs_load_frag" from "Bs load (frag)": a file name a shell need not quote.
std::string file_safe(std::string s);

// Where an export goes: "<view>_<detail><ext>" in the exports folder (exports_folder(st)), with a numbered
// suffix ("_2", "_3", ...) rather than over an earlier file. Creates the folder where it went missing; throws
// std::runtime_error naming it when that fails.
std::string export_path(const ViewState& st, const std::string& view, const std::string& detail,
                        const std::string& ext = ".svg");
// The same for one picture written in several formats (a PNG and an SVG): "<dir>/<stem>" or "<dir>/<stem>_N",
// the first that no file with any of `exts` has yet, without the extension.
std::string export_stem(const std::string& dir, const std::string& stem, const std::vector<std::string>& exts);
// What an export's name adds after the view's detail: the size the picture shows the kernel at and the GPU, e.g.
// "_4096_H200" ("_4096x16384x4096_H100" where not square; live: the live plot's size); "" where unknown. The
// views drawn from the kernel's traces (banks, gmem, swizzle, timeline, layout) show its traced run (main_run),
// the others ("all" too) compare it at the ladder's size (ladder_run): mma_f16/13 is traced at 5120x1280x4096.
std::string export_suffix(const Frame& f, const ViewState& st, const std::string& kernel, const std::string& view);
// The GPU a capture was recorded on, by its model: "H200" of "NVIDIA H200", "H100" of "NVIDIA H100 80GB HBM3".
std::string gpu_model(const Capture* c);
std::string gpu_model(std::string device_name);

// ---- What the panels read from a capture ---------------------------------------------------------
// The kernels the list shows: the registry in ladder order, then any other kernel the capture has
// (a capture recorded by a build with more rungs still shows all of them).
std::vector<std::string> kernel_names(const Capture* c);
// kernel_names without the variants: the rungs the kernel list shows, one row each.
std::vector<std::string> rung_names(const Capture* c);
// The kernel whose traced shared- and global-memory accesses and stage spans stand for `kernel`: a block order
// variant rung[order=S] (KernelInfo::order_scheme) runs its rung's code (only the grid differs), and a capture
// traces those once, for the rung; any other kernel stands for itself.
std::string traced_kernel(const std::string& kernel);
// The variants of a rung that the registry has or the capture measured, in registry order.
std::vector<std::string> variants_of(const Capture* c, const std::string& rung);
// A variant toggle (the key of rung[key=value]) as the tool presents it: the kernel list's title and tooltip for its
// combo, the views where a variant of it shows in the deck, and the names the kernels give what it sets (the code
// view marks the lines that name them). One table, so that a new toggle is added in one place.
struct ToggleInfo {
  const char* title;                    // "row padding"
  const char* tip;                      // the combo's tooltip
  std::vector<std::string> deck_views;  // none for "order": the rung's launch-order view draws the orders side by side
  std::vector<std::string> symbols;     // none for "order": its code is the rung's, only the grid differs
};
// The toggle `key`, or null for one the table does not know.
const ToggleInfo* find_toggle(const std::string& key);
// The run a kernel's headline numbers come from: its first for that dtype in the capture (an empty dtype: its
// first of any, in the first dtype it was measured in), which is the size `record --size` measured (a --sweep
// adds the other sizes after it). Null when there is none.
const RunRecord* main_run(const Capture* c, const std::string& kernel, const std::string& dtype);
// Where rungs stand side by side (the kernel list, the throughput bars, the roofline, the deck): the run at the
// size most of the capture's kernels were recorded at (their main runs' commonest size; 4096^3 in the bundled
// capture), so that a rung recorded at another size to show what it does (mma_f16/13 at 5120x1280x4096, where it
// splits tiles) is compared at the same size as its neighbours, from its sweep. Its main run where it has none.
const RunRecord* ladder_run(const Capture* c, const std::string& kernel, const std::string& dtype);
// The dtypes a kernel was measured in, in capture order.
std::vector<std::string> dtypes_of(const Capture* c, const std::string& kernel);
// The dtype each family's numbers are shown in where its rungs stand side by side (the kernel list, the launch
// order's headers): the first dtype of most of its rungs ("f16.f32" for wmma). Families with no run are absent.
std::map<std::string, std::string> family_dtypes(const Capture* c);
// The dtype a rung measured in `dtypes` (dtypes_of) is shown in beside its family's: the family's where the rung
// has it; else the rung's own first, and `other` (if given) is set: its numbers are in another dtype than its
// neighbours' (wmma/10 runs f16.f16 only, beside rungs shown in f16.f32). Empty when the rung has no run.
std::string headline_dtype(const std::vector<std::string>& dtypes, const std::string& family_dtype,
                           bool* other = nullptr);
std::string shape_label(const RunRecord& r);  // "4096x4096x4096"
// The size a kernel's traced views show (its main run's, the size `record` traced it at), "" where it has no run.
std::string traced_size(const Capture* c, const std::string& kernel);
std::string date_of(const Capture& c);        // "2026-11-21"
// "kernel family" of "family/NN_name".
std::string family_of(const std::string& kernel);
// The rung `kernel` (or the rung of a variant) builds on: its KernelInfo::builds_on ("wmma/09_pipelined" for wmma/11),
// else the rung before it in its ladder; "" for a ladder's first or a kernel the build does not have. What the code
// view diffs against, the layout and bank views open on the step from.
std::string rung_built_on(const std::string& kernel);
// The rung a view draws beside the selected kernel unless told otherwise: the nearest rung (not a variant) before it in
// its family among names (ladder order, as kernel_names), else the nearest after it; "" where kernel is not among
// names or its family has no other rung there. (The run list of a capture holds variants between rungs:
// mma_f16/11's bank view compared itself with mma_f16/10[ldmatrix=off].)
std::string rung_beside(const std::vector<std::string>& names, const std::string& kernel);

}  // namespace gs
