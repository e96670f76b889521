// The views: each draws core/ data onto a Canvas inside a rectangle. They hold no state of their
// own; the window passes what the user selected and gets back what the mouse is over.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/bank_sites.h"
#include "core/capture.h"
#include "core/diff.h"
#include "core/gmem.h"
#include "core/roofline.h"
#include "core/layout.h"
#include "core/swizzle.h"
#include "viz/canvas.h"

namespace gs {

struct Theme {
  bool dark = true;
  Color bg, panel, text, text_dim, grid, accent, good, warn, bad;
  static const Theme& Dark();
  static const Theme& Light();
  static const Theme* ByName(const std::string& name);  // "dark" / "light", nullptr otherwise
};

// One colour per lane; lanes 4q..4q+3 (one mma quad) share a hue family, lighter to darker.
Color lane_color(int lane, const Theme& t);
// Black or white, whichever reads better on `bg`.
Color text_on(Color bg);
// A fragment layout as a standalone TikZ picture (lane colours of `t`, lane:elem labels); compiles with pdflatex.
std::string layout_tikz(const FragmentLayout& l, const Theme& t);

// ---- Fragment layout -------------------------------------------------------------------------
struct LayoutViewInput {
  const MmaOp* op = nullptr;
  // Index by Operand (A, B, C); nullptr where the source has no layout for it.
  std::array<const FragmentLayout*, 3> documented{};
  std::array<const FragmentLayout*, 3> traced{};
  std::string traced_from;  // "NVIDIA H100 80GB HBM3, 2026-11-21" or empty
  // A header line under the traced column where the rung followed accumulates in another type than the C traced
  // (wmma/10 in f16 beside an f32 trace); empty: none.
  std::string c_note;
  // ldmatrix only (op->kind == OpKind::Ldmatrix): which lane supplies each 16-byte row's address,
  // ldmatrix_rows(*op). Drawn as a lane-coloured "L9" chip beside each row; empty: no chips.
  std::vector<LdmatrixRow> row_suppliers;
  // ldmatrix as the followed rung issues it: the mma its registers feed (null: none named). A tf32 mma reads each
  // 32-bit register as one element, so the caption's fragment is mma.m16n8k8.tf32's, not the f16 one.
  const MmaOp* feeds = nullptr;
  // What an operand's grid with no layout says, where that is not "not documented" / "not traced": the layout
  // command draws the one operand asked for ("not asked for (--operand C)"); empty: the default.
  std::string absent;
};
struct LayoutViewState {
  bool show_documented = true;  // documented column
  bool show_traced = true;      // traced column (where present)
  int highlight_lane = -1;      // clicked lane: its cells are outlined in A, B and C
};
struct LayoutHover {
  bool valid = false;
  int operand = 0;              // Operand as int
  bool traced = false;
  int row = 0, col = 0;
  std::vector<LayoutCell> holders;  // every (lane, elem) slot that holds this element
  bool labelled = false;            // the grids' cells were drawn with lane numbers (room for them)
};
// Draws operands A, B and C of one op as grids, cells coloured by lane and labelled "lane:elem";
// with both sources, documented and traced side by side, mismatching cells marked. An ldmatrix op
// has one grid, its tile, with the row-address suppliers beside the rows and a caption of the rules.
void draw_layout_view(Canvas& c, Rect r, const Theme& t, const LayoutViewInput& in,
                      const LayoutViewState& st, Vec2 mouse, LayoutHover* hover);

// ---- Performance -----------------------------------------------------------------------------
struct PerfBar {
  std::string kernel;   // "sgemm/01_naive"
  std::string dtype;
  double tflops = 0, cublas_tflops = 0;
  double rel_err = 0;
  bool ok = true;       // verified against cuBLAS
  bool selected = false;
  std::string shape;    // "5120x1280x4096" where it was measured at another size than the chart's; else empty
};
struct PerfSeries {     // one kernel's TFLOP/s over time (live) or over size
  std::string label;
  std::vector<Vec2> points;  // (x, TFLOP/s)
  bool selected = false;
  std::string kernel;        // the rung a click on it selects; "" for a reference (cuBLAS)
  bool reference = false;    // cuBLAS: drawn dashed in the text colour, the line every rung chases
  int colour = -1;           // >= 0: series_color(colour), shared by series that belong together; -1: the next one
  int dash = 0;              // 0: solid, round markers; 1..3: a dash pattern and square markers (another GPU's run)
  std::string dtype = "";    // the CSV's dtype column (an initialiser: aggregate initialisations may leave it out)
};
inline constexpr const char* kShareOfCublas = "% of cuBLAS";  // a series y unit: percent of cuBLAS, same dtype
struct PerfViewInput {
  std::string title;        // "mma_f16 ladder"; empty: "Throughput"
  std::string shape_label;  // "4096x4096x4096"
  std::vector<PerfBar> bars;          // ladder order
  std::vector<PerfSeries> series;     // may be empty
  std::string series_x_label;         // "seconds" or "size"
  std::string series_size_note;       // after the plot's title: "at 2048^3 (the bars: 4096x4096x4096)", or empty
  bool series_log2_x = false;         // sizes: one tick per power of two, evenly spaced
  // What y is: "" TFLOP/s; kShareOfCublas: the share of cuBLAS of the same dtype in percent.
  std::string series_y_unit;
  std::string device_label;           // "NVIDIA H100 80GB HBM3, 1980 MHz, driver 580.159.04"
  std::string empty_note;             // what to say where there are no bars ("" : "No runs yet.")
  // Live: where the series changed kernel (a toggle), drawn as labelled vertical lines.
  struct Marker {
    float x = 0;
    std::string label;  // what runs from there on: "[stages=2]", "07_swizzle"
  };
  std::vector<Marker> markers;
  // A pinned baseline: a horizontal line at its TFLOP/s, labelled, and the running kernel's ratio to it.
  std::string baseline_label;  // empty: none pinned
  double baseline_tflops = 0;
};
// The running kernel's TFLOP/s against a pinned baseline's ("1.08x the baseline"); "" without one.
std::string baseline_ratio(double tflops, double baseline_tflops);
// What the pointer is over: a bar, or the series point nearest to it.
struct PerfHover {
  int bar = -1;
  int series = -1, point = -1;
};
// Bars of TFLOP/s per kernel with the % of cuBLAS beside each; beside or below them, the series as lines
// (colours never repeat within the chart unless a series names its own; the reference dashed). Rows that do not
// fit at the smallest text size are left out around the selected one, and a line says how many. No bars and no
// empty_note: the series fill the area, without the bars' key.
void draw_perf_view(Canvas& c, Rect r, const Theme& t, const PerfViewInput& in, Vec2 mouse = {-1e9f, -1e9f},
                    PerfHover* hover = nullptr);
// What the throughput view plots, as CSV for a spreadsheet: "plot,kernel,dtype,x,tflops,cublas_tflops,ratio,verified,
// line", one row per bar (plot "bars", x the bar's own shape) and per series point (plot "series: <series_x_label>",
// x in that unit, the series' kernel in full where it has one, y as tflops; with series_y_unit kShareOfCublas, y / 100
// as ratio; line: the legend's label, its middle dots written ", ").
std::string perf_csv(const PerfViewInput& in);
// The colour of series i of n in a chart: distinct for every i < 16.
Color series_color(size_t i, const Theme& t);

// ---- Warp tiling -----------------------------------------------------------------------------
// A rung's warp tiling (kernels/gemm.h's WarpTiling, copied: viz does not include kernels/).
struct WarpViewInput {
  std::string kernel;             // "mma_f16/10_multistage"
  int block_m = 0, block_n = 0;   // block tile of C
  int block_k = 0;                // k-tile of A and B
  int warps_m = 0, warps_n = 0;   // warp grid; warp w sits at (w / warps_n, w % warps_n)
  int warps_k = 1;                // >1: that many groups of warps_m x warps_n split each k-tile
  int warp_m = 0, warp_n = 0;     // one warp's tile of C
  std::string op;                 // "mma.m16n8k16.f16", "wmma.m16n16k16.f16", "" = SIMT
  int frag_m = 0, frag_n = 0, frag_k = 0;
  int producer_warps = 0;         // warps beside the grid that only issue TMA copies (mma_f16/11)
  std::string frag_columns;       // where an op's columns lie when not contiguous (mma_tf32/12), else ""
  bool b_per_tile_row = false;    // B fragments loaded again for every row of tiles (mma_f16, mma_tf32 01-03)
  bool described() const { return warps_m > 0 && warps_n > 0 && warp_m > 0 && warp_n > 0 && frag_k > 0; }
  std::string undescribed;        // what to say instead of a warp tiling where there is none ("" : a plain notice)
};
// The C block tile split into warp tiles ("warp w", origin), the highlighted warp's fragment grid,
// and beside C the A and B tiles with the slices that warp loads in one k-step shaded in its colour;
// a caption spells the numbers out. highlight_warp < 0 or out of range: warp 0.
void draw_warp_view(Canvas& c, Rect r, const Theme& t, const WarpViewInput& in, int highlight_warp);
// The heading over the picture: "mma_f16/10_multistage: 8 warps (4x2) of 64x64 over a 256x128 block tile, ...".
std::string warp_heading(const WarpViewInput& in);
// What the caption says for warp w: "warp 3 of 8 owns C[64:128, 0:64] (...); per k16 step it loads ...".
std::string warp_caption(const WarpViewInput& in, int warp);

// ---- Thread tiling (SIMT rungs) -------------------------------------------------------------
// Which thread computes which elements of the block tile (kernels/gemm.h's ThreadTiling, copied: viz
// does not include kernels/).
struct ThreadViewInput {
  std::string kernel;            // "sgemm/05_blocktile_2d"
  int block_m = 0, block_n = 0;  // block tile of C
  int block_k = 1;               // k-depth of the A and B tiles (1: read straight from global memory)
  int threads = 0;               // threads per block
  int warps_m = 1, warps_n = 1;  // warp tiles, row-major; 1 x 1: the thread grid spans the block tile
  int threads_m = 0, threads_n = 0;
  bool column_major = false;     // thread t of a grid at (t % threads_m, t / threads_m)
  int tm = 1, tn = 1, reps_m = 1, reps_n = 1;
  bool described() const {
    return block_m > 0 && block_n > 0 && threads > 0 && threads_m > 0 && threads_n > 0 &&
           warps_m * warps_n * threads_m * threads_n == threads &&
           warps_m * reps_m * threads_m * tm == block_m && warps_n * reps_n * threads_n * tn == block_n;
  }
};
struct ThreadCell {
  int row = 0, col = 0;
};
// Thread t's elements of the block tile, in its accumulator order (sub-tile by sub-tile, row-major inside).
std::vector<ThreadCell> thread_cells(const ThreadViewInput& in, int t);
// Which thread computes C[row][col] of the block tile; -1 outside it.
int thread_at(const ThreadViewInput& in, int row, int col);
// "thread 37 (warp 1, lane 5) computes C[8:16, 40:48] ...": what the caption says for thread t.
std::string thread_caption(const ThreadViewInput& in, int t);
struct ThreadHover {
  int thread = -1;         // the thread owning the hovered element of C
  int row = -1, col = -1;  // that element
};
// The block tile of C with every element coloured by the lane of the thread computing it (warps outlined),
// A (block_m x block_k) left of it and B (block_k x block_n) above, and the highlighted thread's elements
// of C with the A rows and B columns it reads in one k-step marked; a caption spells them out.
void draw_thread_view(Canvas& c, Rect r, const Theme& t, const ThreadViewInput& in, int highlight_thread, Vec2 mouse,
                      ThreadHover* hover);

// ---- Launch order (swizzle) --------------------------------------------------------------------
// One traced launch of a rung, as the launch-order view draws it.
struct SwizzleViewInput {
  std::string kernel;                    // "mma_f16/07_swizzle"
  const TracedLaunch* launch = nullptr;  // null or empty: the capture traced no blocks of it
  int block_m = 0, block_n = 0;          // its output tile
  int k = 0, elem_bytes = 0;             // K of the traced launch and A/B element size: panel bytes
  int64_t l2_bytes = 0;                  // the GPU's L2, against which a wave's footprint is drawn
  std::string order;                     // what orders its blocks: "row-major", "cutlass:5"
  double tflops = 0;                     // measured at the traced size (0: not measured)
  std::string shape;                     // the traced size, "5120x1280x4096": headed where the side beside differs
  std::string list_shape;                // the size the kernel list's number is from: headed too where it differs
  // The dtype of `tflops` where it is not the one its family's rungs are shown in (the rung beside may be in
  // another): wmma/10 has f16.f16 runs only. Empty otherwise.
  std::string other_dtype;
  double timed_ms = 0;                   // the timed (probe-free) run at that size: the traced one is slower
  // What Nsight Compute measured for the kernel (Capture::l2), one line per size: "Nsight Compute at
  // 4096x16384x4096: L2 hit 92.4%, DRAM read 0.67 GB, 1954 us".
  std::vector<std::string> measured;
};
enum class SwizzleColour { Launch, Sm, Start };
struct SwizzleViewState {
  SwizzleColour colour = SwizzleColour::Launch;
  float time = 1;         // the moment shown, as a fraction of the kernel's duration (1: every block done)
  bool playing = false;   // the window advances `time` while true
  bool compare = true;    // draw a second rung beside (the panel picks it: the previous rung by default)
  bool timeline = true;   // the per-SM timeline under the tile grids
};
struct SwizzleHover {
  int side = -1;     // 0: the selected rung, 1: the one compared
  int block = -1;    // index into that launch's blocks
  int measured = -1;  // index into that side's `measured` lines, under the mouse (cut where the side is narrow)
};
// The C matrix as a grid of output tiles coloured by launch order, SM or start time, at the chosen moment
// (not started: empty; running: outlined; done: filled), with the A row-panels and B column-panels the
// running blocks read beside it and their bytes against L2; `other` (may be null) side by side with the
// same time scale; under both, one row per SM with each block as a bar over %globaltimer.
void draw_swizzle_view(Canvas& c, Rect r, const Theme& t, const SwizzleViewInput& in, const SwizzleViewInput* other,
                       const SwizzleViewState& st, Vec2 mouse, SwizzleHover* hover);
// The colour of a value in [0, 1] on the view's ramp (dark blue through teal and green to yellow).
Color ramp_color(float v, const Theme& t);

// ---- Code ---------------------------------------------------------------------------------------
// A rung's source with what changed from another rung (by default the one before it).
struct CodeViewInput {
  std::string kernel;                     // "mma_f16/08_ldmatrix"
  std::string against;                    // the rung diffed against; "" when there is none
  std::string title, adds;                // the rung's explanation (its kTitle and kAdds)
  std::vector<std::string> new_lines, old_lines;
  int new_offset = 0, old_offset = 0;     // file line of new_lines[0] and old_lines[0] (0-based): the numbers shown
  std::vector<DiffLine> diff;             // every line of both, in order
  std::vector<std::string> sites;         // per new line: the shared-memory site its probe records, or ""
  // A toggle variant shown on its own (no rung to diff against): the lines that read the toggle's template
  // parameters are marked (Added in `diff`, drawn with a '>' rather than '+'), and this says which.
  std::string toggle_note;                // "[pad=off]: the rung's own source; marked, the 11 lines that name kP or P, ..."
};
struct CodeViewState {
  int first = 0;              // first row of `diff` shown
  bool show_removed = true;   // removed lines shown (struck in the bad colour) or left out
  int selected = -1;          // a selected new line (-1: none): outlined
};
struct CodeHover {
  int row = -1;        // index into diff
  int rows_shown = 0;  // how many rows fit: the panel scrolls by it
};
// The explanation above; then the lines, each with its number, a +/- mark and a tint where it changed
// (removed lines in the bad colour, added ones in the good), probe-site lines marked; a strip at the right
// shows where in the file the changes are and which part is on screen.
void draw_code_view(Canvas& c, Rect r, const Theme& t, const CodeViewInput& in, const CodeViewState& st, Vec2 mouse,
                    CodeHover* hover);
// Which rows of `in.diff` the view lists (all, or without the removed ones).
std::vector<int> code_rows(const CodeViewInput& in, const CodeViewState& st);

// ---- Pipeline timeline ---------------------------------------------------------------------------
// One sampled block's warps over time (clock64 of its SM, from its first stamp): each warp's stages as the
// rung names them (copy issue, wait, mma or FFMA, epilogue).
struct TimelineBlock {
  std::string kernel;
  std::string shown_as;            // the selected kernel, where that is an order variant of `kernel`
  int block = -1;                  // launch index of the block; -1: the capture has no stage spans of it
  std::vector<std::string> stages; // stage names, in the order first seen
  struct Span {
    int warp = 0, stage = 0;       // row, index into stages
    uint64_t start = 0, end = 0;   // cycles from the block's first stamp
  };
  std::vector<Span> spans;
  struct Mark {
    int warp = 0, kind = 0;        // row, index into mark_names
    uint64_t at = 0;               // cycles from the block's first stamp: when the warp passed it
  };
  std::vector<Mark> marks;         // __syncthreads and cp.async waits passed (probe.mark)
  std::vector<std::string> mark_names;  // "__syncthreads", "cp.async wait", in the order first seen
  std::vector<int> warps;          // the warps that stamped, ascending (the rows)
  int tiles = 0;                   // a persistent CTA: the whole tiles it computed (block records with bx == block)
  int pieces = 0;                  // and the pieces of tiles split along k among CTAs (stream-K); both 0 for a block
  uint64_t duration = 0;           // last end
  // k-steps of the first warp: how often its wait stage ran (a pipelined loop waits once a k-step, and may
  // compute once more than it waits), else its most frequent stage
  int loop_steps = 0;
  // Whether the capture kept only the start of this block's stamps (core/capture_limits.h): a warp reached the
  // per-warp limit, or the rung's stamps reached the total within this block.
  // The spans, duration and loop_steps are then those of the part kept.
  bool cut = false;
  double slowdown = 0;             // the traced launch's time over the timed one's (the probes' cost), 0: unknown
  std::string focus;               // the stage the rung's change is in, where not its k-loop ("epilogue"), else ""
  int per_sm = 0;                  // most blocks (CTAs) of the traced launch at once on one SM, 0: unknown
  std::string shape;               // the traced size, "5120x1280x4096": headed where the block below differs
};
// The capture's stage spans of `kernel` for the `pick`-th sampled block (clamped); block -1 when none.
TimelineBlock timeline_block(const Capture& c, const std::string& kernel, int pick);
// How many blocks of `kernel` the capture has stage spans for.
int timeline_blocks(const Capture& c, const std::string& kernel);
struct TimelineViewState {
  double t0 = 0, t1 = -1;  // the window shown, in cycles; t1 < 0: the first dozen k-steps of the selected rung
  bool compare = true;     // the rung before, below, on the same time scale
  int block = 0;           // which sampled block
  bool on_focus = false;   // the window is the one focus_window gave (the header says why it opened there)
};
struct TimelineHover {
  int side = -1, span = -1;  // 0: the selected rung, 1: the one below; index into its spans
  Rect plot;                 // where the spans are drawn (the panel maps pixels to cycles over it)
  double t0 = 0, t1 = 1;     // the window drawn
};
// The window a state shows for a block: its own, or the first dozen k-steps (up to where the first warp's
// most frequent stage starts for the 13th time); where the block has no dozen steps, the whole of it and of the
// block drawn `below` it (may be null), whichever is longer.
void timeline_window(const TimelineBlock& b, const TimelineViewState& st, double* t0, double* t1,
                     const TimelineBlock* below = nullptr);
// The window a rung whose change lies outside its k-loop opens on: each warp's first run of b.focus (hopper/06's
// epilogue), in b and in `below` (may be null), with one and a half times their extent of context either side.
// False where b has no focus or no span of it.
bool focus_window(const TimelineBlock& b, const TimelineBlock* below, double* t0, double* t1);
// The block(s) as rows of warps, spans coloured by what the stage does (waits amber, math green, copies
// blue, epilogue grey) with a legend, cycle and microsecond axis, and an overview strip of the whole block
// with the window marked; `other` (may be null) below on the same window.
void draw_timeline_view(Canvas& c, Rect r, const Theme& t, const TimelineBlock& in, const TimelineBlock* other,
                        double clock_mhz, const TimelineViewState& st, Vec2 mouse, TimelineHover* hover);

// ---- Roofline ----------------------------------------------------------------------------------
// "07" from "mma_f16/07_swizzle": a rung's number, the label a roofline point can afford; a variant keeps its
// toggle ("10[xor=off]").
std::string rung_number(const std::string& kernel);

struct RooflinePoint {
  std::string kernel;
  double intensity = 0;  // flops per byte of A and B, from the rung's tiling (tile_intensity)
  double tflops = 0;     // measured
  bool ok = true;        // verified against cuBLAS
  bool selected = false;
  bool variant = false;  // a variant of a rung (selected): a dot off the ladder's path
};
// The rungs above the bandwidth lines, by number ("01, 03, 04"), as the note and its gist name them: above the L2
// line and reading A and B straight from global (through L1), above it with tiles staged in shared memory (every byte
// from L2, faster than the line's plain loads: cp.async .cg and TMA skip L1), and above the DRAM line only (from L2).
// Unverified points and lines not measured (0) place nothing.
struct RooflineAbove {
  std::string from_l1, l2_faster, from_l2;
  std::string l2_faster_rates;  // the l2_faster rungs with the rate their tiles came at: "01 at 8.3, 03 at 8.0 TB/s"
};
// `direct[i]`: point i reads straight from global (its tile is the thread's or warp's, not the block's).
RooflineAbove roofline_above(const std::vector<RooflinePoint>& points, const std::vector<bool>& direct, double l2_tbs,
                             double dram_tbs);
// The note's point about the lines in one sentence, for a pane with no room for the note: what the dots above the L2
// line are, else those above the DRAM line ("" where no dot is above either).
std::string roofline_gist(const RooflineAbove& above);

struct RooflineViewInput {
  std::string title;     // "mma_f16 ladder"
  std::string subtitle;  // "f16.f32, 4096x4096x4096, NVIDIA H200"
  std::vector<Ceiling> ceilings;    // roofline_ceilings(...)
  std::vector<RooflinePoint> points;  // ladder order: drawn as a path
  std::string note;      // how the intensities were computed, under the plot
  std::string gist;      // the note's point about the lines in a line or two, where the note has no room ("" none)
};
struct RooflineHover {
  int point = -1;    // nearest point under the pointer
  int ceiling = -1;  // a ceiling's label under the pointer
};
// Log-log: intensity against TFLOP/s, bandwidth slopes and compute lines labelled with their values, the
// ladder's points joined in order, the selected one ringed and named.
void draw_roofline_view(Canvas& c, Rect r, const Theme& t, const RooflineViewInput& in, Vec2 mouse,
                        RooflineHover* hover);

// ---- Global memory -----------------------------------------------------------------------------
struct GmemViewInput {
  std::string kernel;                // whose records these are
  std::string shown_as;              // the selected kernel, where that is an order variant of `kernel`
  std::vector<GmemSite> sites;       // gmem_sites(capture, kernel)
  bool capture_has_gmem = false;     // some kernel has records: an empty `sites` means this one has none ...
  bool kernel_recorded = true;       // ... if the capture holds the kernel at all
  bool live = false;                 // a live session (it traces no global addresses): says so when empty
  std::string no_lane_addresses;     // why the rung has no per-lane global accesses (TMA), if so
  std::string untraced;              // which of its accesses are not traced and why (KernelInfo::gmem_untraced)
  std::string traced_from;           // "NVIDIA H200, 2026-11-21" or empty
  int elem_bytes[3] = {4, 4, 4};     // A, B, C element sizes of the traced run
  int64_t ld[3] = {1, 1, 1};         // their leading dimensions (K, N, N)
  std::string compare_kernel;        // the rung drawn beside (default: the one before), "" for none
  std::string shape, compare_shape;  // the traced sizes, "5120x1280x4096": each named where the two differ
  std::vector<GmemSite> compare_sites;
  int compare_elem_bytes[3] = {4, 4, 4};
  int64_t compare_ld[3] = {1, 1, 1};
};
struct GmemViewState {
  int site = -1;            // index into sites; -1 or out of range: the one furthest from its ideal
  int access = 0;           // which traced request of the site (clamped)
  int highlight_lane = -1;  // clicked lane: outlined
  bool compare = true;      // the compare rung's same site beside
};
struct GmemHover {
  int site = -1;  // a row of the site table
  int lane = -1;  // a lane's cell in an access map ...
  int side = 0;   // ... of the selected rung (0) or the compared one (1)
};
// The site a view opens on: the one whose sectors per request are furthest above its ideal; -1 if none.
int gmem_default_site(const std::vector<GmemSite>& sites);
// The site of `sites` that matches `like` (same name and kind; else same name, both loads or both stores).
int gmem_compare_site(const std::vector<GmemSite>& sites, const GmemSite& like);
// A site table with sectors per request, the selected request drawn as the matrix rows it touches cut
// into 32-byte sectors with each lane's bytes in its colour, and the compare rung's same site beside.
void draw_gmem_view(Canvas& c, Rect r, const Theme& t, const GmemViewInput& in, const GmemViewState& st, Vec2 mouse,
                    GmemHover* hover);

// ---- Shared-memory banks ---------------------------------------------------------------------
struct BanksViewInput {
  std::string kernel;             // "mma_tf32/01_vectorized": whose records these are
  std::string shown_as;           // the selected kernel, where that is an order variant of `kernel` (traced_as_note)
  std::vector<SmemSite> sites;    // smem_sites(capture, kernel)
  bool capture_has_smem = false;  // some kernel has records: an empty `sites` means this one has none ...
  bool kernel_recorded = true;    // ... if the capture holds the kernel at all (else it predates the rung)
  std::string no_lane_addresses;  // why the rung's shared memory has no per-lane accesses to draw, if so (TMA, wgmma)
  bool live = false;              // a live session (it traces no shared memory): says so when empty
  std::string traced_from;        // "NVIDIA H200, 2026-11-21" or empty
  // Compare mode: a second rung's sites (default: the previous rung), whose same site is drawn beside.
  std::string compare_kernel;
  std::vector<SmemSite> compare_sites;
  // The measured price of loads (Capture::smem_price) and the GPU it was measured on; empty: the view quotes
  // the H100 table in bench/results/.
  std::vector<SmemPrice> price;
  std::string price_from;
};
struct BanksViewState {
  int site = -1;              // index into sites; -1 or out of range: the one with the most conflicts
  int warp = 0, iteration = 0;  // not recorded for the site: its first recorded access's
  int access = -1;            // which execution of the site by that warp in that iteration (program
                              // order); -1 or out of range: the one with the most conflicts
  int highlight_lane = -1;    // clicked lane: outlined in the bank grid and the lane strip
  bool compare = false;       // draw BanksViewInput::compare_kernel's same site beside the selected one
};
// The access a state selects, resolved against what the capture holds.
struct BanksPick {
  int site = -1;                          // -1: no sites
  const SmemSiteAccess* access = nullptr;  // into in.sites; null when there are none
  int warp = 0, iteration = 0;
  int count = 0;                          // executions of the site by that warp in that iteration
  std::vector<int> warps, iterations;     // those recorded for the site, ascending
};
BanksPick banks_pick(const BanksViewInput& in, const BanksViewState& st);
struct BanksHover {
  int site = -1;                  // a row of the site list
  int lane = -1;                  // a lane of the lane strip
  int wavefront = -1, bank = -1;  // a cell of the bank grid (what it serves: the pick's report)
  bool valid() const { return site >= 0 || lane >= 0 || wavefront >= 0; }
};
// What the picture says in words: "As load (frag), warp 0, k-iteration 0, access 1 of 256: 4-byte loads,
// 8 wavefronts, ideal 1, 7 conflicts (8-way on banks 0-3)".
std::string banks_caption(const SmemSite& site, const SmemSiteAccess& a);
// The kernel's sites as a table (kind, width, accesses, wavefronts W, ideal I, conflicts C summed over
// the recorded warps and iterations); under it the selected access as 32 bank columns with one row
// per wavefront, each cell labelled and coloured by the lane whose word it reads, extra rows (the
// conflicts) marked; under that each lane's byte offset and bank; under that the access on shared memory's
// 128-byte lines, and in compare mode the compare rung's same site beside it.
// The wgmma descriptor swizzle modes (none, 32B, 64B, 128B) and unswizzled 128-byte rows: one atom each,
// 16-byte chunks in their bank slots, labelled by tile row and chunk. The bank view draws it for the hopper
// rungs, whose tiles TMA writes and wgmma reads without a lane address.
void draw_swizzle_modes(Canvas& c, Rect r, const Theme& t, float fs);
void draw_banks_view(Canvas& c, Rect r, const Theme& t, const BanksViewInput& in, const BanksViewState& st,
                     Vec2 mouse, BanksHover* hover);

}  // namespace gs
