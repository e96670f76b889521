// mma_wide_warp: would a 96x64 warp tile lift mma_f16 past rung 12? (issue 14; bench/NOTES.md, "A wider warp tile")
//
// bench/NOTES.md counts shared-memory cycles per k16 step in mma_f16/12's 256x128 block of 64x64 warp tiles: 32 KB
// of ldmatrix and 12 KB of TMA writes, 352 cycles at 128 bytes per cycle, beside 385 cycles of HMMA at the mma.sync
// rate: shared memory 91% busy at a full tensor pipe. A 96x64 warp tile (6 x 8 mma tiles, 192 accumulators) reads
// 10 ldmatrix.x4 for 48 mma where 64x64 reads 8 for 32; eight such warps (2 x 4) make a 192x256 block, whose k16
// step needs 40 KB of ldmatrix and 14 KB of TMA (432 cycles) for 577 cycles of HMMA: 75% busy.
//
// The kernel is rung 12 (persistent CTAs, a TMA producer warpgroup, the stage ring running on across tiles, C staged
// per warp in 16-row slabs) with that block: A boxes of 192 rows, B as four 64x64 boxes, 3 stages of 56 KB (4 do
// not fit beside the staging), warps 2 (M) x 4 (N), each warp's 64 columns one box of B as in 12. 192 accumulators
// leave 48 of the 240 registers setmaxnreg grants, so the fragments are not double-buffered whole as in 12 but
// rolled: a k16 step runs its four B column pairs in turn over the six A fragments; pair p + 1 loads while pair p
// computes, and during the last pair each A fragment is reloaded for the next step right after its last use.
// Each C element sums the same k16 products in the same order as rung 12, so C must equal 12's bit for bit.
//
// Prints, per size: C against rung 12 (bit for bit) and against cuBLAS (largest relative error), then TFLOP/s of
// rung 12, rung 13 (the ladder's top), this kernel's two fragment orders and cuBLAS fp16 (fp32 accumulate) in rotating rounds, each as a
// ratio to cuBLAS in the same round.
//
//   cmake --build build --target mma_wide_warp
//   mma_wide_warp [ROUNDS] [LAUNCHES] [SIZE...]     defaults 10 10 2048 4096 6144 8192; ROUNDS 0: one launch
//                                                    of each, unchecked, untimed (for Nsight Compute)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/hopper/layout.h"
#include "kernels/mma_f16/12_persistent.cuh"
#include "kernels/mma_f16/13_stream_k.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"
#include "bench/prototype.cuh"

namespace wide {

using namespace gs::mma_f16;
using gs::hopper::kAtom;
using gs::hopper::kBoxK;
using gs::hopper::kBoxN;

constexpr int kBlockM = 192, kBlockN = 256, kBlockK = kBoxK;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kWarpM = kBlockM / kWarpsM, kWarpN = kBlockN / kWarpsN;  // 96 x 64
constexpr int kMI = kWarpM / kMmaM, kNI = kWarpN / kMmaN;              // 6 x 8
constexpr int kPairs = kNI / 2;                                        // one ldmatrix.x4.trans each
constexpr int kKI = kBlockK / kMmaK;
constexpr int kMmaWarps = kWarpsM * kWarpsN;
constexpr int kThreads = kMmaWarps * 32 + 128;
constexpr int kProducerRegs = 24, kMmaRegs = 240;
constexpr int kStages = 3;
constexpr int kRowBytes = kBlockK * 2;
constexpr int kAStageBytes = kBlockM * kRowBytes;                      // 24 KB
constexpr int kBBoxBytes = kBlockK * kBoxN * 2;                        // 8 KB
constexpr int kBStageBytes = kBlockN / kBoxN * kBBoxBytes;             // 32 KB
constexpr int kStageBytes = kAStageBytes + kBStageBytes;               // 56 KB
constexpr int kCsRowBytes = kWarpN * 4;
constexpr int kCsWarpBytes = kMmaM * kCsRowBytes;                      // 4 KB
constexpr int kCsOffset = kStages * kStageBytes;                       // 168 KB
constexpr int kBarOffset = kCsOffset + kMmaWarps * kCsWarpBytes;       // 200 KB
constexpr int kSmemBytes = kBarOffset + 2 * kStages * 8 + kAtom;
static_assert(kSmemBytes <= 227 * 1024, "one CTA per SM");
static_assert(kAStageBytes % kAtom == 0 && kBBoxBytes % kAtom == 0, "every box starts on a swizzle atom");
static_assert(kWarpN == kBoxN, "each mma warp's columns lie in one box of B");
constexpr int kGroup = 8;
using Ring = gs::hopper::StageRing<kStages>;

__device__ __forceinline__ uint32_t cs_offset(int row, int col) {
  return row * kCsRowBytes + (((col / 8) ^ (row % 4)) * 32) + (col % 8) * 4;
}

template <bool kKeepA>
__global__ void __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           gs::GemmArgs<__half, float> g, int tiles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t as = gs::hopper::smem_base();
  const uint32_t bs = as + kStages * kAStageBytes;
  const uint32_t full = as + kBarOffset;
  const uint32_t empty = full + 8 * kStages;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;

  if (tid == 0) {
    gs::hopper::prefetch_tensormap(&tma_a);
    gs::hopper::prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) {
      gs::hopper::mbar_init(full + 8 * s, 1);
      gs::hopper::mbar_init(empty + 8 * s, kMmaWarps);
    }
    gs::hopper::fence_barrier_init();
  }
  __syncthreads();

  if (warp >= kMmaWarps) {
    gs::hopper::setmaxnreg_dec<kProducerRegs>();
    if (warp == kMmaWarps) {
      Ring r;
      for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const gs::hopper::TileIndex tile = gs::hopper::grouped_tile(t, tiles_m, tiles_n, kGroup);
        const int bm0 = tile.m * kBlockM, bn0 = tile.n * kBlockN;
        for (int kt = 0; kt < ktiles; ++kt, r.next()) {
          gs::hopper::mbar_wait(empty + 8 * r.stage, r.phase ^ 1);
          if (lane == 0) {
            const uint32_t bar = full + 8 * r.stage;
            gs::hopper::mbar_arrive_expect_tx(bar, kStageBytes);
            gs::hopper::tma_load_2d(as + r.stage * kAStageBytes, &tma_a, kt * kBlockK, bm0, bar);
#pragma unroll
            for (int j = 0; j < kBlockN / kBoxN; ++j) {
              gs::hopper::tma_load_2d(bs + r.stage * kBStageBytes + j * kBBoxBytes, &tma_b, bn0 + j * kBoxN,
                                      kt * kBlockK, bar);
            }
          }
          __syncwarp();
        }
      }
    }
    return;
  }

  gs::hopper::setmaxnreg_inc<kMmaRegs>();
  const uint32_t cs = as + kCsOffset + warp * kCsWarpBytes;
  const int wm0 = (warp / kWarpsN) * kWarpM, wn0 = (warp % kWarpsN) * kWarpN;
  const int x = (lane / 16) ^ (lane % 8);
  const uint32_t a_frag = as + (wm0 + lane % 16) * kRowBytes + x * 16;
  const uint32_t b_frag = bs + (wn0 / kBoxN) * kBBoxBytes + (lane % 16) * kRowBytes + x * 16;
  // Step (s, kk): A fragment mi, and B column pair p (mma tiles 2p and 2p + 1).
  auto a_addr = [&](int s, int kk, int mi) { return ((a_frag + s * kAStageBytes) ^ (kk * 32)) + mi * kMmaM * kRowBytes; };
  auto b_addr = [&](int s, int kk, int p) { return (b_frag + s * kBStageBytes + kk * kMmaK * kRowBytes) ^ (p * 32); };

  float acc[kMI][kNI][4];
  // kKeepA: all six A fragments stay through a step while B's column pairs roll through two buffers (32 fragment
  // registers); otherwise all four B pairs stay while A's fragments roll (24).
  constexpr int kAF = kKeepA ? kMI : 2, kBF = kKeepA ? 2 : kPairs;
  uint32_t af[kAF][4], bf[kBF][4];
  Ring r;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    // Unlike rung 12, the next tile's first fragments are not loaded before this one's epilogue: they would be
    // live beside the 192 accumulators there. A tile's k-loop is ~90 us at 4096^3; one ldmatrix latency is not.
    gs::hopper::mbar_wait(full + 8 * r.stage, r.phase);
#pragma unroll
    for (int mi = 0; mi < (kKeepA ? kMI : 1); ++mi) ldmatrix_x4(af[mi], a_addr(r.stage, 0, mi));
#pragma unroll
    for (int p = 0; p < (kKeepA ? 1 : kPairs); ++p) ldmatrix_x4_trans(bf[p], b_addr(r.stage, 0, p));
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[mi][ni][i] = 0.0f;
      }
    }
    for (int kt = 0; kt < ktiles; ++kt) {
      Ring nx = r;
      nx.next();
      const bool more = kt + 1 < ktiles;  // this tile has a k16 step after this k-tile
#pragma unroll
      for (int kk = 0; kk < kKI; ++kk) {
        // Where the next step's fragments come from: this stage's step kk + 1, or the next stage's step 0.
        const bool next_here = kk + 1 < kKI;
        const int ns = next_here ? r.stage : nx.stage, nkk = next_here ? kk + 1 : 0;
        if constexpr (kKeepA) {
#pragma unroll
          for (int p = 0; p < kPairs; ++p) {
            if (p + 1 < kPairs) {
              ldmatrix_x4_trans(bf[(p + 1) % 2], b_addr(r.stage, kk, p + 1));
            } else if (next_here || more) {
              if (!next_here) gs::hopper::mbar_wait(full + 8 * nx.stage, nx.phase);
              ldmatrix_x4_trans(bf[(p + 1) % 2], b_addr(ns, nkk, 0));
            }
#pragma unroll
            for (int mi = 0; mi < kMI; ++mi) {
              const uint32_t b0[2] = {bf[p % 2][0], bf[p % 2][1]}, b1[2] = {bf[p % 2][2], bf[p % 2][3]};
              mma_16816(acc[mi][2 * p], af[mi], b0);
              mma_16816(acc[mi][2 * p + 1], af[mi], b1);
              if (p + 1 == kPairs && (next_here || more)) ldmatrix_x4(af[mi], a_addr(ns, nkk, mi));
            }
          }
        } else {
#pragma unroll
          for (int mi = 0; mi < kMI; ++mi) {
            if (mi + 1 < kMI) {
              ldmatrix_x4(af[(mi + 1) % 2], a_addr(r.stage, kk, mi + 1));
            } else if (next_here || more) {
              if (!next_here) gs::hopper::mbar_wait(full + 8 * nx.stage, nx.phase);
              ldmatrix_x4(af[(mi + 1) % 2], a_addr(ns, nkk, 0));
            }
#pragma unroll
            for (int p = 0; p < kPairs; ++p) {
              const uint32_t b0[2] = {bf[p][0], bf[p][1]}, b1[2] = {bf[p][2], bf[p][3]};
              mma_16816(acc[mi][2 * p], af[mi % 2], b0);
              mma_16816(acc[mi][2 * p + 1], af[mi % 2], b1);
              if (mi + 1 == kMI && (next_here || more)) ldmatrix_x4_trans(bf[p], b_addr(ns, nkk, p));
            }
          }
        }
      }
      __syncwarp();
      if (lane == 0) gs::hopper::mbar_arrive(empty + 8 * r.stage);
      r = nx;
    }

    const gs::hopper::TileIndex tile = gs::hopper::grouped_tile(t, tiles_m, tiles_n, kGroup);
    const int row0 = tile.m * kBlockM + wm0, col = tile.n * kBlockN + wn0 + 4 * (lane % 16);
    // cs_offset(row, ni * 8 + 2 (lane % 4)) is a lane's base XOR ni * 32 (cs is 4 KB-aligned, and ni * 32 only meets
    // the (row % 4) * 32 term): one XOR per store, where 16 precomputed addresses would be live beside 192
    // accumulators.
    const uint32_t st_base = cs + cs_offset(lane / 4, 2 * (lane % 4));  // row g; row g + 8 is 2 KB on
    const uint32_t ld_base = cs + cs_offset(lane / 16, 4 * (lane % 16));
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          gs::hopper::st_shared_f32x2((st_base ^ (ni * 32)) + h * 8 * kCsRowBytes, acc[mi][ni][2 * h],
                                      acc[mi][ni][2 * h + 1]);
        }
      }
      __syncwarp();
      // Row rr = lane / 16 + 2 j: (rr % 4) * 32 is the lane's (lane / 16) * 32 XOR (j % 2) * 64.
      float* out = g.c + static_cast<size_t>(row0 + mi * kMmaM + lane / 16) * g.n + col;
#pragma unroll
      for (int j = 0; j < kMmaM / 2; ++j) {
        const float4 v = ld_shared_f32x4((ld_base ^ ((j % 2) * 64)) + j * 2 * kCsRowBytes);
        if (row0 + mi * kMmaM + lane / 16 + 2 * j < g.m && col < g.n) update_c_quad(out, v, g.alpha, g.beta);
        out += 2 * static_cast<size_t>(g.n);
      }
      __syncwarp();
    }
  }
#endif
}

template <bool kKeepA>
cudaError_t launch(const gs::GemmArgs<__half, float>& g) {
  if (!gs::hopper::supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = gs::hopper::require_sm90a(); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<kKeepA>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  CUtensorMap ta, tb;
  if (const cudaError_t e = gs::hopper::make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  const int tiles = ((g.m + kBlockM - 1) / kBlockM) * ((g.n + kBlockN - 1) / kBlockN);
  const int grid = std::min(tiles, gs::hopper::sm_count());
  kernel<kKeepA><<<grid, kThreads, kSmemBytes>>>(ta, tb, g, tiles);
  return cudaGetLastError();
}

}  // namespace wide

int main(int argc, char** argv) {
  proto::program = "mma_wide_warp";
  const proto::Options o = proto::parse(argc, argv);
  using proto::check;
  // Correctness first (below): C poisoned, then against rung 12 bit for bit, against cuBLAS, and, where it is cheap,
  // against an fp64 product on the host; on shapes with edges in every dimension, one CTA with several tiles (fewer
  // SMs than tiles), and the timed sizes. The buffers hold the largest operand of any of them.
  std::vector<std::vector<int>> shapes = {{200, 264, 72}, {520, 1000, 1024}, {1000, 264, 200}, {3000, 2056, 520}};
  for (int s : o.sizes) shapes.push_back({s, s, s});
  const proto::Operands ops(shapes);
  __half *a = ops.a, *b = ops.b;
  float *c = ops.c, *c2 = ops.c2;
  auto rung12 = [&](int m, int n, int k, float* out) {
    gs::GemmArgs<__half, float> g{m, n, k, a, b, out};
    return gs::mma_f16_12_persistent::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
  };
  auto rung13 = [&](int m, int n, int k, float* out) {
    gs::GemmArgs<__half, float> g{m, n, k, a, b, out};
    return gs::mma_f16_13_stream_k::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
  };
  auto keep_a = [&](int m, int n, int k, float* out) {
    return wide::launch<true>(gs::GemmArgs<__half, float>{m, n, k, a, b, out});
  };
  auto keep_b = [&](int m, int n, int k, float* out) {
    return wide::launch<false>(gs::GemmArgs<__half, float>{m, n, k, a, b, out});
  };

  for (const auto& sh : shapes) {
    if (o.profile()) break;
    const size_t cn = size_t(sh[0]) * sh[1];
    std::vector<float> want(cn), ref(cn), got(cn);
    check(cudaMemset(c2, 0xFF, cn * 4), "poison C");
    check(rung12(sh[0], sh[1], sh[2], c2), "rung 12");
    check(cudaMemcpy(want.data(), c2, cn * 4, cudaMemcpyDeviceToHost), "C of rung 12");
    check(cudaMemset(c2, 0xFF, cn * 4), "poison C");
    ops.cublas(sh[0], sh[1], sh[2], c2);
    check(cudaMemcpy(ref.data(), c2, cn * 4, cudaMemcpyDeviceToHost), "C of cuBLAS");
    if (double(sh[0]) * sh[1] * sh[2] <= 6e8) {  // the fp64 product of the same fp16 operands, on the host
      const auto [worst12, worst_cublas] = ops.against_fp64(sh[0], sh[1], sh[2], want, ref);
      std::printf("%dx%dx%d against the fp64 product: rung 12 off by at most %.2e, cuBLAS by %.2e\n", sh[0], sh[1],
                  sh[2], worst12, worst_cublas);
      if (!(worst12 < 1e-4)) proto::fail("rung 12 is wrong");
    }
    for (int v = 0; v < 2; ++v) {
      check(cudaMemset(c, 0xFF, cn * 4), "poison C");
      check(v ? keep_b(sh[0], sh[1], sh[2], c) : keep_a(sh[0], sh[1], sh[2], c), "the wide-warp kernel");
      check(cudaMemcpy(got.data(), c, cn * 4, cudaMemcpyDeviceToHost), "C of the wide-warp kernel");
      size_t diff = 0;
      double worst = 0;
      for (size_t i = 0; i < cn; ++i) {
        diff += std::memcmp(&want[i], &got[i], 4) != 0;
        const double e = std::fabs(double(got[i]) - ref[i]) / (std::fabs(double(ref[i])) + std::sqrt(double(sh[2])));
        worst = std::isnan(e) ? INFINITY : std::max(worst, e);
      }
      double norm = 0;
      size_t unequal = 0;
      for (size_t i = 0; i < cn; ++i) norm += std::fabs(double(got[i])), unequal += got[i] != ref[i];
      std::printf("%s %dx%dx%d: %zu of %zu elements differ from rung 12; against cuBLAS %zu differ, the largest by "
                  "%.2e (|d| / (|ref| + sqrt K)); mean |C| %.3f\n", v ? "keep B" : "keep A", sh[0], sh[1], sh[2],
                  diff, cn, unequal, worst, norm / cn);
      if (diff || !(worst < 1e-3)) proto::fail("wrong C");
    }
  }

  if (o.profile()) {  // one launch of each, for Nsight Compute
    for (int n : o.sizes) {
      check(rung12(n, n, n, c), "rung 12");
      check(rung13(n, n, n, c), "rung 13");
      check(keep_a(n, n, n, c), "wide, keep A");
      check(keep_b(n, n, n, c), "wide, keep B");
      ops.cublas(n, n, n, c);
    }
    check(cudaDeviceSynchronize(), "the launches");
    return 0;
  }
  proto::time_rounds(o, {{"mma_f16/12", [&](int n) { check(rung12(n, n, n, c), "rung 12"); }},
                         {"mma_f16/13", [&](int n) { check(rung13(n, n, n, c), "rung 13"); }},
                         {"wide keep A", [&](int n) { check(keep_a(n, n, n, c), "wide, keep A"); }},
                         {"wide keep B", [&](int n) { check(keep_b(n, n, n, c), "wide, keep B"); }},
                         {"cuBLAS", [&](int n) { ops.cublas(n, n, n, c); }}});
  return 0;
}
