// GLFW + OpenGL 3.3 (glad) + Dear ImGui set-up, shared by the window and the offscreen `shot`.
#pragma once

#include <functional>
#include <string>

struct GLFWwindow;
struct ImFont;

namespace gs {

struct Gui {
  GLFWwindow* window = nullptr;
  ImFont* sans = nullptr;  // DejaVu Sans from fonts-dejavu-core, or ImGui's default font
  ImFont* mono = nullptr;
  ImFont* bold = nullptr;  // titles drawn by the views
  float scale = 1.0f;      // fonts and style sizes are multiplied by this
};

// Opens a window (hidden when !visible: for offscreen rendering), a GL 3.3 core context, loads GL
// through glad and starts ImGui with our fonts and style. False with `error` set on failure.
bool gui_open(Gui* gui, const std::string& title, int width, int height, bool visible, float scale,
              bool dark, std::string* error);
void gui_close(Gui* gui);

// Runs `frame` for `frames` ImGui frames (so auto-sized layout settles) into an offscreen
// framebuffer of width x height, then writes the last frame as PNG (temp file + rename).
bool render_png(Gui& gui, int width, int height, int frames, const std::function<void()>& frame,
                const std::string& path, std::string* error);

// The interactive loop: polls events, runs `frame` once per frame until the window is closed
// (or, when max_frames > 0, after that many frames).
void run_window_loop(Gui& gui, const std::function<void()>& frame, int max_frames = 0);

// Applies the dark or light ImGui style that matches viz's themes.
void apply_style(bool dark, float scale);

}  // namespace gs
