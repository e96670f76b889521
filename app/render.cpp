#include "app/render.h"

#include <glad/egl.h>
#include <glad/gl.h>
// glad must come before GLFW so GLFW does not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cfloat>
#include <chrono>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <vector>
#ifdef __SANITIZE_ADDRESS__
#include <dlfcn.h>
#include <link.h>
#endif

#include "core/files.h"
#include "viz/views.h"

namespace gs {
namespace {

std::string g_glfw_error;  // GLFW reports errors through a callback; keep the last for our message.

void on_glfw_error(int code, const char* description) {
  g_glfw_error = std::string(description) + " (GLFW error " + std::to_string(code) + ")";
}

// Fonts come from Debian's fonts-dejavu-core; ImGui's built-in font is the fallback.
constexpr const char* kSansFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kMonoFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
constexpr const char* kBoldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

ImFont* load_font(const char* path, float size) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return nullptr;
  std::fclose(f);
  ImFontConfig cfg;
  cfg.OversampleH = 2;  // crisper text when views draw it at sizes other than the base size
  // Latin-1, and the few symbols the views write: dashes, ellipsis, arrows, minus, less/greater-or-equal.
  static const ImWchar kRanges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x2193, 0x2212, 0x2212, 0x2264, 0x2265, 0};
  return ImGui::GetIO().Fonts->AddFontFromFileTTF(path, size, &cfg, kRanges);
}

// Fonts at `scale`: DejaVu Sans 15 px (text), Sans Mono 14 px, Sans Bold 15 px; ImGui's font where
// DejaVu is missing.
void load_fonts(Gui* gui, float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  gui->sans = load_font(kSansFont, 15.0f * scale);
  gui->mono = load_font(kMonoFont, 14.0f * scale);
  gui->bold = load_font(kBoldFont, 15.0f * scale);
  if (!gui->sans) {
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    gui->sans = io.Fonts->AddFontDefault(&cfg);
  }
  if (!gui->mono) gui->mono = gui->sans;
  if (!gui->bold) gui->bold = gui->sans;
}

// Input events since start, counted by callbacks installed before ImGui's (which chains to them): the
// loop tells a wake-up by input from a timeout by comparing it.
long g_events = 0;
void on_cursor(GLFWwindow*, double, double) { ++g_events; }
std::vector<ClickPress> g_clicks;  // pressed since the last frame
void on_button(GLFWwindow* w, int button, int action, int) {
  ++g_events;
  if (action != GLFW_PRESS || g_clicks.size() >= 64) return;
  double x = 0, y = 0;
  glfwGetCursorPos(w, &x, &y);
  g_clicks.push_back({button, float(x), float(y), glfwGetTime()});
}
float g_ctrl_wheel = 0;  // wheel turned with Ctrl down, as it was when the wheel turned
void on_scroll(GLFWwindow* w, double, double dy) {
  ++g_events;
  if (glfwGetKey(w, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS || glfwGetKey(w, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS)
    g_ctrl_wheel += float(dy);
}
std::vector<KeyPress> g_keys;  // pressed since the last frame
void on_key(GLFWwindow*, int key, int, int action, int mods) {
  ++g_events;
  if (action != GLFW_RELEASE && g_keys.size() < 64) g_keys.push_back({key, mods});
}
void on_char(GLFWwindow*, unsigned) { ++g_events; }
void on_enter(GLFWwindow*, int) { ++g_events; }
void on_focus(GLFWwindow*, int) { ++g_events; }
void on_size(GLFWwindow*, int, int) { ++g_events; }
void on_refresh(GLFWwindow*) { ++g_events; }

ImVec4 to_vec4(Color c) { return ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, c.a / 255.f); }

}  // namespace

void apply_style(bool dark, float scale) {
  ImGuiStyle style;
  if (dark) ImGui::StyleColorsDark(&style); else ImGui::StyleColorsLight(&style);
  const Theme& t = dark ? Theme::Dark() : Theme::Light();
  style.Colors[ImGuiCol_WindowBg] = to_vec4(t.bg);
  style.Colors[ImGuiCol_ChildBg] = to_vec4(t.panel);
  style.Colors[ImGuiCol_Text] = to_vec4(t.text);
  style.Colors[ImGuiCol_TextDisabled] = to_vec4(t.text_dim);
  // Tooltips and popups opaque: ImGui's 0.94 alpha let the view behind show through a tooltip's numbers, which a
  // projector blurs. The panel colour with a border sets them off the view under them.
  style.Colors[ImGuiCol_PopupBg] = to_vec4(t.panel.with_alpha(255));
  style.PopupBorderSize = 1;
  // A selected row (the kernel list's rung, a combo's choice) stronger than a hovered one: ImGui's defaults draw
  // the hover at 0.8 alpha over the selection's 0.31, so the row under a resting mouse looked the selected one.
  style.Colors[ImGuiCol_Header] = to_vec4(t.accent.with_alpha(128));
  style.Colors[ImGuiCol_HeaderHovered] = to_vec4(t.accent.with_alpha(56));
  style.Colors[ImGuiCol_HeaderActive] = to_vec4(t.accent.with_alpha(160));
  style.WindowRounding = 0;
  style.ChildRounding = 4;
  style.FrameRounding = 3;
  style.WindowPadding = ImVec2(8, 8);
  style.ItemSpacing = ImVec2(8, 5);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

namespace {

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

// A GL 3.3 core context with no window: on each EGL device (NVIDIA's driver without an X server), then on
// Mesa's surfaceless platform (llvmpipe where there is no GPU). Current on return, with no surface (or a
// 16x16 pbuffer where surfaceless contexts are not offered).
bool egl_open(Gui* gui, std::string* error) {
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
    *error = "no EGL library (libEGL.so.1): install libegl1 and a driver (libegl-mesa0 or NVIDIA's)";
    return false;
  }
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  std::vector<EGLDisplay> displays;
  if (has_extension(client, "EGL_EXT_platform_device") && eglQueryDevicesEXT && eglGetPlatformDisplayEXT) {
    EGLDeviceEXT devices[16];
    EGLint n = 0;
    if (eglQueryDevicesEXT(16, devices, &n))
      for (EGLint i = 0; i < n; ++i) displays.push_back(eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr));
  }
  if (has_extension(client, "EGL_MESA_platform_surfaceless") && eglGetPlatformDisplayEXT)
    displays.push_back(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr));
  std::string tried;
  for (EGLDisplay dpy : displays) {
    EGLint major = 0, minor = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) continue;
    gladLoaderLoadEGL(dpy);  // the display's own entry points
    const EGLint config_attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                   EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    const EGLint context_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    EGLContext ctx = EGL_NO_CONTEXT;
    if (eglBindAPI(EGL_OPENGL_API) && eglChooseConfig(dpy, config_attrs, &config, 1, &configs) && configs > 0)
      ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attrs);
    bool current = ctx != EGL_NO_CONTEXT && eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx);
    if (ctx != EGL_NO_CONTEXT && !current) {
      const EGLint pbuffer_attrs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
      EGLSurface pb = eglCreatePbufferSurface(dpy, config, pbuffer_attrs);
      current = pb != EGL_NO_SURFACE && eglMakeCurrent(dpy, pb, pb, ctx);
    }
    if (current && gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
      gui->egl_display = dpy;
      gui->egl_context = ctx;
      return true;
    }
    const char* vendor = eglQueryString(dpy, EGL_VENDOR);
    tried += std::string(tried.empty() ? "" : "; ") + (vendor ? vendor : "an EGL display") + ": no OpenGL 3.3 core context";
    if (ctx != EGL_NO_CONTEXT) eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
  }
  *error = "no headless OpenGL: " + (displays.empty() ? std::string("EGL offers no device and no surfaceless platform")
                                                       : tried.empty() ? "no EGL display would initialise" : tried);
  return false;
}

void egl_close(Gui* gui) {
  EGLDisplay dpy = static_cast<EGLDisplay>(gui->egl_display);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(dpy, static_cast<EGLContext>(gui->egl_context));
  eglTerminate(dpy);
  gladLoaderUnloadEGL();
  gui->egl_display = gui->egl_context = nullptr;
}

// ImGui on the current context, with our fonts and style; the GLFW back end only where there is a window.
void imgui_start(Gui* gui, float scale, bool dark) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is code, not a file left in the user's folder
  gui->scale = scale;
  gui->dark = dark;
  load_fonts(gui, scale);
  apply_style(dark, scale);
  if (const GLubyte* r = glGetString(GL_RENDERER)) gui->gl_renderer = reinterpret_cast<const char*>(r);
}

}  // namespace

#ifdef __SANITIZE_ADDRESS__
// Sanitizer builds only: LeakSanitizer finds what is still referenced by scanning the globals of the libraries
// loaded when the program exits. The GL driver (Mesa: libEGL_mesa, libGLX_mesa, swrast_dri) keeps its state in its
// globals and is unloaded before then (glad's EGL loader and libglvnd dlclose it), so that state would be reported
// as leaks from "<unknown module>", which no suppression can name (google/sanitizers#89, #1653). Every library
// loaded when GL is up (and again on closing) stays loaded to the end: its globals are scanned, real leaks reported.
static void keep_libraries_loaded() {
  std::vector<std::string> names;
  dl_iterate_phdr([](dl_phdr_info* info, size_t, void* out) {
    if (info->dlpi_name && *info->dlpi_name) static_cast<std::vector<std::string>*>(out)->push_back(info->dlpi_name);
    return 0;
  }, &names);
  for (const std::string& name : names) dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);  // no new load
}
#endif

void fit_to_screen(Gui* gui) {
  if (!gui->window) return;
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!monitor) return;
  int x = 0, y = 0, w = 0, h = 0;
  glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
  // The frame the window manager adds is not known before it is drawn: leave it a little room.
  int left = 0, top = 0, right = 0, bottom = 0;
  glfwGetWindowFrameSize(gui->window, &left, &top, &right, &bottom);
  w -= left + right, h -= top + bottom;
  int ww = 0, wh = 0;
  glfwGetWindowSize(gui->window, &ww, &wh);
  if (w <= 0 || h <= 0 || (ww <= w && wh <= h)) return;
  glfwSetWindowSize(gui->window, std::max(kMinWindowWidth, std::min(ww, w)), std::max(kMinWindowHeight, std::min(wh, h)));
  glfwSetWindowPos(gui->window, x + left, y + top);
}

bool gui_open(Gui* gui, const std::string& title, int width, int height, bool visible, float scale,
              bool dark, std::string* error) {
  const std::string want = std::getenv("GEMMSCOPE_GL") ? std::getenv("GEMMSCOPE_GL") : "";
  const bool no_display = !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY");
  if (!visible && (want == "egl" || (no_display && want != "glfw"))) {
    if (!egl_open(gui, error)) return false;
    imgui_start(gui, scale, dark);
    ImGui_ImplOpenGL3_Init("#version 330 core");
#ifdef __SANITIZE_ADDRESS__
    keep_libraries_loaded();
#endif
    return true;
  }
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    *error = "cannot open a display: " + (g_glfw_error.empty() ? std::string("glfwInit failed") : g_glfw_error) +
             (std::getenv("DISPLAY") ? "" : " (DISPLAY is not set; run under xvfb-run for headless use)");
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  gui->window = glfwCreateWindow(std::max(width, kMinWindowWidth), std::max(height, kMinWindowHeight), title.c_str(),
                                 nullptr, nullptr);
  if (!gui->window) {
    *error = "cannot create an OpenGL 3.3 window: " + g_glfw_error;
    glfwTerminate();
    return false;
  }
  glfwSetWindowSizeLimits(gui->window, kMinWindowWidth, kMinWindowHeight, GLFW_DONT_CARE, GLFW_DONT_CARE);
  glfwMakeContextCurrent(gui->window);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    *error = "cannot load OpenGL 3.3 functions";
    glfwDestroyWindow(gui->window);
    glfwTerminate();
    return false;
  }
  glfwSwapInterval(1);

  imgui_start(gui, scale, dark);
  glfwSetCursorPosCallback(gui->window, on_cursor);
  glfwSetMouseButtonCallback(gui->window, on_button);
  glfwSetScrollCallback(gui->window, on_scroll);
  glfwSetKeyCallback(gui->window, on_key);
  glfwSetCharCallback(gui->window, on_char);
  glfwSetCursorEnterCallback(gui->window, on_enter);
  glfwSetWindowFocusCallback(gui->window, on_focus);
  glfwSetWindowSizeCallback(gui->window, on_size);
  glfwSetWindowRefreshCallback(gui->window, on_refresh);
  ImGui_ImplGlfw_InitForOpenGL(gui->window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
#ifdef __SANITIZE_ADDRESS__
  keep_libraries_loaded();
#endif
  return true;
}

void gui_close(Gui* gui) {
#ifdef __SANITIZE_ADDRESS__
  keep_libraries_loaded();
#endif
  if (gui->egl_display) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
    egl_close(gui);
    return;
  }
  if (!gui->window) return;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(gui->window);
  glfwTerminate();
  gui->window = nullptr;
}

void gui_set_scale(Gui& gui, float scale) {
  load_fonts(&gui, scale);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  gui.scale = scale;
  apply_style(gui.dark, scale);
}

namespace {

void run_between_frames(Gui& gui) {
  std::vector<std::function<void()>> work;
  work.swap(gui.between_frames);
  for (const auto& w : work) w();
}

}  // namespace

// ImGui 1.86 reads a key's state once a frame (io.KeysDown; the input queue came in 1.87): a key pressed and
// released between two frames, a tap inside one slow frame, never reaches it. A key pressed since the last
// frame and already up again is held down for this frame and let go before the next one (as ImGui's GLFW
// backend does for mouse buttons).
namespace {
void hold_taps(Gui& gui) {
  ImGuiIO& io = ImGui::GetIO();
  for (const int key : gui.held_keys)
    if (glfwGetKey(gui.window, key) != GLFW_PRESS) io.KeysDown[key] = false;
  gui.held_keys.clear();
  for (const KeyPress& k : gui.keys)
    if (k.key >= 0 && k.key < IM_ARRAYSIZE(io.KeysDown) && !io.KeysDown[k.key]) {
      io.KeysDown[k.key] = true;
      gui.held_keys.push_back(k.key);
    }
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}
}  // namespace

void run_window_loop(Gui& gui, const std::function<bool()>& frame, const LoopOptions& opt) {
  const double start = glfwGetTime();
  int settle = 3;        // frames still to draw after the last input (hover, layout, tooltips settle)
  long seen = g_events;
  bool moving = true;    // the last frame asked for the next one
  for (int n = 0; !glfwWindowShouldClose(gui.window) && (opt.max_frames <= 0 || n < opt.max_frames);) {
    if (opt.exit_after_s > 0 && glfwGetTime() - start >= opt.exit_after_s) break;
    if (moving || settle > 0 || opt.max_frames > 0) {
      glfwPollEvents();
    } else {
      // Asleep until input, waking now and then for the exit timer.
      const double left = opt.exit_after_s > 0 ? opt.exit_after_s - (glfwGetTime() - start) : 1.0;
      glfwWaitEventsTimeout(std::clamp(left, 0.01, 1.0));
    }
    if (g_events != seen) seen = g_events, settle = 3;
    if (!moving && settle == 0 && opt.max_frames <= 0) continue;  // woken by the timer alone: nothing to draw
    if (settle > 0) --settle;
    const double t0 = glfwGetTime();
    gui.keys.swap(g_keys);
    g_keys.clear();
    gui.clicks.swap(g_clicks);
    g_clicks.clear();
    gui.ctrl_wheel = g_ctrl_wheel;
    g_ctrl_wheel = 0;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    hold_taps(gui);
    ImGui::NewFrame();
    moving = frame();
    gui.keys.clear();
    gui.clicks.clear();
    // A window that appeared this frame (a combo's list, a popup) is drawn hidden while it measures itself, and
    // shown a frame or two later: draw those frames, however few the input gave (a slow frame can take a whole
    // click, press and release, and leave the list unseen until the mouse moves).
    // A tooltip whose text changed under a still mouse (a tab clicked) is sized from last frame's text: draw until
    // its size has caught up with what it holds, or it stays clipped until the mouse moves.
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
      if (!w->Active) continue;
      if (w->HiddenFramesCannotSkipItems > 0 || w->HiddenFramesCanSkipItems > 0) settle = std::max(settle, 2);
      if (w->Flags & ImGuiWindowFlags_Tooltip) {
        // (ImGui takes a content size as the floor of the extent drawn: CalcWindowContentSizes)
        const float dw = std::floor(w->DC.CursorMaxPos.x - w->DC.CursorStartPos.x),
                    dh = std::floor(w->DC.CursorMaxPos.y - w->DC.CursorStartPos.y);
        if (std::fabs(dw - w->ContentSize.x) > 0.5f || std::fabs(dh - w->ContentSize.y) > 0.5f) settle = std::max(settle, 2);
      }
    }
    ImGui::Render();
    int w = 0, h = 0;
    glfwGetFramebufferSize(gui.window, &w, &h);
    glViewport(0, 0, w, h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(gui.window);
    gui.busy_s = glfwGetTime() - t0;
    ++n;
    run_between_frames(gui);
    if (gui.want_scale > 0 && gui.want_scale != gui.scale) {
      gui_set_scale(gui, gui.want_scale);
      settle = 3;
    }
    gui.want_scale = 0;
    // Where swapping does not wait for the display (a virtual X server), keep a moving window near 60 Hz.
    if (moving && opt.max_frames <= 0) {
      const double spent = glfwGetTime() - t0;
      if (spent < 1.0 / 60) glfwWaitEventsTimeout(1.0 / 60 - spent);
    }
  }
}

namespace {

// The bound framebuffer's width x height pixels as a PNG at `path` (temp file + rename).
bool write_framebuffer_png(int width, int height, const std::string& path, std::string* error) {
  std::vector<unsigned char> pixels(size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());  // the one format every GL reads
  // The picture is opaque: written as RGB, without the alpha channel (and the noise blending leaves in it).
  for (size_t i = 0, o = 0; i < pixels.size(); i += 4, o += 3)
    pixels[o] = pixels[i], pixels[o + 1] = pixels[i + 1], pixels[o + 2] = pixels[i + 2];
  std::string png;
  auto sink = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), size_t(size));
  };
  stbi_flip_vertically_on_write(1);  // GL's rows run bottom-up; PNG's top-down
  // No PNG row filter: the views' flat colours compress better unfiltered, and stb's default tries all five filters
  // on every row. A 1600x900 view: 2-3.6x faster (60 ms, was 170) and 16-30% smaller than RGBA with stb's filters.
  stbi_write_force_png_filter = 0;
  if (!stbi_write_png_to_func(sink, &png, width, height, 3, pixels.data(), width * 3)) {
    *error = "PNG encoding failed";
    return false;
  }
  try {
    write_file_atomic(path, png);
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
  return true;
}

}  // namespace

namespace {

// An offscreen colour target of width x height, bound while it lives; the framebuffer bound before it is bound
// again at the end (the window's, or the headless loop's own target during an export).
class Offscreen {
 public:
  Offscreen(int width, int height) {
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous_);
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &color_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  }
  ~Offscreen() {
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous_));
    glDeleteRenderbuffers(1, &color_);
    glDeleteFramebuffers(1, &fbo_);
  }
  Offscreen(const Offscreen&) = delete;
  Offscreen& operator=(const Offscreen&) = delete;
  bool complete() const { return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE; }

 private:
  GLuint fbo_ = 0, color_ = 0;
  GLint previous_ = 0;
};

// One ImGui frame of `frame` into the bound framebuffer, width x height, no pointer; returns what frame() did.
// (No ImGui_ImplGlfw_NewFrame: it would reset DisplaySize to a window's size.)
template <class F>
auto draw_offscreen_frame(int width, int height, float dt, const F& frame) {
  ImGuiIO& io = ImGui::GetIO();
  ImGui_ImplOpenGL3_NewFrame();
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = dt;
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ImGui::NewFrame();
  auto result = frame();
  ImGui::Render();
  glViewport(0, 0, width, height);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  return result;
}

}  // namespace

bool render_png(Gui& gui, int width, int height, int frames, const std::function<void()>& frame,
                const std::string& path, std::string* error) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width > max_size || height > max_size) {
    *error = "image " + std::to_string(width) + "x" + std::to_string(height) + " is larger than this OpenGL allows (" +
             std::to_string(max_size) + ")";
    return false;
  }
  Offscreen target(width, height);
  if (!target.complete()) {
    *error = "cannot create an offscreen framebuffer";
    return false;
  }
  for (int i = 0; i < frames; ++i) draw_offscreen_frame(width, height, 1.0f / 60.0f, [&] { return frame(), 0; });
  return write_framebuffer_png(width, height, path, error);
}

bool run_headless_loop(Gui& gui, int width, int height, const std::function<bool()>& frame, const LoopOptions& opt,
                       const std::function<void(double t_s, double frame_ms, bool moving)>& on_frame,
                       const std::string& last_png, std::string* error) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto seconds = [&](clock::time_point t) { return std::chrono::duration<double>(t - start).count(); };
  Offscreen target(width, height);
  if (!target.complete()) {
    *error = "cannot create an offscreen framebuffer";
    return false;
  }
  int settle = 3;  // as the window: a few frames for the layout to settle, then only while moving
  auto last = clock::now();
  for (long n = 0; opt.max_frames <= 0 || n < opt.max_frames; ++n) {
    const auto t0 = clock::now();
    if (opt.exit_after_s > 0 && seconds(t0) >= opt.exit_after_s) break;
    const float dt = std::max(1e-4f, float(std::chrono::duration<double>(t0 - last).count()));
    last = t0;
    const bool moving = draw_offscreen_frame(width, height, dt, frame);
    glFinish();  // the frame is drawn, as a swap would wait for
    const auto t1 = clock::now();
    if (on_frame) on_frame(seconds(t0), std::chrono::duration<double, std::milli>(t1 - t0).count(), moving);
    if (!gui.between_frames.empty()) settle = 3;  // what an export changes (the status line) is drawn
    run_between_frames(gui);
    if (gui.want_scale > 0 && gui.want_scale != gui.scale) gui_set_scale(gui, gui.want_scale), settle = 3;
    gui.want_scale = 0;
    if (settle > 0) --settle;
    if (!moving && settle == 0 && opt.max_frames <= 0) {
      // Nothing moves and no input can come: no more frames (a window would wait for events); sleep to the end.
      while (opt.exit_after_s > 0 && seconds(clock::now()) < opt.exit_after_s)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      break;
    }
    // A display shows a frame every 1/60 s: pace the moving frames to it.
    const double spent = std::chrono::duration<double>(clock::now() - t0).count();
    if (spent < 1.0 / 60) std::this_thread::sleep_for(std::chrono::duration<double>(1.0 / 60 - spent));
  }
  return last_png.empty() || write_framebuffer_png(width, height, last_png, error);
}

}  // namespace gs
