#include "app/cli.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

#include "app/gpu_worker.h"
#include "app/panels/panel.h"
#include "app/ratio_plot.h"
#include "app/render.h"
#include "app/settings.h"
#include "app/ui.h"
#include "app/views.h"
#include "app/window.h"
#include "core/capture.h"
#include "core/capture_limits.h"
#include "core/files.h"
#include "core/layout.h"
#include "core/text.h"
#include "kernels/gemm.h"
#include "viz/canvas_imgui.h"
#include "viz/draw_util.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace fs = std::filesystem;

namespace gs {

std::string one_line(const std::string& message) {
  return cut_end(escape_line(message), 600);
}

int fail(const std::string& sub, const std::string& message, int code) {
  std::cerr << "gemmscope" << (sub.empty() ? "" : " " + sub) << ": " << one_line(message) << std::endl;
  return code;
}

namespace {

// ---- Where captures come from -----------------------------------------------------------------

fs::path exe_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path(".") : exe.parent_path();
}

// The bundled capture: copied beside the binary at build time; the source tree's assets/ as a
// fallback for a binary run from elsewhere. Sorted by name, so the choice is stable.
std::string bundled_capture_path() {
  for (const fs::path& dir : {exe_dir() / "captures", fs::path(GEMMSCOPE_SOURCE_DIR) / "assets" / "captures"}) {
    std::error_code ec;
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (is_capture_file_name(e.path().filename().string())) found.push_back(e.path());
    std::sort(found.begin(), found.end());
    if (!found.empty()) return found.front().string();
  }
  return {};
}

std::string recorded_on(const Capture& c) {
  return c.device.name + " (sm_" + std::to_string(c.device.cc_major) + std::to_string(c.device.cc_minor) +
         ", driver " + c.device.driver + ") on " + recorded_days(c);
}

// Loads --replay FILE, or the bundled capture. False with a one-line message in `error`.
bool load_capture(const std::string& replay, Capture* out, std::string* banner, std::string* error) {
  const std::string path = replay.empty() ? bundled_capture_path() : replay;
  if (path.empty()) {
    *error = "no bundled capture found (looked in captures/ beside the binary and assets/captures/)";
    return false;
  }
  try {
    *out = read_capture(path);
  } catch (const CaptureError& e) {
    *error = e.what();
    return false;
  }
  const std::string name = fs::path(path).filename().string();
  *banner = (replay.empty() ? "Bundled capture " : "Replaying ") + name + ": recorded on " + recorded_on(*out);
  return true;
}

// MxNxK with each size from 1 to kMaxGemmDim, what a capture holds (--size, --sizes, --sweep).
static bool parse_size(const std::string& text, GemmShape* out) {
  return parse_shape(text, out) && std::max({out->m, out->n, out->k}) <= kMaxGemmDim;
}

// A list is read as --kernels reads its names: items trimmed of spaces, empty items skipped wherever they stand
// ("$A,$B" with B empty, "256,"), each size once in the order first given, and a list of nothing refused.
bool shapes_from_list(const std::string& list, std::vector<GemmShape>* out, std::string* error) {
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    item = trim(item);
    if (item.empty()) continue;
    GemmShape s;
    // "4096" means square; the message quotes what was given, and the bound is what a capture may hold.
    const std::string shape = item.find('x') == std::string::npos ? item + "x" + item + "x" + item : item;
    if (!parse_size(shape, &s)) {
      *error = "--sizes: '" + item.substr(0, 40) + "' is not N or MxNxK with sizes from 1 to " + std::to_string(kMaxGemmDim);
      return false;
    }
    if (std::find(out->begin(), out->end(), s) == out->end()) out->push_back(s);
  }
  if (out->empty()) *error = "--sizes: an empty list (name sizes, or leave the option out)";
  return !out->empty();
}

// "--device 3: this machine has 1 CUDA device" unless device < n (n > 0): the one wording for the window and
// the subcommands.
bool device_in_range(int device, int n, std::string* error) {
  if (device < n) return true;
  *error = "--device " + std::to_string(device) + ": this machine has " + std::to_string(n) + " CUDA device" +
           (n == 1 ? "" : "s");
  return false;
}

// The GPU for record, bench and layout. On failure *exit_code says whose fault it is: a --device this machine
// does not have is a bad argument (usage), no device or a failing one is the machine's (runtime).
std::unique_ptr<GpuSession> open_gpu(int device, std::string* error, int* exit_code) {
  std::string why;
  const int n = cuda_device_count(&why);
  *exit_code = kExitRuntime;
  if (n == 0) {
    *error = "no CUDA device: " + why;
    return nullptr;
  }
  if (!device_in_range(device, n, error)) {
    *exit_code = kExitUsage;
    return nullptr;
  }
  return GpuSession::open(device, error);
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// --kernels of record and bench: the kernels named, in ladder order; false with the message. An explicit empty list
// ("" or ",": a variable left empty) is refused, not taken for "all".
// A comma-separated list with an empty item: "a,,b", "a," or ",a" (a typo, or a variable left empty in a script).
bool has_empty_item(const std::string& list) {
  return !list.empty() && (list.front() == ',' || list.back() == ',' || list.find(",,") != std::string::npos);
}

bool kernels_from_list(const std::string& list, std::vector<const KernelInfo*>* out, std::string* error) {
  if (list.find_first_not_of(" ,") == std::string::npos) {
    *error = "--kernels: an empty list (name kernels, or leave --kernels out for all)";
    return false;
  }
  if (has_empty_item(list)) {
    *error = "--kernels: an empty name in '" + list + "'";
    return false;
  }
  if (select_kernels(list, out, error)) return true;
  *error = "--kernels: " + *error;
  return false;
}

// A file name's extension in lower case: "shot.PNG" is a PNG as "shot.png" is.
std::string ends_with_ext(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& ch : ext) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return ext;
}

// "-o .svg" or "-o dir/.png": an extension with no name before it (the filesystem takes ".svg" for a hidden file with
// no extension, and the messages said it "must end in .png or .svg"). "" where the name is fine.
std::string nameless(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (name.size() < 2 || name[0] != '.' || name.find('.', 1) != std::string::npos) return "";
  const std::string ext = ends_with_ext("x" + name);  // the extension it would be, after a name
  for (const char* known : {".png", ".svg", ".csv", ".tex", ".json"})
    if (ext == known) return "-o: '" + path + "' has no name before " + name + " (e.g. picture" + name + ")";
  return "";
}

}  // namespace

// ---- gemmscope (the window) ------------------------------------------------------------------

namespace {

// The test report (--report FILE): where the panes are, what is selected, and the layout audit of the
// last frame; rewritten whenever it changes. The panes and "maximized" are those of the frame drawn: a double-click
// maximises or restores after that frame's layout, and a report pairing the new state with the old panes sends a
// test clicking the panes to places not drawn yet. "hovered": the view the pointer was over in that frame, the one
// the M key acts on (a test waits for it after moving the pointer instead of guessing how long a frame takes).
std::string window_report(const MainWindow& w, const Frame& f, const ViewState& st, long frames, bool audit) {
  nlohmann::json panes = nlohmann::json::object();
  auto box = [](Rect r) { return nlohmann::json::array({r.min.x, r.min.y, r.w(), r.h()}); };
  panes["kernels"] = box(w.last_layout().list);
  for (const auto& [name, r] : w.last_layout().panes) panes[name] = box(r);
  nlohmann::json tabs = nlohmann::json::array();  // columns too short for their stacks: the views, the one shown
  for (const TabStrip& t : w.last_layout().tabs)
    tabs.push_back({{"column", t.column}, {"views", t.views}, {"shown", t.shown}, {"rect", box(t.rect)}});
  nlohmann::json j{{"frames", frames}, {"panes", panes}, {"tabs", tabs}, {"maximized", w.last_layout().maximized},
                   {"columns", st.arrangement.columns},
                   {"hovered", w.hovered_pane()},
                   {"kernel", selected_kernel(st)}, {"zoom", st.effective_zoom()}, {"dark", st.dark},
                   {"ui_font_px", ImGui::GetFontSize()}, {"message", st.message}, {"banner", f.banner},
                   {"alert", w.alert_shown()},
                   {"layout_follow", st.layout_follow}, {"settings", settings_path()},
                   {"typing", ImGui::GetIO().WantTextInput}, {"last_export", st.last_export}, {"exports", exports_folder(st)}, {"png_scale", st.export_scale}};
  if (audit) {
    const TextAudit& t = TextAudit::global();
    nlohmann::json widgets = nlohmann::json::array();  // where each noted widget is: tests click them
    for (const auto& item : ui::LayoutAudit::global().items)
      widgets.push_back({item.what, item.rect.min.x, item.rect.min.y, item.rect.w(), item.rect.h()});
    j["audit"] = {{"text_calls", t.count}, {"min_text_px", t.count ? t.min_size : 0.0f}, {"smallest_text", t.smallest},
                  {"items", ui::LayoutAudit::global().items.size()}, {"overlaps", ui::LayoutAudit::global().overlaps()},
                  {"widgets", widgets}};
  }
  return j.dump(1) + "\n";
}

}  // namespace

int cmd_window(const WindowArgs& a) {
  Capture replayed;
  std::string banner, error;
  std::string picture_banner;  // the banner without why this machine replays a capture (Frame::picture_banner)
  std::unique_ptr<GpuWorker> worker;
  const std::vector<std::string>& drills = a.fake_gpu ? fake_fault_drills() : fault_drill_kinds();
  if (!a.fault_drill.empty() && std::find(drills.begin(), drills.end(), a.fault_drill) == drills.end()) {
    std::string list;
    for (const std::string& d : drills) list += (list.empty() ? "" : ", ") + d;
    return fail("", "--fault-drill: '" + a.fault_drill.substr(0, 40) + "' is not one of " + list, kExitUsage);
  }
  if (a.fake_gpu && !a.replay.empty()) return fail("", "--fake-gpu is a live session, not with --replay", kExitUsage);
  if (!(a.watchdog_s == 0 || (a.watchdog_s >= 1 && a.watchdog_s <= 3600)))
    return fail("", "--watchdog: seconds from 1 to 3600", kExitUsage);
  // The files the run ends by writing, checked before it starts (and before a GPU worker does): a mistyped folder
  // had cost a whole headless run on a lent GPU (--last-frame), or repeated its line every frame (--report).
  // What only a headless run writes is refused beside a window, rather than left unwritten without a word.
  if (!a.headless)
    for (const auto& [option, path] : {std::pair<const char*, const std::string&>{"--last-frame", a.last_frame},
                                       {"--frame-log", a.frame_log}, {"--series-log", a.series_log}})
      if (!path.empty())
        return fail("", std::string(option) + " is written by a headless run (add --headless and --exit-after N); a "
                                             "window writes none",
                    kExitUsage);
  for (const auto& [option, path] : {std::pair<const char*, const std::string&>{"--report", a.report},
                                     {"--last-frame", a.last_frame}, {"--frame-log", a.frame_log},
                                     {"--series-log", a.series_log}}) {
    if (path.empty()) continue;
    try {
      check_writable(path);
    } catch (const std::exception& e) {
      return fail("", std::string(option) + ": " + e.what(), kExitRuntime);
    }
  }
  std::string alert, alert_line;  // a capture that did not load: said in the window, which shows the bundled one, and on stderr
  std::string replay_problem;     // why, alone
  if (!a.replay.empty()) {
    if (!a.fault_drill.empty()) return fail("", "--fault-drill runs on the live GPU, not with --replay", kExitUsage);
    if (!load_capture(a.replay, &replayed, &banner, &error)) {
      const std::string why = one_line(error);
      replay_problem = why;
      if (!load_capture("", &replayed, &banner, &error))  // nothing to show
        return fail("", why + "; nor the bundled capture: " + error, kExitRuntime);
      alert = why + " \xC2\xB7 showing the bundled capture instead";
      alert_line = why + "; showing the bundled capture instead";  // on stderr once the window is open
    }
  } else {
    std::string why;
    const int n = a.fake_gpu ? 1 : cuda_device_count(&why);
    if (n > 0) {
      if (!device_in_range(a.device, n, &error)) return fail("", error, kExitUsage);
      GpuWorkerOptions options;
      options.fake = a.fake_gpu;
      options.fault_drill = a.fault_drill;
      if (a.watchdog_s > 0) options.op_limit_s = a.watchdog_s;
      worker = std::make_unique<GpuWorker>(a.device, GemmShape{4096, 4096, 4096}, options);
    } else if (!a.fault_drill.empty()) {
      return fail("", "--fault-drill: no CUDA device to run it on (" + why + ")", kExitRuntime);
    } else {
      if (!load_capture("", &replayed, &banner, &error)) return fail("", error, kExitRuntime);
      picture_banner = banner;
      // Where the numbers come from first (a narrow bar or a projector's zoom cuts the end), why last.
      banner = "No CUDA device \xC2\xB7 " + banner + " \xC2\xB7 " + why;
    }
  }

  // Settings: the arrangement, theme, zoom and selection of the last run; defaults on first start.
  ViewState st;
  const std::string settings = settings_path();
  std::string notice;
  load_settings(settings, &st, &notice);
  st.message = notice;
  if (!worker && !st.kernel.empty()) {
    const std::vector<std::string> names = kernel_names(&replayed);
    if (std::find(names.begin(), names.end(), st.kernel) == names.end()) st.kernel.clear();
  }

  if (!a.kernel.empty()) {
    if (!find_kernel(a.kernel) && (worker || runs_of(replayed, a.kernel).empty()))
      return fail("", "--kernel: " + unknown_kernel(a.kernel, true) +
                          (worker ? ""
                           : !replay_problem.empty()
                               ? "; " + replay_problem + ", and the bundled capture shown instead has no runs of it either"
                               : "; " + (a.replay.empty() ? std::string("the bundled capture") : a.replay) +
                                     " has no runs of it either"),
                  kExitUsage);
    st.kernel = a.kernel;
  }
  if (!a.maximize.empty()) {
    if (!find_view(a.maximize))
      return fail("", "--maximize: no view '" + a.maximize + "' (views: " + views_list(false) + ")", kExitUsage);
    st.arrangement.maximized = a.maximize;
  }
  // Timed actions (--script): seconds and what to do, in order.
  struct Action {
    double t = 0;
    std::string kernel;  // empty: pin (unless size or export is set)
    std::string size;    // MxNxK for the live plot
    bool export_all = false;  // F12: the whole workspace into the exports folder
  };
  std::vector<Action> script;
  for (size_t b = 0; !a.script.empty() && b <= a.script.size();) {
    const size_t e = std::min(a.script.find(';', b), a.script.size());
    const std::string item = a.script.substr(b, e - b);
    b = e + 1;
    if (item.empty()) continue;
    const size_t colon = item.find(':');
    char* end = nullptr;
    const double t = colon == std::string::npos ? -1 : std::strtod(item.c_str(), &end);
    const std::string what = colon == std::string::npos ? "" : item.substr(colon + 1);
    GemmShape size_shape;
    const bool size = what.rfind("size=", 0) == 0;
    if (!(t >= 0) || end != item.c_str() + colon ||
        (what != "pin" && what != "export" && !size && what.rfind("kernel=", 0) != 0))
      return fail("", "--script: '" + item + "' is not SECONDS:kernel=NAME, SECONDS:size=MxNxK, SECONDS:pin or SECONDS:export",
                  kExitUsage);
    if (size && !parse_shape(what.substr(5), &size_shape))
      return fail("", "--script: '" + what.substr(5) + "' is not MxNxK", kExitUsage);
    const bool other = what == "pin" || what == "export" || size;
    if (!other && !find_kernel(what.substr(7))) return fail("", "--script: unknown kernel '" + what.substr(7) + "'", kExitUsage);
    script.push_back({t, other ? "" : what.substr(7), size ? what.substr(5) : "", what == "export"});
  }
  if (a.headless && a.exit_after <= 0 && a.frames <= 0)
    return fail("", "--headless needs --exit-after or --frames (no window to close)", kExitUsage);
  if (a.headless) setenv("GEMMSCOPE_GL", "egl", 1);  // no window, whatever DISPLAY says

  Gui gui;
  if (!gui_open(&gui, "gemmscope", a.width, a.height, !a.headless, st.effective_zoom(), st.dark, &error))
    // One line, the capture's problem in it too: with no window to show it in, it would never be said.
    return fail("", error + (replay_problem.empty() ? "" : " (and " + replay_problem + ")"), kExitRuntime);
  if (!alert_line.empty()) fail("", alert_line, 0);
  if (!a.size_given) fit_to_screen(&gui);
  MainWindow window(gui);
  TextAudit::global().on = ui::LayoutAudit::global().on = a.audit;
  std::string saved = settings_json(st), reported;
  const auto started = std::chrono::steady_clock::now();
  auto now_s = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  double saved_at = -1;
  long frames = 0;
  auto save = [&](bool force) {
    const std::string now = settings_json(st);
    if (now == saved || settings.empty() || (!force && now_s() - saved_at < 0.5)) return;
    std::string err;
    if (!save_settings(settings, st, &err)) st.message = "settings not saved: " + err;
    saved = now;
    saved_at = now_s();
  };
  LoopOptions opt;
  opt.max_frames = a.frames;
  opt.exit_after_s = a.exit_after;
  size_t next_action = 0;
  std::string last_status = "-", last_fault;
  bool drill_asked = false;
  // The last frame's snapshot: headless, the series written at the end (--series-log); and it keeps the capture
  // an export queued by that frame draws (Gui::between_frames) alive until the export is done.
  std::shared_ptr<const LiveSnapshot> last_live;
  auto draw_frame = [&] {
    bool export_all = false;
    while (next_action < script.size() && now_s() >= script[next_action].t) {
      const Action& act = script[next_action++];
      if (act.export_all) export_all = true;
      else if (!act.size.empty()) st.live_size = act.size;
      else if (act.kernel.empty()) st.perf_pin = true;
      else st.kernel = act.kernel;
    }
    Frame f;
    std::shared_ptr<const LiveSnapshot> live;
    if (worker) {
      live = worker->latest();  // one lock per frame; the snapshot stays valid while we draw
      if (a.headless && live->status != last_status) {  // what the worker does when, for the log
        last_status = live->status;
        std::cerr << fmt("%.2f", now_s()) << " s: " << (last_status.empty() ? "sampling" : last_status)
                  << (live->error.empty() ? "" : " (error: " + live->error + ")") << std::endl;
      }
      if (a.headless && live->fault != last_fault) {
        last_fault = live->fault;
        std::cerr << fmt("%.2f", now_s()) << " s: fault: " << last_fault << std::endl;
      }
      // The drill once the live plot has something to lose.
      if (!a.fault_drill.empty() && !drill_asked && live->series.size() >= 10) drill_asked = worker->run_fault_drill();
      last_live = live;
      f.live = true;
      f.live_state = live.get();
      f.capture = live->capture.get();
      f.banner = f.capture ? "Live on " + f.capture->device.name + " (driver " + f.capture->device.driver + ")"
                           : "Opening the GPU...";
      const KernelInfo* k = find_kernel(selected_kernel(st));
      if (k) worker->set_live_kernel(k->name, k->precisions.front());
      GemmShape live_shape;
      if (parse_shape(st.live_size, &live_shape)) worker->set_live_shape(live_shape);
    } else {
      f.capture = &replayed;
      f.banner = banner;
      f.picture_banner = picture_banner;
      f.alert = alert;
    }
    TextAudit::global().reset();
    ui::LayoutAudit::global().reset();
    const bool moving = window.Draw(f, st);
    if (export_all) window.ExportWorkspace(f, st);
    ++frames;
    save(false);
    if (!a.report.empty()) {
      const std::string r = window_report(window, f, st, frames, a.audit);
      if (r != reported) {
        try {
          write_file_atomic(a.report, r);
        } catch (const std::exception& e) {
          std::cerr << "gemmscope: --report: " << e.what() << std::endl;
        }
        reported = r;
      }
    }
    return moving;
  };
  if (!a.headless) {
    run_window_loop(gui, draw_frame, opt);
    save(true);
    gui_close(&gui);
    return 0;
  }
  // Headless: the frames a display would show, timed.
  std::string log = "t_s,frame_ms,moving\n";
  std::vector<double> moving_ms;
  long frames_drawn = 0;
  const bool png_ok = run_headless_loop(gui, a.width, a.height, draw_frame, opt, [&](double t, double ms, bool moving) {
    ++frames_drawn;
    log += fmt("%.4f", t) + "," + fmt("%.3f", ms) + "," + (moving ? "1" : "0") + "\n";
    if (moving) moving_ms.push_back(ms);
  }, a.last_frame, &error);
  const double elapsed = now_s();
  const std::string renderer = gui.gl_renderer;
  gui_close(&gui);
  std::sort(moving_ms.begin(), moving_ms.end());
  auto pct = [&](double q) { return moving_ms.empty() ? 0.0 : moving_ms[size_t(q * double(moving_ms.size() - 1))]; };
  std::cerr << "headless on " << renderer << ": " << frames_drawn << " frames in " << fmt("%.1f", elapsed) << " s; "
            << moving_ms.size() << " while moving (" << fmt("%.1f", moving_ms.size() / std::max(elapsed, 1e-9))
            << " per second), frame time p50 " << fmt("%.2f", pct(0.5)) << " ms, p99 " << fmt("%.2f", pct(0.99))
            << " ms, max " << fmt("%.2f", moving_ms.empty() ? 0.0 : moving_ms.back()) << " ms" << std::endl;
  if (!png_ok) return fail("", "--last-frame: " + error, kExitRuntime);
  if (!a.series_log.empty()) {  // the live plot's data: every point with the kernel it measured
    std::string csv = "t_s,tflops,cublas_tflops,sm_mhz,kernel\n";
    if (last_live) {
      size_t sw = 0;
      for (const LivePoint& p : last_live->series) {
        while (sw + 1 < last_live->switches.size() && p.t >= last_live->switches[sw + 1].t) ++sw;
        const std::string k = last_live->switches.empty() ? last_live->series_kernel : last_live->switches[sw].kernel;
        csv += fmt("%.3f", p.t) + "," + fmt("%.2f", p.tflops) + "," + fmt("%.2f", p.cublas_tflops) + "," +
               std::to_string(p.sm_mhz) + ",\"" + k + "\"\n";
      }
    }
    try {
      write_file_atomic(a.series_log, csv);
    } catch (const std::exception& e) {
      return fail("", std::string("--series-log: ") + e.what(), kExitRuntime);
    }
  }
  if (!a.frame_log.empty()) {
    try {
      write_file_atomic(a.frame_log, log);
    } catch (const std::exception& e) {
      return fail("", std::string("--frame-log: ") + e.what(), kExitRuntime);
    }
  }
  return 0;
}

// ---- measuring in rounds (bench, and record's sweep) ----------------------------------------------

namespace {

// One kernel x precision x size and its runs, one per round.
struct RoundsJob {
  const KernelInfo* k;
  Precision p;
  GemmShape s;
  std::vector<RunResult> runs;
};

// Runs every job `rounds` times: forward, then backward, and so on, so that a GPU that warms up and slows down
// over a long run (power, clocks) does not favour the jobs measured first. A job skipped in round 1 (a shape
// rule, an unavailable rung) is not tried again. after_run(job) follows each run, after_round(r) each round.
void run_rounds(GpuSession& gpu, std::vector<RoundsJob>& jobs, int rounds, const RunOptions& opt,
                const std::function<void(RoundsJob&)>& after_run, const std::function<void(int)>& after_round) {
  for (int round = 0; round < rounds && !jobs.empty(); ++round) {
    for (size_t i = 0; i < jobs.size(); ++i) {
      RoundsJob& j = jobs[round % 2 ? jobs.size() - 1 - i : i];
      if (round > 0 && j.runs.front().skipped) continue;
      j.runs.push_back(gpu.run(*j.k, j.p, j.s, opt));
      if (after_run) after_run(j);
    }
    if (after_round) after_round(round);
  }
}

double ratio_to_cublas(const RunResult& r) { return r.cublas_tflops > 0 ? r.tflops / r.cublas_tflops : 0; }

// A job's rounds that ran (not skipped), by their ratio to cuBLAS: the median round is at size() / 2.
std::vector<const RunResult*> rounds_by_ratio(const RoundsJob& j) {
  std::vector<const RunResult*> done;
  for (const RunResult& r : j.runs)
    if (!r.skipped) done.push_back(&r);
  std::sort(done.begin(), done.end(),
            [](const RunResult* x, const RunResult* y) { return ratio_to_cublas(*x) < ratio_to_cublas(*y); });
  return done;
}

}  // namespace

// ---- record ----------------------------------------------------------------------------------

int cmd_record(const RecordArgs& a) {
  std::vector<const KernelInfo*> kernels;
  std::string error;
  if (!kernels_from_list(a.kernels, &kernels, &error)) return fail("record", error, kExitUsage);
  GemmShape shape;
  if (!parse_size(a.size, &shape))
    return fail("record", "--size: '" + a.size.substr(0, 40) + "' is not MxNxK with sizes from 1 to " +
                              std::to_string(kMaxGemmDim), kExitUsage);
  std::vector<GemmShape> sweep;
  if (!a.sweep.empty() && !shapes_from_list(a.sweep, &sweep, &error))
    return fail("record", "--sweep" + error.substr(error.find(':')), kExitUsage);
  // Tables measured by other tools, read before the GPU work so that a bad file costs nothing.
  std::vector<L2Record> l2;
  std::vector<SmemPrice> price;
  try {
    if (!a.ncu_l2.empty()) l2 = parse_l2_csv(read_file(a.ncu_l2), a.ncu_l2);
    if (!a.smem_price.empty()) price = parse_smem_price(read_file(a.smem_price), a.smem_price);
  } catch (const std::exception& e) {
    return fail("record", e.what(), kExitUsage);
  }
  // And where the capture goes: a path that cannot take it is said now, not after minutes of GPU work.
  try {
    check_writable(a.out);
  } catch (const std::exception& e) {
    return fail("record", std::string("-o: ") + e.what(), kExitRuntime);
  }
  int code = 0;
  std::unique_ptr<GpuSession> gpu = open_gpu(a.device, &error, &code);
  if (!gpu) return fail("record", error, code);
  Capture c = record_capture(*gpu, kernels, shape, [](const std::string& line) {
    std::cerr << line << std::endl;
  });
  // The sweep gives the perf view its TFLOP/s-over-size curves; the main size is measured already. As in `bench`,
  // cuBLAS is timed beside each run, and every kernel x precision x size is measured in kSweepRounds rounds,
  // forward then backward, keeping its median round (by ratio to cuBLAS): measured once, in order, the first
  // kernel at a large size met a cool card and the next a hot one (mma_f16/10 read 66% of cuBLAS at 8192^3 where
  // `bench` reads 59%, and rung 11 after it 64%).
  constexpr int kSweepRounds = 3;
  RunOptions paired;
  paired.pair_cublas = true;
  // (A kernel traced at a size of its own, KernelInfo::trace_shape, was measured at both.)
  std::vector<RoundsJob> jobs;
  for (const GemmShape& s : sweep) {
    if (s == shape) continue;
    for (const KernelInfo* k : kernels) {
      if (s == recorded_shape(*k, shape)) continue;
      if (!k->order_scheme.empty()) continue;  // block order variants: measured at the main size only
      for (Precision p : k->precisions) jobs.push_back({k, p, s, {}});
    }
  }
  run_rounds(*gpu, jobs, kSweepRounds, paired, nullptr, [](int round) {
    std::cerr << "sweep: round " << round + 1 << " of " << kSweepRounds << " done" << std::endl;
  });
  for (const RoundsJob& j : jobs) {
    const std::vector<const RunResult*> done = rounds_by_ratio(j);
    // A round that failed verification is kept instead of the median: `record` then fails on it.
    const auto failed = std::find_if(done.begin(), done.end(), [](const RunResult* x) { return !x->ok; });
    const RunResult& r = done.empty() ? j.runs.front() : failed != done.end() ? **failed : *done[done.size() / 2];
    std::cerr << "sweep " << j.k->name << " " << precision_name(j.p) << " " << j.s.m << "x" << j.s.n << "x" << j.s.k
              << ": "
              << (r.skipped ? "skipped: " + r.error
                            : fmt("%.2f TFLOP/s", r.tflops) + fmt(" (%.1f%% of cuBLAS, median of ", 100 * ratio_to_cublas(r)) +
                                  std::to_string(done.size()) + " rounds)")
              << std::endl;
    if (!r.skipped) c.runs.push_back(r.record());
  }
  c.l2 = std::move(l2);
  c.smem_price = std::move(price);
  try {
    write_capture(c, a.out);
  } catch (const std::exception& e) {
    return fail("record", e.what(), kExitRuntime);
  }
  std::cerr << "wrote " << a.out << ": " << c.runs.size() << " runs, " << c.layouts.size() << " layouts, "
            << c.blocks.size() << " block records" << std::endl;
  // The capture is kept either way (nothing lost), but a kernel that disagrees with cuBLAS fails the command.
  for (const RunRecord& r : c.runs) {
    Precision p{};
    const bool known = parse_precision(r.dtype, &p);
    if (!known || !(r.rel_err < error_bound(p)))
      return fail("record", r.kernel + " " + r.dtype + " did not match cuBLAS (rel_err " + fmt("%.3g", r.rel_err) + ")",
                  kExitRuntime);
  }
  return 0;
}

// ---- bench -----------------------------------------------------------------------------------

int cmd_bench(const BenchArgs& a) {
  std::vector<const KernelInfo*> kernels;
  std::vector<GemmShape> shapes;
  std::string error;
  if (!kernels_from_list(a.kernels, &kernels, &error)) return fail("bench", error, kExitUsage);
  if (!shapes_from_list(a.sizes, &shapes, &error)) return fail("bench", error, kExitUsage);
  if (a.verify_only && a.rounds > 1) return fail("bench", "--verify-only times nothing: --rounds does not apply", kExitUsage);
  try {  // said before the GPU work, not after it
    if (!a.json.empty()) check_writable(a.json);
  } catch (const std::exception& e) {
    return fail("bench", std::string("--json: ") + e.what(), kExitRuntime);
  }
  int code = 0;
  std::unique_ptr<GpuSession> gpu = open_gpu(a.device, &error, &code);
  if (!gpu) return fail("bench", error, code);
  const DeviceInfo dev = gpu->device();
  std::printf("%s, sm_%d%d, %d SMs, %d MHz max SM clock, driver %s, CUDA %s\n", dev.name.c_str(), dev.cc_major,
              dev.cc_minor, dev.sm_count, dev.sm_clock_mhz, dev.driver.c_str(), dev.cuda_runtime.c_str());
  std::printf("%-26s %-8s %-16s %9s %9s %7s %9s\n", "kernel", "dtype", "size", "TFLOP/s", "cuBLAS", "ratio",
              "rel_err");
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  bool all_ok = true;
  RunOptions opt;
  opt.repeats = a.repeats;
  opt.time = !a.verify_only;
  // cuBLAS is timed in each run beside the kernel, launches alternating, not once per shape for the whole bench:
  // a card at its power limit runs slower the longer it is loaded, and a cuBLAS time taken first, on a cool card,
  // made every later ratio read low.
  opt.pair_cublas = true;
  // Every kernel x precision x size, measured `rounds` times (run_rounds); each one's median round (by its ratio
  // to cuBLAS) is reported.
  std::vector<RoundsJob> jobs;
  for (const GemmShape& s : shapes)
    for (const KernelInfo* k : kernels)
      for (Precision p : k->precisions) jobs.push_back({k, p, s, {}});
  auto print = [&](const RoundsJob& j, const RunResult& r, const std::string& spread) {
    const std::string size = shape_text(j.s);
    if (r.skipped) {
      std::printf("%-26s %-8s %-16s skipped: %s\n", j.k->name.c_str(), precision_name(j.p), size.c_str(),
                  r.error.c_str());
      return;
    }
    if (!opt.time) {
      std::printf("%-26s %-8s %-16s %9s %9s %7s %9.2e%s\n", j.k->name.c_str(), precision_name(j.p), size.c_str(), "-",
                  "-", "-", r.rel_err, r.ok ? "  verified" : ("  FAILED: " + r.error).c_str());
      std::fflush(stdout);
      return;
    }
    std::printf("%-26s %-8s %-16s %9.2f %9.2f %6.1f%% %9.2e%s%s\n", j.k->name.c_str(), precision_name(j.p),
                size.c_str(), r.tflops, r.cublas_tflops, 100 * ratio_to_cublas(r), r.rel_err, spread.c_str(),
                r.ok ? "" : ("  FAILED: " + r.error).c_str());
    std::fflush(stdout);
  };
  run_rounds(
      *gpu, jobs, a.rounds, opt,
      [&](RoundsJob& j) {
        if (a.rounds == 1) print(j, j.runs.back(), "");
      },
      [&](int round) {
        if (a.rounds > 1) std::fprintf(stderr, "bench: round %d of %d done\n", round + 1, a.rounds);
      });
  for (RoundsJob& j : jobs) {
    const std::vector<const RunResult*> done = rounds_by_ratio(j);
    if (done.empty()) {
      if (a.rounds > 1) print(j, j.runs.front(), "");
      continue;
    }
    const RunResult& r = *done[done.size() / 2];
    bool ok = true;
    for (const RunResult* d : done) ok = ok && d->ok;
    if (a.rounds > 1) {
      char spread[64];
      std::snprintf(spread, sizeof spread, "  rounds %.1f-%.1f%%", 100 * ratio_to_cublas(*done.front()),
                    100 * ratio_to_cublas(*done.back()));
      print(j, r, spread);
    }
    all_ok = all_ok && ok;
    const double ratio = ratio_to_cublas(r);
    nlohmann::ordered_json row = {{"kernel", j.k->name}, {"dtype", precision_name(j.p)}, {"m", j.s.m}, {"n", j.s.n},
                                  {"k", j.s.k}, {"tflops", r.tflops}, {"cublas_tflops", r.cublas_tflops},
                                  {"ratio", ratio}, {"rel_err", r.rel_err}, {"ok", ok}};
    if (a.rounds > 1) {
      row["tflops_rounds"] = nlohmann::ordered_json::array();
      row["cublas_tflops_rounds"] = nlohmann::ordered_json::array();
      for (const RunResult& x : j.runs) {
        if (x.skipped) continue;
        row["tflops_rounds"].push_back(x.tflops);
        row["cublas_tflops_rounds"].push_back(x.cublas_tflops);
      }
    }
    results.push_back(std::move(row));
  }
  if (!a.json.empty()) {
    nlohmann::ordered_json doc;
    char when[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    doc["device"] = {{"name", dev.name},
                     {"compute_capability", std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor)},
                     {"sm_count", dev.sm_count},
                     {"sm_clock_mhz", dev.sm_clock_mhz},
                     {"mem_clock_mhz", dev.mem_clock_mhz},
                     {"driver", dev.driver},
                     {"cuda_runtime", dev.cuda_runtime},
                     {"date", when}};
    doc["cublas_timing"] = "paired: each run times cuBLAS in the same loop, launches alternating (ABBA)";
    doc["results"] = results;
    try {
      write_file_atomic(a.json, doc.dump(1) + "\n");
    } catch (const std::exception& e) {
      return fail("bench", e.what(), kExitRuntime);
    }
  }
  if (!all_ok) return fail("bench", "some kernels did not match cuBLAS (see FAILED above)", kExitRuntime);
  return 0;
}

// ---- layout ----------------------------------------------------------------------------------

namespace {

// Draws one operand's layout (documented or traced) as a picture: SVG directly, PNG through the
// same view on an offscreen ImGui frame.
LayoutViewInput single_operand(const MmaOp& op, Operand o, const FragmentLayout& l, const std::string& traced_from) {
  LayoutViewInput in;
  in.op = &op;
  (l.source == "traced" ? in.traced : in.documented)[int(o)] = &l;
  in.traced_from = traced_from;
  in.absent = std::string("not asked for (--operand ") + operand_name(o) + ")";  // not "not documented": they are
  if (op.kind == OpKind::Ldmatrix) in.row_suppliers = ldmatrix_rows(op);  // the "L9" chips beside the rows
  return in;
}

}  // namespace

int cmd_layout(const LayoutArgs& given) {
  // The picture's format from -o's extension where --format is not given; a contradiction is an error, never a PNG
  // written to a .svg name or CSV text to a .png one.
  // A name in no format's extension (x.pdf, x) is refused unless --format says what to write into it.
  LayoutArgs a = given;
  if (const std::string why = nameless(a.out); !why.empty()) return fail("layout", why, kExitUsage);
  if (const std::string ext = ends_with_ext(a.out);
      ext == ".csv" || ext == ".svg" || ext == ".png" || ext == ".tex") {
    if (!a.format_given) a.format = ext.substr(1);
    else if (ext.substr(1) != a.format)
      return fail("layout", "-o " + a.out + " ends in " + ext + " but --format is " + a.format, kExitUsage);
  } else if (!a.out.empty() && !a.format_given) {
    return fail("layout", "-o " + a.out + ": name a .csv, .svg, .png or .tex file, or give --format", kExitUsage);
  }
  const MmaOp* op = find_mma_op(a.op);
  if (!op) return fail("layout", "--op: unknown operation '" + a.op + "' (known: " + mma_op_names() + ")", kExitUsage);
  const Operand operand = *parse_operand(a.operand);
  if (!has_operand(*op, operand)) {  // ldmatrix loads one tile (A); wgmma has a register layout for C only
    const char* only = operand_name(op_operands(*op).front());
    return fail("layout", a.op + " has one operand with a register layout: " + only + " (--operand " + a.operand +
                              " does not exist for it)",
                kExitUsage);
  }
  if (a.format != "csv" && a.format != "tex" && a.out.empty())
    return fail("layout", "--format " + a.format + " needs -o FILE", kExitUsage);
  // Options that would change nothing are refused rather than ignored: the user expected them to.
  if (!a.replay.empty() && a.source != "traced")
    return fail("layout", "--replay reads traced layouts: add --source traced (the documented one needs no capture)",
                kExitUsage);
  if (a.device_given && a.source != "traced")
    return fail("layout", "--device picks the GPU that traces a layout: add --source traced (the documented one "
                          "needs no GPU)", kExitUsage);
  if (a.device_given && !a.replay.empty())
    return fail("layout", "--device and --replay: a layout is traced on a GPU or read from a capture, not both",
                kExitUsage);
  if (a.theme_given && (a.format == "csv" || a.format == "tex"))
    return fail("layout", "--theme colours a picture: it means nothing for --format " + a.format + " (svg or png)",
                kExitUsage);

  FragmentLayout layout;
  std::string traced_from;
  if (a.source == "documented") {
    if (!op->documented)
      return fail("layout", a.op + ": PTX leaves the wmma fragment layout unspecified; use --source traced",
                  kExitUsage);
    layout = documented_layout(*op, operand);
  } else {
    Capture c;
    std::string banner, error;
    if (!a.replay.empty()) {
      if (!load_capture(a.replay, &c, &banner, &error)) return fail("layout", error, kExitRuntime);
    } else {
      int code = 0;
      std::unique_ptr<GpuSession> gpu = open_gpu(a.device, &error, &code);
      if (!gpu) return fail("layout", error + "; give --replay FILE to read a traced layout from a capture", code);
      c.device = gpu->device();
      c.layouts = gpu->trace_layouts(&error);
    }
    const FragmentLayout* l = find_layout(c, a.op, a.operand, "traced");
    if (!l) return fail("layout", "no traced " + a.op + " " + a.operand + " layout in " +
                                      (a.replay.empty() ? "this GPU's trace" : a.replay) +
                                      (error.empty() ? "" : " (tracing failed: " + error + ")"), kExitRuntime);
    layout = *l;
    traced_from = c.device.name;
  }

  std::string bytes;
  if (a.format == "csv") {
    bytes = layout_csv(layout);
  } else if (a.format == "tex") {
    bytes = layout_tikz(layout, *Theme::ByName(a.theme));
  } else {
    const Theme& theme = *Theme::ByName(a.theme);
    const viz::PictureScope picture;  // a picture: no "hover a cell; zoom in for labels" under a static wgmma grid
    const LayoutViewInput in = single_operand(*op, operand, layout, traced_from);
    const int w = 1200, h = 900;
    if (a.format == "svg") {
      SvgCanvas svg(float(w), float(h), theme.bg);
      draw_layout_view(svg, Rect{{0, 0}, {float(w), float(h)}}, theme, in, LayoutViewState{}, {-1e9f, -1e9f}, nullptr);
      bytes = svg.finish();
    } else {
      Gui gui;
      std::string error;
      if (!gui_open(&gui, "gemmscope", 64, 64, false, 1.0f, a.theme == "dark", &error))
        return fail("layout", error, kExitRuntime);
      const bool ok = render_png(gui, w, h, 2, [&] {
        ImGuiCanvas canvas(ImGui::GetBackgroundDrawList(), gui.sans, gui.mono, gui.bold);
        draw_layout_view(canvas, Rect{{0, 0}, {float(w), float(h)}}, theme, in, LayoutViewState{}, {-1e9f, -1e9f},
                         nullptr);
      }, a.out, &error);
      gui_close(&gui);
      if (!ok) return fail("layout", error, kExitRuntime);
      return 0;
    }
  }
  if (a.out.empty()) {
    std::cout << bytes;
    return std::cout.good() ? 0 : kExitRuntime;
  }
  try {
    write_file_atomic(a.out, bytes);
  } catch (const std::exception& e) {
    return fail("layout", e.what(), kExitRuntime);
  }
  return 0;
}

// ---- shot ------------------------------------------------------------------------------------

namespace {

// The throughput view's numbers go to a CSV beside the picture, over any file of that name: said, so that the
// file a user had there is not replaced unnoticed.
void say_figure_csv(const std::string& csv) {
  if (!csv.empty()) std::cout << "gemmscope shot: wrote the plotted numbers beside the picture: " << csv << "\n";
}

// `shot --view perf --ratio-over-size FILE[,FILE...]`: the throughput view's series plot of each family's top rung as
// a share of cuBLAS over size, one line per file (GPU), its numbers in a CSV beside the picture.
int shot_ratio_over_size(const ShotArgs& a, int w, int h) {
  if (a.view != "perf")
    return fail("shot", "--ratio-over-size is a picture of the perf view, not of --view " + a.view, kExitUsage);
  if (!a.kernel.empty() || !a.replay.empty() || !a.op.empty())
    return fail("shot", std::string("--ratio-over-size draws its own files: ") +
                            (!a.kernel.empty() ? "--kernel" : !a.replay.empty() ? "--replay" : "--op") + " does not apply",
                kExitUsage);
  constexpr size_t kMaxFiles = 8;  // one line per family per file: more is a picture no one reads
  std::vector<RatioSource> files;
  if (has_empty_item(a.ratio_over_size))
    return fail("shot", "--ratio-over-size: an empty file name in '" + a.ratio_over_size + "'", kExitUsage);
  std::stringstream list(a.ratio_over_size);
  for (std::string path; std::getline(list, path, ',');) {  // none empty: has_empty_item said so above
    if (files.size() == kMaxFiles)
      return fail("shot", "--ratio-over-size: more than " + std::to_string(kMaxFiles) + " files", kExitUsage);
    try {
      files.push_back({path, read_measured(path)});
    } catch (const CaptureError& e) {
      return fail("shot", e.what(), kExitRuntime);
    }
  }
  PerfViewInput in;
  try {
    in = ratio_over_size(files);
  } catch (const CaptureError& e) {
    return fail("shot", e.what(), kExitRuntime);
  }
  const bool dark = a.theme == "dark";
  const Theme& theme = dark ? Theme::Dark() : Theme::Light();
  const float zoom = a.scale * a.zoom;  // as any shot: --scale a denser picture, --zoom a larger figure in it
  const Rect r{{0, 0}, {float(w), float(h)}};
  auto draw = [&](Canvas& c) {
    c.rect_filled(r, theme.bg);
    ScaledCanvas scaled(c, zoom, r.min);
    draw_perf_view(scaled, scaled.layout_rect(r), theme, in);
  };
  std::string error;
  if (ends_with_ext(a.out) == ".svg") {
    try {
      SvgCanvas svg(float(w), float(h), theme.bg);
      draw(svg);
      write_file_atomic(a.out, svg.finish());
    } catch (const std::exception& e) {
      return fail("shot", e.what(), kExitRuntime);
    }
  } else {
    Gui gui;
    if (!gui_open(&gui, "gemmscope", 64, 64, false, zoom, dark, &error)) return fail("shot", error, kExitRuntime);
    const bool ok = render_png(gui, w, h, 2, [&] {
      ImGuiCanvas canvas(ImGui::GetBackgroundDrawList(), gui.sans, gui.mono, gui.bold);
      draw(canvas);
    }, a.out, &error);
    gui_close(&gui);
    if (!ok) return fail("shot", error, kExitRuntime);
  }
  try {
    say_figure_csv(write_figure_csv(a.out, perf_csv(in)));  // the plotted numbers beside the picture
  } catch (const std::exception& e) {
    return fail("shot", e.what(), kExitRuntime);
  }
  return 0;
}

}  // namespace

int cmd_shot(const ShotArgs& a) {
  const bool all = a.view == "all";
  if (!all && !find_view(a.view)) {
    const auto& planned = planned_views();
    const bool later = std::find(planned.begin(), planned.end(), a.view) != planned.end();
    return fail("shot", "--view: " + (later ? "the '" + a.view + "' view does not exist yet"
                                            : "unknown view '" + a.view + "'") +
                            " (available: " + views_list() + ")", kExitUsage);
  }
  if (const std::string why = nameless(a.out); !why.empty()) return fail("shot", why, kExitUsage);
  const std::string ext = ends_with_ext(a.out);
  if (ext != ".png" && ext != ".svg")
    return fail("shot", "-o: '" + a.out + "' must end in .png or .svg", kExitUsage);
  if (!a.op.empty() && !find_mma_op(a.op))
    return fail("shot", "--op: unknown operation '" + a.op + "' (known: " + mma_op_names() + ")", kExitUsage);
  if (!a.op.empty() && a.view != "layout" && a.view != "all")
    return fail("shot", "--op chooses what the fragment layout shows: it needs --view layout (or all)", kExitUsage);
  // The picture and (the throughput view's) the numbers beside it: both paths are checked before either is
  // written, so that a refusal leaves the old pair as it was.
  try {
    check_writable(a.out);
    if (a.view == "perf" || !a.ratio_over_size.empty())
      check_writable(figure_csv_path(a.out));
  } catch (const std::exception& e) {
    return fail("shot", e.what(), kExitRuntime);
  }

  // WxH in digits only (sscanf's %d would wrap 4294968896 round to 1600).
  int base_w = 0, base_h = 0;
  const size_t x = a.size.find('x');
  const auto dim = [](const std::string& d, int* v) {
    if (d.empty() || d.size() > 5 || d.find_first_not_of("0123456789") != std::string::npos) return false;
    *v = std::stoi(d);
    return true;
  };
  // One view is a pane's picture and may be as small as a pane; `all` is the whole window, at least its smallest.
  const int min_w = all ? kMinWindowWidth : 320, min_h = all ? kMinWindowHeight : 240;
  if (x == std::string::npos || !dim(a.size.substr(0, x), &base_w) || !dim(a.size.substr(x + 1), &base_h) ||
      base_w < min_w || base_h < min_h || base_w > 8192 || base_h > 8192)
    return fail("shot",
                "--size: '" + a.size + "' is not WxH between " + std::to_string(min_w) + "x" + std::to_string(min_h) +
                    (all ? " (the smallest window the workspace is laid out for)" : "") + " and 8192x8192",
                kExitUsage);
  // The zoom divides the room the layout has: 640x400 at --zoom 3 is a 213x133 window, where the workspace's panes
  // and their text overlapped into an unreadable picture. Refused, saying the largest zoom this size holds.
  if (!zoom_fits(base_w, base_h, a.zoom, min_w, min_h)) {
    const double most = std::floor(std::min(double(base_w) / min_w, double(base_h) / min_h) * 100) / 100;
    char room[64], at_most[32];
    std::snprintf(room, sizeof room, "%.0fx%.0f", base_w / a.zoom, base_h / a.zoom);
    std::snprintf(at_most, sizeof at_most, "%g", most);
    return fail("shot",
                "--zoom " + fmt("%g", a.zoom) + " leaves a " + a.size + " picture " + room + " of room, under the " +
                    std::to_string(min_w) + "x" + std::to_string(min_h) + (all ? " the workspace" : " a view") +
                    " is laid out for: --zoom " + at_most + " at most at this size, or a larger --size",
                kExitUsage);
  }
  const int w = int(std::lround(base_w * a.scale)), h = int(std::lround(base_h * a.scale));
  if (!a.ratio_over_size.empty()) return shot_ratio_over_size(a, w, h);

  Capture c;
  std::string banner, error;
  if (!load_capture(a.replay, &c, &banner, &error)) return fail("shot", error, kExitRuntime);
  // As in the window: a kernel of this build, or one the replayed capture has runs of (recorded by another build).
  if (!a.kernel.empty() && !find_kernel(a.kernel) && (a.replay.empty() || runs_of(c, a.kernel).empty()))
    return fail("shot", "--kernel: " + unknown_kernel(a.kernel, true) +
                            (a.replay.empty() ? "" : "; " + a.replay + " has no runs of it either"), kExitUsage);
  Frame f;
  f.capture = &c;
  f.banner = banner;
  // A shot starts from the defaults, never from the user's settings: the same command draws the same picture.
  ViewState st;
  st.kernel = a.kernel;
  st.dark = a.theme == "dark";
  st.zoom = a.scale * a.zoom;  // --scale: a denser picture of the same figure; --zoom: a larger figure in it
  st.hint_dismissed = true;
  if (!a.op.empty()) st.layout_follow = false, st.layout_op = a.op;

  if (ext == ".svg") {
    try {
      SvgCanvas svg(float(w), float(h), (st.dark ? Theme::Dark() : Theme::Light()).bg);
      const Rect r{{0, 0}, {float(w), float(h)}};
      std::vector<std::unique_ptr<ViewPanel>> panels;
      for (const ViewDef& v : view_table()) panels.push_back(v.make());
      if (all) {
        draw_workspace(svg, r, f, st, panels);
        write_file_atomic(a.out, svg.finish());
      } else {
        ViewPanel& panel = *panels[size_t(find_view(a.view) - view_table().data())];
        draw_view_figure(svg, r, a.view, f, st, panel);
        write_file_atomic(a.out, svg.finish());
        say_figure_csv(write_figure_csv(a.out, panel));  // the plotted numbers beside the picture (the throughput view)
      }
    } catch (const std::exception& e) {
      return fail("shot", e.what(), kExitRuntime);
    }
    return 0;
  }
  Gui gui;
  if (!gui_open(&gui, "gemmscope", 64, 64, false, st.zoom, st.dark, &error)) return fail("shot", error, kExitRuntime);
  bool ok = false;
  {
    MainWindow window(gui);
    // Several frames: tables and child windows size themselves from the previous frame.
    ok = render_png(gui, w, h, 4, [&] {
      const viz::PictureScope picture;  // the window drawn as a picture: its panes' hints say so, as the SVG's do
      if (all) window.Draw(f, st);
      else window.DrawFigure(a.view, f, st);
    }, a.out, &error);
    if (ok && !all) {
      try {
        say_figure_csv(write_figure_csv(a.out, window.figure_panel(a.view)));  // the plotted numbers beside the picture
      } catch (const std::exception& e) {
        error = e.what(), ok = false;
      }
    }
  }
  gui_close(&gui);
  if (!ok) return fail("shot", error, kExitRuntime);
  return 0;
}

// ---- export --deck ---------------------------------------------------------------------------

namespace {


// Whether a view has something of this rung to show in the capture (else the deck leaves it out rather than
// carry a picture that says "nothing here"). A rung's records are under its own name.
bool deck_view_has(const std::string& view, const Capture& c, const KernelInfo& k) {
  auto any = [&](const auto& list) {
    return std::any_of(list.begin(), list.end(), [&](const auto& r) { return r.kernel == k.name; });
  };
  if (view == "layout") return !k.ops.empty() || k.thread_tiling.described() || k.warps.warp_m > 0;
  if (view == "banks") return any(c.smem);
  if (view == "gmem") return any(c.gmem);
  if (view == "swizzle") return any(c.blocks);
  if (view == "timeline") return any(c.stages);
  if (view == "perf" || view == "roofline") return any(c.runs);
  return view == "code";
}

// A variant's slides: the views where its one toggle shows (padding or the XOR permutation off: its bank
// conflicts; fewer stages: its timeline; ...). Order variants have none: the rung's launch-order view draws the
// row-major order beside its own.
std::vector<std::string> deck_variant_views(const std::string& variant) {
  std::vector<std::string> views;
  for (const auto& [key, value] : variant_toggles(variant))
    if (const ToggleInfo* t = find_toggle(key)) views.insert(views.end(), t->deck_views.begin(), t->deck_views.end());
  return views;
}

// Set by SIGINT, SIGTERM or SIGHUP while a deck is written: the loop stops and removes its temporary folder.
volatile std::sig_atomic_t g_deck_stop = 0;
extern "C" void deck_on_signal(int) { g_deck_stop = 1; }

std::string deck_file(const std::string& kernel, const std::string& view) {
  std::string s = kernel + "_" + view;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-') ch = '-';
  return s;
}

}  // namespace

int cmd_export(const ExportArgs& a) {
  namespace fs = std::filesystem;
  std::string name = a.deck;  // "deck/" names the folder deck, as a shell's completion writes it
  while (name.size() > 1 && name.back() == '/') name.pop_back();
  const fs::path deck(name);
  std::error_code ec;
  if (deck.empty()) return fail("export", "--deck: give a folder to create", kExitUsage);
  // A link counts as there even where it points nowhere: the rename at the end would fail on it after all the work.
  if (fs::exists(fs::symlink_status(deck, ec)))
    return fail("export", "--deck: '" + a.deck + "' exists already; remove it or name a new folder", kExitUsage);
  // SIGINT, SIGTERM and SIGHUP stop the export between pictures (exit 1, nothing left behind) from here on, not only
  // once drawing starts: a Ctrl-C while the capture loaded ended the process by the signal. One the process ignores
  // (nohup's SIGHUP, a script's background job's SIGINT) stays ignored.
  g_deck_stop = 0;
  struct Catch {
    int sig;
    struct sigaction old {};
    bool caught = false;
    explicit Catch(int s) : sig(s) {
      ::sigaction(sig, nullptr, &old);
      if (old.sa_handler == SIG_IGN) return;
      struct sigaction sa {};
      sa.sa_handler = deck_on_signal;
      sigemptyset(&sa.sa_mask);
      caught = ::sigaction(sig, &sa, nullptr) == 0;
    }
    ~Catch() {
      if (caught) ::sigaction(sig, &old, nullptr);
    }
  } catch_int(SIGINT), catch_term(SIGTERM), catch_hup(SIGHUP);
  const fs::path parent = deck.has_parent_path() ? deck.parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec))  // exit 1, as shot's -o and --last-frame in a missing folder
    return fail("export", "--deck: the folder '" + parent.string() + "' to create it in does not exist", kExitRuntime);
  Capture c;
  std::string banner, error;
  if (!load_capture(a.replay, &c, &banner, &error)) return fail("export", error, kExitRuntime);
  Frame f;
  f.capture = &c;
  f.banner = banner;
  ViewState st;
  st.dark = a.theme == "dark";
  st.zoom = a.zoom;
  st.hint_dismissed = true;

  // What goes in: every rung in registry order, each view that has something of it to show, and after it its
  // variants' views where their toggle shows (deck_variant_views).
  struct Picture {
    const KernelInfo* k;
    std::string view, file;
  };
  std::vector<const KernelInfo*> rungs;
  std::map<std::string, std::vector<const KernelInfo*>> variants;  // rung -> its variants with slides
  for (const KernelInfo& k : kernel_registry()) {
    if (rung_of_variant(k.name) == k.name) rungs.push_back(&k);
    else if (!deck_variant_views(k.name).empty()) variants[rung_of_variant(k.name)].push_back(&k);
  }
  std::vector<Picture> pictures;
  for (const KernelInfo* k : rungs) {
    for (const ViewDef& v : view_table())
      if (deck_view_has(v.name, c, *k)) pictures.push_back({k, v.name, deck_file(k->name, v.name)});
    for (const KernelInfo* var : variants[k->name])
      for (const std::string& v : deck_variant_views(var->name))
        if (deck_view_has(v, c, *var)) pictures.push_back({var, v, deck_file(var->name, v)});
  }

  // Everything is written into a temporary folder beside the deck, renamed to the deck at the end: an
  // interrupted export leaves no half deck under the name asked for.
  // mkdtemp: a new name no one else holds (a name made from the process id alone could be someone's folder).
  std::string tmp_name = (parent / (deck.filename().string() + ".tmp-XXXXXX")).string();
  if (!::mkdtemp(tmp_name.data()))
    return fail("export", "cannot create a folder beside '" + a.deck + "': " + std::strerror(errno), kExitRuntime);
  const fs::path tmp = tmp_name;
  const mode_t mask = ::umask(0);  // mkdtemp makes it 0700; the deck gets a folder's usual mode
  ::umask(mask);
  ::chmod(tmp_name.c_str(), 0777 & ~mask);
  auto abandon = [&](const std::string& why) {
    fs::remove_all(tmp, ec);
    return fail("export", why, kExitRuntime);
  };
  const bool want_png = a.formats.find("png") != std::string::npos, want_svg = a.formats.find("svg") != std::string::npos;
  Gui gui;  // PNG only: an SVG deck needs no display
  if (want_png && !gui_open(&gui, "gemmscope", 64, 64, false, st.zoom, st.dark, &error)) return abandon(error);
  const auto close_gui = [&] {
    if (want_png) gui_close(&gui);
  };
  const bool tty = ::isatty(2);
  const int w = 1600, h = 900;
  std::set<std::string> with_csv;  // the pictures whose plotted numbers were written beside them
  {
    std::optional<MainWindow> window;
    if (want_png) window.emplace(gui);
    for (size_t i = 0; i < pictures.size(); ++i) {
      if (g_deck_stop) {
        close_gui();
        return abandon("interrupted: no deck written, nothing left behind");
      }
      const Picture& p = pictures[i];
      // Each picture as `shot` draws it: from the deck's settings and the rung alone, its PNG and its SVG each by a
      // panel of its own. The window's panels, kept from picture to picture, had opened wmma/10's bank view on the
      // site the picture before showed, where its SVG (and its shot) opened on its own.
      const auto fresh = [&] {
        ViewState s = st;
        s.kernel = p.k->name;
        return s;
      };
      if (tty || i % 25 == 0 || i + 1 == pictures.size())
        std::fprintf(stderr, "%sexport: picture %zu of %zu (%s, %s)%s", tty ? "\r\033[K" : "", i + 1, pictures.size(),
                     p.view.c_str(), p.k->name.c_str(), tty ? "" : "\n");
      try {
        SvgCanvas svg(float(w), float(h), (st.dark ? Theme::Dark() : Theme::Light()).bg);
        const std::unique_ptr<ViewPanel> panel = find_view(p.view)->make();
        ViewState svg_st = fresh();
        draw_view_figure(svg, {{0, 0}, {float(w), float(h)}}, p.view, f, svg_st, *panel);
        if (want_svg) write_file_atomic((tmp / (p.file + ".svg")).string(), svg.finish());
        if (!write_figure_csv((tmp / (p.file + ".svg")).string(), *panel).empty())  // the throughput view's numbers
          with_csv.insert(p.file);
      } catch (const std::exception& e) {
        close_gui();
        return abandon(p.file + ".svg: " + e.what());
      }
      if (want_png) {
        const std::unique_ptr<ViewPanel> png_panel = find_view(p.view)->make();
        ViewState png_st = fresh();
        if (!render_png(gui, w, h, 4, [&] { window->DrawFigure(p.view, f, png_st, *png_panel); },
                        (tmp / (p.file + ".png")).string(), &error)) {
          close_gui();
          return abandon(p.file + ".png: " + error);
        }
      }
    }
  }
  close_gui();
  if (tty) std::fprintf(stderr, "\n");

  // index.html: the rungs in ladder order, each with its explanation, its throughput and ratio to cuBLAS, its
  // pictures (each a link to the picture whole: its SVG where both are written, else the PNG) and a link to the
  // rung before it.
  // The page's title names the GPU its numbers were recorded on (a browser's tab or a bookmark read "gemmscope deck").
  const std::string recorded_on = c.device.name.empty() ? "" : ", " + c.device.name;
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gemmscope deck" +
                     xml_escape(recorded_on) + "</title>\n"
                     "<style>body{font-family:'DejaVu Sans',sans-serif;max-width:1700px;margin:2em auto;"
                     "padding:0 1em;background:" +
                     std::string(st.dark ? "#17181c;color:#e6e6e6" : "#ffffff;color:#1a1a1a") +
                     "}img{width:100%;border:1px solid #8884}figure{display:inline-block;"
                     "width:calc(50% - 1.2em);margin:0.5em;vertical-align:top}"
                     "@media (max-width:1100px){figure{width:calc(100% - 1.2em)}}nav p{margin:0.3em 0}a{color:" +
                     std::string(st.dark ? "#7fb4ff" : "#1a5fb4") +
                     "}</style></head>\n<body>\n<h1>gemmscope: why each optimization works</h1>\n<p>" +
                     xml_escape(banner) + "</p>\n";
  // Contents: one line per ladder, each rung a link to its section by its number and short name (its title on
  // hover), so that a lecturer jumps to the slide asked about instead of scrolling past a hundred pictures.
  html += "<nav>\n";
  for (size_t i = 0; i < rungs.size(); ++i) {
    const std::string fam = family_of(rungs[i]->name);
    const bool first = i == 0 || family_of(rungs[i - 1]->name) != fam;
    if (first) html += "<p><b><a href=\"#" + deck_file(fam, "ladder") + "\">" + xml_escape(fam) + "</a></b>: ";
    else html += " \xC2\xB7 ";
    html += "<a href=\"#" + deck_file(rungs[i]->name, "rung") + "\" title=\"" + xml_escape(rungs[i]->title) + "\">" +
            xml_escape(rungs[i]->name.substr(fam.size() + 1)) + "</a>";
    if (i + 1 == rungs.size() || family_of(rungs[i + 1]->name) != fam) html += "</p>\n";
  }
  html += "</nav>\n";
  std::string family, previous;
  const auto figures = [&](const KernelInfo* k) {
    std::string out;
    for (const Picture& p : pictures) {
      if (p.k != k) continue;
      const std::string img = "<img src=\"" + p.file + (want_png ? ".png" : ".svg") + "\" alt=\"" +
                              xml_escape(find_view(p.view)->title) + " of " + xml_escape(k->name) + "\">";
      // A click opens the picture whole: its SVG where there is one, else the PNG itself (on a projector a picture
      // at half the page's width is too small to read its tables).
      const std::string whole = want_svg && want_png ? p.file + ".svg" : want_png ? p.file + ".png" : "";
      out += "<figure>" + (whole.empty() ? img : "<a href=\"" + whole + "\">" + img + "</a>") +
             "<figcaption>" + xml_escape(find_view(p.view)->title) +
             (with_csv.count(p.file) ? " (<a href=\"" + p.file + ".csv\">its numbers, CSV</a>)" : "") +
             "</figcaption></figure>\n";
    }
    return out;
  };
  const auto measured = [&](const std::string& kernel) -> std::string {
    const RunRecord* r = ladder_run(&c, kernel, "");
    if (!r) return "";
    char line[200];
    std::snprintf(line, sizeof line, "%.1f TFLOP/s at %s (%s), %.1f%% of cuBLAS's %.1f in the same process", r->tflops,
                  shape_label(*r).c_str(), r->dtype.c_str(), r->cublas_tflops > 0 ? 100 * r->tflops / r->cublas_tflops : 0.0,
                  r->cublas_tflops);
    return line;
  };
  for (const KernelInfo* k : rungs) {
    const std::string fam = family_of(k->name);
    if (fam != family) {
      html += "<h2 id=\"" + deck_file(fam, "ladder") + "\">" + xml_escape(fam) + "</h2>\n";
      family = fam, previous.clear();
    }
    html += "<section id=\"" + deck_file(k->name, "rung") + "\">\n<h3>" + xml_escape(k->name) + ": " +
            xml_escape(k->title) + "</h3>\n<p>" + xml_escape(k->adds) + "</p>\n";
    if (const std::string line = measured(k->name); !line.empty()) {
      html += "<p><b>" + xml_escape(line) + "</b> (" + xml_escape(c.device.name) + ")</p>\n";
    } else {  // a rung newer than the capture: its code and layout only, and why
      html += "<p><i>Not measured in this capture (" + xml_escape(c.device.name) +
              "): the capture predates this rung. <code>gemmscope record</code> on a GPU measures it.</i></p>\n";
    }
    if (!previous.empty())
      html += "<p><a href=\"#" + deck_file(previous, "rung") + "\">the rung before: " + xml_escape(previous) + "</a></p>\n";
    html += figures(k);
    // Its variants: what each changes, its numbers, and the views where that shows.
    for (const KernelInfo* var : variants[k->name]) {
      const std::string shown = figures(var);
      if (shown.empty()) continue;
      html += "<h4>variant " + xml_escape(var->name) + "</h4>\n<p>" + xml_escape(var->adds) + "</p>\n";
      if (const std::string line = measured(var->name); !line.empty()) html += "<p><b>" + xml_escape(line) + "</b></p>\n";
      html += shown;
    }
    html += "</section>\n";
    previous = k->name;
  }
  html += "</body></html>\n";
  try {
    write_file_atomic((tmp / "index.html").string(), html);
  } catch (const std::exception& e) {
    return abandon(e.what());
  }
  fs::rename(tmp, deck, ec);
  if (ec) return abandon("cannot rename '" + tmp.string() + "' to '" + a.deck + "': " + ec.message());
  std::set<const KernelInfo*> shown;  // the variants that have a picture
  for (const Picture& p : pictures)
    if (rung_of_variant(p.k->name) != p.k->name) shown.insert(p.k);
  const size_t with_variants = shown.size();
  std::printf("wrote %s: %zu pictures of %zu rungs and %zu variants (%s), index.html\n", a.deck.c_str(), pictures.size(),
              rungs.size(), with_variants,
              want_png && want_svg ? "PNG and SVG" : want_png ? "PNG" : "SVG");
  return 0;
}

// ---- list ------------------------------------------------------------------------------------

namespace {

// `text` broken at spaces into lines of at most `width` characters, each indented by `indent`.
std::string wrapped(const std::string& text, size_t width, const std::string& indent) {
  std::string out, line;
  std::stringstream ss(text);
  std::string word;
  while (ss >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) out += indent + line + "\n", line.clear();
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

// A rung's toggles, each with the values its variants set ("stages": 2, 3): what `list` names beside the rung
// (DESIGN: every rung "with its toggles"; each variant named its own, the rung none).
std::vector<std::pair<std::string, std::vector<std::string>>> toggles_offered(const std::string& rung) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const KernelInfo& v : kernel_registry()) {
    if (v.name == rung || rung_of_variant(v.name) != rung) continue;
    for (const auto& [key, value] : variant_toggles(v.name)) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& kv) { return kv.first == key; });
      if (it == out.end()) it = out.insert(out.end(), {key, {}});
      if (std::find(it->second.begin(), it->second.end(), value) == it->second.end()) it->second.push_back(value);
    }
  }
  return out;
}

int cmd_list(const ListArgs& a) {
  if (a.json) {
    nlohmann::json rungs = nlohmann::json::array();
    for (const KernelInfo& k : kernel_registry()) {
      const std::map<std::string, std::string> toggles = variant_toggles(k.name);
      const std::string base = rung_of_variant(k.name);
      nlohmann::json precisions = nlohmann::json::array();
      for (Precision p : k.precisions) precisions.push_back(precision_name(p));
      rungs.push_back({{"name", k.name}, {"family", k.family}, {"variant_of", base == k.name ? "" : base},
                       {"toggles", toggles}, {"title", k.title}, {"adds", k.adds}, {"builds_on", k.builds_on},
                       {"precisions", precisions},
                       {"block_m", k.block_m}, {"block_n", k.block_n}, {"threads", k.threads},
                       {"shape_rule", k.shape_rule}, {"ops", k.ops},
                       // the C tile one global read of A and B serves (the roofline's intensity), and what of
                       // the rung's global traffic the probe cannot trace lane by lane
                       {"reuse_tile", {k.reuse_m > 0 ? k.reuse_m : k.block_m, k.reuse_n > 0 ? k.reuse_n : k.block_n}},
                       {"gmem_untraced", k.gmem_untraced},
                       // where `record` traces it instead of --size (null: at --size)
                       {"trace_shape", k.trace_shape.m > 0 ? nlohmann::json(shape_text(k.trace_shape)) : nlohmann::json()}});
      // A rung's toggles and the values its variants set ({} for a variant: its own are under "toggles").
      nlohmann::json offered = nlohmann::json::object();
      for (const auto& [key, values] : toggles_offered(k.name)) offered[key] = values;
      rungs.back()["toggle_values"] = offered;
    }
    std::cout << rungs.dump(1) << "\n";
  } else {
    for (const KernelInfo& k : kernel_registry()) {
      std::string precisions;
      for (Precision p : k.precisions) precisions += (precisions.empty() ? "" : ", ") + std::string(precision_name(p));
      std::cout << k.name << "  (" << precisions << "; block " << k.block_m << "x" << k.block_n << ", " << k.threads
                << " threads" << (k.shape_rule.empty() ? "" : "; " + k.shape_rule) << ")\n"
                << "    " << k.title << (k.builds_on.empty() ? "" : " (builds on " + k.builds_on + ")") << "\n"
                << (k.trace_shape.m > 0 ? "    (`record` traces it at " + shape_text(k.trace_shape) + ", where its step shows)\n" : "")
                << wrapped(k.adds, 96, "    ");
      std::string offered;
      for (const auto& [key, values] : toggles_offered(k.name)) {
        std::string v;
        for (const std::string& x : values) v += (v.empty() ? "" : ", ") + x;
        offered += (offered.empty() ? "" : "; ") + key + " " + v;
      }
      if (!offered.empty()) std::cout << wrapped("Toggles: " + offered + " (each a variant listed below)", 96, "    ");
      std::cout << "\n";
    }
  }
  std::cout.flush();
  if (!std::cout.good()) return fail("list", "cannot write to standard output", kExitRuntime);
  return 0;
}

}  // namespace gs
