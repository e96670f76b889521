// The public face of kernels/: the registry of ladder rungs and a GPU session that runs them.
// No CUDA type appears here, so app/ and viz/ compile with the host compiler alone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/capture.h"

namespace gs {

// Input type and accumulator type of a GEMM; the capture's "dtype" string.
enum class Precision { F32, F16_F32, F16_F16, TF32 };
const char* precision_name(Precision p);  // "f32", "f16.f32", "f16.f16", "tf32"
bool parse_precision(const std::string& s, Precision* out);
// Relative Frobenius error a correct kernel stays under, against cuBLAS of the same precision.
double error_bound(Precision p);

// How a rung's warps split its block tile, for the warp view: warp w owns the warp_m x warp_n tile
// at row (w / warps_n) * warp_m, column (w % warps_n) * warp_n (every rung numbers warps row-major).
// All zero: the rung has no warp level (or it is not described).
struct WarpTiling {
  int warps_m = 0, warps_n = 0;  // warp grid over the block tile
  int warp_m = 0, warp_n = 0;    // one warp's tile of C
  int warps_k = 1;               // >1: groups of warps_m x warps_n warps each take a slice of every k-tile
  int block_k = 0;               // k-depth of the A and B tiles staged per k-tile
  // "mma.m16n8k16.f16", "mma.m16n8k8.tf32", "wmma.m16n16k16.f16", or "" for SIMT (FFMA)
  std::string op;
  // The unit a warp computes at once: an mma's m x n x k; for SIMT, the lane grid's sub-tiles
  // (lanes x a lane's sub-tile) over one k (1).
  int frag_m = 0, frag_n = 0, frag_k = 0;
  // Warps beside the warp grid that compute nothing: a producer warpgroup that only issues TMA copies
  // (mma_f16/11). The block has (warps_m x warps_n x warps_k + producer_warps) x 32 threads.
  int producer_warps = 0;
  // Where an op's columns of C lie when they are not one contiguous run of frag_n (mma_tf32/12: two runs of 8,
  // 16 apart); "" when they are. The warps view says it beside the tiles it draws as contiguous.
  std::string frag_columns;
  // The warp loads its row of B fragments again for every row of tiles it computes (mma_f16 and mma_tf32 01-03:
  // their loops hold one row of tiles' A fragments and reload B for each), instead of once per k-step.
  bool b_per_tile_row = false;
};

// Which thread computes which elements of the block tile, for rungs without tensor-core fragments (sgemm),
// from the rung's own constants. Threads are grouped into a warps_m x warps_n grid of warp tiles (row-major;
// 1 x 1 when the rung has no warp level, and the thread grid then spans the whole block tile); inside one, a
// threads_m x threads_n grid of threads, each owning reps_m x reps_n sub-tiles of tm x tn elements, the
// sub-tiles repeated every threads_m * tm rows and threads_n * tn columns. All zero: not described.
struct ThreadTiling {
  int warps_m = 1, warps_n = 1;      // warp tiles over the block tile, numbered row-major
  int threads_m = 0, threads_n = 0;  // thread grid inside one warp tile
  bool column_major = false;         // thread t sits at (t % threads_m, t / threads_m); else (t / threads_n, t % threads_n)
  int tm = 1, tn = 1;                // one contiguous sub-tile of C per thread ...
  int reps_m = 1, reps_n = 1;        // ... repeated this many times down and across
  int block_k = 1;                   // k-depth of the A and B tiles a k-step reads from (1: straight from global)
  bool described() const { return threads_m > 0 && threads_n > 0; }
};

// One rung of a ladder, as registered (kernels/registry.cu) in ladder order.
struct GemmShape {
  int m = 0, n = 0, k = 0;
  double flops() const { return 2.0 * m * n * k; }
  bool operator==(const GemmShape& o) const { return m == o.m && n == o.n && k == o.k; }
  bool operator!=(const GemmShape& o) const { return !(*this == o); }
};

struct KernelInfo {
  std::string name;        // "sgemm/01_naive"
  std::string family;      // "sgemm", "wmma", "mma_f16", "mma_tf32", "hopper"
  std::string title;       // "Naive: one thread per output element"
  std::string adds;        // two or three lines: what this rung adds over the previous one and why
  // The rung this one extends where that is not the rung before it ("wmma/09_pipelined" for wmma/11, which leaves
  // 10's warp tile aside): the code view diffs against it. Empty: the rung before.
  std::string builds_on;
  std::vector<Precision> precisions;  // first is the default
  int block_m = 0, block_n = 0;       // output tile of one threadblock
  int threads = 0;                     // threads per block
  // Shapes the rung cannot run, e.g. "M and N must be multiples of 16": empty when any shape works.
  std::string shape_rule;
  WarpTiling warps;  // zero: not described
  ThreadTiling thread_tiling;  // SIMT rungs: which thread computes which elements; zero: not described
  // The instructions whose fragment layouts the layout view shows for this rung, the one computing first
  // ("mma.m16n8k16.f16", then the loads such as "ldmatrix.x4.trans"); empty for SIMT rungs.
  std::vector<std::string> ops;
  // The tile of C whose A and B operands one read from global memory serves, for the roofline's intensity:
  // zero means the block tile (rungs that stage A and B tiles in shared memory); the thread's own tile for
  // SIMT rungs that read global memory directly, the warp's for wmma straight from global.
  int reuse_m = 0, reuse_n = 0;
  // Global accesses the probe cannot trace lane by lane, and why (empty: every load and store is traced).
  // The global-memory view says it; the GPU test expects records of the rest.
  bool gmem_loads_traced = true, gmem_stores_traced = true;
  std::string gmem_untraced;
  // A variant rung[order=S] whose blocks follow core/swizzle.h's scheme S ("none", "cutlass:L", "triton:G")
  // block for block; empty for every other kernel (a rung's own order may adapt to the shape).
  std::string order_scheme;
  // sm_90a code (TMA, wgmma, setmaxnreg), compiled for that target alone: it runs on compute capability 9.0
  // (H100, H200) only, and elsewhere reports itself unavailable.
  bool sm90a_only = false;
  // A stage this rung's change is in, where that is not its k-loop ("epilogue": hopper/06's TMA stores): the
  // timeline opens on the first run of it instead of on the first k-tiles. "" for most rungs.
  std::string timeline_focus;
  // Where `gemmscope record` traces it instead of --size: a rung whose step shows only at some shapes is traced at
  // one that shows it, and timed at --size in the sweep beside the other rungs (mma_f16/13 splits tiles only where
  // the last wave is mostly empty; at 4096^3 it is rung 12's launch). Zero: --size, as every other rung.
  GemmShape trace_shape;
};

const std::vector<KernelInfo>& kernel_registry();
const KernelInfo* find_kernel(const std::string& name);
// Why `name` is not a kernel, in one line: the variants its rung has where the rung exists, else every rung
// (`brief`: no list of rungs, only where `gemmscope list` prints them).
std::string unknown_kernel(const std::string& name, bool brief = false);
// Comma-separated names ("sgemm/01_naive,wmma/01_naive"); "all" or empty means every rung.
// Returns false with `error` naming the first unknown kernel.
bool select_kernels(const std::string& list, std::vector<const KernelInfo*>* out, std::string* error);

// "MxNxK" -> shape; false on anything else (sizes must be positive).
bool parse_shape(const std::string& s, GemmShape* out);
// shape -> "MxNxK".
std::string shape_text(GemmShape s);

struct RunOptions {
  int warmup = 3;
  int repeats = 10;    // median of at least this many timed launches
  float alpha = 1.0f, beta = 0.0f;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  bool time = true;    // false: verify only
  // true: cuBLAS is timed beside the kernel, its launches alternating with the kernel's (ABBA), so that both
  // meet the same clocks and temperature (bench); false: cuBLAS is timed once per shape per session and that
  // time is reused (the live loop, which must not spend a frame's time on cuBLAS).
  bool pair_cublas = false;
};

struct RunResult {
  std::string kernel;
  Precision precision = Precision::F32;
  GemmShape shape;
  bool ok = false;        // ran and matched cuBLAS within error_bound
  bool skipped = false;   // the rung cannot run this shape (error says why)
  std::string error;      // one line when !ok
  double median_ms = 0, tflops = 0;
  double cublas_ms = 0, cublas_tflops = 0;
  bool cublas_paired = false;  // cuBLAS timed beside this run (RunOptions::pair_cublas)
  double rel_err = 0;
  std::vector<double> samples_ms;
  std::vector<double> cublas_samples_ms;  // this run's own (pair_cublas) or the session's first of this shape
  RunRecord record() const;
};

// What a traced run of one kernel recorded.
struct TraceResult {
  RunResult run;  // outputs of the traced launch are verified too
  std::vector<BlockRecord> blocks;
  std::vector<StageRecord> stages;
  std::vector<SmemAccess> smem;
  std::vector<GmemAccess> gmem;  // block 0's global accesses: loads of its first k-iterations, its stores
  // Records the probe could not keep: its device buffer has fixed capacities (probe.cuh), and what does
  // not fit is counted instead of written. Nonzero means the lists above are incomplete.
  uint64_t dropped_blocks = 0, dropped_stages = 0, dropped_smem = 0, dropped_gmem = 0;
  uint64_t dropped() const { return dropped_blocks + dropped_stages + dropped_smem + dropped_gmem; }
};

// Number of CUDA devices; 0 with `why` set when there is none or no driver.
int cuda_device_count(std::string* why);

// One GPU, its cuBLAS handle and scratch buffers. Not thread-safe: one thread (the window's GPU
// worker, or the CLI) owns a session.
class GpuSession {
 public:
  // nullptr with `error` set when the device cannot be opened.
  static std::unique_ptr<GpuSession> open(int device, std::string* error);
  virtual ~GpuSession() = default;

  virtual DeviceInfo device() const = 0;
  // Verifies the kernel against cuBLAS on fresh random inputs (output poisoned first),
  // then, if opt.time, times both. Never throws: failures come back in RunResult::error.
  virtual RunResult run(const KernelInfo& k, Precision p, GemmShape s, const RunOptions& opt) = 0;
  // Runs the kernel with TraceProbe (addresses) and with StampProbe (block records and stage stamps, near the
  // timed speed) and decodes what they recorded. Both launches are verified.
  virtual TraceResult trace(const KernelInfo& k, Precision p, GemmShape s) = 0;
  // Fragment layouts discovered on this GPU by probe kernels: wmma m16n16k16 A, B, C and
  // every documented mma op's A, B, C (source "traced"). On failure: what was traced before it, and
  // *error (if given) says what failed.
  virtual std::vector<FragmentLayout> trace_layouts(std::string* error = nullptr) = 0;
  // Ceilings measured on this GPU (cuBLAS at 4096^3 per precision, device-to-device copy). On failure:
  // the peaks measured before it, and *error (if given) says what failed.
  virtual std::vector<Peak> measure_peaks(std::string* error = nullptr) = 0;
  // The fault drill (`gemmscope --fault-drill KIND`, never in the registry): launches a kernel that fails on
  // purpose, "oob" (an out-of-bounds store), "trap" (__trap()) or "hang" (spins; only a watchdog ends it),
  // and returns what CUDA reported, "" if nothing failed.
  virtual std::string fault_drill(const std::string& kind) = 0;
  // "" while the session's GPU context works; else, in one line, the sticky error (an illegal address, a trap)
  // that broke it for good: every later CUDA call of this process would fail.
  virtual std::string sticky_error() = 0;
};
// The fault drill's kinds: "oob", "trap", "hang".
const std::vector<std::string>& fault_drill_kinds();
// The kernel name the fault drill of `kind` reports itself as ("fault_drill/trap").
inline std::string fault_drill_kernel(const std::string& kind) { return "fault_drill/" + kind; }

// Adds what a capture keeps of kernel k's trace to *c: every block record, and (except for a block order
// variant, whose code is its rung's) the first sampled blocks' stage spans and two warps' first k-iteration
// of shared- and global-memory addresses. Returns the stage spans kept.
size_t keep_trace(Capture* c, TraceResult t, const KernelInfo& k);

// The size `record` times and traces kernel k at, its first run in the capture: its trace_shape where it has one,
// else `shape` (--size).
GemmShape recorded_shape(const KernelInfo& k, GemmShape shape);
// Records a whole capture: device, peaks, every selected kernel at recorded_shape(k, shape) (timed and traced),
// traced layouts. `progress` gets one line per step.
Capture record_capture(GpuSession& gpu, const std::vector<const KernelInfo*>& kernels, GemmShape shape,
                       const std::function<void(const std::string&)>& progress);

}  // namespace gs
