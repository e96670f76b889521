// The capture: everything one recording on a GPU produced, as plain immutable data.
// Schema "gemmscope-capture/1" (DESIGN.md). The window, `shot` and the tests read only this;
// a live GPU session produces the same structures, so replay and live views share one code path.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gs {

inline constexpr const char* kCaptureSchema = "gemmscope-capture/1";

struct DeviceInfo {
  std::string name;             // "NVIDIA H100 80GB HBM3"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int64_t l2_bytes = 0;
  int64_t smem_per_sm_bytes = 0;
  int sm_clock_mhz = 0;         // max SM clock the driver reports
  int mem_clock_mhz = 0;
  std::string driver;           // "580.159.04" (or the CUDA driver API version where NVML is absent)
  std::string cuda_runtime;     // "13.0"
};

// A ceiling to compare a kernel against, with where the number came from.
struct Peak {
  std::string name;    // "fp32", "tensor_f16_f32", "tf32", "dram"
  double value = 0;    // in unit
  std::string unit;    // "TFLOP/s" or "TB/s"
  std::string source;  // "measured: cuBLAS SGEMM 4096^3 in this capture" / "datasheet"
};

// One kernel timed at one shape, beside cuBLAS of the same dtype in the same process.
struct RunRecord {
  std::string kernel;  // "sgemm/01_naive"
  int m = 0, n = 0, k = 0;
  std::string dtype;   // "f32", "f16.f32" (fp16 in, fp32 accumulate), "f16.f16", "tf32"
  double median_ms = 0;
  double tflops = 0;
  double cublas_tflops = 0;
  double rel_err = 0;  // relative Frobenius error against cuBLAS
  std::vector<double> samples_ms;
  // cuBLAS was timed beside this run, launches alternating (as `bench` does); false: once per shape in the
  // recording session, which made the ratio depend on the card's temperature when each was timed. Written only
  // when true (older captures have no field).
  bool cublas_paired = false;
};

// Which matrix element one lane's fragment slot holds.
struct LayoutCell {
  int lane = 0, elem = 0, row = 0, col = 0;
  bool operator==(const LayoutCell& o) const {
    return lane == o.lane && elem == o.elem && row == o.row && col == o.col;
  }
};

struct FragmentLayout {
  std::string op;       // "mma.m16n8k16.f16", "wmma.m16n16k16.f16"
  std::string operand;  // "A", "B" or "C"
  std::string source;   // "documented" (PTX ISA formulas) or "traced" (probe kernel on the GPU)
  int rows = 0, cols = 0;
  std::vector<LayoutCell> cells;  // sorted by lane, then elem
};

// One warp's shared-memory access at one site: the byte offset each lane touched.
struct SmemAccess {
  std::string kernel;
  std::string site;     // the probe's name for the access: "As store", "ldmatrix A"
  int warp = 0, iteration = 0;
  std::string kind;     // "load", "store", "ldmatrix", "cp.async"
  int width = 4;        // bytes per lane
  std::array<std::optional<uint32_t>, 32> addr{};  // nullopt: lane inactive
};

// One warp's global-memory access at one site: which matrix it touched and the byte offset, from the
// start of that matrix, each lane touched. The runner allocates A, B and C on 256-byte boundaries, so
// offset / 32 is the 32-byte sector and offset / 128 the 128-byte line the hardware sees.
struct GmemAccess {
  std::string kernel;
  std::string site;     // the probe's name for the access: "A load", "C store"
  int warp = 0;
  int iteration = 0;    // k-iteration; -1 when the kernel was past its k-loop (epilogue)
  std::string kind;     // "load", "store", "cp.async"
  int width = 4;        // bytes per lane
  char matrix = 'A';    // 'A', 'B' or 'C'; '?' when the address lay in none of them
  std::array<std::optional<int64_t>, 32> offset{};  // nullopt: lane inactive
};

// One threadblock: where and when it ran.
struct BlockRecord {
  std::string kernel;
  int launch = 0;                  // blockIdx.x + blockIdx.y * gridDim.x
  int bx = 0, by = 0;
  int tile_m = 0, tile_n = 0;      // the output tile it computed
  int smid = 0;
  uint64_t start_ns = 0, end_ns = 0;  // %globaltimer
};

// One warp's time in one stage of its main loop (clock64 of its SM).
// A mark is an instant in the same list: stage "mark: __syncthreads" or "mark: cp.async wait", start == end,
// the moment the warp passed it.
struct StageRecord {
  std::string kernel;
  int block = 0, warp = 0;
  std::string stage;
  uint64_t start = 0, end = 0;
};
inline constexpr const char* kMarkPrefix = "mark: ";
inline bool is_mark(const StageRecord& s) { return s.stage.rfind(kMarkPrefix, 0) == 0; }

// What Nsight Compute measured for one kernel at one size (tools/l2_ncu.sh: `ncu --clock-control none`, the
// first launch, caches flushed): L2 hit rate (lts__t_sector_hit_rate.pct), DRAM bytes read
// (dram__bytes_read.sum) and the kernel's duration (gpu__time_duration.sum). The launch-order view shows them.
struct L2Record {
  std::string kernel;
  int m = 0, n = 0, k = 0;
  double hit_pct = 0, dram_read_bytes = 0, duration_ns = 0;
};

// The price of a shared-memory access (bench/bank_probe.cu `price`, clock64): cycles per warp-wide ld.shared of
// `width` bytes with lanes `stride_bytes` apart, `warps` warps of one block loading at once.
struct SmemPrice {
  int width = 0, stride_bytes = 0, warps = 0;
  double cycles = 0;
};

// One point of a live throughput series as the window plotted it (`--series-log`): seconds since the session
// started, the kernel's and cuBLAS's TFLOP/s, the SM clock, and what ran ("K dtype MxNxK"). Kept in a capture
// so that a machine with no GPU replays the series, toggles and all.
struct SeriesPoint {
  double t = 0, tflops = 0, cublas_tflops = 0;
  int sm_mhz = 0;
  std::string kernel;
};

// Where a capture was put together from several recordings (tools/capture_merge.py): one kernel's records of one
// list ("runs", "smem", "gmem", "blocks", "stages", "l2") came from a later recording than the capture's own.
struct MergedList {
  std::string kernel, list;
  std::string recorded_at;  // that recording's recorded_at
};

struct Capture {
  std::string schema = kCaptureSchema;
  std::string recorded_at;  // ISO 8601 UTC, "2026-11-21T07:30:00Z": utc_now_iso()
  std::string tool;         // "gemmscope 0.1.0"
  DeviceInfo device;
  std::vector<Peak> peaks;
  std::vector<RunRecord> runs;
  std::vector<FragmentLayout> layouts;
  std::vector<SmemAccess> smem;
  std::vector<GmemAccess> gmem;  // absent from captures recorded before global accesses were traced
  std::vector<BlockRecord> blocks;
  std::vector<StageRecord> stages;
  std::vector<L2Record> l2;           // optional: `record --ncu-l2`
  std::vector<SmemPrice> smem_price;  // optional: `record --smem-price`
  std::vector<SeriesPoint> series;    // optional: a live session's series (tools/capture_attach)
  std::vector<MergedList> merged;     // optional: lists recorded later than recorded_at, merged in
};

// The day (YYYY-MM-DD) `kernel`'s records of `list` were recorded: the latest merge that brought them, else the
// capture's own day.
std::string recorded_day(const Capture& c, const std::string& kernel, const std::string& list);
// The days the capture's records span: "2026-11-26", or "2026-11-26 to 2026-11-28" where later recordings
// were merged in.
std::string recorded_days(const Capture& c);

// Reads tools/l2_ncu.sh's CSV (kernel,size,order,l2_hit_pct,dram_read_bytes,duration_ns,tflops; size MxNxK) and
// bench/bank_probe's price TSV (# comments, then width, stride_bytes, warps, cycles_per_instruction). Throws
// CaptureError naming the file, line and problem.
std::vector<L2Record> parse_l2_csv(const std::string& text, const std::string& name);
std::vector<SmemPrice> parse_smem_price(const std::string& text, const std::string& name);
// Reads `gemmscope --headless --series-log`'s CSV (t_s,tflops,cublas_tflops,sm_mhz,"kernel"). Throws CaptureError.
std::vector<SeriesPoint> parse_series_csv(const std::string& text, const std::string& name);
// The measured price of `width`-byte loads `stride_bytes` apart with the most warps measured; null if none.
const SmemPrice* find_price(const Capture& c, int width, int stride_bytes);

// What a reader says about a file it will not load: one line naming the file and the first problem.
class CaptureError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string capture_to_json(const Capture& c);
// `name` only labels messages ("assets/captures/h100.json: runs[2].m: expected an integer").
// What a capture may be, so that reading one stays under 1 GB of memory and a few seconds: the file at most
// kMaxCaptureBytes (the bundled one is 25 MB of JSON, 5 MB gzipped), its JSON at most kMaxCaptureValues values of which at most
// kMaxCaptureContainers arrays and objects (an empty array costs some 75 bytes of memory for 3 bytes of text, a number
// 16 to 32), nested at most kMaxCaptureDepth deep, with at most kMaxCaptureObjectKeys keys in one object (a capture's
// objects have 15 at most; the reader keeps keys in their order and finds one by a linear search, so 160,000 keys in
// one 2 MB object took 25 s). Beyond them the file is refused before it is built in memory.
inline constexpr uint64_t kMaxCaptureBytes = 64ull << 20;
inline constexpr uint64_t kMaxCaptureValues = 16'000'000;
inline constexpr uint64_t kMaxCaptureContainers = 4'000'000;
inline constexpr int kMaxCaptureDepth = 32;
inline constexpr uint32_t kMaxCaptureObjectKeys = 1024;
Capture parse_capture(const std::string& text, const std::string& name);
Capture read_capture(const std::string& path);
// Whether a file name is a capture's: NAME.json, or NAME.json.gz (gzipped; read_capture inflates it, and
// write_capture gzips a file so named).
bool is_capture_file_name(const std::string& name);
// One kernel at one shape beside cuBLAS of the same dtype: a row of a `gemmscope bench --json` file, or a capture's run
// with its ratio worked out.
struct Measured {
  std::string kernel, dtype;
  int m = 0, n = 0, k = 0;
  double tflops = 0, cublas_tflops = 0;
  double ratio = 0;  // tflops / cublas_tflops; 0 where cuBLAS has no number
  bool ok = true;    // verified against cuBLAS (a capture's run: a finite rel_err and a TFLOP/s above 0)
};
// The measurements of one file, a bench JSON ({"device": {"name", "date"?}, "results": [...]}, DESIGN.md) or a
// capture, told apart by content: a capture has "schema", a bench JSON "results". Read within a capture's limits;
// a bench row's ratio must be its tflops / cublas_tflops. Throws CaptureError naming the file and the field.
struct MeasuredFile {
  bool capture = false;
  std::string device;  // "NVIDIA H100 80GB HBM3"
  std::string date;    // "2026-11-26"; "" where the file has none
  bool cublas_paired = false;  // bench timed cuBLAS beside each run (ABBA), not once per shape per process
  std::vector<Measured> runs;
};
inline constexpr size_t kMaxBenchResults = 100'000;
MeasuredFile parse_measured(const std::string& text, const std::string& name);
MeasuredFile read_measured(const std::string& path);

// Writes to a temporary file beside `path` and renames it over `path`.
void write_capture(const Capture& c, const std::string& path);

// Look-ups the views use.
const FragmentLayout* find_layout(const Capture& c, const std::string& op, const std::string& operand,
                                  const std::string& source);
// Runs of one kernel, ordered by size (m*n*k).
std::vector<const RunRecord*> runs_of(const Capture& c, const std::string& kernel);

// A record's iteration in words: "k-iteration 3" ("k-iter 3" brief), or "epilogue" for -1.
std::string iteration_name(int iteration, bool brief = false);

// Now as recorded_at writes it: ISO 8601 UTC to the second, "2026-11-26T10:12:00Z".
std::string utc_now_iso();

}  // namespace gs
