// ab_bench: one rung against cuBLAS with the launches interleaved, for GPUs that run at their power limit.
//
// `gemmscope bench` times a kernel's launches in one block and cuBLAS's in another, after it. On an H100 at
// 4096^3 and 8192^3 the clock then depends on what ran just before (1.55 GHz measured under load, 1.98 GHz
// idle), and the same pair read anywhere from 0.88 to 1.17 between processes (bench/NOTES.md). Here the two
// alternate in rounds, kernel-cuBLAS then cuBLAS-kernel (ABBA), so both see the same thermal history; the
// ratio is of medians over all rounds. Inputs random (never zeros), fp16 in, fp32 C, beta = 0, rotated over
// enough sets to exceed twice the L2 as the runner does. It times, it does not verify: `gemmscope bench` and
// the GPU tests do that on the same launcher.
//
//   ab_bench KERNEL SIZE[,SIZE...] [ROUNDS] [LAUNCHES]     e.g. ab_bench hopper/06_tma_store 4096,8192 20 10
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/registry_internal.cuh"

namespace {

#define CHECK(x)                                                                             \
  do {                                                                                       \
    const cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "ab_bench: %s: %s\n", #x, cudaGetErrorString(e_));                \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

__global__ void fill(__half* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    p[i] = __float2half((static_cast<int>(x >> 8 & 0xFFFF) - 32768 + 0.5f) / 32768.0f);  // (-1, 1), never 0
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: ab_bench KERNEL SIZE[,SIZE...] [ROUNDS] [LAUNCHES]\n");
    return 2;
  }
  const gs::detail::Rung* rung = gs::detail::find_rung(argv[1]);
  const gs::detail::PrecisionLaunch* l = rung ? gs::detail::find_launch(*rung, gs::Precision::F16_F32) : nullptr;
  if (!l) {
    std::fprintf(stderr, "ab_bench: no f16.f32 kernel '%s'\n", argv[1]);
    return 2;
  }
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 20, launches = argc > 4 ? std::atoi(argv[4]) : 10;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cublasHandle_t blas = nullptr;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) return 1;
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreate(&stream));
  cublasSetStream(blas, stream);
  cudaEvent_t ev[2];
  CHECK(cudaEventCreate(&ev[0]));
  CHECK(cudaEventCreate(&ev[1]));
  std::printf("%s, %d SMs; %s vs cuBLAS GemmEx f16 in, f32 accumulate and C; %d ABBA rounds of %d launches each\n",
              prop.name, prop.multiProcessorCount, argv[1], rounds, launches);
  std::printf("%-8s %10s %10s %8s %s\n", "size", "TFLOP/s", "cuBLAS", "ratio", "(ratio per round: min .. max)");

  std::string sizes = argv[2];
  for (size_t pos = 0; pos < sizes.size();) {
    const size_t comma = std::min(sizes.find(',', pos), sizes.size());
    const int s = std::atoi(sizes.substr(pos, comma - pos).c_str());
    pos = comma + 1;
    if (s <= 0 || s % 8) continue;
    const size_t ab = size_t{2} * s * s * 2, c = static_cast<size_t>(s) * s * 4, set = ab + c;
    const int sets = static_cast<int>(std::min<size_t>(16, set >= size_t(prop.l2CacheSize) ? 1 : 2 * prop.l2CacheSize / set + 1));
    std::vector<__half*> a(sets), b(sets);
    std::vector<float*> cc(sets);
    for (int i = 0; i < sets; ++i) {
      CHECK(cudaMalloc(&a[i], ab / 2));
      CHECK(cudaMalloc(&b[i], ab / 2));
      CHECK(cudaMalloc(&cc[i], c));
      fill<<<1024, 256, 0, stream>>>(a[i], static_cast<size_t>(s) * s, 17u * i + 1);
      fill<<<1024, 256, 0, stream>>>(b[i], static_cast<size_t>(s) * s, 17u * i + 2);
    }
    int turn = 0;
    auto ours = [&] {
      gs::detail::RawArgs r;
      r.m = r.n = r.k = s;
      const int i = turn++ % sets;
      r.a = a[i];
      r.b = b[i];
      r.c = cc[i];
      CHECK(l->plain(r, stream));
    };
    auto theirs = [&] {
      const int i = turn++ % sets;
      const float alpha = 1.0f, beta = 0.0f;
      // Row-major C = A B as column-major C^T = B^T A^T, exactly as the runner calls it.
      if (cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &alpha, b[i], CUDA_R_16F, s, a[i], CUDA_R_16F, s, &beta,
                       cc[i], CUDA_R_32F, s, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "ab_bench: cublasGemmEx failed\n");
        std::exit(1);
      }
    };
    auto time = [&](auto&& launch) {  // ms per launch over `launches` back-to-back launches
      CHECK(cudaEventRecord(ev[0], stream));
      for (int i = 0; i < launches; ++i) launch();
      CHECK(cudaEventRecord(ev[1], stream));
      CHECK(cudaEventSynchronize(ev[1]));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
      return double{ms} / launches;
    };
    time(ours);  // warm-up: module load, tensor maps, cuBLAS heuristics
    time(theirs);
    std::vector<double> t_ours, t_theirs, ratio;
    for (int r = 0; r < rounds; ++r) {
      double x, y;
      if (r % 2 == 0) {
        x = time(ours);
        y = time(theirs);
      } else {
        y = time(theirs);
        x = time(ours);
      }
      t_ours.push_back(x);
      t_theirs.push_back(y);
      ratio.push_back(y / x);
    }
    const double flop = 2.0 * s * s * s;
    const double mo = median(t_ours), mt = median(t_theirs);
    std::printf("%-8d %10.1f %10.1f %7.1f%% (%.1f%% .. %.1f%%)\n", s, flop / mo / 1e9, flop / mt / 1e9, 100 * mt / mo,
                100 * *std::min_element(ratio.begin(), ratio.end()), 100 * *std::max_element(ratio.begin(), ratio.end()));
    for (int i = 0; i < sets; ++i) {
      cudaFree(a[i]);
      cudaFree(b[i]);
      cudaFree(cc[i]);
    }
  }
  cublasDestroy(blas);
  return 0;
}
