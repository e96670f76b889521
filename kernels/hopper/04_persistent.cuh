// hopper/04_persistent. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::hopper_04_persistent {

inline constexpr const char* kTitle = "Persistent CTAs, grouped (L2-aware) tile order";
inline constexpr const char* kAdds =
    "One CTA per SM for the whole GEMM: each walks tiles t, t + #SMs, ... and the stage ring (and its barrier "
    "phases) runs on across tiles, so the producer loads the next tile's first stages while the consumers are "
    "still storing this one's 128 accumulators, and no CTA start-up or pipeline fill sits between tiles. Tiles go "
    "in the grouped order of layout.h (bands of 16 tile rows, down each column of a band first), so the CTAs "
    "running together read 16 panels of A and 8 or 9 of B where a row-major wave reads 5 of A and all 32 of B: at "
    "8192^3, where a row-major wave spans 100+ MB of operands, the wave's operands stay in L2. The variant [order=none] "
    "walks the tiles row by row instead, for comparison. The launch-order view draws each SM's tiles one after "
    "the other: the producer starts a tile while the consumers still store the one before.";
// The variant [order=none]: the same kernel walking the tiles row-major, beside the grouped order.
inline constexpr const char* kRowOrderAdds =
    "Variant of 04_persistent: tiles walked row by row (one tile row per band) instead of in bands of "
    "16 rows, so a wave's 132 CTAs span 4 or 5 tile rows at 8192^3 (9 at 4096^3): as many panels of A, and "
    "every panel of B.";

}  // namespace gs::hopper_04_persistent


#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/probe.cuh"

namespace gs::hopper_04_persistent {

using namespace gs::hopper;

inline constexpr int kBlockM = 128, kBlockN = 256, kBlockK = kBoxK;
inline constexpr int kWgM = 64;
inline constexpr int kConsumers = kBlockM / kWgM;
inline constexpr int kThreads = (1 + kConsumers) * kWarpgroup;
inline constexpr int kConsumerWarps = kConsumers * 4;
inline constexpr int kProducerRegs = 40, kConsumerRegs = 232;
inline constexpr int kStages = 4;
inline constexpr int kGroup = 16;      // tile rows per band of the grouped tile order (the default)
inline constexpr int kRowMajor = 1;    // a band of one row: plain row-major order (the variant [order=none])
inline constexpr int kAStageBytes = kBlockM * kBlockK * 2;
inline constexpr int kBBoxBytes = kBlockK * kBoxN * 2;
inline constexpr int kBStageBytes = kBlockK * kBlockN * 2;
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;
inline constexpr int kBarOffset = kStages * kStageBytes;
inline constexpr int kSmemBytes = kBarOffset + 2 * kStages * 8 + kAtom;
using hopper::kShapeRule;
using hopper::supports;

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue", "wait full", "wgmma", "epilogue"};

using Ring = StageRing<kStages>;  // carried across tiles

template <class Probe>
__global__ void __launch_bounds__(kThreads, 1) kernel(const __grid_constant__ CUtensorMap tma_a,
                                                      const __grid_constant__ CUtensorMap tma_b,
                                                      GemmArgs<__half, float> g, Probe probe, int group) {
  const uint32_t smem = smem_base();
  const uint32_t a_tiles = smem;
  const uint32_t b_tiles = smem + kStages * kAStageBytes;
  const uint32_t full = smem + kBarOffset;
  const uint32_t empty = full + 8 * kStages;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wg = tid / kWarpgroup, wt = tid % kWarpgroup;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int tiles = tiles_m * tiles_n;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;
  GS_PROBE(probe.block_begin(-1, -1));  // tiles get their records from probe.tile()

  if (tid == 0) {
    prefetch_tensormap(&tma_a);
    prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) {
      mbar_init(full + 8 * s, 1);
      mbar_init(empty + 8 * s, kConsumerWarps);
    }
    fence_barrier_init();
  }
  __syncthreads();

  if (wg == 0) {
    setmaxnreg_dec<kProducerRegs>();
    if (warp == 0) {
      Ring r;
      for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const TileIndex tile = grouped_tile(t, tiles_m, tiles_n, group);
        GS_PROBE(probe.tile(t, tile.m, tile.n));
        const int m0 = tile.m * kBlockM, n0 = tile.n * kBlockN;
        for (int kt = 0; kt < ktiles; ++kt, r.next()) {
          GS_PROBE(probe.stage(kWaitEmpty));
          mbar_wait(empty + 8 * r.stage, r.phase ^ 1);
          GS_PROBE(probe.stage(kIssue));
          if (lane == 0) {
            const uint32_t bar = full + 8 * r.stage;
            mbar_arrive_expect_tx(bar, kStageBytes);
            tma_load_2d(a_tiles + r.stage * kAStageBytes, &tma_a, kt * kBlockK, m0, bar);
#pragma unroll
            for (int j = 0; j < kBlockN / kBoxN; ++j) {
              tma_load_2d(b_tiles + r.stage * kBStageBytes + j * kBBoxBytes, &tma_b, n0 + j * kBoxN, kt * kBlockK,
                          bar);
            }
          }
          __syncwarp();
        }
      }
    }
  } else {
    setmaxnreg_inc<kConsumerRegs>();
    const int c = wg - 1;
    auto release = [&](int s) {
      __syncwarp();
      if (lane == 0) mbar_arrive(empty + 8 * s);
    };
    Ring r;
    float acc[kBlockN / 2];
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
      const TileIndex tile = grouped_tile(t, tiles_m, tiles_n, group);
      GS_PROBE(probe.tile(t, tile.m, tile.n));
#pragma unroll
      for (int i = 0; i < kBlockN / 2; ++i) acc[i] = 0.0f;
      int prev = 0;  // stage of the previous k-tile, released once its wgmma group is done
      for (int kt = 0; kt < ktiles; ++kt, r.next()) {
        GS_PROBE(probe.stage(kWaitFull));
        mbar_wait(full + 8 * r.stage, r.phase);
        GS_PROBE(probe.stage(kMma));
        const uint64_t da =
            make_desc(a_tiles + r.stage * kAStageBytes + c * kWgM * 128, 16, kAtom, Swizzle::k128B);
        const uint64_t db = make_desc(b_tiles + r.stage * kBStageBytes, kBBoxBytes, kAtom, Swizzle::k128B);
        fence_operand(acc);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kBlockK / kWgmmaK; ++kk) {
          wgmma_m64n256k16(acc, da + desc_field(kk * kWgmmaK * 2), db + desc_field(kk * kWgmmaK * 128), 1);
        }
        wgmma_commit();
        wgmma_wait<1>();
        fence_operand(acc);
        if (kt > 0) release(prev);
        prev = r.stage;
      }
      wgmma_wait<0>();
      fence_operand(acc);
      release(prev);  // the producer may refill it with the next tile's k-tiles while we store
      GS_PROBE(probe.stage(kEpilogue));
      store_acc<kBlockN>(g, acc, tile.m * kBlockM + c * kWgM, tile.n * kBlockN, wt, probe);
    }
  }
  GS_PROBE(probe.block_end());
}

// kOrderGroup: tile rows per band of the tile order (kGroup; kRowMajor for the variant [order=none]).
template <class Probe, int kOrderGroup = kGroup>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = require_sm90a(); e != cudaSuccess) return e;
  CUtensorMap ta, tb;
  if (const cudaError_t e = make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  const int tiles = ((g.m + kBlockM - 1) / kBlockM) * ((g.n + kBlockN - 1) / kBlockN);
  // One CTA per SM (one fits: 193 KB of shared memory), traced or not: probe.tile() gives each tile its record.
  const int grid = tiles < sm_count() ? tiles : sm_count();
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(ta, tb, g, probe, kOrderGroup);
  return cudaGetLastError();
}

}  // namespace gs::hopper_04_persistent
