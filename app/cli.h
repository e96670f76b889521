// The subcommands (DESIGN.md "Command line"). Each returns the process exit code:
// 0 success, 1 runtime failure, 2 usage error; failures print one line on stderr first.
#pragma once

#include <string>

namespace gs {

struct WindowArgs {
  std::string replay;
  int device = 0;
  // For tests, hidden from --help: quit after this many frames or seconds, the window's size, and a report
  // file with the panes' places and (with audit) every widget's overlap and the smallest text drawn.
  int frames = 0;
  double exit_after = 0;
  int width = 1600, height = 900;
  bool size_given = false;  // --width or --height: that size exactly; else 1600x900 or the screen's, the smaller
  std::string report;
  bool audit = false;
  // Headless (EGL, no window): the same frames into an offscreen framebuffer, paced at 60 Hz while something
  // moves; each frame's time to --frame-log (CSV), a summary to stderr. Needs --exit-after or --frames.
  bool headless = false;
  std::string frame_log;
  std::string last_frame;  // headless: the last frame as PNG
  std::string series_log;  // headless, live: the throughput series (CSV) at the end
  std::string kernel;  // select this kernel first (else the settings' or the default)
  std::string maximize;  // show this view maximised
  // Timed actions for demonstrations without input (headless): "20:kernel=NAME;35:pin" selects NAME at 20 s
  // and pins the throughput baseline at 35 s; "0:export" exports the whole workspace as F12 does.
  std::string script;
  // The fault drill (hidden): the GPU worker runs a kernel that faults on purpose ("oob", "trap", "hang") once
  // the live plot has 10 points; the window says so, restarts the worker and keeps what it had.
  std::string fault_drill;
  double watchdog_s = 0;  // a GPU operation's time limit before the worker counts as hung (0: the default)
  bool fake_gpu = false;  // tests: a worker process without CUDA (made-up numbers; its own fault drills)
};
struct RecordArgs {
  std::string out, kernels = "all", size = "4096x4096x4096", sweep;
  std::string ncu_l2, smem_price;  // tables other tools measured, kept in the capture
  int device = 0;
};
struct BenchArgs {
  std::string kernels = "all", sizes = "4096", json;
  int device = 0, repeats = 10, rounds = 1;
  bool verify_only = false;  // one verification launch per kernel, precision and size; nothing timed
};
struct LayoutArgs {
  std::string op, operand, source = "documented", format = "csv", out, replay, theme = "light";
  bool format_given = false;  // --format on the command line: else -o's extension (.svg, .png, .tex, .csv) decides
  bool theme_given = false, device_given = false;  // on the command line: refused where they would change nothing
  int device = 0;
  std::string ncu_l2;      // tools/l2_ncu.sh's CSV to keep in the capture
  std::string smem_price;  // bench/bank_probe's price table to keep in the capture
};
struct BanksArgs { int width = 4; std::string op = "lds"; };
struct SwizzleArgs { std::string tiles, scheme = "none"; };
// zoom: the window's zoom (Ctrl +/-): text and figure that many times larger in a picture of the same size.
// ratio_over_size: FILE[,FILE...], bench JSONs or captures: the top rungs' share of cuBLAS over size (--view perf).
struct ShotArgs {
  std::string view, kernel, replay, theme = "dark", out, op, size = "1600x900", ratio_over_size;
  float scale = 1, zoom = 1;
};

int cmd_window(const WindowArgs& a);
int cmd_record(const RecordArgs& a);
int cmd_bench(const BenchArgs& a);
int cmd_layout(const LayoutArgs& a);
int cmd_banks(const BanksArgs& a);
int cmd_swizzle(const SwizzleArgs& a);
int cmd_shot(const ShotArgs& a);
struct ExportArgs { std::string deck, replay, theme = "light", formats = "png,svg"; float zoom = 1; };
int cmd_export(const ExportArgs& a);
struct ListArgs { bool json = false; };
int cmd_list(const ListArgs& a);

// Exit codes.
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

// `message` as one line, whatever it quotes (a file name with a newline in it, a token pasted by mistake): control
// characters written as escapes, cut at 600 characters.
std::string one_line(const std::string& message);
// "gemmscope <sub>: <message>" (one_line) on stderr; returns `code`.
int fail(const std::string& sub, const std::string& message, int code);

}  // namespace gs
