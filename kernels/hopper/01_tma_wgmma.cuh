// hopper/01_tma_wgmma. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::hopper_01_tma_wgmma {

inline constexpr const char* kTitle = "TMA + mbarrier pipeline + wgmma, one warpgroup";
inline constexpr const char* kAdds =
    "Hopper's own path, where mma_f16/10 needed 256 threads of cp.async and ldmatrix: one thread asks the TMA "
    "engine for whole 128B-swizzled tiles (a tensor map per matrix, edges zero-filled by the hardware), their "
    "arrival is counted in bytes on an mbarrier per stage (4 stages), and one warpgroup of 128 threads multiplies "
    "straight from shared memory with wgmma.m64n128k16 (operands named by 64-bit descriptors; B N-major, as "
    "stored). 64x128 block tile, two CTAs per SM. Left plain for the next rungs: every k-tile ends in "
    "wgmma.wait_group 0 and a __syncthreads before the freed stage is refilled, so the tensor cores drain at each "
    "one, and the 64x128 tile does only about 43 flops per byte of operands it loads (2 x 64 x 128 flops per 384 "
    "bytes of A and B per k).";

}  // namespace gs::hopper_01_tma_wgmma

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/probe.cuh"

namespace gs::hopper_01_tma_wgmma {

using namespace gs::hopper;

inline constexpr int kBlockM = 64, kBlockN = 128, kBlockK = kBoxK;  // block tile of C; k-tile of A and B
inline constexpr int kThreads = kWarpgroup;                         // one warpgroup computes the whole tile
inline constexpr int kStages = 4;
inline constexpr int kAStageBytes = kBlockM * kBlockK * 2;          // (64 rows, 64 k) halves: 8 KB, one box
inline constexpr int kBBoxBytes = kBlockK * kBoxN * 2;              // (64 k, 64 n) halves: 8 KB
inline constexpr int kBStageBytes = kBlockK * kBlockN * 2;          // two boxes side by side in n: 16 KB
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;     // what one stage's barrier waits for
inline constexpr int kBarOffset = kStages * kStageBytes;            // 96 KB of tiles, then the barriers
inline constexpr int kSmemBytes = kBarOffset + kStages * 8 + kAtom;  // + slack to align the tiles to 1024 B
using hopper::kShapeRule;
using hopper::supports;

enum Stage : int { kIssue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"TMA issue", "wait full", "wgmma", "epilogue"};
// No probe.smem sites: TMA and wgmma address shared memory themselves, no lane supplies an address.

template <class Probe>
__global__ void __launch_bounds__(kThreads) kernel(const __grid_constant__ CUtensorMap tma_a,
                                                   const __grid_constant__ CUtensorMap tma_b,
                                                   GemmArgs<__half, float> g, Probe probe) {
  const uint32_t smem = smem_base();
  const uint32_t a_tiles = smem;                                // kStages x (64, 64) K-major, 128B-swizzled
  const uint32_t b_tiles = smem + kStages * kAStageBytes;       // kStages x 2 boxes of (64 k, 64 n) N-major
  const uint32_t full = smem + kBarOffset;                      // kStages mbarriers: "stage s has landed"
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int tile_m = blockIdx.y, tile_n = blockIdx.x;
  const int m0 = tile_m * kBlockM, n0 = tile_n * kBlockN;       // block's top-left element of C
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;             // the last may overhang K: TMA fills zeros
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  // Step: TMA loads the stages behind mbarriers; wgmma reads them from shared memory.
  // One thread owns the barriers and the copies. Each full barrier expects one arrival (that thread's
  // arrive.expect_tx) plus kStageBytes of TMA traffic per phase.
  if (tid == 0) {
    prefetch_tensormap(&tma_a);
    prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) mbar_init(full + 8 * s, 1);
    fence_barrier_init();
  }
  __syncthreads();

  // k-tile kt into stage s: A rows m0.. (64 x 64 halves), B rows k0.. in two boxes of 64 columns.
  auto issue = [&](int kt, int s) {
    const uint32_t bar = full + 8 * s;
    mbar_arrive_expect_tx(bar, kStageBytes);
    tma_load_2d(a_tiles + s * kAStageBytes, &tma_a, kt * kBlockK, m0, bar);  // A[m0 .. +64][k0 .. +64]
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

  float acc[kBlockN / 2];  // 64 x 128 fp32 over 128 threads: 64 each (layout.h, wgmma_acc_cell)
#pragma unroll
  for (int i = 0; i < kBlockN / 2; ++i) acc[i] = 0.0f;

  for (int kt = 0; kt < ktiles; ++kt) {
    const int s = kt % kStages;
    GS_PROBE(probe.stage(kWait));
    mbar_wait(full + 8 * s, (kt / kStages) & 1);  // phase kt / kStages of stage s: its bytes have landed
    GS_PROBE(probe.stage(kMma));
    // A: K-major, rows of 128 B, 8-row groups 1024 B apart (SBO); k16 step kk starts 32 bytes further into
    // the row (the hardware applies the swizzle to the address it computes, so the offset is the logical one).
    // B: N-major boxes of 64 columns, 8-row k groups 1024 B apart (SBO), the next 64 columns one box (8 KB)
    // further (LBO); k16 step kk starts 16 rows = 2048 B further.
    const uint64_t da = make_desc(a_tiles + s * kAStageBytes, 16, kAtom, Swizzle::k128B);
    const uint64_t db = make_desc(b_tiles + s * kBStageBytes, kBBoxBytes, kAtom, Swizzle::k128B);
    fence_operand(acc);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kBlockK / kWgmmaK; ++kk) {
      wgmma_m64n128k16(acc, da + desc_field(kk * kWgmmaK * 2), db + desc_field(kk * kWgmmaK * 128), 1);
    }
    wgmma_commit();
    wgmma_wait<0>();  // the plain way: drain before the stage may be reused (rung 03 keeps one in flight)
    fence_operand(acc);
    __syncthreads();  // every warp's wgmma has read stage s
    if (warp == 0 && kt + kStages < ktiles) {
      GS_PROBE(probe.stage(kIssue));
      if (lane == 0) issue(kt + kStages, s);
      __syncwarp();
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
  store_acc<kBlockN>(g, acc, m0, n0, tid, probe);
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

}  // namespace gs::hopper_01_tma_wgmma
