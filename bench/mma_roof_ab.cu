// mma_roof_ab: the mma.sync ceiling against cuBLAS under the same sustained load, for the mma_f16 goal (issue 14).
//
// bench/mma_peak.cu measures mma.sync from registers in one short launch, on a cool card at its top clock. A GEMM
// rung runs for seconds at the 700 W limit, where the clock falls and the ratio to cuBLAS is one of energy per
// flop. Here the register-only mma loop (kernels/mma_loop.cuh, m16n8k16 f16 with fp32 accumulate, 8 warps per SM
// as the mma_f16 rungs run) and cuBLAS fp16 GEMM with fp32 accumulate at SIZE^3 alternate in rounds (loop-cuBLAS,
// then cuBLAS-loop: ABBA), each launch between its own events, so both meet the same clocks. The loop moves no
// operand through shared memory or from DRAM, so no mma.sync GEMM can pass its rate: loop / cuBLAS bounds the
// ratio any mma_f16 rung can reach on this GPU.
//
//   cmake --build build --target mma_roof_ab, or from the repository root:
//   nvcc -O3 -arch=sm_90 -I. -o mma_roof_ab bench/mma_roof_ab.cu -lcublas
//   mma_roof_ab [SIZE] [ROUNDS] [LAUNCHES]     default 4096 40 10
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "bench/prototype.cuh"
#include "kernels/mma_loop.cuh"

namespace {

using proto::check;
using proto::fill_positive;
using proto::max_of;
using proto::median;
using proto::min_of;

}  // namespace

int main(int argc, char** argv) {
  proto::program = "mma_roof_ab";
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 40;
  const int launches = argc > 3 ? std::atoi(argv[3]) : 10;
  if (n < 256 || n > 16384 || rounds < 1 || launches < 1) {
    std::fprintf(stderr, "usage: mma_roof_ab [SIZE 256-16384] [ROUNDS] [LAUNCHES]\n");
    return 2;
  }
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "no CUDA device");
  const int sms = prop.multiProcessorCount, warps = 8, iters = 10000;
  const double loop_flops = gs::mma_loop_flops(false, sms, warps, iters);
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
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) proto::fail("cublasCreate failed");
  const float alpha = 1, beta = 0;
  auto gemm = [&] {
    if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16F, n, b, CUDA_R_16F, n, &beta, c,
                     CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
      proto::fail("cublasGemmEx failed");
  };
  auto loop = [&] { gs::mma_loop<false><<<sms, warps * 32>>>(iters, sink); };

  std::vector<cudaEvent_t> ev(2 * launches);
  for (cudaEvent_t& e : ev) check(cudaEventCreate(&e), "cudaEventCreate");
  auto block = [&](bool is_loop, std::vector<double>* tflops) {
    for (int i = 0; i < launches; ++i) {
      check(cudaEventRecord(ev[2 * i]), "cudaEventRecord");
      is_loop ? loop() : gemm();
      check(cudaEventRecord(ev[2 * i + 1]), "cudaEventRecord");
    }
    check(cudaEventSynchronize(ev.back()), "launch");
    check(cudaGetLastError(), "launch");
    for (int i = 0; i < launches; ++i) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]), "cudaEventElapsedTime");
      tflops->push_back((is_loop ? loop_flops : gemm_flops) / (ms * 1e-3) / 1e12);
    }
  };
  std::vector<double> l, g, ratio;
  for (int w = 0; w < 3; ++w) loop(), gemm();
  for (int r = 0; r < rounds; ++r) {
    std::vector<double> lr, gr;
    if (r % 2 == 0) block(true, &lr), block(false, &gr);
    else block(false, &gr), block(true, &lr);
    l.insert(l.end(), lr.begin(), lr.end());
    g.insert(g.end(), gr.begin(), gr.end());
    ratio.push_back(median(lr) / median(gr));
  }
  int khz = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  std::printf("%s, %d SMs, max SM clock %d MHz\n", prop.name, sms, khz / 1000);
  std::printf("mma.sync m16n8k16 f16.f32 from registers, %d warps/SM: median %.1f TFLOP/s (min %.1f, max %.1f)\n",
              warps, median(l), min_of(l), max_of(l));
  std::printf("cuBLAS fp16 GEMM, fp32 accumulate, %d^3: median %.1f TFLOP/s (min %.1f, max %.1f)\n", n, median(g),
              min_of(g), max_of(g));
  std::printf("loop / cuBLAS: median over %d rounds %.3f (rounds %.3f-%.3f)\n", rounds, median(ratio), min_of(ratio),
              max_of(ratio));
  return 0;
}
