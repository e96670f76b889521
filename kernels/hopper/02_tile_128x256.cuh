// hopper/02_tile_128x256. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::hopper_02_tile_128x256 {

inline constexpr const char* kTitle = "128x256 tile: two warpgroups, wgmma.m64n256k16";
inline constexpr const char* kAdds =
    "Two warpgroups, each 64 rows of a 128x256 tile with wgmma.m64n256k16 (128 fp32 accumulators per thread), "
    "share one 128x64 A and one 64x256 B tile per k-tile: about 85 flops per byte of operands instead of 43, and "
    "each wgmma reads its A rows once for 256 columns instead of 128. Four 48 KB stages fill 192 KB: one CTA per "
    "SM. Same synchronous pipeline as rung 01 (drain, __syncthreads, refill), now over 256 threads.";

}  // namespace gs::hopper_02_tile_128x256

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/probe.cuh"

namespace gs::hopper_02_tile_128x256 {

using namespace gs::hopper;

inline constexpr int kBlockM = 128, kBlockN = 256, kBlockK = kBoxK;  // block tile of C; k-tile of A and B
inline constexpr int kWgM = 64;                                      // rows of C per warpgroup (wgmma's m)
inline constexpr int kThreads = (kBlockM / kWgM) * kWarpgroup;       // 2 warpgroups
inline constexpr int kStages = 4;
inline constexpr int kAStageBytes = kBlockM * kBlockK * 2;           // (128 rows, 64 k): 16 KB, one box
inline constexpr int kBBoxBytes = kBlockK * kBoxN * 2;               // (64 k, 64 n): 8 KB
inline constexpr int kBStageBytes = kBlockK * kBlockN * 2;           // four boxes along n: 32 KB
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;      // 48 KB per stage
inline constexpr int kBarOffset = kStages * kStageBytes;             // 192 KB of tiles, then the barriers
inline constexpr int kSmemBytes = kBarOffset + kStages * 8 + kAtom;
using hopper::kShapeRule;
using hopper::supports;

enum Stage : int { kIssue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"TMA issue", "wait full", "wgmma", "epilogue"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 1) kernel(const __grid_constant__ CUtensorMap tma_a,
                                                      const __grid_constant__ CUtensorMap tma_b,
                                                      GemmArgs<__half, float> g, Probe probe) {
  const uint32_t smem = smem_base();
  const uint32_t a_tiles = smem;                           // kStages x (128, 64) K-major, 128B-swizzled
  const uint32_t b_tiles = smem + kStages * kAStageBytes;  // kStages x 4 boxes of (64 k, 64 n) N-major
  const uint32_t full = smem + kBarOffset;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wg = tid / kWarpgroup, wt = tid % kWarpgroup;  // warpgroup (rows 64 wg ..) and thread in it
  const int tile_m = blockIdx.y, tile_n = blockIdx.x;
  const int m0 = tile_m * kBlockM, n0 = tile_n * kBlockN;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  if (tid == 0) {
    prefetch_tensormap(&tma_a);
    prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) mbar_init(full + 8 * s, 1);
    fence_barrier_init();
  }
  __syncthreads();

  auto issue = [&](int kt, int s) {
    const uint32_t bar = full + 8 * s;
    mbar_arrive_expect_tx(bar, kStageBytes);
    tma_load_2d(a_tiles + s * kAStageBytes, &tma_a, kt * kBlockK, m0, bar);  // A[m0 .. +128][k0 .. +64]
#pragma unroll
    for (int j = 0; j < kBlockN / kBoxN; ++j) {
      tma_load_2d(b_tiles + s * kBStageBytes + j * kBBoxBytes, &tma_b, n0 + j * kBoxN, kt * kBlockK, bar);  // B[k0..][n0 + 64j ..]
    }
  };
  if (warp == 0) {
    GS_PROBE(probe.stage(kIssue));
    if (lane == 0) {
      for (int kt = 0; kt < kStages && kt < ktiles; ++kt) issue(kt, kt);
    }
    __syncwarp();
  }

  float acc[kBlockN / 2];  // this warpgroup's 64 x 256 fp32: 128 per thread
#pragma unroll
  for (int i = 0; i < kBlockN / 2; ++i) acc[i] = 0.0f;

  for (int kt = 0; kt < ktiles; ++kt) {
    const int s = kt % kStages;
    GS_PROBE(probe.stage(kWait));
    mbar_wait(full + 8 * s, (kt / kStages) & 1);
    GS_PROBE(probe.stage(kMma));
    // Warpgroup wg reads A rows 64 wg .. + 63: 64 rows of 128 B = 8 KB in (8 whole swizzle atoms).
    const uint64_t da = make_desc(a_tiles + s * kAStageBytes + wg * kWgM * 128, 16, kAtom, Swizzle::k128B);
    const uint64_t db = make_desc(b_tiles + s * kBStageBytes, kBBoxBytes, kAtom, Swizzle::k128B);
    fence_operand(acc);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kBlockK / kWgmmaK; ++kk) {
      wgmma_m64n256k16(acc, da + desc_field(kk * kWgmmaK * 2), db + desc_field(kk * kWgmmaK * 128), 1);
    }
    wgmma_commit();
    wgmma_wait<0>();
    fence_operand(acc);
    __syncthreads();  // both warpgroups have read stage s
    if (warp == 0 && kt + kStages < ktiles) {
      GS_PROBE(probe.stage(kIssue));
      if (lane == 0) issue(kt + kStages, s);
      __syncwarp();
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
  store_acc<kBlockN>(g, acc, m0 + wg * kWgM, n0, wt, probe);
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = require_sm90a(); e != cudaSuccess) return e;
  CUtensorMap ta, tb;
  if (const cudaError_t e = make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  const dim3 grid((g.n + kBlockN - 1) / kBlockN, (g.m + kBlockM - 1) / kBlockM);
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(ta, tb, g, probe);
  return cudaGetLastError();
}

}  // namespace gs::hopper_02_tile_128x256
