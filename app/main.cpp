// gemmscope: see why each GEMM optimization works.
// Parses the command line (DESIGN.md's contract) and hands over to one subcommand.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "app/cli.h"
#include "app/gpu_worker.h"
#include "app/render.h"
#include "app/state.h"
#include "app/views.h"
#include "core/files.h"
#include "core/layout.h"

#ifdef __SANITIZE_ADDRESS__
// Sanitizer builds only (GEMMSCOPE_SANITIZE): the runtime of GCC 12 (and of LLVM up to 16) guesses that a dynamic TLS
// block with an address 16 past a page boundary carries a pre-2.25 glibc header and reads its bounds from the two
// words before it; the GL driver's (Mesa's) blocks are plain malloc'd memory, so now and then LeakSanitizer scans a
// made-up range at exit and its tracer dies ("Tracer caught signal 11"). Not intercepting __tls_get_addr is the
// workaround given in google/sanitizers#1322; ASAN_OPTIONS set by hand still overrides it.
extern "C" __attribute__((visibility("default"), used)) const char* __asan_default_options() {
  return "intercept_tls_get_addr=0";
}
#endif

int main(int argc, char** argv) {
  using namespace gs;
  // The window's GPU worker process (app/gpu_worker.h): this binary, re-executed by the window.
  if (argc > 1 && std::strcmp(argv[1], kGpuWorkerCommand) == 0) return gpu_worker_main(argc, argv);
  CLI::App app{"gemmscope: launch GEMM kernels on the GPU and see why each optimization works.\n"
               "With no subcommand, opens the window (live on a CUDA GPU, else the bundled capture).\n"
               "record and bench need a CUDA GPU; every other subcommand runs without one."};
  app.set_version_flag("--version", std::string("gemmscope ") + GEMMSCOPE_VERSION);

  // Checks whose one line says what was expected and what came instead (CLI11's own ranges print "Value abc not in
  // range 0.000000 to 1797693134862315708..." for a word and a negative number alike). They see the text before it
  // is converted.
  const auto number_in = [](double lo, double hi, bool integer, const std::string& what) {
    return CLI::Validator(
        [=](std::string& s) -> std::string {
          char* end = nullptr;
          errno = 0;
          const double v = std::strtod(s.c_str(), &end);
          const bool ok = !s.empty() && *end == '\0' && errno == 0 && std::isfinite(v) && v >= lo && v <= hi &&
                          (!integer || v == std::floor(v));
          return ok ? std::string() : "expected " + what + ", got '" + s.substr(0, 40) + "'";
        },
        "");
  };
  const auto one_of = [](const std::vector<std::string>& items, const std::string& what) {
    return CLI::Validator(
        [=](std::string& s) -> std::string {
          return std::find(items.begin(), items.end(), s) != items.end() ? std::string()
                                                                         : "expected " + what + ", got '" + s.substr(0, 40) + "'";
        },
        "");
  };
  // A hidden option's check names the option itself: CLI11 names it as "" (main's catch drops the ": " before it).
  const auto named = [](const std::string& name, CLI::Validator v) {
    return CLI::Validator(
        [=](std::string& s) mutable -> std::string {
          const std::string e = v(s);
          return e.empty() ? e : name + ": " + e;
        },
        "");
  };
  // A file or folder name: an empty one would fail only after the work (a recording on the GPU) was done.
  const CLI::Validator a_name(
      [](std::string& s) -> std::string { return s.empty() ? "expected a file name, got ''" : std::string(); }, "");
  const CLI::Validator device_index = number_in(0, 1023, true, "a CUDA device index (0, 1, ...; nvidia-smi lists them)");

  WindowArgs win;
  app.add_option("--replay", win.replay, "Open this capture instead of running on the GPU")->group("Window");
  app.add_option("--device", win.device, "CUDA device index")->check(device_index)->group("Window");
  // Test hooks, hidden from --help (an empty group); the window's own options are in the group "Window".
  app.add_option("--frames", win.frames, "Quit after this many frames")
      ->check(named("--frames", number_in(1, 1e9, true, "a number of frames from 1")))
      ->group("");
  app.add_option("--exit-after", win.exit_after, "Quit after this many seconds")
      ->check(named("--exit-after", number_in(1e-3, 1e7, false, "a number of seconds above 0")))
      ->group("");
  app.add_option("--width", win.width, "Window width in pixels")
      ->check(number_in(kMinWindowWidth, 8192, true, "a width from " + std::to_string(kMinWindowWidth) + " to 8192"))
      ->group("Window");
  app.add_option("--height", win.height, "Window height in pixels")
      ->check(number_in(kMinWindowHeight, 8192, true, "a height from " + std::to_string(kMinWindowHeight) + " to 8192"))
      ->group("Window");
  app.add_option("--report", win.report, "Write where the panes are (and the audit) to this JSON file")->group("");
  app.add_flag("--audit", win.audit, "Check every frame for overlapping widgets and text below the minimum")->group("");
  app.add_flag("--headless", win.headless, "No window: frames into an offscreen framebuffer (EGL)")->group("");
  app.add_option("--frame-log", win.frame_log, "Write each frame's time (ms) to this CSV")->group("");
  app.add_option("--last-frame", win.last_frame, "Headless: write the last frame as PNG")->group("");
  app.add_option("--series-log", win.series_log, "Headless, live: write the throughput series as CSV")->group("");
  // The window's own options a user passes (a lecture opening on its rung and view); the rest are test hooks.
  app.add_option("--kernel", win.kernel, "Open on this rung or variant (gemmscope list)")->group("Window");
  app.add_option("--maximize", win.maximize, "Open with this view maximised: " + views_list(false))
      ->group("Window");
  app.add_option("--script", win.script, "Timed actions: 'SECONDS:kernel=NAME;SECONDS:pin;SECONDS:export'")->group("");
  // The fault drill: a kernel that faults on purpose, run by the GPU worker once the live plot has data.
  // (Checked in cmd_window: CLI11 leaves a hidden option's name out of its message.)
  app.add_option("--fault-drill", win.fault_drill, "Run a faulting kernel: oob, trap or hang")->group("");
  app.add_option("--watchdog", win.watchdog_s, "Seconds a GPU operation may take before the worker counts as hung")
      ->group("");
  app.add_flag("--fake-gpu", win.fake_gpu, "A GPU worker without CUDA (tests of the worker process)")->group("");

  RecordArgs rec;
  CLI::App* record = app.add_subcommand("record", "Run the registered kernels and write a capture (needs a CUDA GPU)");
  record->footer(
      "Examples:\n"
      "  gemmscope record -o h100.json                      every rung at 4096^3, traced and timed\n"
      "  gemmscope record -o f16.json --kernels mma_f16/10_multistage,mma_f16/12_persistent --sweep 1024,2048\n"
      "(gemmscope --replay h100.json opens the window on a capture, on any machine)");
  record->add_option("-o,--output", rec.out, "Capture file to write (JSON)")->required()->check(a_name);
  record->add_option("--kernels", rec.kernels, "Comma-separated kernel names (default: all)");
  record->add_option("--size", rec.size,
                     "Problem size MxNxK (a rung whose step shows only at other sizes is traced at its own, which "
                     "`list` names, and timed at this one too)")
      ->capture_default_str();
  record->add_option("--sweep", rec.sweep, "Also time every kernel at these sizes (N or MxNxK, comma-separated)");
  record->add_option("--device", rec.device, "CUDA device index")->check(device_index);
  record->add_option("--ncu-l2", rec.ncu_l2, "Keep Nsight Compute's L2 numbers in the capture (the CSV tools/l2_ncu.sh writes)");
  record->add_option("--smem-price", rec.smem_price,
                     "Keep the shared-memory price table in the capture (bench/bank_probe price's TSV)");

  BenchArgs bench;
  CLI::App* benchc = app.add_subcommand("bench", "Time kernels against cuBLAS in one process (needs a CUDA GPU)");
  benchc->footer(
      "Examples:\n"
      "  gemmscope bench --kernels sgemm/10_thread_tile_16x8,hopper/06_tma_store\n"
      "  gemmscope bench --kernels mma_f16/12_persistent --sizes 2048,4096,8192 --rounds 5 --json f16.json");
  benchc->add_option("--kernels", bench.kernels, "Comma-separated kernel names (default: all)");
  benchc->add_option("--sizes", bench.sizes, "Comma-separated sizes: N (square) or MxNxK")->capture_default_str();
  benchc->add_option("--json", bench.json, "Also write the results as JSON to this file")->check(a_name);
  benchc->add_option("--repeats", bench.repeats, "Timed launches per kernel (median; at least 10)")
      ->check(number_in(10, 10000, true, "a whole number from 10 to 10000"))->capture_default_str();
  benchc->add_option("--device", bench.device, "CUDA device index")->check(device_index);
  benchc->add_option("--rounds", bench.rounds,
                     "Measure every kernel this many times, alternately forward and backward, and report each one's "
                     "median (fair comparisons on a GPU whose clocks drift)")
      ->check(number_in(1, 100, true, "a whole number from 1 to 100"))->capture_default_str();
  benchc->add_flag("--verify-only", bench.verify_only,
                   "Only check every kernel against cuBLAS, one launch each (for compute-sanitizer: "
                   "tools/sanitize.sh)");

  LayoutArgs lay;
  CLI::App* layout = app.add_subcommand("layout", "Print or draw a tensor-core fragment layout (--source traced: a CUDA GPU or --replay)");
  layout->footer(
      "Examples:\n"
      "  gemmscope layout --op mma.m16n8k16.f16 --operand A                  lane,elem,row,col as CSV\n"
      "  gemmscope layout --op mma.m16n8k8.tf32 --operand B -o b.svg\n"
      "  gemmscope layout --op ldmatrix.x4 --operand A --source traced --replay capture.json -o x4.png");
  layout->add_option("--op", lay.op, "Operation: " + mma_op_names())->required();
  layout->add_option("--operand", lay.operand, "A, B or C")->required()->check(CLI::IsMember({"A", "B", "C"}));
  layout->add_option("--source", lay.source, "documented (PTX ISA) or traced (GPU or --replay)")
      ->check(CLI::IsMember({"documented", "traced"}))->capture_default_str();
  layout->add_option("--format", lay.format, "csv, svg, png, or tex (a standalone TikZ picture); default: -o's extension (.csv, .svg, .png, .tex; another needs --format), else csv")->check(CLI::IsMember({"csv", "svg", "png", "tex"}));  // no "=csv" shown: the default follows -o
  layout->add_option("-o,--output", lay.out, "File to write (default: standard output for csv)")->check(a_name);
  layout->add_option("--replay", lay.replay, "Read traced layouts from this capture");
  layout->add_option("--theme", lay.theme, "dark or light (svg, png)")->check(CLI::IsMember({"dark", "light"}))
      ->capture_default_str();
  layout->add_option("--device", lay.device, "CUDA device index for --source traced")->check(device_index);

  BanksArgs banks;
  CLI::App* banksc = app.add_subcommand("banks", "Count shared-memory wavefronts for 32 lane offsets read from stdin");
  banksc->footer(
      "Examples:\n"
      "  seq 0 4 124 | gemmscope banks --width 4        32 consecutive words: wavefronts=1\n"
      "  seq 0 128 3968 | gemmscope banks --width 4     a 128-byte stride: every lane in bank 0, wavefronts=32");
  banksc->add_option("--width", banks.width, "Bytes per lane: 2 (lds, sts), 4, 8 or 16")->required()
      ->check(one_of({"2", "4", "8", "16"}, "2, 4, 8 or 16 (bytes per lane)"));
  banksc->add_option("--op", banks.op,
                     "lds (ld.shared), sts (st.shared), cp.async (its shared-memory writes), ldmatrix.x1, .x2 or .x4 "
                     "(.trans too: the banks see the same row addresses)")
      ->check(CLI::IsMember({"lds", "sts", "cp.async", "ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x1.trans",
                             "ldmatrix.x2.trans", "ldmatrix.x4.trans"}))
      ->capture_default_str();

  SwizzleArgs sw;
  CLI::App* swizzle = app.add_subcommand("swizzle", "Print the tile each launched threadblock computes");
  swizzle->footer(
      "Examples:\n"
      "  gemmscope swizzle --tiles 8x8                   row-major launch order\n"
      "  gemmscope swizzle --tiles 8x8 --scheme cutlass:2");
  swizzle->add_option("--tiles", sw.tiles, "Output tiles MxN")->required();
  swizzle->add_option("--scheme", sw.scheme, "none, cutlass:L or triton:G")->capture_default_str();

  // --zoom: the window's zoom range; the text of a figure for slides, larger without a larger picture.
  const char* zoom_help = "Text and figure this many times larger in a picture of the same size, as the window's zoom (0.8-3)";
  ExportArgs exp;
  CLI::App* exportc = app.add_subcommand("export", "Write a lecture deck: every rung's views as PNG and SVG, and index.html");
  exportc->footer(
      "Examples:\n"
      "  gemmscope export --deck deck                    open deck/index.html in a browser\n"
      "  gemmscope export --deck deck-big --zoom 1.5 --formats png --replay h100.json");
  exportc->add_option("--deck", exp.deck, "Folder to create (it must not exist yet)")->required()->check(a_name);
  exportc->add_option("--replay", exp.replay, "Capture to draw (default: the bundled one)");
  exportc->add_option("--theme", exp.theme, "dark or light")->check(CLI::IsMember({"dark", "light"}))->capture_default_str();
  exportc->add_option("--zoom", exp.zoom, zoom_help)->check(number_in(kMinZoom, kMaxZoom, false, "a number from 0.8 to 3"))->capture_default_str();
  exportc->add_option("--formats", exp.formats,
                      "png,svg (each PNG links its SVG), png (slides only; about half the size) or svg (no OpenGL at all)")
      ->check(one_of({"png,svg", "svg,png", "png", "svg"}, "png,svg (or svg,png), png or svg"))
      ->capture_default_str();

  ShotArgs shot;
  CLI::App* shotc = app.add_subcommand("shot", "Render a view offscreen to PNG or SVG (PNG through a display where there is one, else EGL with no window)");
  shotc->footer(
      "Examples:\n"
      "  gemmscope shot --view banks --kernel mma_tf32/01_vectorized -o banks.png\n"
      "  gemmscope shot --view all --size 1920x1080 --theme light -o workspace.png\n"
      "  gemmscope shot --view perf --ratio-over-size h100_sizes.json,h200_sizes.json -o ratio.svg");
  shotc->add_option("--view", shot.view, "View to draw: " + views_help())->required();
  shotc->add_option("--kernel", shot.kernel, std::string("Kernel to select (default: ") + kDefaultKernel + ")");
  shotc->add_option("--op", shot.op, "Operation the layout view shows instead of the kernel's own");
  shotc->add_option("--replay", shot.replay, "Capture to draw (default: the bundled one)");
  shotc->add_option("--theme", shot.theme, "dark or light")->check(CLI::IsMember({"dark", "light"}))->capture_default_str();
  shotc->add_option("--scale", shot.scale,
                    "Size multiplier of the picture (--size, 1600x900 by default), its text too: 1 to 4 (below 1 its "
                    "text would fall under the 14 px line every picture keeps)")
      ->check(number_in(1, 4, false, "a number from 1 to 4"))
      ->capture_default_str();
  shotc->add_option("--size", shot.size, "Window size WxH the picture shows (before --scale)")->capture_default_str();
  shotc->add_option("--zoom", shot.zoom, zoom_help)->check(number_in(kMinZoom, kMaxZoom, false, "a number from 0.8 to 3"))->capture_default_str();
  shotc->add_option("--ratio-over-size", shot.ratio_over_size,
                    "FILE[,FILE...] (bench JSONs or captures, one per GPU): each family's top rung as % of cuBLAS over "
                    "size, with --view perf");
  shotc->add_option("-o,--output", shot.out, "FILE.png or FILE.svg (the throughput view also writes FILE.csv)")->required()
      ->check(a_name);

  ListArgs list;
  CLI::App* listc = app.add_subcommand("list", "Print every rung and variant with its explanation (read from the rung's file)");
  listc->footer(
      "Examples:\n"
      "  gemmscope list | grep mma_f16\n"
      "  gemmscope list --json");
  listc->add_flag("--json", list.json, "As a JSON array: name, family, variant_of, toggles, title, adds, precisions, ...");

  // What went to standard output must have arrived (a full disk, /dev/full, a closed pipe): else one line
  // on standard error and a failure exit, never a silent 0.
  // The line names the subcommand that was writing ("gemmscope banks: cannot write ..."), as its other messages do.
  auto stdout_ok = [&app](int rc) {
    std::cout.flush();
    std::string sub;
    for (const CLI::App* s : app.get_subcommands()) sub = s->get_name();
    if (rc == 0 && !std::cout.good()) return fail(sub, "cannot write to standard output", kExitRuntime);
    return rc;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return stdout_ok(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return stdout_ok(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return stdout_ok(app.exit(e));
  } catch (const CLI::ParseError& e) {
    std::string sub;
    for (const CLI::App* s : app.get_subcommands()) sub = s->get_name();
    // CLI11 names a hidden option (the test hooks) as "": their checks name it themselves.
    std::string what = e.what();
    if (what.rfind(": ", 0) == 0) what.erase(0, 2);
    // CLI11 checks required options before unexpected ones: "shot --veiw perf" said "--view is required". An
    // argument it could not place names the mistake better.
    if (dynamic_cast<const CLI::RequiredError*>(&e)) {
      const CLI::App* where = &app;
      for (const CLI::App* s : app.get_subcommands()) where = s;
      for (const std::string& extra : where->remaining())
        if (extra.rfind("-", 0) == 0) {
          what = "unknown option '" + extra.substr(0, 40) + "' (gemmscope " + (sub.empty() ? "" : sub + " ") + "--help lists them)";
          break;
        }
    }
    // CLI11's own words for an option given twice ("--view: At Most 1 required but received 2") and for a word it
    // could not place ("The following argument was not expected: foo"), said in the user's terms.
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && what.find("At Most 1 required") != std::string::npos)
      what = what.substr(0, what.find(':')) + " given more than once; give it once";
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
      const CLI::App* where = &app;
      for (const CLI::App* s : app.get_subcommands()) where = s;
      const std::vector<std::string> left = where->remaining();
      const std::string word = left.empty() ? "" : left.front().substr(0, 40);
      if (sub.empty() && !word.empty() && word[0] != '-') {
        std::string names;
        for (const CLI::App* s : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + s->get_name();
        what = "no command '" + word + "' (the commands: " + names + "; gemmscope alone opens the window)";
      } else if ((word == "--width" || word == "--height") && (sub == "shot" || sub == "export")) {
        // The window's size options, tried on a picture (a lecturer's first guess): say the picture's own.
        what = word + " is the window's; " +
               (sub == "shot" ? std::string("a picture's size is --size WxH (e.g. --size 1920x1080)")
                              : std::string("a deck's pictures are 1600x900, and --zoom makes their text larger"));
      } else if (!word.empty()) {
        what = "unexpected argument '" + word + "' (gemmscope " + (sub.empty() ? "" : sub + " ") + "--help lists what it takes)";
      }
    }
    return fail(sub, what, kExitUsage);
  }

  // The window's options given before a subcommand ("gemmscope --replay F shot ...") would be read for the window and
  // never used: the subcommand has its own, after its name.
  for (const CLI::App* s : app.get_subcommands())
    for (const CLI::Option* o : app.get_options())
      if (o->count() > 0 && o->get_lnames().size() == 1 && o->get_lnames()[0] != "help" && o->get_lnames()[0] != "version")
        return fail(s->get_name(),
                    "--" + o->get_lnames()[0] + " before '" + s->get_name() + "' is an option of the window, not of " +
                        s->get_name() + " (its options go after its name: gemmscope " + s->get_name() + " --help)",
                    kExitUsage);

  // An option given an empty value ("shot --kernel ''") read as one not given: shot drew the default rung and
  // exited 0, where a misspelt name is refused. An empty value is refused too, naming the option.
  {
    const CLI::App* given = &app;  // the subcommand run, else the window
    for (const CLI::App* s : app.get_subcommands()) given = s;
    for (const CLI::Option* o : given->get_options())
      if (o->count() > 0 && o->get_expected_min() > 0)
        for (const std::string& v : o->results())
          if (v.find_first_not_of(" \t") == std::string::npos)
            return fail(given == &app ? "" : given->get_name(),
                        (o->get_lnames().empty() ? o->get_name() : "--" + o->get_lnames()[0]) +
                            ": an empty value; give one or leave the option out",
                        kExitUsage);
  }

  // A subcommand interrupted (Ctrl-C, a kill, a closed terminal) says so in one line; what it was writing is left as
  // it was (core/files.h). The window has nothing half-written to explain.
  win.size_given = app.get_option("--width")->count() + app.get_option("--height")->count() > 0;
  lay.format_given = layout->get_option("--format")->count() > 0;
  lay.theme_given = layout->get_option("--theme")->count() > 0;
  lay.device_given = layout->get_option("--device")->count() > 0;
  for (const CLI::App* s : app.get_subcommands()) say_when_interrupted("gemmscope " + s->get_name());
  if (*record) return stdout_ok(cmd_record(rec));
  if (*benchc) return stdout_ok(cmd_bench(bench));
  if (*layout) return stdout_ok(cmd_layout(lay));
  if (*banksc) return stdout_ok(cmd_banks(banks));
  if (*swizzle) return stdout_ok(cmd_swizzle(sw));
  if (*shotc) return stdout_ok(cmd_shot(shot));
  if (*exportc) return stdout_ok(cmd_export(exp));
  if (*listc) return stdout_ok(cmd_list(list));
  return cmd_window(win);
}
