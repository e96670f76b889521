// The kernel list: the ladders in order with each rung's TFLOP/s and share of cuBLAS, and the selected
// rung's explanation under it (read from its file through the registry). Not a view: it is what the
// views follow.
#pragma once

#include <functional>
#include <string>

#include "app/panels/panel.h"

namespace gs {

class KernelListPanel {
 public:
  // Draws into the current ImGui window, filling what is left of it.
  void Draw(const ViewContext& ctx);
  // Scroll the selected row into view next frame (after the keyboard moved the selection).
  void Reveal() { reveal_ = kRevealFrames; }

 private:
  static constexpr int kRevealFrames = 4;  // frames it may take the rows to settle where a reveal puts them
  int reveal_ = kRevealFrames;
  // The family of the rows at the list's top when its own name has scrolled out of sight (last frame's), named in the
  // header ("Kernel · mma_f16"); "" while that name is in sight.
  std::string scrolled_family_;
  float names_em_ = -1, names_w_ = 0;  // the widest rung name, measured once per font size (not every frame)
};

// The same list drawn on a canvas, for the whole-window export (`shot --view all` as SVG).
void draw_kernel_list(Canvas& c, Rect r, const ViewContext& ctx);

// The width the list asks of the workspace where the views can spare it (layout_workspace's list_min_w): its
// longest rung name (11_swapped_operands) beside a share of cuBLAS, in the font `text_w` measures, `em` its size.
float kernel_list_need(const std::function<float(const std::string&)>& text_w, float em);

// The rung before or after the selected one in the list's order (wrapping at neither end).
std::string neighbour_kernel(const Capture* c, const std::string& kernel, int step);

}  // namespace gs
