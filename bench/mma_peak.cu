// Ceiling of mma.sync on this GPU: warps that do nothing but independent mma from registers.
//   nvcc -O3 -arch=sm_90 -I. -o mma_peak bench/mma_peak.cu && ./mma_peak   (from the repository root)
// Prints TFLOP/s of mma.sync m16n8k8 tf32 and m16n8k16 f16 (fp32 accumulate) for 1..4 warps per SM
// sub-partition (scheduler), each warp with kChains independent accumulator tiles in flight. The GEMM rungs
// run 2 warps per scheduler (8 per SM), so the 2-warp row is their roof. Used for bench/NOTES.md.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#include "kernels/mma_loop.cuh"

using gs::mma_loop;
constexpr int kChains = gs::kMmaLoopChains;

template <bool kTf32>
double run(int warps_per_sm, int sms) {
  const int iters = 4096;
  float* sink;
  cudaMalloc(&sink, 4096);
  mma_loop<kTf32><<<sms, warps_per_sm * 32>>>(16, sink);  // warm-up
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0);
  mma_loop<kTf32><<<sms, warps_per_sm * 32>>>(iters, sink);
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  cudaFree(sink);
  const double flops_per_mma = kTf32 ? 2.0 * 16 * 8 * 8 : 2.0 * 16 * 8 * 16;
  const double n = double(sms) * warps_per_sm * iters * kChains;
  if (cudaGetLastError() != cudaSuccess) return -1;
  return n * flops_per_mma / (ms * 1e-3) / 1e12;
}

int main() {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    std::fprintf(stderr, "mma_peak: no CUDA device\n");
    return 1;
  }
  std::printf("%s, %d SMs\nwarps/scheduler  tf32 m16n8k8 TFLOP/s  f16 m16n8k16 TFLOP/s\n", p.name,
              p.multiProcessorCount);
  for (int w = 1; w <= 4; ++w) {
    std::printf("%15d  %20.1f  %20.1f\n", w, run<true>(4 * w, p.multiProcessorCount),
                run<false>(4 * w, p.multiProcessorCount));
  }
  return 0;
}
