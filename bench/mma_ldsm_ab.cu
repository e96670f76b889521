// mma_ldsm_ab: where the top mma.sync rungs lose against the mma.sync ceiling (issue 14's goals: mma_f16/10 at
// 72% of cuBLAS, mma_tf32/11 at 62%).
//
// bench/mma_roof_ab.cu bounds a rung by a loop of mma.sync from registers. This splits the distance between that
// loop and the rung into parts, with every contender timed in the same rounds (the order rotates each round and
// reverses every other, so that all meet the same clocks). For f16 (mma_f16/10) or tf32 (mma_tf32/11):
//   loop       mma.sync from registers (m16n8k16 f16 or m16n8k8 tf32), 8 warps per SM (kernels/mma_loop.cuh)
//   ldsm       the rung's warp loop without copies or barriers: its own fragment loads (f16: per k16 step 4
//              ldmatrix.x4 of A, 4 ldmatrix.x4.trans of B; tf32: per k8 step 4 ldmatrix.x4 of A, 8 LDS.64 of B)
//              from its XOR-permuted stages read in turn, one step ahead, and its 32 mma per step; 1 block of 8
//              warps per SM with the rung's 192 KB of shared memory
//   ldsm+bar   the same with the rung's __syncthreads once per k-tile (4 steps)
//   wave       the rung itself on one wave of long tiles: M x N cut into exactly one 256x128 tile per SM,
//              K = 16384, so that prologue, epilogue and the last partial wave are a few percent of the time
//   rung       the rung at SIZE^3
//   cublas     cuBLAS at SIZE^3 (the goal's denominator): fp16 with fp32 accumulate, or fp32 with TF32 compute
//   tma wave, tma rung   (f16 only) mma_f16/11, whose copies a TMA producer warpgroup makes, on the same two shapes;
//              before timing, its C is compared bit for bit with rung 10's on six shapes (C poisoned first)
// loop - ldsm is what fragment loads cost, ldsm - ldsm+bar the barrier, ldsm+bar - wave the copies and their
// waits, wave - rung the tile's fill and drain and the last wave. Results: bench/NOTES.md.
//
//   cmake --build build --target mma_ldsm_ab
//   mma_ldsm_ab f16|tf32 [SIZE] [ROUNDS] [LAUNCHES] [WAVE_K]     default 4096 20 10 16384
// WAVE_K: the one-wave shapes' K (a multiple of 64), e.g. 4096 for tiles as long as at 4096^3.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "bench/prototype.cuh"
#include "kernels/mma_f16/10_multistage.cuh"
#include "kernels/mma_f16/11_tma_producer.cuh"
#include "kernels/mma_loop.cuh"
#include "kernels/mma_tf32/11_swapped_operands.cuh"

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "mma_ldsm_ab: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Operands like a GEMM's in the whole shared window (zeros would draw less power): bits from the word's index.
__device__ void fill_smem(uint32_t* w, int words, uint32_t base) {
  for (int i = threadIdx.x; i < words; i += blockDim.x) w[i] = base | ((unsigned(i) * 2654435761u) >> 9 & 0x01FF01FFu);
  __syncthreads();
}

namespace f16 {
using namespace gs::mma_f16_10_multistage;
inline constexpr int kSmem = kSmemBytes, kMmaPerTile = kKI * kMI * kNI;
inline constexpr double kMmaFlops = 2.0 * 16 * 8 * 16;

// Rung 10's k-loop on shared tiles that never change: its addresses, fragment order and mma order, with
// kBarrier its one __syncthreads per k-tile. `tiles` k-tiles of 4 k16 steps each.
template <bool kBarrier>
__global__ void __launch_bounds__(kThreads, 1) ldsm_loop(int tiles, float* sink) {
  const uint32_t as = gs::mma_f16::smem_u32(gs::mma_f16::dynamic_smem());
  const uint32_t bs = as + kStages * kAStageBytes;
  fill_smem(static_cast<uint32_t*>(gs::smem_generic(as)), kSmemBytes / 4, 0x38003800u);  // halves near 0.5-1
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm0 = (warp / kWarpsN) * kWarpM, wn0 = (warp % kWarpsN) * kWarpN;
  const int x = (lane / 16) ^ (lane % 8);
  const uint32_t a_frag = as + (wm0 + lane % 16) * kARowBytes + x * 16;
  const uint32_t b_frag = bs + (lane % 16) * kBRowBytes + wn0 * 2 + x * 16;
  auto load_frags = [&](int s, int kk, uint32_t(&af)[kMI][4], uint32_t(&bf)[kNI][2]) {
    const uint32_t a = (a_frag + s * kAStageBytes) ^ (kk * 32);
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) gs::mma_f16::ldmatrix_x4(af[mi], a + mi * gs::mma_f16::kMmaM * kARowBytes);
    const uint32_t b = b_frag + s * kBStageBytes + kk * gs::mma_f16::kMmaK * kBRowBytes;
#pragma unroll
    for (int ni = 0; ni < kNI; ni += 2) {
      uint32_t r[4];
      gs::mma_f16::ldmatrix_x4_trans(r, b ^ (ni * 16));
      bf[ni][0] = r[0], bf[ni][1] = r[1], bf[ni + 1][0] = r[2], bf[ni + 1][1] = r[3];
    }
  };
  float acc[kMI][kNI][4] = {};
  uint32_t af[2][kMI][4], bf[2][kNI][2];
  load_frags(0, 0, af[0], bf[0]);
  int read = 0;
  for (int kt = 0; kt < tiles; ++kt) {
#pragma unroll
    for (int kk = 0; kk < kKI; ++kk) {
      if (kk == kKI - 1) {
        if (kBarrier) __syncthreads();
        read = read == kStages - 1 ? 0 : read + 1;
      }
      load_frags(read, (kk + 1) % kKI, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int n = 0; n < kNI; ++n) {
          const int ni = mi % 2 ? kNI - 1 - n : n;
          gs::mma_f16::mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
        }
      }
    }
  }
  float s = 0;
  for (int mi = 0; mi < kMI; ++mi)
    for (int ni = 0; ni < kNI; ++ni) s += acc[mi][ni][0] + acc[mi][ni][1] + acc[mi][ni][2] + acc[mi][ni][3];
  if (s == 12345.0f) sink[tid] = s;
}
}  // namespace f16

namespace tf32 {
using namespace gs::mma_tf32_11_swapped_operands;
inline constexpr int kSmem = kSmemBytes, kMmaPerTile = kSteps * kTilesM * kTilesN;
inline constexpr double kMmaFlops = 2.0 * 16 * 8 * 8;

// Rung 11's k-loop on stages that never change: its FragPlan, load_frags and mma_all, with kBarrier its one
// __syncthreads per slice. `tiles` slices of 4 k8 steps each.
template <bool kBarrier>
__global__ void __launch_bounds__(kThreads, 1) ldsm_loop(int tiles, float* sink) {
  extern __shared__ __align__(16) float smem[];
  fill_smem(reinterpret_cast<uint32_t*>(smem), kSmemBytes / 4, 0x3f000000u);  // floats near 0.5-1
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tc = lane % 4;
  const int wm0 = warp / kWarpsN * kWM, wn0 = warp % kWarpsN * kWN;
  FragPlan fp;
#pragma unroll
  for (int ks = 0; ks < kSteps; ++ks)
    fp.a_ks[ks] = (wm0 + lane % 8 + lane / 16 * 8) * kBK + ((2 * ks + lane / 8 % 2) ^ lane % 8) * 4;
#pragma unroll
  for (int j = 0; j < 2; ++j) fp.b_pair[j] = kAsFloats + tc * kBN + wn0 + ((16 * j + 2 * gr) ^ 8 * tc);
  gs::NoProbe probe;
  float acc[kTilesM][kTilesN][4] = {};
  Frags frag[2];
  load_frags(frag[0], smem, fp, 0, probe);
  float* const last = smem + (kStages - 1) * kStageFloats;
  float* rd = smem;
  for (int kt = 0; kt < tiles; ++kt) {
#pragma unroll
    for (int ks = 0; ks < kSteps; ++ks) {
      if (ks == kSteps - 1) {
        if (kBarrier) __syncthreads();
        rd = rd == last ? smem : rd + kStageFloats;
      }
      load_frags(frag[(ks + 1) % 2], rd, fp, (ks + 1) % kSteps, probe);
      mma_all(acc, frag[ks % 2]);
    }
  }
  float s = 0;
  for (int mt = 0; mt < kTilesM; ++mt)
    for (int nt = 0; nt < kTilesN; ++nt) s += acc[mt][nt][0] + acc[mt][nt][1] + acc[mt][nt][2] + acc[mt][nt][3];
  if (s == 12345.0f) sink[tid] = s;
}
}  // namespace tf32

struct Contender {
  const char* name;
  double flops;
  std::vector<double> tflops, ratio;  // every launch; per round, its median over cuBLAS's median
};

// T: __half (f16: mma_f16/10) or float (tf32: mma_tf32/11).
template <class T>
int bench(int n, int rounds, int launches, int wave_k) {
  constexpr bool kTf32 = std::is_same<T, float>::value;
  const int smem = kTf32 ? tf32::kSmem : f16::kSmem, mma_per_tile = kTf32 ? tf32::kMmaPerTile : f16::kMmaPerTile;
  const double mma_flops = kTf32 ? tf32::kMmaFlops : f16::kMmaFlops;
  auto ldsm = kTf32 ? tf32::ldsm_loop<false> : f16::ldsm_loop<false>;
  auto ldsm_bar = kTf32 ? tf32::ldsm_loop<true> : f16::ldsm_loop<true>;
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "no CUDA device");
  const int sms = prop.multiProcessorCount, iters = kTf32 ? 5000 : 10000, tiles = 2500;
  // One wave of 256x128 tiles: tiles_m x tiles_n = sms, tiles_m as near tiles_n as the SM count allows.
  int wave_tm = 1;
  for (int t = 1; t * t <= sms; ++t)
    if (sms % t == 0) wave_tm = t;
  const int wave_m = wave_tm * 256, wave_n = sms / wave_tm * 128;

  const size_t a_elems = std::max(size_t(n) * n, size_t(wave_m) * wave_k);
  const size_t b_elems = std::max(size_t(n) * n, size_t(wave_k) * wave_n);
  const size_t c_elems = std::max(size_t(n) * n, size_t(wave_m) * wave_n);
  T *a, *b;
  float *c, *sink;
  check(cudaMalloc(&a, a_elems * sizeof(T)), "cudaMalloc A");
  check(cudaMalloc(&b, b_elems * sizeof(T)), "cudaMalloc B");
  check(cudaMalloc(&c, c_elems * sizeof(float)), "cudaMalloc C");
  check(cudaMalloc(&sink, 4096), "cudaMalloc sink");
  proto::fill_positive<<<1024, 256>>>(a, a_elems, 1);
  proto::fill_positive<<<1024, 256>>>(b, b_elems, 2);
  check(cudaFuncSetAttribute(ldsm, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "shared memory limit");
  check(cudaFuncSetAttribute(ldsm_bar, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "shared memory limit");
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return std::fprintf(stderr, "mma_ldsm_ab: cublasCreate failed\n"), 1;
  const float alpha = 1, beta = 0;
  auto rung = [&](int m, int nn, int k) {
    gs::GemmArgs<T, float> g{m, nn, k, a, b, c};
    if constexpr (kTf32) return gs::mma_tf32_11_swapped_operands::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
    else return gs::mma_f16_10_multistage::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
  };

  const double tile_flops = double(sms) * 8 * tiles * mma_per_tile * mma_flops;
  const double wave_flops = 2.0 * wave_m * wave_n * double(wave_k), gemm_flops = 2.0 * n * n * double(n);
  std::vector<Contender> cs = {
      {"loop", gs::mma_loop_flops(kTf32, sms, 8, iters), {}, {}},
      {"ldsm", tile_flops, {}, {}},
      {"ldsm+bar", tile_flops, {}, {}},
      {"wave", wave_flops, {}, {}},
      {"rung", gemm_flops, {}, {}},
  };
  std::vector<std::function<void()>> runs = {
      [&] { gs::mma_loop<kTf32><<<sms, 256>>>(iters, sink); },
      [&] { ldsm<<<sms, 256, smem>>>(tiles, sink); },
      [&] { ldsm_bar<<<sms, 256, smem>>>(tiles, sink); },
      [&] { check(rung(wave_m, wave_n, wave_k), "the rung, one wave"); },
      [&] { check(rung(n, n, n), "the rung"); },
  };
  if constexpr (!kTf32) {  // mma_f16/11: the same tiles fed by a TMA producer warp
    auto tma = [&](int m, int nn, int k) {
      gs::GemmArgs<T, float> g{m, nn, k, a, b, c};
      return gs::mma_f16_11_tma_producer::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
    };
    // Before timing it: rung 11's C equal, bit for bit, to rung 10's (same mma order, zeros past the edges), C
    // poisoned before each run, on shapes with edges in every dimension.
    const int shapes[][3] = {{n, n, n}, {520, 264, 200}, {256, 384, 64}, {1000, 1000, 1024}, {300, 200, 104},
                             {wave_m, wave_n, 4096}};
    for (const auto& sh : shapes) {
      const size_t cn = size_t(sh[0]) * sh[1];
      std::vector<float> want(cn), got(cn);
      gs::GemmArgs<T, float> g{sh[0], sh[1], sh[2], a, b, c};
      check(cudaMemset(c, 0xFF, cn * 4), "poison C");
      check(gs::mma_f16_10_multistage::launch<gs::NoProbe>(g, gs::NoProbe{}, 0), "rung 10");
      check(cudaMemcpy(want.data(), c, cn * 4, cudaMemcpyDeviceToHost), "C of rung 10");
      check(cudaMemset(c, 0xFF, cn * 4), "poison C");
      check(cudaMemset(c, 0xFF, cn * 4), "poison C");
      check(tma(sh[0], sh[1], sh[2]), "rung 11");
      check(cudaMemcpy(got.data(), c, cn * 4, cudaMemcpyDeviceToHost), "C of rung 11");
      size_t diff = 0;
      for (size_t i = 0; i < cn; ++i) diff += std::memcmp(&want[i], &got[i], 4) != 0;
      std::printf("rung 11 against rung 10 at %dx%dx%d: %zu of %zu elements differ\n", sh[0], sh[1], sh[2], diff, cn);
      if (diff) return 1;
    }
    cs.push_back({"tma wave", wave_flops, {}, {}});
    runs.push_back([&, tma] { check(tma(wave_m, wave_n, wave_k), "rung 11, one wave"); });
    cs.push_back({"tma rung", gemm_flops, {}, {}});
    runs.push_back([&, tma] { check(tma(n, n, n), "rung 11"); });
  }
  cs.push_back({"cublas", gemm_flops, {}, {}});  // last: the ratios' denominator
  runs.push_back([&] {
    if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b, kTf32 ? CUDA_R_32F : CUDA_R_16F, n, a,
                     kTf32 ? CUDA_R_32F : CUDA_R_16F, n, &beta, c, CUDA_R_32F, n,
                     kTf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "mma_ldsm_ab: cublasGemmEx failed\n");
      std::exit(1);
    }
  });
  auto run = [&](int i) {
    runs[i]();
    check(cudaGetLastError(), "launch");
  };
  const int nc = int(cs.size());
  std::vector<cudaEvent_t> ev(2 * launches);
  for (cudaEvent_t& e : ev) check(cudaEventCreate(&e), "cudaEventCreate");
  auto block = [&](int i) {
    for (int l = 0; l < launches; ++l) {
      check(cudaEventRecord(ev[2 * l]), "cudaEventRecord");
      run(i);
      check(cudaEventRecord(ev[2 * l + 1]), "cudaEventRecord");
    }
    check(cudaEventSynchronize(ev.back()), "the launches");
    std::vector<double> t;
    for (int l = 0; l < launches; ++l) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, ev[2 * l], ev[2 * l + 1]), "cudaEventElapsedTime");
      t.push_back(cs[i].flops / (ms * 1e-3) / 1e12);
    }
    return t;
  };
  for (int w = 0; w < 2; ++w)
    for (int i = 0; i < nc; ++i) block(i);
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::vector<double>> t(nc);
    for (int j = 0; j < nc; ++j) {  // rotated, and reversed every other round
      const int i = r % 2 ? nc - 1 - (j + r / 2) % nc : (j + r / 2) % nc;
      t[i] = block(i);
    }
    for (int i = 0; i < nc; ++i) {
      cs[i].tflops.insert(cs[i].tflops.end(), t[i].begin(), t[i].end());
      cs[i].ratio.push_back(median(t[i]) / median(t[nc - 1]));
    }
  }
  int khz = 0, driver = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  cudaDriverGetVersion(&driver);
  std::printf("%s, %d SMs, max SM clock %d MHz, CUDA driver %d\n", prop.name, sms, khz / 1000, driver);
  std::printf("%s: %s, SIZE %d, %d rounds of %d launches; wave %dx%dx%d\n", kTf32 ? "tf32" : "f16",
              kTf32 ? "mma_tf32/11" : "mma_f16/10", n, rounds, launches, wave_m, wave_n, wave_k);
  std::printf("%-9s %8s %8s %8s  %-8s %-13s %s\n", "", "TFLOP/s", "min", "max", "/cuBLAS", "(rounds)", "/loop");
  const double loop = median(cs[0].tflops);
  for (const Contender& k : cs) {
    std::printf("%-9s %8.1f %8.1f %8.1f  %-8.3f %.3f-%.3f  %.3f\n", k.name, median(k.tflops),
                *std::min_element(k.tflops.begin(), k.tflops.end()),
                *std::max_element(k.tflops.begin(), k.tflops.end()), median(k.ratio),
                *std::min_element(k.ratio.begin(), k.ratio.end()), *std::max_element(k.ratio.begin(), k.ratio.end()),
                median(k.tflops) / loop);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool tf32 = argc > 1 && std::strcmp(argv[1], "tf32") == 0;
  const int n = argc > 2 ? std::atoi(argv[2]) : 4096;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 20;
  const int launches = argc > 4 ? std::atoi(argv[4]) : 10;
  const int wave_k = argc > 5 ? std::atoi(argv[5]) : 16384;
  if (argc < 2 || (!tf32 && std::strcmp(argv[1], "f16") != 0) || n < 256 || n > 16384 || rounds < 1 ||
      launches < 1 || wave_k < 64 || wave_k > 65536 || wave_k % 64 != 0) {
    std::fprintf(stderr, "usage: mma_ldsm_ab f16|tf32 [SIZE 256-16384] [ROUNDS] [LAUNCHES] [WAVE_K 64-65536, a multiple of 64]\n");
    return 2;
  }
  return tf32 ? bench<float>(n, rounds, launches, wave_k) : bench<__half>(n, rounds, launches, wave_k);
}
