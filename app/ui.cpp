#include "app/ui.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>

#include "viz/canvas_imgui.h"
#include "viz/draw_util.h"

namespace gs::ui {

LayoutAudit& LayoutAudit::global() {
  static LayoutAudit audit;
  return audit;
}

std::vector<std::string> LayoutAudit::overlaps() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < items.size(); ++i)
    for (size_t j = i + 1; j < items.size(); ++j) {
      const Rect& a = items[i].rect;
      const Rect& b = items[j].rect;
      // One item noted twice (by its own name, then by the toolbar's flow) is one item.
      if (a.min.x == b.min.x && a.min.y == b.min.y && a.max.x == b.max.x && a.max.y == b.max.y) continue;
      const float w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
      const float h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
      if (w > 1 && h > 1) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " by %.0fx%.0f px", w, h);
        out.push_back("'" + items[i].what + "' overlaps '" + items[j].what + "'" + buf);
      }
    }
  return out;
}

bool popup_open() { return ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopup); }

bool combo_item(const char* label, bool selected, int flags) {
  const bool clicked = ImGui::Selectable(label, selected, flags);
  if (selected && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY(0.5f);
  return clicked;
}

void close_popups() {
  if (popup_open()) ImGui::ClosePopupToLevel(0, true);
}

void note(const char* what) {
  LayoutAudit& audit = LayoutAudit::global();
  if (!audit.on) return;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImGuiWindow* window = g.CurrentWindow;
  // A window that appeared this frame (a combo's list) lays out its items hidden while it measures itself: they
  // are not on screen, and the next frame's mouse cannot hover them (ImGui skips hidden windows when it looks for
  // the hovered one), so a click sent on the strength of this note would close the list instead of picking.
  if (window->Hidden || window->RootWindow->Hidden) return;
  ImRect r(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  r.ClipWithFull(window->ClipRect);
  if (r.GetWidth() <= 0 || r.GetHeight() <= 0) return;  // scrolled or clipped out of sight
  // ImGui keeps no label of the last item: name it by what the caller says, its window and where it is.
  char where[64];
  std::snprintf(where, sizeof where, " at (%.0f, %.0f)-(%.0f, %.0f)", r.Min.x, r.Min.y, r.Max.x, r.Max.y);
  audit.items.push_back({std::string(what ? what : "item") + " in " + window->Name + where,
                         {{r.Min.x, r.Min.y}, {r.Max.x, r.Max.y}}});
}

bool text_fit(const std::string& s, float width, bool disabled) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 size = ImGui::CalcTextSize(s.c_str());
  const bool cut = size.x > width;
  ImGui::Dummy(ImVec2(std::min(size.x, std::max(width, 1.0f)), size.y));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (disabled) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  // The clip reaches a quarter line below the text: ImGui clips at the line's height, where at some sizes (14 and
  // 20 px) DejaVu's underscore lies just below it and "03_cp_async" read "03 cp async".
  ImGui::RenderTextEllipsis(dl, p, ImVec2(p.x + width, p.y + size.y + ImGui::GetFontSize() * 0.25f), p.x + width,
                            p.x + width, s.c_str(), nullptr, &size);
  if (disabled) ImGui::PopStyleColor();
  if (cut && ImGui::IsItemHovered()) tooltip(s);  // wrapped: the top bar's zoom note ran off the screen in one line
  return cut;
}

void tooltip(const std::string& s) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35);
  ImGui::TextUnformatted(s.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void text_words(const std::string& s, bool disabled) {
  const ImGuiCanvas measure(nullptr, ImGui::GetFont(), nullptr);
  // A pixel short of the region, so that ImGui's wrap (kept for a word longer than a line) never splits a line
  // that viz::wrap measured to fit.
  const float w = std::max(1.0f, ImGui::GetContentRegionAvail().x - 1);
  if (disabled) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0);
  for (std::string line : viz::wrap(measure, s, ImGui::GetFontSize(), w, Font::Sans)) {
    // A word longer than the line (a rung's name at a projector's zoom) breaks after its family's '/' where that
    // fits, else after the last '_' that does, not between two letters ("mma_f16/01_vectori" / "zed").
    while (measure.text_size(line, ImGui::GetFontSize()).x > w) {
      size_t cut = std::string::npos;
      for (const char* at : {"/", "_"}) {
        for (size_t i = line.find(at); i != std::string::npos && i + 1 < line.size(); i = line.find(at, i + 1))
          if (measure.text_size(line.substr(0, i + 1), ImGui::GetFontSize()).x <= w) cut = i + 1;
        if (cut != std::string::npos) break;
      }
      if (cut == std::string::npos) break;  // none fits: ImGui breaks it
      ImGui::TextUnformatted(line.substr(0, cut).c_str());
      line = line.substr(cut);
    }
    ImGui::TextUnformatted(line.c_str());
  }
  ImGui::PopTextWrapPos();
  if (disabled) ImGui::PopStyleColor();
}

std::string elide(const std::string& s, float width) {
  // viz::elide's bisection, measured in the current ImGui font (a canvas that only measures draws nothing).
  const ImGuiCanvas measure(nullptr, ImGui::GetFont(), nullptr);
  return viz::elide(measure, s, ImGui::GetFontSize(), Font::Sans, width);
}

float combo_text_w(float combo_w) { return combo_w - ImGui::GetFrameHeight() - ImGui::GetStyle().FramePadding.x * 2; }

}  // namespace gs::ui
