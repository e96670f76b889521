// Ceiling of mma.sync on this GPU: warps that do nothing but independent mma from registers.
//   nvcc -O3 -arch=sm_90 -o mma_peak bench/mma_peak.cu && ./mma_peak
// Prints TFLOP/s of mma.sync m16n8k8 tf32 and m16n8k16 f16 (fp32 accumulate) for 1..4 warps per SM
// sub-partition (scheduler), each warp with kChains independent accumulator tiles in flight. The GEMM rungs
// run 2 warps per scheduler (8 per SM), so the 2-warp row is their roof. Used for bench/NOTES.md.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

constexpr int kChains = 16;  // independent accumulators per warp (a 64x64 warp tile has 32)

template <bool kTf32>
__global__ void mma_loop(int iters, float* sink) {
  uint32_t a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = 0x3f800000u + threadIdx.x * 7 + i;  // ~1.0, nonzero
  for (int i = 0; i < 2; ++i) b[i] = 0x3c003c00u + threadIdx.x;
  float d[kChains][4] = {};
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      if (kTf32) {
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      } else {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      }
    }
  }
  float s = 0;
  for (int c = 0; c < kChains; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  if (s == 12345.0f) sink[threadIdx.x] = s;  // keeps the loop alive
}

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
