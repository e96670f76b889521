// The one verify-and-bench harness (STYLE.md #5): the CLI, the window and the tests all measure here.
//   run():   fresh random inputs -> output poisoned with NaN -> kernel -> cuBLAS on the same inputs ->
//            relative Frobenius error -> (opt.time) median of CUDA-event timings of both.
//   trace(): the same with TraceProbe (addresses) and StampProbe (block records, stage stamps), each launch's
//            trace buffer decoded into core's records.
// Everything runs on the session's own stream; every CUDA and cuBLAS status is checked (GS_CUDA,
// GS_CUBLAS throw one line) and the public entry points turn failures into RunResult::error.
#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/cublas_api.h"
#include "kernels/cuda_check.cuh"
#include "kernels/gemm.h"
#include "kernels/gemm_args.cuh"
#include "kernels/ceilings.h"
#include "kernels/fault_drill.h"
#include "kernels/layout_probe.h"
#include "kernels/probe.cuh"
#include "kernels/registry_internal.cuh"
#include "kernels/testing.h"

namespace gs {
namespace {

using detail::CudaFailure;
using detail::PrecisionLaunch;
using detail::RawArgs;
using detail::Rung;

// ---- device helpers ------------------------------------------------------------------------

__host__ __device__ inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Counter-based: element i depends only on (seed, i), so any launch shape gives the same matrix.
template <class T>
__global__ void fill_uniform(T* p, size_t n, uint64_t seed) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    // 24 random bits r -> (2r + 1 - 2^24) * 2^-24: an odd multiple of 2^-24 in (-1, 1). Never 0, exact
    // in fp32, and never rounded to 0 in fp16, whose smallest subnormal is 2^-24.
    const int32_t r = static_cast<int32_t>(splitmix64(seed + i * 0x9E3779B97F4A7C15ull) >> 40);
    p[i] = from_float<T>(static_cast<float>(2 * r + 1 - (1 << 24)) * 0x1p-24f);
  }
}

struct ErrorSums {
  double diff2, ref2;                // sum (out - ref)^2 and sum ref^2 over elements finite in both
  unsigned long long bad_out, bad_ref;  // non-finite elements: NaN poison left unwritten, overflow
};

template <class T>
__global__ void error_sums(const T* out, const T* ref, size_t n, ErrorSums* sums) {
  double d2 = 0, r2 = 0;
  unsigned long long bad_out = 0, bad_ref = 0;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float o = to_float(out[i]), r = to_float(ref[i]);
    const bool fo = isfinite(o), fr = isfinite(r);
    bad_out += !fo;
    bad_ref += !fr;
    if (fo && fr) {
      const double d = static_cast<double>(o) - r;
      d2 += d * d;
      r2 += static_cast<double>(r) * r;
    }
  }
  for (int off = 16; off > 0; off /= 2) {  // warp sum; blockDim is a multiple of 32
    d2 += __shfl_down_sync(0xffffffffu, d2, off);
    r2 += __shfl_down_sync(0xffffffffu, r2, off);
    bad_out += __shfl_down_sync(0xffffffffu, bad_out, off);
    bad_ref += __shfl_down_sync(0xffffffffu, bad_ref, off);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&sums->diff2, d2);
    atomicAdd(&sums->ref2, r2);
    atomicAdd(&sums->bad_out, bad_out);
    atomicAdd(&sums->bad_ref, bad_ref);
  }
}

// ---- precisions at run time ----------------------------------------------------------------

struct Dtype {
  size_t in_size, out_size;  // bytes per element
  cudaDataType_t in_type, out_type;
  cublasComputeType_t compute;
  cublasMath_t math;
  bool half_scalars;  // CUBLAS_COMPUTE_16F takes alpha and beta as __half
  const char* cublas_label;
};

Dtype dtype_of(Precision p) {
  switch (p) {
    case Precision::F32:
      return {4, 4, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_PEDANTIC_MATH, false,
              "cuBLAS SGEMM pedantic"};
    case Precision::F16_F32:
      return {2, 4, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUBLAS_DEFAULT_MATH, false,
              "cuBLAS GemmEx fp16 in, fp32 accumulate"};
    case Precision::F16_F16:
      return {2, 2, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, CUBLAS_DEFAULT_MATH, true,
              "cuBLAS GemmEx fp16 in, fp16 accumulate"};
    case Precision::TF32:
      return {4, 4, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_DEFAULT_MATH, false,
              "cuBLAS GemmEx TF32"};
  }
  throw std::invalid_argument("unknown precision");
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

constexpr size_t kAlign = 256;  // wmma and vector loads want aligned rows; cudaMalloc gives 256
size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// ---- device memory -------------------------------------------------------------------------

// Grow-only: a session reuses its buffers across calls and frees them when it is destroyed.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  void* get(size_t bytes) {
    if (bytes > cap_) {
      release();
      GS_CUDA(cudaMalloc(&p_, bytes));
      cap_ = bytes;
    }
    return p_;
  }
  void release() {
    if (p_) cudaFree(p_);  // a destructor has no one to report a failure to
    p_ = nullptr;
    cap_ = 0;
  }

 private:
  void* p_ = nullptr;
  size_t cap_ = 0;
};

// One GEMM problem laid out in the session's buffers: `sets` copies of (A, B, C) so timed launches
// can rotate among them, set 0 being the one verified; C0 holds the initial C when beta != 0.
struct Problem {
  Precision precision;
  Dtype t;
  GemmShape s;
  float alpha = 1, beta = 0;
  int sets = 1;
  size_t a_bytes = 0, b_bytes = 0, c_bytes = 0, stride = 0;
  char* base = nullptr;
  void* c0 = nullptr;

  void* a(int i) const { return base + static_cast<size_t>(i) * stride; }
  void* b(int i) const { return base + static_cast<size_t>(i) * stride + aligned(a_bytes); }
  void* c(int i) const { return base + static_cast<size_t>(i) * stride + aligned(a_bytes) + aligned(b_bytes); }
  RawArgs args(int i) const {
    RawArgs r;
    r.m = s.m;
    r.n = s.n;
    r.k = s.k;
    r.a = a(i);
    r.b = b(i);
    r.c = c(i);
    r.alpha = alpha;
    r.beta = beta;
    return r;
  }
};

struct Timing {
  double median_ms = 0;
  std::vector<double> samples_ms;
};

// A launch to verify: the kernel with one probe or the other, or nothing (test hook).
using Launch = std::function<cudaError_t(const RawArgs&)>;

constexpr uint32_t kStageSampleBlocks = 16;  // about this many blocks stamp stages in a trace
constexpr uint32_t kSmemIterations = 2;      // k-iterations whose shared-memory addresses are traced
constexpr int kMinRepeats = 10;              // DESIGN.md: median of at least 10

// NVIDIA driver version through NVML, loaded at run time so the binary needs no NVML to start;
// empty when the library or the call is missing. The signatures are NVML's documented C API.
std::string nvml_driver_version() {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return "";
  using InitFn = int (*)();                   // nvmlReturn_t nvmlInit_v2(void)
  using VersionFn = int (*)(char*, unsigned);  // nvmlSystemGetDriverVersion(char*, unsigned)
  using ShutdownFn = int (*)();
  const auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
  const auto version = reinterpret_cast<VersionFn>(dlsym(lib, "nvmlSystemGetDriverVersion"));
  const auto shutdown = reinterpret_cast<ShutdownFn>(dlsym(lib, "nvmlShutdown"));
  std::string v;
  if (init && version && init() == 0) {  // NVML_SUCCESS
    char buf[96] = {};
    if (version(buf, sizeof buf) == 0) v = buf;
    if (shutdown) shutdown();
  }
  dlclose(lib);
  return v;
}

std::string version_string(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// The architectures this file's kernels were compiled for, as nvcc lists them (900 for sm_90).
#ifdef __CUDA_ARCH_LIST__
constexpr int kBuiltArchs[] = {__CUDA_ARCH_LIST__};
#else
constexpr int kBuiltArchs[] = {0};
#endif

std::string built_archs() {
  std::string s;
  for (int a : kBuiltArchs) s += (s.empty() ? "sm_" : ", sm_") + std::to_string(a / 10);
  return s;
}

// ---- the session ---------------------------------------------------------------------------

class CudaSession final : public GpuSession {
 public:
  CudaSession(int device, DeviceInfo info) : device_(device), info_(std::move(info)) {
    try {
      GS_CUDA(cudaSetDevice(device_));
      GS_CUDA(cudaDeviceGetAttribute(&l2_bytes_, cudaDevAttrL2CacheSize, device_));
      GS_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      GS_CUBLAS(detail::cublas().create(&blas_));
      GS_CUBLAS(detail::cublas().set_stream(blas_, stream_));
    } catch (...) {
      destroy();
      throw;
    }
  }
  ~CudaSession() override { destroy(); }

  DeviceInfo device() const override { return info_; }

  RunResult run(const KernelInfo& k, Precision p, GemmShape s, const RunOptions& opt) override {
    RunResult r = start(k, p, s);
    try {
      const PrecisionLaunch* l = resolve(k, p, s, &r);
      if (!l) return r;
      GS_CUDA(cudaSetDevice(device_));  // the calling thread's device may have changed since open()
      const int repeats = std::max(opt.repeats, kMinRepeats);
      Problem pr = prepare(p, s, opt, opt.time ? rotation_sets(p, s) : 1);
      const Launch plain = [&](const RawArgs& a) { return l->plain(a, stream_); };
      verify(pr, plain, &r);
      if (!r.ok || !opt.time) return r;

      const auto kernel = [&](int i) { launch_or_throw(plain, pr, i % pr.sets, k.name); };
      Timing kt, ct;
      if (opt.pair_cublas) {
        const std::vector<Timing> t = time_interleaved(
            opt.warmup, repeats, {kernel, [&](int i) { cublas_gemm(pr, i % pr.sets, pr.c(i % pr.sets)); }});
        kt = t[0];
        ct = t[1];
      } else {
        kt = time_launches(opt.warmup, repeats, kernel);
        ct = cublas_timing(pr, opt.warmup, repeats);
      }
      r.median_ms = kt.median_ms;
      r.samples_ms = kt.samples_ms;
      r.tflops = s.flops() / kt.median_ms / 1e9;
      r.cublas_ms = ct.median_ms;
      r.cublas_samples_ms = ct.samples_ms;
      r.cublas_tflops = s.flops() / ct.median_ms / 1e9;
      r.cublas_paired = opt.pair_cublas;
    } catch (const std::exception& e) {
      r.ok = false;
      r.error = e.what();
    }
    return r;
  }

  TraceResult trace(const KernelInfo& k, Precision p, GemmShape s) override {
    TraceResult t;
    t.run = start(k, p, s);
    try {
      const Rung* rung = detail::find_rung(k.name);
      const PrecisionLaunch* l = resolve(k, p, s, &t.run);
      if (!l) return t;
      GS_CUDA(cudaSetDevice(device_));
      Problem pr = prepare(p, s, RunOptions{}, 1);
      // Addresses from a TraceProbe launch; block records and stage stamps from a StampProbe launch, which runs
      // near the timed kernel's speed (the address probes slow every block, bench/NOTES.md).
      const TraceProbe probe = make_probe<TraceProbe>(k, s);
      verify(pr, [&](const RawArgs& a) { return l->traced(a, probe, stream_); }, &t.run);
      decode_smem(*rung, k.name, &t);
      decode_gmem(pr, k.name, &t);
      RunResult stamped = t.run;
      const StampProbe stamp = make_probe<StampProbe>(k, s);
      verify(pr, [&](const RawArgs& a) { return l->stamped(a, stamp, stream_); }, &stamped);
      if (t.run.ok && !stamped.ok) {
        t.run.ok = false;
        t.run.error = "with StampProbe: " + stamped.error;
      }
      decode_stamps(*rung, k.name, &t);
    } catch (const std::exception& e) {
      t.run.ok = false;
      t.run.error = e.what();
    }
    return t;
  }

  std::vector<FragmentLayout> trace_layouts(std::string* error) override {
    // The probe kernels (layout_probe.cu) run on the current device and report their own failures.
    std::string why;
    const cudaError_t set = cudaSetDevice(device_);
    std::vector<FragmentLayout> layouts;
    if (set != cudaSuccess) {
      why = std::string("cudaSetDevice: ") + cudaGetErrorString(set);
    } else {
      layouts = trace_fragment_layouts(&why);
    }
    if (error) *error = why;
    return layouts;
  }

  std::vector<Peak> measure_peaks(std::string* error) override {
    std::vector<Peak> peaks;
    if (error) error->clear();
    try {
      GS_CUDA(cudaSetDevice(device_));
      const GemmShape s{4096, 4096, 4096};
      const std::pair<Precision, const char*> gemms[] = {
          {Precision::F32, "fp32"}, {Precision::F16_F32, "tensor_f16_f32"}, {Precision::TF32, "tf32"}};
      for (const auto& [p, name] : gemms) {
        RunOptions opt;
        Problem pr = prepare(p, s, opt, rotation_sets(p, s));
        const Timing t = cublas_timing(pr, opt.warmup, kMinRepeats);
        peaks.push_back({name, s.flops() / t.median_ms / 1e9, "TFLOP/s",
                         std::string("measured here: ") + pr.t.cublas_label + " 4096^3, median of " +
                             std::to_string(t.samples_ms.size())});
      }
      peaks.push_back(copy_peak());
      std::string why;
      for (const Peak& p : measure_ceilings(info_.sm_count, l2_bytes_, &why)) peaks.push_back(p);
      if (!why.empty()) throw CudaFailure(why);
    } catch (const std::exception& e) {
      // What was measured before the failure stands.
      if (error) *error = e.what();
    }
    return peaks;
  }

  std::string fault_drill(const std::string& kind) override {
    try {
      GS_CUDA(cudaSetDevice(device_));
      return detail::launch_fault_drill(kind, stream_);
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  std::string sticky_error() override {
    if (cudaSetDevice(device_) != cudaSuccess) cudaGetLastError();
    return detail::sticky_cuda_error();
  }

  // ---- test hooks (kernels/testing.h) ----

  std::string compare_probes(const KernelInfo& k, Precision p, GemmShape s, const RunOptions& opt) {
    RunResult r = start(k, p, s);
    const PrecisionLaunch* l = resolve(k, p, s, &r);
    if (!l) return "cannot run: " + r.error;
    GS_CUDA(cudaSetDevice(device_));
    Problem pr = prepare(p, s, opt, 1);
    const std::vector<unsigned char> plain =
        output_of(pr, [&](const RawArgs& a) { return l->plain(a, stream_); }, k);
    const size_t es = pr.t.out_size;
    const auto differs = [&](const std::vector<unsigned char>& probed, const char* probe) -> std::string {
      size_t differ = 0, first = 0;
      for (size_t i = 0; i < plain.size(); i += es) {
        if (std::memcmp(&plain[i], &probed[i], es) != 0 && differ++ == 0) first = i / es;
      }
      if (differ == 0) return "";
      return std::string(probe) + ": " + std::to_string(differ) + " of " + std::to_string(plain.size() / es) +
             " elements differ, first at (" + std::to_string(first / s.n) + ", " + std::to_string(first % s.n) + ")";
    };
    const TraceProbe probe = make_probe<TraceProbe>(k, s);
    std::string why = differs(output_of(pr, [&](const RawArgs& a) { return l->traced(a, probe, stream_); }, k),
                              "TraceProbe");
    if (why.empty()) {
      const StampProbe stamp = make_probe<StampProbe>(k, s);
      why = differs(output_of(pr, [&](const RawArgs& a) { return l->stamped(a, stamp, stream_); }, k), "StampProbe");
    }
    return why;
  }

  RunResult verify_unwritten(Precision p, GemmShape s) {
    RunResult r;
    r.kernel = "(nothing launched)";
    r.precision = p;
    r.shape = s;
    try {
      GS_CUDA(cudaSetDevice(device_));
      Problem pr = prepare(p, s, RunOptions{}, 1);
      verify(pr, nullptr, &r);
    } catch (const std::exception& e) {
      r.ok = false;
      r.error = e.what();
    }
    return r;
  }

 private:
  // Statuses here go unchecked on purpose: a destructor has no one to report them to.
  void destroy() {
    cudaSetDevice(device_);  // cuBLAS wants its own device current when destroyed
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
    events_.clear();
    if (blas_) detail::cublas().destroy(blas_);
    blas_ = nullptr;
    if (stream_) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }

  static RunResult start(const KernelInfo& k, Precision p, GemmShape s) {
    RunResult r;
    r.kernel = k.name;
    r.precision = p;
    r.shape = s;
    return r;
  }

  // The rung's launcher for p, or nullptr with r->error (and r->skipped for a shape the rung refuses).
  static const PrecisionLaunch* resolve(const KernelInfo& k, Precision p, GemmShape s, RunResult* r) {
    const Rung* rung = detail::find_rung(k.name);
    if (!rung) {
      r->error = "unknown kernel '" + k.name + "'";
      return nullptr;
    }
    const PrecisionLaunch* l = detail::find_launch(*rung, p);
    if (!l) {
      std::string has;
      for (Precision q : rung->info.precisions) has += (has.empty() ? "" : ", ") + std::string(precision_name(q));
      r->error = k.name + " has no " + precision_name(p) + " variant (it has " + has + ")";
      return nullptr;
    }
    if (s.m <= 0 || s.n <= 0 || s.k <= 0) {
      r->error = "shape " + shape_text(s) + ": M, N and K must be positive";
      return nullptr;
    }
    if (!rung->supports(s.m, s.n, s.k)) {
      r->skipped = true;  // never launched
      r->error = k.name + ": " + rung->info.shape_rule + " (got " + shape_text(s) + ")";
      return nullptr;
    }
    if (const char* why = rung->unavailable ? rung->unavailable() : nullptr) {
      r->error = k.name + ": " + why;
      return nullptr;
    }
    return l;
  }

  // Enough input sets that together they exceed twice the L2 (capped at 16), so each timed launch
  // finds its inputs mostly evicted; one set when a single set is already larger than the L2.
  int rotation_sets(Precision p, GemmShape s) const {
    const Dtype t = dtype_of(p);
    const size_t set = aligned(static_cast<size_t>(s.m) * s.k * t.in_size) +
                       aligned(static_cast<size_t>(s.k) * s.n * t.in_size) +
                       aligned(static_cast<size_t>(s.m) * s.n * t.out_size);
    const size_t l2 = static_cast<size_t>(std::max(l2_bytes_, 0));
    if (set >= l2) return 1;
    return static_cast<int>(std::min<size_t>(16, 2 * l2 / set + 1));
  }

  // Blocks for a grid-stride loop over n elements: enough to fill the GPU, no more.
  int grid_for(size_t n, int threads, int blocks_per_sm) const {
    const size_t want = (n + threads - 1) / threads;
    const size_t cap = static_cast<size_t>(blocks_per_sm) * static_cast<size_t>(std::max(info_.sm_count, 1));
    return static_cast<int>(std::max<size_t>(1, std::min(want, cap)));
  }

  template <class T>
  void fill(void* p, size_t count, uint64_t seed) {
    const int threads = 256;
    fill_uniform<T><<<grid_for(count, threads, 16), threads, 0, stream_>>>(static_cast<T*>(p), count, seed);
    GS_CUDA(cudaGetLastError());
  }

  void fill_as(size_t elem_size, void* p, size_t count, uint64_t seed) {
    if (elem_size == 2) {
      fill<__half>(p, count, seed);
    } else {
      fill<float>(p, count, seed);
    }
  }

  // Allocates (grow-only) and fills `sets` input sets from a seed no earlier call used.
  Problem prepare(Precision p, GemmShape s, const RunOptions& opt, int sets) {
    Problem pr;
    pr.precision = p;
    pr.t = dtype_of(p);
    pr.s = s;
    pr.alpha = opt.alpha;
    pr.beta = opt.beta;
    pr.sets = sets;
    pr.a_bytes = static_cast<size_t>(s.m) * s.k * pr.t.in_size;
    pr.b_bytes = static_cast<size_t>(s.k) * s.n * pr.t.in_size;
    pr.c_bytes = static_cast<size_t>(s.m) * s.n * pr.t.out_size;
    pr.stride = aligned(pr.a_bytes) + aligned(pr.b_bytes) + aligned(pr.c_bytes);
    pr.base = static_cast<char*>(sets_.get(pr.stride * static_cast<size_t>(sets)));
    pr.c0 = c0_.get(pr.c_bytes);

    const uint64_t call_seed = splitmix64(opt.seed ^ splitmix64(++calls_));  // fresh per call
    auto seed = [&](int set, int role) { return splitmix64(call_seed + static_cast<uint64_t>(set) * 4 + role); };
    for (int i = 0; i < sets; ++i) {
      fill_as(pr.t.in_size, pr.a(i), static_cast<size_t>(s.m) * s.k, seed(i, 0));
      fill_as(pr.t.in_size, pr.b(i), static_cast<size_t>(s.k) * s.n, seed(i, 1));
      // With beta != 0 the kernels read C: random like the inputs (set 0's is copied from C0 below).
      if (pr.beta != 0.0f && i > 0) fill_as(pr.t.out_size, pr.c(i), static_cast<size_t>(s.m) * s.n, seed(i, 2));
    }
    if (pr.beta != 0.0f) fill_as(pr.t.out_size, pr.c0, static_cast<size_t>(s.m) * s.n, seed(0, 2));
    return pr;
  }

  // C as the kernel must find it before its launch: NaN poison when beta == 0 (so an element left
  // unwritten, or read, fails), the shared random C0 otherwise.
  void reset_output(const Problem& pr, void* c) {
    if (pr.beta == 0.0f) {
      GS_CUDA(cudaMemsetAsync(c, 0xFF, pr.c_bytes, stream_));  // all-ones bytes: NaN in fp32 and fp16
    } else {
      GS_CUDA(cudaMemcpyAsync(c, pr.c0, pr.c_bytes, cudaMemcpyDeviceToDevice, stream_));
    }
  }

  // Launch-time errors (bad configuration, no image) come back from the launcher; faults inside
  // the kernel surface at the next synchronisation.
  static void launch_or_throw(const Launch& launch, const Problem& pr, int set, const std::string& kernel) {
    const cudaError_t e = launch(pr.args(set));
    if (e != cudaSuccess) {
      throw CudaFailure("launching " + kernel + " " + precision_name(pr.precision) + " at " + shape_text(pr.s) +
                        ": " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")");
    }
  }

  void cublas_gemm(const Problem& pr, int set, void* c) {
    const Dtype& t = pr.t;
    GS_CUBLAS(detail::cublas().set_math_mode(blas_, t.math));
    const __half ha = __float2half(pr.alpha), hb = __float2half(pr.beta);
    const void* alpha = t.half_scalars ? static_cast<const void*>(&ha) : &pr.alpha;
    const void* beta = t.half_scalars ? static_cast<const void*>(&hb) : &pr.beta;
    // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS sees B (n x k, ld n) times A (k x m, ld k).
    GS_CUBLAS(detail::cublas().gemm_ex(blas_, CUBLAS_OP_N, CUBLAS_OP_N, pr.s.n, pr.s.m, pr.s.k, alpha, pr.b(set), t.in_type,
                           pr.s.n, pr.a(set), t.in_type, pr.s.k, beta, c, t.out_type, pr.s.n, t.compute,
                           CUBLAS_GEMM_DEFAULT));
  }

  // Launches (unless `launch` is empty) on set 0, computes cuBLAS's answer on the same inputs into
  // Cref, and fills r's ok, rel_err and error.
  void verify(const Problem& pr, const Launch& launch, RunResult* r) {
    void* cref = cref_.get(pr.c_bytes);
    reset_output(pr, pr.c(0));
    reset_output(pr, cref);
    if (launch) launch_or_throw(launch, pr, 0, r->kernel);
    cublas_gemm(pr, 0, cref);

    auto* sums = static_cast<ErrorSums*>(sums_.get(sizeof(ErrorSums)));
    GS_CUDA(cudaMemsetAsync(sums, 0, sizeof(ErrorSums), stream_));
    const size_t n = static_cast<size_t>(pr.s.m) * pr.s.n;
    const int threads = 256, blocks = grid_for(n, threads, 8);
    if (pr.t.out_size == 2) {
      error_sums<__half><<<blocks, threads, 0, stream_>>>(static_cast<const __half*>(pr.c(0)),
                                                          static_cast<const __half*>(cref), n, sums);
    } else {
      error_sums<float><<<blocks, threads, 0, stream_>>>(static_cast<const float*>(pr.c(0)),
                                                         static_cast<const float*>(cref), n, sums);
    }
    GS_CUDA(cudaGetLastError());
    ErrorSums h{};
    GS_CUDA(cudaMemcpyAsync(&h, sums, sizeof h, cudaMemcpyDeviceToHost, stream_));
    GS_CUDA(cudaStreamSynchronize(stream_));  // also where a fault inside the kernel surfaces

    const double bound = error_bound(pr.precision);
    if (h.bad_ref > 0) {
      r->rel_err = std::nan("");
      r->error = "the cuBLAS reference has " + std::to_string(h.bad_ref) + " non-finite outputs";
    } else if (h.bad_out > 0) {
      r->rel_err = std::nan("");
      r->error = std::to_string(h.bad_out) + " of " + std::to_string(n) +
                 " outputs are NaN or Inf (C is poisoned with NaN before the launch: never written, or read "
                 "although beta == 0)";
    } else {
      r->rel_err = h.ref2 > 0 ? std::sqrt(h.diff2 / h.ref2) : (h.diff2 > 0 ? INFINITY : 0.0);
      if (!(r->rel_err < bound)) {
        r->error = "relative error " + sci(r->rel_err) + " against cuBLAS is not below the " +
                   precision_name(pr.precision) + " bound " + sci(bound);
      }
    }
    r->ok = r->error.empty();
  }

  // warmup untimed launches, then `repeats` launches each between its own pair of events.
  Timing time_launches(int warmup, int repeats, const std::function<void(int)>& launch) {
    return time_interleaved(warmup, repeats, {launch}).front();
  }

  // Several launch sequences timed in one loop, each launch between its own pair of events. Two alternate a b,
  // then b a, and so on (ABBA), so that neither always runs first after the other or on a cooler card; warm-ups
  // go a b each.
  std::vector<Timing> time_interleaved(int warmup, int repeats, const std::vector<std::function<void(int)>>& seqs) {
    const size_t n = seqs.size();
    while (events_.size() < 2 * n * static_cast<size_t>(repeats)) {
      cudaEvent_t e = nullptr;
      GS_CUDA(cudaEventCreate(&e));
      events_.push_back(e);
    }
    for (int i = 0; i < warmup; ++i)
      for (const auto& launch : seqs) launch(i);
    for (int i = 0; i < repeats; ++i)
      for (size_t j = 0; j < n; ++j) {
        const size_t q = i % 2 ? n - 1 - j : j;  // which sequence: in order, then backwards
        const size_t e = 2 * (n * static_cast<size_t>(i) + q);
        GS_CUDA(cudaEventRecord(events_[e], stream_));
        seqs[q](warmup + i);
        GS_CUDA(cudaEventRecord(events_[e + 1], stream_));
      }
    GS_CUDA(cudaStreamSynchronize(stream_));
    std::vector<Timing> t(n);
    for (int i = 0; i < repeats; ++i)
      for (size_t q = 0; q < n; ++q) {
        float ms = 0;
        const size_t e = 2 * (n * static_cast<size_t>(i) + q);
        GS_CUDA(cudaEventElapsedTime(&ms, events_[e], events_[e + 1]));
        t[q].samples_ms.push_back(ms);
      }
    for (Timing& x : t) x.median_ms = median(x.samples_ms);
    return t;
  }

  // cuBLAS on the problem's own input sets, timed once per (precision, shape, beta == 0) per session.
  Timing cublas_timing(const Problem& pr, int warmup, int repeats) {
    const auto key = std::make_tuple(static_cast<int>(pr.precision), pr.s.m, pr.s.n, pr.s.k, pr.beta == 0.0f);
    const auto hit = cublas_cache_.find(key);
    if (hit != cublas_cache_.end()) return hit->second;
    const Timing t = time_launches(warmup, repeats, [&](int i) { cublas_gemm(pr, i % pr.sets, pr.c(i % pr.sets)); });
    cublas_cache_[key] = t;
    return t;
  }

  // Device-to-device copy: DRAM bandwidth counting the read and the write.
  Peak copy_peak() {
    size_t free_bytes = 0, total = 0;
    GS_CUDA(cudaMemGetInfo(&free_bytes, &total));
    const size_t bytes = std::min<size_t>(1ull << 30, free_bytes / 4) / kAlign * kAlign;
    DeviceBuffer src, dst;
    void* s = src.get(bytes);
    void* d = dst.get(bytes);
    GS_CUDA(cudaMemsetAsync(s, 0x3C, bytes, stream_));
    const Timing t = time_launches(3, kMinRepeats, [&](int) {
      GS_CUDA(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, stream_));
    });
    char what[160];
    std::snprintf(what, sizeof what,
                  "measured here: device-to-device cudaMemcpyAsync of %.2f GiB (read + write), median of %zu",
                  bytes / double(1ull << 30), t.samples_ms.size());
    return {"dram", 2.0 * bytes / (t.median_ms * 1e-3) / 1e12, "TB/s", what};
  }

  template <class Probe>
  Probe make_probe(const KernelInfo& k, GemmShape s) {
    auto* buf = static_cast<trace::TraceBuffer*>(trace_.get(sizeof(trace::TraceBuffer)));
    // Counters and block records start at zero; smem records are read only up to their counter. Stage slots are
    // reserved kStageChunk at a time, so those reserved but never written must say so: all-ones, stage 0xFFFF.
    GS_CUDA(cudaMemsetAsync(buf, 0, offsetof(trace::TraceBuffer, stages), stream_));
    GS_CUDA(cudaMemsetAsync(reinterpret_cast<char*>(buf) + offsetof(trace::TraceBuffer, stages), 0xFF,
                            sizeof(trace::StageRec) * trace::kMaxStages, stream_));
    const uint64_t blocks = expected_blocks(k, s);
    Probe probe;
    probe.buf = buf;
    probe.stage_block_stride = static_cast<uint32_t>(std::max<uint64_t>(1, blocks / kStageSampleBlocks));
    probe.smem_block = 0;
    probe.smem_iterations = kSmemIterations;
    return probe;
  }

  static uint64_t expected_blocks(const KernelInfo& k, GemmShape s) {
    if (k.block_m <= 0 || k.block_n <= 0) return 1;
    return static_cast<uint64_t>((s.m + k.block_m - 1) / k.block_m) * ((s.n + k.block_n - 1) / k.block_n);
  }

  template <class T>
  std::vector<T> download(size_t offset, size_t count) {
    std::vector<T> v(count);
    if (count == 0) return v;
    const char* src = static_cast<const char*>(trace_.get(sizeof(trace::TraceBuffer))) + offset;
    GS_CUDA(cudaMemcpyAsync(v.data(), src, count * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    GS_CUDA(cudaStreamSynchronize(stream_));
    return v;
  }

  // Trace buffer -> core records. Times are made relative: block %globaltimer to the launch's first
  // block start, stage clock64 to the earliest stamp of the same block (clock64 is per SM).
  // Block records and stage stamps of the launch just made.
  void decode_stamps(const Rung& rung, const std::string& kernel, TraceResult* t) {
    using namespace trace;
    const Counters count = download<Counters>(offsetof(TraceBuffer, count), 1)[0];
    t->dropped_blocks = count.blocks_dropped;
    t->dropped_stages = count.stages_dropped;

    const std::vector<BlockRec> blocks = download<BlockRec>(offsetof(TraceBuffer, blocks), kMaxBlocks);
    uint64_t t0 = UINT64_MAX;
    for (const BlockRec& b : blocks) {
      if (b.written) t0 = std::min<uint64_t>(t0, ~b.start_inv);
    }
    for (uint32_t i = 0; i < kMaxBlocks; ++i) {
      const BlockRec& b = blocks[i];
      if (!b.written) continue;
      BlockRecord r;
      r.kernel = kernel;
      r.launch = static_cast<int>(i);
      r.bx = static_cast<int>(b.bx);
      r.by = static_cast<int>(b.by);
      r.tile_m = b.tile_m;
      r.tile_n = b.tile_n;
      r.smid = static_cast<int>(b.smid);
      r.start_ns = ~b.start_inv - t0;
      r.end_ns = b.end >= ~b.start_inv ? b.end - t0 : r.start_ns;  // end is 0 if no warp reached block_end
      t->blocks.push_back(r);
    }

    const std::vector<StageRec> stages =
        download<StageRec>(offsetof(TraceBuffer, stages), std::min(count.stages, kMaxStages));
    std::map<uint32_t, uint64_t> block_t0;
    for (const StageRec& s : stages) {
      if (s.stage == kUnusedStage) continue;
      auto [it, fresh] = block_t0.emplace(s.block, s.start);
      if (!fresh) it->second = std::min<uint64_t>(it->second, s.start);
    }
    for (const StageRec& s : stages) {
      if (s.stage == kUnusedStage) continue;  // reserved in a warp's last chunk, never written
      StageRecord r;
      r.kernel = kernel;
      r.block = static_cast<int>(s.block);
      r.warp = s.warp;
      const unsigned mark = s.stage & ~unsigned{kMarkBit};
      if (s.stage & kMarkBit)
        r.stage = std::string(kMarkPrefix) + (mark < std::size(kMarkNames) ? kMarkNames[mark] : "?");
      else
        r.stage = s.stage < rung.stages.size() ? rung.stages[s.stage] : "stage " + std::to_string(s.stage);
      r.start = s.start - block_t0[s.block];
      r.end = s.end - block_t0[s.block];
      t->stages.push_back(r);
    }
    std::stable_sort(t->stages.begin(), t->stages.end(), [](const StageRecord& a, const StageRecord& b) {
      return std::tie(a.block, a.warp, a.start) < std::tie(b.block, b.warp, b.start);
    });
  }

  // Shared-memory records of the launch just made (a TraceProbe one).
  void decode_smem(const Rung& rung, const std::string& kernel, TraceResult* t) {
    using namespace trace;
    const Counters count = download<Counters>(offsetof(TraceBuffer, count), 1)[0];
    t->dropped_smem = count.smem > kMaxSmem ? count.smem - kMaxSmem : 0;
    const std::vector<SmemRec> smem = download<SmemRec>(offsetof(TraceBuffer, smem), std::min(count.smem, kMaxSmem));
    static const char* const kKinds[] = {"load", "store", "ldmatrix", "cp.async"};
    for (const SmemRec& s : smem) {
      SmemAccess a;
      a.kernel = kernel;
      a.site = s.site < rung.smem_sites.size() ? rung.smem_sites[s.site] : "site " + std::to_string(s.site);
      a.warp = s.warp;
      a.iteration = s.iteration == kEpilogueIteration ? -1 : s.iteration;
      a.kind = s.kind < 4 ? kKinds[s.kind] : "?";
      a.width = s.width;
      for (int lane = 0; lane < 32; ++lane) {
        if (s.mask >> lane & 1u) a.addr[lane] = s.addr[lane];
      }
      t->smem.push_back(a);
    }
    // Records of one warp were appended in its program order; keep that order within (iteration, warp), the
    // epilogue (-1) after the k-iterations.
    auto order = [](const SmemAccess& a) { return std::make_pair(a.iteration < 0 ? INT_MAX : a.iteration, a.warp); };
    std::stable_sort(t->smem.begin(), t->smem.end(),
                     [&](const SmemAccess& a, const SmemAccess& b) { return order(a) < order(b); });
  }

  // Global records -> core records: each lane's address as the matrix (A, B, C of input set 0, the one
  // verify() launched on) and the byte offset into it.
  void decode_gmem(const Problem& pr, const std::string& kernel, TraceResult* t) {
    using namespace trace;
    const Counters count = download<Counters>(offsetof(TraceBuffer, count), 1)[0];
    t->dropped_gmem = count.gmem > kMaxGmem ? count.gmem - kMaxGmem : 0;
    const std::vector<GmemRec> recs = download<GmemRec>(offsetof(TraceBuffer, gmem), std::min(count.gmem, kMaxGmem));
    const struct {
      char name;
      uintptr_t base;
      size_t bytes;
    } mats[] = {{'A', reinterpret_cast<uintptr_t>(pr.a(0)), pr.a_bytes},
                {'B', reinterpret_cast<uintptr_t>(pr.b(0)), pr.b_bytes},
                {'C', reinterpret_cast<uintptr_t>(pr.c(0)), pr.c_bytes}};
    static const char* const kKinds[] = {"load", "store", "cp.async"};
    for (const GmemRec& g : recs) {
      GmemAccess a;
      a.kernel = kernel;
      a.site = g.site < std::size(kGmemSiteNames) ? kGmemSiteNames[g.site] : "site " + std::to_string(g.site);
      a.warp = g.warp;
      a.iteration = g.iteration == kEpilogueIteration ? -1 : g.iteration;
      a.kind = g.kind < 3 ? kKinds[g.kind] : "?";
      a.width = g.width;
      // The matrix is the one the first active lane's address falls in; a lane outside it gets its offset
      // from the same base (a test checks that none does).
      a.matrix = '?';
      uintptr_t base = 0;
      const int first = g.mask ? __builtin_ctz(g.mask) : 0;
      for (const auto& m : mats) {
        if (g.addr[first] >= m.base && g.addr[first] < m.base + m.bytes) {
          a.matrix = m.name;
          base = m.base;
        }
      }
      for (int lane = 0; lane < 32; ++lane) {
        if (g.mask >> lane & 1u)
          a.offset[lane] = static_cast<int64_t>(g.addr[lane]) - static_cast<int64_t>(base);
      }
      t->gmem.push_back(a);
    }
    // A warp's records were appended in its program order; group them by warp, keeping that order.
    std::stable_sort(t->gmem.begin(), t->gmem.end(),
                     [](const GmemAccess& a, const GmemAccess& b) { return a.warp < b.warp; });
  }

  std::vector<unsigned char> output_of(const Problem& pr, const Launch& launch, const KernelInfo& k) {
    reset_output(pr, pr.c(0));
    launch_or_throw(launch, pr, 0, k.name);
    std::vector<unsigned char> out(pr.c_bytes);
    GS_CUDA(cudaMemcpyAsync(out.data(), pr.c(0), pr.c_bytes, cudaMemcpyDeviceToHost, stream_));
    GS_CUDA(cudaStreamSynchronize(stream_));
    return out;
  }

  int device_ = 0;
  DeviceInfo info_;
  int l2_bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  DeviceBuffer sets_, c0_, cref_, sums_, trace_;
  std::vector<cudaEvent_t> events_;
  std::map<std::tuple<int, int, int, int, bool>, Timing> cublas_cache_;
  uint64_t calls_ = 0;
};

CudaSession* as_cuda(GpuSession& gpu) {
  auto* s = dynamic_cast<CudaSession*>(&gpu);
  if (!s) throw std::invalid_argument("not a CUDA session");
  return s;
}

}  // namespace

int cuda_device_count(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaSuccess && n > 0) {
    if (why) why->clear();
    return n;
  }
  if (why) {
    const int runtime = CUDART_VERSION;  // cudart is linked statically: this is the runtime in use
    if (e == cudaSuccess || e == cudaErrorNoDevice) {
      *why = "the NVIDIA driver sees no CUDA-capable GPU";
    } else if (e == cudaErrorInsufficientDriver) {
      // The driver's own CUDA version tells a missing driver (0: libcuda.so.1 not found) from an old one.
      int driver = 0;
      cudaDriverGetVersion(&driver);
      *why = driver == 0 ? "no NVIDIA driver is loaded (libcuda.so.1 not found)"
                         : "the NVIDIA driver supports CUDA " + version_string(driver) + ", older than the CUDA " +
                               version_string(runtime) + " this build needs; update the driver";
    } else {
      *why = std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
    }
  }
  return 0;
}

std::unique_ptr<GpuSession> GpuSession::open(int device, std::string* error) {
  auto fail = [&](const std::string& why) -> std::unique_ptr<GpuSession> {
    if (error) *error = why;
    return nullptr;
  };
  try {
    std::string why;
    const int n = cuda_device_count(&why);
    if (n == 0) return fail("no CUDA device: " + why);
    if (device < 0 || device >= n) {
      return fail("CUDA device " + std::to_string(device) + " is out of range: this machine has " + std::to_string(n) +
                  " (0.." + std::to_string(n - 1) + ")");
    }
    DeviceInfo info;
    cudaDeviceProp prop{};
    GS_CUDA(cudaGetDeviceProperties(&prop, device));
    info.name = prop.name;
    auto attr = [&](cudaDeviceAttr a) {
      int v = 0;
      GS_CUDA(cudaDeviceGetAttribute(&v, a, device));
      return v;
    };
    info.cc_major = attr(cudaDevAttrComputeCapabilityMajor);
    info.cc_minor = attr(cudaDevAttrComputeCapabilityMinor);
    info.sm_count = attr(cudaDevAttrMultiProcessorCount);
    info.l2_bytes = attr(cudaDevAttrL2CacheSize);
    info.smem_per_sm_bytes = attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    info.sm_clock_mhz = attr(cudaDevAttrClockRate) / 1000;         // kHz
    info.mem_clock_mhz = attr(cudaDevAttrMemoryClockRate) / 1000;  // kHz
    int runtime = 0, driver = 0;
    GS_CUDA(cudaRuntimeGetVersion(&runtime));
    info.cuda_runtime = version_string(runtime);
    info.driver = nvml_driver_version();
    if (info.driver.empty()) {
      GS_CUDA(cudaDriverGetVersion(&driver));
      info.driver = "CUDA driver API " + version_string(driver);
    }

    // Kernels run on their own architecture or newer (through the PTX nvcc embeds); older is hopeless.
    const int cc = info.cc_major * 10 + info.cc_minor;
    const int oldest = *std::min_element(std::begin(kBuiltArchs), std::end(kBuiltArchs)) / 10;
    const std::string rebuild = "kernels were built for " + built_archs() + "; this GPU is sm_" + std::to_string(cc) +
                                ": rebuild with make CUDA_ARCHS=" + std::to_string(cc);
    if (oldest > 0 && cc < oldest) return fail(rebuild);
    GS_CUDA(cudaSetDevice(device));
    cudaFuncAttributes fa{};
    const cudaError_t loadable = cudaFuncGetAttributes(&fa, fill_uniform<float>);  // any kernel of this build
    if (loadable == cudaErrorNoKernelImageForDevice || loadable == cudaErrorInvalidDeviceFunction) {
      cudaGetLastError();  // clears the (non-sticky) error this probe just raised
      return fail(rebuild);
    }
    GS_CUDA(loadable);
    return std::make_unique<CudaSession>(device, std::move(info));
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

namespace test_hooks {

std::string compare_probe_outputs(GpuSession& gpu, const KernelInfo& k, Precision p, GemmShape s,
                                  const RunOptions& opt) {
  try {
    return as_cuda(gpu)->compare_probes(k, p, s, opt);
  } catch (const std::exception& e) {
    return e.what();
  }
}

RunResult verify_unwritten_output(GpuSession& gpu, Precision p, GemmShape s) {
  return as_cuda(gpu)->verify_unwritten(p, s);
}

}  // namespace test_hooks
}  // namespace gs
