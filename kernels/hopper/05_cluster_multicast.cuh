// hopper/05_cluster_multicast. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::hopper_05_cluster_multicast {

inline constexpr const char* kTitle = "2x1 clusters, B multicast by TMA";
inline constexpr const char* kAdds =
    "CTAs run in clusters of two on neighbouring SMs, computing vertically adjacent 128x256 tiles that need the "
    "same 64x256 B tile every k-tile. Each CTA loads its own A and half of B, and TMA multicast writes each half "
    "into both CTAs' shared memory and counts its bytes on both CTAs' full barriers: L2 serves 32 KB per CTA and "
    "k-tile instead of 48. A stage is now empty only when the consumers of both CTAs have read it, so consumer "
    "warps arrive on the empty barrier of each CTA (mapa + a cluster-scope arrive), and a cluster barrier keeps "
    "either CTA from exiting while its partner may still write into it. Persistent and grouped as rung 04, over "
    "256x256 cluster tiles. Measured no faster than 04, within a point either way (of cuBLAS, interleaved with it: "
    "on an H100 0.91 / 0.96 / 1.01 against 04's 0.94 / 0.95 / 1.01 at 2048 / 4096 / 8192; on an H200 0.97 / 1.01 "
    "against 0.98 / 1.01 at 4096 / 8192): L2 bandwidth was not the limit (the power-held clock was), and the "
    "coupled CTAs stall together. 06 builds on it.";

}  // namespace gs::hopper_05_cluster_multicast


#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/probe.cuh"

namespace gs::hopper_05_cluster_multicast {

using namespace gs::hopper;

inline constexpr int kBlockM = 128, kBlockN = 256, kBlockK = kBoxK;  // one CTA's tile
inline constexpr int kCluster = 2;                                    // CTAs per cluster, stacked along M
inline constexpr int kWgM = 64;
inline constexpr int kConsumers = kBlockM / kWgM;
inline constexpr int kThreads = (1 + kConsumers) * kWarpgroup;
inline constexpr int kConsumerWarps = kConsumers * 4;
inline constexpr int kProducerRegs = 40, kConsumerRegs = 232;
inline constexpr int kStages = 4;
inline constexpr int kGroup = 8;                                  // cluster-tile rows (256 rows of C) per band
inline constexpr int kAStageBytes = kBlockM * kBlockK * 2;
inline constexpr int kBBoxBytes = kBlockK * kBoxN * 2;
inline constexpr int kBStageBytes = kBlockK * kBlockN * 2;
inline constexpr int kBBoxesPerCta = kBlockN / kBoxN / kCluster;  // 2 of the 4 B boxes issued by each CTA
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;   // still 48 KB land in each CTA per stage
inline constexpr int kBarOffset = kStages * kStageBytes;
inline constexpr int kSmemBytes = kBarOffset + 2 * kStages * 8 + kAtom;
using hopper::kShapeRule;
using hopper::supports;

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue", "wait full", "wgmma", "epilogue"};

using Ring = StageRing<kStages>;

template <class Probe>
__global__ void __cluster_dims__(kCluster, 1, 1) __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           GemmArgs<__half, float> g, Probe probe) {
  const uint32_t smem = smem_base();
  const uint32_t a_tiles = smem;
  const uint32_t b_tiles = smem + kStages * kAStageBytes;
  const uint32_t full = smem + kBarOffset;    // this CTA's A and both halves of B landed: 48 KB
  const uint32_t empty = full + 8 * kStages;  // both CTAs' consumers read the stage: 2 x 8 arrivals
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wg = tid / kWarpgroup, wt = tid % kWarpgroup;
  const int rank = static_cast<int>(cluster_rank());  // 0: upper tile of the pair, 1: lower
  const int cluster = blockIdx.x / kCluster, clusters = gridDim.x / kCluster;
  // Cluster tiles: 256 x 256 of C, pairs of vertically adjacent CTA tiles. With an odd number of tile rows the
  // last pair's lower tile lies wholly below M: that CTA loads zeros for A, still feeds its half of B to its
  // partner, and stores nothing (store_acc drops rows past M).
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int ctiles_m = (tiles_m + kCluster - 1) / kCluster;
  const int ctiles = ctiles_m * tiles_n;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;
  GS_PROBE(probe.block_begin(-1, -1));  // tiles get their records from probe.tile(), as in rung 04

  if (tid == 0) {
    prefetch_tensormap(&tma_a);
    prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) {
      mbar_init(full + 8 * s, 1);
      mbar_init(empty + 8 * s, kCluster * kConsumerWarps);
    }
    fence_barrier_init();
  }
  cluster_sync();  // both CTAs' barriers exist before either multicasts into, or arrives on, the other's

  if (wg == 0) {
    setmaxnreg_dec<kProducerRegs>();
    if (warp == 0) {
      Ring r;
      for (int t = cluster; t < ctiles; t += clusters) {
        const TileIndex ct = grouped_tile(t, ctiles_m, tiles_n, kGroup);
        GS_PROBE(probe.tile(t * kCluster + rank, ct.m * kCluster + rank, ct.n));
        const int m0 = (ct.m * kCluster + rank) * kBlockM, n0 = ct.n * kBlockN;
        for (int kt = 0; kt < ktiles; ++kt, r.next()) {
          GS_PROBE(probe.stage(kWaitEmpty));
          // Step: a cluster of two; TMA multicast writes each half of B into both CTAs.
          // Complete only when both CTAs' consumers released the stage: this CTA writes into both.
          mbar_wait(empty + 8 * r.stage, r.phase ^ 1);
          GS_PROBE(probe.stage(kIssue));
          if (lane == 0) {
            const uint32_t bar = full + 8 * r.stage;
            // 48 KB arrive here: 16 of A from this CTA, 16 of B from each CTA. The partner's bytes may come
            // first; the phase still cannot complete before this arrival.
            mbar_arrive_expect_tx(bar, kStageBytes);
            tma_load_2d(a_tiles + r.stage * kAStageBytes, &tma_a, kt * kBlockK, m0, bar);  // own A rows
#pragma unroll
            for (int i = 0; i < kBBoxesPerCta; ++i) {
              const int j = rank * kBBoxesPerCta + i;  // box j: columns n0 + 64 j .. + 63, to both CTAs
              tma_load_2d_multicast(b_tiles + r.stage * kBStageBytes + j * kBBoxBytes, &tma_b, n0 + j * kBoxN,
                                    kt * kBlockK, bar, (1u << kCluster) - 1);
            }
          }
          __syncwarp();
        }
      }
    }
  } else {
    setmaxnreg_inc<kConsumerRegs>();
    const int c = wg - 1;
    auto release = [&](int s) {  // to both CTAs' empty barriers: both producers write this stage of ours
      __syncwarp();
      if (lane == 0) {
#pragma unroll
        for (int cta = 0; cta < kCluster; ++cta) mbar_arrive_cluster(empty + 8 * s, cta);
      }
    };
    Ring r;
    float acc[kBlockN / 2];
    for (int t = cluster; t < ctiles; t += clusters) {
      const TileIndex ct = grouped_tile(t, ctiles_m, tiles_n, kGroup);
      GS_PROBE(probe.tile(t * kCluster + rank, ct.m * kCluster + rank, ct.n));
#pragma unroll
      for (int i = 0; i < kBlockN / 2; ++i) acc[i] = 0.0f;
      int prev = 0;
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
      release(prev);
      GS_PROBE(probe.stage(kEpilogue));
      store_acc<kBlockN>(g, acc, (ct.m * kCluster + rank) * kBlockM + c * kWgM, ct.n * kBlockN, wt, probe);
    }
  }
  GS_PROBE(probe.block_end());
  cluster_sync();  // the partner may still multicast into this CTA or arrive on its barriers until here
}

template <class Probe>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = require_sm90a(); e != cudaSuccess) return e;
  CUtensorMap ta, tb;
  if (const cudaError_t e = make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  // How many clusters of two fit on the GPU at once (an SM left over in a GPC with an odd count stays idle).
  static const int max_clusters = [] {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(kCluster * 1024);
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = kSmemBytes;
    int n = 0;
    if (cudaOccupancyMaxActiveClusters(&n, kernel<Probe>, &cfg) != cudaSuccess || n <= 0) {
      cudaGetLastError();  // clear it: the fallback below is good enough
      int dev = 0, sms = 132;
      if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
      n = sms / kCluster;
    }
    return n;
  }();
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int ctiles = ((tiles_m + kCluster - 1) / kCluster) * tiles_n;
  // Persistent, every cluster slot busy, traced or not (probe.tile() gives each tile its record).
  const int clusters = ctiles < max_clusters ? ctiles : max_clusters;
  kernel<Probe><<<clusters * kCluster, kThreads, kSmemBytes, stream>>>(ta, tb, g, probe);
  return cudaGetLastError();
}

}  // namespace gs::hopper_05_cluster_multicast
