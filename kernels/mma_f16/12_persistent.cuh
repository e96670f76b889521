// mma_f16/12_persistent. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_12_persistent {

inline constexpr const char* kTitle = "Persistent CTAs: the next tile loads while this one stores";
inline constexpr const char* kAdds =
    "Rung 11 spends about 5 us of each 67 us tile with the tensor pipe idle: the pipeline fills (the first TMA "
    "boxes land) and drains (the eight mma warps meet at a barrier and stage C through the stages). Here one CTA "
    "per SM walks tiles t, t + #SMs, ... and the stage ring with its mbarrier phases runs on from tile to tile, as "
    "in hopper/04: the producer loads the next tile's first k-tiles while the mma warps still compute and store "
    "this one, and each mma warp loads the next tile's first fragments before its epilogue. C is staged in each "
    "warp's own 4 KB past the stages (which hold the next tile by then), 16 rows at a time, and leaves 16 bytes "
    "per lane as in 11, with no barrier among the mma warps. Tiles go in bands of 8 tile rows (layout.h's grouped "
    "order), the footprint of 11's bands of 16 tile columns. On an H100, timed beside 11 in one bench: 3% faster "
    "at 4096^3, level with 11 at 2048^3 and 8192^3 (bench/NOTES.md says why so little).";

}  // namespace gs::mma_f16_12_persistent

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/hopper/layout.h"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_12_persistent {

using namespace gs::mma_f16;
using gs::hopper::kAtom;
using gs::hopper::kBoxK;
using gs::hopper::kBoxN;

inline constexpr int kBlockM = 256, kBlockN = 128, kBlockK = kBoxK;  // 10's tiles; a k-tile is one 128-byte row
inline constexpr int kWarpsM = 4, kWarpsN = 2;                     // 8 mma warps as in 10
inline constexpr int kWarpM = kBlockM / kWarpsM, kWarpN = kBlockN / kWarpsN;  // 64 x 64 per warp
inline constexpr int kMI = kWarpM / kMmaM, kNI = kWarpN / kMmaN;   // 4 x 8 mma tiles per warp
inline constexpr int kKI = kBlockK / kMmaK;                        // 4 k16 steps per k-tile
inline constexpr int kMmaWarps = kWarpsM * kWarpsN;
inline constexpr int kThreads = kMmaWarps * 32 + 128;              // warpgroup 2 (warps 8-11) produces
// A ninth warp would cap every thread at 168 registers (3 warps on some scheduler, 16K registers each); 10 uses
// 240. So the producer is a whole warpgroup, which setmaxnreg shrinks to 24 registers (the least it allows) while
// the two mma warpgroups grow to 240: each scheduler holds one warp of each, 240 + 240 + 24 = 504 of its 512
// registers per lane. (ptxas reports the same 8-byte spill with 40 and 232 as with 24 and 240.)
inline constexpr int kProducerRegs = 24, kMmaRegs = 240;
inline constexpr int kStages = 4;
inline constexpr int kRowBytes = kBlockK * 2;                      // 128: A rows, and rows of each B box
inline constexpr int kAStageBytes = kBlockM * kRowBytes;           // 32 KB
inline constexpr int kBBoxBytes = kBlockK * kBoxN * 2;             // 8 KB: 64 k-rows of 64 columns
inline constexpr int kBStageBytes = kBlockN / kBoxN * kBBoxBytes;  // 16 KB
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;    // 48 KB of TMA per k-tile
// Each mma warp's own epilogue staging, after the stages (which hold the next tile by the time C leaves): one
// 16-row slab of its 64x64 fp32 tile at a time, rows of 256 bytes whose 32-byte units are XORed with row % 4 (11's
// layout), 4 KB per warp. 192 + 32 KB fit the 227 KB an H100 or H200 block may have.
inline constexpr int kCsRowBytes = kWarpN * 4;
inline constexpr int kCsWarpBytes = kMmaM * kCsRowBytes;           // 4 KB
inline constexpr int kCsOffset = kStages * kStageBytes;            // 192 KB
inline constexpr int kBarOffset = kCsOffset + kMmaWarps * kCsWarpBytes;  // 224 KB, then full[4], empty[4]
inline constexpr int kSmemBytes = kBarOffset + 2 * kStages * 8 + kAtom;
static_assert(kSmemBytes <= 227 * 1024, "one CTA per SM");
__device__ __forceinline__ uint32_t cs_offset(int row, int col) {
  return row * kCsRowBytes + (((col / 8) ^ (row % 4)) * 32) + (col % 8) * 4;
}
inline constexpr int kGroup = 8;  // tile rows per band: 8 x 256 rows, as 11's 16 x 128 columns
static_assert(kWarpN == kBoxN, "each mma warp's columns lie in one box of B");
using gs::hopper::kShapeRule;
using gs::hopper::supports;

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue", "wait full", "mma", "epilogue"};
enum Site : int { kAsFrag, kBsFrag, kCStage, kCRead };
inline constexpr const char* kSmemSites[] = {"As ldmatrix.x4", "Bs ldmatrix.x4.trans", "C staging store (8 B)",
                                             "C staging load (16 B)"};

using Ring = gs::hopper::StageRing<kStages>;  // carried across tiles

// tiles: how many tiles this launch computes, the first of the grouped order: all of C's, except where
// mma_f16/13 leaves the last wave's tiles to its stream-K kernel.
template <class Probe>
__global__ void __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           GemmArgs<__half, float> g, int tiles, Probe probe) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t as = gs::hopper::smem_base();      // kStages x (256, 64) halves, 128B-swizzled (TMA)
  const uint32_t bs = as + kStages * kAStageBytes;  // kStages x 2 boxes of (64 k, 64 n)
  const uint32_t full = as + kBarOffset;            // stage s landed: 1 arrival + 48 KB of TMA
  const uint32_t empty = full + 8 * kStages;        // stage s read: one arrival per mma warp
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;  // TMA fills zeros past K, M and N
  GS_PROBE(probe.block_begin(-1, -1));  // tiles get their records from probe.tile()

  if (tid == 0) {
    gs::hopper::prefetch_tensormap(&tma_a);
    gs::hopper::prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) {
      gs::hopper::mbar_init(full + 8 * s, 1);
      gs::hopper::mbar_init(empty + 8 * s, kMmaWarps);
    }
    gs::hopper::fence_barrier_init();
  }
  __syncthreads();  // the only block-wide barrier: from here producer and mma warps meet on mbarriers

  if (warp >= kMmaWarps) {
    gs::hopper::setmaxnreg_dec<kProducerRegs>();
    if (warp == kMmaWarps) {  // warps 9-11 only gave their registers away
      Ring r;
      // Step: persistent CTAs walk tiles t, t + #SMs, ...; the ring runs on between tiles.
      for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const gs::hopper::TileIndex tile = gs::hopper::grouped_tile(t, tiles_m, tiles_n, kGroup);
        GS_PROBE(probe.tile(t, tile.m, tile.n));
        const int bm0 = tile.m * kBlockM, bn0 = tile.n * kBlockN;
        for (int kt = 0; kt < ktiles; ++kt, r.next()) {
          GS_PROBE(probe.stage(kWaitEmpty));
          gs::hopper::mbar_wait(empty + 8 * r.stage, r.phase ^ 1);  // round 0 waits for the phase before: done
          GS_PROBE(probe.stage(kIssue));
          if (lane == 0) {
            const uint32_t bar = full + 8 * r.stage;
            gs::hopper::mbar_arrive_expect_tx(bar, kStageBytes);
            gs::hopper::tma_load_2d(as + r.stage * kAStageBytes, &tma_a, kt * kBlockK, bm0, bar);  // A[bm0 ..][k0 ..]
#pragma unroll
            for (int j = 0; j < kBlockN / kBoxN; ++j) {  // B[k0 ..][bn0 + 64 j ..]
              gs::hopper::tma_load_2d(bs + r.stage * kBStageBytes + j * kBBoxBytes, &tma_b, bn0 + j * kBoxN,
                                      kt * kBlockK, bar);
            }
          }
          __syncwarp();
        }
      }
    }
    GS_PROBE(probe.block_end());
    return;
  }

  gs::hopper::setmaxnreg_inc<kMmaRegs>();
  const uint32_t cs = as + kCsOffset + warp * kCsWarpBytes;  // this warp's epilogue staging
  const int wm0 = (warp / kWarpsN) * kWarpM, wn0 = (warp % kWarpsN) * kWarpN;
  // Fragment addresses exactly as in 11 (TMA's 128B swizzle is rung 09's XOR layout).
  const int x = (lane / 16) ^ (lane % 8);
  const uint32_t a_frag = as + (wm0 + lane % 16) * kRowBytes + x * 16;
  const uint32_t b_frag = bs + (wn0 / kBoxN) * kBBoxBytes + (lane % 16) * kRowBytes + x * 16;
  auto load_frags = [&](int s, int kk, uint32_t(&af)[kMI][4], uint32_t(&bf)[kNI][2]) {
    const uint32_t a = (a_frag + s * kAStageBytes) ^ (kk * 32);
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
      const uint32_t p = a + mi * kMmaM * kRowBytes;
      GS_PROBE(probe.smem(kAsFrag, smem_generic(p), 16, SmemKind::kLdmatrix));
      ldmatrix_x4(af[mi], p);
    }
    const uint32_t b = b_frag + s * kBStageBytes + kk * kMmaK * kRowBytes;
#pragma unroll
    for (int ni = 0; ni < kNI; ni += 2) {
      const uint32_t p = b ^ (ni * 16);
      GS_PROBE(probe.smem(kBsFrag, smem_generic(p), 16, SmemKind::kLdmatrix));
      uint32_t r[4];
      ldmatrix_x4_trans(r, p);
      bf[ni][0] = r[0], bf[ni][1] = r[1], bf[ni + 1][0] = r[2], bf[ni + 1][1] = r[3];
    }
  };

  float acc[kMI][kNI][4];
  uint32_t af[2][kMI][4], bf[2][kNI][2];
  Ring r;  // the stage of the k-tile being computed, across tiles
  GS_PROBE(probe.stage(kWaitFull));
  gs::hopper::mbar_wait(full, 0);  // the grid has no more CTAs than tiles
  GS_PROBE(probe.stage(kMma));
  load_frags(0, 0, af[0], bf[0]);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const gs::hopper::TileIndex tile = gs::hopper::grouped_tile(t, tiles_m, tiles_n, kGroup);
    GS_PROBE(probe.tile(t, tile.m, tile.n));
    const bool last_tile = t + int(gridDim.x) >= tiles;
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[mi][ni][i] = 0.0f;
      }
    }
    for (int kt = 0; kt < ktiles; ++kt) {
      GS_PROBE(probe.iteration(kt));  // the probe records the CTA's first tile only
      Ring nx = r;
      nx.next();
#pragma unroll
      for (int kk = 0; kk < kKI; ++kk) {
        if (kk == kKI - 1) {
          // Step 0 of the next k-tile, which is the next tile's first when this one ends: the ring runs on.
          if (kt + 1 < ktiles || !last_tile) {
            GS_PROBE(probe.stage(kWaitFull));
            gs::hopper::mbar_wait(full + 8 * nx.stage, nx.phase);
            GS_PROBE(probe.stage(kMma));
            load_frags(nx.stage, 0, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
          }
        } else {
          load_frags(r.stage, kk + 1, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
        }
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
          for (int n = 0; n < kNI; ++n) {
            const int ni = mi % 2 ? kNI - 1 - n : n;  // serpentine, as in 10
            mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
          }
        }
      }
      __syncwarp();
      if (lane == 0) gs::hopper::mbar_arrive(empty + 8 * r.stage);  // the producer may refill it
      r = nx;
    }

    GS_PROBE(probe.stage(kEpilogue));
    GS_PROBE(probe.epilogue());
    // C leaves through the warp's own 4 KB, a 16-row slab at a time, 16 bytes per lane as in 11, but with no
    // barrier among the mma warps: the stages already hold the next tile, and each warp only waits for itself.
    const int row0 = tile.m * kBlockM + wm0, col = tile.n * kBlockN + wn0 + 4 * (lane % 16);
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {  // h = 0: (c0, c1) at row g; h = 1: (c2, c3) at row g + 8
          const int row = lane / 4 + 8 * h, c = ni * kMmaN + 2 * (lane % 4);
          GS_PROBE(probe.smem(kCStage, smem_generic(cs + cs_offset(row, c)), 8, SmemKind::kStore));
          st_shared_f32x2(cs + cs_offset(row, c), acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
        }
      }
      __syncwarp();  // the slab is written: its lanes read back what other lanes of the warp wrote
#pragma unroll
      for (int r = lane / 16; r < kMmaM; r += 2) {
        GS_PROBE(probe.smem(kCRead, smem_generic(cs + cs_offset(r, 4 * (lane % 16))), 16, SmemKind::kLoad));
        const float4 v = ld_shared_f32x4(cs + cs_offset(r, 4 * (lane % 16)));
        const int grow = row0 + mi * kMmaM + r;
        if (grow < g.m && col < g.n) {  // N % 8 == 0: a 4-column group is wholly inside C or past its edge
          GS_PROBE(probe.gmem(kGmemC, g.c + static_cast<size_t>(grow) * g.n + col, 16, GmemKind::kStore));
          update_c_quad(g.c + static_cast<size_t>(grow) * g.n + col, v, g.alpha, g.beta);
        }
      }
      __syncwarp();  // read back before the next slab overwrites it
    }
    if (!last_tile) GS_PROBE(probe.stage(kMma));
  }
  GS_PROBE(probe.block_end());
#endif
}

// The registry's availability check: nullptr on an sm_90 GPU, otherwise why not.
inline const char* unavailable_here() {
  return gs::hopper::require_sm90a() == cudaSuccess
             ? nullptr
             : "unavailable on this GPU: mma_f16/12 is built for sm_90a only (TMA, setmaxnreg) and needs compute "
               "capability 9.0 (H100, H200)";
}

template <class Probe>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = gs::hopper::require_sm90a(); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  CUtensorMap ta, tb;
  if (const cudaError_t e = gs::hopper::make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  const int tiles = ((g.m + kBlockM - 1) / kBlockM) * ((g.n + kBlockN - 1) / kBlockN);
  // One CTA per SM (one fits: 225 KB of shared memory), traced or not: probe.tile() gives each tile its record.
  const int grid = tiles < gs::hopper::sm_count() ? tiles : gs::hopper::sm_count();
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(ta, tb, g, tiles, probe);
  return cudaGetLastError();
}

}  // namespace gs::mma_f16_12_persistent
