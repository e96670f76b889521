// wmma/10_warp_128x64. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_10_warp_128x64 {

inline constexpr const char* kTitle = "f16 accumulators: 128x64 warp tiles, 256x256 block tile (f16.f16 only)";
inline constexpr const char* kAdds =
    "A 16x16 fragment of f16 accumulators is 4 registers per lane where fp32 takes 8, so a warp can own a 128x64 "
    "tile of C (32 accumulator fragments, 128 registers) where 09 stopped at 64x64: per 16-deep k-step 12 "
    "load_matrix_sync feed 32 mma_sync (09: 8 feed 16), a quarter fewer ldmatrix bytes per HMMA, and the 256x256 "
    "block tile (2 x 4 warps) moves a third fewer global -> shared bytes per FLOP than 128x256. Same loop as 09 "
    "(fragments one k-step ahead, copies spread, 3 stages, padded rows). f16.f16 only: with fp32 accumulators "
    "this tile needs 256 registers per lane. On an H100 at 4096^3 and 8192^3, 3 to 6 points of cuBLAS above 09; "
    "at 2048^3 its 64 blocks leave half of the 132 SMs idle (0.36 of cuBLAS against 09's 0.63 on an H100, 0.67 on an H200).";

}  // namespace gs::wmma_10_warp_128x64

// Why: at the H100's power limit the ratio to cuBLAS is an energy ratio (bench/NOTES.md), and mma.sync pays for
// every operand twice, once into shared memory and once through ldmatrix into registers. 09's loop issues 8
// ldmatrix.x4 (4 KB) per 32 HMMA; this one 12 per 64, so shared-memory reads per FLOP fall by a quarter, and the
// address arithmetic load_matrix_sync needs per load (bench/NOTES.md, wmma/09) is spread over twice the HMMA:
// 2.55 instructions per HMMA in the loop against 09's 2.90 (cuobjdump). The block is still 8 warps, 2 per
// scheduler: it hides latency no better than 09, it has less to issue and to move. The costs: 255 registers per
// thread with 20 bytes of copy state spilled (5 LDL per k-tile per thread, served by L1), and a tile of 256x256
// gives a 2048^2 C only 64 blocks. Measured (bench/NOTES.md, "wmma/10_warp_128x64"): f16.f16 0.54-0.58 of
// cuBLAS at 4096^3 and 0.59-0.63 at 8192^3, where 09 read 0.50-0.53 and 0.55-0.57 in the same processes.

#include <type_traits>

#include <mma.h>

#include "kernels/block_order.cuh"
#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/wmma/common.cuh"

namespace gs::wmma_10_warp_128x64 {

namespace wmma = nvcuda::wmma;
using wmma_common::kTile;

inline constexpr int kFragsM = 8, kFragsN = 4;    // fragments per warp: a 128x64 warp tile (09: 4 x 4)
inline constexpr int kWarpsM = 2, kWarpsN = 4;    // warps per block: 2 x 4, as in 08 and 09
inline constexpr int kWarpM = kFragsM * kTile;    // 128
inline constexpr int kWarpN = kFragsN * kTile;    // 64
inline constexpr int kBlockM = kWarpsM * kWarpM;  // 256 x 256 tile of C per block
inline constexpr int kBlockN = kWarpsN * kWarpN;
inline constexpr int kBlockK = 64;
inline constexpr int kSteps = kBlockK / kTile;    // 4 k-steps of 16 per k-tile
inline constexpr int kStages = 3;                 // as in 09; 4 would take 283 KB
inline constexpr int kPad = 8;                    // halves per row, as in 05-09
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kWarps = kThreads / 32;
inline constexpr int kLdA = kBlockK + kPad, kLdB = kBlockN + kPad;  // 72 and 264 halves: 9 and 33 x 16 B
inline constexpr int kStageElems = kBlockM * kLdA + kBlockK * kLdB;  // 35,328 halves
inline constexpr int kCopiesA = kBlockM * kBlockK / 8 / kThreads;   // 8 chunks of A per thread per k-tile
inline constexpr int kCopiesB = kBlockK * kBlockN / 8 / kThreads;   // 8 of B
inline constexpr int kCopyParts = kSteps - 1;                       // issued during k-steps 0, 1, 2
inline constexpr int kCopies = kCopiesA + kCopiesB;                 // 16: parts of 5, 5 and 6
inline constexpr int kLdC = kWarpN + 8;           // epilogue staging rows, as in 08 and 09
inline constexpr int kSmemBytes = kStages * kStageElems * 2;  // 211,968 bytes of the 227 KB a block may use
static_assert(kWarps * kTile * kLdC * 2 <= kSmemBytes, "the f16 staging fits in the pipeline's bytes");
inline constexpr const char* kShapeRule = "";  // any M, N, K, as in 06
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kPrologue, kWait, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait (cp.async + barrier)", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad, kCStage, kCRead };
inline constexpr const char* kSmemSites[] = {"As store (cp.async)", "Bs store (cp.async)", "As load (frag)",
                                             "Bs load (frag)", "C staging store (store_matrix_sync)",
                                             "C staging load (16 B)"};

// kAhead: fragments of the next k-step loaded before this step's mma_sync (the rung); false loads them after,
// as 08 did.
template <class Probe, class TOut, bool kVec, bool kAhead = true>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<__half, TOut> g, Probe probe, BlockOrder order) {
  static_assert(std::is_same_v<TOut, __half>, "a 128x64 tile of fp32 accumulators needs 256 registers per lane");
  constexpr int S = kStages;
  extern __shared__ __align__(128) unsigned char smem[];
  __half* const stages = reinterpret_cast<__half*>(smem);  // stage s: As (256, 72) then Bs (64, 264)

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;  // the warp's 128x64 tile: rows wm*128, cols wn*64
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  int tile_m, tile_n;
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  const int bm0 = tile_m * kBlockM, bn0 = tile_n * kBlockN;
  GS_PROBE(probe.block_begin(tile_m, tile_n));
  const int num_kt = (g.k + kBlockK - 1) / kBlockK;

  // This thread's chunks, as in 08: A rows 32 apart in one column (8 of them), B rows 8 apart in one column.
  constexpr int kStepA = kThreads / (kBlockK / 8), kStepB = kThreads / (kBlockN / 8);
  const wmma_common::AChunks<kVec, kCopiesA, kStepA> ca(g.a, g.m, g.k, bm0 + tid / (kBlockK / 8),
                                                        tid % (kBlockK / 8) * 8);
  const wmma_common::BChunks<kVec, kCopiesB, kStepB> cb(g.b, g.n, tid / (kBlockN / 8),
                                                        bn0 + tid % (kBlockN / 8) * 8);
  __half* const as0 = stages + (ca.row0 - bm0) * kLdA + ca.c;                    // chunk 0's place, stage 0
  __half* const bs0 = stages + kBlockM * kLdA + cb.r0 * kLdB + (cb.col - bn0);
  // Part `part` of k-tile kt's copies into stage s: copies c in [16 part / 3, 16 (part + 1) / 3), A's for c < 8,
  // B's after.
  auto issue = [&](int kt, int s, int part) {
#pragma unroll
    for (int c = part * kCopies / kCopyParts; c < (part + 1) * kCopies / kCopyParts; ++c) {
      if (c < kCopiesA) {
        __half* dst = as0 + s * kStageElems + c * kStepA * kLdA;
        ca.copy(c, dst, g.a, g.m, g.k, kt * kBlockK, probe);
        GS_PROBE(probe.smem(kAsStore, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
      } else {
        const int p = c - kCopiesA;
        __half* dst = bs0 + s * kStageElems + p * kStepB * kLdB;
        cb.copy(p, dst, g.b, g.k, g.n, kt * kBlockK, probe);
        GS_PROBE(probe.smem(kBsStore, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
      }
    }
  };

  using FragA = wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major>;
  using FragB = wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major>;
  FragA fa[2][kFragsM];
  FragB fb[2][kFragsN];
  // Fragments of k-step kk of the tile in stage s into set `set`.
  auto load_frags = [&](int s, int kk, FragA(&a)[kFragsM], FragB(&b)[kFragsN]) {
    const __half* as_tile = stages + s * kStageElems;
    const __half* bs_tile = as_tile + kBlockM * kLdA;
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
      const __half* p = as_tile + (wm * kWarpM + i * kTile) * kLdA + kk * kTile;  // A rows of fragment i
      GS_PROBE(probe.smem(kAsLoad, wmma_common::ldsm_row(p, kLdA, lane), 16, SmemKind::kLdmatrix));
      wmma::load_matrix_sync(a[i], p, kLdA);
    }
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      const __half* p = bs_tile + kk * kTile * kLdB + wn * kWarpN + j * kTile;  // B rows kk*16 .., fragment j
      GS_PROBE(probe.smem(kBsLoad, wmma_common::ldsm_row(p, kLdB, lane), 16, SmemKind::kLdmatrix));
      wmma::load_matrix_sync(b[j], p, kLdB);
    }
  };

  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], from_float<TOut>(0.0f));
  }

  // Prologue: k-tiles 0 .. S-2 in flight, one commit group each (empty past the last k-tile), so group g
  // is always k-tile g and the waits below always mean the same.
  GS_PROBE(probe.iteration(0));
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < num_kt) {
#pragma unroll
      for (int part = 0; part < kCopyParts; ++part) issue(s, s, part);
    }
    wmma_common::cp_async_commit();
  }
  wmma_common::cp_async_wait<S - 2>();  // all but the newest S - 2 groups: k-tile 0 has landed
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));
  if constexpr (kAhead) load_frags(0, 0, fa[0], fb[0]);

  GS_PROBE(probe.stage(kCompute));
  // k-tile kt lives in stage kt % S. As in 09 the loop takes S k-tiles a pass, so that every stage index below
  // is a constant and its part of each address an immediate offset. The scalar path (K or N not a multiple of
  // 8) keeps one k-tile a pass: unrolled, its guarded copies spill.
  for (int kt0 = 0; kt0 < num_kt; kt0 += S) {
#pragma unroll(kVec ? S : 1)
    for (int read = 0; read < S; ++read) {
      const int kt = kt0 + read;
      if (kt >= num_kt) break;
      const int write = (read + S - 1) % S;  // the stage k-tile kt - 1 used, refilled with k-tile kt + S - 1
      GS_PROBE(probe.iteration(kt));
#pragma unroll
      for (int kk = 0; kk < kSteps; ++kk) {
        if (kk == kSteps - 1) {
          // The next fragments come from k-tile kt + 1. S - 1 + kt + 1 groups are committed, the newest holding
          // k-tile kt + S - 1: with S - 2 left in flight, k-tile kt + 1 is in. The barrier publishes every
          // thread's copies and closes the reads of k-tile kt's stage (the last at step kk - 1 when ahead),
          // which the next k-tile refills.
          GS_PROBE(probe.stage(kWait));
          wmma_common::cp_async_wait<S - 2>();
          GS_PROBE(probe.mark(Mark::kCpAsyncWait));
          if constexpr (kAhead) {
            __syncthreads();
            GS_PROBE(probe.mark(Mark::kBarrier));
          }
          GS_PROBE(probe.stage(kCompute));
        }
        const int cur = kAhead ? kk % 2 : 0;
        if constexpr (kAhead) {
          // Step kk + 1's fragments (k-tile kt + 1's first at the last step) before this step's mma_sync.
          if (kk < kSteps - 1 || kt + 1 < num_kt)
            load_frags(kk == kSteps - 1 ? (read + 1) % S : read, (kk + 1) % kSteps, fa[(kk + 1) % 2], fb[(kk + 1) % 2]);
        } else {
          load_frags(read, kk, fa[0], fb[0]);
        }
        if (kk < kCopyParts) {
          if (kt + S - 1 < num_kt) issue(kt + S - 1, write, kk);  // past the last k-tile: an empty group
          if (kk == kCopyParts - 1) wmma_common::cp_async_commit();  // one group per k-tile
        }
#pragma unroll
        for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
          for (int n = 0; n < kFragsN; ++n) {
            const int j = i % 2 ? kFragsN - 1 - n : n;  // serpentine: a row's last B fragment is the next row's first
            wmma::mma_sync(acc[i][j], fa[cur][i], fb[cur][j], acc[i][j]);
          }
        }
        if constexpr (!kAhead) {
          if (kk == kSteps - 1) {
            __syncthreads();  // after the last reads of k-tile kt's stage
            GS_PROBE(probe.mark(Mark::kBarrier));
          }
        }
      }
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
  GS_PROBE(probe.epilogue());
  wmma_common::cp_async_wait<0>();  // only zero-filled groups remain, but nothing may land in the staging
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
  __syncthreads();                  // every warp is done reading the stages
  GS_PROBE(probe.mark(Mark::kBarrier));
  TOut* const cs = reinterpret_cast<TOut*>(smem) + warp * kTile * kLdC;  // (16, 64) staging, this warp's
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      GS_PROBE(wmma_common::probe_acc_pairs(probe, kCStage, cs + j * kTile, kLdC, lane, SmemKind::kStore));
      wmma::store_matrix_sync(cs + j * kTile, acc[i][j], kLdC, wmma::mem_row_major);
    }
    __syncwarp();
    wmma_common::write_c_tile<kTile, kWarpN, 32>(cs, kLdC, g, bm0 + wm * kWarpM + i * kTile,
                                                 bn0 + wn * kWarpN, lane, kCRead, probe);
    __syncwarp();
  }
  GS_PROBE(probe.block_end());
}

inline constexpr const char* kAheadOffAdds =
    "Variant: the same kernel with one set of fragments: each k-step loads its 12 fragments and then computes on "
    "them (08's order), and the barrier follows the k-tile's last mma_sync. Tile, copies and stages as in the "
    "rung, so only the pipelining of fragments is switched off.";

template <class Probe, class TOut, bool kVec, bool kAhead>
cudaError_t launch_with(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  static const cudaError_t attr =
      cudaFuncSetAttribute(kernel<Probe, TOut, kVec, kAhead>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  if (attr != cudaSuccess) return attr;
  const BlockOrder order{};  // row-major tiles, as 08 and 09 (256 columns of B per tile row)
  const dim3 grid = order_grid(order, (g.m + kBlockM - 1) / kBlockM, (g.n + kBlockN - 1) / kBlockN);
  kernel<Probe, TOut, kVec, kAhead><<<grid, kThreads, kSmemBytes, stream>>>(g, probe, order);
  return cudaGetLastError();
}

// kAhead false: the variant [ahead=off].
template <class Probe, class TOut, bool kAhead = true>
cudaError_t launch(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  const bool vec = g.k % 8 == 0 && g.n % 8 == 0 && wmma_common::aligned16(g.a) && wmma_common::aligned16(g.b);
  return vec ? launch_with<Probe, TOut, true, kAhead>(g, probe, stream)
             : launch_with<Probe, TOut, false, kAhead>(g, probe, stream);
}

template <class Probe, class TOut>
cudaError_t launch_ahead_off(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, TOut, false>(g, probe, stream);
}

}  // namespace gs::wmma_10_warp_128x64
