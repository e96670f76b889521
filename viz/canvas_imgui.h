// ImGui back end of Canvas: draws onto a window's (or the foreground's) ImDrawList in screen
// coordinates; the views' rectangles and mouse positions are in the same coordinates.
#pragma once

#include <imgui.h>

#include "viz/canvas.h"

namespace gs {

class ImGuiCanvas : public Canvas {
 public:
  // A null font means ImGui's current font; a null `bold` falls back to `sans`.
  ImGuiCanvas(ImDrawList* dl, ImFont* sans, ImFont* mono, ImFont* bold = nullptr);
  void rect_filled(Rect r, Color c, float rounding = 0) override;
  void rect(Rect r, Color c, float thickness = 1, float rounding = 0) override;
  void line(Vec2 a, Vec2 b, Color c, float thickness = 1) override;
  void polyline(const std::vector<Vec2>& pts, Color c, float thickness = 1) override;
  void polygon_filled(const std::vector<Vec2>& pts, Color c) override;
  void circle_filled(Vec2 center, float radius, Color c) override;
  void text(Vec2 pos, std::string_view s, Color c, float size, Align align = Align::Left,
            Font font = Font::Sans) override;
  Vec2 text_size(std::string_view s, float size, Font font = Font::Sans) const override;
  void push_clip(Rect r) override;
  void pop_clip() override;

 private:
  ImFont* font_of(Font f) const;
  ImDrawList* dl_;
  ImFont* sans_;
  ImFont* mono_;
  ImFont* bold_;
  std::vector<ImVec2> scratch_;  // point buffer reused across calls
};

// After a pane's figure and its own hover: a tooltip with the whole of the cut text under the mouse, unless the pane
// opened a tooltip of its own this frame.
void cut_text_tooltip();

}  // namespace gs
