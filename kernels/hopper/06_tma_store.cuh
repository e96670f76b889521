// hopper/06_tma_store. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::hopper_06_tma_store {

inline constexpr const char* kTitle = "Epilogue through shared memory and TMA store";
inline constexpr const char* kAdds =
    "The accumulators leave through shared memory: per 64x32 fp32 chunk a consumer warpgroup writes its registers "
    "into a 128B-swizzled staging buffer (st.shared.v2; lanes take the column groups in an order that gives two "
    "wavefronts per 256 bytes, the least there can be), "
    "fences them to the async proxy, and one thread hands the chunk to TMA, which writes whole 128-byte lines "
    "of C and clips at its edges. Two 8 KB buffers per warpgroup: the next chunk is staged while TMA drains the "
    "last, and the warpgroup goes on to the next tile's wgmma without waiting for its stores (64 scattered "
    "8-byte stores per thread before). stmatrix, the issue's suggestion, moves 16-bit elements only; C is fp32. "
    "Otherwise rung 05: persistent 2x1 clusters with B multicast. Interleaved with cuBLAS it measured 0.990 / "
    "0.995 / 1.017 (H100) and 0.975 / 1.006 / 1.026 (H200) of cuBLAS at 2048 / 4096 / 8192: parity, both held at "
    "about 1.56 GHz by the 700 W limit.";

}  // namespace gs::hopper_06_tma_store


#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/probe.cuh"

namespace gs::hopper_06_tma_store {

using namespace gs::hopper;

inline constexpr int kBlockM = 128, kBlockN = 256, kBlockK = kBoxK;
inline constexpr int kCluster = 2;
inline constexpr int kWgM = 64;
inline constexpr int kConsumers = kBlockM / kWgM;
inline constexpr int kThreads = (1 + kConsumers) * kWarpgroup;
inline constexpr int kConsumerWarps = kConsumers * 4;
inline constexpr int kProducerRegs = 40, kConsumerRegs = 232;
inline constexpr int kStages = 4;
inline constexpr int kGroup = 8;  // cluster-tile rows per band (4, 8, 16 measured within 3% at 4096^3)
inline constexpr int kAStageBytes = kBlockM * kBlockK * 2;
inline constexpr int kBBoxBytes = kBlockK * kBoxN * 2;
inline constexpr int kBStageBytes = kBlockK * kBlockN * 2;
inline constexpr int kBBoxesPerCta = kBlockN / kBoxN / kCluster;
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;
inline constexpr int kChunkN = 32;                                 // fp32 columns per staged chunk: 128 B rows
inline constexpr int kChunkBytes = kWgM * kChunkN * 4;             // (64, 32) fp32: 8 KB
inline constexpr int kCOffset = kStages * kStageBytes;             // 192 KB of stages, then the staging
inline constexpr int kBarOffset = kCOffset + kConsumers * 2 * kChunkBytes;  // + 32 KB: 2 buffers per warpgroup
inline constexpr int kSmemBytes = kBarOffset + 2 * kStages * 8 + kAtom;     // 225 KB of the 227 a block may have
using hopper::kShapeRule;
using hopper::supports;

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue", "wait full", "wgmma", "epilogue"};
// The one shared-memory access by the LSU: TMA and wgmma read and write shared memory on their own paths.
enum Site : int { kCStage };
inline constexpr const char* kSmemSites[] = {"C staging store (st.shared.v2, 128B swizzle)"};

using Ring = StageRing<kStages>;

template <class Probe>
__global__ void __cluster_dims__(kCluster, 1, 1) __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           const __grid_constant__ CUtensorMap tma_c, GemmArgs<__half, float> g, Probe probe) {
  const uint32_t smem = smem_base();
  const uint32_t a_tiles = smem;
  const uint32_t b_tiles = smem + kStages * kAStageBytes;
  const uint32_t c_stage = smem + kCOffset;   // consumer c's buffers at c_stage + (2 c + b) * 8 KB
  const uint32_t full = smem + kBarOffset;
  const uint32_t empty = full + 8 * kStages;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wg = tid / kWarpgroup, wt = tid % kWarpgroup;
  const int rank = static_cast<int>(cluster_rank());
  const int cluster = blockIdx.x / kCluster, clusters = gridDim.x / kCluster;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int ctiles_m = (tiles_m + kCluster - 1) / kCluster;
  const int ctiles = ctiles_m * tiles_n;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;
  GS_PROBE(probe.block_begin(-1, -1));  // tiles get their records from probe.tile(), as in rung 04

  if (tid == 0) {
    prefetch_tensormap(&tma_a);
    prefetch_tensormap(&tma_b);
    prefetch_tensormap(&tma_c);
    for (int s = 0; s < kStages; ++s) {
      mbar_init(full + 8 * s, 1);
      mbar_init(empty + 8 * s, kCluster * kConsumerWarps);
    }
    fence_barrier_init();
  }
  cluster_sync();

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
          mbar_wait(empty + 8 * r.stage, r.phase ^ 1);
          GS_PROBE(probe.stage(kIssue));
          if (lane == 0) {
            const uint32_t bar = full + 8 * r.stage;
            mbar_arrive_expect_tx(bar, kStageBytes);
            tma_load_2d(a_tiles + r.stage * kAStageBytes, &tma_a, kt * kBlockK, m0, bar);
#pragma unroll
            for (int i = 0; i < kBBoxesPerCta; ++i) {
              const int j = rank * kBBoxesPerCta + i;
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
    auto release = [&](int s) {
      __syncwarp();
      if (lane == 0) {
#pragma unroll
        for (int cta = 0; cta < kCluster; ++cta) mbar_arrive_cluster(empty + 8 * s, cta);
      }
    };
    // This thread's place in a staged (64, 32) chunk: rows r0 and r0 + 8 (r0 % 8 == lane / 4, the row's
    // swizzle key), columns 8 jj + 2 t + {0, 1} for jj = 0..3, i.e. byte 8 (t % 2) of 16-byte chunk 2 jj + t / 2,
    // which the 128B swizzle moves to chunk (2 jj + t / 2) ^ (lane / 4).
    // An 8-byte store is served per half-warp (16 lanes, 128 B). Storing group jj in step jj, lanes t and t ^ 2
    // of rows g and g ^ 1 would land in the same chunk: 2 wavefronts per half-warp (Nsight Compute: 4.8-way
    // conflicts over all the epilogue's stores). Lanes with t >= 2 take the groups in the order 2, 3, 0, 1
    // instead; then each half-warp's 16 lanes cover the 8 chunks exactly twice (one per 8-byte half): one
    // wavefront per half-warp, the least 256 bytes can take.
    const int r0 = 16 * (wt / 32) + lane / 4, t = lane % 4;
    const bool swap = t >= 2;
    const uint32_t my_buf = c_stage + 2 * c * kChunkBytes;
    Ring r;
    float acc[kBlockN / 2];
    for (int tt = cluster; tt < ctiles; tt += clusters) {
      const TileIndex ct = grouped_tile(tt, ctiles_m, tiles_n, kGroup);
      GS_PROBE(probe.tile(tt * kCluster + rank, ct.m * kCluster + rank, ct.n));
      const int m0 = (ct.m * kCluster + rank) * kBlockM + c * kWgM, n0 = ct.n * kBlockN;  // this warpgroup's rows
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
      GS_PROBE(probe.epilogue());  // the probe records this warp's first tile's staging stores
#pragma unroll
      for (int ch = 0; ch < kBlockN / kChunkN; ++ch) {  // 8 chunks of 32 columns
        const uint32_t buf = my_buf + (ch % 2) * kChunkBytes;
        // Buffer ch % 2 last went out with chunk ch - 2 (or the previous tile's chunk 6 or 7): the one thread
        // that issued that store waits until TMA has read it (at most the other buffer's store still reading),
        // and the barrier tells the warpgroup.
        if (wt == 0) tma_store_wait_read<1>();
        named_barrier(1 + c, kWarpgroup);
#pragma unroll
        for (int step = 0; step < kChunkN / 8; ++step) {
          const int jj = swap ? step ^ 2 : step;  // n8 group of the chunk this lane stores now (see above)
          const int ja = ch * (kChunkN / 8) + step, jb = ch * (kChunkN / 8) + (step ^ 2);  // accumulator groups
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int row = r0 + 8 * h, col = 8 * jj + 2 * t;  // in the chunk
            // registers 4 j + 2 h, + 1 of group j = ja or jb, picked without indexing registers at run time
            const float a0 = swap ? acc[4 * jb + 2 * h] : acc[4 * ja + 2 * h];
            const float a1 = swap ? acc[4 * jb + 2 * h + 1] : acc[4 * ja + 2 * h + 1];
            float v0 = g.alpha * a0, v1 = g.alpha * a1;
            if (g.beta != 0.0f) {  // BLAS: C is read only when beta != 0
              const int grow = m0 + row, gcol = n0 + ch * kChunkN + col;
              if (grow < g.m && gcol < g.n) {
                const float2 old = *reinterpret_cast<const float2*>(g.c + static_cast<size_t>(grow) * g.n + gcol);
                v0 = __fmaf_rn(g.alpha, a0, g.beta * old.x);
                v1 = __fmaf_rn(g.alpha, a1, g.beta * old.y);
              }
            }
            const uint32_t dst = buf + row * 128 + (((2 * jj + t / 2) ^ (lane / 4)) * 16) + (t % 2) * 8;
            GS_PROBE(probe.smem(kCStage, smem_generic(dst), 8, SmemKind::kStore));
            st_shared_f32x2(dst, v0, v1);
          }
        }
        fence_proxy_async_smem();  // this thread's stores, visible to TMA's reads (async proxy)
        named_barrier(1 + c, kWarpgroup);
        if (wt == 0) {
          tma_store_2d(&tma_c, n0 + ch * kChunkN, m0, buf);  // C[m0 .. +64][n0 + 32 ch .. +32], clipped
          tma_store_commit();
        }
      }
    }
    if (wt == 0) tma_store_wait_read<0>();  // the staging must outlive TMA's reads of it
  }
  GS_PROBE(probe.block_end());
  cluster_sync();
}

template <class Probe>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = require_sm90a(); e != cudaSuccess) return e;
  CUtensorMap ta, tb, tc;
  if (const cudaError_t e = make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  // C (M x N fp32) in boxes of {32 columns, 64 rows}: one chunk of one warpgroup, rows of 128 B, 128B-swizzled.
  if (const cudaError_t e = make_tensor_map(&tc, g.c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, g.m, g.n, kWgM, kChunkN);
      e != cudaSuccess)
    return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  static const int max_clusters = [] {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(kCluster * 1024);
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = kSmemBytes;
    int n = 0;
    if (cudaOccupancyMaxActiveClusters(&n, kernel<Probe>, &cfg) != cudaSuccess || n <= 0) {
      cudaGetLastError();
      int dev = 0, sms = 132;
      if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
      n = sms / kCluster;
    }
    return n;
  }();
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int ctiles = ((tiles_m + kCluster - 1) / kCluster) * tiles_n;
  const int clusters = ctiles < max_clusters ? ctiles : max_clusters;  // persistent, traced or not (see rung 05)
  kernel<Probe><<<clusters * kCluster, kThreads, kSmemBytes, stream>>>(ta, tb, tc, g, probe);
  return cudaGetLastError();
}

}  // namespace gs::hopper_06_tma_store
