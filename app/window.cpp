#include "app/window.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "app/gpu_worker.h"
#include "app/settings.h"
#include "app/ui.h"
#include "app/views.h"
#include "core/files.h"
#include "kernels/gemm.h"
#include "viz/canvas_imgui.h"
#include "viz/draw_util.h"

namespace fs = std::filesystem;

namespace gs {
namespace {

// The status line after an export: the file's name first, then its folder, so that a narrow bar, which cuts the
// end, keeps the name ("wrote /home/.../exports/swizzle_mma_f16-13_st..." had kept the folder).
std::string written(const std::string& path, const std::string& extra) {
  const std::filesystem::path p(path);
  return "wrote " + p.filename().string() + extra + " in " + p.parent_path().string();
}

// Tabs as the layout measures them and as they are drawn (the rows of a strip depend on it): a view's tab title
// in bold, padded each side (on screen by 1.5 frame paddings, in the `all` picture by 6 px at the zoom), kTabGap
// between two.
constexpr float kTabGap = 2;
std::string tab_title(const std::string& view) {
  const ViewDef* def = find_view(view);
  return def ? def->tab : view;
}
float screen_tab_pad() { return ImGui::GetStyle().FramePadding.x * 1.5f; }
float screen_tab_label_w(ImFont* bold, const std::string& view) {
  ImGui::PushFont(bold);  // the shown tab's font, so that no natural width cuts it
  const float w = ImGui::CalcTextSize(tab_title(view).c_str()).x;
  ImGui::PopFont();
  return w;
}

const Theme& theme_of(const ViewState& st) { return st.dark ? Theme::Dark() : Theme::Light(); }
ImU32 im_color(Color c) { return IM_COL32(c.r, c.g, c.b, c.a); }
ImVec4 vec4(Color c) { return ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, c.a / 255.f); }
constexpr float kFar = -1e9f;
int png_scale(const ViewState& st) { return std::clamp(st.export_scale, 1, 4); }  // a damaged value is never used

constexpr const char* kHint =
    "Pick a rung on the left (or \xE2\x86\x91/\xE2\x86\x93): every view follows it. Hover any cell for its numbers, "
    "click a lane to follow it, double-click a view's title to maximise it or drag it to move the view, "
    "Ctrl +/\xE2\x88\x92 to zoom.";

// A small square button with a maximise (two corners) or restore (two squares) mark drawn in it.
bool maximise_button(bool maximised) {
  const float s = ImGui::GetFrameHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const bool pressed = ImGui::InvisibleButton("##max", ImVec2(s, s));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 bg = ImGui::GetColorU32(ImGui::IsItemActive() ? ImGuiCol_ButtonActive
                                      : ImGui::IsItemHovered() ? ImGuiCol_ButtonHovered
                                                               : ImGuiCol_Button);
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddRectFilled(p, ImVec2(p.x + s, p.y + s), bg, ImGui::GetStyle().FrameRounding);
  const float a = s * 0.28f, b = s * 0.72f;
  if (!maximised) {
    dl->AddRect(ImVec2(p.x + a, p.y + a), ImVec2(p.x + b, p.y + b), ink, 0, 0, 1.5f);
  } else {
    const float d = s * 0.1f;
    dl->AddRect(ImVec2(p.x + a + d, p.y + a - d), ImVec2(p.x + b + d, p.y + b - d), ink, 0, 0, 1.2f);
    dl->AddRectFilled(ImVec2(p.x + a - d, p.y + a + d), ImVec2(p.x + b - d, p.y + b + d), bg);
    dl->AddRect(ImVec2(p.x + a - d, p.y + a + d), ImVec2(p.x + b - d, p.y + b + d), ink, 0, 0, 1.5f);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(maximised ? "restore the arrangement (or double-click the title, M, Esc)"
                                : "maximise this view (or double-click its title, M with the pointer over it)");
  return pressed;
}

void toggle_maximised(ViewState& st, const std::string& view) {
  st.arrangement.maximized = st.arrangement.maximized == view ? std::string() : view;
}

}  // namespace

MainWindow::MainWindow(Gui& gui) : gui_(gui) {
  for (const ViewDef& v : view_table()) panels_.push_back(v.make());
}

ViewPanel& MainWindow::panel(const std::string& name) {
  const auto& table = view_table();
  for (size_t i = 0; i < table.size(); ++i)
    if (name == table[i].name) return *panels_[i];
  return *panels_.front();
}

namespace {

constexpr const char* kZoomRefusalEnd = "a larger window zooms further";

// Why one zoom step in from `zoom` is refused in this window; "" where it fits.
std::string zoom_refusal(float zoom) {
  const float next = zoom_step(zoom, +1);
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  if (next <= zoom || zoom_fits(d.x, d.y, next, kMinWindowWidth, kMinWindowHeight)) return "";
  char why[200];
  std::snprintf(why, sizeof why, "%.0f%% would leave this %.0fx%.0f window less room than the workspace needs (%dx%d): %s",
                next * 100, d.x, d.y, kMinWindowWidth, kMinWindowHeight, kZoomRefusalEnd);
  return why;
}

// One zoom step in, where the window keeps at that zoom the room its workspace is laid out for (kMinWindowWidth x
// kMinWindowHeight, as `shot --zoom` checks): 300% left a 1280x720 window 427x240, a toolbar's checkboxes drawn
// under a view's words. Else the zoom stays, and the top bar says why and what would let it grow.
float zoom_in(float zoom, ViewState& st) {
  const std::string why = zoom_refusal(zoom);
  if (why.empty()) return zoom_step(zoom, +1);
  st.message = why;
  return zoom;
}

}  // namespace

void MainWindow::HandleKeys(const Frame& f, ViewState& st) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  // Double-clicks from the raw presses: ImGui 1.86 sees one press per frame and can miss the second.
  double_clicks_.clear();
  for (const ClickPress& c : gui_.clicks) {
    if (c.button != GLFW_MOUSE_BUTTON_LEFT) continue;
    if (is_double_click(last_click_, c, io.MouseDoubleClickTime, gui_.busy_s)) {
      double_clicks_.push_back({c.x, c.y});
      last_click_ = kNoClick;  // a third click starts over
    } else {
      last_click_ = c;
    }
  }
  // A refusal to zoom further goes once it no longer holds: a zoom out, F5 into the other mode's zoom, a larger
  // window (it had stayed in the top bar at 75%, after two Ctrl -).
  const std::string end = kZoomRefusalEnd;
  const std::string& m = st.message;
  if (m.size() > end.size() && m.compare(m.size() - end.size(), end.size(), end) == 0 && m != zoom_refusal(st.active_zoom()))
    st.message.clear();
  float zoom = st.active_zoom();
  // An open dropdown has the keys first: Esc closes it (it had restored a maximised view behind it and stayed open),
  // and the arrows and M do not act on the workspace behind it (Down had changed the rung under the bank view's open
  // site list).
  bool popup = ui::popup_open();
  for (const KeyPress& k : gui_.keys) {
    const bool ctrl = k.mods & GLFW_MOD_CONTROL;
    const bool to_popup =
        k.key == GLFW_KEY_ESCAPE || k.key == GLFW_KEY_UP || k.key == GLFW_KEY_DOWN || k.key == GLFW_KEY_M;
    if (popup && !ctrl && to_popup) {
      if (k.key == GLFW_KEY_ESCAPE) ui::close_popups(), popup = false;
      continue;
    }
    if (ctrl) {  // zoom: Ctrl +/- (main row or keypad), Ctrl 0 back to 100%
      if (k.key == GLFW_KEY_EQUAL || k.key == GLFW_KEY_KP_ADD) zoom = zoom_in(zoom, st);
      if (k.key == GLFW_KEY_MINUS || k.key == GLFW_KEY_KP_SUBTRACT) zoom = zoom_step(zoom, -1);
      if (k.key == GLFW_KEY_0 || k.key == GLFW_KEY_KP_0) zoom = st.presentation ? kPresentationZoom : 1.0f;
      if (k.key == GLFW_KEY_Q) glfwSetWindowShouldClose(gui_.window, GLFW_TRUE);  // quit (settings are saved)
      continue;
    }
    if (k.key == GLFW_KEY_UP || k.key == GLFW_KEY_DOWN) {  // the rung before or after, in the list's order
      st.kernel = neighbour_kernel(f.capture, selected_kernel(st), k.key == GLFW_KEY_UP ? -1 : 1);
      kernels_.Reveal();
    } else if (k.key == GLFW_KEY_M) {  // maximise the view under the pointer, or restore
      if (!st.arrangement.maximized.empty()) st.arrangement.maximized.clear();
      else if (!hovered_pane_.empty()) st.arrangement.maximized = hovered_pane_;
    } else if (k.key == GLFW_KEY_ESCAPE && drag_moving_) {  // a view being dragged stays where it was
      drag_view_.clear();
      drag_moving_ = false;
    } else if (k.key == GLFW_KEY_ESCAPE) {
      st.arrangement.maximized.clear();
    } else if (k.key == GLFW_KEY_F5) {
      st.active_zoom() = std::clamp(zoom, kMinZoom, kMaxZoom);  // a zoom changed in this frame's keys, to the mode it was for
      st.presentation = !st.presentation;
      zoom = st.active_zoom();
    } else if (k.key == GLFW_KEY_F12) {  // the whole workspace, PNG and SVG, into the exports folder
      ExportWorkspace(f, st);
    }
  }
  if (gui_.ctrl_wheel != 0) zoom = gui_.ctrl_wheel > 0 ? zoom_in(zoom, st) : zoom_step(zoom, -1);  // Ctrl + wheel
  st.active_zoom() = std::clamp(zoom, kMinZoom, kMaxZoom);
}

void MainWindow::DrawTopBar(const Frame& f, ViewState& st) {
  const Theme& t = theme_of(st);
  const float em = ImGui::GetFontSize(), sp = ImGui::GetStyle().ItemSpacing.x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFrameHeight() + 6;
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), im_color((f.live ? t.good : t.warn).with_alpha(55)), 4);

  // Right: zoom, presentation, theme; their width known before the banner takes what is left.
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.0f%%", st.effective_zoom() * 100);
  const bool copy = !st.last_export.empty();  // the last export's path, to the clipboard
  const bool moved = rearranged(st.arrangement, view_names());  // views dragged elsewhere: the default offered back
  const float right_w = Flow::button_w("exports") + Flow::button_w("-") + Flow::button_w("+") +
                        ImGui::CalcTextSize("000%").x + Flow::checkbox_w("presentation") +
                        Flow::checkbox_w("light theme") + sp * 7 + (copy ? Flow::button_w("copy path") + sp : 0) +
                        (moved ? Flow::button_w("default layout") + sp : 0);
  ImGui::SetCursorScreenPos(ImVec2(p.x + 8, p.y + 3));
  std::string banner = f.banner;
  if (f.live_state) {
    if (!f.live_state->fault.empty()) banner += " \xC2\xB7 " + f.live_state->fault;
    if (!f.live_state->status.empty()) banner += " \xC2\xB7 " + f.live_state->status;
    if (!f.live_state->error.empty()) banner += " \xC2\xB7 " + f.live_state->error;
  }
  // The status (the last export's full path, or why it failed) keeps its whole width where it can; the banner,
  // which does not change, gives way and is cut first, down to half the bar: its start says where the numbers come
  // from ("No CUDA device ... Bundled capture"), which a long status (a damaged settings file's) had cut to "No CU".
  // Either, cut, shows itself whole under the mouse.
  const float text_w = std::max(em, w - right_w - 24);
  const std::string status = st.message.empty() ? "" : "\xC2\xB7 " + st.message;
  const float status_w =
      status.empty() ? 0
                     : std::min(ImGui::CalcTextSize(status.c_str()).x,
                                std::max(em, banner.empty() ? text_w - em * 4
                                                            : std::max(text_w * 0.5f,
                                                                       text_w - ImGui::CalcTextSize(banner.c_str()).x - sp)));
  ImGui::AlignTextToFramePadding();
  ui::text_fit(banner, std::max(em, text_w - status_w - (status.empty() ? 0 : sp)));
  ui::note("banner");
  if (!status.empty()) {
    ImGui::SameLine();
    ui::text_fit(status, status_w);
    ui::note("status");
  }
  ImGui::SameLine(w - right_w + 8);
  if (copy) {
    if (ImGui::Button("copy path")) {
      ImGui::SetClipboardText(st.last_export.c_str());
      st.message = "copied " + st.last_export;
    }
    ui::note("copy path");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("copy %s", st.last_export.c_str());
    ImGui::SameLine();
  }
  if (moved) {
    if (ImGui::Button("default layout")) {  // which view goes where, and their sizes; the list's width stays
      const Arrangement d = default_arrangement(view_names());
      st.arrangement.columns = d.columns, st.arrangement.column_w = d.column_w, st.arrangement.row_h = d.row_h;
      st.arrangement.recent.clear();  // each column of tabs shows its first view again
      st.message = "every view back in its first place";
    }
    ui::note("default layout");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("put every view back where it was at the first start (views move by dragging their titles)");
    ImGui::SameLine();
  }
  if (exports_open_) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool was_open = exports_open_;
  if (ImGui::Button("exports")) {
    exports_open_ = !exports_open_;
    std::snprintf(exports_text_, sizeof exports_text_, "%s", exports_folder(st).c_str());
    exports_error_.clear();
  }
  if (was_open) ImGui::PopStyleColor();
  ui::note("exports");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("where exports go and the PNG scale (F12 writes the whole window as PNG and SVG)");
  ImGui::SameLine();
  if (ImGui::Button("-")) st.active_zoom() = std::max(0.5f, zoom_step(st.active_zoom(), -1));
  ui::note("zoom out");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("smaller (Ctrl -)");
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(pct);
  ui::note("zoom");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("zoom of every view and its text; Ctrl 0 resets, Ctrl + wheel zooms");
  ImGui::SameLine();
  if (ImGui::Button("+")) st.active_zoom() = zoom_in(st.active_zoom(), st);
  ui::note("zoom in");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("larger (Ctrl +)");
  ImGui::SameLine();
  ImGui::Checkbox("presentation", &st.presentation);
  ui::note("presentation");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("for a projector (F5): a zoom of its own, 150%% to start; Ctrl +/- while presenting change it "
                      "alone, and leaving presentation finds the zoom as it was");
  ImGui::SameLine();
  bool light = !st.dark;
  if (ImGui::Checkbox("light theme", &light)) st.dark = !light;
  ui::note("light theme");
  ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + h + 4));
  if (exports_open_) DrawExportsBar(st);
  DrawAlert(f, st);

  if (!st.hint_dismissed) {
    ImGui::SetCursorScreenPos(ImVec2(p.x + 8, ImGui::GetCursorScreenPos().y));
    const float close_w = Flow::button_w("got it");
    ImGui::PushStyleColor(ImGuiCol_Text, vec4(t.accent));
    ImGui::AlignTextToFramePadding();
    ui::text_fit(kHint, w - close_w - 24);
    ImGui::PopStyleColor();
    ui::note("hint");
    ImGui::SameLine(w - close_w);
    if (ImGui::Button("got it")) st.hint_dismissed = true;
    ui::note("hint close");
  }
}

void MainWindow::DrawAlert(const Frame& f, ViewState& st) {
  alert_shown_ = f.alert == alert_dismissed_ ? std::string() : f.alert;
  if (alert_shown_.empty()) return;
  // Bold on a red band, wrapped rather than cut: the whole message (at most a few hundred characters) stays
  // readable at any window width, the file and the field path included.
  const float w = ImGui::GetContentRegionAvail().x, pad = 6;
  const float close_w = Flow::button_w("dismiss"), wrap_w = std::max(ImGui::GetFontSize() * 8, w - close_w - 32);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::PushFont(gui_.bold);
  const float text_h = ImGui::CalcTextSize(alert_shown_.c_str(), nullptr, false, wrap_w).y;
  const float h = std::max(text_h, ImGui::GetFrameHeight()) + pad * 2;
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + h), im_color(theme_of(st).bad.with_alpha(90)), 4);
  ImGui::SetCursorScreenPos(ImVec2(p.x + 8, p.y + pad));
  ImGui::PushTextWrapPos(p.x + 8 + wrap_w - ImGui::GetWindowPos().x);
  ImGui::TextUnformatted(alert_shown_.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  ui::note("alert");
  ImGui::SetCursorScreenPos(ImVec2(p.x + w - close_w, p.y + (h - ImGui::GetFrameHeight()) / 2));
  if (ImGui::Button("dismiss")) alert_dismissed_ = alert_shown_;
  ui::note("alert dismiss");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("hide this message (it is also on standard error)");
  ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + h + 4));
}

void MainWindow::DrawExportsBar(ViewState& st) {
  const float w = ImGui::GetContentRegionAvail().x, sp = ImGui::GetStyle().ItemSpacing.x;
  const float x0 = ImGui::GetCursorScreenPos().x + 8;
  const std::vector<std::string> scales = {"PNG 1x", "PNG 2x", "PNG 3x", "PNG 4x"};
  const float label_w = ImGui::CalcTextSize("exports folder").x, use_w = Flow::button_w("use");
  const float scale_w = ImGui::CalcTextSize("PNG 4x").x + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2 + 2;
  ImGui::SetCursorScreenPos(ImVec2(x0, ImGui::GetCursorScreenPos().y));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("exports folder");
  ui::note("exports folder label");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 6, w - label_w - use_w - scale_w - sp * 4 - 16));
  // A click selects the whole path, so typing or pasting replaces it. Outlined: on the light theme's bar the field's
  // own fill is all but the bar's.
  ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.0f);
  bool apply = ImGui::InputText("##exports folder", exports_text_, sizeof exports_text_,
                                ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
  ImGui::PopStyleVar();
  ui::note("exports folder");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the folder every export goes to (created if missing); Enter or \"use\" takes it");
  ImGui::SameLine();
  apply = ImGui::Button("use") || apply;
  ui::note("use exports folder");
  if (apply) {
    std::string dir;
    if (choose_exports_folder(exports_text_, &dir, &exports_error_)) {
      st.exports_dir = dir;
      std::snprintf(exports_text_, sizeof exports_text_, "%s", dir.c_str());
      st.message = "exports go to " + dir;
    } else {
      st.message = exports_error_;
    }
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(scale_w);
  const int scale = png_scale(st);
  if (ImGui::BeginCombo("##png scale", scales[size_t(scale - 1)].c_str())) {
    for (int i = 1; i <= 4; ++i) {
      if (ui::combo_item(scales[size_t(i - 1)].c_str(), i == scale)) st.export_scale = i;
      ui::note(("png scale entry " + scales[size_t(i - 1)]).c_str());  // a test clicks the entry once it is drawn
    }
    ImGui::EndCombo();
  }
  ui::note("png scale");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("a PNG export's pixels per pixel on screen (text and lines scale too)");
  if (!exports_error_.empty()) {  // the refusal stays in sight under the field until a folder is taken
    ImGui::SetCursorScreenPos(ImVec2(x0, ImGui::GetCursorScreenPos().y));
    ImGui::PushStyleColor(ImGuiCol_Text, vec4(theme_of(st).bad));
    ImGui::AlignTextToFramePadding();
    ui::text_fit(exports_error_, w - 24);
    ImGui::PopStyleColor();
    ui::note("exports folder error");
  }
}

bool MainWindow::RenderScaled(const ViewState& st, int w, int h, const std::function<void(ViewState&)>& draw,
                              const std::string& path, std::string* error) {
  // The figure as the screen would draw it on a display `scale` times as dense: the zoom and the fonts times it.
  const int scale = png_scale(st);
  ViewState s = st;
  s.zoom = st.effective_zoom() * float(scale);
  s.presentation = false;
  const float before = gui_.scale;
  gui_set_scale(gui_, s.zoom);
  const bool ok = render_png(gui_, w * scale, h * scale, 4, [&] { draw(s); }, path, error);
  gui_set_scale(gui_, before);
  return ok;
}

void MainWindow::ExportPng(size_t i, int w, int h, const ViewContext& ctx) {
  const ViewDef& def = view_table()[i];
  ViewState& st = ctx.st;
  std::string path;
  try {
    path = export_path(st, def.name, panels_[i]->ExportDetail(ctx) + export_suffix(ctx.f, st, selected_kernel(st), def.name),
                       ".png");
  } catch (const std::exception& e) {
    st.message = std::string("export failed: ") + e.what();
    return;
  }
  try {
    write_figure_csv(path, *panels_[i]);  // the numbers this frame plotted, beside the picture to come
  } catch (const std::exception& e) {
    st.message = std::string("export failed: ") + e.what();
    return;
  }
  st.message = "writing " + path + "...";  // shown by this frame, while the next is the export's
  // Drawn after this frame (render_png runs frames of its own); the Frame's capture outlives it (cmd_window
  // keeps the live snapshot of the last frame).
  gui_.between_frames.push_back([this, f = ctx.f, &st, view = std::string(def.name), w, h, path] {
    std::string error;
    const bool ok = RenderScaled(st, w, h, [&](ViewState& s) { DrawFigure(view, f, s); }, path, &error);
    const int scale = png_scale(st);
    if (ok) {
      st.message = written(path, " (" + std::to_string(w * scale) + "x" + std::to_string(h * scale) + ")");
      st.last_export = path;
    } else {
      st.message = "export failed: " + error;
    }
  });
}

void MainWindow::ExportWorkspace(const Frame& f, ViewState& st) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const int w = int(std::lround(vp->Size.x)), h = int(std::lround(vp->Size.y));
  std::string stem;
  try {
    stem = export_stem(exports_folder(st), "all_" + file_safe(selected_kernel(st)) + export_suffix(f, st, selected_kernel(st), "all"),
                       {".png", ".svg"});
  } catch (const std::exception& e) {
    st.message = std::string("export failed: ") + e.what();
    return;
  }
  gui_.between_frames.push_back([this, f, &st, w, h, stem] {
    try {
      ViewState s = st;
      SvgCanvas svg(float(w), float(h), theme_of(s).bg);
      draw_workspace(svg, Rect{{0, 0}, {float(w), float(h)}}, f, s, panels_);
      write_file_atomic(stem + ".svg", svg.finish());
    } catch (const std::exception& e) {
      st.message = std::string("export failed: ") + e.what();
      return;
    }
    std::string error;
    const bool ok = RenderScaled(st, w, h, [&](ViewState& s) {
      ImGuiCanvas canvas(ImGui::GetBackgroundDrawList(), gui_.sans, gui_.mono, gui_.bold);
      draw_workspace(canvas, Rect{{0, 0}, {float(w * png_scale(st)), float(h * png_scale(st))}}, f, s, panels_);
    }, stem + ".png", &error);
    const int scale = png_scale(st);
    if (ok) {
      st.message = written(stem + ".png", " (" + std::to_string(w * scale) + "x" + std::to_string(h * scale) + ") and .svg");
      st.last_export = stem + ".png";
    } else {
      st.message = "export failed: " + error;
    }
  });
  st.message = "exporting the workspace...";
}

void MainWindow::DrawTabs(const TabStrip& strip, ViewState& st) {
  const Theme& t = theme_of(st);
  const float pad = screen_tab_pad();
  std::vector<std::string> titles;
  std::vector<float> widths;
  for (const std::string& v : strip.views) {
    titles.push_back(tab_title(v));
    widths.push_back(screen_tab_label_w(gui_.bold, v));
  }
  const std::vector<Rect> rects = place_tabs(strip, widths, pad, kTabGap);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t i = 0; i < rects.size(); ++i) {
    const Rect& r = rects[i];
    const bool shown = strip.views[i] == strip.shown;
    ImGui::SetCursorScreenPos(ImVec2(r.min.x, r.min.y));
    ImGui::PushID(strip.views[i].c_str());
    if (ImGui::InvisibleButton("##tab", ImVec2(std::max(r.w(), 1.0f), std::max(r.h(), 1.0f)))) {
      activate(&st.arrangement, strip.views[i]);
    }
    ImGui::PopID();
    ui::note(("tab " + strip.views[i]).c_str());
    if (ImGui::IsItemActivated()) {  // a press on a tab may start a move of its view (DragView)
      const ImVec2 press = ImGui::GetIO().MouseClickedPos[ImGuiMouseButton_Left];
      drag_view_ = strip.views[i], drag_from_ = {press.x, press.y}, drag_moving_ = false;
    }
    const bool hovered = ImGui::IsItemHovered();
    // A tab is its view's title here: a double-click maximises the view, as on a title (the hint says so).
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) st.arrangement.maximized = strip.views[i];
    if (shown) ImGui::PushFont(gui_.bold);
    const std::string label = ui::elide(titles[i], r.w() - 2 * pad + 1);  // (a natural width fits exactly)
    if (shown) ImGui::PopFont();
    if (hovered) {
      const ViewDef* def = find_view(strip.views[i]);
      const std::string title = def ? def->title : strip.views[i];
      ImGui::SetTooltip("%s", (shown ? title + ": shown below (double-click to maximise).\nThe window is too small for "
                                       "these views side by side:\na larger window or a smaller zoom (Ctrl -) shows "
                                       "more of them"
                                     : "show " + title + " here (double-click to maximise, drag to move it)")
                                  .c_str());
    }
    const Color fill = shown ? t.panel : hovered ? t.panel.with_alpha(170) : t.panel.with_alpha(90);
    const bool joined = shown && r.max.y >= strip.rect.max.y - 0.5f;  // in the strip's last row, it meets its pane
    dl->AddRectFilled(ImVec2(r.min.x, r.min.y), ImVec2(r.max.x, r.max.y + (joined ? 2 : 0)), im_color(fill),
                      ImGui::GetStyle().ChildRounding, ImDrawFlags_RoundCornersTop);
    if (shown) dl->AddLine(ImVec2(r.min.x + 2, r.min.y + 1), ImVec2(r.max.x - 2, r.min.y + 1), im_color(t.accent), 2);
    const float ty = r.min.y + (r.h() - ImGui::GetFontSize()) * 0.5f;
    if (shown) ImGui::PushFont(gui_.bold);
    dl->AddText(ImVec2(r.min.x + pad, ty), im_color(shown ? t.text : t.text_dim), label.c_str());
    if (shown) ImGui::PopFont();
  }
}

void MainWindow::DragView(ViewState& st, float gap, const PaneLimits& limits) {
  if (drag_view_.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  const Vec2 m{io.MousePos.x, io.MousePos.y};
  const bool down = io.MouseDown[ImGuiMouseButton_Left];
  if (!drag_moving_ && down && std::hypot(m.x - drag_from_.x, m.y - drag_from_.y) > std::max(io.MouseDragThreshold, 4.0f) * 2)
    drag_moving_ = true;
  if (!drag_moving_) {  // a click (or a double-click) on the title, not a move
    if (!down) drag_view_.clear();
    return;
  }
  const bool maximised = !st.arrangement.maximized.empty();
  const DropTarget t = maximised ? DropTarget{} : drop_target(layout_, st.arrangement, drag_view_, m);
  const ViewDef* def = find_view(drag_view_);
  const std::string title = def ? def->title : drag_view_;
  const ViewDef* onto = t.valid() ? find_view(t.onto) : nullptr;
  const std::string onto_title = onto ? onto->title : t.onto;
  // What the drop would leave in sight, said before it is made: a place the window is too small for turns the view
  // into a tab, and a new column can fold others into tabs (the label had promised a column and the drop made a tab).
  const DropOutcome o = t.valid() ? drop_outcome(area_, st.arrangement, drag_view_, t, gap, limits) : DropOutcome{};
  std::string where = maximised    ? "restore the arrangement first (Esc) to move a view"
                      : !o.changes ? "drop it over another view (Esc: leave it)"
                      : t.among_tabs ? "into the tabs, after " + onto_title
                      : t.side == DropTarget::kAbove ? "above " + onto_title
                      : t.side == DropTarget::kBelow ? "below " + onto_title
                      : t.side == DropTarget::kLeft  ? "in a column left of " + onto_title
                                                     : "in a column right of " + onto_title;
  if (o.as_tab && !t.among_tabs) where += ", as a tab: too little room for it beside the others";
  if (o.folded > 0)
    where += "; " + std::to_string(o.folded) + (o.folded == 1 ? " other view becomes a tab" : " other views become tabs");
  if (down) {
    const Theme& th = theme_of(st);
    ImGui::SetMouseCursor(maximised ? ImGuiMouseCursor_NotAllowed : ImGuiMouseCursor_ResizeAll);
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    if (o.changes) {
      dl->AddRectFilled(ImVec2(t.zone.min.x, t.zone.min.y), ImVec2(t.zone.max.x, t.zone.max.y), im_color(th.accent.with_alpha(60)), 4);
      dl->AddRect(ImVec2(t.zone.min.x, t.zone.min.y), ImVec2(t.zone.max.x, t.zone.max.y), im_color(th.accent), 4, 0, 2);
    }
    // What the drop does, on a backing beside the pointer (kept inside the window).
    const std::string label = title + ": " + where;
    const ImVec2 sz = ImGui::CalcTextSize(label.c_str());
    const float pad = 6, vw = ImGui::GetMainViewport()->Size.x, vh = ImGui::GetMainViewport()->Size.y;
    const float x = std::clamp(m.x + 18, 0.0f, std::max(0.0f, vw - sz.x - pad * 2));
    const float y = std::clamp(m.y + 18, 0.0f, std::max(0.0f, vh - sz.y - pad * 2));
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + sz.x + pad * 2, y + sz.y + pad * 2), im_color(th.panel), 4);
    dl->AddRect(ImVec2(x, y), ImVec2(x + sz.x + pad * 2, y + sz.y + pad * 2), im_color(th.accent), 4, 0, 1.5f);
    dl->AddText(ImVec2(x + pad, y + pad), im_color(th.text), label.c_str());
    return;
  }
  // Released: moved where it was shaded, if anywhere, and said as the label said it.
  if (o.changes && move_view(&st.arrangement, drag_view_, t))
    st.message = "moved " + title + " " + where + " (\"default layout\" puts every view back)";
  drag_view_.clear();
  drag_moving_ = false;
}

void MainWindow::DrawPane(size_t i, Rect pane, const ViewContext& ctx, bool tabbed) {
  const ViewDef& def = view_table()[i];
  ViewPanel& p = *panels_[i];
  ViewState& st = ctx.st;
  ImGui::SetCursorScreenPos(ImVec2(pane.min.x, pane.min.y));
  ImGui::BeginChild(def.name, ImVec2(pane.w(), pane.h()), true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float right = top.x + ImGui::GetContentRegionAvail().x;
  const float icons_w = Flow::button_w("PNG") + Flow::button_w("SVG") + ImGui::GetFrameHeight() + style.ItemSpacing.x * 2;

  // Header: title (the tab above names a tabbed pane), the panel's widgets flowing after it, the export and
  // maximise buttons at the right.
  if (tabbed) {
    ImGui::Dummy(ImVec2(0, ImGui::GetFrameHeight()));  // the line the widgets (or the buttons alone) sit on
  } else {
    ImGui::PushFont(gui_.bold);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(def.title);
    ImGui::PopFont();
  }
  Flow flow(right - icons_w - style.ItemSpacing.x, true, right);  // the lines under the buttons' reach the edge
  p.Toolbar(ctx, flow);
  flow.end();
  const float header_bottom = ImGui::GetItemRectMax().y;
  ImGui::SetCursorScreenPos(ImVec2(right - icons_w, top.y));
  if (ImGui::Button("SVG")) {
    try {
      const std::string path =
          export_path(st, def.name, p.ExportDetail(ctx) + export_suffix(ctx.f, st, selected_kernel(st), def.name));
      const ImVec2 size = ImGui::GetWindowSize();
      SvgCanvas svg(size.x, size.y, ctx.theme.bg);
      draw_view_figure(svg, Rect{{0, 0}, {size.x, size.y}}, def.name, ctx.f, st, p);
      write_file_atomic(path, svg.finish());
      const std::string csv = write_figure_csv(path, p);  // the plotted numbers beside it (the throughput view)
      st.message = written(path, csv.empty() ? "" : " and its data " + std::filesystem::path(csv).filename().string());
      st.last_export = path;
    } catch (const std::exception& e) {
      st.message = std::string("export failed: ") + e.what();
    }
  }
  ui::note("SVG");
  if (ImGui::IsItemHovered())
    ui::tooltip("write this view as an SVG picture (text stays text); the picture is the pane's, so for a slide "
                "maximise the view first (M)");
  ImGui::SameLine();
  // PNG: the same figure as the SVG, pane-sized, drawn offscreen without the widgets at the exports row's scale.
  const int png_w = int(std::lround(pane.w())), png_h = int(std::lround(pane.h())), scale = png_scale(st);
  if (ImGui::Button("PNG")) ExportPng(i, png_w, png_h, ctx);
  ui::note("PNG");
  if (ImGui::IsItemHovered())
    ui::tooltip("write this view as a " + std::to_string(png_w * scale) + "x" + std::to_string(png_h * scale) +
                " PNG (" + std::to_string(scale) + "x; the scale is in \"exports\" at the top); the picture is the "
                "pane's, so for a slide maximise the view first (M)");
  ImGui::SameLine();
  if (maximise_button(!st.arrangement.maximized.empty())) toggle_maximised(st, def.name);
  ui::note("maximise");
  // Double-clicking the header's empty part (the title too) maximises and restores.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Rect header{{pane.min.x, pane.min.y}, {right - icons_w, header_bottom}};
  for (const Vec2& d : double_clicks_)
    if (header.contains(d) && !ImGui::IsAnyItemHovered()) toggle_maximised(st, def.name);
  // A press there (not on a widget) may start a move of the view: DragView takes it from here.
  const ImVec2 press = ImGui::GetIO().MouseClickedPos[ImGuiMouseButton_Left];
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && header.contains({press.x, press.y}) && !ImGui::IsAnyItemHovered())
    drag_view_ = def.name, drag_from_ = {press.x, press.y}, drag_moving_ = false;

  // The figure: the rest of the pane, drawn at the zoom through a scaled canvas.
  ImGui::SetCursorScreenPos(ImVec2(top.x, header_bottom + style.ItemSpacing.y));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 fp = ImGui::GetCursorScreenPos();
  const Rect screen{{fp.x, fp.y}, {fp.x + std::max(avail.x, 16.0f), fp.y + std::max(avail.y, 16.0f)}};
  ImGui::InvisibleButton("##figure", ImVec2(screen.w(), screen.h()));
  FigureItem item;
  item.hovered = ImGui::IsItemHovered() && !drag_moving_;  // a dragged view's label is not covered by their tooltips
  item.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  item.double_clicked = item.hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
  ImGuiCanvas canvas(ImGui::GetWindowDrawList(), gui_.sans, gui_.mono, gui_.bold);
  ScaledCanvas scaled(canvas, st.effective_zoom(), screen.min);
  item.rect = scaled.layout_rect(screen);
  if (item.hovered) item.mouse = scaled.to_view(Vec2{mouse.x, mouse.y});
  {
    const viz::MaximisedScope maximised(st.arrangement.maximized == def.name);  // its hints say to zoom out instead
    CutTexts::global().take_under_mouse();  // nothing left from a figure drawn elsewhere (an export)
    p.Figure(scaled, item.rect, ctx, item.mouse);
    p.Interact(ctx, item);
    if (!drag_moving_) cut_text_tooltip();
  }
  if (ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) hovered_pane_ = def.name;
  ImGui::EndChild();
}

bool MainWindow::Draw(const Frame& f, ViewState& st) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  if (std::fabs(gui_.scale - st.effective_zoom()) > 1e-3f) gui_.want_scale = st.effective_zoom();
  if (gui_.dark != st.dark) {
    gui_.dark = st.dark;
    apply_style(st.dark, gui_.scale);
  }
  reconcile(&st.arrangement, view_names());
  HandleKeys(f, st);
  // A new zoom (F5, Ctrl +/-) or window size re-lays the list out: it scrolls its selected rung back into view.
  if (gui_.scale != list_scale_ || vp->Size.x != list_w_ || vp->Size.y != list_h_) {
    list_scale_ = gui_.scale, list_w_ = vp->Size.x, list_h_ = vp->Size.y;
    // What a drop said about tabs and folded columns held for the layout it was made in (it stayed, false, after F5).
    if (st.message.rfind("moved ", 0) == 0) st.message.clear();
    kernels_.Reveal();
  }
  const ViewContext ctx{f, st, theme_of(st), &gui_};
  for (auto& p : panels_) p->Update(ctx);
  if (!st.reveal.empty()) {  // a view took another's request (the code view's site): show it if it is a tab
    activate(&st.arrangement, st.reveal);
    st.reveal.clear();
  }

  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                 ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::Begin("gemmscope", nullptr, flags);
  DrawTopBar(f, st);
  const ImVec2 a0 = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  area_ = Rect{{a0.x, a0.y}, {a0.x + avail.x, a0.y + avail.y}};
  const float gap = std::round(ImGui::GetStyle().ItemSpacing.x);
  if (list_need_font_ != ImGui::GetFontSize()) {  // measured again only when the zoom changes the font
    list_need_font_ = ImGui::GetFontSize();
    list_need_ = kernel_list_need([](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }, list_need_font_);
  }
  PaneLimits limits = pane_limits(ImGui::GetFontSize(), std::round(ImGui::GetFrameHeight() * 1.2f), list_need_);
  limits.tab_w = [this](const std::string& v) { return screen_tab_label_w(gui_.bold, v) + 2 * screen_tab_pad(); };
  limits.tab_gap = kTabGap;
  layout_ = layout_workspace(area_, st.arrangement, gap, limits);

  ImGui::SetCursorScreenPos(ImVec2(layout_.list.min.x, layout_.list.min.y));
  ImGui::BeginChild("kernels", ImVec2(layout_.list.w(), layout_.list.h()), true);
  kernels_.Draw(ctx);
  ImGui::EndChild();
  hovered_pane_.clear();
  const auto& table = view_table();
  for (const TabStrip& strip : layout_.tabs) DrawTabs(strip, st);
  for (const auto& [name, rect] : layout_.panes) {
    bool tabbed = false;
    for (const TabStrip& strip : layout_.tabs) tabbed = tabbed || strip.shown == name;
    for (size_t i = 0; i < table.size(); ++i)
      if (name == table[i].name) DrawPane(i, rect, ctx, tabbed);
  }

  // Splitters: the gaps between panes, dragged to resize.
  const float min_pane = ImGui::GetFontSize() * 10;
  for (size_t i = 0; i < layout_.splitters.size(); ++i) {
    const Splitter& s = layout_.splitters[i];
    ImGui::SetCursorScreenPos(ImVec2(s.rect.min.x, s.rect.min.y));
    ImGui::PushID(int(i));
    ImGui::InvisibleButton("##split", ImVec2(std::max(s.rect.w(), 1.0f), std::max(s.rect.h(), 1.0f)));
    ImGui::PopID();
    if (ImGui::IsItemActive()) {
      const ImVec2 d = ImGui::GetIO().MouseDelta;
      drag_splitter(&st.arrangement, s, s.vertical() ? d.x : d.y, area_, gap, min_pane, limits);
    }
    // A gap that cannot move (every pane beside it as narrow as its view allows) says so, rather than ignoring the drag.
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive() && !splitter_moves(st.arrangement, s, area_, gap, min_pane, limits))
      ui::tooltip("the views on both sides are as small as they can draw in: a larger window or a smaller zoom "
                  "(Ctrl -) gives this gap room to move");
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
      ImGui::SetMouseCursor(s.vertical() ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(s.rect.min.x, s.rect.min.y), ImVec2(s.rect.max.x, s.rect.max.y),
                                                im_color(theme_of(st).accent.with_alpha(160)));
    }
  }
  DragView(st, gap, limits);
  ImGui::End();
  bool animating = f.live || drag_moving_;
  for (const auto& p : panels_) animating = animating || p->Animating(ctx);
  return animating;
}

void MainWindow::DrawFigure(const std::string& view, const Frame& f, ViewState& st) {
  DrawFigure(view, f, st, panel(view));
}

void MainWindow::DrawFigure(const std::string& view, const Frame& f, ViewState& st, ViewPanel& panel) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGuiCanvas canvas(ImGui::GetBackgroundDrawList(), gui_.sans, gui_.mono, gui_.bold);
  const Rect r{{vp->Pos.x, vp->Pos.y}, {vp->Pos.x + vp->Size.x, vp->Pos.y + vp->Size.y}};
  canvas.rect_filled(r, theme_of(st).bg);
  draw_view_figure(canvas, r, view, f, st, panel);
}

void draw_view_figure(Canvas& c, Rect r, const std::string& view, const Frame& f, ViewState& st, ViewPanel& panel) {
  const viz::PictureScope picture;  // hints about the window's controls say what a larger picture would show
  const ViewContext ctx{f, st, theme_of(st), nullptr};
  panel.Update(ctx);
  ScaledCanvas scaled(c, st.effective_zoom(), r.min);
  panel.Figure(scaled, scaled.layout_rect(r), ctx, Vec2{kFar, kFar});
}

void draw_workspace(Canvas& c, Rect r, const Frame& f, ViewState& st, std::vector<std::unique_ptr<ViewPanel>>& panels) {
  const viz::PictureScope picture;
  const Theme& t = theme_of(st);
  const ViewContext ctx{f, st, t, nullptr};
  reconcile(&st.arrangement, view_names());
  const float z = st.effective_zoom(), fs = 15 * z, pad = 8 * z;
  c.rect_filled(r, t.bg);
  // The top bar as the window draws it: where the data comes from.
  const Rect bar{{r.min.x + pad, r.min.y + pad}, {r.max.x - pad, r.min.y + pad + fs * 1.6f}};
  c.rect_filled(bar, (f.live ? t.good : t.warn).with_alpha(55), 4);
  const std::string& banner = f.picture_banner.empty() ? f.banner : f.picture_banner;
  c.text({bar.min.x + pad, bar.min.y + fs * 0.3f}, viz::elide(c, banner, fs, Font::Sans, bar.w() - 2 * pad), t.text, fs);
  const Rect area{{r.min.x + pad, bar.max.y + pad}, {r.max.x - pad, r.max.y - pad}};
  // The window's limits: its font is 15 px times the zoom, a frame 3 px of padding above and below the text.
  PaneLimits limits = pane_limits(fs, std::round((fs + 6 * z) * 1.2f),
                                  kernel_list_need([&](const std::string& s) { return c.text_size(s, fs).x; }, fs));
  const float tpad = 6 * z;
  const auto tab_label_w = [&](const std::string& v) { return c.text_size(tab_title(v), fs, Font::SansBold).x; };
  limits.tab_w = [&](const std::string& v) { return tab_label_w(v) + 2 * tpad; };
  limits.tab_gap = kTabGap;
  const WorkspaceLayout lay = layout_workspace(area, st.arrangement, std::round(8 * z), limits);
  {
    ScaledCanvas scaled(c, z, lay.list.min);
    draw_kernel_list(scaled, scaled.layout_rect(lay.list), ctx);
  }
  // Tabs as the window draws them: the shown one joined to its pane, in bold, under an accent line.
  std::vector<std::string> tabbed;
  for (const TabStrip& strip : lay.tabs) {
    std::vector<std::string> titles;
    std::vector<float> widths;
    for (const std::string& v : strip.views) {
      titles.push_back(tab_title(v));
      widths.push_back(tab_label_w(v));
    }
    const std::vector<Rect> rects = place_tabs(strip, widths, tpad, kTabGap);
    for (size_t i = 0; i < rects.size(); ++i) {
      const Rect& r = rects[i];
      const bool shown = strip.views[i] == strip.shown;
      const bool joined = shown && r.max.y >= strip.rect.max.y - 0.5f;  // in the last row, it meets its pane
      c.rect_filled(Rect{r.min, {r.max.x, r.max.y + (joined ? 4 : 0)}}, shown ? t.panel : t.panel.with_alpha(90), 4);
      if (shown) c.line({r.min.x + 2, r.min.y + 1}, {r.max.x - 2, r.min.y + 1}, t.accent, 2);
      const Font font = shown ? Font::SansBold : Font::Sans;
      c.text({r.min.x + tpad, r.min.y + (r.h() - fs) * 0.5f}, viz::elide(c, titles[i], fs, font, r.w() - 2 * tpad + 1),
             shown ? t.text : t.text_dim, fs, Align::Left, font);
    }
    tabbed.push_back(strip.shown);
  }
  const auto& table = view_table();
  for (const auto& [name, rect] : lay.panes)
    for (size_t i = 0; i < table.size(); ++i) {
      if (name != table[i].name) continue;
      const bool under_tab = std::find(tabbed.begin(), tabbed.end(), name) != tabbed.end();
      c.rect_filled(rect, t.panel, 4);
      c.push_clip(rect);  // a title longer than a narrow pane stops at its edge, as on screen
      if (!under_tab)  // a tab names a tabbed pane
        c.text({rect.min.x + pad, rect.min.y + pad}, table[i].title, t.text, fs, Align::Left, Font::SansBold);
      c.pop_clip();
      const Rect fig{{rect.min.x + pad, rect.min.y + pad + fs * 1.8f}, {rect.max.x - pad, rect.max.y - pad}};
      c.push_clip(fig);
      panels[i]->Update(ctx);
      ScaledCanvas scaled(c, z, fig.min);
      panels[i]->Figure(scaled, scaled.layout_rect(fig), ctx, Vec2{kFar, kFar});
      c.pop_clip();
    }
}

}  // namespace gs
