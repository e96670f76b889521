// GLFW + OpenGL 3.3 (glad) + Dear ImGui set-up, shared by the window and the offscreen `shot`.
#pragma once

#include <functional>
#include <string>
#include <vector>

struct GLFWwindow;
struct ImFont;

namespace gs {

// A key pressed (or repeated) since the last frame, with its modifiers (GLFW codes). Kept by the loop
// itself: ImGui 1.86 sees only keys still down at the start of a frame, and a quick tap can fall between.
struct KeyPress {
  int key = 0, mods = 0;
};

// A mouse button pressed since the last frame, where and when (GLFW codes, window coordinates, seconds).
struct ClickPress {
  int button = 0;
  float x = 0, y = 0;
  double time = 0;
};

// Whether press `c` makes a double-click with the one before, `prev`: near it, and soon after. The times are when
// the window read the presses, between frames: a press during a frame's work is read only after it, so where that
// frame took `busy_s` (a laptop's software GL under load: 300 ms and more) a quick second click reads that much
// later, and is still a double-click.
inline bool is_double_click(const ClickPress& prev, const ClickPress& c, double window_s, double busy_s) {
  return c.button == prev.button && c.time - prev.time < window_s + busy_s && c.x - prev.x < 6 && prev.x - c.x < 6 &&
         c.y - prev.y < 6 && prev.y - c.y < 6;
}

struct Gui {
  GLFWwindow* window = nullptr;  // null when headless
  // Headless: an EGL context with no window and no X server (EGLDisplay, EGLContext); frames go to an
  // offscreen framebuffer.
  void* egl_display = nullptr;
  void* egl_context = nullptr;
  std::string gl_renderer;  // GL_RENDERER of the context, for logs
  ImFont* sans = nullptr;  // DejaVu Sans from fonts-dejavu-core, or ImGui's default font
  ImFont* mono = nullptr;
  ImFont* bold = nullptr;  // titles drawn by the views
  float scale = 1.0f;      // fonts and style sizes are multiplied by this
  bool dark = true;        // the ImGui style's theme
  // Asked for during a frame, applied by the loop before the next one (fonts cannot change mid-frame).
  float want_scale = 0;    // 0: no change
  std::vector<KeyPress> keys;  // pressed since the last frame, in order
  std::vector<ClickPress> clicks;  // likewise: two quick clicks can fall between two frames
  double busy_s = 0;               // the last frame's work, from reading input to the swap (is_double_click)
  std::vector<int> held_keys;      // keys tapped inside one frame, held down for ImGui until the next (render.cpp)
  float ctrl_wheel = 0;            // wheel turned with Ctrl held since the last frame (up > 0)
  // Work a frame asks for that draws frames of its own (an offscreen PNG export: render_png cannot run inside
  // an ImGui frame); the loops run it after the frame is shown, in order, then clear it.
  std::vector<std::function<void()>> between_frames;
};

// The smallest window, and `shot --size`, the workspace is laid out for: the kernel list, a view's toolbar and
// its picture side by side. Smaller, their widgets and text overlapped (320x240 was drawn as a pile).
constexpr int kMinWindowWidth = 640, kMinWindowHeight = 400;
// Whether a w x h window or picture at `zoom` keeps min_w x min_h of room, the least its layout is drawn for: the
// window's zoom-in stops, and `shot --zoom` refuses, where it would not (300% of 1280x720 left 427x240).
inline bool zoom_fits(double w, double h, double zoom, int min_w, int min_h) {
  return w / zoom >= min_w - 0.5 && h / zoom >= min_h - 0.5;
}

// Shrinks a window larger than its monitor's work area (the screen less panels and docks) to fit it, at the
// area's top left: a 1366x768 laptop gets the whole window on its screen, not a 1600x900 one partly off it.
void fit_to_screen(Gui* gui);

// Opens a window (hidden when !visible: for offscreen rendering), a GL 3.3 core context, loads GL
// through glad and starts ImGui with our fonts and style. Offscreen (!visible) with no DISPLAY, or with
// GEMMSCOPE_GL=egl, it opens no window at all: an EGL context on a GPU device or Mesa's surfaceless platform.
// False with `error` set on failure.
bool gui_open(Gui* gui, const std::string& title, int width, int height, bool visible, float scale,
              bool dark, std::string* error);
void gui_close(Gui* gui);

// Runs `frame` for `frames` ImGui frames (so auto-sized layout settles) into an offscreen
// framebuffer of width x height, then writes the last frame as PNG (temp file + rename).
bool render_png(Gui& gui, int width, int height, int frames, const std::function<void()>& frame,
                const std::string& path, std::string* error);

struct LoopOptions {
  int max_frames = 0;       // > 0: stop after this many frames
  double exit_after_s = 0;  // > 0: stop after this many seconds (tests)
};

// The interactive loop until the window is closed. `frame` draws one ImGui frame and returns true while
// something on screen moves by itself (a live series): frames then follow at the display rate. Otherwise
// the loop sleeps until input arrives and draws a few frames after it, so an idle window costs nothing.
void run_window_loop(Gui& gui, const std::function<bool()>& frame, const LoopOptions& opt = {});

// The headless loop: the same frames into an offscreen framebuffer of width x height, paced at 60 Hz while
// `frame` returns true (what a display would show), asleep otherwise, until `exit_after_s` (or max_frames).
// `on_frame` gets each frame's time in ms: from the start of the frame to the GPU having drawn it (glFinish).
// With `last_png`, the last frame is written there; false with *error if that fails.
bool run_headless_loop(Gui& gui, int width, int height, const std::function<bool()>& frame, const LoopOptions& opt,
                       const std::function<void(double t_s, double frame_ms, bool moving)>& on_frame,
                       const std::string& last_png, std::string* error);

// Reloads the fonts at `scale` (15 px times it) and rescales the style; between frames only.
void gui_set_scale(Gui& gui, float scale);

// Applies the dark or light ImGui style that matches viz's themes.
void apply_style(bool dark, float scale);

}  // namespace gs
