// Small ImGui helpers the window and the panels share, and the layout audit the GUI tests read: every
// widget the app draws is noted with the rectangle it shows on screen, and a frame's notes are checked
// for overlaps.
#pragma once

#include <string>
#include <vector>

#include "viz/canvas.h"

namespace gs::ui {

struct LayoutAudit {
  struct Item {
    std::string what;  // the widget's label or a description
    Rect rect;         // visible part: the item clipped to its window
  };
  bool on = false;
  std::vector<Item> items;  // this frame's
  void reset() { items.clear(); }
  // "A overlaps B by WxH px" for every pair of items whose visible parts overlap by more than a pixel.
  std::vector<std::string> overlaps() const;
  static LayoutAudit& global();
};

// Notes the last ImGui item (its label or `what`) for the audit; nothing when the audit is off.
void note(const char* what = nullptr);

// Whether a dropdown (or any popup) is open; closes every open one (Esc: the dropdown first, then the workspace).
bool popup_open();
void close_popups();
// ImGui::Selectable for a dropdown's entry; the selected one is scrolled into the middle as the list opens (a list of
// 150 kernels opened at sgemm/01 where mma_f16/09 was chosen).
bool combo_item(const char* label, bool selected, int flags = 0);

// Draws `s` in at most `width` pixels: cut with "..." where it does not fit, and then the whole text as a
// tooltip when hovered. Returns whether it was cut.
bool text_fit(const std::string& s, float width, bool disabled = false);

// `s` wrapped to the content region at spaces only (ImGui's own wrapping also breaks after '.' and ',', which split
// "0.97-0.98" into "0.97-0." and "98"); a word longer than a line still breaks where ImGui breaks it.
void text_words(const std::string& s, bool disabled = false);

// A tooltip whose text wraps at 35 em: a sentence on one line ran past a 1600 px screen at a projector's zoom.
void tooltip(const std::string& s);

// `s` as it fits `width` pixels of the current font: whole, or cut (at whole UTF-8 sequences) with "..." after it.
std::string elide(const std::string& s, float width);

// The room a closed combo `combo_w` pixels wide leaves for its preview text: less its arrow button and padding.
float combo_text_w(float combo_w);

}  // namespace gs::ui
