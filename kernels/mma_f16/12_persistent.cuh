// mma_f16/12_persistent. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_12_persistent {

inline constexpr const char* kTitle = "Persistent blocks: the producer runs into the next tile";
inline constexpr const char* kAdds =
    "11 with one block per SM walking its tiles in 11's order. The producer's k-loop does not stop at a tile's "
    "end: while the mma warps finish a tile and store it, TMA already fills the stages with the next tile's first "
    "k-tiles, and the mma warps load the next tile's first fragments before their epilogue. C goes out straight "
    "from the accumulators (8 bytes per lane, whole 32-byte sectors), so the epilogue needs no shared memory.";

}  // namespace gs::mma_f16_12_persistent

#include "kernels/mma_f16/11_tma_producer.cuh"

namespace gs::mma_f16_12_persistent {

using namespace gs::mma_f16;
namespace r11 = gs::mma_f16_11_tma_producer;
using r11::kAStageBytes, r11::kBarOffset, r11::kBBoxBytes, r11::kBlockK, r11::kBlockM, r11::kBlockN, r11::kBStageBytes,
    r11::kKI, r11::kMaxLogTile, r11::kMI, r11::kMmaRegs, r11::kMmaWarps, r11::kNI, r11::kProducerRegs, r11::kRowBytes,
    r11::kShapeRule, r11::kSmemBytes, r11::kStageBytes, r11::kStages, r11::kThreads, r11::kWarpM, r11::kWarpN,
    r11::kWarpsM, r11::kWarpsN, r11::supports;
using gs::hopper::kBoxN;

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue", "wait full", "mma", "epilogue"};
enum Site : int { kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As ldmatrix.x4", "Bs ldmatrix.x4.trans"};

// The tiles of block `b` in launch order (the cutlass:L grid of 11, walked linearly: slot t is 11's block
// (t % gx, t / gx)), skipping the last band's overhang. `slots` = gx x gy.
struct TileWalk {
  int gx, slots, tiles_n, log;
  __device__ __forceinline__ bool tile_of(int t, int* tm, int* tn) const {
    const int bx = t % gx, by = t / gx;
    *tm = bx >> log;
    *tn = (by << log) + (bx & ((1 << log) - 1));
    return *tn < tiles_n;
  }
  // The first slot at or after t that is a tile, or slots.
  __device__ __forceinline__ int next(int t, int stride, int* tm, int* tn) const {
    for (; t < slots; t += stride)
      if (tile_of(t, tm, tn)) return t;
    return slots;
  }
};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           GemmArgs<__half, float> g, Probe probe, TileWalk walk) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t as = gs::hopper::smem_base();
  const uint32_t bs = as + kStages * kAStageBytes;
  const uint32_t full = as + kBarOffset;
  const uint32_t empty = full + 8 * kStages;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int stride = gridDim.x;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;
  int tile_m, tile_n;
  int t = walk.next(blockIdx.x, stride, &tile_m, &tile_n);
  if (t >= walk.slots) return;
  GS_PROBE(probe.block_begin(-1, -1));  // tiles get their records from probe.tile(), as in hopper/04

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
      int it = 0;  // k-tiles issued by this block, over all its tiles: stage it % 4, round it / 4
      for (int tt = t, tm = tile_m, tn = tile_n; tt < walk.slots; tt = walk.next(tt + stride, stride, &tm, &tn)) {
        GS_PROBE(probe.tile(tt, tm, tn));
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          const int s = it % kStages;
          GS_PROBE(probe.stage(kWaitEmpty));
          gs::hopper::mbar_wait(empty + 8 * s, ((it / kStages) & 1) ^ 1);
          GS_PROBE(probe.stage(kIssue));
          if (lane == 0) {
            const uint32_t bar = full + 8 * s;
            gs::hopper::mbar_arrive_expect_tx(bar, kStageBytes);
            gs::hopper::tma_load_2d(as + s * kAStageBytes, &tma_a, kt * kBlockK, tm * kBlockM, bar);
#pragma unroll
            for (int j = 0; j < kBlockN / kBoxN; ++j) {
              gs::hopper::tma_load_2d(bs + s * kBStageBytes + j * kBBoxBytes, &tma_b, tn * kBlockN + j * kBoxN,
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
  const int wm0 = (warp / kWarpsN) * kWarpM, wn0 = (warp % kWarpsN) * kWarpN;
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

  float acc[kMI][kNI][4] = {};
  uint32_t af[2][kMI][4], bf[2][kNI][2];
  GS_PROBE(probe.tile(t, tile_m, tile_n));
  GS_PROBE(probe.stage(kWaitFull));
  gs::hopper::mbar_wait(full, 0);
  GS_PROBE(probe.stage(kMma));
  load_frags(0, 0, af[0], bf[0]);
  int s = 0, phase = 0;
  int tt = t;
  while (true) {
    // The next tile, known before this one's last k-tile, whose first fragments that k-tile loads.
    int nm, nn;
    const int nt = walk.next(tt + stride, stride, &nm, &nn);
    for (int kt = 0; kt < ktiles; ++kt) {
      GS_PROBE(probe.iteration(kt));
      const int next = s == kStages - 1 ? 0 : s + 1;
      const bool more = kt + 1 < ktiles || nt < walk.slots;  // another k-tile comes to this block
#pragma unroll
      for (int kk = 0; kk < kKI; ++kk) {
        if (kk == kKI - 1) {
          if (more) {
            GS_PROBE(probe.stage(kWaitFull));
            gs::hopper::mbar_wait(full + 8 * next, next == 0 ? phase ^ 1 : phase);
            GS_PROBE(probe.stage(kMma));
          }
          load_frags(next, 0, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
        } else {
          load_frags(s, kk + 1, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
        }
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
          for (int n = 0; n < kNI; ++n) {
            const int ni = mi % 2 ? kNI - 1 - n : n;
            mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
          }
        }
      }
      __syncwarp();
      if (lane == 0) gs::hopper::mbar_arrive(empty + 8 * s);
      if (next == 0) phase ^= 1;
      s = next;
    }
    // Epilogue from the accumulators while TMA fills the next tile's stages.
    GS_PROBE(probe.stage(kEpilogue));
    GS_PROBE(probe.epilogue());
    const int row0 = tile_m * kBlockM + wm0, col0 = tile_n * kBlockN + wn0;
    const bool inside = tile_m * kBlockM + kBlockM <= g.m && tile_n * kBlockN + kBlockN <= g.n;
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
        if (inside) {
          store_c_frag(g, row0 + mi * kMmaM, col0 + ni * kMmaN, lane, acc[mi][ni], probe);
        } else {
          store_c_frag_guarded(g, row0 + mi * kMmaM, col0 + ni * kMmaN, lane, acc[mi][ni], probe);
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[mi][ni][i] = 0.0f;
      }
    }
    if (nt >= walk.slots) break;
    tt = nt, tile_m = nm, tile_n = nn;
    GS_PROBE(probe.tile(tt, tile_m, tile_n));
    GS_PROBE(probe.stage(kMma));
  }
  GS_PROBE(probe.block_end());
#endif
}

template <class Probe, int kOrder = kOrderDefault>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = gs::hopper::require_sm90a(); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  static const int sms = [] {
    int dev = 0, n = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev);
    return n;
  }();
  CUtensorMap ta, tb;
  if (const cudaError_t e = gs::hopper::make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int log = banded_log_tile(tiles_n, kMaxLogTile);
  const dim3 grid11 = order_grid(BlockOrder{BlockOrder::kCutlass, log}, tiles_m, tiles_n);
  const TileWalk walk{int(grid11.x), int(grid11.x * grid11.y), tiles_n, log};
  const int blocks = std::min(walk.slots, std::max(1, sms));
  kernel<Probe><<<blocks, kThreads, kSmemBytes, stream>>>(ta, tb, g, probe, walk);
  return cudaGetLastError();
}

}  // namespace gs::mma_f16_12_persistent
