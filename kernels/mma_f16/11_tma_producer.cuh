// mma_f16/11_tma_producer. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_11_tma_producer {

inline constexpr const char* kTitle = "A TMA producer warpgroup feeds the mma warps";
inline constexpr const char* kAdds =
    "The copies leave the math warps. A producer warpgroup (one lane of warp 8 issues) waits for a stage to be "
    "empty and refills it with three TMA boxes (A 256x64, B as two 64x64), which TMA's 128B swizzle writes in "
    "rung 09's XOR layout; the eight mma warps, 10's, only wait for the stage's full mbarrier, ldmatrix and mma, "
    "and release it with one arrival per warp. No cp.async, copy address or __syncthreads is left in their "
    "k-loop, and all 4 stages are in flight. setmaxnreg gives the mma warps 240 registers, the producer 24 "
    "(sm_90a code). On an H200, timed beside 10 in one bench: 6% faster at 4096^3 and 7% at 8192^3 (that bench, "
    "whose launches alternate, reads each a few points of cuBLAS below a capture: 63.0% against 59.2% at "
    "4096^3; bench/NOTES.md).";

}  // namespace gs::mma_f16_11_tma_producer

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_11_tma_producer {

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
inline constexpr int kBarOffset = kStages * kStageBytes;           // 192 KB, then full[4], empty[4]
inline constexpr int kSmemBytes = kBarOffset + 2 * kStages * 8 + kAtom;
inline constexpr int kMaxLogTile = 4;  // 10's bands
static_assert(kWarpN == kBoxN, "each mma warp's columns lie in one box of B");
using gs::hopper::kShapeRule;
using gs::hopper::supports;

// Epilogue staging as in 10: each warp's 64x64 fp32 tile in rows of 256 bytes, 32-byte units XORed with row % 4.
inline constexpr int kCsRowBytes = kWarpN * 4;
inline constexpr int kCsWarpBytes = kWarpM * kCsRowBytes;  // 16 KB; 8 warps take 128 KB of the stages' 192
static_assert(kMmaWarps * kCsWarpBytes <= kBarOffset, "staging stays clear of the mbarriers");
__device__ __forceinline__ uint32_t cs_offset(int row, int col) {
  return row * kCsRowBytes + (((col / 8) ^ (row % 4)) * 32) + (col % 8) * 4;
}

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue", "wait full", "mma", "epilogue"};
enum Site : int { kAsFrag, kBsFrag, kCStage, kCRead };
inline constexpr const char* kSmemSites[] = {"As ldmatrix.x4", "Bs ldmatrix.x4.trans", "C staging store (8 B)",
                                             "C staging load (16 B)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           GemmArgs<__half, float> g, Probe probe, BlockOrder order) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t as = gs::hopper::smem_base();      // kStages x (256, 64) halves, 128B-swizzled (TMA)
  const uint32_t bs = as + kStages * kAStageBytes;  // kStages x 2 boxes of (64 k, 64 n)
  const uint32_t full = as + kBarOffset;            // stage s landed: 1 arrival + 48 KB of TMA
  const uint32_t empty = full + 8 * kStages;        // stage s read: one arrival per mma warp
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  int tile_m, tile_n;
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  const int bm0 = tile_m * kBlockM, bn0 = tile_n * kBlockN;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;  // TMA fills zeros past K, M and N
  GS_PROBE(probe.block_begin(tile_m, tile_n));

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

  // Step: a producer warpgroup refills the stages by TMA; the mma warps below only wait.
  if (warp >= kMmaWarps) {
    gs::hopper::setmaxnreg_dec<kProducerRegs>();
    // Producer: warp 8 walks the k-loop (its probe stamps stay warp-uniform) and its lane 0 issues; warps 9-11
    // only gave their registers away.
    for (int kt = 0; kt < ktiles && warp == kMmaWarps; ++kt) {
      const int s = kt % kStages;
      GS_PROBE(probe.stage(kWaitEmpty));
      gs::hopper::mbar_wait(empty + 8 * s, ((kt / kStages) & 1) ^ 1);  // round 0 waits for the phase before: done
      GS_PROBE(probe.stage(kIssue));
      if (lane == 0) {
        const uint32_t bar = full + 8 * s;
        gs::hopper::mbar_arrive_expect_tx(bar, kStageBytes);
        gs::hopper::tma_load_2d(as + s * kAStageBytes, &tma_a, kt * kBlockK, bm0, bar);  // A[bm0 ..][k0 ..]
#pragma unroll
        for (int j = 0; j < kBlockN / kBoxN; ++j) {  // B[k0 ..][bn0 + 64 j ..]
          gs::hopper::tma_load_2d(bs + s * kBStageBytes + j * kBBoxBytes, &tma_b, bn0 + j * kBoxN, kt * kBlockK, bar);
        }
      }
      __syncwarp();
    }
    GS_PROBE(probe.block_end());
    return;
  }

  gs::hopper::setmaxnreg_inc<kMmaRegs>();
  const int wm0 = (warp / kWarpsN) * kWarpM, wn0 = (warp % kWarpsN) * kWarpN;
  // Fragments exactly as in 10: TMA's 128B swizzle puts 16-byte chunk c of a 128-byte row r at c ^ (r % 8), the
  // permutation rung 09 wrote by hand, so the addresses are 10's. A's rows are 10's; B's 256-byte rows are now
  // two boxes of 128-byte rows, and each warp's 64 columns are one box.
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
  GS_PROBE(probe.stage(kWaitFull));
  gs::hopper::mbar_wait(full, 0);
  GS_PROBE(probe.stage(kMma));
  load_frags(0, 0, af[0], bf[0]);
  int s = 0, phase = 0;  // stage of tile kt, and the parity of its round
  for (int kt = 0; kt < ktiles; ++kt) {
    GS_PROBE(probe.iteration(kt));
    const int next = s == kStages - 1 ? 0 : s + 1;
#pragma unroll
    for (int kk = 0; kk < kKI; ++kk) {
      if (kk == kKI - 1) {
        // Step 0 of tile kt + 1 loads its fragments now, from a stage TMA must have filled. Past the last tile
        // they are read from a stage nobody writes any more, and never used.
        if (kt + 1 < ktiles) {
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
          const int ni = mi % 2 ? kNI - 1 - n : n;  // serpentine, as in 10
          mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
        }
      }
    }
    // The mma of step 3 consumed the last fragments read from stage s: the warp releases it to the producer.
    __syncwarp();
    if (lane == 0) gs::hopper::mbar_arrive(empty + 8 * s);
    if (next == 0) phase ^= 1;
    s = next;
  }

  GS_PROBE(probe.stage(kEpilogue));
  GS_PROBE(probe.epilogue());
  // As in 10, C leaves through shared memory 16 bytes per lane. Every TMA box has landed (each was waited for),
  // so once all mma warps are past their last ldmatrix the stages are staging space: a barrier of the 256 mma
  // threads (named barrier 1; the producer warp has left).
  asm volatile("bar.sync 1, %0;\n" ::"n"(kMmaWarps * 32) : "memory");
  GS_PROBE(probe.mark(Mark::kBarrier));
  const uint32_t cs = as + warp * kCsWarpBytes;
#pragma unroll
  for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {  // h = 0: (c0, c1) at row g; h = 1: (c2, c3) at row g + 8
        const int row = mi * kMmaM + lane / 4 + 8 * h, col = ni * kMmaN + 2 * (lane % 4);
        GS_PROBE(probe.smem(kCStage, smem_generic(cs + cs_offset(row, col)), 8, SmemKind::kStore));
        st_shared_f32x2(cs + cs_offset(row, col), acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
      }
    }
  }
  __syncwarp();  // the warp reads back only what its own lanes wrote
  const int row0 = bm0 + wm0, col = bn0 + wn0 + 4 * (lane % 16);
#pragma unroll 4
  for (int r = lane / 16; r < kWarpM; r += 2) {
    GS_PROBE(probe.smem(kCRead, smem_generic(cs + cs_offset(r, 4 * (lane % 16))), 16, SmemKind::kLoad));
    const float4 v = ld_shared_f32x4(cs + cs_offset(r, 4 * (lane % 16)));
    if (row0 + r < g.m && col < g.n) {  // N % 8 == 0: a 4-column group is wholly inside C or past its edge
      GS_PROBE(probe.gmem(kGmemC, g.c + static_cast<size_t>(row0 + r) * g.n + col, 16, GmemKind::kStore));
      update_c_quad(g.c + static_cast<size_t>(row0 + r) * g.n + col, v, g.alpha, g.beta);
    }
  }
  GS_PROBE(probe.block_end());
#endif
}

// The registry's availability check: nullptr on an sm_90 GPU, otherwise why not.
inline const char* unavailable_here() {
  return gs::hopper::require_sm90a() == cudaSuccess
             ? nullptr
             : "unavailable on this GPU: mma_f16/11 is built for sm_90a only (TMA, setmaxnreg) and needs compute "
               "capability 9.0 (H100, H200)";
}

template <class Probe, int kOrder = kOrderDefault>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = gs::hopper::require_sm90a(); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  CUtensorMap ta, tb;
  if (const cudaError_t e = gs::hopper::make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const BlockOrder order = variant_order<kOrder>(tiles_n, kMaxLogTile);
  const dim3 grid = order_grid(order, tiles_m, tiles_n);
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(ta, tb, g, probe, order);
  return cudaGetLastError();
}

}  // namespace gs::mma_f16_11_tma_producer
