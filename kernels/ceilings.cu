// Ceilings for the roofline (kernels/ceilings.h): what the memory hierarchy and the math pipes deliver
// when nothing else is in the way. Each kernel keeps its result alive through a sink store that never
// happens in practice, so the compiler cannot drop the work.
#include "kernels/ceilings.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "kernels/cuda_check.cuh"
#include "kernels/hopper/wgmma_loop.h"
#include "kernels/hopper/wgmma_probe.h"
#include "kernels/mma_loop.cuh"

namespace gs {
namespace {

constexpr int kWarpsPerSm = 8;  // 2 per scheduler: how the 64x64-warp-tile rungs run
constexpr int kChains = kMmaLoopChains;  // independent accumulators per warp

// Reads `n16` 16-byte words `passes` times, grid-striding, and folds them into one value per thread.
__global__ void l2_read(const uint4* __restrict__ p, size_t n16, int passes, unsigned* sink) {
  unsigned acc = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (int pass = 0; pass < passes; ++pass) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n16; i += stride) {
      const uint4 v = __ldcg(p + i);  // cache in L2 only: L1 would serve repeats and hide L2
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  }
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

__global__ void ffma_loop(int iters, float* sink) {
  float x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = 1.0f + 1e-7f * float(threadIdx.x + c);
  const float a = 0.999999f, b = 1e-7f;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = fmaf(x[c], a, b);
  }
  float s = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) s += x[c];
  if (s == 12345.0f) sink[threadIdx.x] = s;
}

// Median milliseconds of `runs` timed calls of `launch` after one warm-up.
template <class F>
float median_ms(F launch, int runs) {
  cudaEvent_t e0, e1;
  GS_CUDA(cudaEventCreate(&e0));
  GS_CUDA(cudaEventCreate(&e1));
  launch();
  GS_CUDA(cudaGetLastError());
  std::vector<float> ms;
  for (int i = 0; i < runs; ++i) {
    GS_CUDA(cudaEventRecord(e0));
    launch();
    GS_CUDA(cudaEventRecord(e1));
    GS_CUDA(cudaEventSynchronize(e1));
    GS_CUDA(cudaGetLastError());
    float t = 0;
    GS_CUDA(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

std::string fmt(const char* f, double a, double b = 0) {
  char s[200];
  std::snprintf(s, sizeof s, f, a, b);
  return s;
}

}  // namespace

std::vector<Peak> measure_ceilings(int sm_count, int l2_bytes, std::string* error) {
  std::vector<Peak> peaks;
  if (error) error->clear();
  constexpr int kRuns = 7;
  void* sink = nullptr;
  void* buf = nullptr;
  try {
    GS_CUDA(cudaMalloc(&sink, 4096));
    // L2: a buffer a quarter of L2 (Hopper's L2 is two partitions; a quarter stays resident in either), read
    // 40 times by 4 blocks of 1024 threads per SM.
    const size_t bytes = std::max<size_t>(1 << 20, size_t(l2_bytes) / 4) / 16 * 16;
    GS_CUDA(cudaMalloc(&buf, bytes));
    GS_CUDA(cudaMemset(buf, 0x5A, bytes));
    const int passes = 40;
    const float l2_ms = median_ms(
        [&] { l2_read<<<sm_count * 4, 1024>>>(static_cast<const uint4*>(buf), bytes / 16, passes, static_cast<unsigned*>(sink)); },
        kRuns);
    peaks.push_back({"l2", double(bytes) * passes / (l2_ms * 1e-3) / 1e12, "TB/s",
                     fmt("measured here: every SM reading a %.1f MiB buffer (a quarter of L2) %.0f times, 16-byte "
                         "ld.global.cg, median of 7",
                         bytes / double(1 << 20), passes)});
    // FFMA: 8 warps per SM, 16 independent chains each.
    const int ffma_iters = 1 << 16;
    const float ffma_ms = median_ms(
        [&] { ffma_loop<<<sm_count, kWarpsPerSm * 32>>>(ffma_iters, static_cast<float*>(sink)); }, kRuns);
    const double ffma_flops = 2.0 * kChains * ffma_iters * double(sm_count) * kWarpsPerSm * 32;
    peaks.push_back({"ffma", ffma_flops / (ffma_ms * 1e-3) / 1e12, "TFLOP/s",
                     "measured here: 8 warps per SM doing nothing but independent FFMA, median of 7"});
    const int mma_iters = 1 << 13;
    const float f16_ms = median_ms(
        [&] { mma_loop<false><<<sm_count, kWarpsPerSm * 32>>>(mma_iters, static_cast<float*>(sink)); }, kRuns);
    const double f16_flops = mma_loop_flops(false, sm_count, kWarpsPerSm, mma_iters);
    peaks.push_back({"mma_sync_f16", f16_flops / (f16_ms * 1e-3) / 1e12, "TFLOP/s",
                     "measured here: 8 warps per SM issuing independent mma.sync m16n8k16 f16 (fp32 accumulate) "
                     "from registers, median of 7"});
    const float tf32_ms = median_ms(
        [&] { mma_loop<true><<<sm_count, kWarpsPerSm * 32>>>(mma_iters, static_cast<float*>(sink)); }, kRuns);
    const double tf32_flops = mma_loop_flops(true, sm_count, kWarpsPerSm, mma_iters);
    peaks.push_back({"mma_sync_tf32", tf32_flops / (tf32_ms * 1e-3) / 1e12, "TFLOP/s",
                     "measured here: 8 warps per SM issuing independent mma.sync m16n8k8 tf32 from registers, "
                     "median of 7"});
    // wgmma, on the GPUs whose sm_90a image exists (H100, H200): the pipe cuBLAS's fp16 kernels and the hopper rungs
    // run on. 4000 k-tiles per warpgroup: about 2.2 ms at 1 PFLOP/s on 132 SMs, far past a launch's overhead.
    if (hopper::wgmma_probe_runs_here()) {  // compute capability 9.0: sm_90a code runs here
      const int wg_iters = 4000;
      const float wg_ms = median_ms(
          [&] { GS_CUDA(hopper::launch_wgmma_loop(sm_count, wg_iters, static_cast<float*>(sink))); }, kRuns);
      peaks.push_back({"wgmma_f16", hopper::wgmma_loop_flops(sm_count, wg_iters) / (wg_ms * 1e-3) / 1e12, "TFLOP/s",
                       "measured here: 2 warpgroups per SM issuing wgmma.m64n256k16 f16 (fp32 accumulate) from "
                       "128B-swizzled shared memory, one commit group in flight, median of 7"});
    }
  } catch (const std::exception& e) {
    if (error) *error = e.what();
  }
  if (buf) cudaFree(buf);
  if (sink) cudaFree(sink);
  return peaks;
}

}  // namespace gs
