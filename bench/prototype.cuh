// What the kernel prototypes in bench/ share (mma_wide_warp.cu, mma_tma_epilogue.cu): their command line, fp16
// operands filled on the device, cuBLAS fp16 (fp32 accumulate) as the reference and the yardstick, a check against
// an fp64 product on the host, and the rotating rounds that time every contender beside cuBLAS.
//
//   PROGRAM [ROUNDS] [LAUNCHES] [SIZE...]     defaults 10 10 2048 4096 6144 8192; ROUNDS 0: one launch of each,
//                                             unchecked, untimed (for Nsight Compute)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace proto {

inline const char* program = "prototype";  // each program names itself first, for its messages

inline void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s: %s\n", program, what, cudaGetErrorString(e));
  std::exit(1);
}

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "%s: %s\n", program, what);
  std::exit(1);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

inline double min_of(const std::vector<double>& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }
inline double max_of(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

struct Options {
  int rounds = 10, launches = 10;
  std::vector<int> sizes;
  bool profile() const { return rounds == 0; }  // one launch of each contender per size, for Nsight Compute
};

// Exits with status 2 and one line on a bad command line.
inline Options parse(int argc, char** argv) {
  Options o;
  if (argc > 1) o.rounds = std::atoi(argv[1]);
  if (argc > 2) o.launches = std::atoi(argv[2]);
  for (int i = 3; i < argc; ++i) o.sizes.push_back(std::atoi(argv[i]));
  if (o.sizes.empty()) o.sizes = {2048, 4096, 6144, 8192};
  if (o.rounds < 0 || o.launches < 1) {
    std::fprintf(stderr, "%s: ROUNDS must be >= 0 and LAUNCHES >= 1 (usage: %s [ROUNDS] [LAUNCHES] [SIZE...])\n",
                 program, program);
    std::exit(2);
  }
  for (int s : o.sizes) {
    if (s < 8 || s % 8 || s > 16384) {
      std::fprintf(stderr, "%s: a SIZE must be 8..16384, a multiple of 8\n", program);
      std::exit(2);
    }
  }
  return o;
}

__global__ void fill(__half* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed * 40503u;
    h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
    p[i] = __float2half(float(h & 0xFFFF) / 32768.0f - 1.0f);  // [-1, 1)
  }
}

// Values in [0.25, 1.25), never zero, as the ceiling benches (mma_roof_ab, wgmma_roof_ab, mma_ldsm_ab,
// tile_phases) time cuBLAS and the rungs on: fp16 or fp32 (T's conversion from float rounds to nearest).
template <class T>
__global__ void fill_positive(T* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u + seed;
    p[i] = T(0.25f + float(x >> 8 & 0xFFFF) / 65536.0f);
  }
}

// Row-major A (M x K), B (K x N) of random halves and two fp32 C buffers, large enough for every shape given.
struct Operands {
  __half *a = nullptr, *b = nullptr;
  float *c = nullptr, *c2 = nullptr;
  cublasHandle_t handle = nullptr;

  explicit Operands(const std::vector<std::vector<int>>& shapes) {
    size_t elems = 0;
    for (const auto& sh : shapes)
      elems = std::max({elems, size_t(sh[0]) * sh[2], size_t(sh[2]) * sh[1], size_t(sh[0]) * sh[1]});
    check(cudaMalloc(&a, elems * 2), "cudaMalloc A");
    check(cudaMalloc(&b, elems * 2), "cudaMalloc B");
    check(cudaMalloc(&c, elems * 4), "cudaMalloc C");
    check(cudaMalloc(&c2, elems * 4), "cudaMalloc C");
    fill<<<1024, 256>>>(a, elems, 1);
    fill<<<1024, 256>>>(b, elems, 2);
    check(cudaGetLastError(), "fill");
    check(cudaDeviceSynchronize(), "fill");
    __half h[4];
    check(cudaMemcpy(h, a + 12345, sizeof h, cudaMemcpyDeviceToHost), "A");
    std::printf("A[12345..12348] = %g %g %g %g\n", __half2float(h[0]), __half2float(h[1]), __half2float(h[2]),
                __half2float(h[3]));
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) fail("cublasCreate failed");
  }

  // C = A B by cuBLAS, fp16 operands, fp32 accumulate and output: row-major C = A B as column-major C^T = B^T A^T.
  void cublas(int m, int n, int k, float* out) const {
    const float alpha = 1, beta = 0;
    if (cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16F, n, a, CUDA_R_16F, k, &beta, out,
                     CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
      fail("cublasGemmEx failed");
  }

  // The largest error of want and of ref against the fp64 product on the host, relative to |exact| + sqrt K.
  std::pair<double, double> against_fp64(int m, int n, int k, const std::vector<float>& want,
                                         const std::vector<float>& ref) const {
    std::vector<__half> ha(size_t(m) * k), hb(size_t(k) * n);
    check(cudaMemcpy(ha.data(), a, ha.size() * 2, cudaMemcpyDeviceToHost), "A");
    check(cudaMemcpy(hb.data(), b, hb.size() * 2, cudaMemcpyDeviceToHost), "B");
    std::vector<double> fa(ha.size()), fb(hb.size()), exact(size_t(m) * n, 0.0);
    for (size_t i = 0; i < ha.size(); ++i) fa[i] = __half2float(ha[i]);
    for (size_t i = 0; i < hb.size(); ++i) fb[i] = __half2float(hb[i]);
    for (int i = 0; i < m; ++i)
      for (int p = 0; p < k; ++p)
        for (int j = 0; j < n; ++j) exact[size_t(i) * n + j] += fa[size_t(i) * k + p] * fb[size_t(p) * n + j];
    double worst_want = 0, worst_ref = 0;
    for (size_t i = 0; i < exact.size(); ++i) {
      const double scale = std::fabs(exact[i]) + std::sqrt(double(k));
      worst_want = std::max(worst_want, std::fabs(want[i] - exact[i]) / scale);
      worst_ref = std::max(worst_ref, std::fabs(ref[i] - exact[i]) / scale);
    }
    return {worst_want, worst_ref};
  }
};

struct Contender {
  std::string name;
  std::function<void(int n)> run;  // one launch at n^3, errors checked
};

// Square sizes, every contender in every round, the order rotating and reversing from round to round; the last
// contender is the yardstick (cuBLAS), and each ratio is to its median in the same round.
inline void time_rounds(const Options& o, const std::vector<Contender>& cs) {
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  int khz = 0, driver = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  cudaDriverGetVersion(&driver);
  std::printf("%s, %d SMs, max SM clock %d MHz, CUDA driver %d; %d rounds of %d launches\n", prop.name,
              prop.multiProcessorCount, khz / 1000, driver, o.rounds, o.launches);
  const int nc = static_cast<int>(cs.size());
  std::vector<cudaEvent_t> ev(2 * o.launches);
  for (cudaEvent_t& e : ev) check(cudaEventCreate(&e), "cudaEventCreate");
  for (int n : o.sizes) {
    auto block = [&](int i) {
      for (int l = 0; l < o.launches; ++l) {
        check(cudaEventRecord(ev[2 * l]), "cudaEventRecord");
        cs[i].run(n);
        check(cudaEventRecord(ev[2 * l + 1]), "cudaEventRecord");
      }
      check(cudaEventSynchronize(ev.back()), "the launches");
      std::vector<double> t;
      for (int l = 0; l < o.launches; ++l) {
        float ms = 0;
        check(cudaEventElapsedTime(&ms, ev[2 * l], ev[2 * l + 1]), "cudaEventElapsedTime");
        t.push_back(2.0 * n * n * double(n) / (ms * 1e-3) / 1e12);
      }
      return t;
    };
    for (int i = 0; i < nc; ++i) block(i);  // warm-up
    std::vector<std::vector<double>> tf(nc), ratio(nc);
    for (int rd = 0; rd < o.rounds; ++rd) {
      std::vector<double> med(nc);
      for (int j = 0; j < nc; ++j) {
        const int i = rd % 2 ? nc - 1 - (j + rd / 2) % nc : (j + rd / 2) % nc;
        const std::vector<double> t = block(i);
        tf[i].insert(tf[i].end(), t.begin(), t.end());
        med[i] = median(t);
      }
      for (int i = 0; i < nc; ++i) ratio[i].push_back(med[i] / med[nc - 1]);
    }
    std::printf("%d^3:\n", n);
    for (int i = 0; i < nc; ++i)
      std::printf("  %-14s %7.1f TFLOP/s  %6.1f%% of %s (rounds %.1f-%.1f)\n", cs[i].name.c_str(), median(tf[i]),
                  100 * median(ratio[i]), cs[nc - 1].name.c_str(), 100 * min_of(ratio[i]), 100 * max_of(ratio[i]));
  }
}

}  // namespace proto
