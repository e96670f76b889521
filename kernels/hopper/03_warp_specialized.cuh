// hopper/03_warp_specialized. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::hopper_03_warp_specialized {

inline constexpr const char* kTitle = "Producer/consumer warp specialization, setmaxnreg";
inline constexpr const char* kAdds =
    "A third warpgroup becomes the producer: one of its threads waits for a stage to be empty and refills it "
    "with TMA, while the two consumer warpgroups only wait for full stages and issue wgmma. Each stage has two "
    "mbarriers, full (TMA bytes) and empty (one arrival per consumer warp), so no __syncthreads remains in the "
    "k-loop and a consumer keeps one k-tile of wgmma in flight (wait_group 1) while it releases the stage before. "
    "With 384 threads the register cap is 168; setmaxnreg gives the producer 40 and the consumers 232, room for "
    "128 accumulators without spilling. At 8192^3 on an H100 it gains nothing over 02: both launch their tiles "
    "row-major, and a wave then reads every panel of B from DRAM (rung 04 fixes the order).";

}  // namespace gs::hopper_03_warp_specialized

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/probe.cuh"

namespace gs::hopper_03_warp_specialized {

using namespace gs::hopper;

inline constexpr int kBlockM = 128, kBlockN = 256, kBlockK = kBoxK;
inline constexpr int kWgM = 64;                                  // rows of C per consumer warpgroup
inline constexpr int kConsumers = kBlockM / kWgM;                // 2 consumer warpgroups
inline constexpr int kThreads = (1 + kConsumers) * kWarpgroup;   // warpgroup 0 produces: 384 threads
inline constexpr int kConsumerWarps = kConsumers * 4;            // arrivals that empty a stage
inline constexpr int kProducerRegs = 40, kConsumerRegs = 232;    // 128 x 40 + 256 x 232 <= 64K registers
inline constexpr int kStages = 4;
inline constexpr int kAStageBytes = kBlockM * kBlockK * 2;       // 16 KB
inline constexpr int kBBoxBytes = kBlockK * kBoxN * 2;           // 8 KB
inline constexpr int kBStageBytes = kBlockK * kBlockN * 2;       // 32 KB
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;  // 48 KB
inline constexpr int kBarOffset = kStages * kStageBytes;         // 192 KB, then full[kStages], empty[kStages]
inline constexpr int kSmemBytes = kBarOffset + 2 * kStages * 8 + kAtom;
using hopper::kShapeRule;
using hopper::supports;

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue", "wait full", "wgmma", "epilogue"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 1) kernel(const __grid_constant__ CUtensorMap tma_a,
                                                      const __grid_constant__ CUtensorMap tma_b,
                                                      GemmArgs<__half, float> g, Probe probe) {
  const uint32_t smem = smem_base();
  const uint32_t a_tiles = smem;                           // kStages x (128, 64) K-major, 128B-swizzled
  const uint32_t b_tiles = smem + kStages * kAStageBytes;  // kStages x 4 boxes of (64 k, 64 n) N-major
  const uint32_t full = smem + kBarOffset;                 // stage s landed: 1 arrival + 48 KB of TMA
  const uint32_t empty = full + 8 * kStages;               // stage s read: one arrival per consumer warp
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wg = tid / kWarpgroup, wt = tid % kWarpgroup;
  const int tile_m = blockIdx.y, tile_n = blockIdx.x;
  const int m0 = tile_m * kBlockM, n0 = tile_n * kBlockN;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  if (tid == 0) {
    prefetch_tensormap(&tma_a);
    prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) {
      mbar_init(full + 8 * s, 1);
      mbar_init(empty + 8 * s, kConsumerWarps);
    }
    fence_barrier_init();
  }
  __syncthreads();  // the last block-wide barrier: from here the roles only meet on mbarriers

  if (wg == 0) {
    // Producer. The whole warp 0 walks the k-loop (so its probe stamps are warp-uniform); lane 0 issues.
    setmaxnreg_dec<kProducerRegs>();
    if (warp == 0) {
      for (int kt = 0; kt < ktiles; ++kt) {
        const int s = kt % kStages;
        GS_PROBE(probe.stage(kWaitEmpty));
        // Round kt / kStages of stage s needs the consumers' release of round kt / kStages - 1; the first
        // round waits for parity 1, the phase "before" a fresh barrier, which counts as complete.
        mbar_wait(empty + 8 * s, ((kt / kStages) & 1) ^ 1);
        GS_PROBE(probe.stage(kIssue));
        if (lane == 0) {
          const uint32_t bar = full + 8 * s;
          mbar_arrive_expect_tx(bar, kStageBytes);
          tma_load_2d(a_tiles + s * kAStageBytes, &tma_a, kt * kBlockK, m0, bar);  // A[m0 ..][k0 ..]
#pragma unroll
          for (int j = 0; j < kBlockN / kBoxN; ++j) {
            tma_load_2d(b_tiles + s * kBStageBytes + j * kBBoxBytes, &tma_b, n0 + j * kBoxN, kt * kBlockK, bar);
          }
        }
        __syncwarp();
      }
    }
  } else {
    // Consumers: warpgroup wg - 1 computes rows 64 (wg - 1) .. + 63 of the tile.
    setmaxnreg_inc<kConsumerRegs>();
    const int c = wg - 1;
    float acc[kBlockN / 2];
#pragma unroll
    for (int i = 0; i < kBlockN / 2; ++i) acc[i] = 0.0f;
    auto release = [&](int s) {  // this warp's wgmma no longer read stage s
      __syncwarp();
      if (lane == 0) mbar_arrive(empty + 8 * s);
    };
    for (int kt = 0; kt < ktiles; ++kt) {
      const int s = kt % kStages;
      GS_PROBE(probe.stage(kWaitFull));
      mbar_wait(full + 8 * s, (kt / kStages) & 1);
      GS_PROBE(probe.stage(kMma));
      const uint64_t da = make_desc(a_tiles + s * kAStageBytes + c * kWgM * 128, 16, kAtom, Swizzle::k128B);
      const uint64_t db = make_desc(b_tiles + s * kBStageBytes, kBBoxBytes, kAtom, Swizzle::k128B);
      fence_operand(acc);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kBlockK / kWgmmaK; ++kk) {
        wgmma_m64n256k16(acc, da + desc_field(kk * kWgmmaK * 2), db + desc_field(kk * kWgmmaK * 128), 1);
      }
      wgmma_commit();
      // At most this k-tile's group still running: the previous one has finished reading its stage.
      wgmma_wait<1>();
      fence_operand(acc);
      if (kt > 0) release((kt - 1) % kStages);
    }
    wgmma_wait<0>();
    fence_operand(acc);
    release((ktiles - 1) % kStages);
    GS_PROBE(probe.stage(kEpilogue));
    store_acc<kBlockN>(g, acc, m0 + c * kWgM, n0, wt, probe);
  }
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

}  // namespace gs::hopper_03_warp_specialized
