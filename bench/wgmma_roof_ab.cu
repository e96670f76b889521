// wgmma_roof_ab: the ceiling of Hopper's own tensor-core instruction, beside mma.sync's and cuBLAS's, under the same
// sustained load (issue 14: how far mma_f16's goal is from what mma.sync can do at all).
//
// bench/mma_roof_ab.cu bounds any mma.sync GEMM by a register-only mma.sync loop. cuBLAS on Hopper does not use
// mma.sync: its fp16 kernels issue wgmma, which reads A and B from shared memory through descriptors and keeps a 64 x N
// accumulator per warpgroup. Here a third contender, the wgmma loop the roofline's wgmma ceiling is measured with
// (kernels/hopper/wgmma_loop.cuh), runs wgmma.m64n256k16 f16 with fp32 accumulate from 128B-swizzled shared memory (2
// warpgroups per SM, one CTA per SM), one commit group in flight per warpgroup; nothing is loaded from global memory.
// The three alternate in rounds (the order rotates each round), each launch between its own events, so all meet the
// same clocks. Printed: each one's median TFLOP/s and the ratios of the loops to cuBLAS within each round.
//
//   cmake --build build --target wgmma_roof_ab, or from the repository root:
//   nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -I. -o wgmma_roof_ab bench/wgmma_roof_ab.cu -lcublas
//   wgmma_roof_ab [SIZE] [ROUNDS] [LAUNCHES]     default 4096 30 10
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "bench/prototype.cuh"
#include "kernels/hopper/wgmma_loop.cuh"
#include "kernels/mma_loop.cuh"

namespace {

using namespace gs::hopper;
using proto::check;
using proto::fill_positive;
using proto::max_of;
using proto::median;
using proto::min_of;

}  // namespace

int main(int argc, char** argv) {
  proto::program = "wgmma_roof_ab";
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 30;
  const int launches = argc > 3 ? std::atoi(argv[3]) : 10;
  if (n < 256 || n > 16384 || rounds < 1 || launches < 1) {
    std::fprintf(stderr, "usage: wgmma_roof_ab [SIZE 256-16384] [ROUNDS] [LAUNCHES]\n");
    return 2;
  }
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "no CUDA device");
  if (prop.major != 9) {
    std::fprintf(stderr, "wgmma_roof_ab: %s is sm_%d%d; wgmma needs sm_90\n", prop.name, prop.major, prop.minor);
    return 1;
  }
  const int sms = prop.multiProcessorCount, mma_warps = 8, mma_iters = 10000, wg_iters = 4000;
  const double mma_flops = gs::mma_loop_flops(false, sms, mma_warps, mma_iters);
  const double wg_flops = double(sms) * kLoopWarpgroups * wg_iters * kLoopWgmmasPerIter * kFlopsPerWgmma;
  const double gemm_flops = 2.0 * n * n * double(n);

  const size_t elems = size_t(n) * n;
  __half *a, *b;
  float *c, *sink;
  check(cudaMalloc(&a, elems * sizeof(__half)), "cudaMalloc A");
  check(cudaMalloc(&b, elems * sizeof(__half)), "cudaMalloc B");
  check(cudaMalloc(&c, elems * sizeof(float)), "cudaMalloc C");
  check(cudaMalloc(&sink, 4096), "cudaMalloc sink");
  fill_positive<<<1024, 256>>>(a, elems, 1);
  fill_positive<<<1024, 256>>>(b, elems, 2);
  check(allow_dynamic_smem(wgmma_loop<>, kLoopSmem), "wgmma_loop smem");
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) proto::fail("cublasCreate failed");
  const float alpha = 1, beta = 0;
  enum Who { kMma, kWgmma, kCublas };
  auto launch = [&](Who w) {
    if (w == kMma) {
      gs::mma_loop<false><<<sms, mma_warps * 32>>>(mma_iters, sink);
    } else if (w == kWgmma) {
      wgmma_loop<><<<sms, kLoopWarpgroups * kWarpgroup, kLoopSmem>>>(wg_iters, sink);
    } else if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16F, n, b, CUDA_R_16F, n, &beta, c,
                            CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
      proto::fail("cublasGemmEx failed");
    }
  };
  const double flops[] = {mma_flops, wg_flops, gemm_flops};

  std::vector<cudaEvent_t> ev(2 * launches);
  for (cudaEvent_t& e : ev) check(cudaEventCreate(&e), "cudaEventCreate");
  auto block = [&](Who w, std::vector<double>* tflops) {
    for (int i = 0; i < launches; ++i) {
      check(cudaEventRecord(ev[2 * i]), "cudaEventRecord");
      launch(w);
      check(cudaEventRecord(ev[2 * i + 1]), "cudaEventRecord");
    }
    check(cudaEventSynchronize(ev.back()), "launch");
    check(cudaGetLastError(), "launch");
    for (int i = 0; i < launches; ++i) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]), "cudaEventElapsedTime");
      tflops->push_back(flops[w] / (ms * 1e-3) / 1e12);
    }
  };
  std::vector<double> all[3], mma_ratio, wg_ratio, mma_wg;
  for (int w = 0; w < 3; ++w) launch(kMma), launch(kWgmma), launch(kCublas);
  check(cudaDeviceSynchronize(), "warm-up");
  for (int r = 0; r < rounds; ++r) {
    std::vector<double> got[3];
    for (int j = 0; j < 3; ++j) {  // the order rotates: mma-wgmma-cuBLAS, wgmma-cuBLAS-mma, cuBLAS-mma-wgmma
      const Who w = Who((r + j) % 3);
      block(w, &got[w]);
    }
    for (int w = 0; w < 3; ++w) all[w].insert(all[w].end(), got[w].begin(), got[w].end());
    mma_ratio.push_back(median(got[kMma]) / median(got[kCublas]));
    wg_ratio.push_back(median(got[kWgmma]) / median(got[kCublas]));
    mma_wg.push_back(median(got[kMma]) / median(got[kWgmma]));
  }
  int khz = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  auto row = [&](const char* what, const std::vector<double>& v) {
    std::printf("%s: median %.1f TFLOP/s (min %.1f, max %.1f)\n", what, median(v), min_of(v), max_of(v));
  };
  auto ratio = [&](const char* what, const std::vector<double>& v) {
    std::printf("%s: median over %d rounds %.3f (rounds %.3f-%.3f)\n", what, rounds, median(v), min_of(v), max_of(v));
  };
  std::printf("%s, %d SMs, max SM clock %d MHz\n", prop.name, sms, khz / 1000);
  row("mma.sync m16n8k16 f16.f32 from registers, 8 warps/SM", all[kMma]);
  row("wgmma m64n256k16 f16.f32 from shared memory, 2 warpgroups/SM", all[kWgmma]);
  char what[96];
  std::snprintf(what, sizeof what, "cuBLAS fp16 GEMM, fp32 accumulate, %d^3", n);
  row(what, all[kCublas]);
  ratio("mma.sync loop / cuBLAS", mma_ratio);
  ratio("wgmma loop / cuBLAS", wg_ratio);
  ratio("mma.sync loop / wgmma loop", mma_wg);
  return 0;
}
