// ImGui back end: each Canvas call is one ImDrawList call.
#include "viz/canvas_imgui.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>

namespace gs {
namespace {

ImU32 col(Color c) { return IM_COL32(c.r, c.g, c.b, c.a); }
ImVec2 im(Vec2 v) { return {v.x, v.y}; }

}  // namespace

ImGuiCanvas::ImGuiCanvas(ImDrawList* dl, ImFont* sans, ImFont* mono, ImFont* bold)
    : dl_(dl), sans_(sans), mono_(mono), bold_(bold) {}

ImFont* ImGuiCanvas::font_of(Font f) const {
  ImFont* font = f == Font::Mono ? mono_ : f == Font::SansBold ? (bold_ ? bold_ : sans_) : sans_;
  return font ? font : ImGui::GetFont();
}

void ImGuiCanvas::rect_filled(Rect r, Color c, float rounding) {
  dl_->AddRectFilled(im(r.min), im(r.max), col(c), rounding);
}

void ImGuiCanvas::rect(Rect r, Color c, float thickness, float rounding) {
  dl_->AddRect(im(r.min), im(r.max), col(c), rounding, 0, thickness);
}

void ImGuiCanvas::line(Vec2 a, Vec2 b, Color c, float thickness) {
  dl_->AddLine(im(a), im(b), col(c), thickness);
}

void ImGuiCanvas::polyline(const std::vector<Vec2>& pts, Color c, float thickness) {
  scratch_.clear();
  for (const Vec2& p : pts) scratch_.push_back(im(p));
  dl_->AddPolyline(scratch_.data(), int(scratch_.size()), col(c), 0, thickness);
}

void ImGuiCanvas::polygon_filled(const std::vector<Vec2>& pts, Color c) {
  scratch_.clear();
  for (const Vec2& p : pts) scratch_.push_back(im(p));
  // ImGui anti-aliases convex fills only when wound clockwise on screen (positive area, y down).
  float area2 = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    const Vec2& a = pts[i];
    const Vec2& b = pts[(i + 1) % pts.size()];
    area2 += a.x * b.y - b.x * a.y;
  }
  if (area2 < 0) std::reverse(scratch_.begin(), scratch_.end());
  dl_->AddConvexPolyFilled(scratch_.data(), int(scratch_.size()), col(c));
}

void ImGuiCanvas::circle_filled(Vec2 center, float radius, Color c) {
  dl_->AddCircleFilled(im(center), radius, col(c));
}

void ImGuiCanvas::text(Vec2 pos, std::string_view s, Color c, float size, Align align, Font font) {
  if (s.empty()) return;
  TextAudit::global().note(size, s);
  ImFont* f = font_of(font);
  const char* b = s.data();
  const char* e = s.data() + s.size();
  const bool cut = s.size() > 3 && s.substr(s.size() - 3) == "...";
  const float w = align != Align::Left || cut ? f->CalcTextSizeA(size, FLT_MAX, 0.0f, b, e).x : 0;
  if (align != Align::Left) pos.x -= align == Align::Center ? w * 0.5f : w;
  dl_->AddText(f, size, im(pos), col(c), b, e);
  // A text cut short under the mouse: its whole, for the window to show where the view's own hover says nothing.
  if (cut) {
    const std::string* whole = CutTexts::global().whole_of(s);
    const ImVec2 m = ImGui::GetIO().MousePos;
    const ImVec2 lo = dl_->GetClipRectMin(), hi = dl_->GetClipRectMax();
    if (whole && m.x >= std::max(pos.x, lo.x) && m.x < std::min(pos.x + w, hi.x) && m.y >= std::max(pos.y, lo.y) &&
        m.y < std::min(pos.y + size, hi.y) && ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem))
      CutTexts::global().set_under_mouse(*whole);
  }
}

void cut_text_tooltip() {
  const std::string whole = CutTexts::global().take_under_mouse();
  if (whole.empty()) return;
  // A tooltip the view opened this frame (a site's row, a ceiling) says more than the cut text's whole would.
  const ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00");
  if (tip && tip->Active) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
  ImGui::TextUnformatted(whole.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

Vec2 ImGuiCanvas::text_size(std::string_view s, float size, Font font) const {
  if (s.empty()) return {0, size};  // a null end pointer would make ImGui call strlen
  ImVec2 v = font_of(font)->CalcTextSizeA(size, FLT_MAX, 0.0f, s.data(), s.data() + s.size());
  return {v.x, v.y};
}

void ImGuiCanvas::push_clip(Rect r) { dl_->PushClipRect(im(r.min), im(r.max), true); }

void ImGuiCanvas::pop_clip() { dl_->PopClipRect(); }

}  // namespace gs
